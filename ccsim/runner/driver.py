"""The one driver loop of every analysis: tasks → ``backend.map`` → tally.

``run``, ``tournament`` and ``whatif`` build their tasks and their tally and hand
both to ``drive``, which does what they share: compiling before the clock (the
time counts games, never compiling), the progress bar, Ctrl-C between results
(whatever was tallied is kept; a result is tallied whole or not at all) and a
backend that fails mid-run (the tallied results are kept, the error is handed
back).
"""
from __future__ import annotations

import contextlib
import inspect
import signal
import sys
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Iterable

from ccsim.runner.backends import BackendError

#: seconds between two progress lines where stderr is no terminal (a log file, a pipe, a CI job)
LINE_EVERY = 10.0


class ProgressLines:
    """Progress where stderr is no terminal (never a silent half minute in a log): a plain
    line every ``LINE_EVERY`` seconds from a small thread, however long a task takes, instead of a bar
    redrawn in place."""

    def __init__(self, total: int, desc: str | None = None, stream=None, every: float = LINE_EVERY):
        self.total, self.desc, self.every, self.n = total, desc, every, 0
        self.stream = stream
        self.t0 = time.perf_counter()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._tick, name="ccsim-progress", daemon=True)
        self._thread.start()

    def _tick(self) -> None:
        while not self._stop.wait(self.every):
            head = f"{self.desc}: " if self.desc else ""
            try:
                print(f"{head}{self.n:,} of {self.total:,} games ({100 * self.n / max(self.total, 1):.0f}%), "
                      f"{time.perf_counter() - self.t0:.0f} s", file=self.stream or sys.stderr, flush=True)
            except (OSError, ValueError):  # stderr closed under us: nothing to tell
                return

    def update(self, n: int) -> None:
        self.n += n

    def set_postfix_str(self, text: str, refresh: bool = True) -> None:
        """What is being played now (a study's part), named in the next line."""
        self.desc = text

    def close(self) -> None:
        """Stop the lines (each line stands: nothing to clear)."""
        self._stop.set()
        self._thread.join()


def progress_bar(total: int, **options):
    """A tqdm bar counting games on stderr (it leaves no line behind unless asked); where stderr is no
    terminal, ``ProgressLines``."""
    if not sys.stderr.isatty():
        return ProgressLines(total, options.get("desc"))
    from tqdm import tqdm
    settings = dict(unit="game", unit_scale=True, smoothing=0.1, dynamic_ncols=True, leave=False)
    return tqdm(total=total, **{**settings, **options})


@dataclass(frozen=True)
class Drive:
    """How a drive ended: ``seconds`` of playing (from the first task after warming to the
    last result), whether Ctrl-C ended it early, and a backend's failure if one did."""
    seconds: float
    interrupted: bool
    failure: BackendError | None = None


def drive(backend, fn: Callable, tasks: Iterable, tally: Callable[[Any, Any], int], *, warm=None,
          total: int = 0, progress: bool = False, label: str | None = None) -> Drive:
    """Play ``tasks`` with ``fn`` on ``backend`` and hand each (task, result) to ``tally``,
    which returns the games it counted (for the progress bar over ``total`` games).

    ``warm``: a small task played first, off the clock, so that compiling (here or on the
    workers) is not counted as playing.  A Ctrl-C arriving while a result is tallied waits
    for the tally to finish; the drive then ends with ``interrupted``.  ``label``: the progress
    bar's caption, for a command that drives several times (a search's rounds).
    """
    tasks = list(tasks)
    bar, t0 = None, None
    interrupted, failure = False, None
    try:
        if tasks and warm is not None:
            backend.warm(fn, warm)
        bar = progress_bar(total, desc=label) if progress and total else None
        t0 = time.perf_counter()
        ahead = [0]  # games of the task under way the bar has counted already (its pieces, as played)

        def on_games(n: int) -> None:
            ahead[0] += n
            bar.update(n)

        for task, result in _mapped(backend, fn, tasks, on_games if bar else None):
            with ctrl_c_deferred():  # a result is in the tally whole, or not at all
                n = tally(task, result)
                if bar and n > ahead[0]:
                    bar.update(n - ahead[0])
                ahead[0] = 0
    except KeyboardInterrupt:
        interrupted = True  # (a second Ctrl-C is the ccsim command's to ignore: ccsim.cli.entry)
    except BackendError as e:
        interrupted, failure = True, e
    finally:
        # before any cluster is closed (that takes seconds); nothing played while warming
        seconds = time.perf_counter() - t0 if t0 is not None else 0.0
        if bar:
            bar.close()
    return Drive(seconds, interrupted, failure)


def _mapped(backend, fn, tasks, on_games):
    """``backend.map``, told to report games as a task plays them where it can (``LocalBackend``); a
    backend whose ``map`` takes no ``on_games`` reports whole tasks."""
    if on_games is None:
        return backend.map(fn, tasks)
    try:
        params = inspect.signature(backend.map).parameters
    except (TypeError, ValueError):
        params = {}
    return backend.map(fn, tasks, on_games=on_games) if "on_games" in params else backend.map(fn, tasks)


@contextlib.contextmanager
def ctrl_c_deferred():
    """Hold a Ctrl-C (SIGINT) that arrives inside the block until its end, where it is
    raised as KeyboardInterrupt.  Only where Ctrl-C raises KeyboardInterrupt (Python's
    own handler or the ``ccsim`` command's, in the main thread); elsewhere a no-op.  The held
    Ctrl-C goes to that handler at the end, as if it came then."""
    previous = signal.getsignal(signal.SIGINT)
    if threading.current_thread() is not threading.main_thread() or not callable(previous):
        yield
        return
    caught = []
    signal.signal(signal.SIGINT, lambda *_: caught.append(True))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if caught:
        previous(signal.SIGINT, None)  # raises KeyboardInterrupt
        raise KeyboardInterrupt  # (a handler that did not)

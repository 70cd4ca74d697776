"""Never a silent minute: a line on stderr while something compiles.

``compiling(what, seconds)`` wraps a step that may compile (the batch kernel's
first call, a strategy's entry, the game engine of ``ccsim play``).  When the
step lasts more than ``DELAY`` seconds and stderr is a terminal, a small thread
writes ``compiling the kernel (first use, ~30 s)… 12 s`` and updates the seconds
in place (``\\r``); the line ends with ``done in N s``.  Where stderr is not a
terminal (a pipe, a log file: ``2>err``) a batch run is not silent either: one plain
line, ``compiling the kernel (first use, ~30 s)…``, with no control codes.  A quick
load from the cache prints nothing.
``cold=False`` (the compiled code waits in numba's disk cache) says ``loading``
instead.  A notice inside another one says nothing: the outer one is ticking.  Each ``what`` is
announced once per process: the kernel compiled by the cold-start helper and then loaded
from the cache is one message, not two.
"""
from __future__ import annotations

import contextlib
import sys
import threading
import time

DELAY = 1.0   # seconds a step may take before it is announced
TICK = 1.0    # seconds between updates of the ticker

_active = threading.local()
_said: set = set()  # what has been announced in this process


def _is_tty(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def label(what: str, seconds: float | None = None, cold: bool = True) -> str:
    """``compiling <what> (first use, ~N s)…`` (or ``loading <what> from the cache…``)."""
    if not cold:
        return f"loading {what} from the cache…"
    return f"compiling {what} (first use{f', ~{seconds:.0f} s' if seconds else ''})…"


@contextlib.contextmanager
def compiling(what: str, seconds: float | None = None, cold: bool = True, stream=None, delay: float = DELAY):
    """Announce ``what`` on ``stream`` (stderr) while the block runs, if the block takes more
    than ``delay`` seconds: ticking on a terminal, one plain line elsewhere; see the module docstring."""
    stream = sys.stderr if stream is None else stream
    if getattr(_active, "on", False) or what in _said:
        yield
        return
    tty = _is_tty(stream)
    text = label(what, seconds, cold)
    stop = threading.Event()
    lock = threading.Lock()
    shown = [False]
    t0 = time.perf_counter()

    def write(s):
        with lock:
            try:
                stream.write(s)
                stream.flush()
            except (OSError, ValueError):
                pass
            shown[0] = True

    def tick():
        if stop.wait(delay):
            return
        if not tty:  # a log keeps every byte: one line, written once, no \r to redraw it
            write(f"{text}\n")
            return
        while True:
            write(f"\r{text} {time.perf_counter() - t0:.0f} s")
            if stop.wait(TICK):
                return

    thread = threading.Thread(target=tick, name="ccsim-compile-notice", daemon=True)
    _active.on = True
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()
        _active.on = False
        elapsed = time.perf_counter() - t0
        if tty and (shown[0] or elapsed >= delay):
            write(f"\r{text} done in {elapsed:.0f} s\033[K\n")
        elif not tty and not shown[0] and elapsed >= delay:  # over before the thread woke up
            write(f"{text} done in {elapsed:.0f} s\n")
        if shown[0]:
            _said.add(what)


# rough cold-compile times on one core (results/BENCHMARKS.md: the kernel ~25 s cold)
KERNEL_SECONDS = 30
ENGINE_SECONDS = 20   # the step functions of ``ccsim play`` / the Game API
_STRATEGY_SECONDS = {"expert": 30, "tactician": 20, "oracle": 20, "counter": 15, "defender": 15}
STRATEGY_SECONDS = 10


def strategy_seconds(name: str) -> int:
    return _STRATEGY_SECONDS.get(name, STRATEGY_SECONDS)


@contextlib.contextmanager
def first_call(dispatcher, what: str, seconds: float | None = None):
    """``compiling`` around the first call of a numba dispatcher in this process (nothing
    once it has a compiled signature; ``loading`` when its disk cache has an index)."""
    if getattr(dispatcher, "signatures", True):
        yield
        return
    from ccsim.toolchain.cache import on_disk
    with compiling(what, seconds, not on_disk(dispatcher)):
        yield

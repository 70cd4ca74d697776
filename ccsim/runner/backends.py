"""Where tasks run: this process (numba threads) or a Dask cluster.

A backend maps a module-level function over picklable tasks and yields
``(task, result)`` in task order.  Every command that plays games expresses
its work as such tasks (chunks of games); every game seeds its own random
streams from (seed, game index), so a run gives identical rows on either
backend, with any number of workers.

A command uses a backend in three steps (``run.run`` is the model)::

    with make_backend(backend, scheduler, workers, connect_timeout) as be:   # the shared CLI flags
        tasks = plan(be.chunk_size(games))   # games per task, unless the user said (--chunk-size)
        be.warm(fn, small_task)              # compile/load the kernels everywhere, before the clock starts
        for task, result in be.map(fn, tasks):
            ...

A task must carry everything that decides its games, resolved by the client
(``ChunkTask``); compiled strategy entries are addresses in one process, so a
task carries parameter vectors and the worker puts its own entries in
(``with_local_entries``).

Everything that can go wrong with a cluster (a scheduler that does not answer,
a malformed address, a worker running other ccsim sources, a task whose
workers keep dying, no workers left) raises ``BackendError``: one line, and a
``ConfigError``, so every command already turns it into ``ccsim: error: ...``
and exit status 2.
"""
from __future__ import annotations

import functools
import hashlib
import math
import os
import time
from collections import deque
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ccsim.toolchain.cache import strategy_roots
from ccsim.runner.config import DEFAULT_CONNECT_TIMEOUT, ConfigError, check_backend_flags

SALT_ENV = "CCSIM_FINGERPRINT_SALT"  # test hook: a worker with it set reports a different fingerprint
_POLL_S = 1.0  # how often a wait for a result looks whether any worker is left
# how long a run waits, at least, with every worker gone: a nanny restarts a killed worker in
# seconds, an adaptive cluster (dask-jobqueue) replaces a lost job later
_NO_WORKERS_GRACE_S = 30.0


class BackendError(ConfigError):
    """The backend cannot run the tasks (one line; a usage error, exit status 2)."""


@dataclass(frozen=True)
class Chunk:
    first: int          # first game index
    n: int              # games in the chunk
    swapped: bool       # seats swapped (the second game of a pair)


LOCAL_CHUNK_SIZE = 50_000  # games per task in this process: memory stays flat; blocks balance its threads
SEARCH_TASK_GAMES = 100    # games per task with a search player (a few games a second: ~10-30 s a task)
#: seconds of play a piece of a task aims at in this process (``LocalBackend``): a slow level's task
#: reports its games every few seconds as it plays them, not once at its end (a 50,000-game task of a
#: player at a few hundred games a second would hold the progress still for minutes)
PIECE_SECONDS = 2.0
FIRST_PIECE = 16           # games of a task's first piece: it measures the speed the next pieces are cut to


def plays_games(fn):
    """Mark ``fn`` (task -> result rows, one row per game in the task's order) as one the local backend may
    play a piece at a time: the task has ``games`` and ``piece(start, n)`` (its games start .. start + n - 1
    as a task of their own).  Every game seeds its own streams from (seed, game index), so the pieces'
    rows, joined, are the whole task's, row for row."""
    fn.plays_games = True
    return fn


def piece_sizes(rate: float, done: int, total: int, last: int, seconds: float = PIECE_SECONDS) -> int:
    """The next piece's games: ``seconds`` of play at ``rate`` games/s, at most 8 times the last piece
    (a speed measured on a few games is rough), at least one game, never past the task's end."""
    want = int(rate * seconds) if math.isfinite(rate) and rate > 0 else last * 8
    return max(1, min(total - done, last * 8, want))


def search_aware(task_games: int, names) -> int:
    """``task_games``, or at most ``SEARCH_TASK_GAMES`` when one of the strategy ``names`` is a search
    player: a task of thousands of its games would hold the progress bar still for half an hour and
    lose it all to a Ctrl-C.  The games are the same whatever the task size."""
    from strategies.registry import search_players  # the registry loads the strategies: only when asked
    return min(int(task_games), SEARCH_TASK_GAMES) if set(names) & search_players() else int(task_games)


def dask_chunk_size(games: int, threads: int) -> int:
    """Games per task on a cluster of ``threads`` worker threads: about 50 tasks per
    thread, so that the last tasks of a run leave threads idle for ~1% of it (on this
    2-core machine 50,000-game tasks ran at 77% of the local speed, 10,000 at 93%),
    within 10,000 .. 50,000 games (a task stays far above Dask's few ms per task).

    >>> dask_chunk_size(10**6, 2), dask_chunk_size(10**9, 1000), dask_chunk_size(600, 2)
    (10000, 20000, 10000)
    """
    return min(50_000, max(10_000, games // (50 * max(threads, 1))))


def plan_chunks(games: int, chunk_size: int, swap_seats: bool) -> list[Chunk]:
    """The chunks of a run, in the order their rows are reported."""
    return [Chunk(first, min(chunk_size, games - first), swapped)
            for first in range(0, games, chunk_size)
            for swapped in ((False, True) if swap_seats else (False,))]


@dataclass(frozen=True, eq=False)
class ChunkTask:
    """One chunk of a run, resolved on the client: a worker reads no file and no
    configuration (a parameter file given by path need not exist on the workers)."""
    seed: int
    chunk: Chunk
    rules: np.ndarray    # the rules vector
    sids: np.ndarray     # strategy id per seat
    params: np.ndarray   # (2, MAX_PARAMS) per seat; the P_ENTRY slots are the client's (see with_local_entries)
    orders: np.ndarray   # (2, MAX_ACTION_DECK) action-deck codes, -1 rows shuffled

    @property
    def games(self) -> int:
        return self.chunk.n

    def piece(self, start: int, n: int) -> "ChunkTask":
        """Games ``start .. start + n - 1`` of the chunk, as a chunk of their own."""
        return ChunkTask(self.seed, Chunk(self.chunk.first + start, n, self.chunk.swapped), self.rules, self.sids,
                         self.params, self.orders)


def chunk_tasks(cfg, chunk_size: int | None = None) -> list[ChunkTask]:
    """The tasks of a validated ``RunConfig``, in plan order, of ``cfg.chunk_size`` games
    (else ``chunk_size``, else ``LOCAL_CHUNK_SIZE``)."""
    # swapped, everything of a side changes seats: strategy, ordering, her action counts
    seats = {s: (cfg.rules_vector(s), *cfg.seats(s)[1:4]) for s in ({False, True} if cfg.swap_seats else {False})}
    size = cfg.chunk_size or chunk_size or LOCAL_CHUNK_SIZE
    return [ChunkTask(cfg.seed, c, *seats[c.swapped]) for c in plan_chunks(cfg.games, size, cfg.swap_seats)]


def warmup_task(task: ChunkTask) -> ChunkTask:
    """One game with the seats of ``task``: loads the kernel and both strategies."""
    return ChunkTask(task.seed, Chunk(task.chunk.first, 1, task.chunk.swapped), task.rules, task.sids,
                     task.params, task.orders)


def with_local_entries(sids: np.ndarray, params: np.ndarray) -> np.ndarray:
    """``params`` with each seat's entry slots holding its strategy's compiled entries in *this*
    process (addresses: the client's mean nothing on a worker; a search player's rollout entry
    too, ``registry.localized``)."""
    from strategies.registry import localized
    return np.stack([localized(int(sid), params[p]) for p, sid in enumerate(sids)])


def play_chunk(task: ChunkTask) -> np.ndarray:
    """Result rows of one chunk (runs wherever the backend sends it)."""
    from ccsim.kernel.simulate import simulate_rows
    params = with_local_entries(task.sids, task.params)
    return simulate_rows(task.seed, task.chunk.first, task.chunk.n, task.rules, task.sids, params, task.orders)


plays_games(play_chunk)


# --- what a worker must share with the client -------------------------------------------

@functools.cache
def _sources_digest() -> str:
    """Hash of every source and data file of ``ccsim`` and ``strategies``: the engine, the
    rules, the strategies and their parameter sets, and the Python that turns a run into
    kernel arguments.  Stricter than the numba cache key (``_cache.source_hash``), which
    leaves out pure-Python modules that cannot change compiled code."""
    h = hashlib.sha256()
    # ccsim, strategies and the plug-in folders of CCSIM_STRATEGY_PATH (a worker without the
    # client's plug-ins has another fingerprint and is refused)
    for root in map(Path, strategy_roots()):
        for path in sorted(p for p in root.rglob("*") if p.suffix in (".py", ".toml")):
            h.update(str(path.relative_to(root.parent)).encode())
            h.update(path.read_bytes())
    return h.hexdigest()[:12]


def fingerprint() -> str:
    """What decides the games a process plays: ``<ccsim version>+<hash of its sources>``."""
    import ccsim
    salt = os.environ.get(SALT_ENV)
    return f"{ccsim.__version__}+{_sources_digest()}" + (f"+{salt}" if salt else "")


class WorkerMismatch(Exception):
    """Raised on a worker whose fingerprint is not the client's (pickled back to the client)."""

    def __init__(self, worker: str, theirs: str, ours: str):
        super().__init__(worker, theirs, ours)

    def __str__(self):
        worker, theirs, ours = self.args
        return mismatch_message(worker, theirs, ours)


def mismatch_message(worker: str, theirs: str, ours: str) -> str:
    return (f"worker {worker} runs ccsim {theirs}, this client {ours}: it would play other games "
            f"(install the same ccsim on every worker)")


def on_worker(fn, client_fingerprint: str, task):
    """``fn(task)`` on a Dask worker: refused if the worker's ccsim differs from the
    client's (a worker that joined after the start is checked here), one numba thread
    per task (Dask runs as many tasks at once as the worker has threads)."""
    from distributed import get_worker
    from ccsim.kernel.simulate import set_threads
    mine = fingerprint()
    if mine != client_fingerprint:
        raise WorkerMismatch(get_worker().address, mine, client_fingerprint)
    set_threads(1)
    return fn(task)


# --- backends ---------------------------------------------------------------------------

class Backend:
    """The interface; backends close on leaving a ``with`` block."""

    name = "?"

    def chunk_size(self, games: int) -> int:
        """Games per task for a run of ``games`` when the command does not say."""
        raise NotImplementedError

    def warm(self, fn, task) -> None:
        """Run ``fn(task)`` once wherever tasks will run (results discarded), so that
        compiling or loading the kernels happens before the run is timed."""
        raise NotImplementedError

    def map(self, fn, tasks, on_games=None):
        """Yield ``(task, fn(task))`` for every task, in task order.  ``on_games(n)``: where the backend can,
        called as games of a task are played (their sum for a task never exceeds its games)."""
        raise NotImplementedError

    def close(self) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class LocalBackend(Backend):
    """Tasks one after another in this process; each task uses all numba threads."""

    name = "local"

    def chunk_size(self, games):
        return LOCAL_CHUNK_SIZE

    def warm(self, fn, task):
        fn(task)

    def __init__(self, piece_seconds: float = PIECE_SECONDS, piece_games: int | None = None):
        # piece_games: a fixed piece size instead of the timed one (tests: progress without a clock)
        self.piece_seconds, self.piece_games = piece_seconds, piece_games

    def map(self, fn, tasks, on_games=None):
        for task in tasks:
            if on_games is None or not getattr(fn, "plays_games", False) or not hasattr(task, "piece"):
                yield task, fn(task)
            else:
                yield task, self._in_pieces(fn, task, on_games)

    def _in_pieces(self, fn, task, on_games):
        """``fn(task)``, played a piece at a time (``plays_games``), each piece's games reported."""
        total, done, rows = int(task.games), 0, []
        size = self.piece_games or min(FIRST_PIECE, total)
        while done < total:
            n = min(size, total - done)
            t0 = time.perf_counter()
            rows.append(fn(task.piece(done, n)))
            done += n
            on_games(n)
            if self.piece_games is None:
                size = piece_sizes(n / max(time.perf_counter() - t0, 1e-6), done, total, n, self.piece_seconds)
        return rows[0] if len(rows) == 1 else np.concatenate(rows)


class DaskBackend(Backend):
    """Tasks as Dask tasks; results come back in task order.

    ``address`` names a running scheduler (``tcp://host:8786``); without one a
    local cluster of ``workers`` processes (one thread each) is started for the
    run.  Before any task the client waits up to ``connect_timeout`` seconds for
    the scheduler and for a worker, and checks every worker's fingerprint.  At
    most ``window`` tasks are in flight (default: four per worker thread), which
    bounds the memory held on the workers.  A task whose worker dies is run
    again elsewhere by Dask (up to ``distributed.scheduler.allowed-failures``
    times); beyond that, or with no worker left for ``connect_timeout`` seconds
    (30 at least), ``map`` raises ``BackendError``.
    """

    name = "dask"

    def __init__(self, address: str | None = None, workers: int | None = None,
                 connect_timeout: float = DEFAULT_CONNECT_TIMEOUT, window: int | None = None):
        try:
            from dask.distributed import Client
        except ImportError:
            raise BackendError("the dask backend needs dask: pip install 'ccsim[dask]'") from None
        self.connect_timeout = connect_timeout
        self.window = window
        self._cluster = self.client = None
        if address:
            self.where = f"the Dask scheduler at {address}"
            self.client = _connect(Client, address, connect_timeout)
        else:
            self.where = f"a local Dask cluster of {workers or 2} workers"
        try:
            if not address:
                self._cluster = local_cluster(workers or 2)
                self.client = Client(self._cluster)
                self.client.register_plugin(_ignore_ctrl_c_plugin(), name="ccsim-ignore-ctrl-c")
            self._check_workers()
        except BaseException:
            self.close()
            raise

    def _check_workers(self):
        """Refuse a cluster without workers, or with a worker that would play other games."""
        try:
            self.client.wait_for_workers(1, timeout=self.connect_timeout)
        except TimeoutError:
            raise BackendError(f"{self.where} has no workers (waited {self.connect_timeout:g} s, "
                               f"--connect-timeout)") from None
        ours = fingerprint()
        for worker, theirs in sorted(self.client.run(fingerprint, on_error="return").items()):
            if isinstance(theirs, BaseException):
                raise BackendError(f"worker {worker} cannot run ccsim: {type(theirs).__name__}: {_line(theirs)}")
            if theirs != ours:
                raise BackendError(mismatch_message(worker, theirs, ours))

    def chunk_size(self, games):
        return dask_chunk_size(games, self._threads())

    def _threads(self) -> int:
        return sum(self.client.nthreads().values())

    def _submit(self, fn, task, **where):
        return self.client.submit(on_worker, fn, fingerprint(), task, pure=False, **where)

    def warm(self, fn, task):
        """``fn(task)`` once on every worker now connected (a worker joining later loads
        the kernels at its first task)."""
        futures = [self._submit(fn, task, workers=[w], allow_other_workers=True) for w in self.client.nthreads()]
        for f in futures:
            self._result(f)

    def map(self, fn, tasks):
        tasks = list(tasks)
        window = self.window or max(8, 4 * self._threads())
        futures = deque()
        nxt = 0
        try:
            for task in tasks:
                while nxt < len(tasks) and len(futures) < window:
                    futures.append(self._submit(fn, tasks[nxt]))
                    nxt += 1
                yield task, self._result(futures.popleft())
        finally:
            for f in futures:
                f.cancel()

    def _result(self, future):
        """The future's result; a lost task or an empty cluster as ``BackendError``, not a hang."""
        from distributed import CancelledError
        from distributed.scheduler import KilledWorker
        no_workers_since = None
        while True:
            try:
                return future.result(timeout=_POLL_S)
            except TimeoutError:
                if self.client.nthreads():
                    no_workers_since = None
                    continue
                no_workers_since = no_workers_since or time.monotonic()
                grace = max(self.connect_timeout, _NO_WORKERS_GRACE_S)
                if time.monotonic() - no_workers_since > grace:
                    raise BackendError(f"{self.where} has no workers left (waited {grace:g} s)") from None
            except WorkerMismatch as e:
                raise BackendError(str(e)) from None
            except KilledWorker as e:
                raise BackendError(f"a task was lost: every worker that ran it died ({_line(e)})") from None
            except CancelledError:
                raise BackendError(f"lost {self.where}: its tasks were cancelled (scheduler stopped or "
                                   f"unreachable)") from None

    def close(self):
        if self.client is not None:
            self.client.close()
        if self._cluster is not None:
            self._cluster.close()


# Dask's own background work, measured on an idle cluster of 2 workers here: the workers'
# statistical profiler (a stack sample every 10 ms) and the servers' 20 ms ticks took 0.17 of a
# core, 8% of this 2-core machine that the games need; without the profiler, at 1 s: 0.03
QUIET_DASK = {"distributed.worker.profile.enabled": False, "distributed.admin.tick.interval": "1s",
              "distributed.admin.system-monitor.interval": "1s", "distributed.worker.memory.monitor-interval": "1s"}


def local_cluster(workers: int, threads: int = 1):
    """A Dask cluster of ``workers`` processes of ``threads`` threads on this machine,
    with ``QUIET_DASK``, no dashboard, and the scheduler's HTTP routes on any free
    local port (8787 is often taken).

    Ctrl-C in a terminal reaches the whole process group, the workers too; they
    are spawned with SIGINT ignored (an ignored signal stays ignored in a new
    process) so that only the client stops, keeps its finished chunks and closes
    them, without a traceback from each worker.  Their logs are silenced up to CRITICAL: a
    worker whose scheduler closes under it logs a heartbeat failure with a traceback at ERROR
    (a race with the cluster's close, seen on a busy machine), and a task's own error reaches
    the client as its exception anyway.
    """
    import logging
    import signal
    import threading
    import dask
    from dask.distributed import LocalCluster
    main = threading.current_thread() is threading.main_thread()  # only it may set handlers
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
    try:
        with dask.config.set(QUIET_DASK):  # the nannies hand it to every worker they start
            return LocalCluster(n_workers=workers, threads_per_worker=threads, processes=True,
                                dashboard_address=None, scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
                                silence_logs=logging.CRITICAL)
    finally:
        if main:
            signal.signal(signal.SIGINT, previous)


def _ignore_ctrl_c_plugin():
    """A worker plugin for a local cluster: a worker that its nanny restarts (after
    it died) ignores SIGINT too, like ``local_cluster``'s first workers.  Defined
    here, where dask is imported; the class travels to the workers by value."""
    import signal
    from distributed import WorkerPlugin

    class IgnoreCtrlC(WorkerPlugin):
        def setup(self, worker):
            signal.signal(signal.SIGINT, signal.SIG_IGN)

    return IgnoreCtrlC()


def _line(e: BaseException) -> str:
    """The first line of an exception's message."""
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__


def _check_address(address: str) -> None:
    """Refuse an address Dask cannot parse, or a TCP port out of range (ConfigError)."""
    from distributed.comm.addressing import parse_address, parse_host_port
    from distributed.comm.registry import get_backend
    try:
        scheme, loc = parse_address(address, strict=False)
        get_backend(scheme)  # ValueError naming the known schemes
        if scheme in ("tcp", "tls", "ws", "wss"):
            _, port = parse_host_port(loc)
            if not 1 <= port <= 65535:
                raise ValueError(f"port {port} out of range 1..65535")
    except ValueError as e:
        raise ConfigError(f"--scheduler {address}: not a Dask scheduler address ({_line(e)})") from None


def _connect(Client, address: str, timeout: float):
    """A client of the scheduler at ``address``, or one ``BackendError`` line within ``timeout`` s."""
    _check_address(address)
    try:
        return Client(address, timeout=timeout)
    except OSError as e:
        if "Timed out" in str(e) or isinstance(e, TimeoutError):
            raise BackendError(f"no Dask scheduler answers at {address} (waited {timeout:g} s, "
                               f"--connect-timeout)") from None
        raise BackendError(f"cannot connect to the Dask scheduler at {address}: {_line(e)}") from None
    except Exception as e:  # anything that answers but does not speak Dask's protocol
        raise BackendError(f"cannot connect to the Dask scheduler at {address}: "
                           f"{type(e).__name__}: {_line(e)}") from None


def make_backend(name: str | None = None, address: str | None = None, workers: int | None = None,
                 connect_timeout: float | None = None) -> Backend:
    """The backend the shared CLI flags (``ccsim.cli.options.backend_options``) name;
    ``None`` is a flag not given.  Raises ``ConfigError`` (flags) or ``BackendError``
    (the cluster), one line each.  Close it (``with make_backend(...) as be:``)."""
    name = name or "local"
    workers = workers or 0
    connect_timeout = DEFAULT_CONNECT_TIMEOUT if connect_timeout is None else connect_timeout
    check_backend_flags(name, address, workers, connect_timeout)
    if name == "local":
        return LocalBackend()
    return DaskBackend(address, workers or None, connect_timeout)

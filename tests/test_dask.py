"""The Dask backend on a local cluster of 2 worker processes: the same games as the local
backend, a worker killed mid-run, a lost task, an unreachable or malformed scheduler
address, a worker running other ccsim sources, warm workers, Ctrl-C.

One cluster serves the module (starting one costs seconds); a test that salts or
kills a worker puts it back.  Tests that start their own cluster or subprocess
are the ones about exactly that.
"""
import multiprocessing
import os
import signal
import subprocess
import sys
import time

import cloudpickle
import numpy as np
import pandas as pd
import pytest
from dask.distributed import Client

from ccsim.runner.backends import (SALT_ENV, BackendError, DaskBackend, LocalBackend, chunk_tasks, fingerprint,
                            local_cluster, play_chunk)
from conftest import run_cli
from ccsim.runner.config import RunConfig
from ccsim.analyses.orderings.space import unrank
from ccsim.runner.orderings import to_codes
from ccsim.analyses.run import run
from ccsim.analyses.orderings.study import Matchup

# the study task below is defined here, and test modules are not importable on the workers
cloudpickle.register_pickle_by_value(sys.modules[__name__])

BASE = dict(games=600, seed=11, cleopatra="greedy", caesar="random")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture(scope="module")
def cluster():
    with local_cluster(2) as c:
        yield c
    assert not multiprocessing.active_children(), "a Dask worker process outlived its cluster"


@pytest.fixture
def client(cluster):
    """A client of the module's cluster; after the test, both workers are back and unsalted."""
    with Client(cluster) as c:
        yield c
        c.wait_for_workers(2, timeout=60)
        c.run(_unsalt)


def _salt():
    os.environ[SALT_ENV] = "other-sources"


def _unsalt():
    os.environ.pop(SALT_ENV, None)


def frame_of(backend=None, **kw):
    _, df = run(RunConfig(**{**BASE, **kw}), keep_frames=True, backend=backend)
    return df


def same_rows(a: pd.DataFrame, b: pd.DataFrame):
    pd.testing.assert_frame_equal(a.reset_index(drop=True), b.reset_index(drop=True))


# --- the same games -----------------------------------------------------------------------

def test_run_on_a_cluster_gives_the_local_rows(compiled, cluster):
    kw = dict(chunk_size=150, swap_seats=True)
    with DaskBackend(cluster.scheduler_address) as be:
        on_dask = frame_of(be, **kw)
    same_rows(on_dask, frame_of(**kw))


def play_matchup(task):
    """A study's unit of work (``ccsim.analyses.orderings.study.Matchup.play``: candidate orderings at both
    seats on common deals).  The Matchup is built where it runs: its strategy entries
    are addresses in that process."""
    seed, orderings, first, n_deals = task
    codes = np.stack([to_codes(o) for o in orderings])
    return Matchup(strategy="greedy", opponent="random", seed=seed).play(codes, first, n_deals)


def generic_cases():
    """(fn, tasks) of each kind of work the commands send through a backend.  A command
    wired to the backend adds its own here."""
    cfg = RunConfig(**BASE, chunk_size=100, swap_seats=True).validated()
    study = [(3, ["VAASRCAWSARCV", unrank(12345)], first, 40) for first in range(0, 200, 40)]
    return [(play_chunk, chunk_tasks(cfg)), (play_matchup, study), (unrank, list(range(0, 10**6, 99_991)))]


@pytest.mark.parametrize("case", range(3), ids=["run", "study", "plain"])
def test_map_gives_the_same_results_in_task_order_on_both_backends(compiled, cluster, case):
    fn, tasks = generic_cases()[case]
    local = list(LocalBackend().map(fn, tasks))  # first: fills numba's cache for the workers
    with DaskBackend(cluster.scheduler_address) as be:
        on_dask = list(be.map(fn, tasks))
    assert [t for t, _ in on_dask] == tasks and all(a is b for (a, _), b in zip(on_dask, tasks))
    for (_, a), (_, b) in zip(local, on_dask):
        np.testing.assert_array_equal(a, b)


def test_a_tournament_and_a_whatif_on_a_cluster_give_the_local_tables(compiled, cluster):
    """The study commands send grid tasks through the same backend: identical tables."""
    from ccsim.analyses.tournament import tournament
    from ccsim.analyses.whatif import whatif
    kw = dict(games=300, seed=4, n_boot=20)
    local = tournament("greedy,random,tactician", **kw)
    with DaskBackend(cluster.scheduler_address) as be:
        on_dask = tournament("greedy,random,tactician", backend=be, **kw)
    same_rows(on_dask.pairings, local.pairings)
    pd.testing.assert_frame_equal(on_dask.score, local.score)
    wkw = dict(games=300, seed=5, variants=("two_orgies",))
    w_local = whatif(["greedy"], **wkw)
    with DaskBackend(cluster.scheduler_address) as be:
        w_dask = whatif(["greedy"], backend=be, **wkw)
    same_rows(w_dask.metrics, w_local.metrics)


def test_a_tiny_network_training_on_a_cluster_gives_the_local_weights(compiled, cluster, tmp_path):
    """train-neural's games are tasks like every other command's: the same weights on Dask."""
    from ccsim.training.neural_train import NetworkTrainConfig, train_network
    cfg = NetworkTrainConfig(seed=4, generations=2, games=60, keep=0.2, epochs=1, eval_deals=10)
    train_network(cfg, tmp_path / "local")
    with DaskBackend(cluster.scheduler_address) as be:
        train_network(cfg, tmp_path / "dask", backend=be)
    for g in range(2):
        local, dask = (np.load(tmp_path / where / f"gen{g}.npz")["weights"] for where in ("local", "dask"))
        np.testing.assert_array_equal(dask, local)


def test_cli_run_with_local_workers_writes_the_same_parquet(compiled, tmp_path, capsys):
    args = ["run", "--games", "30000", "--seed", "5", "--caesar", "random", "--json"]  # chunks: 50,000 / 10,000
    assert run_cli(capsys, *args, "--out", str(tmp_path / "local"))[0] == 0
    code, out, err = run_cli(capsys, *args, "--out", str(tmp_path / "dask"), "--backend", "dask", "--workers", "2")
    assert code == 0 and "Traceback" not in err
    local, dask = (pd.read_parquet(tmp_path / name / "games.parquet") for name in ("local", "dask"))
    same_rows(dask, local)


def test_chunks_on_a_cluster_are_about_50_per_worker_thread_within_bounds(cluster):
    with DaskBackend(cluster.scheduler_address) as be:
        assert [be.chunk_size(g) for g in (600, 10**6, 10**7, 10**9)] == [10_000, 10_000, 50_000, 50_000]
    assert LocalBackend().chunk_size(10**6) == 50_000


def _profiling():
    import dask
    return dask.config.get("distributed.worker.profile.enabled")


def test_a_local_cluster_s_workers_run_without_dask_s_profiler(client):
    assert set(client.run(_profiling).values()) == {False}


# --- lost workers -------------------------------------------------------------------------

class _Wrapping:
    """A backend doing what ``backend`` does, but for what a subclass's ``map`` adds."""

    def __init__(self, backend):
        self.backend = backend

    def chunk_size(self, games):
        return self.backend.chunk_size(games)

    def warm(self, fn, task):
        self.backend.warm(fn, task)


class _KillAWorkerAfterTheFirstChunk(_Wrapping):
    """A backend that, once the first chunk is back, kills (SIGKILL) a worker holding
    chunks in progress: those chunks must be played again elsewhere."""

    killed = None

    def map(self, fn, tasks):
        client = self.backend.client
        for i, item in enumerate(self.backend.map(fn, tasks)):
            if i == 0:
                pids = client.run(os.getpid)
                victim, keys = next((w, k) for w, k in client.processing().items() if k)
                os.kill(pids[victim], signal.SIGKILL)
                self.killed = (victim, pids[victim], len(keys))
            yield item


def test_a_killed_worker_s_chunks_are_played_again_and_the_rows_are_the_same(compiled, client):
    kw = dict(games=64_000, chunk_size=4_000)
    killer = _KillAWorkerAfterTheFirstChunk(DaskBackend(client.scheduler.address))
    try:
        on_dask = frame_of(killer, **kw)
    finally:
        killer.backend.close()
    victim, pid, in_progress = killer.killed
    assert in_progress >= 1
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # that process is gone
    assert victim not in client.nthreads() or client.run(os.getpid, workers=[victim])[victim] != pid
    same_rows(on_dask, frame_of(**kw))


def test_a_task_whose_workers_keep_dying_is_one_error_not_a_hang(cluster, client):
    def die(_):
        os._exit(1)

    cluster.scheduler.allowed_failures = 0  # the first death loses it for good
    try:
        with DaskBackend(cluster.scheduler_address) as be:
            t = time.perf_counter()
            with pytest.raises(BackendError) as e:
                list(be.map(die, [0]))
    finally:
        cluster.scheduler.allowed_failures = 3
    assert "a task was lost" in str(e.value) and "\n" not in str(e.value)
    assert time.perf_counter() - t < 60  # a hang would wait for ever; the bound leaves room for a busy machine


# --- unreachable and malformed addresses ---------------------------------------------------

def test_an_unreachable_scheduler_is_one_line_and_exit_2_before_dasks_own_wait():
    cmd = [sys.executable, "-m", "ccsim.cli", "run", "--backend", "dask", "--scheduler", "tcp://127.0.0.1:9"]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([ROOT, os.environ.get("PYTHONPATH", "")]))
    t = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=60)
    seconds = time.perf_counter() - t
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr.count("\n") == 1 and p.stderr.startswith("ccsim: error: ") and "tcp://127.0.0.1:9" in p.stderr
    # The default wait is 3 s; Dask's own would be 30 s, then a traceback.  The bound sits between them
    # with room for a slow start of the subprocess on a busy machine (imports: 2-8 s here).
    assert "waited 3 s" in p.stderr, p.stderr
    assert seconds < 25, f"took {seconds:.1f} s"


def test_connect_timeout_sets_the_wait(capsys):
    t = time.perf_counter()
    code, _, err = run_cli(capsys, "run", "--backend", "dask", "--scheduler", "tcp://127.0.0.1:9",
                           "--connect-timeout", "0.5")
    # the message names the wait it used; the bound only tells a 0.5 s wait from Dask's 30 s, with room
    # for a busy machine
    assert code == 2 and "waited 0.5 s" in err and time.perf_counter() - t < 15


@pytest.mark.parametrize("flags, needle", [
    (["--backend", "dask", "--scheduler", "nonsense://head:8786"], "unknown address scheme"),
    (["--backend", "dask", "--scheduler", "head"], "missing port"),
    (["--backend", "dask", "--scheduler", "tcp://head:99999"], "port 99999 out of range"),
    (["--backend", "dask", "--scheduler", "tcp://[::1:8786"], "not a Dask scheduler address"),
    (["--backend", "dask", "--scheduler", "tcp://head:8786", "--workers", "2"], "give one of them"),
    (["--scheduler", "tcp://head:8786"], "--scheduler needs --backend dask"),
    (["--workers", "3"], "--workers needs --backend dask"),
    (["--backend", "dask", "--connect-timeout", "0"], "connect_timeout"),
    (["--backend", "dask", "--connect-timeout", "soon"], "not a valid float"),
])
def test_bad_backend_flags_are_one_line_and_exit_2(capsys, flags, needle):
    code, out, err = run_cli(capsys, "run", "--games", "10", *flags)
    assert code == 2 and err.count("\n") == 1 and err.startswith("ccsim: error: ")
    assert needle in err and "Traceback" not in out + err


# --- version safety -----------------------------------------------------------------------

def test_a_worker_with_other_sources_is_refused_before_the_first_chunk(client):
    victim = sorted(client.nthreads())[0]
    client.run(_salt, workers=[victim])
    with pytest.raises(BackendError) as e:
        DaskBackend(client.scheduler.address)
    msg = str(e.value)
    assert victim in msg and fingerprint() in msg and fingerprint() + "+other-sources" in msg and "\n" not in msg


def test_a_worker_that_changes_after_the_check_is_refused_at_its_first_chunk(compiled, client, tmp_path):
    be = DaskBackend(client.scheduler.address)
    client.run(_salt)  # as if other workers had joined since the check
    try:
        with pytest.raises(BackendError) as e:
            run(RunConfig(**BASE, chunk_size=100, out=str(tmp_path)), backend=be)
    finally:
        be.close()
    assert "other-sources" in str(e.value) and "would play other games" in str(e.value)
    assert (tmp_path / "summary.json").exists()  # what finished is kept, as after Ctrl-C


# --- warm workers, Ctrl-C -----------------------------------------------------------------

def _loaded_kernels():
    from ccsim.kernel.simulate import play_specs_block_nb
    return len(play_specs_block_nb.signatures)


def test_warm_up_loads_the_kernel_on_every_worker(compiled):
    with DaskBackend(workers=2) as be:  # fresh worker processes: nothing loaded yet
        assert set(be.client.run(_loaded_kernels).values()) == {0}
        be.warm(play_chunk, chunk_tasks(RunConfig(games=1).validated())[0])
        loaded = be.client.run(_loaded_kernels)
    assert len(loaded) == 2 and all(n >= 1 for n in loaded.values())


class _InterruptAfter(_Wrapping):
    def __init__(self, backend, k):
        super().__init__(backend)
        self.k = k

    def map(self, fn, tasks):
        for i, item in enumerate(self.backend.map(fn, tasks)):
            if i == self.k:
                raise KeyboardInterrupt
            yield item


def test_ctrl_c_keeps_finished_chunks_and_cancels_the_rest(compiled, cluster, client):
    with DaskBackend(cluster.scheduler_address) as be:
        summary, _ = run(RunConfig(**BASE, chunk_size=50), backend=_InterruptAfter(be, 3))
    assert summary["interrupted"] is True and summary["games"] == 150
    deadline = time.monotonic() + 60  # (a busy machine: the bound only catches tasks left for good)
    while cluster.scheduler.tasks and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not cluster.scheduler.tasks


def test_ctrl_c_in_a_terminal_stops_a_local_cluster_run_cleanly(compiled, tmp_path):
    """SIGINT to the whole process group, as a terminal sends it: the workers too."""
    cmd = [sys.executable, "-m", "ccsim.cli", "run", "--backend", "dask", "--workers", "2", "--games", "10000000",
           "--chunk-size", "20000", "--no-progress", "--out", str(tmp_path)]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([ROOT, os.environ.get("PYTHONPATH", "")]))
    # started as a shell starts a command: Ctrl-C at its default (an ignored SIGINT would be inherited,
    # and a test process that has run local clusters may hold one at times)
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                         start_new_session=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + 300  # (fresh workers load the kernels first: slow on a cold CI machine)
        while not (tmp_path / "games.parquet").exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert (tmp_path / "games.parquet").exists(), "no chunk finished in 300 s"
        os.killpg(p.pid, signal.SIGINT)
        out, err = p.communicate(timeout=120)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
    assert p.returncode == 130 and "interrupted: partial result" in out
    assert "Traceback" not in err, err
    games = len(pd.read_parquet(tmp_path / "games.parquet"))
    assert games > 0 and games % 20000 == 0 and f"games: {games:,}" in out  # whole chunks, as summarised
    assert _group_ends(p.pid, within=60), "a worker of that cluster outlived the command"


def _group_ends(pgid: int, within: float) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.1)
    return False


def test_a_report_on_a_cluster_gives_the_local_tables_and_claims(compiled, cluster, tmp_path):
    """Every part of a report goes through the backend: the same games, so the same tables and claims."""
    from ccsim.report import run_study
    (tmp_path / "s.toml").write_text("seed = 7\nlevels = ['greedy', 'defender']\n[seat]\ngames = 400\n"
                                     "[ladder]\nstrategies = ['greedy', 'defender']\ngames = 100\n"
                                     "[variants]\nvariants = ['two_orgies']\ngames = 200\n")
    local = run_study(tmp_path / "s.toml", tmp_path / "local", render=False)
    with DaskBackend(cluster.scheduler_address) as be:
        on_dask = run_study(tmp_path / "s.toml", tmp_path / "dask", render=False, backend=be)
    assert on_dask.info["parts_played"] == local.info["parts_played"] == 5
    for a, b in zip(local.sections, on_dask.sections):
        for name in a.tables:
            same_rows(b.tables[name], a.tables[name])
    assert [c.to_json() for c in on_dask.claims] == [c.to_json() for c in local.claims]
    import matplotlib.pyplot as plt
    plt.close("all")  # built without rendering: the figures are still open

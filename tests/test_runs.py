"""Batch runs: determinism across threads, chunks, seat swaps and backends; interrupts; configs."""
import json
import os
import signal

import pandas as pd
import pytest

from ccsim.runner.backends import LocalBackend, plan_chunks
from ccsim.runner.config import ConfigError, RunConfig, load_toml
from ccsim.analyses.run import ParquetSink, run, simulate
from ccsim.kernel.simulate import set_threads
from ccsim.analyses.summary import summarize_frame

BASE = dict(games=600, seed=11, cleopatra="greedy", caesar="random")


def rows_of(**kw):
    _, df = run(RunConfig(**{**BASE, **kw}), keep_frames=True)
    return df


def same_games(a: pd.DataFrame, b: pd.DataFrame):
    cols = [c for c in a.columns if c not in ("swapped",)]
    pd.testing.assert_frame_equal(a[cols].reset_index(drop=True), b[cols].reset_index(drop=True))


def test_same_games_whatever_the_chunk_size(compiled):
    same_games(rows_of(chunk_size=600), rows_of(chunk_size=37))


def test_a_search_players_run_comes_in_small_tasks(compiled, monkeypatch):
    # a search plays a few games a second: its tasks must be small enough for the progress bar and Ctrl-C
    from ccsim.runner import backends
    assert backends.search_aware(50_000, ("master", "tactician")) == backends.SEARCH_TASK_GAMES
    assert backends.search_aware(50_000, ("greedy", "tactician")) == 50_000
    assert backends.search_aware(40, ("expert", "expert")) == 40
    sizes = []
    real = backends.chunk_tasks
    monkeypatch.setattr("ccsim.analyses.run.chunk_tasks", lambda cfg, size: sizes.append(size) or real(cfg, size))
    monkeypatch.setattr(backends, "SEARCH_TASK_GAMES", 1)
    a = rows_of(games=3, cleopatra="expert-fast", caesar="greedy")
    assert sizes == [1]
    monkeypatch.setattr(backends, "SEARCH_TASK_GAMES", 100)
    same_games(a, rows_of(games=3, cleopatra="expert-fast", caesar="greedy"))  # the same games


def test_same_games_whatever_the_thread_count(compiled):
    try:
        one = rows_of(threads=1)
        two = rows_of(threads=2)
        three = rows_of(threads=3)
    finally:
        set_threads(0)
    same_games(one, two)
    same_games(one, three)


def test_swap_seats_adds_the_swapped_twin_of_every_game(compiled):
    plain = rows_of()
    paired = rows_of(swap_seats=True, chunk_size=200)
    assert len(paired) == 2 * len(plain)
    same_games(paired[~paired["swapped"]], plain)
    swapped = paired[paired["swapped"]]
    assert (swapped["strategy_cleopatra"] == "random").all()
    # the same deal: bonus cards are chance's, not the seats'
    assert (swapped["bonus_cleopatra"].to_numpy() == plain["bonus_cleopatra"].to_numpy()).all()


def test_a_different_seed_gives_different_games(compiled):
    a, b = rows_of(), rows_of(seed=12)
    assert not a["turns"].equals(b["turns"])


class _InterruptAfter(LocalBackend):
    def __init__(self, k):
        self.k = k

    def map(self, fn, tasks):
        for i, item in enumerate(super().map(fn, tasks)):
            if i == self.k:
                raise KeyboardInterrupt
            yield item


def test_interrupted_run_keeps_finished_chunks(tmp_path, compiled):
    cfg = RunConfig(**BASE, chunk_size=100, out=str(tmp_path))
    summary, _ = run(cfg, backend=_InterruptAfter(3))
    assert summary["interrupted"] is True and summary["games"] == 300
    df = pd.read_parquet(tmp_path / "games.parquet")
    assert len(df) == 300
    assert summarize_frame(df)["wins"] == summary["wins"]
    assert json.loads((tmp_path / "summary.json").read_text())["interrupted"] is True


def test_ctrl_c_while_a_chunk_is_written_keeps_that_chunk_whole(tmp_path, compiled, monkeypatch):
    write = ParquetSink.write

    def interrupted_write(self, df):
        os.kill(os.getpid(), signal.SIGINT)  # as if Ctrl-C came now, with the chunk half recorded
        write(self, df)

    monkeypatch.setattr(ParquetSink, "write", interrupted_write)
    before = signal.signal(signal.SIGINT, signal.default_int_handler)  # Ctrl-C as Python's own handler has it
    try:
        summary, _ = run(RunConfig(**BASE, chunk_size=100, out=str(tmp_path)))
    finally:
        signal.signal(signal.SIGINT, before)
    assert summary.get("interrupted") is True and summary["games"] == 100, (before, summary["games"])
    assert len(pd.read_parquet(tmp_path / "games.parquet")) == 100


def test_python_api_matches_the_run_summary(compiled):
    df = simulate("greedy", "random", games=600, seed=11)
    summary, _ = run(RunConfig(**BASE))
    assert summarize_frame(df)["wins"] == summary["wins"]
    assert summarize_frame(df)["mean_vp"] == summary["mean_vp"]


def test_chunk_plan_covers_every_game_once():
    chunks = plan_chunks(1001, 100, swap_seats=True)
    firsts = sorted((c.first, c.swapped) for c in chunks)
    assert sum(c.n for c in chunks) == 2002
    assert len(set(firsts)) == len(firsts)


def test_toml_config_says_what_flags_say(tmp_path):
    path = tmp_path / "study.toml"
    path.write_text('games = 5000\nseed = 3\ncleopatra = "random"\ncaesar_order = "veto-first"\n'
                    'variants = ["two_orgies"]\nswap_seats = true\n[rules]\nmax_turns = 500\n')
    cfg = load_toml(path)
    assert cfg.games == 5000 and cfg.seed == 3 and cfg.cleopatra == "random"
    assert cfg.caesar_order == "VVASCRAWASCRA" and cfg.variants == ("two_orgies",) and cfg.swap_seats
    assert cfg.rules_vector()[26] == 500
    assert load_toml(path, games=7).games == 7  # flags override the file


@pytest.mark.parametrize("text, needle", [
    ("games = -1\n", "games"),
    ('cleopatra_order = "AAAA"\n', "ordering"),
    ("[rules]\nhand_size = 40\n", "hand_size"),
    ("[rules]\nno_such_rule = 1\n", "unknown rule parameter"),
    ('backend = "gpu"\n', "backend"),
])
def test_bad_configs_are_refused_with_one_line(tmp_path, text, needle):
    path = tmp_path / "c.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as e:
        load_toml(path)
    assert needle in str(e.value) and "\n" not in str(e.value)

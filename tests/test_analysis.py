"""Balance analysis: the grid kernel, the metric columns, metrics, summaries by strategy,
tournaments and what-ifs, each held to a plain recomputation from per-game rows or records."""
import json
import pickle

import numpy as np
import pandas as pd
import pytest

from ccsim.kernel import rules as R
from ccsim.runner.backends import LocalBackend
from ccsim.cli import main
from conftest import Counting, run_cli
from ccsim.runner.config import RunConfig
from ccsim.kernel.engine.episode import (R_WINNER, R_END, R_TURNS, R_VP, R_VOTES, R_TIES, R_REVERSALS, R_EXCEPTIONAL,
                               R_LEAD_CHANGES, R_LEADER_HALF, R_ERROR)
from ccsim.runner.grid import GridBuilder, GridTask, play_task, segment_tasks
from ccsim.analyses.metrics import METRICS, metrics, distribution, frame_rows, game_values
from ccsim.play.record import read_records
from ccsim.analyses.run import run, simulate, results_frame
from ccsim.kernel.simulate import play_specs, simulate_rows, set_threads
from ccsim.analyses.stats import bradley_terry, holm, mean_ci, nash_average, paired_difference, wilson_interval
from ccsim.analyses.summary import summarize_frame
from ccsim.analyses.orderings import study
from ccsim.present.heatmap import tournament_heatmap
from ccsim.analyses.tournament import tournament, significant_cycles, TournamentError
from ccsim.present.tournament import format_tournament, tournament_json
from ccsim.analyses.levels import default_level
from ccsim.analyses.whatif import whatif, Change, WhatIfError
from ccsim.present.whatif import format_whatif
from ccsim.analyses.question import (Entrant, TournamentQuestion, WhatIfQuestion, ask_tournament, ask_whatif,
                                     load_changes)
from ccsim.errors import CCSimError


def rows_of(a, b, games, seed=3, first=0, **kw):
    cfg = RunConfig(games=games, seed=seed, cleopatra=a, caesar=b, **kw).validated()
    _, sids, sp, codes, _ = cfg.seats(False)
    return simulate_rows(seed, first, games, cfg.rules_vector(), sids, sp, codes)


# ------------------------------------------------------------ the grid kernel ----
def test_a_grid_plays_each_configuration_as_its_own_run(compiled):
    """Specs of several configurations, both arrangements, mixed in one table, give the rows
    each configuration gives alone (arrangement 1: the seats swapped)."""
    vec = R.DEFAULT_RULES.copy()
    b = GridBuilder()
    b.add(("greedy", "shuffled"), ("random", "VVASCRAWASCRA"), vec)
    b.add(("random", "shuffled"), ("random", "shuffled"), R.DEFAULT_RULES | 0)
    grid = b.build()
    task = GridTask(4, grid, np.array([(1, 0, 50, 70), (0, 1, 10, 90), (0, 0, 0, 40)], np.int64))
    rows = play_task(task)
    np.testing.assert_array_equal(rows[:70], rows_of("random", "random", 70, seed=4, first=50))
    swapped = rows_of("random", "greedy", 90, seed=4, first=10, cleopatra_order="veto-first")
    np.testing.assert_array_equal(rows[70:160], swapped)
    np.testing.assert_array_equal(rows[160:], rows_of("greedy", "random", 40, seed=4, caesar_order="veto-first"))
    # picklable, as a Dask worker receives it, and independent of blocks and threads
    again = pickle.loads(pickle.dumps(task))
    set_threads(1)
    try:
        np.testing.assert_array_equal(play_task(again), rows)
    finally:
        set_threads(0)
    cols = play_specs(4, task.specs(), grid.tables(), cols=[R_WINNER, R_ERROR], n_blocks=7)
    np.testing.assert_array_equal(cols, rows[:, [R_WINNER, R_ERROR]])


def test_segment_tasks_cover_every_game_once():
    grid = GridBuilder()
    grid.add(("random", "shuffled"), ("random", "shuffled"), R.DEFAULT_RULES)
    tasks = segment_tasks(1, grid.build(), [(0, 0, 5, 1000), (0, 1, 5, 1000)], max_games=300)
    assert all(t.games <= 300 for t in tasks) and sum(t.games for t in tasks) == 2000
    specs = np.concatenate([np.stack(t.specs(), 1) for t in tasks])
    expect = np.array([(0, g, s) for s in (0, 1) for g in range(5, 1005)])
    np.testing.assert_array_equal(specs, expect)


class PicklingBackend(LocalBackend):
    """Each task and its result through pickle, as a remote worker would see them."""

    def map(self, fn, tasks):
        for task in tasks:
            yield task, pickle.loads(pickle.dumps(fn(pickle.loads(pickle.dumps(task)))))


def test_orderings_studies_run_through_a_backend(compiled):
    local = study.compare(["veto-first", "spy-first"], baseline="shuffled", strategy="greedy", games=300, seed=2)
    remote = study.compare(["veto-first", "spy-first"], baseline="shuffled", strategy="greedy", games=300, seed=2,
                           backend=PicklingBackend())
    pd.testing.assert_frame_equal(local, remote)


def test_matchup_points_are_the_rows_winners(compiled):
    m = study.Matchup("greedy", "random", "veto-first", seed=6)
    pts = m.play(np.array([[-1] * 13]), 20, 50)
    plain = rows_of("greedy", "random", 50, seed=6, first=20, caesar_order="veto-first")
    swapped = rows_of("random", "greedy", 50, seed=6, first=20, cleopatra_order="veto-first")
    expect0 = np.where(plain[:, R_WINNER] == 0, 2, np.where(plain[:, R_WINNER] < 0, 1, 0))
    expect1 = np.where(swapped[:, R_WINNER] == 1, 2, np.where(swapped[:, R_WINNER] < 0, 1, 0))
    np.testing.assert_array_equal(pts[0, :, 0], expect0)
    np.testing.assert_array_equal(pts[0, :, 1], expect1)


# ------------------------------------------------------------ metric columns vs records ----
def _vp(won, bonus, variants, rules=R.DEFAULT_RULES):
    """R10 of a position, recomputed from patricians won (the test's own scoring)."""
    sizes = [int(x) for x in rules[R.RP_GROUP_SIZE:R.RP_GROUP_SIZE + 5]]
    vp = [0, 0]
    for p in range(2):
        for g in range(5):
            vp[p] += won[p][g]
            complete = won[0][g] + won[1][g] == sizes[g]
            if 2 * won[p][g] > sizes[g] and (complete or "majority_needs_complete" not in variants):
                vp[p] += 1
            if won[p][g] == sizes[g]:
                vp[p] += 1
        if won[p][bonus[p]] >= 3:
            vp[p] += 2
    return vp


@pytest.mark.parametrize("a, b, variants", [("greedy", "random", ()), ("tactician", "trickster", ()),
                                              ("random", "random", ("majority_needs_complete", "two_orgies"))])
def test_vote_columns_are_what_the_records_show(capsys, tmp_path, compiled, a, b, variants):
    """Votes per group, ties, reversals, exceptional votes, lead changes and the leader at half
    recounted from every recorded vote event, with the VP of each position scored anew."""
    path = tmp_path / "g.jsonl"
    argv = ["run", "--games", "60", "--seed", "8", "--cleopatra", a, "--caesar", b, "--record", path, "--json"]
    for v in variants:
        argv += ["--variant", v]
    assert run_cli(capsys, *argv)[0] == 0
    rows = rows_of(a, b, 60, seed=8, variants=variants)
    g_index = {g: i for i, g in enumerate(R.GROUPS)}
    for rec, row in zip(read_records(path), rows):
        votes = [e for e in rec["events"] if e["e"] == "vote"]
        bonus = [g_index[rec["setup"]["bonus"][p]] for p in R.PLAYERS]
        won = [[0] * 5, [0] * 5]
        leaders, last, changes = [], 0, 0
        for e in votes:
            if e["winner"] is not None:
                won[R.PLAYERS.index(e["winner"])][g_index[e["group"]]] += 1
            v0, v1 = _vp(won, bonus, variants)
            code = 0 if v0 == v1 else (1 if v0 > v1 else 2)
            if code and last and code != last:
                changes += 1
            last = code or last
            leaders.append(code - 1)
        half = len(votes) // 2
        assert [sum(e["group"] == g for e in votes) for g in R.GROUPS] == list(row[R_VOTES:R_VOTES + 5])
        assert sum(e["winner"] is None for e in votes) == row[R_TIES]
        assert sum(e["reversed"] and e["winner"] is not None for e in votes) == row[R_REVERSALS]
        assert sum(e["trigger"] == "eight" for e in votes) == row[R_EXCEPTIONAL]
        assert changes == row[R_LEAD_CHANGES]
        assert (leaders[half - 1] if half else -1) == row[R_LEADER_HALF]
        assert list(rec["result"]["vp"].values()) == list(row[R_VP:R_VP + 2])


# ------------------------------------------------------------ metrics ----------
def test_metrics_are_a_plain_recomputation_of_the_frame(compiled):
    df = simulate("tactician", "greedy", games=700, seed=5, swap_seats=True)
    m = metrics(df).set_index("metric")
    w = df["winner"]
    score = np.where(w == "cleopatra", 1.0, np.where(w.isna(), 0.5, 0.0))
    lo, hi = wilson_interval(score.sum(), len(df))
    assert m.loc["seat_advantage", "value"] == pytest.approx(score.mean() - 0.5)
    assert m.loc["seat_advantage", "ci_lo"] == pytest.approx(lo - 0.5)
    assert m.loc["draw_rate", "value"] == pytest.approx(w.isna().mean())
    leader = df["leader_half"]
    winner_code = w.map({"cleopatra": 0, "caesar": 1}).fillna(-1)
    assert m.loc["leader_at_half", "value"] == pytest.approx((leader >= 0).mean())
    assert m.loc["decisiveness", "value"] == pytest.approx((winner_code[leader >= 0] == leader[leader >= 0]).mean())
    assert m.loc["decisiveness", "units"] == (leader >= 0).sum()
    votes = df[[f"votes_{g}" for g in R.GROUPS]].sum(axis=1)
    for name, x in [("turns", df["turns"]), ("votes", votes), ("lead_changes", df["lead_changes"]),
                    ("ties", df["ties"]), ("votes_censor", df["votes_censor"]),
                    ("played_wrath", df["played_cleopatra_wrath"] + df["played_caesar_wrath"]),
                    ("vetoed_spy", df["vetoed_cleopatra_spy"] + df["vetoed_caesar_spy"])]:
        mean, lo, hi = mean_ci(x.sum(), (x.astype(float) ** 2).sum(), len(x))
        assert m.loc[name, "value"] == pytest.approx(mean), name
        assert m.loc[name, "ci_lo"] == pytest.approx(lo, rel=1e-3), name  # t (the metrics) against z (mean_ci)
    for e in R.END_NAMES[1:]:
        assert m.loc[f"end_{e}", "value"] == pytest.approx((df["end"] == e).mean())
    for p in R.PLAYERS:  # VP by source adds up to the score (R10.1-R10.4)
        total = sum(m.loc[f"vp_{s}_{p}", "value"] for s in ("patricians", "majorities", "all", "bonus"))
        assert total == pytest.approx(df[f"vp_{p}"].mean())
        pats = df[[f"pat_{p}_{g}" for g in R.GROUPS]].sum(axis=1)
        assert m.loc[f"vp_patricians_{p}", "value"] == pytest.approx(pats.mean())
    d = distribution(df).set_index("measure")
    assert d.loc["turns", "p50"] == int(np.percentile(df["turns"], 50, method="inverted_cdf"))
    assert d.loc["votes", "max"] == votes.max() and d.loc["turns", "mean"] == pytest.approx(df["turns"].mean())


def test_vp_by_source_weighs_the_rules_vp_values(compiled):
    vec = R.DEFAULT_RULES.copy()
    vec[R.RP_VP_MAJORITY] = 3
    rows = rows_of("greedy", "greedy", 200)
    v1, v3 = game_values(rows), game_values(rows, vec)
    i = [m.name for m in METRICS].index("vp_majorities_caesar")
    np.testing.assert_allclose(v3[:, i, 0], 3 * v1[:, i, 0])


def test_frames_convert_back_to_the_kernel_rows(compiled):
    rows = rows_of("greedy", "random", 120, variants=("two_orgies",))
    df = results_frame(rows, 0, 3, ["greedy", "random"], ["shuffled", "shuffled"], False)
    np.testing.assert_array_equal(frame_rows(df), rows)


def test_run_metrics_equal_the_metrics_of_its_frame(capsys, tmp_path, compiled):
    code, out, _ = run_cli(capsys, "run", "--games", "300", "--caesar", "random", "--swap-seats", "--chunk-size",
                           "128", "--metrics", "--out", tmp_path, "--json")
    assert code == 0
    d = json.loads(out)
    frame = metrics(pd.read_parquet(tmp_path / "games.parquet")).set_index("metric")
    for m in d["metrics"]["metrics"]:
        assert m["value"] == pytest.approx(frame.loc[m["metric"], "value"], nan_ok=True)
    code, text, _ = run_cli(capsys, "metrics", tmp_path)
    assert code == 0 and "that leader wins" in text and "seat advantage" in text and "p50" in text
    code, js, _ = run_cli(capsys, "metrics", tmp_path / "games.parquet", "--json")
    assert json.loads(js)["metrics"] == d["metrics"]["metrics"]


# ------------------------------------------------------------ summaries by strategy ----
def test_swapped_runs_are_summarised_by_strategy_first(capsys, compiled):
    cfg = RunConfig(games=400, seed=2, cleopatra="tactician", caesar="greedy", swap_seats=True, chunk_size=150)
    summary, df = run(cfg, keep_frames=True)
    sides = {s["strategy"]: s for s in summary["by_strategy"]}
    tac = (df["strategy_cleopatra"] == "tactician")
    won = ((tac & (df["winner"] == "cleopatra")) | (~tac & (df["winner"] == "caesar")))
    assert sides["tactician"]["wins"] == won.sum() and sides["tactician"]["games"] == 800
    assert sides["tactician"]["as_cleopatra"]["wins"] == (tac & (df["winner"] == "cleopatra")).sum()
    assert sides["greedy"]["as_caesar"]["games"] == 400
    draws = df["winner"].isna().sum()
    assert sides["tactician"]["score"]["rate"] == pytest.approx((won.sum() + draws / 2) / 800)
    assert sides["tactician"]["wins"] + sides["greedy"]["wins"] + draws == 800
    assert summary["wins"]["cleopatra"] == (df["winner"] == "cleopatra").sum()  # the seats' keys stay
    again = summarize_frame(df)
    assert again["by_strategy"] == summary["by_strategy"]
    code, out, _ = run_cli(capsys, "run", "--games", "200", "--cleopatra", "tactician", "--caesar", "greedy",
                           "--swap-seats")
    assert code == 0 and out.index("by strategy") < out.index("by seat")
    lines = [x for x in out.splitlines() if x.startswith("tactician ")]
    assert lines and "%" in lines[0]


def test_mirror_or_unswapped_runs_have_no_strategy_table(compiled):
    s1, _ = run(RunConfig(games=50, swap_seats=True))                  # greedy against greedy
    s2, _ = run(RunConfig(games=50, cleopatra="random"))                # not swapped
    s3, _ = run(RunConfig(games=50, swap_seats=True, cleopatra_order="veto-first"))  # orderings differ
    assert "by_strategy" not in s1 and "by_strategy" not in s2
    assert [s["ordering"] for s in s3["by_strategy"]] == ["VVASCRAWASCRA", "shuffled"]


# ------------------------------------------------------------ tournament -------
@pytest.fixture(scope="module")
def small_tournament(compiled):
    return tournament("greedy,random,counter", games=90, seed=7)


def test_tournament_is_the_seat_swapped_games_recounted(small_tournament):
    t = small_tournament
    for r in t.pairings.itertuples():
        plain = rows_of(r.a, r.b, 90, seed=7)
        swapped = rows_of(r.b, r.a, 90, seed=7)
        s0 = np.where(plain[:, R_WINNER] == 0, 1.0, np.where(plain[:, R_WINNER] < 0, 0.5, 0.0))
        s1 = np.where(swapped[:, R_WINNER] == 1, 1.0, np.where(swapped[:, R_WINNER] < 0, 0.5, 0.0))
        deal = (s0 + s1) / 2
        assert r.wins == (s0 == 1).sum() + (s1 == 1).sum() and r.draws == (s0 == .5).sum() + (s1 == .5).sum()
        m, lo, hi = mean_ci(deal.sum(), (deal ** 2).sum(), 90)
        assert r.score == pytest.approx(m) and r.ci_lo == pytest.approx(max(lo, 0.0))
        cleo = (s0 + (1 - s1)) / 2
        assert r.seat_advantage == pytest.approx(cleo.mean() - 0.5)
        assert r.end_stalemate == (plain[:, R_END] == 3).sum() + (swapped[:, R_END] == 3).sum()
        assert t.score.loc[r.a, r.b] == pytest.approx(m) and t.score.loc[r.b, r.a] == pytest.approx(1 - m)
    pts = np.array([[0 if a == b else t.score.loc[a, b] * 180 for b in t.entrants] for a in t.entrants])
    elo = dict(zip(t.entrants, bradley_terry(pts, np.where(np.eye(3) == 1, 0, 180), prior=1.0)))
    for r in t.ratings.itertuples():
        assert r.elo == pytest.approx(elo[r.entrant], abs=1e-6) and r.elo_lo <= r.elo <= r.elo_hi
    assert list(t.ratings["entrant"])[-1] == "random"
    assert t.pairings["p_holm"].tolist() == pytest.approx(holm(t.pairings["p"]).tolist())


def test_tournament_seat_advantage_overall_is_by_deal(small_tournament):
    t = small_tournament
    per_deal = []
    for r in t.pairings.itertuples():
        plain, swapped = rows_of(r.a, r.b, 90, seed=7), rows_of(r.b, r.a, 90, seed=7)
        c0 = np.where(plain[:, R_WINNER] == 0, 1.0, np.where(plain[:, R_WINNER] < 0, 0.5, 0.0))
        c1 = np.where(swapped[:, R_WINNER] == 0, 1.0, np.where(swapped[:, R_WINNER] < 0, 0.5, 0.0))
        per_deal.append((c0 + c1) / 2)
    x = np.mean(per_deal, axis=0)
    m, lo, hi = mean_ci(x.sum(), (x ** 2).sum(), len(x))
    assert t.seat["value"] == pytest.approx(m - 0.5) and t.seat["hi"] == pytest.approx(hi - 0.5)


def test_search_games_caps_only_the_pairings_with_a_search_player(capsys, compiled):
    t = tournament("greedy,random,expert-fast", games=6, search_games=2, seed=7)
    assert {(r.a, r.b): r.deals for r in t.pairings.itertuples()} == {
        ("greedy", "random"): 6, ("greedy", "expert-fast"): 2, ("random", "expert-fast"): 2}
    assert t.info["deals"] == 6 and t.info["search_deals"] == 2 and t.info["games"] == 2 * (6 + 2 + 2)
    for r in t.pairings.itertuples():       # each pairing's games are its seat-swapped deals 0 .. deals-1
        plain, swapped = rows_of(r.a, r.b, r.deals, seed=7), rows_of(r.b, r.a, r.deals, seed=7)
        assert r.wins == (plain[:, R_WINNER] == 0).sum() + (swapped[:, R_WINNER] == 1).sum()
        assert r.losses == (plain[:, R_WINNER] == 1).sum() + (swapped[:, R_WINNER] == 0).sum()
    # the overall seat advantage rests on the pairings that play every deal
    assert t.seat == pytest.approx(tournament("greedy,random", games=6, seed=7).seat)
    assert "(2 in a pairing with a search player)" in format_tournament(t)
    assert tournament_json(t)["search_deals"] == 2
    assert "search_deals" not in tournament_json(tournament("greedy,expert-fast", games=2, search_games=5, seed=7))
    with pytest.raises(TournamentError):
        tournament("greedy,random", games=6, search_games=0)


def test_an_uncapped_search_pairing_comes_in_small_tasks(compiled, monkeypatch):
    # without --search-games a search pairing plays every deal, still in small tasks (progress, Ctrl-C)
    import ccsim.analyses.tournament as T
    a = tournament("greedy,expert-fast,random", games=3, seed=5)
    sizes = []
    real = T._group_tasks
    monkeypatch.setattr(T, "SEARCH_TASK_GAMES", 2)
    monkeypatch.setattr(T, "_group_tasks", lambda seed, grid, cs, deals, n: sizes.append((len(cs), n))
                        or real(seed, grid, cs, deals, n))
    b = tournament("greedy,expert-fast,random", games=3, seed=5)
    assert (1, T.TASK_GAMES) in sizes and (2, 2) in sizes          # greedy-random; the two expert pairings
    pd.testing.assert_frame_equal(a.pairings, b.pairings)           # the same games


def test_tournament_cli_table_json_and_files(capsys, tmp_path, compiled):
    code, out, err = run_cli(capsys, "tournament", "--strategies", "greedy,random", "--games", "40", "--out",
                             tmp_path, "--no-progress")
    assert code == 0, err
    assert "Bradley-Terry" in out and "score matrix" in out and "seat advantage" in out and "transitive" in out
    for f in ("pairings.parquet", "ratings.parquet", "matrix.parquet", "summary.json", "heatmap.png",
              "tournament.txt"):
        assert (tmp_path / f).is_file(), f
    code, out, _ = run_cli(capsys, "tournament", "--strategies", "greedy,random", "--games", "40", "--json",
                           "--nash", "--no-progress")
    d = json.loads(out)
    for key in ("entrants", "ratings", "matrix", "pairings", "seat_advantage", "transitive", "cycles", "seed",
                "deals", "games", "rules", "orderings", "variants"):
        assert key in d, key
    assert d["games"] == 80 and d["pairings"][0]["games"] == 80 and "nash" in d["ratings"][0]
    lo, hi = d["ratings"][0]["ci95"]
    assert lo <= d["ratings"][0]["elo"] <= hi


def test_tournament_of_orderings_labels_its_entrants(compiled):
    t = tournament("greedy", games=30, orderings="veto-first,shuffled,AAAASCRVWSCRV")
    assert t.entrants == ["veto-first", "shuffled", "AAAASCRVWSCRV"] and len(t.pairings) == 3
    fig = tournament_heatmap(t)
    assert fig.axes[0].get_title().startswith("Round robin")


def test_tournament_flags_identical_players_not_as_a_pairing(compiled):
    # `weighted` and its `balanced` parameter file are one player, shown at 50.0% [50.0%, 50.0%]
    t = tournament("greedy,weighted,weighted-balanced", games=20, seed=3)
    flags = {(r.a, r.b): r.identical for r in t.pairings.itertuples()}
    assert flags == {("greedy", "weighted"): False, ("greedy", "weighted-balanced"): False,
                     ("weighted", "weighted-balanced"): True}
    text = format_tournament(t)
    assert "identical players: weighted = weighted-balanced" in text
    assert [p["identical"] for p in tournament_json(t)["pairings"]] == [False, False, True]
    # the same strategy with two orderings is two players
    assert not tournament("weighted", games=4, orderings="veto-first,shuffled").pairings["identical"].any()


def test_significant_cycles_and_nash_averaging():
    labels = ["rock", "paper", "scissors", "dud"]
    beats = np.zeros((4, 4), bool)
    beats[1, 0] = beats[2, 1] = beats[0, 2] = True
    beats[:3, 3] = True
    (cycle,) = significant_cycles(labels, beats)
    assert len(cycle) == 3 and set(cycle) == {"rock", "paper", "scissors"}
    assert significant_cycles(labels, np.triu(np.ones((4, 4), bool), 1)) == []
    a = np.array([[0, -1, 1, 2], [1, 0, -1, 2], [-1, 1, 0, 2], [-2, -2, -2, 0.0]])
    p, r = nash_average(a)
    assert p[:3] == pytest.approx([1 / 3] * 3, abs=1e-6) and p[3] == pytest.approx(0, abs=1e-9)
    assert r[:3] == pytest.approx([0, 0, 0], abs=1e-6) and r[3] == pytest.approx(-2)
    # a duplicated agent shares the mass; nobody's average moves (Balduzzi et al.'s invariance)
    b = np.zeros((5, 5))
    b[:4, :4] = a
    b[4, :4], b[:4, 4] = a[0], a[:, 0]
    q, s = nash_average(b)
    assert s[:4] == pytest.approx(r, abs=1e-6) and q[0] == pytest.approx(q[4], abs=1e-4)


# ------------------------------------------------------------ what-if ----------
@pytest.fixture(scope="module")
def small_whatif(compiled):
    return whatif(["greedy"], games=160, seed=4, variants=["two_orgies"],
                  changes=[Change("hand 4", {"hand_size": 4})], cards=True)


def test_whatif_arms_are_the_runs_of_their_rules(small_whatif):
    w = small_whatif
    base = rows_of("greedy", "greedy", 160, seed=4)
    arm = rows_of("greedy", "greedy", 160, seed=4, rules={"hand_size": 4})
    m = w.metrics.set_index(["arm", "metric"])
    plain = metrics(base).set_index("metric")
    for name in ("seat_advantage", "turns", "decisiveness", "votes_senator"):
        assert m.loc[("RULES.md", name), "value"] == pytest.approx(plain.loc[name, "value"])
    for name, x, y in [("turns", arm[:, R_TURNS], base[:, R_TURNS]),
                       ("ties", arm[:, R_TIES], base[:, R_TIES])]:
        d = paired_difference(x, y)
        r = m.loc[("hand 4", name)]
        assert r["diff"] == pytest.approx(d["diff"]) and r["diff_lo"] == pytest.approx(d["lo"])
    assert w.metrics["p_holm"].notna().sum() == 2 * len(METRICS)
    assert w.info["comparisons"] == 2 * len(METRICS)


def test_card_worth_is_the_owners_paired_loss(small_whatif):
    base = rows_of("greedy", "greedy", 160, seed=4)
    cleo = rows_of("greedy", "greedy", 160, seed=4, rules={"action_count": {"cleopatra": {"assassination": 3}}})
    caes = rows_of("greedy", "greedy", 160, seed=4, rules={"action_count": {"caesar": {"assassination": 3}}})
    score = lambda r: np.where(r[:, R_WINNER] == 0, 1.0, np.where(r[:, R_WINNER] < 0, 0.5, 0.0))  # noqa: E731
    c = small_whatif.cards.set_index(["card", "player"])
    d = paired_difference(score(base), score(cleo))
    assert c.loc[("assassination", "cleopatra"), "worth"] == pytest.approx(d["diff"])
    assert c.loc[("assassination", "cleopatra"), "ci_lo"] == pytest.approx(d["lo"])
    d = paired_difference(1 - score(base), 1 - score(caes))
    assert c.loc[("assassination", "caesar"), "worth"] == pytest.approx(d["diff"])
    both = ((score(base) - score(cleo)) + ((1 - score(base)) - (1 - score(caes)))) / 2
    assert c.loc[("assassination", "both"), "worth"] == pytest.approx(both.mean())
    assert len(small_whatif.cards) == 18


def test_whatif_prints_tables_and_json(capsys, tmp_path, compiled):
    rules = tmp_path / "w.toml"
    rules.write_text('[[change]]\nname = "big censor"\ngroup_size = {censor = 5}\n')
    code, out, err = run_cli(capsys, "whatif", "--games", "60", "--variant", "late_orgies_boxed", "--rules", rules,
                             "--out", tmp_path / "o", "--no-progress")
    assert code == 0, err
    # the default level is the strongest fast one shown balanced; every arm's own value
    # stands with its interval beside the difference
    level = default_level()  # learned: neural is stronger but lopsided
    flat = " ".join(out.split())  # the table fits the terminal: a heading may wrap
    from ccsim.present.whatif import level_head
    assert f"{level_head(level)} — big censor: the censor group has 5 patricians (standard: 3)" in flat
    assert not flat.startswith(f"Note: {level_head(level)}")  # a balanced default opens with no caveat of its own
    assert "difference [95% CI]" in out and "changed" in out and "standard" in out and "RULES.md" not in out
    for f in ("metrics.parquet", "lengths.parquet", "summary.json", "whatif.txt", "whatif.png"):
        assert (tmp_path / "o" / f).is_file(), f
    code, out, _ = run_cli(capsys, "whatif", "--games", "60", "--no-variants", "--rules", rules, "--json",
                           "--no-progress")
    d = json.loads(out)
    assert [a["name"] for a in d["arms"]] == ["RULES.md", "big censor"] and d["strategies"] == [level]
    m = next(x for x in d["metrics"] if x["arm"] == "big censor" and x["metric"] == "seat_advantage")
    assert m["ci95"][0] <= m["value"] <= m["ci95"][1] and m["base_ci95"][0] <= m["base"] <= m["base_ci95"][1]
    assert {"strategies", "seed", "deals", "metrics", "lengths", "comparisons"} <= set(d)
    m = next(x for x in d["metrics"] if x["arm"] == "big censor" and x["metric"] == "turns")
    assert m["diff_ci95"][0] <= m["diff"] <= m["diff_ci95"][1]


# ------------------------------------------------------------ bad input --------
@pytest.fixture
def no_games(monkeypatch):
    """Any game played fails the test: bad input must be refused first."""
    def refuse(task):
        raise AssertionError("a game was played")
    monkeypatch.setattr("ccsim.analyses.tournament.play_task", refuse)
    monkeypatch.setattr("ccsim.analyses.whatif.play_task", refuse)


@pytest.mark.parametrize("argv, needle", [
    (["tournament", "--games", "0"], "--games"),
    (["tournament", "--strategies", "greedy,nobody"], "unknown strategy 'nobody'"),
    (["tournament", "--strategies", "greedy"], "at least two entrants"),
    (["tournament", "--strategies", "greedy,greedy"], "twice"),
    (["tournament", "--orderings", "AAXASSCCRRWVV"], "unknown letter"),
    (["tournament", "--variant", "nope"], "unknown variant"),
    (["tournament", "--out", "/proc/forbidden"], "--out"),
    (["tournament", "--games", "x"], "not a valid integer"),
    (["tournament", "--threads", "-1"], "--threads"),
    (["tournament", "--backend", "gpu"], "gpu"),
    (["whatif", "--games", "1"], "--games"),
    (["whatif", "--strategy", "nobody"], "unknown strategy"),
    (["whatif", "--variant", "nope"], "unknown variant"),
    (["whatif", "--no-variants"], "nothing to compare"),
    (["whatif", "--no-variants", "--variant", "two_orgies"], "contradict"),
    (["whatif", "--rules", "/nonexistent.toml"], "cannot read"),
    (["whatif", "--cleopatra-order", "AAAAASCCRRWVV"], "ordering"),
    (["whatif", "--record", "/nonexistent-dir/r.jsonl"], "--record"),
    (["metrics", "/nonexistent"], "cannot read"),
])
def test_bad_analysis_input_is_one_line_and_exit_2(capsys, no_games, argv, needle):
    code, out, err = run_cli(capsys, *argv)
    assert code == 2, err
    assert err.count("\n") == 1 and err.startswith("ccsim: error: ") and needle in err, err
    assert "Traceback" not in err + out


@pytest.mark.parametrize("text, needle", [
    ("hand_size = 4\n", "unknown top-level key 'hand_size'"),
    ("[[change]]\nhand_size = 4.0\n", "hand_size"),
    ("[[change]]\nhand_size = true\n", "hand_size"),
    ('[[change]]\nhand_size = "4"\n', "hand_size"),
    ("[[change]]\nhand_size = 9\n", "1..6"),
    ("[[change]]\nhand_sise = 4\n", "unknown rule parameter 'hand_sise'"),
    ("[[change]]\nname = \"x\"\n", "changes nothing"),
    ("[[change]]\nname = \"x\"\norgies = 3\n[[change]]\nname = \"x\"\norgies = 4\n", "taken"),
    ("[[change]]\naction_count = {caesar = {wrath = 0}}\n", "needs 12"),
    ("description = 'nothing'\n", "at least one [[change]]"),
    ("[[change]\n", "not valid TOML"),
    ('[[change]]\nvariants = "two_orgies"\n', "variants"),
])
def test_bad_rules_files_are_refused_before_a_game(capsys, tmp_path, no_games, text, needle):
    path = tmp_path / "r.toml"
    path.write_text(text)
    extra = ["--cleopatra-order", "veto-first", "--caesar-order", "veto-first"] if "wrath" in text else []
    code, _, err = run_cli(capsys, "whatif", "--no-variants", "--rules", path, *extra)
    assert code == 2 and err.count("\n") == 1 and needle in err, err
    with pytest.raises(WhatIfError):
        if "wrath" not in text:
            load_changes(path)
        else:
            whatif(["greedy"], games=10, variants=(), rules_file=path, caesar_order="veto-first")


@pytest.mark.parametrize("kw, needle", [
    (dict(games=1), "--games"), (dict(seed=-1), "--seed"), (dict(strategies=["nobody"]), "unknown strategy"),
    (dict(strategies=[]), "at least one --strategy"), (dict(variants=["three_orgies"]), "unknown variant"),
    (dict(cleopatra_order="veto-middle"), "the orderings"), (dict(variants=()), "nothing to compare"),
    (dict(record_games=-1), "--record-games"),
])
def test_a_whatif_question_is_checked_at_the_door(kw, needle):
    # every door (the command line, the Python API) builds this one question: a bad field is one line in
    # the error family, before any game
    with pytest.raises(WhatIfError, match=needle) as e:
        ask_whatif(**kw)
    assert isinstance(e.value, CCSimError) and "\n" not in str(e.value)


class _Asked(Exception):
    pass


def test_the_command_line_reads_the_rules_file_once_and_hands_down_the_question(capsys, tmp_path, monkeypatch):
    import ccsim.runner.changes as changes_file
    path = tmp_path / "r.toml"
    path.write_text('description = "one change"\n[[change]]\nname = "hand of 4"\nhand_size = 4\n')
    reads, asked = [], []
    read = changes_file.load_changes
    monkeypatch.setattr(changes_file, "load_changes", lambda *a, **k: reads.append(a) or read(*a, **k))

    def answer(q, backend=None, progress=False):
        asked.append(q)
        raise _Asked
    monkeypatch.setattr("ccsim.analyses.whatif.answer_whatif", answer)
    with pytest.raises(_Asked):
        main(["whatif", "--no-variants", "--rules", str(path), "--strategy", "greedy", "--games", "50", "--seed", "7"])
    assert len(reads) == 1 and len(asked) == 1
    q = asked[0]
    assert isinstance(q, WhatIfQuestion) and q.levels == ("greedy",) and (q.games, q.seed) == (50, 7)
    assert [a.name for a in q.arms] == ["RULES.md", "hand of 4"] and q.description == "one change"


@pytest.mark.parametrize("kw, needle", [
    (dict(games=0), "--games"), (dict(seed=-1), "--seed"), (dict(search_games=0), "--search-games"),
    (dict(strategies="greedy,nobody"), "--strategies: unknown strategy"), (dict(strategies="greedy,greedy"), "twice"),
    (dict(strategies="greedy"), "at least two entrants"), (dict(orderings="veto-middle"), "--orderings"),
    (dict(orderings="shuffled,shuffled"), "given twice"), (dict(variants=["three_orgies"]), "three_orgies"),
    (dict(rules={"hand_size": 0}), "hand_size"),
])
def test_a_tournament_question_is_checked_at_the_door(kw, needle):
    with pytest.raises(TournamentError, match=needle) as e:
        ask_tournament(**({"strategies": "greedy,random"} | kw))
    assert isinstance(e.value, CCSimError) and "\n" not in str(e.value)


def test_a_tournament_question_holds_its_entrants_typed():
    q = ask_tournament(["greedy", "random"], games=30, seed=4, orderings="veto-first,shuffled", variants=["two_orgies"])
    assert isinstance(q, TournamentQuestion) and (q.games, q.seed, q.variants) == (30, 4, ("two_orgies",))
    assert q.entrants[0] == Entrant("greedy/veto-first", "greedy", "VVASCRAWASCRA")
    assert q.labels == ["greedy/veto-first", "greedy/shuffled", "random/veto-first", "random/shuffled"]


def test_the_command_line_hands_the_tournament_question_down(monkeypatch):
    asked = []

    def answer(q, backend=None, progress=False):
        asked.append(q)
        raise _Asked
    monkeypatch.setattr("ccsim.analyses.tournament.answer_tournament", answer)
    with pytest.raises(_Asked):
        main(["tournament", "--strategies", "greedy,random", "--games", "50", "--seed", "7", "--search-games", "9",
              "--variant", "two_orgies", "--nash"])
    (q,) = asked
    assert isinstance(q, TournamentQuestion) and q.labels == ["greedy", "random"] and (q.games, q.seed) == (50, 7)
    assert (q.search_games, q.variants, q.nash) == (9, ("two_orgies",), True)
    assert (q.rules == ask_tournament("greedy,random", variants=["two_orgies"]).rules).all()


def test_a_weights_file_with_keys_outside_its_table_is_refused(capsys, tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text('description = "mine"\naggression = 1.0\n[weights]\ncard_cost = 0.1\n')
    code, _, err = run_cli(capsys, "run", "--games", "5", "--cleopatra", path)
    assert code == 2 and "unknown top-level key 'aggression'" in err and err.count("\n") == 1
    path.write_text('card_cost = 1.0\n')
    code, _, err = run_cli(capsys, "tournament", "--strategies", f"greedy,{path}", "--games", "5")
    assert code == 2 and "[weights] table" in err
    path.write_text('description = "fine"\n[weights]\ncard_cost = 0.1\n')
    code, _, _ = run_cli(capsys, "run", "--games", "5", "--cleopatra", path, "--json")
    assert code == 0


def test_tournament_api_refuses_bad_arguments():
    with pytest.raises(TournamentError):
        tournament("greedy,random", games=-3)
    with pytest.raises(TournamentError):
        tournament("greedy,random", rules={"hand_size": 0})


def test_ctrl_c_keeps_the_finished_deals(monkeypatch, compiled):
    monkeypatch.setattr("ccsim.analyses.tournament.TASK_GAMES", 100)
    monkeypatch.setattr("ccsim.analyses.whatif.TASK_GAMES", 100)
    t = tournament("greedy,random", games=200, backend=Counting(stop_after=2))
    assert t.info["interrupted"] and t.info["deals"] == 100 and t.pairings["games"][0] == 200
    assert tournament_json(t)["interrupted"] is True
    w = whatif(["random"], games=400, variants=["two_orgies"], backend=Counting(stop_after=3))
    assert w.info["interrupted"] and w.info["deals"] == 150 and "interrupted" in format_whatif(w)
    with pytest.raises(KeyboardInterrupt):
        tournament("greedy,random", games=200, backend=Counting(stop_after=0))

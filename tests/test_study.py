"""The ordering toolkit: compare, search, positions (ccsim.analyses.orderings.study, `ccsim orderings`).

Small game counts throughout: the orderings of a tiny search already differ by
tens of points, so the checks are not close calls.
"""
import json

import numpy as np
import pandas as pd
import pytest

from ccsim.analyses.orderings import study
from ccsim.analyses.orderings.search import plan_halving
from conftest import run_cli
from ccsim.analyses.orderings.space import random_orderings
from ccsim.runner.orderings import COUNTS, LENGTH, LETTERS, PRESETS, parse_ordering

BAD = "AAXASSCCRRWVV"          # an unknown letter
WRONG_COUNTS = "AAAAASCCRRWVV"  # five assassinations, one spy


@pytest.fixture(scope="module")
def tiny_search():
    return study.search(strategy="greedy", budget=30_000, seed=3)


# --- compare ----------------------------------------------------------------------

@pytest.mark.slow  # plays a study's games
def test_self_comparison_is_exactly_zero():
    df = study.compare(["balanced", "veto-first", "shuffled"], baseline="balanced", strategy="greedy", games=400, seed=5)
    me = df.set_index("label").loc["balanced"]
    assert me["diff"] == 0.0 and me["diff_lo"] == 0.0 and me["diff_hi"] == 0.0
    assert me["win_rate"] == df.attrs["baseline"]["win_rate"]
    assert set(df["games"]) == {400}
    sh = study.compare(["shuffled"], baseline="shuffled", strategy="greedy", games=200)
    assert sh["diff"][0] == 0.0 and (sh["diff_lo"][0], sh["diff_hi"][0]) == (0.0, 0.0)


@pytest.mark.slow  # plays a study's games
def test_self_comparison_until_decided_says_no_difference():
    df = study.compare(["veto-first"], baseline="veto-first", strategy="greedy", games=4000, until_decided=True)
    assert df["decision"][0] == "no_difference"
    assert df["diff"][0] == 0.0 and df["games"][0] < 4000


@pytest.mark.slow  # plays a study's games
def test_compare_json_shape_and_canonical_form(capsys):
    code, out, err = run_cli(capsys, "orderings", "compare", "veto_first", " vaas-rcaw sarcv ", "--baseline",
                             "shuffled", "--games", "300", "--json")
    assert code == 0, err
    d = json.loads(out)
    assert list(d) == ["level", "caveat", "orderings"]   # the level it rests on, and its caveat when not balanced
    assert [r["ordering"] for r in d["orderings"]] == [PRESETS["veto-first"][0], "VAASRCAWSARCV"]
    for r in d["orderings"]:
        assert set(r) == {"ordering", "games", "win_rate", "ci95", "diff", "diff_ci95", "judge"}
        assert r["games"] == 300
        assert r["ci95"][0] <= r["win_rate"] <= r["ci95"][1]
        assert r["diff_ci95"][0] <= r["diff"] <= r["diff_ci95"][1]
        assert len(r["ordering"]) == LENGTH


@pytest.mark.slow  # plays a study's games
def test_compare_text_and_forest_plot(capsys, tmp_path):
    png = tmp_path / "forest.png"
    code, out, err = run_cli(capsys, "orderings", "compare", "balanced", "veto-last", "--games", "200",
                             "--plot", png, "--wide")
    assert code == 0, err
    assert "veto-last" in out and "baseline shuffled" in out
    assert png.stat().st_size > 10_000


@pytest.mark.parametrize("argv, needle", [
    (["compare", BAD], "unknown letter 'X'"),
    (["compare", WRONG_COUNTS], "needs A=4 S=2"),
    (["compare", "AAAA"], "has 4 letters, needs 13"),
    (["compare", "balanced", "--baseline", WRONG_COUNTS], "--baseline"),
    (["compare", "balanced", "--opponent-order", BAD], "--opponent-order"),
    (["compare", "balanced", "--strategy", "nobody"], "unknown strategy 'nobody'"),
    (["compare", "balanced", "--opponent", "nobody"], "--opponent"),
    (["compare", "balanced", "--games", "0"], "--games"),
    (["compare", "balanced", "--variant", "nope"], "unknown variant"),
    (["compare"], "at least one ORDER"),
    (["search", "--budget", "10", "--out", "/proc/forbidden"], "--budget"),
    (["search", "--budget", "5000", "--opponent-order", "veto-middle"], "--opponent-order"),
    (["search", "--budget", "5000", "--out", "/proc/forbidden"], "--out"),
    (["positions", "--games", "100", "--out", "/proc/forbidden"], "too few"),
    (["positions", "--opponent-order", WRONG_COUNTS], "--opponent-order"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, argv, needle):
    code, out, err = run_cli(capsys, "orderings", *argv)
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("ccsim: error: ")
    assert needle in err
    assert "Traceback" not in err + out


def test_python_api_errors_name_the_problem():
    with pytest.raises(study.OrderingStudyError, match="needs A=4 S=2"):
        study.compare([WRONG_COUNTS])
    with pytest.raises(study.OrderingStudyError, match="--baseline"):
        study.compare(["balanced"], baseline=BAD)


# --- search -----------------------------------------------------------------------

def test_tiny_search_returns_ten_valid_distinct_orderings(tiny_search):
    df = tiny_search
    assert len(df) == 10 and list(df["rank"]) == list(range(1, 11))
    assert df["ordering"].is_unique
    for o in df["ordering"]:
        assert parse_ordering(o) == o  # canonical and valid
        assert tuple(o.count(ch) for ch in LETTERS) == COUNTS
    assert (df["win_rate"].diff().dropna() <= 0).all()
    assert (df["ci_lo"] <= df["win_rate"]).all() and (df["win_rate"] <= df["ci_hi"]).all()
    assert (df["simul_lo"] <= df["ci_lo"]).all()
    a = df.attrs
    assert a["games_used"] <= a["budget"] == 30_000
    assert a["baseline"]["ordering"] == "shuffled" and a["baseline"]["diff"] == 0.0
    assert a["progress"][0]["stage"] == "halving"
    assert a["progress"][-1]["stage"] == "confirm"


def test_best_and_worst_differ_and_sequential_test_decides_sooner(tiny_search):
    best = tiny_search["ordering"][0]
    worst = tiny_search.attrs["worst"]["ordering"]
    fixed = study.compare([best], baseline=worst, strategy="greedy", games=4000, seed=11)  # fresh deals: another seed
    assert fixed["diff_lo"][0] > 0.05
    seq = study.compare([best], baseline=worst, strategy="greedy", games=4000, seed=11,
                        until_decided=True)
    assert seq["decision"][0] == "better"
    assert seq["games"][0] <= fixed["games"][0] // 4


@pytest.mark.slow  # plays a study's games
def test_search_cli_saves_parquet_plot_and_json(capsys, tmp_path):
    code, out, err = run_cli(capsys, "orderings", "search", "--budget", "6000", "--top", "3", "--out", tmp_path,
                             "--json", "--quiet")
    assert code == 0, err
    d = json.loads(out)
    assert len(d["orderings"]) == 3 and d["games_used"] <= 6000
    assert set(d["orderings"][0]) >= {"ordering", "games", "win_rate", "ci95", "diff", "diff_ci95"}
    top = pd.read_parquet(tmp_path / "search_top.parquet")
    assert list(top["role"]) == ["top"] * 3 + ["baseline", "worst of sample"]
    assert len(pd.read_parquet(tmp_path / "search_progress.parquet")) >= 3
    assert (tmp_path / "search_progress.png").stat().st_size > 10_000
    assert json.loads((tmp_path / "search.json").read_text())["budget"] == 6000


def test_halving_plan_fits_the_budget():
    for b in (5_000, 100_000, 5_000_000):
        k, r, m0 = plan_halving(b, 32, 8, 1 << 16)
        assert k == 32 << r and m0 >= 8 and k * m0 * (r + 2) <= b


# --- positions --------------------------------------------------------------------

def test_position_fit_recovers_an_additive_model():
    """With y additive in type-at-position, the effects are exact and match the conditional means."""
    rng = np.random.default_rng(3)
    f = rng.normal(size=(len(LETTERS), LENGTH))
    codes = random_orderings(rng, 100_000)
    y = f[codes, np.arange(LENGTH)].sum(axis=1)
    fit = study.PositionFit()
    fit.add(codes[:60_000], y[:60_000])
    fit.add(codes[60_000:], y[60_000:])
    eff, _cov, raw, info = fit.solve()
    w = np.array(COUNTS) / LENGTH
    h = f - (w[:, None] * f).sum(axis=0)
    expect = (h - h.mean(axis=1, keepdims=True)) * LENGTH / (LENGTH - 1)
    assert np.allclose(eff, expect.ravel(), atol=1e-9)
    assert info["r2"] > 0.999999
    assert np.abs(eff - raw).max() < 0.15  # model-free conditional means agree up to sampling noise


@pytest.mark.slow  # plays a study's games
def test_positions_table_and_heatmap(capsys, tmp_path):
    code, out, err = run_cli(capsys, "orderings", "positions", "--games", "3000", "--opponent", "random",
                             "--out", tmp_path, "--quiet")
    assert code == 0, err
    assert "top 3" in out and "worth" in out
    df = pd.read_parquet(tmp_path / "positions.parquet")
    pos = df[df["kind"] == "position"]
    assert len(pos) == len(LETTERS) * LENGTH and len(df[df["kind"] == "region"]) == len(LETTERS) * 4
    eff = pos.pivot(index="letter", columns="first", values="effect").loc[list(LETTERS)].to_numpy()
    w = np.array(COUNTS) / LENGTH
    assert np.allclose(eff.sum(axis=1), 0, atol=1e-9)           # each card: zero over positions
    assert np.allclose((w[:, None] * eff).sum(axis=0), 0, atol=1e-9)  # each position: zero over cards
    assert (pos["lo"] <= pos["effect"]).all() and (pos["effect"] <= pos["hi"]).all()
    assert (tmp_path / "positions_heatmap.png").stat().st_size > 10_000


# --- config files -----------------------------------------------------------------

@pytest.mark.slow  # plays a study's games
def test_config_file_gives_the_same_result_as_the_flags(capsys, tmp_path):
    """`--config`: the flags as TOML keys; the command line still wins."""
    cfg = tmp_path / "study.toml"
    cfg.write_text('candidates = ["veto-first"]\nbaseline = "shuffled"\ngames = 300\nseed = 4\n'
                   'opponent-order = "balanced"\njson = true\n')
    code, out, err = run_cli(capsys, "orderings", "compare", "--config", cfg)
    assert code == 0, err
    code2, out2, _ = run_cli(capsys, "orderings", "compare", "veto-first", "--baseline", "shuffled", "--games", 300,
                             "--seed", 4, "--opponent-order", "balanced", "--json")
    assert code2 == 0 and json.loads(out) == json.loads(out2)
    code3, out3, _ = run_cli(capsys, "orderings", "compare", "--config", cfg, "--games", 200)
    assert code3 == 0 and json.loads(out3)["orderings"][0]["games"] == 200


@pytest.mark.parametrize("text, words", [
    ('games = 300\nbudget = 5\n', "unknown key 'budget'"),
    ('games = [300\n', "not valid TOML"),
    (f'candidates = ["{BAD}"]\ngames = 300\n', "X"),
])
def test_bad_config_file_is_one_line_exit_2(capsys, tmp_path, text, words):
    cfg = tmp_path / "bad.toml"
    cfg.write_text(text)
    code, out, err = run_cli(capsys, "orderings", "compare", "--config", cfg)
    assert code == 2 and len(err.strip().splitlines()) == 1 and words in err, err


def test_missing_config_file_is_one_line_exit_2(capsys, tmp_path):
    code, _, err = run_cli(capsys, "orderings", "search", "--config", tmp_path / "none.toml")
    assert code == 2 and len(err.strip().splitlines()) == 1 and "cannot read" in err

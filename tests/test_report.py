"""`ccsim report`: study files, sections against plain recomputation, claims, resume, the page.

One small study is run once for the module (``small``); its sections are checked
against the per-game rows of ``ccsim.analyses.run.simulate``, every claim against its
own command line, and the page for being self-contained.
"""
from __future__ import annotations

import json
import re

import numpy as np
import pytest
from click.testing import CliRunner

from ccsim.cli import cli
from conftest import run_cli
from ccsim.report import StudyError, StudyInterrupted, parse_study, plan_study, run_study
from ccsim.report.claims import Estimate, lookup, lookup_interval, robustness
from ccsim.report.kinds import KINDS
from ccsim.report.sections import equilibrium, seat_statement
from ccsim.analyses.run import simulate

SMALL = """
title = "small"
seed = 5
levels = ["greedy", "defender", "tactician"]
[seat]
games = 600
[game]
games = 600
[ladder]
strategies = ["greedy", "defender", "tactician"]
games = 100
[orderings]
budget = 10000
top = 2
presets = ["veto-first"]
field = ["greedy"]
games = 300
positions_games = 2000
meta_games = 60
[variants]
variants = ["two_orgies"]
games = 200
[[variants.change]]
name = "hand of 4"
hand_size = 4
[cards]
levels = ["greedy", "tactician"]
games = 120
"""


@pytest.fixture(autouse=True)
def _close_figures():
    """Sections built here without rendering keep their figures open: close them after each test."""
    yield
    import matplotlib.pyplot as plt
    plt.close("all")


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    d = tmp_path_factory.mktemp("report")
    (d / "study.toml").write_text(SMALL)
    rep = run_study(d / "study.toml", d / "out")
    return d, rep


def _section(rep, name):
    return next(s for s in rep.sections if s.name == name)


def _score(df, who: str) -> np.ndarray:
    """``who``'s score per game (win 1, draw 1/2 as R10.5) from a results frame."""
    mine = np.where(df["strategy_cleopatra"] == who, df["winner"] == "cleopatra", df["winner"] == "caesar")
    return mine + 0.5 * df["winner"].isna()


# --- study files -------------------------------------------------------------------------

BAD = {
    "unknown top-level key": ("seed = 1\nlevelz = ['greedy']\n[seat]\n", "unknown key or section 'levelz'"),
    "unknown section": ("[seats]\ngames = 100\n", "unknown key or section 'seats'"),
    "unknown section key": ("[seat]\ngame = 100\n", "[seat]: unknown key 'game'"),
    "no section": ("seed = 1\n", "no section to run"),
    "impossible games": ("[seat]\ngames = 0\n", "[seat] games: must be in"),
    "games of the wrong type": ("[seat]\ngames = 'many'\n", "[seat] games: has the wrong type"),
    "unknown strategy": ("levels = ['greedy', 'grandmaster']\n[seat]\n", "unknown strategy 'grandmaster'"),
    "unknown ordering": ("[orderings]\npresets = ['AAAAAAAAAAAAA']\n", "[orderings] presets"),
    "shuffled as a preset": ("[orderings]\npresets = ['shuffled']\n", "shuffled is the baseline"),
    "unknown variant": ("[variants]\nvariants = ['three_orgies']\n", "unknown variant 'three_orgies'"),
    "bad rules change": ("[variants]\nvariants = []\n[[variants.change]]\nhand_size = 99\n", "change 1"),
    "reference not a level": ("levels = ['greedy']\nreference = 'tactician'\n[seat]\n", "reference"),
    "budget too small for the precision": ("precision = 0.01\n[seat]\ngames = 1000\n",
                                          "wider than precision = 0.01 (needs at least 9,604 games)"),
    "precision impossible": ("precision = 0.7\n[seat]\n", "precision: must be a number in (0, 0.5)"),
    "cap too small": ("[caps]\nexpert = 3\n[seat]\n", "[caps] expert: must be in"),
    "section cap too small": ("[seat]\ncaps = { expert = 3 }\n", "[seat] caps expert: must be in"),
    "not TOML": ("[seat\n", "not valid TOML"),
}


@pytest.mark.parametrize("name", list(BAD))
def test_bad_study_file_one_line_exit_2_before_any_game(tmp_path, name, monkeypatch, capsys):
    text, expected = BAD[name]
    (tmp_path / "s.toml").write_text(text)
    import ccsim.analyses.run
    monkeypatch.setattr(ccsim.analyses.run, "run", lambda *a, **k: pytest.fail("a game was played"))
    code, out, err = run_cli(capsys, "report", tmp_path / "s.toml", "--out", tmp_path / "out")
    assert code == 2 and out == "", (out, err)
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("ccsim: error: ") and expected in lines[0], err
    assert not (tmp_path / "out").exists()


def test_missing_study_file_exit_2(tmp_path, capsys):
    code, _, err = run_cli(capsys, "report", tmp_path / "none.toml", "--out", tmp_path / "o")
    assert code == 2 and "cannot read it" in err


def test_defaults_fill_every_section():
    st = parse_study({"seat": {}, "orderings": {}, "ladder": {}})
    assert st.reference == "tactician" and st.levels == ("greedy", "majority", "tactician")
    assert st.sections["orderings"]["level"] == "tactician"
    assert "random" not in st.sections["ladder"]["strategies"]


def test_caps_limit_a_search_player():
    st = parse_study({"levels": ["greedy", "expert"], "caps": {"expert": 200}, "seat": {"games": 5000}})
    assert [p.games for p in plan_study(st)] == [5000, 200]


def test_a_section_may_cap_a_slow_player_otherwise():
    st = parse_study({"levels": ["greedy", "expert"], "caps": {"expert": 200},
                      "seat": {"games": 5000, "caps": {"expert": 1000}}, "game": {"games": 5000}})
    assert {p.name: p.games for p in plan_study(st)} == {"mirror:greedy:5000": 5000, "mirror:expert:1000": 1000,
                                                         "mirror:expert:200": 200}


def test_the_headline_level_is_the_strongest_balanced_level_measured_at_scale(seat_gaps):
    """A level carries the headline with 20,000 seat games; a capped one that still plays them does, a search
    player capped below them does not; and only a level that plays both seats alike: neural and master are
    lopsided (strategies/seats.py; pinned here to the gaps the issue measured), shown but never the headline."""
    seat_gaps({"neural": 10.9, "master": -3.4, "neural-search": -0.1})
    st = parse_study({"levels": ["greedy", "tactician", "neural", "neural-search"],
                      "caps": {"neural-search": 20_000}, "seat": {"games": 100_000}})
    assert st.reference == "neural-search"
    st = parse_study({"levels": ["greedy", "tactician", "neural", "neural-search"],
                      "caps": {"neural-search": 19_999}, "seat": {"games": 100_000}})
    assert st.reference == "tactician"                    # not neural: it is lopsided, whatever its games
    st = parse_study({"levels": ["greedy", "tactician", "neural", "master"], "seat": {"games": 100_000}})
    assert st.reference == "tactician"
    with pytest.raises(StudyError, match="master is lopsided"):
        parse_study({"levels": ["tactician", "master"], "reference": "master", "seat": {"games": 1000}})
    assert parse_study({"levels": ["greedy", "neural"], "caps": {"neural": 500},
                        "variants": {"games": 1000}}).reference == "greedy"   # no seat, no balance: full scale


def test_a_judge_the_study_names_is_played_whatever_its_status_and_the_opening_says_it(seat_gaps):
    """As on every door: a level asked for by name is played, and its status is said before its figures."""
    seat_gaps({"neural": 10.9})
    from types import SimpleNamespace as NS
    from ccsim.report.render import rests_text
    st = parse_study({"levels": ["tactician", "neural"], "judge": "neural", "seat": {"games": 1000}})
    assert st.reference == "neural"
    text = rests_text(NS(study=st, claims=[], info=dict(games=1)))
    assert ("neural, the judge this study names, is lopsided (against tactician it plays Cleopatra 10.9 points "
            "better than Caesar): its figures are the strongest play measured, not shown to be the game's own edge, "
            "and no verdict of fair rests on them.") in text
    assert "carry no headline" not in text             # the judge is not listed again among the other lopsided levels
    seat_gaps({"neural": 1.0})
    assert "the judge this study names, is" not in rests_text(NS(study=st, claims=[], info=dict(games=1)))


def test_a_claim_not_measured_at_the_headline_level_is_said_so(seat_gaps):
    seat_gaps({"neural": 10.9, "master": -3.4, "neural-search": -0.1})  # the gaps, pinned
    from types import SimpleNamespace as NS
    from ccsim.report.render import not_measured_at_reference, rests_text
    st = parse_study({"levels": ["greedy", "learned", "neural", "neural-search"],
                      "caps": {"neural-search": 50_000}, "seat": {"games": 100_000}})
    claim = lambda i, level, ctx: NS(id=i, level=level, estimates=[NS(context=c) for c in ctx])  # noqa: E731
    claims = [claim("seat.advantage", "neural-search", ["greedy", "neural-search"]),
              claim("orderings.meta", "learned", ["learned"]),
              claim("cards.veto", "learned", ["learned", "neural-search"]), claim("ladder.top", "neural", ["tactician"])]
    rep = NS(study=st, claims=claims, info=dict(games=1))
    assert [c.id for c in not_measured_at_reference(rep)] == ["orderings.meta", "ladder.top"]
    text = rests_text(rep)
    assert "Not measured at neural-search, stated at a weaker level: orderings (1 claim), at learned; the strategy " \
           "ladder (1 claim), at neural." in text
    assert "the strongest level that plays both seats alike" in text
    assert "neural is lopsided" in text and "carry no headline" in text


def test_part_keys_follow_their_settings():
    a = {p.name: p.key for p in plan_study(parse_study({"seed": 1, "seat": {"games": 1000}}))}
    b = {p.name: p.key for p in plan_study(parse_study({"seed": 2, "seat": {"games": 1000}}))}
    c = {p.name: p.key for p in plan_study(parse_study({"seed": 1, "seat": {"games": 1000}}))}
    assert a == c and set(a) == set(b) and all(a[k] != b[k] for k in a)


# --- sentences and verdicts follow the numbers ------------------------------------------------

def test_seat_sentence_follows_the_numbers():
    assert seat_statement(Estimate("greedy", 0.07, 0.05, 0.09, 1000)).startswith("Cleopatra, who moves first")
    s = seat_statement(Estimate("greedy", -0.04, -0.06, -0.02, 1000))
    assert s.startswith("Caesar, who moves second") and "−4.0 points [−6.0, −2.0]" in s
    assert seat_statement(Estimate("greedy", 0.01, -0.01, 0.03, 1000)).startswith("Neither seat")
    assert seat_statement(Estimate("greedy", 0.002, -0.004, 0.008, 100_000)).startswith("The game is fair")


def test_verdict_holds_reverses_not_significant():
    k = KINDS["seat_advantage"]
    up = Estimate("a", 0.1, 0.05, 0.15)
    rob = robustness(up, [Estimate("b", 0.2, 0.1, 0.3)], k)
    assert rob.text == "holds at every other level tested (b)" and rob.holds
    assert robustness(up, [Estimate("b", -0.2, -0.3, -0.1)], k).text == "reverses at b"
    assert robustness(up, [Estimate("b", 0.0, -0.1, 0.1), Estimate("c", -0.2, -0.3, -0.1)], k).text == \
        "reverses at c; not significant at b"
    assert robustness(up, [Estimate("b", 0.001, -0.002, 0.004)], k).text == "fair at b"
    assert robustness(up, [], k).text == "not tested at another level"
    assert robustness(up, [Estimate("b", 0.2, 0.1, 0.3)], k, across="opponent").text == \
        "holds against every other opponent tested (b)"
    assert robustness(up, [Estimate("b", 0.3, 0.2, 0.4)], KINDS["game_length"]).text.startswith("0.30 turns at b")
    # a claim is stated once, at its own level: the verdict never names it, significant or not
    unsure = Estimate("a", 0.01, -0.05, 0.07)
    assert "a" not in robustness(unsure, [unsure, Estimate("b", 0.0, -0.1, 0.1)], k).text.split("(")[0].split()


def test_a_section_sentence_changes_with_its_numbers(small):
    d, rep = small
    from ccsim.report.sections import build
    res = {}
    from ccsim.report.study_run import run_parts
    from ccsim.report.parts import PartStore
    parts = [p for p in plan_study(rep.study) if p.name.startswith("mirror:")]
    res, counts = run_parts(parts, PartStore(d / "out" / "parts"))
    assert counts["games_played"] == 0
    before = build(rep.study, "seat", res).claims[0]
    for r in res.values():  # flip every seat advantage: Caesar is now favoured
        m = r.tables["metrics"]
        row = m["metric"] == "seat_advantage"
        m.loc[row, ["value", "lo", "hi"]] = -m.loc[row, ["value", "hi", "lo"]].to_numpy()
    after = build(rep.study, "seat", res).claims[0]
    assert before.statement.startswith("Cleopatra") and after.statement.startswith("Caesar")
    assert after.value == pytest.approx(-before.value)
    assert f"{100 * after.value:+.1f} points".replace("-", "\u2212") in after.statement


def test_equilibrium_of_known_games():
    rps = np.array([[0.5, 0.8, 0.2], [0.2, 0.5, 0.8], [0.8, 0.2, 0.5]])
    p, best = equilibrium(rps)
    assert np.allclose(p, 1 / 3, atol=1e-6) and best == pytest.approx(0, abs=1e-6)
    dom = np.array([[0.5, 0.6, 0.7], [0.4, 0.5, 0.55], [0.3, 0.45, 0.5]])
    assert np.allclose(equilibrium(dom)[0], [1, 0, 0], atol=1e-6)


# --- sections against a plain recomputation from the per-game rows ----------------------------------

def test_seat_section_equals_the_per_game_rows(small):
    _, rep = small
    t = _section(rep, "seat").tables["seat"].set_index("level")
    for lv in ("greedy", "defender", "tactician"):
        df = simulate(lv, lv, games=600, seed=5)
        cleo = (df["winner"] == "cleopatra") + 0.5 * df["winner"].isna()
        assert t.loc[lv, "seat_advantage"] == pytest.approx(cleo.mean() - 0.5)
        assert t.loc[lv, "draw_rate"] == pytest.approx(df["winner"].isna().mean())
        assert t.loc[lv, "ci_lo"] < t.loc[lv, "seat_advantage"] < t.loc[lv, "ci_hi"]


def test_game_section_equals_the_per_game_rows(small):
    _, rep = small
    m = _section(rep, "game").tables["metrics"].set_index(["level", "metric"])
    df = simulate("defender", "defender", games=600, seed=5)
    assert m.loc[("defender", "turns"), "value"] == pytest.approx(df["turns"].mean())
    for end in ("all_patricians", "no_influence", "stalemate"):
        assert m.loc[("defender", f"end_{end}"), "value"] == pytest.approx((df["end"] == end).mean())


def test_ladder_pairings_equal_the_per_game_rows(small):
    _, rep = small
    p = _section(rep, "ladder").tables["pairings"]
    r = p[(p["a"] == "greedy") & (p["b"] == "defender")].iloc[0]
    df = simulate("greedy", "defender", games=100, seed=5, swap_seats=True)
    assert r["score"] == pytest.approx(_score(df, "greedy").mean())
    ratings = _section(rep, "ladder").tables["ratings"]
    assert list(ratings["entrant"]) == ["tactician", "defender", "greedy"]


def test_variants_section_equals_the_per_game_rows(small):
    _, rep = small
    m = _section(rep, "variants").tables["metrics"]
    r = m[(m["level"] == "greedy") & (m["arm"] == "two_orgies") & (m["metric"] == "seat_advantage")].iloc[0]
    base = simulate("greedy", "greedy", games=200, seed=5)
    var = simulate("greedy", "greedy", games=200, seed=5, variants=("two_orgies",))
    cleo = lambda df: ((df["winner"] == "cleopatra") + 0.5 * df["winner"].isna()).to_numpy()  # noqa: E731
    assert r["diff"] == pytest.approx((cleo(var) - cleo(base)).mean())
    assert r["value"] == pytest.approx(cleo(var).mean() - 0.5)


def test_orderings_meta_game_mixture_is_an_equilibrium(small):
    _, rep = small
    sec = _section(rep, "orderings")
    mix = sec.tables["meta_mixture"]
    assert mix["weight"].sum() == pytest.approx(1.0)
    assert (mix["weight_lo"] <= mix["weight"] + 1e-9).all() and (mix["weight"] <= mix["weight_hi"] + 1e-9).all()
    sc = sec.tables["meta_score"].set_index("entrant")
    m = sc.loc[mix["ordering"], mix["ordering"]].to_numpy(float)
    a = np.nan_to_num(m - 0.5)
    # no ordering does better than the game's value 0 against the mixture
    assert (a @ mix["weight"].to_numpy()).max() <= 1e-6
    assert set(sec.tables["remeasured"]["context"]) == {"greedy", "defender", "tactician", "tactician vs greedy"}


# --- claims.json: every figure reproduced by its command line --------------------------------------

def test_every_claim_is_reproduced_by_its_command(small, monkeypatch):
    d, rep = small
    data = json.loads((d / "out" / "claims.json").read_text())
    assert {c["section"] for c in data["claims"]} == {"seat", "ladder", "orderings", "variants", "cards", "game"}
    monkeypatch.chdir(d / "out")
    runner = CliRunner()
    for c in data["claims"]:
        assert c["command"].startswith("ccsim ") and "--seed 5" in c["command"] and c["verdict"]
        args = __import__("shlex").split(c["command"])[1:]
        r = runner.invoke(cli, args)
        assert r.exit_code == 0, (c["command"], r.output[-500:])
        out = json.loads(r.output.strip().splitlines()[-1])
        x = lookup(out, c["json_path"])
        assert c["lo"] - 1e-9 <= x <= c["hi"] + 1e-9, c
        assert x == pytest.approx(c["value"], abs=1e-9), c  # the same games: the same figure
        assert lookup_interval(out, c["ci_path"]) == pytest.approx((c["lo"], c["hi"]), abs=1e-9), c  # and interval


# --- the outputs, resume, interrupt ---------------------------------------------------------------

def test_outputs_are_written_and_the_page_is_self_contained(small):
    d, rep = small
    out = d / "out"
    for f in ("report.html", "summary.md", "claims.json", "study.toml", "changes.toml"):
        assert (out / f).is_file(), f
    assert (out / "study.toml").read_text() == SMALL
    html = (out / "report.html").read_text()
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", html)  # nothing to fetch
    n_figs = sum(len(s.figures) for s in rep.sections)
    assert html.count("data:image/png;base64,") == n_figs and n_figs >= 12
    for s in rep.sections:
        assert f'id="{s.name}"' in html
        for t in s.tables:
            assert (out / "tables" / f"{s.name}_{t}.parquet").is_file()
    for c in rep.claims:
        assert c.verdict in html


def test_an_unchanged_study_plays_no_game(small, monkeypatch, capsys):
    d, _ = small
    import ccsim.analyses.run
    monkeypatch.setattr(ccsim.analyses.run, "run", lambda *a, **k: pytest.fail("a game was played"))
    code, text, err = run_cli(capsys, "report", d / "study.toml", "--out", d / "out", "--json")
    assert code == 0, err
    out = json.loads(text)
    assert out["games_played"] == 0 and out["parts_played"] == 0 and out["parts_loaded"] == out["parts"]


def test_an_interrupted_report_keeps_its_parts_and_resumes(tmp_path, monkeypatch):
    (tmp_path / "s.toml").write_text("seed = 9\nlevels = ['greedy', 'defender', 'random']\n[seat]\ngames = 300\n")
    import ccsim.analyses.run
    real = ccsim.analyses.run.run
    calls = []

    def flaky(cfg, **k):
        calls.append(cfg.cleopatra)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(cfg, **k)
    monkeypatch.setattr(ccsim.analyses.run, "run", flaky)
    with pytest.raises(StudyInterrupted) as e:
        run_study(tmp_path / "s.toml", tmp_path / "out")
    assert (e.value.done, e.value.total) == (1, 3)
    calls.clear()
    monkeypatch.setattr(ccsim.analyses.run, "run", lambda cfg, **k: (calls.append(cfg.cleopatra), real(cfg, **k))[1])
    rep = run_study(tmp_path / "s.toml", tmp_path / "out")
    assert calls == ["defender", "random"] and rep.info["parts_loaded"] == 1
    assert not list((tmp_path / "out" / "parts").glob("*.tmp"))


def test_report_cli_prints_the_claims_table(small, capsys):
    d, _ = small
    code, out, err = run_cli(capsys, "report", d / "study.toml", "--out", d / "out")
    assert code == 0, err
    # a claim by what it measures (its name may wrap in a table that fits the terminal), not by its id
    assert "Cleopatra's seat" in out and "seat.advantage" not in out and "robustness" in out and "0 played now" in out


def test_bad_backend_flags_exit_2_before_any_game(tmp_path, capsys):
    (tmp_path / "s.toml").write_text("[seat]\ngames = 100\n")
    code, out, err = run_cli(capsys, "report", tmp_path / "s.toml", "--out", tmp_path / "o", "--backend", "dask",
                             "--workers", "-1")
    assert code == 2 and out == "" and len(err.splitlines()) == 1 and "workers" in err, err
    assert not (tmp_path / "o" / "parts").exists()


def test_figures_print_to_the_decimals_their_interval_supports():
    from ccsim.report.units import fmt, fmt_ci, quote
    assert (fmt(0.1008, "points", (0.0997, 0.1019)), fmt_ci(0.0997, 0.1019, "points")) == ("+10.1", "[+10.0, +10.2]")
    # a figure near zero is not printed as -0.0: one more decimal; a negative carries the minus sign U+2212
    assert (fmt(-0.0004, "points", (-0.002, 0.0017)), fmt_ci(-0.002, 0.0017, "points")) == ("\u22120.04",
                                                                                           "[\u22120.20, +0.17]")
    assert fmt_ci(32.03, 32.05, "turns") == "[32.03, 32.05]" and fmt_ci(0.627, 0.726, "%") == "[62.7%, 72.6%]"
    # a difference is signed whatever its unit; a level is not
    assert quote(-0.54, -0.58, -0.51, "turns", signed=True) == "\u22120.54 turns [\u22120.58, \u22120.51]"
    assert quote(0.715, 0.714, 0.716, "%") == "71.5% [71.4%, 71.6%]"
    assert fmt(0.0, "points", (0.0, 0.0)) == "0.0"


def test_the_skill_column_says_what_the_summary_says_when_the_two_strongest_levels_may_agree():
    from types import SimpleNamespace as NS
    from ccsim.report.render import skill_text
    moving = dict(verdict="still moving with skill", strongest="neural-search", next="master", diff=0.016)
    assert skill_text(NS(convergence={**moving, "lo": 0.004, "hi": 0.03})) == "changes with skill"
    assert skill_text(NS(convergence={**moving, "lo": -0.00003, "hi": 0.032})) == "cannot tell yet"
    assert skill_text(NS(convergence=dict(verdict="converged", precise=True))) == "settled"
    assert skill_text(NS(convergence=None)) == "—"

"""Fair rules: the search space, the race on synthetic games (exactly and fast), one
small real search end to end, resuming, the command line and its one-line errors."""
import json
import tomllib
from pathlib import Path
import math

import numpy as np
import pandas as pd
import pytest

from ccsim.cli import main
from conftest import Counting, run_cli
from ccsim.analyses.balance import balance
from ccsim.present.balance import write_balance
from ccsim.analyses.balance.search.final import final_candidates, rank_finals, remeasure_groups
from ccsim.analyses.balance.publish.skill import FAIR, NOT_FAIR, UNCLEAR, level_elos, interval_verdict, with_elo
from ccsim.analyses.balance.search.verdict import points
from ccsim.analyses.balance.search.estimates import deal_columns, level_estimate
from ccsim.analyses.balance.search.race import (FINALIST, OUT_HALVED, OUT_UNFAIR, RacePlan, RoundResult, pareto_layers,
                                         race)
from ccsim.analyses.balance.space import BalanceError, candidates, load_space, space_from_data, with_overrides
from ccsim.analyses.levels import FAST_LEVELS, default_level, default_levels, level_words, search_level, strong_level
from ccsim.analyses.stats import Moments

ROOT = Path(__file__).resolve().parents[1]
from ccsim.analyses.question import load_changes


# a small real space: Caesar's third veto (about +1 point at tactician) and a bigger hand
SMALL = """
levels = ["tactician"]
budget = 30_000
seed = 3
remeasure_games = 4_000
[objectives]
tolerance = 0.04
[[param]]
name = "action_count.caesar.veto"
values = [2, 3, 4]
[[param]]
name = "hand_size"
values = [5, 6]
"""


# --- the space ------------------------------------------------------------------------------------

def test_the_default_space_is_cheapest_first_and_starts_with_rules_md():
    sp = load_space()
    cands, refused = candidates(sp)
    assert cands[0].name == "RULES.md" and cands[0].changes == 0 and cands[0].key == '{"rules":{},"variants":[]}'
    costs = [(c.changes, c.size) for c in cands]
    assert costs == sorted(costs) and len(cands) > 100 and refused >= 0
    assert len({c.key for c in cands}) == len(cands)
    assert sp.levels and sp.levels[0].name == default_level()


def test_size_is_steps_along_the_values_and_names_are_the_rules_blocks():
    sp = space_from_data({"param": [{"name": "action_count.caesar.veto", "values": [4, 1, 3]},
                                    {"name": "vp_bonus", "range": [0, 6], "step": 2}],
                          "variants": ["late_orgies_boxed"], "levels": ["tactician"]})
    veto, bonus, late = sp.params
    assert veto.values == (1, 2, 3, 4) and veto.default == 2 and veto.steps(4) == 2 and veto.steps(1) == 1
    assert bonus.values == (0, 2, 4, 6) and bonus.steps(6) == 2  # RULES.md's 2 is one of the values
    assert late.values == (0, 1) and late.is_variant
    by_name = {c.name: c for c in candidates(sp)[0]}
    c = by_name["action_count.caesar.veto 4, late_orgies_boxed"]
    assert (c.changes, c.size) == (2, 3)
    assert json.loads(c.key) == {"rules": {"action_count": {"caesar": {"veto": 4}}}, "variants": ["late_orgies_boxed"]}


def test_combinations_the_rules_refuse_are_counted_not_raced():
    sp = space_from_data({"param": [{"name": "side_limit", "values": [4]}, {"name": "group_limit", "values": [9]}],
                          "levels": ["tactician"]})
    cands, refused = candidates(sp)
    assert refused == 1 and [c.name for c in cands] == ["RULES.md", "side_limit 4", "group_limit 9"]


def test_the_space_file_round_trips(tmp_path):
    sp = with_overrides(space_from_data({"param": [{"name": "hand_size", "values": [4, 6]}], "variants": ["two_orgies"],
                                         "objectives": {"game_length": 0.1}}), levels="tactician,greedy+tactician",
                        budget=1234)
    path = tmp_path / "space.toml"
    path.write_text(sp.to_toml())
    again = load_space(path)
    assert again.identity() == sp.identity() and [lv.name for lv in again.levels] == ["tactician", "greedy+tactician"]
    assert with_overrides(sp, seed=2).identity() != sp.identity()


def test_default_levels_are_the_fast_levels_shown_balanced_strongest_first(monkeypatch):
    # neural is stronger, but lopsided: the balanced learned leads
    assert FAST_LEVELS[:2] == ("neural", "learned") and default_levels() == ("learned", "tactician")
    assert default_level() == "learned" and search_level() in ("neural-search", "master", "expert", None)
    assert level_words("neural") == "the neural-network player (neural)" and level_words("a+b") == "a+b"
    monkeypatch.setattr("ccsim.analyses.levels.available", lambda: [{"name": "tactician"}])
    assert default_levels() == ("tactician",) and default_level() == "tactician" and search_level() is None


def test_the_default_space_ends_at_the_strongest_search_and_draws_the_ladder():
    sp = load_space()
    assert sp.search_level.name == strong_level() and sp.search_deals >= 10_000
    assert [lv.name for lv in sp.skill_levels][:3] == ["greedy", "majority", "tactician"]
    assert {"neural", "neural-search"} <= {lv.name for lv in sp.skill_levels}
    assert load_space().identity() == with_overrides(sp, search_level="none", skill_levels="none").identity()


BAD_SPACES = [
    ('[[param]]\nname = "hand_sise"\nvalues = [4]\n', "unknown rule parameter 'hand_sise'"),
    ('[[param]]\nname = "hand_size"\nvalues = [9]\n', "must be 1..6, got 9"),
    ('judge = "best"\n[[param]]\nname = "hand_size"\nvalues = [4]\n', "judge: unknown strategy 'best'"),
    ('judge = "neural"\n[[param]]\nname = "hand_size"\nvalues = [4]\n', "judge: neural is lopsided"),
    ('race = "best"\n[[param]]\nname = "hand_size"\nvalues = [4]\n', "race: must be one of every, first"),
    ('judge = "first"\nrace = "every"\n[[param]]\nname = "hand_size"\nvalues = [4]\n', "older name of race"),
    ('[[param]]\nname = "action_count.caesar.veto"\nrange = [2, 12]\n', "must be 0..9, got 10"),
    ('[[param]]\nname = "hand_size"\nvalues = [5]\n', "no value other than the standard 5"),
    ('levels = ["tactician"]\n', "the space is empty"),
    ('levels = ["nobody"]\n[[param]]\nname = "hand_size"\nvalues = [4]\n', "unknown strategy 'nobody'"),
    ('levels = []\n[[param]]\nname = "hand_size"\nvalues = [4]\n', "at least one level"),
    ('variants = ["no_variant"]\n', "unknown variant 'no_variant'"),
    ('[[param]]\nname = "action_count.veto"\nvalues = [3]\n[[param]]\nname = "action_count.caesar.veto"\n'
     'values = [3]\n', "change the same rule"),
    ('budgett = 5\n', "unknown key 'budgett'"),
    ('variants = ["two_orgies"]\n[objectives]\ntolerance = 2\n', "objectives.tolerance"),
    ('variants = ["two_orgies"]\n[objectives]\ntolerance_points = 60\n', "objectives.tolerance_points"),
    ('variants = ["two_orgies"]\n[objectives]\ntolerance_points = 1\ntolerance = 0.01\n', "not both"),
    ('[[param]\nname = "hand_size"\n', "not valid TOML"),
]


@pytest.mark.parametrize("text, needle", BAD_SPACES, ids=[n for _, n in BAD_SPACES])
def test_a_bad_space_file_is_one_line_and_exit_2(capsys, tmp_path, text, needle):
    path = tmp_path / "space.toml"
    path.write_text(text)
    code, out, err = run_cli(capsys, "balance", path, "--out", tmp_path / "out")
    assert code == 2 and err.count("\n") == 1 and err.startswith("ccsim: error: ") and needle in err, err
    assert "Traceback" not in out + err


@pytest.mark.parametrize("flags, needle", [
    (["--levels", "tactician,nobody"], "unknown strategy 'nobody'"),
    (["--budget", "0"], "--budget must be a positive integer"),
    (["--budget", "200"], "is too small for"),
    (["--tolerance", "70"], "--tolerance"),  # points: 50% +- 70 is no band
    (["--tolerance", "0"], "--tolerance"),
    (["--remeasure-games", "1"], "--remeasure-games"),
])
def test_bad_flags_are_one_line_and_exit_2(capsys, tmp_path, flags, needle):
    path = tmp_path / "space.toml"
    path.write_text(SMALL)
    code, _, err = run_cli(capsys, "balance", path, "--out", tmp_path / "out", *flags)
    assert code == 2 and err.count("\n") == 1 and needle in err, err


class _Asked(Exception):
    pass


def test_the_command_line_lays_its_flags_over_the_space_once(tmp_path, monkeypatch):
    import ccsim.analyses.balance.space as space_module
    path = tmp_path / "space.toml"
    path.write_text(SMALL)
    laid, asked = [], []
    lay = space_module.with_overrides
    monkeypatch.setattr(space_module, "with_overrides", lambda *a, **k: laid.append(k) or lay(*a, **k))

    def answer(sp, **kw):
        asked.append(sp)
        raise _Asked
    monkeypatch.setattr("ccsim.analyses.balance.answer_balance", answer)
    with pytest.raises(_Asked):
        main(["balance", str(path), "--out", str(tmp_path / "out"), "--budget", "20000", "--levels", "greedy"])
    assert len(laid) == 1 and len(asked) == 1
    assert asked[0].budget == 20_000 and [lv.name for lv in asked[0].levels] == ["greedy"]
    assert not (tmp_path / "out").exists()  # the question is checked before the folder is touched


def test_a_folder_of_another_search_is_refused(tmp_path):
    out = tmp_path / "out"
    (out).mkdir()
    (out / "balance.json").write_text(json.dumps({"identity": "0123", "space": "other.toml", "seed": 9}))
    with pytest.raises(BalanceError, match="holds another search"):
        balance(space_from_data({"param": [{"name": "hand_size", "values": [4]}]}), out=out, log=None)


# --- the race, on synthetic games ----------------------------------------------------------------

def synthetic_measure(truth, seed=0):
    """Mirror games whose Cleopatra score has the true seat advantage ``truth[i]`` (2% draws), the
    candidates of a round sharing each deal's random number (common random numbers)."""
    rng = np.random.default_rng(seed)
    played = []

    def measure(rnd):
        u = rng.random(rnd.deals)
        turns = 30 + 5 * rng.random(rnd.deals)
        values = {}
        for i in rnd.members:
            win = 0.49 + truth[i]
            values[i] = np.stack([np.where(u < win, 1.0, np.where(u < win + 0.02, 0.5, 0.0)),
                                  ((u >= win) & (u < win + 0.02)).astype(float), turns], axis=-1)
        stats = {i: Moments(7, batch=1).update(deal_columns(v, values[0])[:, None, :]) for i, v in values.items()}
        played.append(rnd)
        return RoundResult(stats, games=rnd.deals * len(rnd.members))
    return measure, played


def _synthetic_space(n=40):
    """RULES.md at +10 points; candidate 7 (two changes) at 0, candidate 3 (one change) at +0.4,
    the others 1.5 points or more from even."""
    rng = np.random.default_rng(1)
    truth = np.concatenate([[0.10], rng.choice([-1, 1], n - 1) * rng.uniform(0.015, 0.12, n - 1)])
    truth[7], truth[3] = 0.0, 0.004
    costs = [(0, 0)] + [(1, 1) if i < 10 else (2, 2 + i % 3) for i in range(1, n)]
    costs[7] = (2, 2)
    return truth, costs


def test_the_race_finds_the_known_optimum_within_its_budget():
    truth, costs = _synthetic_space()
    measure, played = synthetic_measure(truth)
    plan = RacePlan(levels=1, games_per_deal=1, budget=3_000_000, tolerance=0.01)
    res = race(costs, measure, plan)
    status = [e.status for e in res.entries]
    assert status[7] == FINALIST and status[3] == FINALIST          # the optimum and the cheap near-optimum
    assert res.games <= plan.budget and sum(r.deals * len(r.members) for r in played) == res.games
    # the clearly unfair leave early; every round plays the same deals for all its members, RULES.md first
    far = [i for i in range(1, len(truth)) if abs(truth[i]) > 0.05]
    assert all(status[i] == OUT_UNFAIR and res.entries[i].round_out == 1 for i in far)
    assert all(r.members[0] == 0 for r in played)
    assert [r.first for r in played] == list(np.cumsum([0] + [r.deals for r in played[:-1]]))
    deals = {i: res.entries[i].stats.n for i in (0, 3, 7)}
    assert deals[0] == deals[3] == deals[7] == sum(r.deals for r in played)  # the finalists played every round
    # and the budget went to them: each finalist played many times a first-round candidate's deals
    assert deals[7] > 10 * played[0].deals


def two_level_measure(truth, gap, seed=0):
    """``synthetic_measure`` at two levels on the same deals: the second level's seat advantage is the
    first's less ``gap`` (a weaker level, where Cleopatra's edge is smaller)."""
    rng = np.random.default_rng(seed)

    def measure(rnd):
        u = rng.random(rnd.deals)
        turns = 30 + 5 * rng.random(rnd.deals)
        values = {i: np.stack([np.stack([(u < 0.5 + truth[i] - g).astype(float), np.zeros(rnd.deals), turns], -1)
                               for g in (0.0, gap)]) for i in rnd.members}        # (levels, deals, 3)
        stats = {i: Moments(7, batch=2).update(deal_columns(v, values[0]).transpose(1, 0, 2)) for i, v in values.items()}
        return RoundResult(stats, games=2 * rnd.deals * len(rnd.members))
    return measure


def test_a_race_judged_at_the_first_level_keeps_what_is_fair_there_alone():
    """judge = "first" (the default space): a setting fair with the strong players and eight points
    off with the weaker ones wins the race; judged at every level, its weaker level counts against it."""
    truth = np.array([0.18, 0.0, 0.08, 0.04, 0.12, 0.15, 0.10, 0.09, 0.11])
    costs = [(0, 0)] + [(1, 1)] * 4 + [(1, 2)] * 4
    first = race(costs, two_level_measure(truth, 0.08), RacePlan(levels=1, games_per_deal=2, budget=400_000,
                                                                 tolerance=0.01))
    every = race(costs, two_level_measure(truth, 0.08), RacePlan(levels=2, games_per_deal=2, budget=400_000,
                                                                 tolerance=0.01))
    assert first.entries[1].status == FINALIST and first.entries[1].worst(1) < 0.01
    assert all(first.entries[i].status == OUT_UNFAIR for i in (4, 5, 6))   # judged where the strong players are
    # judged at every level it is eight points off at the weaker one: worse than a setting four off at both
    assert every.entries[1].worst(2) > 0.07 > every.entries[3].worst(2)
    assert first.entries[1].stats.n == first.entries[0].stats.n  # both levels still measured, same deals
    assert load_space().race == "first" and space_from_data({"param": [{"name": "hand_size", "values": [4]}]}).race == "every"
    sp = space_from_data({"param": [{"name": "hand_size", "values": [4]}], "levels": ["tactician"]})
    assert with_overrides(sp, race="first").identity() != sp.identity()


def test_the_older_judge_key_is_the_races_rule_and_the_judge_is_balanced():
    """judge = "first" (spaces written before the judge was a level) loads as race = "first", and the folder
    of such a search keeps its identity, so it still resumes; the answer's judge is then "balanced"."""
    old = space_from_data({"judge": "first", "param": [{"name": "hand_size", "values": [4]}]})
    new = space_from_data({"race": "first", "judge": "balanced", "param": [{"name": "hand_size", "values": [4]}]})
    assert (old.race, old.judge) == ("first", "balanced") and old.identity() == new.identity()
    assert with_overrides(new, judge="first").race == "first"           # --judge first, the older flag
    assert with_overrides(new, judge="tactician").judge == "tactician"  # a balanced level, named
    assert load_space(ROOT / "results" / "balance" / "space.toml").identity() == json.loads(
        (ROOT / "results" / "balance" / "summary.json").read_text())["space"]["identity"]
    assert space_from_data(dict(tomllib.loads(new.to_toml()))).judge == "balanced"


def test_halving_keeps_the_cheapest_of_each_cost_not_only_the_closest():
    # twenty candidates all plausibly fair: halving by Pareto layers keeps the cheap one in the race
    truth = np.array([0.1] + [0.002] * 20)
    truth[1] = 0.006   # one change: a little farther from even than the others, which change two
    costs = [(0, 0), (1, 1)] + [(2, 2)] * 19
    measure, played = synthetic_measure(truth, seed=2)
    res = race(costs, measure, RacePlan(levels=1, games_per_deal=1, budget=400_000, tolerance=0.02))
    assert res.entries[1].status == FINALIST
    assert sum(e.status == OUT_HALVED for e in res.entries) >= 10


def test_nothing_fair_still_ends_with_the_closest():
    truth = np.array([0.10, 0.05, 0.04, 0.08, 0.09, 0.06, 0.07])
    measure, _ = synthetic_measure(truth)
    res = race([(0, 0)] + [(1, 1)] * 6, measure, RacePlan(levels=1, games_per_deal=1, budget=600_000,
                                                          tolerance=0.01, finalists=2))
    assert {i for i, e in enumerate(res.entries) if e.status == FINALIST} == {1, 2}


def test_pareto_layers_match_the_definition():
    rng = np.random.default_rng(5)
    for _ in range(20):
        n = int(rng.integers(1, 30))
        obj, ch, sz = rng.integers(0, 5, n) / 10, rng.integers(0, 3, n), rng.integers(0, 3, n)
        layers = pareto_layers(obj, ch, sz)
        pts = np.column_stack([obj, ch, sz])

        def dominates(a, b):
            return np.all(pts[a] <= pts[b]) and np.any(pts[a] < pts[b])
        left, expect = set(range(n)), np.zeros(n, int)
        for layer in range(1, n + 1):
            front = {i for i in left if not any(dominates(j, i) for j in left)}
            for i in front:
                expect[i] = layer
            left -= front
            if not left:
                break
        assert layers.tolist() == expect.tolist()


def test_every_simplest_setting_goes_to_the_remeasure_grouped_by_changes():
    frame = pd.DataFrame(dict(candidate=[0, 1, 2, 3, 4, 5, 6, 7], pareto=[True] * 5 + [False] * 3,
                              status=["reference"] + [FINALIST] * 3 + ["out: halved", FINALIST, "out: halved",
                                                                       FINALIST],
                              keeps_bounds=[True] * 7 + [False], changes=[0, 1, 2, 2, 2, 1, 1, 1],
                              size=[0, 2, 2, 3, 4, 1, 1, 1], worst=[0.1, 0.009, 0.008, 0.004, 0.001, 0.0095, 0.0, 0.0]))
    # a Pareto setting far from fair goes too (noise must not drop the simplest answer); a
    # finalist off the Pareto set too; a halved one off it never, nor one that breaks a bound
    assert remeasure_groups(frame) == [[5, 1], [2, 3, 4]]


def _fresh(rows):
    """Fresh rows: (candidate, changes, size, level, seat advantage, half-width)."""
    df = pd.DataFrame([dict(candidate=c, changes=n, size=z, level=lv, seat_advantage=a, seat_advantage_lo=a - h,
                            seat_advantage_hi=a + h) for c, n, z, lv, a, h in rows])
    return df.assign(fair=(df["seat_advantage_lo"] >= -0.01) & (df["seat_advantage_hi"] <= 0.01))


def test_the_final_candidates_are_fair_at_the_strongest_fast_level_fewest_changes_first():
    fresh = _fresh([(0, 0, 0, "neural", 0.12, 0.003), (0, 0, 0, "tactician", 0.10, 0.003),
                    (1, 1, 1, "neural", 0.006, 0.003), (1, 1, 1, "tactician", -0.03, 0.003),
                    (2, 1, 2, "neural", 0.001, 0.003), (3, 2, 2, "neural", 0.0, 0.003),
                    (4, 1, 1, "neural", 0.05, 0.003), (4, 1, 1, "tactician", 0.0, 0.003)])
    # fair at neural (the first level) whatever tactician says; one change first, the closer first
    assert final_candidates(fresh, "neural", 5) == [2, 1, 3] and final_candidates(fresh, "neural", 1) == [2]
    assert final_candidates(fresh[fresh["candidate"].isin([0, 4])], "neural", 3) == [4]  # none fair: the closest
    search = _fresh([(0, 0, 0, "neural-search", 0.13, 0.009), (1, 1, 1, "neural-search", 0.001, 0.009),
                     (2, 1, 2, "neural-search", 0.02, 0.009)])
    # the search level decides between settings of as many changes: the one closer to 50% there
    assert rank_finals([2, 1, 3], fresh, search, "neural") == [1, 2, 3]
    assert rank_finals([2, 1, 3], fresh, search.iloc[:0], "neural") == [2, 1, 3]


def test_the_skill_curve_places_levels_at_their_elo(tmp_path):
    (tmp_path / "ladder.json").write_text(json.dumps({"ratings": [
        {"entrant": "master", "elo": 200.0, "ci95": [180.0, 220.0]},
        {"entrant": "tactician", "elo": 0.0, "ci95": [-4.0, 4.0]}]}))
    (tmp_path / "network.json").write_text(json.dumps({"rows": [
        {"a": "neural", "b": "tactician", "score": 0.6, "ci95": [0.59, 0.61], "games": 20000},
        {"a": "neural", "b": "master", "score": 0.2, "ci95": [0.1, 0.3], "games": 40},
        {"a": "neural-search", "b": "master", "score": 0.5, "ci95": [0.45, 0.55], "games": 1000}]}))
    elo = level_elos(tmp_path)
    assert elo["tactician"][0] == 0.0 and elo["neural-search"][0] == pytest.approx(200.0)
    assert elo["neural"][0] == pytest.approx(400 * math.log10(1.5))  # the row of more games decides
    assert elo["neural"][1] < elo["neural"][0] < elo["neural"][2] and "against tactician" in elo["neural"][3]
    assert level_elos(tmp_path / "missing") == {}
    rows = _fresh([(0, 0, 0, lv, 0.1, 0.005) for lv in ("neural-search", "mystery", "tactician", "neural")])
    curve = with_elo(rows, ["neural-search", "mystery", "tactician", "neural"], elo, 0.01)
    assert list(curve["level"]) == ["tactician", "neural", "neural-search", "mystery"]  # no Elo: after the rest
    assert interval_verdict(-0.005, 0.009, 0.01) == FAIR and interval_verdict(0.011, 0.02, 0.01) == NOT_FAIR
    assert interval_verdict(0.0, 0.02, 0.01) == UNCLEAR


def _est(level, a, half, deals=10_000, seats=None, standard=None):
    from ccsim.analyses.balance.judge import seat_status
    e = dict(level=level, seat_advantage=a, ci95=[a - half, a + half], deals=deals,
             verdict=interval_verdict(a - half, a + half, 0.01), seats=seats or seat_status(level))
    if standard:  # measured beside the standard rules on the same deals (paired): the change's own effect
        d = a - standard["seat_advantage"]
        e |= dict(standard=standard, diff=d, diff_ci95=[d - half, d + half])
    return e


def test_an_unpaired_confirmation_says_the_standard_figure_is_from_other_deals():
    from ccsim.analyses.balance.search.verdict import answer_paragraph
    std = _est("neural-search", 0.144, 0.009)
    alone = {k: v for k, v in _est("neural-search", 0.009, 0.0095, standard=std).items() if not k.startswith("diff")}
    text = answer_paragraph({"recommendation": _answer(_setting("Cleopatra has 1 veto card", 1, neural_search=alone))})
    assert "from +14.4 points under the standard rules (on other deals, 10,000) to +0.9 points" in text


def _setting(words, changes, size=1, **levels):
    return dict(setting=words, words=words, changes=changes, size=size, rules={}, variants=[],
                levels={lv.replace("_", "-"): e for lv, e in levels.items()})


ELOS = {"neural-search": (229.0,), "master": (209.0,), "neural": (72.0,), "learned": (30.0,), "tactician": (0.0,),
        "greedy": (-300.0,)}


@pytest.mark.parametrize("style, lopsided, balanced, unmeasured", [
    ("bare", "neural (lopsided)", "tactician", "greedy+tactician"),
    ("tag", "the neural-network player (neural, lopsided)", "the tactician heuristic (tactician)", "greedy+tactician"),
    ("sentence", "the neural-network player (neural; lopsided: it plays Cleopatra 7.8 points better than Caesar)",
     "the tactician heuristic (tactician)", "greedy+tactician"),
    ("column", "plays Cleopatra 7.8 points better than Caesar (lopsided)", "plays both seats alike (balanced)",
     "not measured"),
    ("menu", "plays Cleopatra 7.8 points better than Caesar: lopsided", "plays both seats alike: balanced",
     "seat gap not measured"),
])
def test_a_level_with_its_lean_is_said_by_one_function_in_each_style(style, lopsided, balanced, unmeasured):
    # the answer's curve, whatif's heads, the docs' ladder, the page's menu and balance's table all say it here
    from ccsim.analyses.balance.judge import level_lean
    assert level_lean("neural", "lopsided", "plays Cleopatra 7.8 points better than Caesar", style) == lopsided
    assert level_lean("tactician", "balanced", "plays both seats alike", style) == balanced
    assert level_lean("greedy+tactician", "not measured", "seat gap not measured", style) == unmeasured


def test_a_lean_style_unknown_is_refused():
    from ccsim.analyses.balance.judge import level_lean
    with pytest.raises(ValueError, match="unknown style"):
        level_lean("neural", "lopsided", "", "shout")


def test_the_judge_is_the_strongest_balanced_level_and_a_lopsided_one_never_decides(seat_gaps):
    seat_gaps({"neural": 10.9, "master": -3.4, "neural-search": -0.1})  # the gaps, pinned
    from ccsim.analyses.balance.judge import judge_level
    names = ["neural", "tactician", "master", "neural-search", "learned"]
    assert judge_level(names, "balanced", ELOS) == "neural-search"
    assert judge_level(["neural", "master", "tactician"], "balanced", ELOS) == "tactician"   # both searches lopsided
    assert judge_level(["neural", "master"], "balanced", ELOS) is None
    assert judge_level(names, "tactician", ELOS) == "tactician"


def test_the_recommendation_is_the_fewest_change_setting_fair_at_the_judge(seat_gaps):
    seat_gaps({"neural": 10.9, "master": -3.4, "neural-search": -0.1})  # the gaps, pinned
    from ccsim.analyses.balance.search.verdict import choose, strong_levels
    strong = strong_levels(["neural-search", "master", "neural", "tactician"], "neural-search", ELOS)
    assert strong == ["neural-search", "tactician"]   # master and neural are lopsided: they never decide
    # fair with the lopsided neural, five points off at the judge: not the answer
    four = _setting("Caesar has 4 veto cards", 1, neural_search=_est("neural-search", -0.051, 0.009),
                    neural=_est("neural", -0.003, 0.003))
    one = _setting("Cleopatra has 1 veto card", 1, neural_search=_est("neural-search", 0.020, 0.01))
    two_a = _setting("A and B", 2, neural_search=_est("neural-search", 0.002, 0.007), tactician=_est("tactician", -0.03, 0.003))
    two_b = _setting("A and C", 2, neural_search=_est("neural-search", -0.004, 0.005), tactician=_est("tactician", -0.005, 0.003))
    three = _setting("A, B and C", 3, neural_search=_est("neural-search", 0.0, 0.005))
    # fewest changes among the fair; among equals, the closest to even across the balanced levels (tactician up)
    assert choose([four, one, three, two_a, two_b], "neural-search", 0.01, strong) is two_b
    # none fair: an estimate within the band (interval too wide) before one clearly off; else the closest
    wide = _setting("D", 2, neural_search=_est("neural-search", 0.006, 0.012))
    assert choose([four, one, wide], "neural-search", 0.01, strong) is wide
    assert choose([four, one], "neural-search", 0.01, strong) is one


def _answer(best, others=()):
    from ccsim.analyses.balance.search.verdict import answer_of, strong_levels
    names = sorted({n for s in (best, *others) for n in s["levels"]})
    return answer_of(best, "neural-search", 0.01, strong_levels(names, "neural-search", ELOS), ELOS, [best, *others])


def test_the_answer_is_one_paragraph_with_every_level_and_where_it_stops():
    from ccsim.analyses.balance.search.verdict import answer_paragraph
    std = _est("neural-search", 0.144, 0.009)
    best = _setting("Cleopatra has 1 veto card (standard: 2); hand size 6", 2,
                    neural_search=_est("neural-search", 0.004, 0.005, 40_000, standard=std),
                    neural=_est("neural", 0.05, 0.003, 100_000), tactician=_est("tactician", -0.003, 0.003, 100_000),
                    greedy=_est("greedy", -0.04, 0.003, 100_000, seats="not measured"))
    rec = _answer(best)
    text = answer_paragraph({"recommendation": rec})
    assert text == rec["text"] and "\n" not in text and text.count("For players who play both seats alike") == 1
    assert "the fewest-change setting that makes the game fair is: Cleopatra has 1 veto card" in text
    assert ("from +14.4 points under the standard rules (on the same deals: a change of −14.0 points, 95% interval "
            "−14.5 to −13.5) to +0.4 points (95% interval −0.1 to +0.9; 40,000 deals)") in text  # paired: the change's own
    assert "the neural-network player (neural, lopsided) +5.0 [+4.7, +5.3]" in text       # shown, named lopsided
    assert "the tactician heuristic (tactician) −0.3 [−0.6, 0.0]" in text
    assert "It stops being fair below the judge: with the greedy baseline (greedy) on both sides" in text
    assert "No single setting measured is fair at every strong balanced level" not in text
    assert "_" not in text.replace("neural-search", "") and "action_count" not in text
    # the estimate within the band, the interval wider: said plainly
    unsure = _setting("X", 2, neural_search=_est("neural-search", 0.004, 0.009, 10_000, standard=std),
                      tactician=_est("tactician", 0.02, 0.003))
    text = _answer(unsure)["text"]
    assert "the fewest-change setting whose estimate is within ±1 point of an even game is: X." in text
    assert "its estimate within ±1 point of an even game, its interval reaching 0.3 points past the band: too few " \
           "deals to be sure" in text
    assert "No single setting measured is fair at every strong balanced level" in text
    off = _setting("Caesar has 4 veto cards", 1, neural_search=_est("neural-search", -0.051, 0.009, standard=std))
    assert "no setting measured makes the game fair. The closest: Caesar has 4 veto cards, its estimate 4.1 points outside" in \
        _answer(off)["text"]
    assert answer_paragraph({}) == "The search found no setting to recommend."
    assert points(-0.0004) == "0.0" and points(0.0123) == "+1.2" and points(-0.02) == "−2.0"


def test_level_estimate_reads_the_paired_columns():
    cand = np.array([[1.0, 0, 30], [0.5, 1, 32], [0.0, 0, 34], [1.0, 0, 30]])
    base = np.array([[1.0, 0, 30], [1.0, 0, 31], [1.0, 0, 34], [0.0, 0, 30]])
    est = level_estimate(Moments(7).update(deal_columns(cand, base)))
    assert math.isclose(est["seat_advantage"], 0.125) and math.isclose(est["diff"], -0.125)
    assert math.isclose(est["draw_rate"], 0.25) and math.isclose(est["turns"], 31.5)
    assert math.isclose(est["length_ratio"], 31.5 / 31.25) and math.isnan(est["draw_ratio"])  # no draw in RULES.md


# --- real games ----------------------------------------------------------------------------------

@pytest.fixture(autouse=True)
def small_tasks(monkeypatch):
    monkeypatch.setattr("ccsim.analyses.balance.search.play.TASK_GAMES", 4_000)  # a few tasks a round


@pytest.fixture(scope="module")
def small(tmp_path_factory, compiled):
    """The small space searched once without a folder: the reference for the resumed runs."""
    mp = pytest.MonkeyPatch()
    mp.setattr("ccsim.analyses.balance.search.play.TASK_GAMES", 4_000)
    path = tmp_path_factory.mktemp("space") / "small.toml"
    path.write_text(SMALL)
    be = Counting()
    yield path, balance(path, backend=be, log=None), be.played
    mp.undo()


def test_a_small_real_search_finds_a_fair_setting_and_writes_its_folder(small, tmp_path):
    path, b, tasks = small
    assert not b.info["interrupted"] and b.info["games"] <= 30_000 and len(b.info["rounds"]) == 2 and tasks > 3
    assert b.pareto["setting"].iloc[0] == "RULES.md" and b.pareto["seat_advantage"].iloc[0] > 0.05
    fair = b.recommended[(b.recommended["candidate"] != 0) & b.recommended["fair"]]
    assert not fair.empty and (fair["deals"] == 4_000).all()
    assert "action_count.caesar.veto 3" in set(b.recommended["setting"])
    from ccsim.present.balance_plot import balance_plot
    assert balance_plot(b).axes  # the search's tables draw balance.png


def test_a_rerun_resumes_without_replaying_finished_tasks(small, tmp_path):
    path, ref, tasks = small
    out = tmp_path / "out"
    first = Counting(stop_after=3)
    b1 = balance(path, out=out, backend=first, log=None)
    # the search keeps only what resumes it; the tables and the summary are the door's to write
    assert {p.name for p in out.iterdir()} == {"balance.json", "space.toml", "tasks"}
    write_balance(out, b1)
    assert b1.info["interrupted"] and first.played == 3 and len(list((out / "tasks").glob("*.npz"))) == 3
    assert (out / "candidates.parquet").is_file() and (out / "summary.json").is_file()
    again = Counting()
    b2 = balance(path, out=out, backend=again, log=None)
    assert again.played == tasks - 3 and not b2.info["interrupted"]
    cols = ["candidate", "deals", "seat_advantage", "seat_advantage_lo", "diff_hi", "status"]
    pd.testing.assert_frame_equal(b2.candidates[cols], ref.candidates[cols])
    pd.testing.assert_frame_equal(b2.recommended[cols[:5]], ref.recommended[cols[:5]])
    third = Counting()
    write_balance(out, balance(path, out=out, backend=third, log=None))
    assert third.played == 0
    for name in ("space.toml", "candidates.parquet", "pareto.parquet", "pareto.md", "balance.png",
                 "recommended.toml", "summary.json"):
        assert (out / name).is_file(), name
    assert load_space(out / "space.toml").identity() == load_space(path).identity()


class _CtrlCWhileCompiling(Counting):
    """Ctrl-C during the first compile: the warm-up task (where the kernels compile) is cut short."""

    def warm(self, fn, task):
        raise KeyboardInterrupt


def _ctrl_c_when(monkeypatch, moment):
    """The command's backend, with Ctrl-C at ``moment`` of ``ccsim balance``."""
    if moment == "writing the folder":
        def cut(*_):
            raise KeyboardInterrupt
        monkeypatch.setattr("ccsim.present.balance.write_balance", cut)
    backend = {"the first compile": _CtrlCWhileCompiling(), "the race": Counting(stop_after=3)}.get(moment, Counting())
    monkeypatch.setattr("ccsim.cli.analyses.cli_backend", lambda *_: backend)


@pytest.mark.parametrize("moment", ["the first compile", "the race", "writing the folder"])
def test_ctrl_c_at_any_moment_is_one_line_and_exit_130_and_a_rerun_finishes(small, capsys, tmp_path, monkeypatch,
                                                                            moment):
    path, ref, tasks = small
    out = tmp_path / "out"
    with monkeypatch.context() as mp:
        _ctrl_c_when(mp, moment)
        code, stdout, err = run_cli(capsys, "balance", path, "--out", out, "--no-progress")
    assert code == 130 and "Traceback" not in err and "Error" not in err, err
    said = (stdout + err).count("interrupted")
    assert said == 1, stdout + err  # one line says so, whatever was under way
    if moment == "the first compile":  # nothing measured: that line alone, not empty tables
        assert stdout == "balance: interrupted before any task finished (nothing measured yet); run the same " \
                         "command again to resume\n"
        assert json.loads((out / "summary.json").read_text())["interrupted"]
    again = Counting()
    monkeypatch.setattr("ccsim.cli.analyses.cli_backend", lambda *_: again)
    code, stdout, _ = run_cli(capsys, "balance", path, "--out", out, "--no-progress", "--json")
    d = json.loads(stdout)
    # what finished before Ctrl-C is kept: the rerun plays only the rest
    left = {"the first compile": tasks, "the race": tasks - 3, "writing the folder": 0}[moment]
    assert code == 0 and not d["interrupted"] and again.played == left
    names = dict(zip(ref.candidates["candidate"], ref.candidates["setting"]))
    assert [x["setting"] for x in d["recommended"]] == [names[c] for c in ref.info["finals"]]


def test_the_command_line_json_and_the_records_of_a_recommended_setting(small, capsys, tmp_path):
    path, ref, _ = small
    out = tmp_path / "cli"
    code, stdout, _ = run_cli(capsys, "balance", path, "--out", out, "--json", "--no-progress")
    assert code == 0
    d = json.loads(stdout)
    assert d["candidates"] == 5 and d["space"]["levels"] == ["tactician"] and not d["interrupted"]
    assert d["pareto"][0]["setting"] == "RULES.md" and d["recommended"] and d["remeasured"]
    names = dict(zip(ref.candidates["candidate"], ref.candidates["setting"]))
    assert [x["setting"] for x in d["recommended"]] == [names[c] for c in d["finals"]]
    assert d["recommendation"]["setting"] == d["recommended"][0]["setting"] and d["recommendation"]["text"]
    r = d["recommended"][0]
    assert set(r) >= {"setting", "changes", "size", "rules", "variants", "verdict", "fair", "levels"}
    assert r["levels"][0]["level"] == "tactician"
    assert set(r["levels"][0]) >= {"seat_advantage", "ci95", "fair", "diff", "draw_rate", "turns", "deals"}
    changes, _ = load_changes(out / "recommended.toml")
    assert [c.name for c in changes] == [x["setting"] for x in d["recommended"]]
    assert changes[0].block == r["rules"]
    code, text, _ = run_cli(capsys, "balance", path, "--out", out, "--no-progress")
    assert code == 0 and "Pareto set" in text and "every simplest setting the race kept" in text
    assert "The answer, judged with tactician on both sides" in text
    rec = tmp_path / "x.jsonl"
    code, _, _ = run_cli(capsys, "whatif", "--no-variants", "--rules", out / "recommended.toml", "--games", "20",
                         "--record", rec, "--record-games", "3")
    assert code == 0
    code, _, err = run_cli(capsys, "replay", rec, "--check")
    assert code == 0, err
    lines = [json.loads(x) for x in rec.read_text().splitlines()]
    assert {json.dumps(x.get("rules", {}), sort_keys=True) for x in lines} >= {json.dumps(r["rules"], sort_keys=True)}


def test_the_final_candidates_go_to_the_search_level_and_the_skill_curve(tmp_path, compiled, seat_gaps):
    seat_gaps({"neural": 10.9, "master": -3.4, "neural-search": -0.1})  # learned: not measured, pinned so
    """A small search with a search level and a skill curve of cheap levels: the finals are measured at
    both on the fresh deals, a level measured before is taken from its rows, and every file is written."""
    path = tmp_path / "small.toml"
    path.write_text(SMALL.replace('levels = ["tactician"]', 'levels = ["tactician"]\nsearch_level = "learned"\n'
                                  'search_deals = 2_000\nskill_levels = ["greedy", "tactician", "learned"]'))
    out = tmp_path / "out"
    b = balance(path, out=out, log=None)
    write_balance(out, b)
    finals = b.info["finals"]
    assert finals and set(b.search["candidate"]) == {0, *finals} and (b.search["deals"] == 2_000).all()
    assert list(b.recommended["candidate"].drop_duplicates()) == [0, *finals]
    assert set(b.remeasured["candidate"]) >= set(b.recommended["candidate"])
    curve = b.skill.set_index(["candidate", "level"])
    assert set(b.skill["level"]) == {"greedy", "tactician", "learned"} and set(b.skill["candidate"]) == {0, *finals}
    same = b.remeasured.set_index(["candidate", "level"]).loc[(finals[0], "tactician")]
    assert curve.loc[(finals[0], "tactician"), "seat_advantage"] == same["seat_advantage"]  # taken, not replayed
    assert curve.loc[(0, "learned"), "deals"] == 2_000  # the search level's rows
    assert curve.loc[(0, "greedy"), "deals"] == 4_000   # a fast level: remeasure_games
    rec = b.recommendation
    assert rec["setting"] == b.recommended["setting"].iloc[-1] or rec["setting"] in set(b.recommended["setting"])
    # the judge is the strongest balanced level measured: learned's seats are not measured, so tactician
    assert rec["judge"] == "tactician" and rec["text"] in (out / "pareto.md").read_text()
    assert {c["level"] for c in rec["curve"]} == {"greedy", "tactician", "learned"}
    for name in ("search.parquet", "skill.parquet", "skill.png", "remeasured.parquet", "recommended.toml"):
        assert (out / name).is_file(), name
    assert json.loads((out / "summary.json").read_text())["recommendation"]["text"] == rec["text"]
    changes, _ = load_changes(out / "recommended.toml")
    assert changes[0].name == rec["setting"]


def test_the_python_balance_returns_the_answer_the_command_prints(tmp_path, capsys, compiled):
    """``balance(...)`` is the command's analysis whole: its answer (the ring's outcome among it) is what
    ``ccsim balance`` prints and writes, the command only lays it out (here resumed: no game played again)."""
    from ccsim.present.balance import balance_json, format_balance
    path, out = tmp_path / "small.toml", tmp_path / "out"
    path.write_text(SMALL)
    b = balance(path, out=out, log=None)
    write_balance(out, b)
    code, text, _ = run_cli(capsys, "balance", path, "--out", out, "--no-progress")
    mine = format_balance(b, 100)
    assert code == 0 and "The answer, judged with" in text
    assert text[text.index("Pareto set"):] == mine[mine.index("Pareto set"):] + "\n"  # (the headline's clock aside)
    code, js, _ = run_cli(capsys, "balance", path, "--out", out, "--no-progress", "--json")
    said = json.loads(js)
    assert said["recommendation"] == json.loads(json.dumps(b.recommendation)) and said["ring"] == b.ring
    assert json.loads((out / "summary.json").read_text())["recommendation"] == said["recommendation"]
    assert balance_json(b)["ring"] == b.ring

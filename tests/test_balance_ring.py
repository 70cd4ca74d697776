"""The next ring, screened at the fast levels and raced at the judge (ccsim.analyses.balance.ring.stages), on
synthetic data: the map from fast-level effects to judge-level effects, the shortlist, the race."""
import math

import numpy as np
import pytest

from ccsim.analyses.balance.ring.stages import combined, judge_race, race_games, ring, ring_plan
from ccsim.analyses.judging.effect_map import fit_effect_map
from ccsim.analyses.balance.space import load_space


def test_the_ring_is_one_step_around_the_closest_setting():
    sp = load_space()
    names = [c.name for c in ring(sp, (("action_count.cleopatra.veto", 1),))]
    assert names[0] == "action_count.cleopatra.veto 0"                  # its own parameter, one step further
    assert "action_count.cleopatra.veto 1, hand_size 6" in names          # one more change of the space
    assert all(n.startswith("action_count.cleopatra.veto") for n in names)
    assert len(names) == len(set(names)) == 1 + sum(len(p.values) - 1 for p in sp.params
                                                     if p.name != "action_count.cleopatra.veto")
    with pytest.raises(ValueError, match="not a parameter"):
        ring(sp, (("nothing", 1),))


def test_the_map_recovers_a_slope_and_knows_its_spread():
    rng = np.random.default_rng(5)
    fast = rng.uniform(-0.2, 0.05, 12)
    judge = 1.05 * fast + rng.normal(0, 0.004, 12)          # the judge sees the same change, a little larger
    m = fit_effect_map("neural", fast, judge, np.full(12, 0.004), np.full(12, 0.002))
    assert abs(m.slope - 1.05) < 3 * m.slope_se and m.slope_se < 0.05
    assert m.model_sd == pytest.approx(0.01)               # scatter within the noise: the floor
    spread = fit_effect_map("neural", fast, judge + rng.normal(0, 0.03, 12), np.full(12, 0.004), model_sd=0.001)
    assert spread.model_sd > 0.015                        # scatter beyond the noise: it widens the predictions
    e, se = m.predict(-0.1, 0.003)
    assert e == pytest.approx(-0.1 * m.slope) and se >= 0.01
    with pytest.raises(ValueError):
        fit_effect_map("neural", [0.0], [0.0], [0.01])


def test_the_shortlist_keeps_what_could_be_fair_and_drops_what_cannot():
    # the standard rules +14.4 at the judge; anchors: two changes measured at both levels (slope 1.05)
    anchors = {1: (-0.186, 0.002, -0.195, 0.0065), 2: (-0.118, 0.002, -0.124, 0.0065)}
    effects = {3: (-0.137, 0.004), 4: (-0.118, 0.004), 5: (-0.25, 0.004), 6: (-0.145, 0.004), 7: (-0.129, 0.004)}
    plan = ring_plan(effects, anchors, "neural", 0.144, 0.0047, 0.01, changes={3: 2, 4: 1, 5: 2, 6: 2, 7: 2})
    assert plan.emap.slope == pytest.approx(1.05, abs=0.01)
    pred = {p.candidate: p for p in plan.predictions}
    assert pred[3].edge == pytest.approx(0.144 - 1.05 * 0.137, abs=0.003)
    chosen = [p.candidate for p in plan.chosen]
    assert 5 not in chosen                      # predicted −12 points: the judge need not see it
    assert 3 in chosen and 6 in chosen and 7 in chosen
    assert chosen[0] == 4 or pred[4].could_be_fair(0.01) is False  # one change first, if it could be fair at all
    assert ring_plan(effects, anchors, "neural", 0.144, 0.0047, 0.01, limit=2).chosen.__len__() == 2


def _measure(truth, noise=0.0):
    """A judge whose edge per member is ``truth``; the interval shrinks as 1/sqrt(deals) (±0.5 per deal)."""
    seen = {}

    def measure(members, first, deals):
        out = {}
        for m in members:
            seen[m] = seen.get(m, 0) + deals
            half = 1.0 / math.sqrt(seen[m])
            out[m] = (truth[m] + noise, truth[m] + noise - half, truth[m] + noise + half)
        return out
    return measure, seen


def test_the_judges_race_drops_the_clearly_unfair_and_halves_the_rest():
    truth = {1: 0.003, 2: 0.02, 3: -0.03, 4: 0.008, 5: 0.07}
    measure, seen = _measure(truth)
    alive, steps = judge_race(measure, [1, 2, 3, 4, 5], 0.01, first_deals=400, max_deals=10_000)
    assert alive == [1]
    assert 5 in steps[0].out_unfair                               # its interval already clear of the band
    assert seen[1] > seen[2] >= 400 and seen[5] == 400            # the judge's games go to the close ones
    assert race_games(steps) == sum(seen.values())
    # the prediction decides the halving while the judge's own intervals are wide
    measure, _ = _measure({1: 0.004, 2: 0.003})
    alive, steps = judge_race(measure, [1, 2], 0.01, first_deals=100, max_deals=100, prior={1: (0.0, 0.002),
                                                                                          2: (0.03, 0.002)})
    assert steps[0].out_halved == [2] and alive == [1]
    assert combined((0.01, 0.0, 0.02), None) == 0.01
    assert 0.0 < combined((0.01, -0.09, 0.11), (0.0, 0.001)) < 0.001


def test_without_halving_every_member_plays_to_the_end():
    measure, seen = _measure({1: 0.0, 2: 0.001})
    alive, steps = judge_race(measure, [1, 2], 0.01, first_deals=100, max_deals=700, halve=False)
    assert sorted(alive) == [1, 2] and seen == {1: 700, 2: 700} and [s.deals for s in steps] == [100, 200, 400]


def tiny_anchors(folder):
    """A judge anchors file for a tiny ring judged by tactician: one anchor, Caesar's four vetoes."""
    import json
    anchors = folder / "anchors.json"
    anchors.write_text(json.dumps({"level": "tactician", "standard": {"seat_advantage": 0.10, "ci95": [0.09, 0.11],
                                                                      "deals": 1000},
                                   "anchors": [{"setting": [["action_count.caesar.veto", 4]], "deals": 1000,
                                                "seat_advantage": -0.05, "ci95": [-0.06, -0.04], "diff": -0.15,
                                                "diff_ci95": [-0.16, -0.14]}]}))
    return anchors


def test_the_ring_plays_screen_race_and_confirmation_and_resumes(tmp_path):
    """A tiny ring on real games (greedy screens, tactician judges): every stage in ring.json, and a rerun
    plays nothing again."""
    import json
    from ccsim.analyses.balance.ring.run import run_ring
    anchors = tiny_anchors(tmp_path)
    kw = dict(fast_levels=("greedy",), judge="tactician", screen_deals=30, shortlist_size=3, race_first=10,
              race_max=30, confirm_deals=20, confirm_paired=True, progress=False, log=None)
    lines = []
    out = run_ring(tmp_path / "ring", (("action_count.cleopatra.veto", 1),), anchors, log=lines.append,
                   **{k: v for k, v in kw.items() if k != "log"})
    assert out["screen"]["games"] == 30 * 34 and len(out["predictions"]) == 32 and out["map_level"] == "greedy"
    assert out["shortlist"] and out["race"]["games"] > 0 and out["winner"] in out["shortlist"]
    assert out["confirm"]["setting"]["deals"] == 20 and out["confirm"]["standard"]["deals"] == 20
    assert out["saving"]["judge_games_without_screen"] >= out["saving"]["judge_games"]
    assert json.loads((tmp_path / "ring" / "ring.json").read_text())["winner"] == out["winner"]
    again = run_ring(tmp_path / "ring", (("action_count.cleopatra.veto", 1),), anchors, log=lines.append,
                     **{k: v for k, v in kw.items() if k != "log"})
    assert again["race"] == out["race"] and again["confirm"]["setting"] == out["confirm"]["setting"]
    assert (again["screen"]["games"], again["confirm"]["seconds"]) == (30 * 34, 0.0)  # all of it resumed
    from ccsim.analyses.balance.ring.run import run_curve
    curve = run_curve(tmp_path / "ring", ["greedy"], 20, progress=False, log=lines.append)
    assert curve["levels"]["greedy"]["setting"]["deals"] == 20 and curve["levels"]["greedy"]["standard"]["diff"] == 0
    assert json.loads((tmp_path / "ring" / "curve.json").read_text()) == curve


def test_the_confirmed_survivor_follows_the_answers_rule():
    from ccsim.analyses.balance.ring.stages import pick_winner
    # two survivors as close to even at the judge; the one closer to even at tactician is confirmed, not the
    # race's first; fewer changes first whatever the spread
    est = {23: [(-0.001, -0.029, 0.027), (-0.037, -0.046, -0.028)], 29: [(-0.002, -0.030, 0.026), (-0.019, -0.028, -0.009)],
           3: [(0.0, -0.05, 0.05)]}
    assert pick_winner([23, 29], {23: 2, 29: 2}, est) == 29
    assert pick_winner([23, 29, 3], {23: 2, 29: 2, 3: 1}, est) == 3
    assert pick_winner([23, 29], {23: 2, 29: 2}, {}) == 23

"""Settling the ring's confirmation (ccsim.analyses.balance.ring.extend): more deals of the same seed, pooled."""
import json
import math
import shutil

import pytest

from ccsim.analyses.balance.ring.extend import extend_confirmation, main, pool, pooled_confirmation


def _part(deals, value, half):
    return dict(deals=deals, v=value, ci=[value - half, value + half])


def test_pooling_weighs_parts_by_deals_and_adds_their_errors_in_quadrature():
    mean, ci = pool([_part(10_000, 0.01, 0.01), _part(30_000, 0.0, 0.01 / math.sqrt(3))], "v", "ci")
    assert mean == pytest.approx(0.0025)
    # four times the deals of the first part's spread: half its interval
    assert (ci[1] - ci[0]) / 2 == pytest.approx(0.005, rel=1e-9)
    same, same_ci = pool([_part(5, 0.2, 0.1)], "v", "ci")
    assert same == pytest.approx(0.2) and same_ci == pytest.approx([0.1, 0.3])


def _side(deals, adv, half, diff=0.0):
    return dict(deals=deals, seat_advantage=adv, ci95=[adv - half, adv + half], diff=diff,
                diff_ci95=[diff - half / 2, diff + half / 2])


def test_a_pooled_confirmation_keeps_every_part_as_measured_and_says_its_verdict_again():
    first = dict(seed=5, games=20_000, seconds=1534.0, interrupted=False, paired=True, verdict="unclear",
                 setting=_side(10_000, 0.0095, 0.0097, -0.129), standard=_side(10_000, 0.1386, 0.0093))
    more = dict(first=10_000, deals=30_000, games=60_000, seconds=3600.0, setting=_side(30_000, 0.002, 0.0056, -0.13),
                standard=_side(30_000, 0.132, 0.0054))
    c = pooled_confirmation(first, more, tol=0.01)
    assert [p["deals"] for p in c["parts"]] == [10_000, 30_000] and c["parts"][0]["setting"] == first["setting"]
    assert c["games"] == 80_000 and c["seconds"] == 5134.0 and c["setting"]["deals"] == 40_000
    assert c["setting"]["seat_advantage"] == pytest.approx((0.0095 + 3 * 0.002) / 4)
    assert c["verdict"] == "fair"                      # its interval now lies within ±1 point
    again = pooled_confirmation(c, dict(more, first=40_000), tol=0.01)
    assert len(again["parts"]) == 3 and again["setting"]["deals"] == 70_000


def test_the_extension_plays_on_the_same_deals_and_pools_to_what_one_longer_confirmation_gives(tmp_path):
    """A tiny ring (greedy screens, tactician judges) confirmed on 20 deals, then extended to 40: its pooled mean
    is exactly the mean of deals 0..39 played at once, so the extension played their continuation."""
    from ccsim.analyses.balance.ring.run import run_ring
    from ccsim.analyses.balance.search.play import Scheduler
    from ccsim.analyses.balance.publish.folder import TaskStore
    from ccsim.analyses.balance.space import load_space
    from ccsim.analyses.balance.ring.run import ring_estimate, winner_candidates
    from ccsim.analyses.levels import parse_level
    from ccsim.runner.backends import LocalBackend
    from test_balance_ring import tiny_anchors
    ring = run_ring(tmp_path / "ring", (("action_count.cleopatra.veto", 1),), tiny_anchors(tmp_path), fast_levels=("greedy",),
                    judge="tactician", screen_deals=30, shortlist_size=3, race_first=10, race_max=30,
                    confirm_deals=20, progress=False, log=lambda m: None)
    assert ring["confirm"]["setting"]["deals"] == 20
    lines = []
    out = extend_confirmation(tmp_path / "ring", 40, progress=False, log=lines.append)
    c = out["confirm"]
    assert [p["deals"] for p in c["parts"]] == [20, 20] and c["parts"][1]["first"] == 20
    assert json.loads((tmp_path / "ring" / "ring.json").read_text())["confirm"] == c
    assert "deals 20 to 39 of seed" in lines[0]
    _, cands = winner_candidates(out, load_space(None))
    once = Scheduler(cands, (parse_level("tactician", ValueError, "judge"),), LocalBackend(),
                     TaskStore(tmp_path / "once"), False).play(c["seed"], "once", (0, 1), 0, 40, "once")
    for side, k in (("setting", 1), ("standard", 0)):
        whole = ring_estimate(once.stats[k][0])
        assert c[side]["seat_advantage"] == pytest.approx(whole["seat_advantage"], abs=1e-12)
        assert c[side]["diff"] == pytest.approx(whole["diff"], abs=1e-12)
    # a rerun asking for no more deals is refused in one line, and the folder is left as it was
    shutil.copy(tmp_path / "ring" / "ring.json", tmp_path / "before.json")
    assert main(["--out", str(tmp_path / "ring"), "--deals", "40", "--no-progress"]) == 2
    assert (tmp_path / "ring" / "ring.json").read_text() == (tmp_path / "before.json").read_text()


@pytest.mark.parametrize("confirm, says", [(None, "no confirmation to extend"),
                                           (dict(interrupted=True, paired=True), "was interrupted"),
                                           (dict(interrupted=False, paired=False), "only a paired one is pooled")])
def test_a_confirmation_that_cannot_be_extended_is_refused_in_one_line(tmp_path, capsys, confirm, says):
    (tmp_path / "ring.json").write_text(json.dumps({"confirm": confirm}))
    assert main(["--out", str(tmp_path), "--deals", "100"]) == 2
    err = capsys.readouterr().err.strip()
    assert says in err and len(err.splitlines()) == 1

"""The next ring inside `ccsim balance`: when nothing of the space is fair at the judge, the search widens
around the closest setting itself (screen, map, race at the judge, confirm), resumes like every other
stage, and publishes the answer with the ring's settings among those measured at the judge.

A tiny space, `tactician` screening and `learned` (balanced by the seat certificate, thousands of games a
second) judging: at ±1 point and 2,000 deals at the judge nothing can be shown fair (the interval is wider
than the band), so the ring runs; at ±5 points Caesar's third veto is fair there, so it does not."""
import json
from pathlib import Path

import pandas as pd
import pytest

from ccsim.cli import main
from conftest import Counting, run_cli

SPACE = """
levels = ["tactician"]
judge = "learned"
search_level = "learned"
search_deals = 2_000
budget = 30_000
seed = 3
remeasure_games = 4_000
ring_screen_deals = 2_000
ring_race_deals = [200, 800]
ring_shortlist = 3
[objectives]
tolerance_points = {tol}
[[param]]
name = "action_count.caesar.veto"
values = [2, 3, 4]
[[param]]
name = "hand_size"
values = [5, 6]
[[param]]
name = "orgies"
values = [2, 3]
"""


def _space(folder: Path, tol: float) -> Path:
    path = folder / f"space-{tol:g}.toml"
    path.write_text(SPACE.format(tol=tol))
    return path


@pytest.fixture(scope="module")
def widened(tmp_path_factory):
    """`ccsim balance --json` on the space where nothing is fair at the judge: (space, folder, its JSON)."""
    folder = tmp_path_factory.mktemp("widen")
    path, out = _space(folder, 1), folder / "out"
    with pytest.raises(SystemExit) as exc:
        main(["balance", str(path), "--out", str(out), "--json", "--no-progress"])
    assert exc.value.code == 0
    return path, out


def _json(capsys, path, out, *flags):
    code, stdout, err = run_cli(capsys, "balance", path, "--out", out, "--json", "--no-progress", *flags)
    assert code == 0, err
    return json.loads(stdout), err


@pytest.mark.slow
def test_nothing_fair_at_the_judge_the_ring_runs_inside_balance_and_the_answer_is_published(widened, capsys):
    path, out = widened
    d, err = _json(capsys, path, out)  # the same command again: everything resumed, the same answer
    # the centre: a kept setting predicted (from tactician) closer to even at the judge than the search's final
    # candidate measured there is measured at the judge first (seed + 5), and the ring widens around it
    assert "the next ring's centre: Caesar has 3 veto cards (standard: 2); a hand refills to 6 cards" in err
    assert "ring: 2 settings around action_count.caesar.veto 3, hand_size 6, 2 anchor(s)" in err
    ring = d["ring"]
    assert ring["ran"] and not ring["interrupted"] and ring["judge"] == "learned" and ring["fast_levels"] == ["tactician"]
    assert ring["seeds"] == {"screen": 5, "race": 6, "confirm": 7}  # the search's seed + 2, + 3, + 4
    assert ring["start"]["verdict"] != "fair" and ring["raced"] >= 1 and ring["race"]["games"] > 0
    centre = ring["centre"]
    assert centre["seed"] == 8 and [x["setting"] for x in centre["checked"]] == [ring["start"]["setting"]]
    assert ring["start"]["measured"] == "check" and ring["start"]["seed"] == 8
    assert centre["ranking"][0]["setting"] == ring["start"]["setting"] and centre["ranking"][0]["source"] == "measured"
    assert {x["source"] for x in centre["ranking"]} == {"measured", "predicted"}
    c = ring["closest"]
    assert c["measured"] == "confirmation" and c["deals"] == 2_000 and "diff" in c and c["changes"] >= 2
    assert c["distance_points"] == pytest.approx(100 * abs(c["seat_advantage"]), abs=0.01)
    # the anchors are the search's own measurements at the judge and the centre's check, each paired with the
    # standard rules on its own deals
    data = json.loads((out / "ring" / "ring.json").read_text())
    search = pd.read_parquet(out / "search.parquet")
    final = search[search["candidate"] != 0].iloc[0]
    found, check = data["judge_anchors"]["anchors"]
    assert found["diff"] == pytest.approx(final["diff"]) and "standard" not in found
    assert check["seat_advantage"] == pytest.approx(ring["start"]["seat_advantage"]) and "seed 8" in check["source"]
    assert check["standard"]["deals"] == 2_000 and check["diff"] < 0
    assert data["judge_anchors"]["standard"]["seat_advantage"] == pytest.approx(
        search.loc[search["candidate"] == 0, "seat_advantage"].iloc[0])
    assert data["settings"][1]["anchor"] and data["settings"][1]["key"] == final["key"]
    assert data["settings"][2]["anchor"] and data["settings"][2]["setting"] == ring["start"]["setting"]
    assert ring["start"]["setting"] != final["setting"]  # the rule before centred on the final candidate
    # published: every setting measured at the judge competed, the ring's and the check's among them
    ring_names = {s["setting"] for s in data["settings"] if not s["anchor"] and s["candidate"] != 0}
    rec = d["recommendation"]
    assert rec["judge"] == "learned" and rec["setting"] in ring_names | {final["setting"], ring["start"]["setting"]}
    # the check and the ring's confirmed setting are both within the band by their estimates: the fewer changes win
    assert rec["setting"] == ring["start"]["setting"] and c["changes"] > rec["changes"]
    assert "the centre's check at the judge" in rec["at_judge"]["source"]
    from test_cli_contract import GOLDEN, shape, _check  # the ring's JSON keys are a contract too
    keys = sorted(set(line.replace(" null", " number") for line in shape(ring, "$.ring")))
    _check(GOLDEN / "json" / "balance-ring.txt", "\n".join(keys) + "\n")
    summary = json.loads((out / "summary.json").read_text())
    assert summary["ring"] == ring and summary["recommendation"]["text"] == rec["text"]
    assert rec["text"] in (out / "pareto.md").read_text()
    assert (out / "recommended.toml").read_text().count("[[change]]") >= 2
    code, text, _ = run_cli(capsys, "balance", path, "--out", out, "--no-progress")
    assert code == 0
    said = " ".join(text.split())
    assert "The next ring: nothing measured was fair with learned on both sides" in said
    assert "the one predicted closest to even was measured with learned before the ring was centred" in said
    assert said.index("Where to widen") < said.index("The next ring:")
    assert f"The closest setting the ring measured with learned on both sides: {c['words']}" in said
    assert said.index("The next ring") < said.index("The answer, judged with learned")
    from ccsim.analyses.balance import balance  # the Python door: the same published answer, the ring's among it
    from ccsim.present.balance import format_balance
    b = balance(path, out=out, log=None)
    assert json.loads(json.dumps(b.recommendation)) == rec and b.ring == ring
    mine = format_balance(b, 100)
    assert mine[mine.index("Pareto set"):] + "\n" == text[text.index("Pareto set"):]  # (the headline's clock aside)


@pytest.mark.slow
def test_the_ring_in_balance_plays_the_games_ring_run_plays(widened, tmp_path):
    """`python -m ccsim.analyses.balance.ring.run` with the same anchors and around plays the same games (the
    same seeds per stage): its screen, race and confirmation are the ring's inside `ccsim balance`."""
    from ccsim.analyses.balance.ring.run import run_ring
    path, out = widened
    data = json.loads((out / "ring" / "ring.json").read_text())
    anchors = tmp_path / "anchors.json"
    anchors.write_text(json.dumps(data["judge_anchors"]))
    alone = run_ring(tmp_path / "ring", [tuple(a) for a in data["around"]], anchors, space=path,
                     fast_levels=("tactician",), judge="learned", screen_deals=2_000, shortlist_size=3, race_first=200,
                     race_max=800, confirm_deals=2_000, progress=False, log=lambda msg: None)
    assert [s["screen"] for s in alone["settings"]] == [s["screen"] for s in data["settings"]]
    assert alone["judge_measured"] == data["judge_measured"] and alone["winner"] == data["winner"]
    assert alone["confirm"]["setting"] == data["confirm"]["setting"]
    assert {p.name.split("-")[0] for p in (tmp_path / "ring" / "tasks").glob("*.npz")} == {"screen", "race", "confirm"}


@pytest.mark.slow
def test_a_fair_setting_at_the_judge_runs_no_ring(tmp_path, capsys):
    path = _space(tmp_path, 5)
    d, err = _json(capsys, path, tmp_path / "out")
    assert d["recommendation"]["fair"] and d["recommendation"]["judge"] == "learned"
    assert d["ring"] is None and "ring" not in err
    assert not (tmp_path / "out" / "ring").exists()
    tasks = tmp_path / "out" / "tasks"
    assert not list(tasks.glob("ring-*")) and not list(tasks.glob("centre-*"))


@pytest.mark.slow
def test_an_interrupted_ring_resumes_without_replaying_a_task(tmp_path, capsys, monkeypatch):
    """--no-ring stops after the search; then the centre's check, cut before its first task; the check and the
    ring, cut after two tasks, and a rerun that plays only the remaining tasks; a last rerun plays nothing."""
    from ccsim.analyses.balance import balance
    monkeypatch.setattr("ccsim.analyses.balance.search.play.TASK_GAMES", 4_000)  # several tasks a stage
    path, out = _space(tmp_path, 1), tmp_path / "out"
    d, _ = _json(capsys, path, out, "--no-ring")
    assert d["ring"]["ran"] is False and d["ring"]["reason"] == "off" and not (out / "ring").exists()
    code, text, _ = run_cli(capsys, "balance", path, "--out", out, "--no-progress", "--no-ring")
    assert code == 0 and "The next ring was not searched: the next ring is off" in " ".join(text.split())
    cut = Counting(stop_after=0)  # Ctrl-C in the centre's check at the judge, before the ring
    b = balance(path, out=out, backend=cut, log=None)
    assert cut.played == 0 and b.info["interrupted"] and b.ring["interrupted"] and b.ring["reason"] == "interrupted"
    from ccsim.analyses.balance.ring.widen import ring_paragraphs
    assert "run the same command again to resume it" in " ".join(ring_paragraphs(b.ring))
    assert not (out / "ring").exists()
    cut = Counting(stop_after=2)
    b = balance(path, out=out, backend=cut, log=None)
    assert cut.played == 2 and b.info["interrupted"] and b.ring["interrupted"]
    rest = Counting()
    b = balance(path, out=out, backend=rest, log=None)
    assert not b.info["interrupted"] and b.ring["closest"] is not None
    ring_tasks = [*(out / "tasks").glob("centre-*.npz"), *(out / "tasks").glob("ring-*.npz")]
    assert rest.played == len(ring_tasks) - 2 and rest.played > 0  # each task of the centre and the ring played once
    last = Counting()
    again = balance(path, out=out, backend=last, log=None)
    assert last.played == 0 and again.ring == b.ring


@pytest.mark.parametrize("text, needle", [
    ('ring = "yes"', "ring must be true or false"),
    ("ring_race_deals = [800, 200]", "the most (200) is below the first round's (800)"),
    ("ring_race_deals = 400", "ring_race_deals must be [first, most]"),
    ("ring_screen_deals = 0", "ring_screen_deals must be an integer >= 2"),
])
def test_a_bad_ring_key_is_one_line_and_exit_2(tmp_path, capsys, text, needle):
    path = tmp_path / "space.toml"
    path.write_text(text + '\n[[param]]\nname = "hand_size"\nvalues = [4]\n')
    code, _, err = run_cli(capsys, "balance", path, "--out", tmp_path / "out")
    assert code == 2 and needle in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_the_ring_keys_round_trip_and_the_flag_overrides_them():
    import tomllib
    from ccsim.analyses.balance.space import load_space, space_from_data, with_overrides
    sp = load_space()
    assert sp.ring and sp.ring_race_deals == (400, 1_200) and sp.ring_screen_deals == 10_000
    back = space_from_data(tomllib.loads(with_overrides(sp, ring=False).to_toml()))
    assert back.ring is False and back.ring_race_deals == (400, 1_200) and back.ring_shortlist == 6
    assert back.identity() == sp.identity()  # what follows the race is not the folder's identity


def _ring_json(**extra):
    """A ring.json of a space alone at its judge (tactician screens and judges): the standard rules, one anchor,
    two ring settings; the screen at the judge finds the two-change one fair on 10,000 deals."""
    def est(edge, half, deals=10_000, diff=None):
        return dict(deals=deals, seat_advantage=edge, ci95=[edge - half, edge + half],
                    diff=edge - 0.10 if diff is None else diff, diff_ci95=[edge - 0.10 - half, edge - 0.10 + half])
    settings = [dict(candidate=0, setting="RULES.md", words="the standard rules", changes=0, size=0, anchor=False,
                     screen={"tactician": est(0.10, 0.01, diff=0.0)}),
                dict(candidate=1, setting="a 1", words="A", changes=1, size=1, anchor=True,
                     screen={"tactician": est(0.03, 0.01)}),
                dict(candidate=2, setting="a 1, b 1", words="A; B", changes=2, size=2, anchor=False,
                     screen={"tactician": est(0.004, 0.005)}),
                dict(candidate=3, setting="a 2", words="A twice", changes=1, size=2, anchor=False,
                     screen={"tactician": est(-0.02, 0.01)})]
    return dict(dict(judge="tactician", fast_levels=["tactician"], seeds=dict(screen=3, race=4, confirm=5),
                     settings=settings, screen=dict(deals=10_000, games=40_000),
                     judge_measured=[dict(candidate=3, deals=400, seat_advantage=0.001, ci95=[-0.05, 0.05])]),
                **extra)


def test_the_rings_outcome_is_the_fair_setting_it_measured_else_the_closest():
    from ccsim.analyses.balance.ring.widen import ring_outcome, ring_paragraphs
    start = dict(setting="a 1", words="A", deals=500, seat_advantage=0.03, ci95=[-0.01, 0.07])
    out = ring_outcome(_ring_json(), 0.01, start)
    # the screen at the judge is a measurement there: its fair two-change setting beats the race's closer estimate
    assert out["closest"]["setting"] == "a 1, b 1" and out["closest"]["measured"] == "screen" and out["fair"]
    assert out["closest"]["distance_points"] == 0.4 and out["closest"]["standard"] == 0.10
    assert out["settings"] == 2 and out["start"]["verdict"] == "unclear" and out["start"]["distance_points"] == 3.0
    words = " ".join(ring_paragraphs(out))
    assert "measured with tactician itself (the space has no other level to screen at)" in words
    assert "The fair setting the ring measured with tactician on both sides: A; B, on the screen's deals" in words
    # screened elsewhere: nothing fair at the judge, the closest is the race's, said to be unconfirmed
    elsewhere = _ring_json(fast_levels=["greedy"])
    for s in elsewhere["settings"]:
        s["screen"] = {"greedy": s["screen"]["tactician"]}
    out = ring_outcome(elsewhere, 0.01, start)
    assert out["closest"]["setting"] == "a 2" and out["closest"]["measured"] == "race" and not out["fair"]
    assert "on the race's deals (seed 4), not confirmed" in " ".join(ring_paragraphs(out))
    cut = ring_outcome(_ring_json(interrupted=True, judge_measured=[]), 0.01, start)
    assert cut["interrupted"] and cut["closest"] is None
    assert "run the same command again to resume it" in " ".join(ring_paragraphs(cut))
    assert ring_paragraphs(None) == []

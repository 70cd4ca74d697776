"""The next ring's centre, chosen from what the search knows of every setting it kept (ccsim.analyses.balance.ring.centre).

Read from the published folder's own tables (results/balance/: the race, the fresh re-measure, the search level,
the ring's anchors and ring.json), without a game: the rule the pipeline now follows centres the ring where the
published ring was centred by hand, Cleopatra's one veto fewer; the rule before it (the closest setting the judge
had measured, Caesar's four vetoes, the search's final candidate) did not."""
import json
from pathlib import Path

import pandas as pd
import pytest

from ccsim.analyses.balance.ring.centre import (MEASURED, PREDICTED, balanced_fast, centre_plan, centre_ranking,
                                           kept_rows)
from ccsim.analyses.balance.space import load_space
from ccsim.analyses.balance.ring.widen import judge_frame

PUBLISHED = Path(__file__).resolve().parents[1] / "results" / "balance"
JUDGE = "neural-search"


def closest_at_judge(at: pd.DataFrame) -> int | None:
    """The rule before: the candidate closest to even among those measured at the judge (fewest changes, then
    smallest size among equals), which can only name one of the search's final candidates."""
    settings = at[at["candidate"] != 0]
    if settings.empty:
        return None
    ranked = settings.assign(dist=settings["seat_advantage"].abs()).sort_values(["dist", "changes", "size"],
                                                                                kind="stable")
    return int(ranked["candidate"].iloc[0])


@pytest.fixture(scope="module")
def folder():
    """The published search's tables, as the pipeline holds them when the ring starts."""
    read = {n: pd.read_parquet(PUBLISHED / f"{n}.parquet") for n in ("candidates", "remeasured", "search", "skill")}
    sp = load_space(PUBLISHED / "space.toml")
    return dict(read, space=sp, at=judge_frame((read["search"], read["skill"], read["remeasured"]), JUDGE),
                kept=kept_rows(read["remeasured"], read["candidates"]),
                fast=balanced_fast([lv.name for lv in sp.levels], JUDGE),
                ring=json.loads((PUBLISHED / "ring" / "ring.json").read_text()),
                anchors=json.loads((PUBLISHED / "ring" / "anchors.json").read_text()))


def _name(df: pd.DataFrame, candidate: int) -> str:
    return df.loc[df["candidate"] == candidate, "setting"].iloc[0]


def _check_rows(folder, setting: str) -> pd.DataFrame:
    """The judge's check of ``setting`` as the pipeline keeps it (a row paired with the standard rules on its
    deals): here the one the published study measured by hand (ring/anchors.json: ccsim whatif, 10,000 deals of
    seed 2); the pipeline plays its own on the search's seed + 5."""
    name, value = setting.rsplit(" ", 1)
    a = next(x for x in folder["anchors"]["anchors"] if x["setting"] == [[name, int(value)]])
    info = folder["kept"][folder["kept"]["setting"] == setting].iloc[0]
    return pd.DataFrame([dict({k: info[k] for k in ("candidate", "setting", "words", "key", "changes", "size")},
                              level=JUDGE, deals=a["deals"], seat_advantage=a["seat_advantage"],
                              seat_advantage_lo=a["ci95"][0], seat_advantage_hi=a["ci95"][1], diff=a["diff"],
                              diff_lo=a["diff_ci95"][0], diff_hi=a["diff_ci95"][1])])


def test_the_published_tables_are_what_the_centre_reads(folder):
    # the judge measured the standard rules and the search's final candidate alone; the balanced fast level is
    # tactician (neural is lopsided: it predicts nothing)
    assert set(folder["at"]["candidate"]) == {0, 31} and _name(folder["at"], 31) == "action_count.caesar.veto 4"
    assert folder["fast"] == ["tactician"]
    assert {_name(folder["kept"], 15), _name(folder["kept"], 31)} == {"action_count.cleopatra.veto 1",
                                                                       "action_count.caesar.veto 4"}


def test_the_centre_is_the_published_rings_and_the_old_rule_missed_it(folder):
    at, kept, fast = folder["at"], folder["kept"], folder["fast"]
    published = [tuple(x) for x in folder["ring"]["around"]]
    assert published == [("action_count.cleopatra.veto", 1)]
    # the rule before: the closest setting measured at the judge, the search's final candidate
    assert _name(at, closest_at_judge(at)) == "action_count.caesar.veto 4"
    # now: every kept setting ranked by its edge at the judge, measured or predicted from tactician's effect
    plan = centre_plan(kept, at, fast)
    top = plan.ranking.iloc[0]
    assert top["setting"] == "action_count.cleopatra.veto 1" and top["source"] == PREDICTED
    assert top["level"] == "tactician" and abs(top["edge"]) < 0.02  # about +1 point, against Caesar's −5.1 measured
    caesar = plan.ranking[plan.ranking["setting"] == "action_count.caesar.veto 4"].iloc[0]
    assert caesar["source"] == MEASURED and caesar["edge"] == pytest.approx(-0.0514)
    # a prediction is not a measurement: the judge checks it before the ring is centred there
    assert plan.check == top["candidate"] and plan.centre == closest_at_judge(at)
    # with the judge's check of it (here the published study's own), the centre is the published ring's
    checked = pd.concat([at, _check_rows(folder, "action_count.cleopatra.veto 1")], ignore_index=True)
    after = centre_plan(kept, checked, fast, checks_done=1)
    assert after.check is None and after.ranking.iloc[0]["source"] == MEASURED
    assert _name(after.ranking, after.centre) == "action_count.cleopatra.veto 1"
    from ccsim.analyses.balance.space import candidates
    cands, _ = candidates(folder["space"])
    assert list(cands[after.centre].settings) == published


def test_the_prediction_maps_the_fast_effect_through_the_settings_measured_at_both(folder):
    """Cleopatra's one veto fewer at the judge, predicted from tactician: the standard rules' edge there plus her
    effect at tactician times the slope fitted on Caesar's four vetoes (the one setting measured at both)."""
    r = centre_ranking(folder["kept"], folder["at"], folder["fast"])
    cleo = r[r["setting"] == "action_count.cleopatra.veto 1"].iloc[0]
    kept, at = folder["kept"], folder["at"]
    fx = lambda c: kept[(kept["candidate"] == c) & (kept["level"] == "tactician")]["diff"].iloc[0]  # noqa: E731
    slope = at.loc[at["candidate"] == 31, "diff"].iloc[0] / fx(31)
    assert cleo["edge"] == pytest.approx(at.loc[at["candidate"] == 0, "seat_advantage"].iloc[0] + slope * fx(15))
    assert cleo["lo"] < cleo["edge"] < cleo["hi"]
    from ccsim.analyses.balance.search.verdict import points  # docs/balance.md quotes this prediction: from these tables
    doc = " ".join((PUBLISHED.parents[1] / "docs" / "balance.md").read_text().split())
    assert f"predicted at {points(cleo['edge'])} (95% interval {points(cleo['lo'])} to {points(cleo['hi'])})" in doc
    # the lopsided neural decides nothing: with no balanced fast level the ranking holds the measured alone
    alone = centre_ranking(kept, at, [])
    assert list(alone["source"]) == [MEASURED]
    assert _name(alone, alone["candidate"].iloc[0]) == "action_count.caesar.veto 4"


def test_the_checks_stop_at_their_cap_and_the_centre_stays_measured(folder):
    plan = centre_plan(folder["kept"], folder["at"], folder["fast"], checks_done=2, max_checks=2)
    assert plan.check is None and _name(folder["at"], plan.centre) == "action_count.caesar.veto 4"


def test_the_ring_around_that_centre_is_the_published_rings_settings_and_anchors(folder):
    """With the centre and its check as anchors (``widen.judge_anchors``), the ring the pipeline plays holds the
    published ring's candidates in its order (the standard rules, the two anchors, the 32 ring settings): its
    screen plays the published screen's games (same seed, same deals)."""
    from ccsim.analyses.balance.ring.run import _candidates
    from ccsim.analyses.balance.space import candidates
    from ccsim.analyses.balance.ring.widen import judge_anchors
    at, sp = folder["at"], folder["space"]
    cands, _ = candidates(sp)
    check = _check_rows(folder, "action_count.cleopatra.veto 1").iloc[0]
    std = folder["anchors"]["standard"]
    std_row = pd.Series(dict(deals=std["deals"], seat_advantage=std["seat_advantage"],
                             seat_advantage_lo=std["ci95"][0], seat_advantage_hi=std["ci95"][1]))
    data = judge_anchors(at, JUDGE, cands, [(std_row, check, 2, None)])
    assert [a["setting"] for a in data["anchors"]] == [a["setting"] for a in folder["anchors"]["anchors"]]
    ring_cands, n_anchors = _candidates(sp, data["anchors"], [tuple(x) for x in folder["ring"]["around"]])
    assert n_anchors == 2 and [c.key for c in ring_cands] == [s["key"] for s in folder["ring"]["settings"]]


def test_a_published_answer_names_the_tables_of_its_own_folder(tmp_path):
    """A designer's own ``ccsim balance --out FOLDER`` publishes figures whose sources are FOLDER's tables, not
    the repository's results/balance."""
    import shutil
    from ccsim.analyses.balance.publish.answer import published_settings
    copy = tmp_path / "my-search"
    shutil.copytree(PUBLISHED, copy)
    sources = {est["source"] for s in published_settings(copy, 0.01) for est in s["levels"].values()
               if str(est.get("source", "")).endswith(".parquet")}
    assert sources and all(src.startswith(copy.as_posix() + "/") for src in sources), sources

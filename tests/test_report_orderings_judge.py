"""The orderings section's headlines played again by the judge (``[orderings] at_judge``): the best ordering against
the judge's field, the positions' headline and the meta-game's headline pairing, each claim stated at the judge
with the search level's figure beside it, and reproduced by its own command."""
import json
import shlex

import pytest
from click.testing import CliRunner

from ccsim.cli import cli
from ccsim.report import run_study
from ccsim.report.claims import lookup
from ccsim.report.spec import Study
from ccsim.runner.orderings import parse_ordering
from ccsim.report.sections.ladder import pair_score

STUDY = """
title = "orderings at the judge"
seed = 7
levels = ["greedy", "defender", "tactician"]
judge = "tactician"
[orderings]
level = "defender"
budget = 10000
top = 2
presets = ["veto-first"]
field = ["greedy"]
games = 300
positions_games = 2000
meta_games = 60
at_judge = true
judge_field = ["greedy"]
caps = { tactician = 1000 }
"""


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    """The study's report, tactician standing in for a search (which re-measures the best ordering alone, so
    that the judge plays the presets in a part of their own), in a few seconds."""
    d = tmp_path_factory.mktemp("judge-orderings")
    (d / "study.toml").write_text(STUDY)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(Study, "is_search", lambda self, level: level == "tactician")
        rep = run_study(d / "study.toml", d / "out")
    claims = {c["id"]: c for c in json.loads((d / "out" / "claims.json").read_text())["claims"]}
    return d, rep, claims


def test_every_orderings_claim_is_stated_at_the_judge(report):
    _, _, claims = report
    ours = {k: c for k, c in claims.items() if c["section"] == "orderings"}
    assert set(ours) == {"orderings.best.levels", "orderings.best.field", "orderings.positions", "orderings.meta"}
    assert {c["level"] for c in ours.values()} == {"tactician"}


def test_the_field_claim_is_the_judge_against_its_field_with_the_search_levels_figure_beside(report):
    _, rep, claims = report
    c = claims["orderings.best.field"]
    assert c["context"] == "greedy" and "--strategy tactician --opponent greedy" in c["command"]
    assert c["fast"]["level"] == "defender" and c["predicted"] is None
    sec = next(s for s in rep.sections if s.name == "orderings")
    rows = sec.tables["remeasured"]
    best = c["json_path"][1].split("=", 1)[1]
    at_defender = rows[(rows["context"] == "defender vs greedy") & (rows["ordering"] == best)].iloc[0]
    assert c["fast"]["value"] == pytest.approx(at_defender["diff"])
    assert "Played by defender, the level the search played at, against greedy" in c["statement"]


def test_the_judge_plays_the_top_orderings_and_the_presets_on_both_sides(report):
    _, rep, claims = report
    sec = next(s for s in rep.sections if s.name == "orderings")
    rows = sec.tables["remeasured"]
    at_judge = rows[rows["context"] == "tactician"]
    top = list(sec.tables["search_top"]["ordering"])
    assert list(at_judge["ordering"]) == top + [parse_ordering("veto-first")]
    assert (at_judge["games"] == 300).all()
    assert claims["orderings.best.levels"]["json_path"][1] == f"ordering={top[0]}"


def test_the_positions_headline_is_picked_at_the_search_level_and_measured_at_the_judge(report):
    _, rep, claims = report
    c = claims["orderings.positions"]
    sec = next(s for s in rep.sections if s.name == "orderings")
    reg = sec.tables["positions"]
    reg = reg[reg["kind"] == "region"]
    top = reg.loc[reg["effect"].abs().idxmax()]   # the pick: the search level's largest effect, on its many games
    assert c["json_path"][1] == f"card={top['card']}&kind=region&region={top['region']}"
    assert [e["context"] for e in c["estimates"]] == ["defender", "tactician"]
    assert c["estimates"][0]["value"] == pytest.approx(top["effect"])
    assert c["games"] == 1000 and "--strategy tactician --games 1000" in c["command"]


def test_the_meta_claim_plays_the_search_levels_hardest_pairing_again_at_the_judge(report):
    _, rep, claims = report
    c = claims["orderings.meta"]
    sec = next(s for s in rep.sections if s.name == "orderings")
    judge_pairing = sec.tables["meta_judge"]
    assert len(judge_pairing) == 1 and int(judge_pairing["games"].iloc[0]) == 120   # 60 deals, both seats
    mix = sec.tables["meta_mixture"]
    favoured = mix.loc[mix["weight"].idxmax(), "ordering"]
    scores = {o: pair_score(sec.tables["meta_pairings"], favoured, o)[0] for o in mix["ordering"] if o != favoured}
    hardest = min(scores, key=scores.get)
    assert {favoured, hardest} == set(judge_pairing[["a", "b"]].iloc[0])
    assert f"{favoured}'s weakest pairing there is against {hardest}" in c["statement"]
    assert c["estimates"][0]["value"] == pytest.approx(scores[hardest])
    assert c["statement"].startswith("With defender on both sides, ")
    assert not any(o[0].lower() + o[1:] in c["statement"] for o in mix["ordering"] if o.isupper())  # names kept
    assert [e["context"] for e in c["estimates"]] == ["defender", "tactician"]


def test_each_judge_claim_is_reproduced_by_its_command(report, monkeypatch):
    d, _, claims = report
    monkeypatch.chdir(d / "out")
    for key in ("orderings.best.field", "orderings.positions", "orderings.meta"):
        c = claims[key]
        r = CliRunner().invoke(cli, shlex.split(c["command"])[1:])
        assert r.exit_code == 0, (c["command"], r.output[-300:])
        assert lookup(json.loads(r.output.strip().splitlines()[-1]), c["json_path"]) == \
            pytest.approx(c["value"], abs=1e-9), key

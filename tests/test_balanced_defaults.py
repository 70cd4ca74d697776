"""Every door that reports Cleopatra's edge defaults to a level shown balanced, names it, and carries the
judge's figure; any other level's output opens with a plain caveat (strategies/seats.py: a gap known to ±1
point and within ±3 is balanced; ccsim.analyses.levels)."""
import json
from pathlib import Path

import pytest

from conftest import run_cli
from strategies import seats

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def statuses():
    """Each registered strategy's status, as ``ccsim strategies --json`` gives it."""
    from ccsim.cli import main
    import contextlib
    import io
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        main(["strategies", "--json"])
    return {s["name"]: (s["seats"] or {}).get("status") for s in json.loads(out.getvalue())}


def test_a_gap_is_balanced_only_when_known_to_a_point_and_within_three():
    row = lambda gap, half: {"seat_gap": gap, "seat_gap_ci95": [gap - half, gap + half]}  # noqa: E731
    assert seats.status_of(row(1.8, 0.9)) == seats.BALANCED
    assert seats.status_of(row(-2.9, 4.6)) == seats.NOT_YET_KNOWN      # the judge on 2,000 deals a seat
    assert seats.status_of(row(-10.1, 8.3)) == seats.NOT_YET_KNOWN     # not shown lopsided is not balanced
    assert seats.status_of(row(3.4, 1.05)) == seats.NOT_YET_KNOWN
    assert seats.status_of(row(3.2, 0.9)) == seats.LOPSIDED
    assert seats.status_of(row(-18.0, 0.4)) == seats.LOPSIDED
    assert seats.status_of(row(9.1, 2.1)) == seats.LOPSIDED            # shown beyond 3 however wide


def test_no_level_is_marked_balanced_unless_its_gap_is_known_and_within_three(statuses):
    for name, status in statuses.items():
        if status == seats.BALANCED:
            row = seats.seat_row(name)
            lo, hi = row["seat_gap_ci95"]
            assert (hi - lo) / 2 <= seats.KNOWN_WITHIN + 1e-9 and abs(row["seat_gap"]) <= seats.GAP_LIMIT, name


def test_the_judge_is_the_strongest_search_shown_balanced_or_none(statuses):
    from ccsim.analyses.levels import SEARCH_LEVELS, search_level, strong_caveat, strong_level
    balanced = [n for n in SEARCH_LEVELS if statuses.get(n) == seats.BALANCED]
    assert search_level() == (balanced[0] if balanced else None)
    # the doors show the judge's figures, or, with no search shown balanced, the strongest search's, said so
    assert strong_level() == (search_level() or SEARCH_LEVELS[0])
    assert (strong_caveat() is None) == (statuses[strong_level()] == seats.BALANCED)


def test_run_defaults_to_a_balanced_level_and_names_it(capsys, statuses):
    code, out, _ = run_cli(capsys, "run", "--games", "30", "--json", "--no-progress")
    d = json.loads(out)
    assert code == 0 and d["config"]["cleopatra"] == d["config"]["caesar"] == d["level"]["name"]
    assert statuses[d["level"]["name"]] == seats.BALANCED and d["caveat"] is None
    assert d["judge"]["how"] == "measured" and d["judge"]["deals"] >= 10_000   # the standard rules: stored
    assert d["judge"]["status"] == statuses[d["judge"]["judge"]]
    code, out, _ = run_cli(capsys, "run", "--games", "30", "--no-progress")
    assert out.splitlines()[0].startswith(f"level of play: {d['level']['words']} ({d['level']['name']})")
    from ccsim.analyses.levels import strong_caveat
    said = strong_caveat(d["judge"]["judge"])
    assert said is None or " ".join(said.split()) in " ".join(out.split())   # a strong level not balanced: said


def test_whatif_defaults_to_a_balanced_level_and_adds_the_judges_figure(capsys, statuses):
    code, out, _ = run_cli(capsys, "whatif", "--no-variants", "--games", "40", "--no-progress", "--json",
                           "--rules", ROOT / "results" / "balance" / "recommended.toml")
    d = json.loads(out)
    assert code == 0 and [lv["status"] for lv in d["levels"]] == [seats.BALANCED]
    assert statuses[d["strategies"][0]] == seats.BALANCED
    recommended = next(a["name"] for a in d["arms"] if a["kind"] == "change")
    j = next(r for r in d["judge"] if r["arm"] == recommended)
    assert j["how"] == "measured" and j["label"] == "measured with neural-search"


@pytest.mark.parametrize("command", [["orderings", "compare", "veto-first", "--games", "40"]])
def test_orderings_default_to_a_balanced_level_with_the_judges_figure(capsys, statuses, command):
    code, out, _ = run_cli(capsys, *command, "--json")
    d = json.loads(out)
    assert code == 0 and statuses[d["level"]["name"]] == seats.BALANCED and d["caveat"] is None
    assert d["orderings"][0]["judge"]["how"] in ("measured", "predicted")


@pytest.mark.parametrize("command", [["orderings", "search"], ["orderings", "positions"], ["orderings", "compare"],
                                     ["run"], ["whatif"], ["balance"]])
def test_every_door_names_its_balanced_default_in_its_help(capsys, command):
    from ccsim.analyses.levels import DEFAULT_HELP, default_level
    code, out, _ = run_cli(capsys, *command, "--help")
    assert code == 0 and default_level() in DEFAULT_HELP and default_level() in " ".join(out.split())


def test_balance_and_the_page_default_to_balanced_levels(statuses):
    from ccsim.analyses.balance.space import load_space
    from ccsim.explore.form import page_level
    assert all(statuses[p] == seats.BALANCED for lv in load_space().levels for p in lv.players)
    assert statuses[page_level()] == seats.BALANCED


def test_a_lopsided_level_opens_with_a_plain_caveat_and_no_verdict(capsys):
    code, out, _ = run_cli(capsys, "run", "--games", "30", "--cleopatra", "greedy", "--caesar", "greedy",
                           "--no-progress")
    assert code == 0 and out.startswith("Note: the greedy baseline (greedy) is lopsided")
    caveat = " ".join(out.split("\nlevel of play")[0].split()) if "level of play" in out else " ".join(out.split())
    assert "no verdict of fair comes from it" in caveat


def test_every_level_not_shown_balanced_has_a_caveat_naming_its_status(statuses):
    from ccsim.analyses.levels import level_caveat
    words = {seats.LOPSIDED: "is lopsided", seats.NOT_YET_KNOWN: "not yet known", None: "not measured"}
    for name, status in statuses.items():
        said = level_caveat((name,))
        assert (said is None) == (status == seats.BALANCED), name
        if said:
            assert words[status] in said and "no verdict of fair" in said, name


def test_the_orderings_python_studies_default_to_the_balanced_level(statuses):
    """A notebook's study plays what the commands play: no strategy given is the default balanced level."""
    from ccsim.analyses.levels import default_level
    from ccsim.analyses.orderings.matchup import Matchup
    from ccsim.analyses.orderings import positions, search, study
    import inspect
    assert Matchup().strategy == default_level() and statuses[default_level()] == seats.BALANCED
    for fn in (study.compare, search.search, search.search_args, positions.positions):
        assert inspect.signature(fn).parameters["strategy"].default is None, fn.__name__

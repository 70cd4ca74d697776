"""A report a designer reads without a statistician, checked on the claims of a tiny study.

The wording rules (a claim is stated at its own level once and its verdict never names it; a
negligible effect is never a headline; every figure carries its unit; one sign format), the
summary sentences and their links, the convergence verdicts, the headline level, the [balance]
hook, replication on a fresh seed, and the page's width in a headless browser.
"""
from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from ccsim.cli import cli, main
from ccsim.report import StudyError, parse_study, plan_study, run_study
from ccsim.report.claims import Estimate
from ccsim.report.sections.convergence import convergence_verdict
from ccsim.report.render import claim_row
from ccsim.report.replicate import agreement, plays, with_seed
from ccsim.report.units import MINUS, UNIT_WORDS

ROOT = Path(__file__).resolve().parents[1]

TINY = """
title = "tiny"
seed = 3
levels = ["greedy", "tactician"]
[seat]
games = 400
[game]
games = 400
[ladder]
strategies = ["greedy", "defender", "tactician"]   # two alone: a 100% pairing has no Bradley-Terry fit
games = 100
[orderings]
budget = 10000
top = 1
presets = ["veto-first"]
field = ["greedy"]
games = 200
positions_games = 488
meta_games = 50
[variants]
variants = ["two_orgies"]
games = 150
[balance]
results = "balance"
games = 150
[cards]
games = 100
"""

RECOMMENDED = """
[[change]]
name = "hand of 4"
hand_size = 4
[[change]]
name = "bonus worth 4"
vp_bonus = 4
"""


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    import matplotlib.pyplot as plt
    plt.close("all")


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    d = tmp_path_factory.mktemp("wording")
    (d / "study.toml").write_text(TINY)
    (d / "balance").mkdir()
    (d / "balance" / "recommended.toml").write_text(RECOMMENDED)
    (d / "balance" / "summary.json").write_text(json.dumps(dict(tolerance=0.02, command="ccsim balance --demo")))
    rep = run_study(d / "study.toml", d / "out")
    return d, rep


def _script(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _words(rep):
    """Every sentence the report says about its claims: statements, verdicts, convergence, summary."""
    out = [(c.id, t) for c in rep.claims for t in (c.statement, c.verdict, (c.convergence or {}).get("text", ""))]
    return out + [("summary", s.text) for s in rep.summary]


# --- unit tests of the verdicts ----------------------------------------------------------------------

def test_convergence_verdict_on_synthetic_values():
    seoi = 0.01
    # agree within their interval and within 1 point: converged, and precisely so
    v = convergence_verdict(Estimate("strong", 0.102, 0.100, 0.104), Estimate("next", 0.100, 0.098, 0.102), seoi)
    assert v["verdict"] == "converged" and v["precise"] and v["diff"] == pytest.approx(0.002)
    # a difference the intervals resolve, larger than the smallest effect: still moving
    v = convergence_verdict(Estimate("strong", 0.13, 0.128, 0.132), Estimate("next", 0.10, 0.098, 0.102), seoi)
    assert v["verdict"] == "still moving with skill" and v["lo"] > 0
    # inside the smallest effect but resolved by the intervals (|d| > its interval): still moving
    v = convergence_verdict(Estimate("strong", 0.108, 0.1078, 0.1082), Estimate("next", 0.1, 0.0998, 0.1002), seoi)
    assert v["verdict"] == "still moving with skill"
    # inside its wide interval but beyond the smallest effect: still moving (more games would tell)
    v = convergence_verdict(Estimate("strong", 0.125, 0.07, 0.18), Estimate("next", 0.10, 0.099, 0.101), seoi)
    assert v["verdict"] == "still moving with skill" and v["lo"] < 0 < v["hi"]
    # within the smallest effect and its wide interval: converged, but not precisely
    v = convergence_verdict(Estimate("strong", 0.105, 0.05, 0.16), Estimate("next", 0.10, 0.099, 0.101), seoi)
    assert v["verdict"] == "converged" and not v["precise"]
    # identical arms (zero-width intervals): converged exactly
    v = convergence_verdict(Estimate("strong", 0.0, 0.0, 0.0), Estimate("next", 0.0, 0.0, 0.0), 0.5)
    assert v["verdict"] == "converged" and v["diff"] == 0


def test_replication_agreement_and_seeds():
    assert with_seed("ccsim run --games 10 --seed 5 --json", 9) == "ccsim run --games 10 --seed 9 --json"
    assert with_seed("ccsim run --games 10", 9) == "ccsim run --games 10 --seed 9"
    se = 0.01 / 1.959963984540054            # both intervals ±1 point: agree within 1.96·√2·se ≈ 1.41 points
    ok, diff, allowed = agreement((0.10, 0.09, 0.11), (0.112, 0.102, 0.122))
    assert ok and diff == pytest.approx(0.012) and allowed == pytest.approx(1.959963984540054 * 2 ** 0.5 * se)
    assert not agreement((0.10, 0.09, 0.11), (0.115, 0.105, 0.125))[0]


def test_heatmap_text_is_readable_on_every_cell():
    from ccsim.present.figures import text_color
    assert text_color((1, 1, 1, 1)) == "black" and text_color((0.02, 0.19, 0.38, 1)) == "white"
    assert text_color((0.4, 0, 0.05, 1)) == "white" and text_color((0.97, 0.97, 0.97, 1), muted=True) == "0.4"


def test_headline_level_is_the_strongest_played_at_full_scale(seat_gaps):
    seat_gaps({"neural": 10.9, "master": -3.4, "neural-search": -0.1, "expert": 0.7})  # greedy: not measured
    capped = parse_study({"levels": ["greedy", "tactician", "expert"], "caps": {"expert": 300},
                          "seat": {"games": 5000}})
    assert capped.reference == "tactician" and not capped.reference_named
    uncapped = parse_study({"levels": ["greedy", "tactician", "expert"], "caps": {"expert": 5000},
                            "seat": {"games": 5000}})
    assert uncapped.reference == "expert"
    named = parse_study({"levels": ["greedy", "tactician", "expert"], "reference": "greedy", "seat": {}})
    assert named.reference == "greedy" and named.reference_named
    # a section without the reference states its claims at its own strongest full-scale level
    assert capped.headline_for(["greedy", "expert"]) == "greedy"


def test_a_balance_section_waits_for_its_results(tmp_path):
    st = parse_study({"levels": ["greedy"], "balance": {"results": str(tmp_path / "none")}})
    assert not st.sections["balance"]["found"] and plan_study(st) == []
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "recommended.toml").write_text("[[change]]\nhand_size = 99\n")
    with pytest.raises(StudyError, match=r"\[balance\].*recommended.toml"):
        parse_study({"levels": ["greedy"], "balance": {"results": str(tmp_path / "bad")}})


def test_a_bad_balance_folder_is_one_line_and_exit_2(tmp_path, capsys):
    (tmp_path / "bal").mkdir()
    (tmp_path / "bal" / "recommended.toml").write_text("[[change\n")
    (tmp_path / "s.toml").write_text("[balance]\nresults = 'bal'\n")
    with pytest.raises(SystemExit) as e:
        main(["report", str(tmp_path / "s.toml"), "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert e.value.code == 2 and len(err.splitlines()) == 1 and "not valid TOML" in err


# --- the wording rules on the claims of a tiny study ---------------------------------------------------

def test_no_verdict_names_its_own_level_or_opponent(tiny):
    _, rep = tiny
    for c in rep.claims:
        assert not re.search(rf"(?<![\w-]){re.escape(c.context)}(?![\w-])", c.verdict), (c.id, c.context, c.verdict)
        assert f"not significant at {c.context}" not in c.verdict
    # opponents are spoken of as opponents, levels as levels
    by = {c.id: c for c in rep.claims}
    assert " against " in by["orderings.meta"].verdict and " at " not in by["orderings.meta"].verdict
    assert by["orderings.best.field"].context == "greedy" and " vs " not in by["orderings.best.field"].verdict


def test_negligible_effects_never_headline(tiny):
    d, rep = tiny
    html = (d / "out" / "report.html").read_text()
    for c in rep.claims:
        boxed = re.search(rf'<div class="claim[^"]*" id="{re.escape(c.anchor)}"', html)
        assert (boxed is not None) == c.headline, c.id
        if c.effect in ("negligible", "unclear"):
            assert not c.headline and f'id="{c.anchor}"' in html
    data = json.loads((d / "out" / "claims.json").read_text())
    assert all(c["headline"] == (c["effect"] in ("clear", "fair", "descriptive")) for c in data["claims"])


_NUMBER = re.compile(r"(?<![\w.])([+\u2212±]?\d[\d,]*\.\d+|[+\u2212]\d[\d,]*)(%?)")
_UNITS = UNIT_WORDS + ("point", "turn", "vote", "games")


def _unitless(text: str) -> list[str]:
    """Decimal or signed numbers of ``text`` with no unit after them (nor before their interval)."""
    bad = []
    for m in _NUMBER.finditer(text):
        rest = text[m.end():]
        if m.group(2) or rest.startswith(" to ") or any(rest.startswith(" " + u) for u in _UNITS):
            continue
        open_ = text.rfind("[", 0, m.start())
        if open_ != -1 and "]" not in text[open_:m.start()] and text[:open_].rstrip().endswith(_UNITS + ("%",)):
            continue   # inside "+10.1 points [+10.0, +10.2]"
        bad.append(m.group(0))
    return bad


def test_every_number_carries_its_unit(tiny):
    d, rep = tiny
    assert _unitless("+10.1 points [+10.0, +10.2] and 71.5% [71.4%, 71.6%] in R2.6") == []
    assert _unitless("it scores 0.1008 against +0.5") == ["0.1008", "+0.5"]
    for who, text in _words(rep):
        assert _unitless(text) == [], (who, text)
    data = json.loads((d / "out" / "claims.json").read_text())
    assert {c["unit"] for c in data["claims"]} <= set(UNIT_WORDS)
    assert "| unit |" in (d / "out" / "summary.md").read_text()
    html = (d / "out" / "report.html").read_text()
    assert "<th>unit</th>" in html and "seat_advantage (points)" in html   # the seat table in points, as the text


def test_one_sign_format(tiny):
    d, rep = tiny
    for who, text in _words(rep):
        assert not re.search(r"(?<![\w-])-\d", text), (who, text)   # a hyphen is never a minus
    for c in rep.claims:
        figure = claim_row(c)["figure"]
        if c.signed:
            assert figure[0] in "+" + MINUS or set(figure) <= set("0.,"), (c.id, figure)
        else:
            assert figure[0] not in "+" + MINUS, (c.id, figure)
    html = re.sub(r"<style>.*?</style>|data:image/png;base64,[^\"]+", "", (d / "out" / "report.html").read_text(),
                  flags=re.S)
    assert not re.search(r"(?<![\w-])-\d", html)


def test_the_summary_speaks_first_and_links_its_claims(tiny):
    d, rep = tiny
    assert len(rep.summary) >= 4
    assert rep.summary[0].text.startswith(("Cleopatra", "Caesar", "The game is fair", "The games played"))
    ids = {c.id: c for c in rep.claims}
    html = (d / "out" / "report.html").read_text()
    assert html.index('id="short"') < html.index('id="answers"')
    for s in rep.summary:
        assert s.claims and all(i in ids for i in s.claims), s
        for i in s.claims:
            assert f'href="#{ids[i].anchor}"' in html and f'id="{ids[i].anchor}"' in html
        assert "significant" not in s.text and "robust" not in s.text.lower()
    assert any("balance." in i for s in rep.summary for i in s.claims)        # what fixes it: the [balance] hook
    assert any(i.startswith("cards.") for s in rep.summary for i in s.claims)   # which card is worth most
    assert json.loads((d / "out" / "claims.json").read_text())["summary"][0]["claims"] == list(rep.summary[0].claims)


def test_balance_changes_are_remeasured_at_every_level(tiny):
    d, rep = tiny
    bal = [c for c in rep.claims if c.section == "balance"]
    assert [c.id for c in bal] == ["balance.hand of 4", "balance.bonus worth 4"]
    for c in bal:
        assert c.seoi == 0.02 and {e.context for e in c.estimates} == {"greedy", "tactician"}
        assert "the standard rules:" in c.statement and "recommended.toml" in c.command
    assert (d / "out" / "recommended.toml").is_file()


def test_convergence_follows_the_ladder(tiny):
    _, rep = tiny
    assert rep.strength.source == "ladder" and rep.strength.levels[-1] == "tactician"
    for c in rep.claims:
        if c.across != "level":
            assert c.convergence is None
            continue
        ranked = sorted(c.estimates, key=lambda e: rep.strength.key[e.context])
        if len(ranked) > 1:
            assert c.convergence["verdict"] == convergence_verdict(ranked[-1], ranked[-2], c.seoi)["verdict"]
    skill = next(s for s in rep.sections if s.name == "convergence")
    assert "skill" in skill.figures and len(skill.tables["claims"]) >= 10


# --- replication on a fresh seed ------------------------------------------------------------------------

def test_check_claims_replicates_on_a_fresh_seed(tiny, capsys):
    d, rep = tiny
    code = _script("check_claims").main([str(d / "out"), "--seed", "4", "--only", "seat,balance"])
    out = capsys.readouterr().out
    text = (d / "out" / "replication.md").read_text()
    ids = [c.id for c in rep.claims if c.section in ("seat", "balance")]
    m = re.search(r"\*\*(\d+) of (\d+) claims agree", text)
    assert m and int(m.group(2)) == len(ids) and code == (0 if m.group(1) == m.group(2) else 1)
    assert all(f"| {i} |" in text for i in ids) and "--seed 4" in text and "fresh" in out
    with pytest.raises(SystemExit):   # the study's own seed replays, it does not replicate
        _script("check_claims").main([str(d / "out"), "--seed", "3"])


def test_check_claims_keeps_the_rows_it_replicated_before_and_reruns_a_changed_figure(tiny, capsys):
    """--keep: a claim whose earlier row replicated the very figure it ships keeps that row and plays nothing; a
    claim whose figure changed since (a new edition) is rerun."""
    d, rep = tiny
    script = _script("check_claims")
    script.main([str(d / "out"), "--seed", "4", "--only", "seat,balance"])
    before = (d / "out" / "replication.md").read_text()
    claims_file = d / "out" / "claims.json"
    shipped = claims_file.read_text()
    data = json.loads(shipped)
    changed = next(c for c in data["claims"] if c["section"] == "seat")
    changed["value"] += 0.001                                          # a figure published anew
    claims_file.write_text(json.dumps(data))
    capsys.readouterr()
    try:
        script.main([str(d / "out"), "--seed", "4", "--only", "seat,balance", "--keep"])
    finally:
        claims_file.write_text(shipped)
    out = capsys.readouterr().out
    text = (d / "out" / "replication.md").read_text()
    kept = [c["id"] for c in data["claims"] if c["section"] in ("seat", "balance") and c["id"] != changed["id"]]
    assert all(f"{i:<45} kept from the replication before" in out for i in kept)
    assert f"{changed['id']:<45} kept" not in out
    for i in kept:   # the very rows of before
        assert next(x for x in before.splitlines() if x.startswith(f"| {i} |")) in text.splitlines()
    assert "Kept from the replication before" in text and re.search(r"\*\*\d+ of %d claims agree" % (len(kept) + 1), text)


def test_check_claims_names_the_claims_it_leaves_out(tiny, capsys):
    # a slow search's claims may be left out of a replication, but named, never counted as failures
    d, rep = tiny
    out = d / "skip.md"
    code = _script("check_claims").main([str(d / "out"), "--seed", "4", "--only", "seat", "--skip", "tactician",
                                         "--skip-note", "A search too slow to rerun here.", "--out", str(out)])
    text = out.read_text()
    seat = [c for c in rep.claims if c.section == "seat"]
    left = [c.id for c in seat if plays(c.command, ["tactician"])]
    assert left and "not rerun (named below)" in text and "A search too slow to rerun here." in text
    assert f"Not rerun: {', '.join(left)}." in text
    assert re.search(r"\*\*(\d+) of %d claims agree" % (len(seat) - len(left)), text)
    assert code in (0, 1) and "not rerun" in capsys.readouterr().out


def test_plays_matches_whole_strategy_names():
    assert plays("ccsim run --cleopatra master --caesar tactician --games 9", ["master"]) == "master"
    assert plays("ccsim tournament --strategies expert,master --games 9", ["master"]) == "master"
    assert plays("ccsim run --cleopatra master-b48 --caesar tactician", ["master"]) is None
    assert plays("ccsim run --cleopatra tactician --caesar tactician", ["master", "expert"]) is None


def test_report_replicate_writes_replication_md(tiny, monkeypatch):
    d, rep = tiny
    import ccsim.report.replicate as replicate
    runner = CliRunner()
    monkeypatch.chdir(d / "out")

    def in_process(folder):   # the same commands, in this process (the subprocess runner is tested above)
        def run(command):
            r = runner.invoke(cli, __import__("shlex").split(command)[1:])
            assert r.exit_code == 0, r.output
            return json.loads(r.output.strip().splitlines()[-1])
        return run
    monkeypatch.setattr(replicate, "command_runner", in_process)
    r = runner.invoke(cli, ["report", str(d / "study.toml"), "--out", str(d / "out"), "--replicate", "8"])
    assert r.exit_code == 0, r.output
    assert re.search(r"replication on seed 8: \d+ of %d claims agree" % len(rep.claims), r.output)
    assert (d / "out" / "replication.md").read_text().count("\n| ") == len(rep.claims) + 1
    r = runner.invoke(cli, ["report", str(d / "study.toml"), "--out", str(d / "out"), "--replicate", "3"])
    assert r.exit_code == 2 and "own seed" in r.output


# --- the page in a headless browser -----------------------------------------------------------------------

def test_the_page_fits_1280_pixels(tiny, tmp_path):
    shot = _script("screenshot_report")
    if shot.browser() is None:
        pytest.skip("no Chromium (apt-get install -y chromium)")
    d, _ = tiny
    m = shot.measure(shot.browser(), d / "out" / "report.html", 1280)
    assert m["scroll_width"] <= 1280 and m["wide"] == [], m
    assert shot.main([str(d / "out" / "report.html"), "--out", str(tmp_path / "page.png")]) == 0
    assert (tmp_path / "page.png").stat().st_size > 10_000

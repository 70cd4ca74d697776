"""The report's pages: one self-contained HTML file (jinja2; plots embedded as PNG, no network needed)
and a Markdown summary beside it."""
from __future__ import annotations

import base64
import io
import platform
from datetime import date
from pathlib import Path

import pandas as pd

from ccsim.report.tables import shown
from ccsim.report.units import fmt

__all__ = ["html_page", "markdown_summary", "save_figures", "rests_text", "claim_row", "skill_text"]

MAX_FIGURE_PX = 1080  # the page's column (1100 px at most): a figure is never wider, nor scaled in the browser
DPI = 110


def _png(fig) -> bytes:
    """The figure as PNG at 110 dpi, or at the resolution that makes it MAX_FIGURE_PX wide if that is narrower
    (its text shrinks with it; the page never scrolls sideways for a figure)."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI, bbox_inches="tight")
    width = _png_width(buf.getvalue())
    if width <= MAX_FIGURE_PX:
        return buf.getvalue()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI * MAX_FIGURE_PX / width * 0.995, bbox_inches="tight")
    return buf.getvalue()


def _png_width(data: bytes) -> int:
    return int.from_bytes(data[16:20], "big")  # the IHDR chunk: width, then height, big-endian


def save_figures(sections, folder: Path) -> dict:
    """Every figure as ``folder/<section>_<name>.png``; returns {(section, name): png bytes}."""
    import matplotlib.pyplot as plt
    folder.mkdir(parents=True, exist_ok=True)
    out = {}
    for s in sections:
        for name, fig in s.figures.items():
            data = _png(fig)
            (folder / f"{s.name}_{name}.png").write_bytes(data)
            out[s.name, name] = data
            plt.close(fig)
    return out


def _table_html(df: pd.DataFrame, shows) -> str:
    # wide tables scroll inside their box: the page itself never gets wider than its column
    return '<div class="scroll">' + shown(df, shows).to_html(index=False, classes="t", border=0, escape=True) + "</div>"


def rests_text(rep) -> str:
    st, i = rep.study, rep.info
    how = ("the reference the study file names" if st.reference_named else
           "the judge the study file names" if st.judge != "balanced" else
           "the strongest level that plays both seats alike (strategies/seats.py) measured at scale: at least "
           "20,000 games for the seat advantage and 10,000 deals an arm for the fair change")
    return (f"Levels of play (weakest to strongest): {', '.join(st.levels)}; headline claims stated at "
            f"{st.reference} ({how}). Seed {st.seed}; {i['games']:,} games in all; the standard rules unless a section says "
            f"otherwise; action decks shuffled (R1.4) unless an ordering is named"
            + ("; " + ", ".join(f"{k} plays at most {v:,} games" for k, v in st.caps.items()) + " a measurement"
               if st.caps else "") + "." + _judge_status_text(st) + _lopsided_text(st) + _not_measured_text(rep))


def _lopsided_text(st) -> str:
    """The levels that play one seat better than the other, named: their figures are shown, never the headline
    (the judge the study names aside: its own status is said first, ``_judge_status_text``)."""
    from ccsim.analyses.balance.judge import LOPSIDED, seat_status
    lop = [lv for lv in st.levels if seat_status(lv) == LOPSIDED and lv != st.reference]
    if not lop:
        return ""
    return (f" {', '.join(lop)} {'is' if len(lop) == 1 else 'are'} lopsided (a seat gap of more than 3 points: "
            f"{'it gains' if len(lop) == 1 else 'each gains'} more in one seat than in the other): "
            f"{'its' if len(lop) == 1 else 'their'} figures are shown, named so, and carry no headline.")


def _judge_status_text(st) -> str:
    """A headline level the study names that is not shown to play both seats alike, said in plain words: its
    figures are strong play's best, not shown to be the game's, and no verdict of fair rests on it."""
    from ccsim.analyses.balance.judge import BALANCED, LOPSIDED, seat_status
    from strategies.seats import describe
    status = seat_status(st.reference)
    if st.judge == "balanced" or status == BALANCED:
        return ""
    how = ("is lopsided" if status == LOPSIDED else "has a seat gap not yet known to ±1 point")
    return (f" {st.reference}, the judge this study names, {how} (against tactician it {describe(st.reference)}): "
            f"its figures are the strongest play measured, not shown to be the game's own edge, and no verdict of "
            f"fair rests on them.")


def not_measured_at_reference(rep) -> list:
    """The claims stated at a level weaker than the headline level that was not measured for them at all
    (a claim is checked at the headline level, or said not to be)."""
    st = rep.study
    rank = {lv: k for k, lv in enumerate(st.levels)}
    return [c for c in rep.claims if c.level in rank and rank[c.level] < rank.get(st.reference, -1)
            and all(e.context != st.reference for e in c.estimates)]


def _not_measured_text(rep) -> str:
    """The claims never measured at the headline level, said by section and counted (each claim's own row in
    the answers' table names its level): a list of thirty claim keys is no sentence a designer reads."""
    missing = not_measured_at_reference(rep)
    if not missing:
        return ""
    from ccsim.report.sections.common import SECTION_TITLES
    by_level: dict = {}
    for c in missing:
        section = c.id.split(".")[0]
        counts = by_level.setdefault(c.level, {})
        counts[section] = counts.get(section, 0) + 1
    said = [_and([f"{SECTION_TITLES.get(sec, sec).lower()} ({n} claim{'s' if n > 1 else ''})"
                  for sec, n in counts.items()]) + f", at {lv}" for lv, counts in by_level.items()]
    return f" Not measured at {rep.study.reference}, stated at a weaker level: " + "; ".join(said) + "."


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _games_text(rep, s) -> str:
    levels = list(s.tables["ratings"]["entrant"]) if "ratings" in s.tables else rep.study.sections[s.name]["levels"]
    who = "entrants" if "ratings" in s.tables else "levels of play"
    return f"Rests on {s.games:,} games; {who}: {', '.join(levels)}; seed {rep.study.seed}."


def skill_text(c) -> str:
    """The claim's convergence with skill in a word or two (the table's column)."""
    if not c.convergence:
        return "—"
    v = c.convergence
    if v["verdict"] == "converged":
        return "settled" if v["precise"] else "settled, but too few games to be sure"
    if v["verdict"] != "still moving with skill":
        return "one level"
    # the two strongest levels' difference reaching zero: the same words as the summary's ("cannot be told yet")
    return "cannot tell yet" if v.get("lo", 1) <= 0 <= v.get("hi", -1) else "changes with skill"


def claim_row(c) -> dict:
    """A claim as the pages show it: its figure and interval in its unit, and every word about it."""
    return dict(id=c.id, title=c.title or c.id, anchor=c.anchor, statement=c.statement, verdict=c.verdict,
                figure=fmt(c.value, c.unit, (c.lo, c.hi), c.signed), interval=_bare_ci(c),
                unit=c.unit, level=c.level, effect=c.effect, headline=c.headline, holds=c.holds,
                skill=skill_text(c), convergence=(c.convergence or {}).get("text", ""), rests_on=c.rests_on,
                command=c.command, beside=beside_cell(c))


def beside_cell(c) -> str:
    """A claim stated at the judge, the table's column beside it: the fast level's figure, and the map's
    prediction with whether the measurement fell inside it ("—" for any other claim)."""
    if not c.fast:
        return "—"
    q = lambda d: fmt(d["value"], c.unit, (d["lo"], d["hi"]), c.signed) + " " + _bare_ci(c, d["lo"], d["hi"])  # noqa: E731
    text = f"{c.fast['level']} {q(c.fast)}"
    if c.predicted:
        text += f"; predicted {q(c.predicted)}, " + ("held" if c.predicted["held"] else "missed")
    return text


def _bare_ci(c, lo=None, hi=None) -> str:
    """An interval as the claims' table shows it, in the claim's unit (its own, or ``lo``..``hi``): numbers only,
    the unit in its own column."""
    lo, hi = (c.lo, c.hi) if lo is None else (lo, hi)
    return f"[{fmt(lo, c.unit, (lo, hi), c.signed)}, {fmt(hi, c.unit, (lo, hi), c.signed)}]"


def _box_class(c) -> str:
    if not c.headline:
        return "minor"
    return "holds" if c.holds and c.effect != "descriptive" else ("plain" if c.effect == "descriptive" else "mixed")


def html_page(rep, figs: dict) -> str:
    from jinja2 import Environment, PackageLoader, select_autoescape
    env = Environment(loader=PackageLoader("ccsim.report", "templates"), autoescape=select_autoescape(["html", "j2"]))
    sections = []
    for s in rep.sections:
        sections.append(dict(
            name=s.name, title=s.title, conclusions=s.conclusions, notes=s.notes,
            games_text=_games_text(rep, s) if s.name != "convergence" else "",
            figures=[dict(alt=f"{s.title}: {n}", data=base64.b64encode(figs[s.name, n]).decode()) for n in s.figures],
            tables=[dict(name=n, rows=len(df), file=f"{s.name}_{n}.parquet", html=_table_html(df, s.shows.get(n, [])),
                         open=len(df) <= 12) for n, df in s.tables.items()]))
    answers = [dict(title=s.title, headlines=[dict(claim_row(c), cls=_box_class(c)) for c in s.claims if c.headline],
                    minor=[claim_row(c) for c in s.claims if not c.headline]) for s in rep.sections if s.claims]
    anchors = {c.id: c.anchor for c in rep.claims}
    titles = {c.id: c.title or c.id for c in rep.claims}
    return env.get_template("report.html.j2").render(
        title=rep.study.title, description=rep.study.description, rests=rests_text(rep), sections=sections,
        claims=[claim_row(c) for c in rep.claims], footer=_footer(rep), answers=answers,
        summary=[dict(text=x.text, links=[(titles[i], anchors[i]) for i in x.claims if i in anchors])
                 for x in rep.summary])


def _footer(rep) -> str:
    from importlib.metadata import version
    return (f"Made by ccsim {version('ccsim')} (ccsim report {Path(rep.study.path).name}) on {date.today()}; "
            f"Python {platform.python_version()}, {platform.machine()}.")


def markdown_summary(rep, figs: dict) -> str:
    lines = [f"# {rep.study.title}", ""]
    if rep.study.description:
        lines += [rep.study.description, ""]
    lines += [rests_text(rep), "", "The full report with every plot and table: [report.html](report.html); every "
              "claim as data with the command that reproduces it: [claims.json](claims.json).", ""]
    anchors = {c.id: c.anchor for c in rep.claims}
    lines += ["## In short", ""] + [(f"* {x.text} " + " ".join(f"([{i}](report.html#{anchors[i]}))" for i in x.claims
                                                              if i in anchors)).rstrip() for x in rep.summary] + [""]
    lines += ["## The answers", "", "| claim | figure | 95% interval | unit | level | effect | robustness | skill "
              "| fast level; predicted for the judge |", "|---|---:|---|---|---|---|---|---|---|"]
    for c in rep.claims:
        r = claim_row(c)
        lines.append(f"| {c.id} | {r['figure']} | {r['interval']} | {c.unit} | {c.level} | {c.effect} | {c.verdict} "
                     f"| {r['skill']} | {r['beside']} |")
    for s in rep.sections:
        lines += ["", f"## {s.title}", ""] + ([_games_text(rep, s), ""] if s.name != "convergence" else [])
        lines += [f"* {line}" for line in s.conclusions] + [f"* *{note}*" for note in s.notes]
        lines += [""] + [f"![{s.title}: {n}](figures/{s.name}_{n}.png)" for n in s.figures]
        if s.tables:
            lines += ["", "Tables: " + ", ".join(f"[{n}](tables/{s.name}_{n}.parquet)" for n in s.tables)]
    lines += ["", _footer(rep), ""]
    return "\n".join(lines)

"""The report's pages: one self-contained HTML file (jinja2; plots embedded as PNG, no network needed)
and a Markdown summary beside it."""
from __future__ import annotations

import base64
import io
import platform
from datetime import date
from pathlib import Path

import numpy as np
import pandas as pd

from ccsim.report.claims import fmt, fmt_ci

__all__ = ["html_page", "markdown_summary", "save_figures", "rests_text"]

MAX_ROWS = 60  # a longer table is in its Parquet file, shown here in its first rows


def _png(fig) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    return buf.getvalue()


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


def _cell(x):
    if isinstance(x, (float, np.floating)):
        if not np.isfinite(x):
            return ""
        if float(x).is_integer() and abs(x) >= 1000:  # a count stored as float (games, deals)
            return f"{int(x):,}"
        return f"{x:.4g}" if abs(x) >= 1e-3 or x == 0 else f"{x:.2e}"
    if isinstance(x, (int, np.integer)) and not isinstance(x, bool) and abs(x) >= 1000:
        return f"{int(x):,}"
    return x


def _table_html(df: pd.DataFrame) -> str:
    shown = df.head(MAX_ROWS).map(_cell)
    shown.columns.name = None  # a matrix's column axis name would print as a stray header cell
    return shown.to_html(index=False, classes="t", border=0, escape=True)


def rests_text(rep) -> str:
    st, i = rep.study, rep.info
    return (f"Levels of play (weakest to strongest): {', '.join(st.levels)}; headline claims stated at "
            f"{st.reference}. Seed {st.seed}; {i['games']:,} games in all; rules RULES.md unless a section says "
            f"otherwise; action decks shuffled (R1.4) unless an ordering is named"
            + ("; " + ", ".join(f"{k} plays at most {v:,} games" for k, v in st.caps.items()) + " a measurement"
               if st.caps else "") + ".")


def _games_text(rep, s) -> str:
    levels = list(s.tables["ratings"]["entrant"]) if "ratings" in s.tables else rep.study.sections[s.name]["levels"]
    who = "entrants" if "ratings" in s.tables else "levels of play"
    return f"Rests on {s.games:,} games; {who}: {', '.join(levels)}; seed {rep.study.seed}."


def _claim_row(c) -> dict:
    return dict(id=c.id, statement=c.statement, verdict=c.verdict, figure=fmt(c.value, c.unit, (c.lo, c.hi)),
                interval=fmt_ci(c.lo, c.hi, c.unit), level=c.level, rests_on=c.rests_on, command=c.command)


def html_page(rep, figs: dict) -> str:
    from jinja2 import Environment, PackageLoader, select_autoescape
    env = Environment(loader=PackageLoader("ccsim.report", "templates"), autoescape=select_autoescape(["html", "j2"]))
    sections = []
    for s in rep.sections:
        sections.append(dict(
            name=s.name, title=s.title, conclusions=s.conclusions, notes=s.notes, games_text=_games_text(rep, s),
            figures=[dict(alt=f"{s.title}: {n}", data=base64.b64encode(figs[s.name, n]).decode()) for n in s.figures],
            tables=[dict(name=n, rows=len(df), file=f"{s.name}_{n}.parquet", html=_table_html(df),
                         open=len(df) <= 12) for n, df in s.tables.items()]))
    return env.get_template("report.html.j2").render(
        title=rep.study.title, description=rep.study.description, rests=rests_text(rep), sections=sections,
        claims=[_claim_row(c) for c in rep.claims], footer=_footer(rep),
        answers=[dict(title=s.title, claims=[_claim_row(c) for c in s.claims]) for s in rep.sections])


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
    lines += ["## The answers", "", "| claim | figure | 95% interval | level | robustness |", "|---|---:|---|---|---|"]
    for c in rep.claims:
        r = _claim_row(c)
        lines.append(f"| {c.id} | {r['figure']} | {r['interval']} | {c.level} | {c.verdict} |")
    for s in rep.sections:
        lines += ["", f"## {s.title}", "", _games_text(rep, s), ""]
        lines += [f"* {line}" for line in s.conclusions] + [f"* *{note}*" for note in s.notes]
        lines += [""] + [f"![{s.title}: {n}](figures/{s.name}_{n}.png)" for n in s.figures]
        lines += ["", "Tables: " + ", ".join(f"[{n}](tables/{s.name}_{n}.parquet)" for n in s.tables)]
    lines += ["", _footer(rep), ""]
    return "\n".join(lines)

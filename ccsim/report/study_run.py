"""Running a study: plan every section's parts, play the missing ones, build the sections, write the report.

``run_study(path, out)`` is ``ccsim report STUDY.toml --out DIR``.  The study
file is validated first (``StudyError`` before any game); parts already in
``DIR/parts`` with the same key are loaded, not replayed (a damaged one is set aside, named on
stderr and played again); a Ctrl-C keeps every finished part (``StudyInterrupted``) and a rerun
resumes from them.
"""
from __future__ import annotations

import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from ccsim.report.beside import add_beside
from ccsim.report.sections.convergence import Strength, build_convergence
from ccsim.report.parts import Part, PartStore, Result
from ccsim.report.sections.balance import RECOMMENDED_FILE
from ccsim.report.sections import build, changes_toml, plan
from ccsim.report.spec import SECTIONS, Study, load_study
from ccsim.report.summary import summary_sentences

__all__ = ["run_study", "plan_study", "StudyInterrupted", "Report"]


class StudyInterrupted(KeyboardInterrupt):
    """Ctrl-C during a study: ``done`` parts were finished and kept, of ``total``."""

    def __init__(self, done: int, total: int):
        super().__init__(f"interrupted: {done} of {total} parts finished and kept; rerun to resume")
        self.done, self.total = done, total


@dataclass
class Report:
    """A built study: its sections (the convergence section last), its claims, the designer's summary
    sentences (``ccsim.report.summary``) and the levels' order by strength (``ccsim.report.sections.convergence``)."""
    study: Study
    sections: list
    claims: list
    info: dict = field(default_factory=dict)
    summary: list = field(default_factory=list)
    strength: Strength | None = None


def plan_study(st: Study) -> list[Part]:
    """Every part of every section, each once, keyed, in an order where a part follows what it needs."""
    parts, seen = [], {}
    for name in SECTIONS:
        if name not in st.sections:
            continue
        for p in plan(st, name):
            if p.name not in seen:
                seen[p.name] = p
                parts.append(p)
    keys = {}
    for p in parts:
        keys[p.name] = p.keyed(keys).key
    return parts


def _stderr(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def _progress(total: int, enabled: bool):
    if not enabled or total == 0:
        return None
    from ccsim.runner.driver import progress_bar
    # the bar of the whole study stays on screen (tqdm's own leave and smoothing)
    return progress_bar(total, desc="study", position=0, leave=True, smoothing=0.3)


def run_parts(parts: list[Part], store: PartStore | None, progress: bool = False, backend=None) -> tuple[dict, dict]:
    """{part name: Result}, loading finished parts from ``store`` and playing the others on ``backend``
    (this process by default; a Dask backend plays the same games); and counts: parts played / loaded,
    games played."""
    # loaded before any game: a damaged part (set aside by the store) joins the parts to play, and the bar
    kept = {p.name: store.load(p) for p in parts} if store is not None else {}
    results = {name: res for name, res in kept.items() if res is not None}
    todo = [p for p in parts if p.name not in results]
    bar = _progress(sum(p.games for p in todo), progress)
    played, games = 0, 0
    try:
        for p in todo:
            if bar:
                bar.set_postfix_str(p.name, refresh=True)
            tables, info = p.compute({n: results[n] for n in p.needs}, bar is not None, backend)
            results[p.name] = Result(tables, info)
            if store is not None:
                store.save(p, results[p.name])
            played += 1
            games += int(info.get("games", p.games))
            if bar:
                bar.update(p.games)
    except KeyboardInterrupt:
        raise StudyInterrupted(len(parts) - len(todo) + played, len(parts)) from None
    finally:
        if bar:
            bar.close()
    results = {p.name: results[p.name] for p in parts}  # in the study's order, whichever were loaded
    return results, dict(parts=len(parts), parts_played=played, parts_loaded=len(parts) - played, games_played=games)


def run_study(path, out, progress: bool = False, render: bool = True, backend=None, warn=_stderr) -> Report:
    """Run the study file ``path`` and write its report under ``out``; returns the Report (sections
    with their DataFrames and figures, the claims).  Raises StudyError (bad file, before any game) and
    StudyInterrupted (Ctrl-C: finished parts kept).  ``warn``: a function given one line for each
    finished part that cannot be read back and is played again (default: stderr; None for silence)."""
    st = load_study(path)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    parts = plan_study(st)
    store = PartStore(out / "parts", warn=warn)
    t0 = time.perf_counter()
    results, counts = run_parts(parts, store, progress, backend)
    sections = [build(st, name, results) for name in SECTIONS if name in st.sections]
    claims = [c for s in sections for c in s.claims]
    add_beside(claims, st.reference, st.levels, {lv for lv in st.levels if st.is_search(lv)})
    skill, strength = build_convergence(st, sections)
    parts_games = {p.name: int(results[p.name].info.get("games", p.games)) for p in parts}
    # every part once: sections that share parts (seat and game share the mirror games) count them once here
    info = dict(counts, seconds=time.perf_counter() - t0, games=sum(parts_games.values()), parts_games=parts_games,
                stale=[str(p) for p in store.stale(parts)])
    rep = Report(st, sections + [skill], claims, info, summary_sentences(claims, sections, strength, _answer(st)), strength)
    if render:
        write_report(rep, out)
    return rep


def _answer(st) -> str:
    """The fair-rules search's recommendation in its own words, when the study has a [balance] section
    whose results folder holds one (quoted, never re-worded)."""
    s = st.sections.get("balance")
    return s.get("recommendation", "") if s and s.get("found") else ""


def write_report(rep: Report, out: Path) -> None:
    """The HTML page, the Markdown summary, claims.json, every section's Parquet tables, the study file."""
    from ccsim.report.render import html_page, markdown_summary, save_figures
    st = rep.study
    tables = out / "tables"
    tables.mkdir(exist_ok=True)
    for s in rep.sections:
        for name, df in s.tables.items():
            df.to_parquet(tables / f"{s.name}_{name}.parquet", index=False)
    (out / "study.toml").write_text(st.source, encoding="utf-8")
    for name, file in (("variants", "changes.toml"), ("balance", RECOMMENDED_FILE)):
        if name in st.sections and st.sections[name]["change"]:
            (out / file).write_text(changes_toml(st.sections[name]["change"]), encoding="utf-8")
    figs = save_figures(rep.sections, out / "figures")
    (out / "claims.json").write_text(json.dumps(claims_json(rep), indent=1, default=float) + "\n", encoding="utf-8")
    (out / "summary.md").write_text(markdown_summary(rep, figs), encoding="utf-8")
    (out / "report.html").write_text(html_page(rep, figs), encoding="utf-8")



def claims_json(rep: Report) -> dict:
    """claims.json: the study, how its levels rank, the summary sentences and every claim."""
    st, strength = rep.study, rep.strength
    return dict(
        study=st.title, seed=st.seed, levels=list(st.levels), reference=st.reference, headline_level=st.reference,
        games=rep.info["games"],
        strength=dict(order=list(strength.levels), source=strength.source,
                      elo={lv: strength.key[lv] for lv in strength.levels} if strength.source == "ladder" else None),
        note="each command runs in this folder (changes.toml and recommended.toml lie here) and prints JSON; "
             "json_path locates the figure in it, ci_path its 95% interval",
        summary=[dict(text=x.text, claims=list(x.claims)) for x in rep.summary],
        claims=[c.to_json() for c in rep.claims])

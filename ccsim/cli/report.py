"""`ccsim report STUDY.toml --out DIR`: a balance study's report (ccsim.report).

Thin: validate the study file (one line and exit status 2 before any game),
run it (finished parts are kept in DIR/parts: an interrupted report resumes,
and an unchanged study plays no game), print the claims with their verdicts or
``--json``.  Ctrl-C keeps every finished part and exits with status 130.  ``--backend dask``
plays the parts on a Dask cluster: the same games, so the same report (tests/test_dask.py).
"""
from __future__ import annotations

import json
import sys

import click

from ccsim.cli.options import backend_options, cli_backend, wide_option, width_of, writable_folder


@click.command("report")
@click.argument("study", type=click.Path(dir_okay=False))
@click.option("--out", required=True, metavar="DIR", help="Folder of the report (and of its finished parts).")
@click.option("--json", "as_json", is_flag=True, help="Print what was written and the claims as one JSON object.")
@click.option("--progress/--no-progress", default=None,
              help="Progress on stderr: a bar on a terminal, else a line every 10 s [on].")
@click.option("--replicate", type=int, default=None, metavar="SEED",
              help="Then rerun every claim's command on this fresh seed and write replication.md: does each agree?")
@wide_option
@backend_options
def report_cmd(study, out, as_json, progress, replicate, wide, backend, scheduler, workers, connect_timeout):
    """Run a balance study and write its report: report.html, summary.md, claims.json, tables/."""
    from ccsim.report import StudyInterrupted, load_study, run_study
    st = load_study(study)  # a bad file fails before the folder or a cluster
    if replicate is not None and replicate == st.seed:
        raise click.UsageError(f"--replicate {replicate} is the study's own seed: replication needs fresh deals")
    folder = writable_folder(out)
    from ccsim.runner.config import ConfigError
    be = cli_backend(backend, scheduler, workers, connect_timeout)
    try:
        rep = run_study(study, folder, progress=True if progress is None else progress, backend=be)
    except StudyInterrupted as e:
        click.echo(f"ccsim: {e}", err=True)
        sys.exit(130)
    except ConfigError as e:  # the cluster failed during a part: the finished parts are kept
        raise click.ClickException(f"{e}; the finished parts are kept, rerun to resume") from None
    finally:
        be.close()
    i = rep.info
    rows = _replicate(rep, folder, replicate) if replicate is not None else None
    if as_json:
        click.echo(json.dumps(dict(out=str(folder), report=str(folder / "report.html"), games=i["games"],
                                   games_played=i["games_played"], parts=i["parts"], parts_played=i["parts_played"],
                                   parts_loaded=i["parts_loaded"], seconds=round(i["seconds"], 3),
                                   summary=[dict(text=x.text, claims=list(x.claims)) for x in rep.summary],
                                   claims=[c.to_json() for c in rep.claims],
                                   **({} if rows is None else dict(replication=[
                                       dict(id=r.id, fresh=r.fresh, agrees=r.agreement()[0], command=r.command,
                                            error=r.error) for r in rows]))), default=float))
        return
    lines = _text_lines(rep, folder, width_of(wide))
    if rows is not None:
        bad = [r.id for r in rows if not r.agreement()[0]]
        lines.append(f"replication on seed {replicate}: {len(rows) - len(bad)} of {len(rows)} claims agree "
                     f"({folder / 'replication.md'})" + (f"; not: {', '.join(bad)}" if bad else ""))
    click.echo("\n".join(lines))


def _replicate(rep, folder, seed: int) -> list:
    """Every claim's command rerun on ``seed`` (fresh deals) and replication.md written beside the report."""
    from ccsim.report.replicate import REPLICATION_FILE, command_runner, replication_markdown, rerun
    rows = rerun([c.to_json() for c in rep.claims], seed, command_runner(folder))
    (folder / REPLICATION_FILE).write_text(replication_markdown(rows, seed, rep.study.seed), encoding="utf-8")
    return rows


def _text_lines(rep, folder, width: int | None = None) -> list[str]:
    """What a terminal shows: the summary sentences, then every claim by what it measures, with its
    figure, class and verdicts, fitted to ``width`` columns (``ccsim.present.table_width``; None: no limit)."""
    from ccsim.present.table_width import Col, paragraph, table
    from ccsim.report.render import claim_row
    i = rep.info
    lines = paragraph(f"{rep.study.title}: {i['games']:,} games ({i['games_played']:,} played now; parts: "
                      f"{i['parts_played']} played, {i['parts_loaded']} kept from earlier) in {i['seconds']:.0f} s",
                      width) + [""]
    for x in rep.summary:
        lines += paragraph(f"* {x.text}", width) + [""]
    cols = [Col("what", wrap=True), Col("figure", True), Col("95% interval"), Col("level", spare=1), Col("effect"),
            Col("skill", wrap=True, spare=2), Col("robustness", wrap=True)]
    rows = [[r["title"], f"{r['figure']} {c.unit}", r["interval"], c.level, c.effect, r["skill"], c.verdict]
            for c, r in ((c, claim_row(c)) for c in rep.claims)]
    lines += table(cols, rows, width)
    lines += ["", f"report: {folder / 'report.html'}  (summary.md, claims.json, tables/, figures/)"]
    if i["stale"]:
        lines.append(f"note: {len(i['stale'])} part folders of an earlier study in {folder / 'parts'} (not used)")
    return lines

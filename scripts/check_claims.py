"""Replay the command line of every claim of a report and check its figure, or rerun it on a fresh seed.

    python scripts/check_claims.py results/balance-report [--only seat,ladder] [--out FILE.md]
    python scripts/check_claims.py results/balance-report --seed 7      # replication.md: fresh deals
    python scripts/check_claims.py results/balance-report --seed 7 --keep   # ... keeping what it replicated before

Each distinct command of ``DIR/claims.json`` is run once (in ``DIR``, where the study's
``changes.toml`` lies) and every claim's figure is looked up in its ``--json`` output
(``json_path``, its interval at ``ci_path``).  Without ``--seed`` the command replays the
claim's own games: the figure must lie within the claim's 95% interval (it should equal it).
With ``--seed S`` (another seed than the study's) it plays fresh deals and the new estimate
must agree with the shipped one, their difference within its 95% interval
(``ccsim.report.replicate``); the verdicts go to ``DIR/replication.md`` (or ``--out``).  With ``--keep``, a
claim that the replication.md already there replicated, with the very figure it ships now, keeps its row and
is not played again: a replication of hours resumes across stretches of work.
Prints one line per claim; exit status 1 when a claim fails.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from ccsim.report.replicate import REPLICATION_FILE, command_runner, kept_rows, replication_markdown, rerun


def _replayed(r) -> bool:
    return r.fresh is not None and r.shipped[1] - 1e-9 <= r.fresh[0] <= r.shipped[2] + 1e-9


def _replay_markdown(rows) -> str:
    lines = ["| claim | figure | replayed | 95% interval | within | command |", "|---|---:|---:|---|---|---|"]
    lines += [f"| {r.id} | {r.shipped[0]:.6g} | {r.fresh[0] if r.fresh else float('nan'):.6g} | [{r.shipped[1]:.6g}, "
              f"{r.shipped[2]:.6g}] | {'yes' if _replayed(r) else '**no**'} | `{r.command}` |" for r in rows]
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    from ccsim.toolchain.script_args import ScriptParser
    ap = ScriptParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder")
    ap.add_argument("--only", default="", help="comma-separated sections")
    ap.add_argument("--out", default=None, help="write the check as a Markdown table")
    ap.add_argument("--seed", type=int, default=None, help="rerun on this fresh seed and check the claims replicate")
    ap.add_argument("--skip", default="", help="comma-separated strategies (slow searches) whose claims are not "
                    "rerun; replication.md names them")
    ap.add_argument("--skip-note", default="", help="why they are left out, for replication.md")
    ap.add_argument("--keep", action="store_true", help="with --seed: keep the rows of DIR/replication.md whose "
                    "claim ships the same figure (not played again)")
    a = ap.parse_args(argv)
    folder = Path(a.folder)
    data = json.loads((folder / "claims.json").read_text())
    if a.seed is not None and a.seed == data["seed"]:
        ap.error(f"--seed {a.seed} is the study's own seed: replication needs fresh deals")
    only = {s for s in a.only.split(",") if s}
    claims = [c for c in data["claims"] if not only or c["section"] in only]
    ok = _replayed if a.seed is None else (lambda r: r.agreement()[0])

    def log(r):
        if r.kept:
            print(f"ok  {r.id:<45} kept from the replication before", flush=True)
            return
        if r.skipped:
            print(f"--  {r.id:<45} {r.error}", flush=True)
            return
        fresh = f"{r.fresh[0]:.6g} [{r.fresh[1]:.6g}, {r.fresh[2]:.6g}]" if r.fresh else f"FAILED {r.error}"
        print(f"{'ok ' if ok(r) else 'BAD'} {r.id:<45} claim {r.shipped[0]:.6g} [{r.shipped[1]:.6g}, "
              f"{r.shipped[2]:.6g}]  {'replayed' if a.seed is None else 'fresh'} {fresh}", flush=True)
    before = folder / REPLICATION_FILE
    keep = kept_rows(before.read_text(encoding="utf-8")) if a.keep and a.seed is not None and before.is_file() else None
    rows = rerun(claims, a.seed, command_runner(folder), log, skip=[n for n in a.skip.split(",") if n], keep=keep)
    left = sum(r.skipped for r in rows)
    rows_run = [r for r in rows if not r.skipped]
    bad = sum(not ok(r) for r in rows_run)
    if a.seed is not None:
        out = Path(a.out) if a.out else folder / REPLICATION_FILE
        out.write_text(replication_markdown(rows, a.seed, data["seed"], a.skip_note), encoding="utf-8")
    elif a.out:
        Path(a.out).write_text(_replay_markdown(rows_run), encoding="utf-8")
    what = "reproduced within their intervals" if a.seed is None else f"replicated on seed {a.seed}"
    print(f"{len(rows_run) - bad} of {len(rows_run)} claims {what} ({len({r.command for r in rows_run})} commands, "
          f"{sum({r.command: r.seconds for r in rows_run}.values()):.0f} s)" + (f"; {left} not rerun" if left else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

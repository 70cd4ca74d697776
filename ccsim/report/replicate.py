"""Replication on fresh seeds: every claim's measurement rerun on another seed, and whether it agrees.

Replaying a claim's command on the seed that made it plays the same games, so it can only
confirm the figure (``scripts/check_claims.py``).  Rerun with another seed, the command plays
fresh deals of the same measurement, and its estimate b *agrees* with the shipped a when their
difference lies within its 95% interval:

    |a − b| ≤ 1.96 · √(se_a² + se_b²),   se = (hi − lo) / (2 · 1.96) of each interval.

``ccsim report STUDY --out DIR --replicate S`` and ``scripts/check_claims.py DIR --seed S``
write the verdicts to ``DIR/replication.md``.
"""
from __future__ import annotations

import json
import math
import os
import re
import shlex
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from ccsim.report.claims import lookup, lookup_interval
from ccsim.report.spec import Z95
from ccsim.report.units import diff_unit, quote, with_unit

__all__ = ["with_seed", "agreement", "plays", "Rerun", "rerun", "command_runner", "replication_markdown",
           "REPLICATION_FILE", "kept_rows"]

REPLICATION_FILE = "replication.md"


def with_seed(command: str, seed: int) -> str:
    """The command line with its ``--seed`` replaced (added when it has none)."""
    if re.search(r"--seed \d+", command):
        return re.sub(r"--seed \d+", f"--seed {seed}", command)
    return f"{command} --seed {seed}"


def agreement(a: tuple, b: tuple) -> tuple[bool, float, float]:
    """(agrees, b − a, the largest difference that agrees) of two estimates (value, lo, hi)."""
    se = [(hi - lo) / (2 * Z95) for _, lo, hi in (a, b)]
    allowed = Z95 * math.hypot(*se)
    diff = b[0] - a[0]
    return abs(diff) <= allowed + 1e-12, diff, allowed


def plays(command: str, names) -> str | None:
    """The first of ``names`` (strategies) that the command line plays, else None."""
    tokens = set(re.split(r"[\s,=]+", command))
    return next((n for n in names if n in tokens), None)


@dataclass(frozen=True)
class Rerun:
    """One claim rerun: its shipped and fresh estimates (value, lo, hi), and the command that ran."""
    id: str
    unit: str
    signed: bool
    shipped: tuple
    fresh: tuple | None     # None: the command failed (``error``)
    command: str
    seconds: float = 0.0
    error: str = ""
    skipped: bool = False   # not rerun on purpose (its command plays a player left out): named, never a failure
    kept: str = ""          # the row of an earlier replication, kept as it was: the same claim, the same figure

    def agreement(self):
        if self.kept:
            return kept_agrees(self.kept), math.nan, math.nan
        return agreement(self.shipped, self.fresh) if self.fresh else (False, math.nan, math.nan)


def kept_rows(markdown: str) -> dict[str, str]:
    """{claim id: its table row} of an earlier replication.md (``replication_markdown``), rows that were rerun."""
    rows = {}
    for line in markdown.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| ") and len(cells) == 6 and cells[5] in ("yes", "**no**"):
            rows[cells[0]] = line
    return rows


def kept_agrees(row: str) -> bool:
    return row.rstrip().endswith("| yes |")


def _kept_row(c: dict, keep: dict[str, str]) -> str:
    """The earlier row of claim ``c`` if it replicated the same figure (its shipped column unchanged), else ""."""
    row = keep.get(c["id"], "")
    shipped = quote(c["value"], c["lo"], c["hi"], c["unit"], bool(c.get("signed")))
    return row if row and row.split("|")[2].strip() == shipped else ""


def command_runner(folder) -> callable:
    """A function that runs a claim's ``ccsim ...`` command line in ``folder`` (where the study's rules files
    lie) with this Python and this ccsim, and returns its JSON output; RuntimeError when it fails."""
    root = str(Path(__file__).resolve().parents[2])  # the ccsim (and strategies) that made the claims
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")])))

    def run(command: str):
        p = subprocess.run([sys.executable, "-m", "ccsim.cli", *shlex.split(command)[1:]], cwd=folder, env=env,
                           capture_output=True, text=True)
        if p.returncode != 0:
            raise RuntimeError(f"exit {p.returncode}: {(p.stderr or p.stdout).strip()[-300:]}")
        return json.loads(p.stdout.strip().splitlines()[-1])
    return run


def rerun(claims: list[dict], seed: int | None, run, log=None, skip=(), keep=None) -> list[Rerun]:
    """Every claim (claims.json entries) measured again by its command, on ``seed`` (None: its own seed);
    each distinct command runs once.  ``log(rerun)`` sees each result as it comes.  A claim whose command
    plays one of the strategies ``skip`` (a slow search) is not rerun and says so.  ``keep`` ({claim id: row},
    ``kept_rows``): a claim whose earlier row replicated the very figure it ships now keeps that row, unplayed
    (a replication resumes across stretches of work)."""
    outputs, seconds, rows = {}, {}, []
    for c in claims:
        cmd = c["command"] if seed is None else with_seed(c["command"], seed)
        row = _kept_row(c, keep or {})
        if row:
            rows.append(Rerun(c["id"], c["unit"], bool(c.get("signed")), (c["value"], c["lo"], c["hi"]), None, cmd,
                              kept=row))
            if log:
                log(rows[-1])
            continue
        left_out = plays(cmd, skip)
        if left_out:
            rows.append(Rerun(c["id"], c["unit"], bool(c.get("signed")), (c["value"], c["lo"], c["hi"]), None, cmd,
                              error=f"not rerun: its command plays {left_out}", skipped=True))
            if log:
                log(rows[-1])
            continue
        if cmd not in outputs:
            t0 = time.perf_counter()
            try:
                outputs[cmd] = run(cmd)
            except RuntimeError as e:
                outputs[cmd] = e
            seconds[cmd] = time.perf_counter() - t0
        out, fresh, error = outputs[cmd], None, ""
        if isinstance(out, RuntimeError):
            error = str(out)
        else:
            fresh = (float(lookup(out, c["json_path"])), *map(float, lookup_interval(out, c["ci_path"])))
        r = Rerun(c["id"], c["unit"], bool(c.get("signed")), (c["value"], c["lo"], c["hi"]), fresh, cmd,
                  seconds[cmd], error)
        rows.append(r)
        if log:
            log(r)
    return rows


def _row(r: Rerun) -> str:
    """A claim's row of the table."""
    if r.kept:
        return r.kept
    agrees, diff, allowed = r.agreement()
    unit = diff_unit(r.unit)
    return (f"| {r.id} | {_figure(r, r.shipped)} | {_figure(r, r.fresh)} | "
            f"{with_unit(diff, unit, (-allowed, allowed), True) if r.fresh else ''} | "
            f"{'±' + with_unit(allowed, unit, (-allowed, allowed), False) if r.fresh else ''} | "
            f"{_verdict(r, agrees)} |")


def _figure(r: Rerun, est: tuple | None) -> str:
    return ("not rerun" if r.skipped else "failed") if est is None else quote(*est, r.unit, r.signed)


def _verdict(r: Rerun, agrees: bool) -> str:
    if r.skipped:
        return "not rerun"
    return "yes" if agrees else ("**no**" if r.fresh else "**failed**: " + r.error)


def replication_markdown(rows: list[Rerun], seed: int, study_seed: int, skip_note: str = "") -> str:
    """replication.md: each claim's shipped and fresh estimates, their difference and whether they agree;
    claims left out on purpose are named with ``skip_note`` (why, and how to rerun them)."""
    ran = [r for r in rows if not r.skipped]
    ok = [r for r in ran if r.agreement()[0]]
    left = [r for r in rows if r.skipped]
    lines = [f"# Replication on a fresh seed: {seed} (the study's: {study_seed})", "",
             f"Every claim's command rerun with `--seed {seed}`: fresh deals of the same measurement. A fresh estimate "
             f"b agrees with the shipped a when |a − b| ≤ 1.96·√(se_a² + se_b²), se read off each 95% interval.",
             "",
             f"**{len(ok)} of {len(ran)} claims agree.**" + (f" {len(left)} not rerun (named below)." if left else ""),
             "", "| claim | shipped | fresh seed | difference | agrees within | agrees |", "|---|---|---|---:|---:|---|"]
    lines += [_row(r) for r in rows]
    bad = [r.id for r in ran if not r.agreement()[0]]
    if bad:
        lines += ["", "Not replicated: " + ", ".join(bad) + ". Each needs a word of explanation before it is "
                  "published (a seed-specific figure, a selection effect such as the best of many orderings "
                  "re-measured on the deals that chose it, or a real flaw)."]
    if left:
        lines += ["", "Not rerun: " + ", ".join(r.id for r in left) + "." + (f" {skip_note}" if skip_note else "")]
    kept = [r.id for r in ran if r.kept]
    if kept:
        lines += ["", "Kept from the replication before, the same claims with the same figures, not played again: "
                  + ", ".join(kept) + "."]
    lines += ["", "Commands: " + "; ".join(f"`{c}`" for c in dict.fromkeys(r.command for r in ran)), ""]
    return "\n".join(lines)

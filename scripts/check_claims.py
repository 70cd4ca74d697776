"""Replay the command line of every claim of a report and check its figure.

    python scripts/check_claims.py results/balance-report [--only seat,ladder] [--out FILE.md]

Each distinct command of ``DIR/claims.json`` is run once (in ``DIR``, where the
study's ``changes.toml`` lies) and every claim's figure is looked up in its
``--json`` output (``json_path``): it must lie within the claim's 95% interval
(it is the same games, so it should equal the claim's figure).  Prints one
line per claim and writes a Markdown table with ``--out``.
"""
from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
import time
from pathlib import Path

from ccsim.report.claims import lookup


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder")
    ap.add_argument("--only", default="", help="comma-separated sections")
    ap.add_argument("--out", default=None, help="write the check as a Markdown table")
    a = ap.parse_args(argv)
    folder = Path(a.folder)
    claims = json.loads((folder / "claims.json").read_text())["claims"]
    only = {s for s in a.only.split(",") if s}
    claims = [c for c in claims if not only or c["section"] in only]
    outputs, seconds = {}, {}
    rows, bad = [], 0
    for c in claims:
        cmd = c["command"]
        if cmd not in outputs:
            t0 = time.perf_counter()
            r = subprocess.run(shlex.split(cmd), cwd=folder, capture_output=True, text=True)
            seconds[cmd] = time.perf_counter() - t0
            if r.returncode != 0:
                print(f"FAILED ({r.returncode}): {cmd}\n{r.stderr[-400:]}", file=sys.stderr)
                outputs[cmd] = None
            else:
                outputs[cmd] = json.loads(r.stdout.strip().splitlines()[-1])
        x = None if outputs[cmd] is None else float(lookup(outputs[cmd], c["json_path"]))
        ok = x is not None and c["lo"] - 1e-9 <= x <= c["hi"] + 1e-9
        bad += not ok
        rows.append((c["id"], c["value"], x, c["lo"], c["hi"], ok, seconds[cmd], cmd))
        print(f"{'ok ' if ok else 'BAD'} {c['id']:<45} claim {c['value']:.6g}  replayed {x}  "
              f"[{c['lo']:.6g}, {c['hi']:.6g}]", flush=True)
    if a.out:
        lines = ["| claim | figure | replayed | 95% interval | within | command |", "|---|---:|---:|---|---|---|"]
        lines += [f"| {i} | {v:.6g} | {x:.6g} | [{lo:.6g}, {hi:.6g}] | {'yes' if ok else '**no**'} | `{cmd}` |"
                  for i, v, x, lo, hi, ok, _, cmd in rows]
        Path(a.out).write_text("\n".join(lines) + "\n")
    print(f"{len(rows) - bad} of {len(rows)} claims reproduced within their intervals "
          f"({len(outputs)} commands, {sum(seconds.values()):.0f} s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

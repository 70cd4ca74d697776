"""What each part of the published balance results cost on this machine: games, seconds, games/s.

    python scripts/costs.py [results/balance] [results/balance-report]

Reads the fair-rules search's ``summary.json`` (its race, re-measure, search level and skill curve, each with
the games it played and its seconds of play; games a rerun found finished count as played by the first run)
and the report's kept parts (``parts/*/info.json``: each part's games and its own clock), and prints one
Markdown table for results/BENCHMARKS-history.md (its rows, copied into results/bench/analyses.json, are
what results/BENCHMARKS.md shows).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path


def _row(what: str, games: int, seconds: float) -> str:
    speed = f"{games / seconds:,.0f}" if seconds else "n/a"
    minutes = f"{seconds / 60:.1f}" if seconds else "n/a"
    return f"| {what} | {games:,} | {minutes} | {speed} |"


def balance_rows(folder: Path) -> list[str]:
    """The search's stages: the race, the re-measure, the search level, the skill curve."""
    d = json.loads((folder / "summary.json").read_text())
    levels = ", ".join(d["space"]["levels"])
    rows = [_row(f"`ccsim balance`: the race at {levels} ({len(d['rounds'])} rounds)",
                 sum(r["games"] for r in d["rounds"]), sum(r["seconds"] for r in d["rounds"])),
            _row(f"`ccsim balance`: the fresh re-measure, {d['fresh']['deals']:,} deals a setting and level",
                 d["fresh"]["games"], d["fresh"]["seconds"])]
    if d.get("search"):
        s = d["search"]
        rows.append(_row(f"`ccsim balance`: the final candidates at `{s['level']}`, {s['deals']:,} deals an arm",
                         s["games"], s["seconds"]))
    if d.get("skill"):
        s = d["skill"]
        rows.append(_row(f"`ccsim balance`: the skill curve's other levels ({s['skill_deals']:,} deals an arm at "
                         "a search level)", s["games"], s["seconds"]))
    return rows


def report_rows(folder: Path) -> list[str]:
    """Every kept part of the report, its own clock (parts that keep none are counted without seconds)."""
    rows = []
    for info in sorted((folder / "parts").glob("*/info.json")):
        d = json.loads(info.read_text())
        if info.parent.name.endswith(".damaged"):
            continue
        rows.append(_row(f"report part `{d.get('_part', info.parent.name)}`", int(d.get("games", 0)),
                         float(d.get("seconds", 0.0))))
    return rows


def main(argv: list[str]) -> int:
    doc = __doc__.split("\n\n")
    from ccsim.toolchain.script_args import ScriptParser
    parser = ScriptParser(description=doc[0], epilog=doc[2])
    parser.add_argument("balance", nargs="?", default="results/balance", help="a ccsim balance folder [%(default)s]")
    parser.add_argument("report", nargs="?", default="results/balance-report",
                        help="a ccsim report folder [%(default)s]")
    args = parser.parse_args(argv)
    balance, report = Path(args.balance), Path(args.report)
    if not (balance / "summary.json").is_file():
        print(f"costs.py: {balance} holds no summary.json (a folder `ccsim balance --out` wrote)", file=sys.stderr)
        return 2
    print("| part | games | minutes | games/s |")
    print("|---|---:|---:|---:|")
    for line in balance_rows(balance) + report_rows(report):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

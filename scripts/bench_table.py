"""results/BENCHMARKS.md: today's speed figures as tables, written from the JSON files of results/bench/.

    python scripts/bench_table.py            # write results/BENCHMARKS.md from results/bench/*.json
    python scripts/bench_table.py --check    # exit 1 if results/BENCHMARKS.md differs from them

Each file holds the latest measurement of its kind, with its date, processor and command:

* ``engine.json``    games/s per matchup, compiled and with ``NUMBA_DISABLE_JIT=1``, start-up, peak memory
                     (``python scripts/bench.py --json results/bench/engine.json``);
* ``pairings.json``  every pairing of registered strategies (``python scripts/bench.py --all-pairings --json
                     results/bench/pairings.json``);
* ``strong.json``    the strong players and the judge, one row per matchup, each with its own date and processor
                     (``python scripts/bench_strong.py --json results/bench/strong.json``, which replaces the
                     rows it measured and keeps the others: ``--only neural-search:neural-search`` renews the
                     judge's row alone);
* ``tests.json``     how long the test suite takes (timed by hand; docs/tests.md and the README quote it);
* ``judge_profile.json``  where the judge's time goes, piece by piece (``python scripts/profile_judge.py --json
                     results/bench/judge_profile.json``);
* ``analyses.json``  what the analyses cost (copied from ``scripts/bench_analysis.py``, ``scripts/costs.py``,
                     the report's parts and ``scripts/bench_explore.py``).

The rounds of measurement, as written at the time, are in results/BENCHMARKS-history.md.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BENCH = "results/bench"
TABLE = "results/BENCHMARKS.md"
HISTORY = "BENCHMARKS-history.md"


def load(root: Path, name: str) -> dict:
    return json.loads((root / BENCH / name).read_text(encoding="utf-8"))


def _measured(d: dict) -> str:
    """Where a figure comes from: "2026-12-02, commit e5a9ce4, x86_64, …: `python scripts/bench.py`"."""
    commit = f", commit {d['commit']}" if d.get("commit") else ""
    return f"{d['date']}{commit}, {d['machine']}: `{d['command']}`"


def _speed(x: float | None) -> str:
    """A figure as its file holds it: a whole number without decimals, a decimal one with one decimal."""
    if x is None:
        return "n/a"
    return f"{x:,}" if isinstance(x, int) else f"{x:,.1f}"


def _header(*cols: str) -> list[str]:
    return ["| " + " | ".join(c for c, _ in cols) + " |", "|" + "|".join(a for _, a in cols) + "|"]


def matchups_section(engine: dict) -> list[str]:
    """games/s of the engine's matchups on 1 and 2 threads, and random's mirror with the JIT off."""
    lines = ["## Games per second", "",
             *_header(("cleopatra", "---"), ("caesar", "---"), ("1 thread", "---:"), ("2 threads", "---:"),
                      ("`NUMBA_DISABLE_JIT=1`, 1 thread", "---:"), ("compiled / JIT off", "---:"))]
    for m in engine["matchups"]:
        off = (m["cleopatra"], m["caesar"]) == ("random", "random")
        lines.append(f"| {m['cleopatra']} | {m['caesar']} | {_speed(m['games_per_s_1t'])} | "
                     f"{_speed(m['games_per_s_2t'])} | "
                     + (f"{_speed(engine['jit_off_random_random'])} | {engine['speedup_vs_jit_off_1t']}× |" if off
                        else "— | — |"))
    return lines + ["", f"{engine['games_matchup']:,} games a matchup and run, {engine['games_jit_off']:,} with the "
                    f"JIT off; medians of 3 runs in one process; the ratio pairs each interpreted run with a compiled "
                    f"one just before it. Measured {_measured(engine)}.", ""]


def pairings_section(pairings: dict) -> list[str]:
    """Every pairing of registered strategies on 2 threads, slowest first."""
    rows = sorted(pairings["pairings"], key=lambda p: p["games_per_s_2t"])
    lines = ["## Every pairing of registered strategies (2 threads)", "",
             *_header(("cleopatra", "---"), ("caesar", "---"), ("games/s", "---:"))]
    lines += [f"| {p['cleopatra']} | {p['caesar']} | {_speed(p['games_per_s_2t'])} |" for p in rows]
    return lines + ["", f"{pairings['games_pairing']:,} games a pairing, slowest first: the last run of every "
                    f"pairing, on the engine before its rewrite (the rewrite plays them as fast or faster, side by "
                    f"side: {HISTORY}). Measured {_measured(pairings)}.", ""]


def strong_section(strong: dict) -> list[str]:
    """The strong players and the judge (`neural-search`'s mirror), each row with its own date and processor."""
    lines = ["## The strong players' speed", "",
             "Each matchup compiled and warmed first, then the median of 3 runs of fresh games, in one process "
             "(`scripts/bench_strong.py`) or as a user times it (`ccsim run --json` in a new process, its "
             "`games_per_s`). The judge is `neural-search`: its mirror is the row `neural-search` against itself.", "",
             *_header(("cleopatra", "---"), ("caesar", "---"), ("threads", "---:"), ("games a run", "---:"),
                      ("games/s", "---:"), ("timed", "---"), ("date", "---"), ("processor", "---"),
                      ("command", "---"))]
    for r in strong["rows"]:
        commit = f" (commit {r['commit']})" if r.get("commit") else ""
        lines.append(f"| `{r['cleopatra']}` | `{r['caesar']}` | {r['threads']} | {r['games']:,} | "
                     f"{_speed(r['games_per_s'])} | {r['how']} | {r['date']}{commit} | {r['machine']} | "
                     f"`{r['command']}` |")
    return lines + [""]


def judge_profile_section(profile: dict) -> list[str]:
    """Where the judge's time goes (scripts/profile_judge.py writes both the file and this table)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from profile_judge import markdown
    return ["## Where the judge's time goes", "", markdown(profile), ""]


def analyses_section(analyses: dict) -> list[str]:
    """What the analyses cost: their games, minutes of play and games/s, each with its date and processor."""
    lines = ["## What the analyses cost", "",
             "Each part's own clock; a machine shared with other work plays slower (the note says with what).", "",
             *_header(("part", "---"), ("games", "---:"), ("minutes", "---:"), ("games/s", "---:"),
                      ("date", "---"), ("processor", "---"), ("command", "---"), ("note", "---"))]
    for r in analyses["rows"]:
        games = "—" if r["games"] is None else f"{r['games']:,}"
        lines.append(f"| {r['what']} | {games} | {_speed(r['minutes'])} | {_speed(r['games_per_s'])} | "
                     f"{r['date']} | {r['machine']} | `{r['command']}` | {r.get('note', '')} |")
    lines += ["", "`ccsim explore`: from a change of one rule in the form to Cleopatra's edge under it within "
              "±1 point (95% interval), the median of 7 changes at `learned`, on 2 cores shared with other work "
              "(the load average beside it):", "",
              *_header(("run", "---"), ("load average", "---:"), ("first figure", "---:"),
                       ("edge within ±1 point", "---:"), ("date", "---"), ("processor", "---"), ("command", "---"))]
    for r in analyses["explore"]:
        lines.append(f"| {r['run']} | {r['load']:g} | {r['first_s']:g} s | {r['edge_s']:g} s | {r['date']} | "
                     f"{r['machine']} | `{r['command']}` |")
    return lines + [""]


def startup_section(engine: dict) -> list[str]:
    """Cold and warm start of `ccsim run --games 1000`, and the peak memory of long runs."""
    lines = ["## Start-up and memory", "",
             f"`ccsim run --games 1000`, the whole process, median of 3: cold (empty numba cache) "
             f"{engine['cold_start_s']:g} s, warm (cache filled) {engine['warm_start_s']:g} s.", "",
             *_header(("games of random–random in one `run`", "---:"), ("peak resident memory, MB", "---:"))]
    lines += [f"| {int(n):,} | {mb:g} |" for n, mb in engine["peak_memory_mb"].items()]
    return lines + ["", f"Measured {_measured(engine)}.", ""]


def _span(v) -> str:
    low, high = v if isinstance(v, list) else (v, v)
    return f"{low:g}" if low == high else f"{low:g}–{high:g}"


def tests_section(tests: dict) -> list[str]:
    """How long the test suite takes: the whole suite (what CI runs), its fast tier, the plain-numba run."""
    fast, plain, whole = tests["fast"], tests["plain"], tests["all"]
    lines = ["## The test suite", "",
             *_header(("run", "---"), ("time", "---:"), ("measured how", "---"), ("date", "---"))]
    lines += [f"| `{whole['command']}` | {_span(whole['minutes'])} min | {whole['how']} | {whole['date']} |",
              f"| `{fast['command']}` | {_span(fast['minutes'])} min | {fast['how']} | {fast['date']} |",
              f"| `{fast['command']}` | {_span(fast['cpu_s'])} s | {fast['cpu_how']} | {fast['cpu_date']} |",
              f"| `{fast['command']}` | {_span(fast['busy_minutes'])} min | {fast['busy_how']} | {fast['busy_date']} |",
              f"| `{plain['command']}` | {_span(plain['cpu_s'])} s | {plain['how']} | {plain['date']} |"]
    return lines + [""]


def render(root: Path = ROOT) -> str:
    """The whole of results/BENCHMARKS.md."""
    engine = load(root, "engine.json")
    lines = ["# ccsim benchmarks", "",
             "Today's figures, each with its date, processor and command. The machine is shared with other work "
             "and its speed drifts by 10–20% within minutes: compare figures measured side by side, in one run. "
             f"The rounds of measurement that led here, as written at the time: [{HISTORY}]({HISTORY}).", "",
             f"Written by `python scripts/bench_table.py` from `{BENCH}/*.json`; do not edit by hand.", ""]
    lines += matchups_section(engine)
    lines += strong_section(load(root, "strong.json"))
    lines += judge_profile_section(load(root, "judge_profile.json"))
    lines += analyses_section(load(root, "analyses.json"))
    lines += startup_section(engine)
    lines += tests_section(load(root, "tests.json"))
    lines += pairings_section(load(root, "pairings.json"))
    return "\n".join(lines).rstrip("\n") + "\n"


def main(argv: list[str] | None = None, root: Path = ROOT) -> int:
    from ccsim.toolchain.script_args import ScriptParser
    ap = ScriptParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="change nothing; exit 1 if the file differs")
    args = ap.parse_args(argv)
    path, text = root / TABLE, render(root)
    if args.check:
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            print(f"{TABLE} differs from {BENCH}/*.json: run `python scripts/bench_table.py`", file=sys.stderr)
            return 1
        return 0
    path.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

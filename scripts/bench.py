"""Benchmarks: games/s per matchup and thread count, compiled vs NUMBA_DISABLE_JIT=1,
cold and warm start of `ccsim run --games 1000`, peak memory of long runs.

    python scripts/bench.py [--quick] [--markdown results/BENCHMARKS.md]

Timings are medians of repeated runs measured in one process; the machine is
noisy, so compare ratios measured in the same run.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def games_per_s(cleo, caes, games, threads, repeats=3):
    from ccsim.config import RunConfig
    from ccsim.simulate import simulate_rows, set_threads
    set_threads(threads)
    cfg = RunConfig(games=games, cleopatra=cleo, caesar=caes).validated()
    rules = cfg.rules_vector()
    _, sids, sp, codes, _ = cfg.seats()
    simulate_rows(1, 0, 100, rules, sids, sp, codes)  # compiled / loaded from cache
    times = []
    for r in range(repeats):
        t = time.perf_counter()
        simulate_rows(1 + r, 0, games, rules, sids, sp, codes)
        times.append(time.perf_counter() - t)
    return games / statistics.median(times)


def interpreted_games_per_s(cleo, caes, games):
    """The same code with NUMBA_DISABLE_JIT=1, in a child process."""
    code = (f"import time; from ccsim.config import RunConfig; from ccsim.simulate import simulate_rows\n"
            f"cfg = RunConfig(games={games}, cleopatra='{cleo}', caesar='{caes}').validated()\n"
            f"_, sids, sp, codes, _ = cfg.seats(); t = time.perf_counter()\n"
            f"simulate_rows(1, 0, {games}, cfg.rules_vector(), sids, sp, codes)\n"
            f"print({games} / (time.perf_counter() - t))")
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def paired_jit_off_runs(games, games_off, rounds=3):
    """(compiled, interpreted) random-random games/s at 1 thread, measured back to back in
    ``rounds`` pairs: each pair shares the machine's moment, so the median of the
    per-pair ratios is steadier on a shared machine than a ratio of two separate medians."""
    compiled, off = [], []
    for _ in range(rounds):
        compiled.append(games_per_s("random", "random", games, 1, repeats=1))
        off.append(interpreted_games_per_s("random", "random", games_off))
    return compiled, off


def start_time(cache_dir: str) -> float:
    env = dict(os.environ, CCSIM_CACHE_DIR=cache_dir)
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "ccsim.cli", "run", "--games", "1000", "--no-progress"], env=env,
                   check=True, capture_output=True)
    return time.perf_counter() - t


def peak_memory_mb(games: int) -> float:
    code = (f"import resource; from ccsim.config import RunConfig; from ccsim.run import run\n"
            f"run(RunConfig(games={games}, cleopatra='random', caesar='random'))\n"
            f"print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="fewer games (a smoke run)")
    ap.add_argument("--markdown", help="write the results as Markdown here")
    ap.add_argument("--all-pairings", action="store_true", help="also every pairing of registered strategies")
    args = ap.parse_args()
    import numba
    from strategies.registry import available  # noqa: F401  (used with --all-pairings)
    n = 20_000 if args.quick else 200_000
    res = {"machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
                      f"numba {numba.__version__}", "date": datetime.date.today().isoformat(),
           "command": "python scripts/bench.py " + " ".join(sys.argv[1:]),
           "games_matchup": n, "games_pairing": n // 4, "games_jit_off": 300 if args.quick else 2000,
           "matchups": [], "pairings": []}
    for a, b in (("random", "random"), ("greedy", "greedy"), ("greedy", "random")):
        row = {"cleopatra": a, "caesar": b}
        for th in (1, 2):
            row[f"games_per_s_{th}t"] = round(games_per_s(a, b, n, th))
        res["matchups"].append(row)
        print(row, flush=True)
    if args.all_pairings:
        names = [s["name"] for s in available()]
        for i, a in enumerate(names):
            for b in names[i:]:
                row = {"cleopatra": a, "caesar": b, "games_per_s_2t": round(games_per_s(a, b, n // 4, 2))}
                res["pairings"].append(row)
                print(row, flush=True)
    compiled, jit_off = paired_jit_off_runs(n, res["games_jit_off"])
    res["jit_off_random_random"] = round(statistics.median(jit_off), 1)
    res["jit_off_compiled_1t"] = round(statistics.median(compiled))
    res["speedup_vs_jit_off_1t"] = round(statistics.median(c / i for c, i in zip(compiled, jit_off)))
    cold, warm = [], []
    for _ in range(3):  # a cold start is a compile of half a minute: the machine's moment shows in one
        with tempfile.TemporaryDirectory() as d:
            cold.append(start_time(d))
            warm.append(start_time(d))
    res["cold_start_s"] = round(statistics.median(cold), 1)
    res["warm_start_s"] = round(statistics.median(warm), 2)
    sizes = (10**5, 10**6) if args.quick else (10**5, 10**6, 10**7)
    res["peak_memory_mb"] = {str(s): round(peak_memory_mb(s), 1) for s in sizes}
    print(json.dumps(res, indent=2))
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(to_markdown(res))


def to_markdown(res) -> str:
    lines = ["# ccsim benchmarks", "", f"Machine: {res['machine']}. Produced by `{res['command']}` on "
             f"{res['date']} ({res['games_matchup']:,} games per matchup and run, {res['games_pairing']:,} per "
             f"pairing, {res['games_jit_off']:,} with the JIT off); medians of 3 runs in one process.", "",
             "## Games per second", "", "| cleopatra | caesar | 1 thread | 2 threads |", "|---|---|---:|---:|"]
    for r in res["matchups"]:
        lines.append(f"| {r['cleopatra']} | {r['caesar']} | {r['games_per_s_1t']:,} | {r['games_per_s_2t']:,} |")
    if res["pairings"]:
        lines += ["", "## Every pairing of registered strategies (2 threads)", "",
                  "| cleopatra | caesar | games/s |", "|---|---|---:|"]
        for r in sorted(res["pairings"], key=lambda r: r["games_per_s_2t"]):
            lines.append(f"| {r['cleopatra']} | {r['caesar']} | {r['games_per_s_2t']:,} |")
    lines += ["", "## Compiled against interpreted", "",
              f"random–random with `NUMBA_DISABLE_JIT=1` (same code, plain Python): "
              f"{res['jit_off_random_random']:,} games/s; compiled at 1 thread, measured right before each "
              f"interpreted run: {res['jit_off_compiled_1t']:,} games/s. Compiled is "
              f"**{res['speedup_vs_jit_off_1t']:,}×** faster (median of 3 back-to-back pairs).", "",
              "## Start-up (`ccsim run --games 1000`, whole process; medians of 3)", "",
              f"* cold (empty numba cache): {res['cold_start_s']} s",
              f"* warm (cache filled): {res['warm_start_s']} s", "",
              "## Peak memory (`run` of random–random, resident set)", "", "| games | peak MB |", "|---:|---:|"]
    for k, v in res["peak_memory_mb"].items():
        lines.append(f"| {int(k):,} | {v} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.path.insert(0, ROOT)
    main()

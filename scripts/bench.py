"""Benchmarks: games/s per matchup and thread count, compiled vs NUMBA_DISABLE_JIT=1,
cold and warm start of `ccsim run --games 1000`, peak memory of long runs; with
``--dask``, only the Dask backend against the local one (its own section of the file).

    python scripts/bench.py [--quick] [--all-pairings] [--json results/bench/engine.json] [--markdown FILE]
    python scripts/bench.py --dask [--markdown results/BENCHMARKS-history.md]

--json writes the figures where ``python scripts/bench_table.py`` reads them to write results/BENCHMARKS.md
(with --all-pairings: results/bench/pairings.json, the table of every pairing).

Timings are medians of repeated runs measured in one process; the machine is
noisy, so compare ratios measured in the same run.
"""
from __future__ import annotations

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


def processor() -> str:
    """The processor's model name (a speed figure means little without it: subnormal floats, for
    one, cost some processors eight times what they cost others)."""
    try:
        for line in open("/proc/cpuinfo", encoding="utf-8"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown processor"


def commit() -> str:
    """The checkout's commit, short (a figure is of the code it ran)."""
    p = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    return p.stdout.strip() or "unknown"


def games_per_s(cleo, caes, games, threads, repeats=3):
    from ccsim.runner.config import RunConfig
    from ccsim.kernel.simulate import simulate_rows, set_threads
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
    code = (f"import time; from ccsim.runner.config import RunConfig; from ccsim.kernel.simulate import simulate_rows\n"
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
    code = (f"import resource; from ccsim.runner.config import RunConfig; from ccsim.analyses.run import run\n"
            f"run(RunConfig(games={games}, cleopatra='random', caesar='random'))\n"
            f"print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


# --- the Dask backend against the local one ------------------------------------------------

# (worker processes, threads per worker, chunk sizes: None is the backends' defaults) on this machine
DASK_SETTINGS = ((2, 1, (None, 50_000)), (1, 2, (None,)))
DASK_SECTION = "## Dask backend against the local one"


def cpu_seconds() -> float:
    """CPU time of this process so far (user + system)."""
    import resource
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def timed_run(games: int, chunk_size: int | None, backend=None) -> tuple[float, float]:
    """(games/s as ``run`` reports it, after the warm-up; games per CPU-second of every
    process that played or scheduled them) for greedy–greedy; ``chunk_size`` None: the
    backend's default.  The second figure does not depend on what else the machine runs."""
    from ccsim.runner.config import RunConfig
    from ccsim.analyses.run import run
    workers = (lambda: sum(backend.client.run(cpu_seconds).values())) if backend else (lambda: 0.0)
    cpu0 = cpu_seconds() + workers()
    summary, _ = run(RunConfig(games=games, chunk_size=chunk_size, threads=2), backend=backend)
    return summary["games_per_s"], games / (cpu_seconds() + workers() - cpu0)


def cli_seconds(*flags: str, games: int) -> float:
    """Wall time of a whole ``ccsim run`` process: start-up, cluster, warm-up and games."""
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "ccsim.cli", "run", "--games", str(games), "--no-progress", *flags],
                   check=True, capture_output=True)
    return time.perf_counter() - t


def setting_row(nw, nt, cs, games, be, warm_s, local, dask) -> dict:
    """One setting's figures from its (games/s, games per CPU-second) pairs."""
    from ccsim.runner.backends import LocalBackend
    ratios = [d[0] / lo[0] for d, lo in zip(dask, local)]
    return {"workers": nw, "threads_per_worker": nt, "flags": f"--chunk-size {cs}" if cs else "defaults",
            "local_chunk_size": cs or LocalBackend().chunk_size(games), "dask_chunk_size": cs or be.chunk_size(games),
            "warm_up_s": round(warm_s, 2),
            "local_games_per_s": round(statistics.median(x[0] for x in local)),
            "dask_games_per_s": round(statistics.median(x[0] for x in dask)),
            "ratio": round(statistics.median(ratios), 3), "ratios": [round(x, 3) for x in ratios],
            "local_games_per_cpu_s": round(statistics.median(x[1] for x in local)),
            "dask_games_per_cpu_s": round(statistics.median(x[1] for x in dask))}


def dask_against_local(games: int, rounds: int) -> dict:
    """Each Dask setting and the local backend run back to back, ``rounds`` times: the
    machine is shared, so the ratio of a pair (same moment) is the figure, medians of them."""
    from ccsim.runner.backends import DaskBackend, chunk_tasks, local_cluster, play_chunk, warmup_task
    from ccsim.runner.config import RunConfig
    res = {"games": games, "rounds": rounds, "settings": []}
    timed_run(1000, 1000)  # the local kernels loaded
    for nw, nt, chunk_sizes in DASK_SETTINGS:
        with local_cluster(nw, nt) as c:
            with DaskBackend(c.scheduler_address) as be:
                t = time.perf_counter()  # fresh workers: loading the kernels from numba's cache
                be.warm(play_chunk, warmup_task(chunk_tasks(RunConfig(games=1).validated())[0]))
                warm_s = time.perf_counter() - t
                for cs in chunk_sizes:
                    local, dask = [], []
                    for r in range(rounds):  # which goes first alternates: a drifting machine favours neither
                        pair = [lambda: local.append(timed_run(games, cs)),
                                lambda: dask.append(timed_run(games, cs, be))]
                        for measure in pair[::1 if r % 2 == 0 else -1]:
                            measure()
                    res["settings"].append(setting_row(nw, nt, cs, games, be, warm_s, local, dask))
                    print(res["settings"][-1], flush=True)
    local_cli = cli_seconds(games=games)  # each with its defaults
    dask_cli = cli_seconds("--backend", "dask", "--workers", "2", games=games)
    res["cli_seconds"] = {"local": round(local_cli, 1), "dask_workers_2": round(dask_cli, 1)}
    return res


def dask_markdown(res, meta) -> str:
    lines = [DASK_SECTION, "", f"Machine: {meta['machine']}. Produced by `{meta['command']}` on {meta['date']}: "
             f"`ccsim run` of {res['games']:,} greedy–greedy games, the local backend (2 threads) and a Dask "
             f"cluster of this machine's 2 cores joined by address, run back to back {res['rounds']} times per "
             f"setting (which goes first alternates); games/s as the run reports them (after the warm-up), "
             f"medians; the ratio is the median of the pairs' ratios.  Games per CPU-second count every process "
             f"that played or scheduled the games (the client, the scheduler, the workers): what each backend "
             f"makes of the CPU it gets, which other work on the machine moves much less than games/s.", "",
             "| Dask workers × threads | flags | chunk size local / Dask | local games/s | Dask games/s | "
             "Dask / local | ratios, pair by pair | games per CPU-s local / Dask | warm-up |",
             "|---|---|---:|---:|---:|---:|---|---:|---:|"]
    for r in res["settings"]:
        lines.append(f"| {r['workers']} × {r['threads_per_worker']} | {r['flags']} | "
                     f"{r['local_chunk_size']:,} / {r['dask_chunk_size']:,} | "
                     f"{r['local_games_per_s']:,} | {r['dask_games_per_s']:,} | **{r['ratio']:.0%}** | "
                     f"{', '.join(f'{x:.2f}' for x in r['ratios'])} | "
                     f"{r['local_games_per_cpu_s']:,} / {r['dask_games_per_cpu_s']:,} | {r['warm_up_s']} s |")
    c = res["cli_seconds"]
    lines += ["", f"Whole commands (`ccsim run --games {res['games']:,}`, process start to exit, once each): "
              f"local {c['local']} s, `--backend dask --workers 2` {c['dask_workers_2']} s (it also starts the "
              f"cluster, about 4 s, and loads the kernels in each worker, and stops the cluster)."]
    return "\n".join(lines) + "\n"


def replace_section(text: str, heading: str, section: str) -> str:
    """``text`` with the section under ``heading`` (up to the next ``## ``) replaced, or appended."""
    start = text.find(heading + "\n")
    if start < 0:
        return text.rstrip("\n") + "\n\n" + section
    end = text.find("\n## ", start + len(heading))
    return text[:start] + section + (text[end:] if end >= 0 else "")


def main():
    from ccsim.toolchain.script_args import ScriptParser
    ap = ScriptParser()
    ap.add_argument("--quick", action="store_true", help="fewer games (a smoke run)")
    ap.add_argument("--markdown", help="write the results as Markdown here")
    ap.add_argument("--json", help="write the results as JSON here (results/bench/, read by bench_table.py)")
    ap.add_argument("--all-pairings", action="store_true", help="also every pairing of registered strategies")
    ap.add_argument("--dask", action="store_true",
                    help="only the Dask backend against the local one (10^6 games; its section of --markdown)")
    ap.add_argument("--rounds", type=int, default=6, help="back-to-back pairs per Dask setting [6]")
    ap.add_argument("--game-api", action="store_true",
                    help="only the Game API's speed and the start-up times (their section of --markdown)")
    args = ap.parse_args()
    if args.game_api:
        return main_game_api(args)
    if args.dask:
        return main_dask(args)
    import numba
    from strategies.registry import available  # noqa: F401  (used with --all-pairings)
    n = 20_000 if args.quick else 200_000
    res = {"machine": f"{processor()}, {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
                      f"numba {numba.__version__}", "date": datetime.date.today().isoformat(),
           "command": "python scripts/bench.py " + " ".join(sys.argv[1:]), "commit": commit(),
           "games_matchup": n, "games_pairing": n // 4, "games_jit_off": 300 if args.quick else 2000,
           "matchups": [], "pairings": []}
    for a, b in (("random", "random"), ("greedy", "greedy"), ("greedy", "random")):
        row = {"cleopatra": a, "caesar": b}
        for th in (1, 2):
            row[f"games_per_s_{th}t"] = round(games_per_s(a, b, n, th))
        res["matchups"].append(row)
        print(row, flush=True)
    if args.all_pairings:
        names = [s["name"] for s in available() if s["family"] != "search"]  # expert: expert_trace.py
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
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            f.write(json.dumps(res, indent=1) + "\n")
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(to_markdown(res))


GAME_API_SECTION = "## The Game API and start-up"


def game_api_games_per_s(games: int) -> tuple[float, float]:
    """(games/s, decisions/s) of random legal games through ``ccsim.Game`` in Python, every
    decision's options described with ``legal()`` before one is picked."""
    import random
    from ccsim.play.game import Game
    Game(seed=99).legal()  # loaded
    pick = random.Random(5)
    decisions = 0
    t = time.perf_counter()
    for i in range(games):
        g = Game(seed=3, game=i)
        while not g.over:
            g.step(pick.randrange(len(g.legal())))
            decisions += 1
    dt = time.perf_counter() - t
    return games / dt, decisions / dt


def main_game_api(args):
    """The Game API's speed and the start-up times, into their section of --markdown."""
    import numba
    games = 50 if args.quick else 300
    rounds = [game_api_games_per_s(games) for _ in range(3)]
    cold, warm = [], []
    for _ in range(1 if args.quick else 3):
        with tempfile.TemporaryDirectory() as d:
            cold.append(start_time(d))
            warm.append(start_time(d))
    res = {"machine": f"{processor()}, {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
                      f"numba {numba.__version__}", "date": datetime.date.today().isoformat(),
           "command": "python scripts/bench.py " + " ".join(sys.argv[1:]), "games": games,
           "games_per_s": round(statistics.median(r[0] for r in rounds), 1),
           "decisions_per_s": round(statistics.median(r[1] for r in rounds)),
           "cold_start_s": round(statistics.median(cold), 1), "warm_start_s": round(statistics.median(warm), 2),
           "cold_runs": [round(x, 1) for x in cold], "warm_runs": [round(x, 2) for x in warm]}
    print(json.dumps(res, indent=2))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            f.write(json.dumps(res, indent=1) + "\n")
    if args.markdown:
        section = "\n".join([
            GAME_API_SECTION, "",
            f"Machine: {res['machine']}. Produced by `{res['command']}` on {res['date']}.", "",
            f"* `ccsim.Game` in Python, random legal games with `legal()` described at every decision: "
            f"**{res['games_per_s']} games/s** ({res['decisions_per_s']:,} decisions/s; median of 3 rounds of "
            f"{games} games).",
            f"* `ccsim run --games 1000`, whole process: cold (empty numba cache) **{res['cold_start_s']} s** "
            f"(runs: {', '.join(map(str, res['cold_runs']))}), warm **{res['warm_start_s']} s** "
            f"(runs: {', '.join(map(str, res['warm_runs']))}).", ""])
        with open(args.markdown) as f:
            text = f.read()
        with open(args.markdown, "w") as f:
            f.write(replace_section(text, GAME_API_SECTION, section))


def main_dask(args):
    import numba
    meta = {"machine": f"{processor()}, {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
                       f"numba {numba.__version__}", "date": datetime.date.today().isoformat(),
            "command": "python scripts/bench.py " + " ".join(sys.argv[1:])}
    games = 100_000 if args.quick else 1_000_000
    res = dask_against_local(games, rounds=1 if args.quick else args.rounds)
    print(json.dumps({**meta, **res}, indent=2))
    if args.markdown:
        with open(args.markdown) as f:
            text = f.read()
        with open(args.markdown, "w") as f:
            f.write(replace_section(text, DASK_SECTION, dask_markdown(res, meta)))


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

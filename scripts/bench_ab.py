"""Games/s of this checkout against another one, side by side in one run.

    git worktree add /tmp/old 82d0697
    python scripts/bench_ab.py --old /tmp/old [--rounds 6] [--procs 6] [--pairs random:random:30000,...]
                               [--markdown results/BENCHMARKS-history.md]
    python scripts/bench_ab.py --old . --old-env CCSIM_PLAIN_NUMBA=1    # this checkout against plain numba

A speed claim between two commits measured minutes apart on a shared machine
measures the machine: its speed drifts by 10-20% within minutes.  This script
starts worker processes for each checkout (six by default: a process's speed is
drawn at its start, the same commit's processes up to 1.5 times apart on this
machine, while one process repeats itself to 1%), all pinned to the same core,
and asks them in turn (old, new, old, new, ...) to play the same games of each
pairing with one thread; each figure is games per CPU-second of the playing
thread.  It reports, per pairing, the median of the round-by-round ratios
(new / old) and the ratio of the best rounds.  The workers use only
interfaces both engines have (``RunConfig``, ``simulate_rows``).
"""
from __future__ import annotations

import datetime as dt
import os
import platform
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

WORKER = r"""
import sys, time
import os, ccsim
# the checkout's own layout, by its files: an import that fails over to another path would
# reach an editable install's ccsim and mix two checkouts in one process
if os.path.isdir(os.path.join(os.path.dirname(ccsim.__file__), "runner")):
    from ccsim.runner.config import RunConfig
    from ccsim.kernel.simulate import simulate_rows, set_threads
else:  # a checkout from before the layered layout (ccsim.config, no ccsim.runner)
    from ccsim.config import RunConfig
    from ccsim.simulate import simulate_rows, set_threads
set_threads(1)
seats = {}
for line in sys.stdin:
    a, b, n = line.split()
    n = int(n)
    if (a, b) not in seats:
        cfg = RunConfig(games=n, cleopatra=a, caesar=b).validated()
        _, sids, sp, codes, _ = cfg.seats(False)
        seats[a, b] = (cfg.rules_vector(), sids, sp, codes)
        simulate_rows(1, 0, 200, *seats[a, b])
    t = time.thread_time()
    simulate_rows(1, 0, n, *seats[a, b])
    print(n / (time.thread_time() - t), flush=True)
"""

DEFAULT_PAIRS = "random:random:30000,greedy:greedy:6000,tactician:defender:2000"


def spawn(checkout: str, core: str, extra_env: dict | None = None):
    env = dict(os.environ, PYTHONPATH=checkout, **(extra_env or {}))
    return subprocess.Popen(["taskset", "-c", core, sys.executable, "-c", WORKER], cwd=checkout, env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)


def ask(proc, a, b, n) -> float:
    proc.stdin.write(f"{a} {b} {n}\n")
    proc.stdin.flush()
    return float(proc.stdout.readline())


def compare(old_dir: str, new_dir: str, pairs, rounds: int, procs: int = 6, core: str = "1",
            old_env: dict | None = None) -> list[dict]:
    """Per pairing, ``rounds`` rounds; in each, every worker process of each checkout plays the
    games once, old and new in turn.  Several processes per checkout because a process's speed
    is drawn at its start (results/BENCHMARKS-history.md, "How far to trust a ratio"), a difference
    that is neither commit's."""
    olds = [spawn(old_dir, core, old_env) for _ in range(procs)]
    news = [spawn(new_dir, core) for _ in range(procs)]
    rows = []
    try:
        for a, b, n in pairs:
            for proc in olds + news:
                ask(proc, a, b, 200)
            o, w, ratios = [], [], []
            for r in range(rounds):
                for k in range(procs):
                    first, second = (olds[k], news[k]) if (r + k) % 2 == 0 else (news[k], olds[k])
                    x, y = ask(first, a, b, n), ask(second, a, b, n)
                    old_x, new_y = (x, y) if first is olds[k] else (y, x)
                    o.append(old_x)
                    w.append(new_y)
                    ratios.append(new_y / old_x)
            rows.append({"cleopatra": a, "caesar": b, "games": n, "rounds": rounds, "procs": procs,
                         "old_median": statistics.median(o), "new_median": statistics.median(w),
                         "old_best": max(o), "new_best": max(w), "median_ratio": statistics.median(ratios),
                         "best_ratio": max(w) / max(o)})
            print(f"{a}-{b}: old {max(o):,.0f} new {max(w):,.0f} games/s (best rounds); "
                  f"median round ratio {rows[-1]['median_ratio']:.3f}", flush=True)
    finally:
        for proc in olds + news:
            proc.stdin.close()
            proc.wait()
    return rows


def to_markdown(rows, old_rev: str, new_rev: str) -> str:
    lines = [f"## This commit against {old_rev}, side by side", "",
             f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}. "
             f"Produced by `python scripts/bench_ab.py --old <checkout of {old_rev}>` on {dt.date.today()} "
             f"(this checkout: {new_rev}): {rows[0]['procs'] if rows else 0} worker processes per checkout, all "
             "pinned to one core, asked in turn (old, new) for the same games with one thread; games per "
             "CPU-second of the playing thread; a ratio is a new figure over the old one of the same round.", "",
             "| cleopatra | caesar | games a round | rounds × processes | old (best) | new (best) | "
             "new / old, best | new / old, median of the rounds |",
             "|---|---|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        lines.append(f"| {r['cleopatra']} | {r['caesar']} | {r['games']:,} | {r['rounds']} × {r['procs']} | "
                     f"{r['old_best']:,.0f} | "
                     f"{r['new_best']:,.0f} | {r['best_ratio']:.2f} | {r['median_ratio']:.2f} |")
    return "\n".join(lines) + "\n"


def git_rev(path: str) -> str:
    out = subprocess.run(["git", "-C", path, "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    return out.stdout.strip() or "?"


def main():
    from ccsim.toolchain.script_args import ScriptParser
    ap = ScriptParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", required=True, help="a checkout of the commit to compare with")
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--procs", type=int, default=6, help="worker processes per checkout")
    ap.add_argument("--pairs", default=DEFAULT_PAIRS, help="cleopatra:caesar:games,...")
    ap.add_argument("--markdown", help="append the table to this Markdown file")
    ap.add_argument("--old-env", action="append", default=[], metavar="KEY=VALUE",
                    help="an environment variable for the old checkout's workers only (repeatable)")
    a = ap.parse_args()
    pairs = [(x, y, int(n)) for x, y, n in (p.split(":") for p in a.pairs.split(","))]
    old_env = dict(kv.split("=", 1) for kv in a.old_env)
    rows = compare(a.old, ROOT, pairs, a.rounds, a.procs, old_env=old_env)
    old_rev = git_rev(a.old) + "".join(f" with {kv}" for kv in a.old_env)
    md = to_markdown(rows, old_rev, git_rev(ROOT))
    print(md)
    if a.markdown:
        with open(a.markdown, "a", encoding="utf-8") as f:
            f.write("\n" + md)


if __name__ == "__main__":
    main()

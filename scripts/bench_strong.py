"""The strong players' speed: games/s of `learned`, `neural` and the search players (the targets: `learned` and `neural` at heuristic speed, the searches at many games a second).

    python scripts/bench_strong.py [--json results/bench/strong.json] [--repeats 3] [--only A:B,C:D]

Each matchup is timed in this process, compiled and warmed first, on 2 threads (and 1 for the
learned player's mirror), as the median of ``--repeats`` runs of fresh games; a search player's
matchups play fewer games (it plays a few to a few dozen a second).  --json replaces the rows of the matchups
it timed (each with its date, processor and command) and keeps the others: ``--only neural-search:neural-search
--json results/bench/strong.json`` renews the judge's row alone; then ``python scripts/bench_table.py`` writes
results/BENCHMARKS.md.  --markdown replaces its section ("## The strong players' speed") of a diary such as
results/BENCHMARKS-history.md, the rest of the file kept.
"""
from __future__ import annotations

import datetime
import os
import platform
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import processor, replace_section  # noqa: E402

SECTION = "## The strong players' speed"
MATCHUPS = (  # (cleopatra, caesar, games a run, threads)
    ("tactician", "tactician", 40_000, 2),
    ("learned", "learned", 40_000, 2),
    ("learned", "learned", 20_000, 1),
    ("learned", "tactician", 40_000, 2),
    ("neural", "neural", 20_000, 2),
    ("neural", "neural", 10_000, 1),
    ("neural", "tactician", 20_000, 2),
    ("master", "tactician", 120, 2),
    ("neural-search", "tactician", 120, 2),
    ("neural-search", "neural-search", 80, 2),  # the judge's mirror (issue 54: 3x its games/s)
    ("expert", "tactician", 40, 2),
    ("expert-b256", "tactician", 12, 2),
)


def games_per_s(a: str, b: str, games: int, threads: int, repeats: int) -> float:
    from ccsim.kernel.simulate import set_threads, simulate_rows
    from ccsim.runner.config import RunConfig
    set_threads(threads)
    cfg = RunConfig(games=games, cleopatra=a, caesar=b).validated()
    _, sids, sp, codes, _ = cfg.seats()
    rules = cfg.rules_vector()
    simulate_rows(1, 0, 2, rules, sids, sp, codes)  # compiled / loaded from the cache
    times = []
    for r in range(repeats):
        t = time.perf_counter()
        simulate_rows(100 + r, 0, games, rules, sids, sp, codes)
        times.append(time.perf_counter() - t)
    return games / statistics.median(times)


CLI_MATCHUPS = (("neural", "neural", 20_000),  # the same figure as a user gets it: `ccsim run` in a new process
                ("neural-search", "neural-search", 80))


def cli_games_per_s(a: str, b: str, games: int) -> float:
    """games/s that ``ccsim run --json`` reports for the matchup (2 threads, a new process, the
    kernels loaded from numba's cache: the first, warming run is not counted)."""
    import json
    import subprocess
    cmd = ["ccsim", "run", "--games", str(games), "--cleopatra", a, "--caesar", b, "--threads", "2", "--json"]
    subprocess.run(cmd[:3] + [str(min(200, games))] + cmd[4:], check=True, capture_output=True)  # compiled / cached
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return float(json.loads(out)["games_per_s"])


def forward_rate(subnormal: bool, rows: int = 4000, repeats: int = 5) -> float:
    """Network evaluations a second (one observation layer and one option each, compiled, one thread) on
    the decisions of real games, with the shipped weights or with every weight the floor flushed to zero
    set to a subnormal float instead (``1e-41``: what weight decay had left there) -- the processor's
    price for subnormal products, measured in one process."""
    import numpy as np
    from numba import njit
    from ccsim.training.branches import play_task
    from ccsim.training.neural_train import game_setup, task_of
    from strategies.neural import shipped_weights
    from strategies.neural.model import H1, H2, N_HEADS, N_W1, N_B1, obs_layer_nb, option_value_nb

    @njit
    def forward_rows(net, obs, opt, out, h0, h1, h2):
        for r in range(obs.shape[0]):
            obs_layer_nb(net, obs[r], h0)
            option_value_nb(net, h0, opt[r], h1, h2, out[r])

    w, margin = shipped_weights()
    if subnormal:
        w = w.copy()
        zero = np.zeros(len(w), bool)
        zero[N_W1:N_B1] = w[N_W1:N_B1] == 0
        w[zero] = np.float32(1e-41)
    rules, orders = game_setup()
    s = play_task(task_of(5, 0, 400, (0, 0), [(w, margin)], rules, orders, 0.3))
    obs, opt = s.obs[:rows], s.opt[:rows, 0].copy()
    out = np.zeros((len(obs), N_HEADS), np.float32)
    scratch = (np.zeros(H1, np.float32), np.zeros(H1, np.float32), np.zeros(H2, np.float32))
    forward_rows(w, obs, opt, out, *scratch)
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        forward_rows(w, obs, opt, out, *scratch)
        times.append(time.perf_counter() - t)
    return len(obs) / statistics.median(times)


def neural_profile(rows) -> str:
    """Where `neural`'s mirror spends its time, from three mirrors of the same run on 2 threads: the game and
    the tactician's tables (`tactician`'s mirror), the option features (`learned`'s, which reads them, less
    that), the value network (`neural`'s, which reads both, less `learned`'s)."""
    us = {a: 1e6 / gps for a, b, n, th, gps in rows if a == b and th == 2}
    if not {"tactician", "learned", "neural"} <= us.keys():
        return ""
    game, features = us["tactician"], us["learned"] - us["tactician"]
    network = us["neural"] - us["learned"]
    return (f"Where `neural`'s mirror spends its time (µs of wall time a game on 2 threads, from the mirrors above, each player "
            f"reading the one before it): the game and the tactician's tables {game:.0f} ({game / us['neural']:.0%}, "
            f"`tactician`'s mirror), the option features {features:.0f} ({features / us['neural']:.0%}, `learned`'s "
            f"mirror less that), the value network {network:.0f} ({network / us['neural']:.0%}: encoding the "
            f"observation and the options, the first layer once a decision and every candidate's pass). The "
            f"network is where a faster `neural` must come from.")


def markdown(rows, meta, cli_rows=(), forward=None) -> str:
    lines = [SECTION, "",
             f"`{meta['command']}` on {meta['date']} ({meta['machine']}): games/s of each matchup, the median of "
             f"{meta['repeats']} runs of fresh games in one process, compiled and warmed first. The targets: `learned` ≥ 2,000 games/s in its mirror on 2 threads; `master` ≥ 20 games/s against "
             f"`tactician`; `neural` ≥ 2,000 games/s in its mirror on 2 threads; `neural-search` "
             f"≥ 3 times `master`'s games/s against `tactician` (both in this run).", "",
             "| cleopatra | caesar | threads | games a run | games/s |", "|---|---|---:|---:|---:|"]
    for a, b, n, th, gps in rows:
        lines.append(f"| `{a}` | `{b}` | {th} | {n:,} | {gps:,.1f} |")
    if cli_rows:
        lines += ["", "The same matchups as a user times them, `ccsim run --games N --cleopatra A --caesar B "
                  "--threads 2 --json` in a new process (its `games_per_s`), beside this script's figure:", "",
                  "| cleopatra | caesar | games | `ccsim run` games/s | this script's | ratio |", "|---|---|---:|---:|---:|---:|"]
        mine = {(a, b): gps for a, b, n, th, gps in rows if th == 2}
        for a, b, n, gps in cli_rows:
            lines.append(f"| `{a}` | `{b}` | {n:,} | {gps:,.1f} | {mine[(a, b)]:,.1f} | {gps / mine[(a, b)]:.2f} |")
    profile = neural_profile(rows)
    if profile:
        lines += ["", profile]
    if forward:
        lines += ["", f"Subnormal floats: the network's forward (an observation layer and one option, compiled, one "
                  f"thread, on the decisions of real games) runs at {forward['shipped']:,.0f} evaluations a second with "
                  f"the shipped weights and {forward['subnormal']:,.0f} with the weights the floor flushed to zero set "
                  f"to a subnormal 1e-41 instead ({forward['shipped'] / forward['subnormal']:.2f} times faster "
                  f"flushed), on this processor. Weight decay had left 6,764 of the network's weights below 1e-20, "
                  f"1,327 of them subnormal; some processors run every product with one through a slow microcode "
                  f"path (an Intel Xeon played the mirror at about 400 games/s with them, 3,267 without), others "
                  f"pay little, which is why the table's earlier figure (2,109) did not hold on every machine. Since "
                  f"then no weight below 1e-20 is written or read (`strategies/neural/model.py`: `WEIGHT_FLOOR`), "
                  f"the games unchanged."]
    return "\n".join(lines) + "\n"


def json_rows(rows, cli_rows, meta) -> list[dict]:
    """The timed matchups as results/bench/strong.json's rows, each with its date, processor and command."""
    def row(a, b, n, th, gps, how):
        return {"cleopatra": a, "caesar": b, "threads": th, "games": n, "games_per_s": round(gps, 1), "how": how,
                "date": meta["date"], "machine": meta["machine"], "command": meta["command"].strip()}
    return ([row(a, b, n, th, gps, "in one process") for a, b, n, th, gps in rows]
            + [row(a, b, n, 2, gps, "ccsim run") for a, b, n, gps in cli_rows])


def merged(old: list[dict], new: list[dict]) -> list[dict]:
    """``old`` with each row of a matchup timed again replaced in its place, new matchups appended."""
    def key(r):
        return r["cleopatra"], r["caesar"], r["threads"], r["how"]
    fresh = {key(r): r for r in new}
    out = [fresh.pop(key(r), r) for r in old]
    return out + list(fresh.values())


def write_json(path: str, rows: list[dict]) -> None:
    import json
    old = json.loads(open(path, encoding="utf-8").read())["rows"] if os.path.exists(path) else []
    with open(path, "w", encoding="utf-8") as f:
        f.write(json.dumps({"rows": merged(old, rows)}, indent=1, ensure_ascii=False) + "\n")


def main(argv=None):
    from ccsim.toolchain.script_args import ScriptParser
    ap = ScriptParser(description=__doc__.split("\n")[0])
    ap.add_argument("--markdown", help="a diary whose section of this benchmark is replaced")
    ap.add_argument("--json", help="results/bench/strong.json: the timed matchups' rows replaced, the others kept")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--only", help="cleopatra:caesar,... : only these matchups (no --markdown then)")
    args = ap.parse_args(argv)
    only = {tuple(p.split(":")) for p in args.only.split(",")} if args.only else None
    if only and args.markdown:
        ap.error("--only measures a few matchups: it does not rewrite the section")
    rows = []
    for a, b, n, th in MATCHUPS:
        if only and (a, b) not in only:
            continue
        gps = games_per_s(a, b, n, th, args.repeats)
        rows.append((a, b, n, th, gps))
        print(f"{a} vs {b}, {th} threads: {gps:,.1f} games/s", flush=True)
    cli_rows = []
    for a, b, n in CLI_MATCHUPS:
        if only and (a, b) not in only:
            continue
        cli_rows.append((a, b, n, cli_games_per_s(a, b, n)))
        print(f"ccsim run {a} vs {b}: {cli_rows[-1][3]:,.1f} games/s", flush=True)
    meta = {"command": "python scripts/bench_strong.py " + " ".join(argv or sys.argv[1:]),
            "date": datetime.date.today().isoformat(), "repeats": args.repeats,
            "machine": f"{processor()}, {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"}
    if args.json:
        write_json(args.json, json_rows(rows, cli_rows, meta))
    if only:
        return
    forward = {"shipped": forward_rate(False), "subnormal": forward_rate(True)}
    print(f"network forward: {forward}", flush=True)
    if args.markdown:
        with open(args.markdown, encoding="utf-8") as f:
            text = f.read()
        with open(args.markdown, "w", encoding="utf-8") as f:
            f.write(replace_section(text, SECTION, markdown(rows, meta, cli_rows, forward)))


if __name__ == "__main__":
    main()

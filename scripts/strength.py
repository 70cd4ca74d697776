"""The strength certificate of every level of play: results/strength/.

    python scripts/strength.py ladder   [--games 10000] [--search-games 100] [--seed 2026120401]
    python scripts/strength.py trace    [--player expert|master] [--games 300] [--seed ...]
    python scripts/strength.py exploit  [--games 400] [--seed ...]
    python scripts/strength.py headroom [--games 300] [--seed ...]
    python scripts/strength.py targets  [--learned-deals 5000] [--master-deals 500]
    python scripts/strength.py seats    [--games 20000] [--search-games 12000] [--mirror-games 400000] [--seed 2026120701]
    python scripts/strength.py two-seats [--player neural] [--tactician-deals 10000] [--seed 2026120602]
    python scripts/strength.py report   # results/strength/README.md and the frontier plot from the JSON files

Each part writes its JSON (with the command that made it) into results/strength/ and the
``report`` part assembles them.  All games are played twice with the seats swapped, every figure
has its 95% interval, and each part has a seed of its own (no part reuses another's deals).

* **ladder** — a round robin of every registered player (the search players on the first
  ``--search-games`` deals of each pairing) and one Bradley–Terry scale, anchored at
  `tactician` = 0 Elo; beside it each player's games/s against `tactician` (2 threads).
* **trace** — the search player's skill trace (Ludii's SkillTrace): budget 2b against budget b,
  doubling from ``--start`` until a doubling scores less than 55%.
* **exploit** — how much a fixed player loses to someone who has studied it: a best-response
  search (the expert, its simulations playing her seat with exactly her strategy: ``opponent``)
  against the player, and the margin over the same search without that model, on the same deals.
* **headroom** — the search against a copy of itself that sees the hidden cards (`expert-seer`).
* **seats** — each player's gain in each seat over `tactician`'s mirror, on the same deals: its
  score as Cleopatra against `tactician` minus Cleopatra's score in `tactician`'s mirror, and the
  same as Caesar; the seat gap (Cleopatra's gain minus Caesar's) with its interval.  A player whose
  gap is more than 3 points is *lopsided*: its mirror adds its own lean to the game's, so it cannot
  judge balance.  Writes results/strength/seats.json and its packaged copy strategies/seats.json.
* **two-seats** — a fast player as a judge: its score against `tactician`, and Cleopatra's edge in
  its mirror beside the published judge's on the same deals of the standard rules (within 2 points
  is what a fast judge needs).  Writes results/strength/<player>.json.
"""
from __future__ import annotations

import datetime as dt
import json
import math
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "results" / "strength"
MASTER = ROOT / "strategies" / "params" / "master.toml"


def _machine() -> str:
    from bench import processor
    return (f"{dt.date.today().isoformat()}, {processor()}, {platform.machine()}, {os.cpu_count()} cores, "
            f"Python {platform.python_version()}")


def _write(name: str, data: dict) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / name).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT / name}", file=sys.stderr)


def match(a: str, b: str, deals: int, seed: int) -> dict:
    """``a`` against ``b`` on ``deals`` deals of ``seed``, seats swapped: a's score, its 95% interval,
    a's score on each deal (for paired comparisons) and the games/s."""
    from ccsim.analyses.run import run
    from ccsim.runner.config import RunConfig
    t = time.perf_counter()
    summary, df = run(RunConfig(games=deals, seed=seed, cleopatra=a, caesar=b, swap_seats=True), keep_frames=True)
    mine = next(s for s in summary["by_strategy"] if s["strategy"] == a)
    pts = _deal_points(df, a, deals)
    return {"a": a, "b": b, "deals": deals, "games": 2 * deals, "seed": seed, "score": mine["score"]["rate"],
            "ci95": mine["score"]["ci95"], "games_per_s": summary["games_per_s"],
            "seconds": time.perf_counter() - t, "deal_points": pts.tolist()}


def _deal_points(df, a: str, deals: int) -> np.ndarray:
    """a's mean score on each deal (its two games), a draw half."""
    win = np.where(df["winner"].isna(), 0.5, ((df["winner"] == "cleopatra") & (df["strategy_cleopatra"] == a))
                   | ((df["winner"] == "caesar") & (df["strategy_caesar"] == a))).astype(float)
    return np.bincount(df["game"].to_numpy() % deals, weights=win, minlength=deals) / 2.0


def paired(x, y) -> dict:
    """The mean of x - y over deals, its 95% interval (Student t)."""
    from scipy import stats
    d = np.asarray(x) - np.asarray(y)
    se = d.std(ddof=1) / math.sqrt(len(d))
    t = stats.t.ppf(0.975, len(d) - 1)
    return {"diff": float(d.mean()), "ci95": [float(d.mean() - t * se), float(d.mean() + t * se)]}


# --------------------------------------------------------------------- ladder ----
def ladder(args) -> None:
    from ccsim.analyses.tournament import tournament
    from ccsim.present.tournament import tournament_json
    from strategies.registry import available
    players = [s["name"] for s in available() if s["name"] != "expert-seer"]
    t = tournament(players, games=args.games, seed=args.seed, search_games=args.search_games, progress=True)
    d = tournament_json(t)
    elo = {r["entrant"]: r["elo"] for r in d["ratings"]}
    shift = elo["tactician"]
    for r in d["ratings"]:
        r["elo"] -= shift
        r["ci95"] = [c - shift for c in r["ci95"]]
    speed = {}
    for p in players:
        deals = 20 if p in search_names() else 10_000
        speed[p] = match(p, "tactician", deals, args.seed + 7)["games_per_s"] if p != "tactician" else None
    d["speed_vs_tactician"] = speed
    d["anchor"] = "tactician = 0 Elo"
    d["command"] = f"python scripts/strength.py ladder --games {args.games} --search-games {args.search_games} --seed {args.seed}"
    d["machine"] = _machine()
    _write("ladder.json", d)


def search_names() -> set:
    from strategies.registry import search_players
    return search_players()


# --------------------------------------------------------------------- trace -----
def budget_file(folder: Path, base: Path | None, budget: int) -> str:
    """A parameter file: the search of ``base`` (the expert's defaults if None) at ``budget``."""
    import tomllib
    data = tomllib.loads(base.read_text()) if base else {"family": "expert", "search": {}}
    data["search"]["budget"] = budget
    lines = ['family = "expert"', "[search]"] + [f"{k} = {json.dumps(v)}" for k, v in data["search"].items()]
    if "leaf" in data:
        lines += ["[leaf]"] + [f"{k} = {v!r}" for k, v in data["leaf"].items()]
    path = folder / f"b{budget}.toml"
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def trace(args) -> None:
    base = MASTER if args.player == "master" else None
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        b = args.start
        while b <= args.max_budget:
            hi, lo = budget_file(Path(tmp), base, 2 * b), budget_file(Path(tmp), base, b)
            m = match(hi, lo, args.games // 2, args.seed + b)
            rows.append({"budget": b, "doubled": 2 * b, "score": m["score"], "ci95": m["ci95"], "games": m["games"],
                         "games_per_s": m["games_per_s"]})
            print(f"{args.player} b{2 * b} vs b{b}: {m['score']:.1%} [{m['ci95'][0]:.1%}, {m['ci95'][1]:.1%}]",
                  file=sys.stderr)
            if m["score"] < 0.55:
                break
            b *= 2
    _write(f"trace-{args.player}.json", {
        "player": args.player, "rows": rows, "machine": _machine(),
        "command": f"python scripts/strength.py trace --player {args.player} --games {args.games} "
                   f"--start {args.start} --seed {args.seed}"})


# --------------------------------------------------------------------- exploit ---
def exploit(args) -> None:
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        for target in args.targets.split(","):
            files = {}
            for modelled in (True, False):
                path = Path(tmp) / f"br-{target}-{int(modelled)}.toml"
                opp = f'\nopponent = "{target}"' if modelled else ""
                path.write_text(f'family = "expert"\n[search]\nbudget = {args.budget}\nkinds = ["step"]{opp}\n')
                files[modelled] = str(path)
            br = match(files[True], target, args.games // 2, args.seed)
            plain = match(files[False], target, args.games // 2, args.seed)
            margin = paired(br["deal_points"], plain["deal_points"])
            out.append({"target": target, "best_response": _brief(br), "plain_search": _brief(plain),
                        "margin": margin})
            print(f"exploit {target}: best response {br['score']:.1%}, plain {plain['score']:.1%}, margin "
                  f"{margin['diff']:+.1%} [{margin['ci95'][0]:+.1%}, {margin['ci95'][1]:+.1%}]", file=sys.stderr)
    _write("exploit.json", {"budget": args.budget, "rows": out, "machine": _machine(),
                            "command": f"python scripts/strength.py exploit --targets {args.targets} --games "
                                       f"{args.games} --budget {args.budget} --seed {args.seed}"})


def _brief(m: dict) -> dict:
    return {k: m[k] for k in ("score", "ci95", "games", "games_per_s")}


# --------------------------------------------------------------------- targets ---
def targets(args) -> None:
    """The strong players' two first figures on fresh seeds: learned against tactician, master against expert-b256."""
    rows = []
    for a, b, deals, seed in (("learned", "tactician", args.learned_deals, args.seed),
                              ("master", "expert-b256", args.master_deals, args.seed + 1)):
        m = match(a, b, deals, seed)
        rows.append({"a": a, "b": b, **_brief(m), "seed": seed})
        print(f"{a} vs {b}: {m['score']:.1%} [{m['ci95'][0]:.1%}, {m['ci95'][1]:.1%}]", file=sys.stderr)
    _write("targets.json", {"rows": rows, "machine": _machine(),
                            "command": f"python scripts/strength.py targets --learned-deals {args.learned_deals} "
                                       f"--master-deals {args.master_deals} --seed {args.seed}"})


# --------------------------------------------------------------------- network ---
def speed(a: str, b: str, deals: int, seed: int) -> float:
    """Games/s of ``a`` against ``b`` (seats swapped; a mirror too), 2 threads, this process warm."""
    from ccsim.analyses.run import run
    from ccsim.runner.config import RunConfig
    summary, _ = run(RunConfig(games=deals, seed=seed, cleopatra=a, caesar=b, swap_seats=True))
    return summary["games_per_s"]


def network(args) -> None:
    """The value network's figures on fresh seeds: `neural` against `tactician` and `expert`, `neural-search`
    against `master`, and their speeds, all measured in this one run."""
    rows = []
    for a, b, deals, seed in (("neural", "tactician", args.tactician_deals, args.seed),
                              ("neural", "expert", args.expert_deals, args.seed + 1),
                              ("neural-search", "master", args.master_deals, args.seed + 2)):
        m = match(a, b, deals, seed)
        rows.append({"a": a, "b": b, **_brief(m), "seed": seed})
        print(f"{a} vs {b}: {m['score']:.1%} [{m['ci95'][0]:.1%}, {m['ci95'][1]:.1%}] ({m['games']:,} games)",
              file=sys.stderr)
    speeds = {"neural mirror": speed("neural", "neural", 20_000, args.seed + 3),
              "learned mirror": speed("learned", "learned", 20_000, args.seed + 3),
              "neural-search vs tactician": speed("neural-search", "tactician", args.speed_deals, args.seed + 4),
              "master vs tactician": speed("master", "tactician", args.speed_deals, args.seed + 4)}
    print(f"speeds (games/s): {speeds}", file=sys.stderr)
    _write("network.json", {"rows": rows, "games_per_s": speeds, "machine": _machine(),
                            "command": f"python scripts/strength.py network --tactician-deals {args.tactician_deals} "
                                       f"--expert-deals {args.expert_deals} --master-deals {args.master_deals} "
                                       f"--speed-deals {args.speed_deals} --seed {args.seed}"})


# --------------------------------------------------------------------- two seats -
def two_seats(args) -> None:
    """A fast player (``--player``, `neural` by default) on fresh seeds: its score against `tactician`
    (seats swapped), and Cleopatra's edge in its mirror beside the strongest balanced search's on the same
    deals (results/balance/summary.json's standard rules at its judge: a fast judge should see the game
    as the search sees it)."""
    from ccsim.analyses.balance.search.verdict import points
    name = args.player
    m = match(name, "tactician", args.tactician_deals, args.seed)
    print(f"{name} vs tactician: {m['score']:.1%} [{m['ci95'][0]:.1%}, {m['ci95'][1]:.1%}]", file=sys.stderr)
    rec = json.loads((ROOT / "results" / "balance" / "summary.json").read_text())["search"]
    std = next(x for x in rec["settings"] if x["changes"] == 0)["levels"][0]
    edge, _ = cleopatra_points(name, name, std["deals"], rec["seed"])
    mine, ci = mean_ci(edge - 0.5)
    print(f"{name} mirror, seed {rec['seed']}: {mine:+.1f} [{ci[0]:+.1f}, {ci[1]:+.1f}]; {std['level']}: "
          f"{points(std['seat_advantage'])}", file=sys.stderr)
    _write(f"{name}.json", {"player": name, "vs_tactician": _brief(m) | {"seed": args.seed},
                            "mirror_edge": {"points": mine, "ci95": ci, "deals": std["deals"], "seed": rec["seed"]},
                            "judge_edge": {"level": std["level"], "points": 100 * std["seat_advantage"],
                                           "ci95": [100 * c for c in std["ci95"]], "deals": std["deals"]},
                            "machine": _machine(),
                            "command": f"python scripts/strength.py two-seats --player {name} "
                                       f"--tactician-deals {args.tactician_deals} --seed {args.seed}"})


# --------------------------------------------------------------------- headroom --
def headroom(args) -> None:
    m = match("expert", "expert-seer", args.games // 2, args.seed)
    _write("headroom.json", {"search": "expert", "seer": "expert-seer", **_brief(m), "machine": _machine(),
                             "command": f"python scripts/strength.py headroom --games {args.games} --seed {args.seed}"})
    print(f"expert vs expert-seer: {m['score']:.1%} [{m['ci95'][0]:.1%}, {m['ci95'][1]:.1%}]", file=sys.stderr)


# --------------------------------------------------------------------- seats -----
def cleopatra_points(a: str, b: str, deals: int, seed: int) -> tuple[np.ndarray, float]:
    """Cleopatra's score on each of ``deals`` deals of ``seed`` (``a`` Cleopatra, ``b`` Caesar, no
    swap; a draw half) and the games/s."""
    from ccsim.analyses.run import run
    from ccsim.runner.config import RunConfig
    summary, df = run(RunConfig(games=deals, seed=seed, cleopatra=a, caesar=b), keep_frames=True)
    df = df.sort_values("game")
    c = np.where(df["winner"].isna(), 0.5, (df["winner"] == "cleopatra").astype(float))
    return c, summary["games_per_s"]


def mean_ci(x) -> tuple[float, list]:
    """Mean of ``x`` in points and its 95% interval (Student t, as ``paired``)."""
    p = paired(100.0 * np.asarray(x, float), 0.0)
    return p["diff"], p["ci95"]


def measured_seat_row(name: str, ref: str, mirror: np.ndarray, deals: int, seed: int) -> dict:
    """``name``'s score in each seat against ``ref`` on the first ``deals`` deals of ``seed``, its gains
    over the mirror and the seat gap.  The mirror (``ref`` against itself on the same seed) is played on
    many more deals than the player (it is cheap): its mean enters the gap twice, so a short mirror would
    set the gap's interval.  The gap is the player's two scores on each deal (one paired observation)
    minus twice the mirror's mean; its variance is the two parts' added (the mirror's deals are a
    superset of the player's, whose covariance with them is small and positive: leaving it out errs wide)."""
    as_cleo, gps = cleopatra_points(name, ref, deals, seed)
    as_caesar, _ = cleopatra_points(ref, name, deals, seed)
    m_mean, m_var = float(mirror.mean()), float(mirror.var(ddof=1)) / len(mirror)
    row = {"name": name, "deals": deals, "mirror_deals": len(mirror), "games_per_s": gps}
    # (figure, per-deal values, what is subtracted, how many times the mirror's mean is in it)
    for key, x, shift, mirrors in (("cleopatra_score", as_cleo, 0.0, 0), ("caesar_score", 1.0 - as_caesar, 0.0, 0),
                                   ("gain_cleopatra", as_cleo, m_mean, 1),
                                   ("gain_caesar", 1.0 - as_caesar, 1.0 - m_mean, 1),
                                   ("seat_gap", as_cleo + as_caesar, 2 * m_mean, 2)):
        row[key], row[key + "_ci95"] = mean_ci_with(x, shift, mirrors ** 2 * m_var)
    from strategies.seats import status_of
    row["status"] = status_of(row)
    return row


def mean_ci_with(x, shift: float, extra_var: float) -> tuple[float, list]:
    """The mean of ``x`` minus ``shift`` in points, its 95% interval widened by ``extra_var`` (the variance,
    as a share squared, of an independent estimate ``shift`` came from)."""
    x = np.asarray(x, float)
    se = math.sqrt(x.var(ddof=1) / len(x) + extra_var)
    mean = float(x.mean() - shift)
    return 100 * mean, [100 * (mean - 1.96 * se), 100 * (mean + 1.96 * se)]


def seats_command(args, old: dict | None) -> str:
    """The command that measured the certificate: this one, or, for a re-measure of some players
    (``--players``), the earlier rows' command followed by this one."""
    this = (f"python scripts/strength.py seats --games {args.games} --search-games {args.search_games} "
            f"--mirror-games {args.mirror_games} --seed {args.seed}")
    if not old:
        return this
    return f"{old['command']}; then {this} --players {args.players}"


def seats(args) -> None:
    from strategies.registry import available
    ref = "tactician"
    mirror, _ = cleopatra_points(ref, ref, max(args.mirror_games, args.games, args.search_games), args.seed)
    only = [p for p in args.players.split(",") if p] if args.players else None
    old = json.loads((OUT / "seats.json").read_text()) if only and (OUT / "seats.json").exists() else None
    rows = [r for r in old["players"] if r["name"] not in only] if old else []
    for s in available():
        name = s["name"]
        if name in ("expert-seer", "expert-b256", "weighted") or name == ref or (only and name not in only):
            continue
        n = args.search_games if name in search_names() else args.games
        row = measured_seat_row(name, ref, mirror, n, args.seed)
        rows.append(row)
        print(f"{name:>20}: Cleopatra {row['gain_cleopatra']:+.1f}, Caesar {row['gain_caesar']:+.1f}, gap "
              f"{row['seat_gap']:+.1f} [{row['seat_gap_ci95'][0]:+.1f}, {row['seat_gap_ci95'][1]:+.1f}] "
              f"({n:,} deals a seat)", file=sys.stderr, flush=True)
    m, ci = mean_ci(mirror)
    from strategies.seats import GAP_LIMIT, KNOWN_WITHIN
    data = {"reference": ref, "gap_limit": GAP_LIMIT, "known_within": KNOWN_WITHIN,
            "mirror": {"cleopatra_score": m, "cleopatra_score_ci95": ci, "deals": len(mirror)},
            "players": rows, "seed": args.seed, "machine": _machine(),
            "command": seats_command(args, old),
            "meaning": "points (a draw half): a player's score in a seat against the reference minus that seat's "
                       "score in the reference's mirror on the same deals; seat_gap = gain_cleopatra - gain_caesar"}
    _write("seats.json", data)
    (ROOT / "strategies" / "seats.json").write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


def main(argv=None):
    from ccsim.toolchain.script_args import ScriptParser
    ap = ScriptParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="part", required=True)
    p = sub.add_parser("ladder")
    p.add_argument("--games", type=int, default=10_000)
    p.add_argument("--search-games", type=int, default=100)
    p.add_argument("--seed", type=int, default=2026120401)
    p = sub.add_parser("trace")
    p.add_argument("--player", choices=("expert", "master"), default="expert")
    p.add_argument("--games", type=int, default=300)
    p.add_argument("--start", type=int, default=16)
    p.add_argument("--max-budget", type=int, default=1024)
    p.add_argument("--seed", type=int, default=2026120402)
    p = sub.add_parser("exploit")
    p.add_argument("--targets", default="greedy,tactician,learned")
    p.add_argument("--games", type=int, default=400)
    p.add_argument("--budget", type=int, default=64)
    p.add_argument("--seed", type=int, default=2026120403)
    p = sub.add_parser("headroom")
    p.add_argument("--games", type=int, default=300)
    p.add_argument("--seed", type=int, default=2026120404)
    p = sub.add_parser("targets")
    p.add_argument("--learned-deals", type=int, default=5000)
    p.add_argument("--master-deals", type=int, default=500)
    p.add_argument("--seed", type=int, default=2026120405)
    p = sub.add_parser("network")
    p.add_argument("--tactician-deals", type=int, default=10_000)
    p.add_argument("--expert-deals", type=int, default=200)
    p.add_argument("--master-deals", type=int, default=500)
    p.add_argument("--speed-deals", type=int, default=100)
    p.add_argument("--seed", type=int, default=2026120501)
    p = sub.add_parser("two-seats")
    p.add_argument("--player", default="neural")
    p.add_argument("--tactician-deals", type=int, default=10_000)
    p.add_argument("--seed", type=int, default=2026120602)
    p = sub.add_parser("seats")
    p.add_argument("--games", type=int, default=20_000, help="deals a seat for a fast player")
    p.add_argument("--search-games", type=int, default=12_000, help="deals a seat for a search player")
    p.add_argument("--mirror-games", type=int, default=400_000, help="deals of the reference's mirror")
    p.add_argument("--seed", type=int, default=2026120701)
    p.add_argument("--players", default="", help="measure only these (comma-separated), keeping the other rows")
    sub.add_parser("report")
    args = ap.parse_args(argv)
    if args.part == "report":
        from strength_report import write_report
        write_report(OUT)
        return
    from ccsim.errors import UsageError
    try:
        {"ladder": ladder, "trace": trace, "exploit": exploit, "headroom": headroom, "targets": targets,
         "network": network, "seats": seats, "two-seats": two_seats}[args.part](args)
    except UsageError as e:  # a player or setting that cannot be played: one line, a usage error's status
        print(f"strength.py {args.part}: {e}", file=sys.stderr)
        raise SystemExit(2) from None


if __name__ == "__main__":
    main()

"""Round-robin of the registered strategies: every one against every other, seats swapped.

    python scripts/round_robin.py [--games 20000] [--seed 1] [--strategies a,b,...]
                                  [--threads 0] [--markdown results/strategies.md] [--json results/strategies.json]

Each pairing plays ``--games`` deals twice, the second time with the seats
swapped (paired games on the same deal, DESIGN lesson 10), so each pairing is
``2 * games`` games.  The report gives each pairing's score (a draw counts
half) with its 95% Wilson interval, its end reasons (R9), its engine errors
and its speed (games/s, the whole pairing timed, both seatings, compiled
kernel already loaded); then a Bradley–Terry strength order (Elo scale, with
95% parametric-bootstrap intervals) and a summary against the `random` and
`greedy` baselines.

``weighted`` itself is left out by default: with no parameter file it plays
the `weighted-balanced` weights, which are in the tournament by that name.
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from ccsim import rules as R  # noqa: E402
from ccsim.config import RunConfig  # noqa: E402
from ccsim.engine.game import R_WINNER, R_END, R_ERROR, R_TURNS  # noqa: E402
from ccsim.simulate import simulate_rows, set_threads, get_threads  # noqa: E402
from ccsim.stats import wilson_interval, bradley_terry, rating_intervals  # noqa: E402
from strategies.registry import available  # noqa: E402

SKIP_BY_DEFAULT = ("weighted",)  # the same player as weighted-balanced


def play_pairing(a: str, b: str, games: int, seed: int) -> dict:
    """a against b on ``games`` deals, seats swapped: counts from a's side."""
    rules = RunConfig(games=games, cleopatra=a, caesar=b).validated().rules_vector()
    t0 = time.perf_counter()
    rows = []
    for swapped in (False, True):
        cfg = RunConfig(games=games, seed=seed, cleopatra=a, caesar=b, swap_seats=True)
        _, sids, sp, codes, _ = cfg.seats(swapped)
        r = simulate_rows(seed, 0, games, rules, sids, sp, codes)
        a_seat = 1 if swapped else 0
        rows.append((r, a_seat))
    secs = time.perf_counter() - t0
    wins = draws = losses = errors = 0
    ends = np.zeros(len(R.END_NAMES), np.int64)
    turns = 0
    for r, a_seat in rows:
        w = r[:, R_WINNER]
        wins += int((w == a_seat).sum())
        draws += int((w == -1).sum())
        losses += int((w == 1 - a_seat).sum())
        errors += int((r[:, R_ERROR] != 0).sum())
        ends += np.bincount(np.clip(r[:, R_END], 0, len(R.END_NAMES) - 1), minlength=len(R.END_NAMES))
        turns += int(r[:, R_TURNS].sum())
    n = 2 * games
    return {"a": a, "b": b, "games": n, "wins": wins, "draws": draws, "losses": losses, "errors": errors,
            "ends": {R.END_NAMES[k]: int(ends[k]) for k in range(1, len(R.END_NAMES))},
            "mean_turns": turns / n, "seconds": secs, "games_per_s": n / secs}


def run(names: list[str], games: int, seed: int) -> list[dict]:
    # load (or compile) the kernel once before anything is timed
    simulate_rows(seed, 0, 64, R.DEFAULT_RULES.copy(), *RunConfig(games=64).validated().seats()[1:4])
    out = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            res = play_pairing(a, b, games, seed)
            out.append(res)
            print(f"{a:>20s} vs {b:<20s} {score_of(res):6.1%}  {res['games_per_s']:8,.0f} games/s  "
                  f"ends {res['ends']}  errors {res['errors']}", flush=True)
    return out


def profile(name: str, games: int, seed: int, opponent: str = "weighted-balanced") -> dict:
    """How a strategy plays, from the event logs of ``games`` deals against ``opponent`` (both seats)."""
    from ccsim.engine.game import record_game_nb, N_RESULT
    from ccsim.layout import state_size, max_events, SETUP_SIZE, LOG, EV_W, N_RNG, EV_TURN, EV_PLACE, EV_ACTION, \
        EV_VETO, EV_DISCARD
    rules = R.DEFAULT_RULES.copy()
    st = np.zeros(state_size(max_events(rules), 0), np.int32)
    setup = np.zeros(SETUP_SIZE, np.int32)
    row = np.zeros(N_RESULT, np.int16)
    c = dict(turns=0, active=0, placed=0, up=0, phil_down=0, actions=np.zeros(6, np.int64), vetoes=0, discards=0)
    for swapped in (False, True):
        cfg = RunConfig(games=games, seed=seed, cleopatra=name, caesar=opponent)
        _, sids, sp, codes, _ = cfg.seats(swapped)
        me = 1 if swapped else 0
        for g in range(games):
            k = record_game_nb(st, np.zeros(N_RNG, np.uint64), sp, rules, sids, np.int64(seed), np.int64(g), codes,
                               setup, row)
            log = st[LOG:LOG + k * EV_W].reshape(k, EV_W)
            mine = log[log[:, 1] == me]
            t = mine[:, 0]
            c["turns"] += int((t == EV_TURN).sum())
            c["active"] += int(mine[t == EV_TURN, 3].sum())
            pl = mine[t == EV_PLACE]
            c["placed"] += len(pl)
            c["up"] += int(pl[:, 4].sum())
            c["phil_down"] += int(((pl[:, 2] == R.PHIL) & (pl[:, 4] == 0)).sum())
            c["actions"] += np.bincount(mine[t == EV_ACTION, 2] - R.ACTION_BASE, minlength=6)[:6]
            c["vetoes"] += int((t == EV_VETO).sum())
            c["discards"] += int((mine[t == EV_DISCARD, 2] & 7).sum())
    n = 2 * games
    return {"name": name, "active": c["active"] / max(c["turns"], 1),
            "cards_per_active": c["placed"] / max(c["active"], 1),
            "face_up": c["up"] / max(c["placed"], 1), "phil_down": c["phil_down"] / n,
            "actions": {a: c["actions"][i] / n for i, a in enumerate(R.ACTION_NAMES) if a != "veto"},
            "vetoes": c["vetoes"] / n, "discards": c["discards"] / n}


def score_of(res: dict) -> float:
    return (res["wins"] + 0.5 * res["draws"]) / res["games"]


def ratings(names: list[str], results: list[dict], seed: int):
    k = len(names)
    idx = {n: i for i, n in enumerate(names)}
    score = np.zeros((k, k))
    games = np.zeros((k, k))
    draws = np.zeros((k, k))
    for r in results:
        i, j = idx[r["a"]], idx[r["b"]]
        pts = r["wins"] + 0.5 * r["draws"]
        score[i, j] += pts
        score[j, i] += r["games"] - pts
        games[i, j] = games[j, i] = r["games"]
        draws[i, j] = draws[j, i] = r["draws"]
    elo = bradley_terry(score, games, prior=1.0)
    lo, hi = rating_intervals(score, games, n_boot=200, rng=seed, draws=draws, prior=1.0)
    mean = np.array([score[i].sum() / games[i].sum() for i in range(k)])
    return elo, lo, hi, mean, score, games


def markdown(names, results, args, elo, lo, hi, mean, score, games, profiles=()) -> str:
    fam = {s["name"]: s["family"] for s in available()}
    desc = {s["name"]: s["description"] for s in available()}
    idx = {n: i for i, n in enumerate(names)}
    order = sorted(range(len(names)), key=lambda i: -elo[i])
    lines = ["# Strategy round-robin", "",
             f"Every strategy against every other, {args.games:,} deals per pairing played twice with the seats "
             f"swapped ({2 * args.games:,} games per pairing), default rules, `shuffled` action decks, run seed "
             f"{args.seed}. Produced by `python scripts/round_robin.py --games {args.games} --seed {args.seed}` on "
             f"{dt.date.today().isoformat()}; machine: {platform.machine()}, {os.cpu_count()} cores, "
             f"{get_threads()} threads, Python {platform.python_version()}. A draw counts half; intervals are 95%.",
             "", "## Strength order (Bradley–Terry, Elo scale)", "",
             "| rank | strategy | family | Elo | 95% interval | mean score | |", "|---:|---|---|---:|---|---:|---|"]
    for rank, i in enumerate(order, 1):
        lines.append(f"| {rank} | `{names[i]}` | {fam[names[i]]} | {elo[i]:+.0f} | {lo[i]:+.0f} … {hi[i]:+.0f} | "
                     f"{mean[i]:.1%} | {desc[names[i]]} |")
    # summary against the baselines
    lines += ["", "## Against the baselines", "", "| strategy | vs random | vs greedy |", "|---|---|---|"]
    best_vs_greedy = None
    worst_vs_random = None
    for i in order:
        cells = []
        for base in ("random", "greedy"):
            if names[i] == base or base not in idx:
                cells.append("—")
                continue
            r = next(r for r in results if {r["a"], r["b"]} == {names[i], base})
            pts = r["wins"] + 0.5 * r["draws"] if r["a"] == names[i] else r["losses"] + 0.5 * r["draws"]
            p = pts / r["games"]
            w_lo, w_hi = wilson_interval(pts, r["games"])
            cells.append(f"{p:.1%} ({w_lo:.1%} … {w_hi:.1%})")
            if base == "greedy" and names[i] != "random" and (best_vs_greedy is None or w_lo > best_vs_greedy[2]):
                best_vs_greedy = (names[i], p, w_lo)
            if base == "random" and (worst_vs_random is None or p < worst_vs_random[1]):
                worst_vs_random = (names[i], p)
        lines.append(f"| `{names[i]}` | {cells[0]} | {cells[1]} |")
    slow = min(results, key=lambda r: r["games_per_s"])
    lines += [""]
    if worst_vs_random:
        lines.append(f"* Weakest result against `random`: `{worst_vs_random[0]}` {worst_vs_random[1]:.1%} "
                     f"(target ≥ 90%).")
    if best_vs_greedy:
        lines.append(f"* Best against `greedy`: `{best_vs_greedy[0]}` {best_vs_greedy[1]:.1%}, lower end of its "
                     f"95% interval {best_vs_greedy[2]:.1%} (target > 60%).")
    lines.append(f"* Slowest pairing: `{slow['a']}` vs `{slow['b']}` at {slow['games_per_s']:,.0f} games/s "
                 f"(target ≥ 20,000 on two idle cores; see the note on speed below).")
    tot_st = sum(r["ends"]["stalemate"] for r in results)
    tot_tr = sum(r["ends"]["truncated"] for r in results)
    tot = sum(r["games"] for r in results)
    heur = [r for r in results if "random" not in (r["a"], r["b"]) and "greedy" not in (r["a"], r["b"])]
    h_st = sum(r["ends"]["stalemate"] for r in heur)
    h_n = sum(r["games"] for r in heur)
    lines.append(f"* Stalemates: {tot_st:,} of {tot:,} games ({tot_st / tot:.2%}); among the pairings without "
                 f"`random` or `greedy`: {h_st:,} of {h_n:,} ({(h_st / h_n if h_n else 0):.3%}). "
                 f"Truncated: {tot_tr:,}. "
                 f"Engine errors: {sum(r['errors'] for r in results):,}.")
    # matrix
    short = [n.replace("weighted-", "w-") for n in names]
    lines += ["", "## Score matrix (row's score against column, %)", "",
              "| | " + " | ".join(short[i] for i in order) + " |", "|---|" + "---:|" * len(order)]
    for i in order:
        cells = []
        for j in order:
            cells.append("—" if i == j else f"{100 * score[i, j] / games[i, j]:.1f}")
        lines.append(f"| **{short[i]}** | " + " | ".join(cells) + " |")
    # pairings
    lines += ["", "## Pairings", "",
              "Score of the first strategy, with its 95% Wilson interval; wins/draws/losses from its side; end "
              "reasons of the games (R9); games per second of the whole pairing.", "",
              "| first | second | score | 95% interval | W / D / L | all_patricians | no_influence | stalemate | "
              "truncated | errors | mean turns | games/s |",
              "|---|---|---:|---|---|---:|---:|---:|---:|---:|---:|---:|"]
    for r in results:
        pts = r["wins"] + 0.5 * r["draws"]
        w_lo, w_hi = wilson_interval(pts, r["games"])
        e = r["ends"]
        lines.append(f"| `{r['a']}` | `{r['b']}` | {pts / r['games']:.1%} | {w_lo:.1%} … {w_hi:.1%} | "
                     f"{r['wins']:,} / {r['draws']:,} / {r['losses']:,} | {e['all_patricians']:,} | "
                     f"{e['no_influence']:,} | {e['stalemate']:,} | {e['truncated']:,} | {r['errors']} | "
                     f"{r['mean_turns']:.1f} | {r['games_per_s']:,.0f} |")
    if profiles:
        lines += ["", f"## How they play ({args.profile_games:,} deals against `weighted-balanced`, both seats)", "",
                  "Per game from the strategy's side: share of active turns (R3), influence cards per active turn "
                  "(1 = one face-down card, 2 = two face-up, R4.2), share of them face-up, philosophers placed "
                  "face-down, action cards played (R7), vetoes played (R7.6) and cards discarded on passive turns "
                  "(R5).", "",
                  "| strategy | active | cards / active turn | face-up | P face-down | assassination | spy | "
                  "castling | scout | wrath | vetoes | passive discards |",
                  "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
        for p in profiles:
            a = p["actions"]
            lines.append(f"| `{p['name']}` | {p['active']:.0%} | {p['cards_per_active']:.2f} | {p['face_up']:.0%} | "
                         f"{p['phil_down']:.2f} | {a['assassination']:.2f} | {a['spy']:.2f} | {a['castling']:.2f} | "
                         f"{a['scout']:.2f} | {a['wrath']:.2f} | {p['vetoes']:.2f} | {p['discards']:.2f} |")
    lines += ["", "## Notes", "",
              "* Stalemates (R9.4: two quiet turns in a row) come from the baselines: `random` and `greedy` pass "
              "without discarding (greedy keeps a hand it cannot play, random passes half the time). The "
              "heuristics never take a quiet turn after a quiet turn — their passive discard then takes at least "
              "one card — so the turn that ends a game in a stalemate is always the baseline's, typically once "
              "the heuristic is out (R9.3) or has no room left and nothing to draw (tests/test_strategies.py "
              "checks this on recorded games). Between two heuristics no game ends in a stalemate.",
              "* Speed: games per second of each whole pairing, measured in this process with the kernel "
              "already loaded, on a machine that other jobs may share; compare pairings with each other. "
              "`scripts/bench.py` times matchups in isolation."]
    return "\n".join(lines) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=20_000, help="deals per pairing (each played twice, seats swapped)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--strategies", help="comma-separated names (default: every registered one but `weighted`)")
    ap.add_argument("--threads", type=int, default=0, help="0: one per core")
    ap.add_argument("--profile-games", type=int, default=300,
                    help="deals (both seats) recorded per strategy for the style profile; 0: none")
    ap.add_argument("--markdown", default=os.path.join(ROOT, "results", "strategies.md"))
    ap.add_argument("--json", default=os.path.join(ROOT, "results", "strategies.json"))
    ap.add_argument("--from-json", help="rewrite the report from a JSON file this script wrote (no games played)")
    args = ap.parse_args(argv)
    if args.from_json:
        with open(args.from_json) as f:
            saved = json.load(f)
        args.games, args.seed = saved["games"], saved["seed"]
        args.profile_games = saved.get("profile_games", args.profile_games)
        names, results, profs = saved["strategies"], saved["pairings"], saved.get("profiles", [])
        elo, lo, hi, mean, score, games = ratings(names, results, args.seed)
        md = markdown(names, results, args, elo, lo, hi, mean, score, games, profs)
        if args.markdown:
            with open(args.markdown, "w") as f:
                f.write(md)
        print(md)
        return
    set_threads(args.threads)
    if args.strategies:
        names = [s.strip() for s in args.strategies.split(",") if s.strip()]
    else:
        names = [s["name"] for s in available() if s["name"] not in SKIP_BY_DEFAULT]
    results = run(names, args.games, args.seed)
    elo, lo, hi, mean, score, games = ratings(names, results, args.seed)
    profs = [profile(n, args.profile_games, args.seed) for n in names] if args.profile_games > 0 else []
    md = markdown(names, results, args, elo, lo, hi, mean, score, games, profs)
    if args.markdown:
        os.makedirs(os.path.dirname(os.path.abspath(args.markdown)), exist_ok=True)
        with open(args.markdown, "w") as f:
            f.write(md)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"games": args.games, "seed": args.seed, "strategies": names, "pairings": results,
                       "elo": dict(zip(names, map(float, elo))), "profiles": profs,
                       "profile_games": args.profile_games, "threads": get_threads()}, f, indent=1,
                      default=float)
    print(md)


if __name__ == "__main__":
    main()

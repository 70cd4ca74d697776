"""Round-robin of the registered strategies, written up as results/strategies.md.

    python scripts/round_robin.py [--games 20000] [--search-games 1000] [--seed 1] [--strategies a,b,...]
                                  [--threads 0] [--markdown results/strategies.md] [--json results/strategies.json]

A thin call of ``ccsim.analyses.tournament.tournament`` (the games, the score matrix,
the Bradley–Terry order with its bootstrap intervals, the seat advantage and
the transitivity check are the tournament's), plus a style profile of each
strategy from recorded games.  Each pairing plays ``--games`` deals twice, the
second time with the seats swapped; a pairing with the search player
(``expert``, a few games a second) plays ``--search-games`` deals, and the first
``--record-deals`` of them are recorded under results/expert/records/ and
checked with ``ccsim replay --check``.

``weighted`` itself is left out by default: with no parameter file it plays
the `weighted-balanced` weights, which are in the tournament by that name.
"""
from __future__ import annotations

import datetime as dt
import json
import os
import platform
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from ccsim.kernel import rules as R  # noqa: E402
from ccsim.runner.config import RunConfig  # noqa: E402
from ccsim.kernel.simulate import set_threads, get_threads  # noqa: E402
from ccsim.analyses.tournament import tournament  # noqa: E402
from ccsim.present.tournament import tournament_json  # noqa: E402
from strategies.registry import available, search_players  # noqa: E402

SKIP_BY_DEFAULT = ("weighted",)  # the same player as weighted-balanced


def profile(name: str, games: int, seed: int, opponent: str = "weighted-balanced") -> dict:
    """How a strategy plays, from the event logs of ``games`` deals against ``opponent`` (both seats)."""
    from ccsim.kernel.engine.episode import record_game_nb, N_RESULT
    from ccsim.kernel.layout import state_size, max_events, SETUP_SIZE, LOG, EV_W, N_RNG, EV_TURN, EV_PLACE, EV_ACTION, \
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
    return {"name": name, "deals": games, "active": c["active"] / max(c["turns"], 1),
            "cards_per_active": c["placed"] / max(c["active"], 1),
            "face_up": c["up"] / max(c["placed"], 1), "phil_down": c["phil_down"] / n,
            "actions": {a: c["actions"][i] / n for i, a in enumerate(R.ACTION_NAMES) if a != "veto"},
            "vetoes": c["vetoes"] / n, "discards": c["discards"] / n}


def _pair(d: dict, x: str, y: str):
    """(x's score, its 95% interval) against y in a tournament's JSON."""
    r = next(r for r in d["pairings"] if {r["a"], r["b"]} == {x, y})
    if r["a"] == x:
        return r["score"], r["ci95"][0], r["ci95"][1]
    return 1 - r["score"], 1 - r["ci95"][1], 1 - r["ci95"][0]


def markdown(d: dict, profiles=(), profile_games: int = 0, threads: int = 0, records=()) -> str:
    """results/strategies.md from a tournament's JSON (``ccsim.present.tournament.tournament_json``)."""
    fam = {s["name"]: s["family"] for s in available()}
    lines = (_md_ratings(d, fam, threads) + _md_baselines(d) + _md_facts(d, fam) + _md_matrix(d)
             + _md_profiles(profiles, profile_games) + _md_records(records) + _md_notes())
    return "\n".join(lines) + "\n"


def _md_ratings(d: dict, fam: dict, threads: int) -> list:
    """The title, what the run rests on, and the strength order."""
    desc = {s["name"]: s["description"] for s in available()}
    order = [r["entrant"] for r in d["ratings"]]
    sd = d.get("search_deals")
    search = [n for n in order if fam[n] == "search"]
    capped = (f"; a pairing with {', '.join(f'`{n}`' for n in search)} plays the first {sd:,} of those deals "
              f"({2 * sd:,} games), since the search player plays a few games a second" if sd else "")
    lines = ["# Strategy round-robin", "",
             f"Every strategy against every other, {d['deals']:,} deals per pairing played twice with the seats "
             f"swapped ({d['games_per_pairing']:,} games per pairing){capped}; default rules, `shuffled` action "
             f"decks, run seed {d['seed']}. Produced by `python scripts/round_robin.py --games {d['deals']}"
             + (f" --search-games {sd}" if sd else "") + f" --seed {d['seed']}` "
             f"(a call of `ccsim.analyses.tournament`) on {dt.date.today().isoformat()}; machine: {platform.machine()}, "
             f"{os.cpu_count()} cores, {threads} threads, Python {platform.python_version()}. A draw counts half; "
             f"intervals are 95%: a pairing's over its deals (Student t on the deal score, the mean of a deal's two "
             f"games), the ratings' by parametric bootstrap.",
             "", "## Strength order (Bradley–Terry, Elo scale)", "",
             "| rank | strategy | family | Elo | 95% interval | mean score | |", "|---:|---|---|---:|---|---:|---|"]
    for r in d["ratings"]:
        n = r["entrant"]
        lines.append(f"| {r['rank']} | `{n}` | {fam[n]} | {r['elo']:+.0f} | {r['ci95'][0]:+.0f} … {r['ci95'][1]:+.0f} "
                     f"| {r['mean_score']:.1%} | {desc[n]} |")
    return lines


def _md_baselines(d: dict) -> list:
    """Every strategy against random and greedy, and the two targets."""
    order = [r["entrant"] for r in d["ratings"]]
    lines = []
    lines += ["", "## Against the baselines", "", "| strategy | vs random | vs greedy |", "|---|---|---|"]
    best_vs_greedy = worst_vs_random = None
    for n in order:
        cells = []
        for base in ("random", "greedy"):
            if n == base or base not in order:
                cells.append("—")
                continue
            p, lo, hi = _pair(d, n, base)
            cells.append(f"{p:.1%} ({lo:.1%} … {hi:.1%})")
            if base == "greedy" and n != "random" and (best_vs_greedy is None or lo > best_vs_greedy[2]):
                best_vs_greedy = (n, p, lo)
            if base == "random" and (worst_vs_random is None or p < worst_vs_random[1]):
                worst_vs_random = (n, p)
        lines.append(f"| `{n}` | {cells[0]} | {cells[1]} |")
    lines.append("")
    if worst_vs_random:
        lines.append(f"* Weakest result against `random`: `{worst_vs_random[0]}` {worst_vs_random[1]:.1%} "
                     f"(target ≥ 90%).")
    if best_vs_greedy:
        lines.append(f"* Best against `greedy`: `{best_vs_greedy[0]}` {best_vs_greedy[1]:.1%}, lower end of its "
                     f"95% interval {best_vs_greedy[2]:.1%} (target > 60%).")
    return lines


def _md_facts(d: dict, fam: dict) -> list:
    """Speed, stalemates, seat advantage, transitivity."""
    sd = d.get("search_deals")
    lines = []
    slow = sum(r["games"] for r in d["pairings"] if fam[r["a"]] == "search" or fam[r["b"]] == "search")
    lines.append(f"* Speed: {d['games']:,} games in {d['seconds']:,.0f} s, {d['games_per_s']:,.0f} games/s overall "
                 + (f"(the search player's {slow:,} games take nearly all of it: it plays a few games a second; "
                    if slow else "(every pairing in each task of the tournament; ")
                 + "see the note on speed below).")
    ends = {e: sum(r["end_reasons"][e] for r in d["pairings"]) for e in R.END_NAMES[1:]}
    heur = [r for r in d["pairings"] if "random" not in (r["a"], r["b"]) and "greedy" not in (r["a"], r["b"])]
    h_st = sum(r["end_reasons"]["stalemate"] for r in heur)
    h_n = sum(r["games"] for r in heur)
    lines.append(f"* Stalemates: {ends['stalemate']:,} of {d['games']:,} games ({ends['stalemate'] / d['games']:.2%});"
                 f" among the pairings without `random` or `greedy`: {h_st:,} of {h_n:,} "
                 f"({(h_st / h_n if h_n else 0):.3%}). Truncated: {ends['truncated']:,}. "
                 f"Engine errors: {d['errors']:,}.")
    s = d["seat_advantage"]
    over = "the pairings without a search player" if sd else "all pairings"
    lines.append(f"* Seat advantage over {over} (Cleopatra's score − 50%): {100 * s['value']:+.1f} points "
                 f"({100 * s['ci95'][0]:+.1f} … {100 * s['ci95'][1]:+.1f}).")
    lines.append("* Transitive: no cycle of pairings won significantly (Holm over all pairings, 5%)."
                 if d["transitive"] else "* Intransitive: " + "; ".join(" > ".join(c + [c[0]]) for c in d["cycles"])
                 + " (each pairing won significantly, Holm over all pairings).")
    return lines


def _md_matrix(d: dict) -> list:
    """The score matrix and the pairings table."""
    order = [r["entrant"] for r in d["ratings"]]
    lines = []
    short = {n: n.replace("weighted-", "w-") for n in order}
    idx = {n: i for i, n in enumerate(d["matrix"]["entrants"])}
    lines += ["", "## Score matrix (row's score against column, %)", "",
              "| | " + " | ".join(short[n] for n in order) + " |", "|---|" + "---:|" * len(order)]
    for a in order:
        cells = ["—" if a == b else f"{100 * d['matrix']['score'][idx[a]][idx[b]]:.1f}" for b in order]
        lines.append(f"| **{short[a]}** | " + " | ".join(cells) + " |")
    lines += ["", "## Pairings", "",
              "Score of the first strategy with its 95% interval over deals; wins/draws/losses from its side; the "
              "seat advantage of the pairing (Cleopatra's score − 50%, points); end reasons of the games (R9).", "",
              "| first | second | score | 95% interval | W / D / L | seat adv. | all_patricians | no_influence | "
              "stalemate | truncated | errors | mean turns |",
              "|---|---|---:|---|---|---:|---:|---:|---:|---:|---:|---:|"]
    for r in d["pairings"]:
        e = r["end_reasons"]
        lines.append(f"| `{r['a']}` | `{r['b']}` | {r['score']:.1%} | {r['ci95'][0]:.1%} … {r['ci95'][1]:.1%} | "
                     f"{r['wins']:,} / {r['draws']:,} / {r['losses']:,} | {100 * r['seat_advantage']:+.1f} | "
                     f"{e['all_patricians']:,} | {e['no_influence']:,} | {e['stalemate']:,} | {e['truncated']:,} | "
                     f"{r['errors']} | {r['mean_turns']:.1f} |")
    return lines


def _md_profiles(profiles, profile_games: int) -> list:
    """How each strategy plays (its habits against weighted-balanced)."""
    lines = []
    if profiles:
        few = sorted({p.get("deals", profile_games) for p in profiles} - {profile_games})
        odd = ", ".join(f"`{p['name']}`" for p in profiles if p.get("deals", profile_games) != profile_games)
        fewer = f"; {odd} on {', '.join(f'{x:,}' for x in few)}" if few else ""
        lines += ["", f"## How they play ({profile_games:,} deals against `weighted-balanced`, both seats{fewer})", "",
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
    return lines


def _md_records(records) -> list:
    """The search player's recorded games and their replay check."""
    lines = []
    if records:
        ok = sum(r["records"] for r in records if r["check_ok"])
        n = sum(r["records"] for r in records)
        lines += ["", "## Records of the search player's games", "",
                  f"The first deals of every pairing with a search player, each played twice with the seats "
                  f"swapped, recorded (`ccsim-game/1`) by the command shown — the round robin's own games, since "
                  f"game i of a seed is the same game everywhere — and "
                  f"checked with `ccsim replay --check`: {ok:,} of {n:,} records replay, every event legal and every "
                  f"claim true.", "", "| pairing | records | replay --check | command |", "|---|---:|---|---|"]
        for r in records:
            lines.append(f"| `{r['a']}` vs `{r['b']}` | {r['records']:,} | "
                         f"{'ok' if r['check_ok'] else 'FAILED: ' + r['check_output'].splitlines()[0]} | "
                         f"`{r['command']}` |")
    return lines


def _md_notes() -> list:
    lines = []
    lines += ["", "## Notes", "",
              "* Stalemates (R9.4: two quiet turns in a row) come from the baselines: `random` and `greedy` pass "
              "without discarding (greedy keeps a hand it cannot play, random passes half the time). The "
              "heuristics never take a quiet turn after a quiet turn — their passive discard then takes at least "
              "one card — so the turn that ends a game in a stalemate is always the baseline's, typically once "
              "the heuristic is out (R9.3) or has no room left and nothing to draw (tests/test_strategies.py "
              "checks this on recorded games). Between two heuristics no game ends in a stalemate.",
              "* Speed: the whole tournament timed in this process, on a machine that other jobs may share; "
              "`scripts/bench.py` times matchups in isolation, and results/BENCHMARKS.md the tournament itself."]
    return lines


def main(argv=None):
    from ccsim.toolchain.script_args import ScriptParser
    ap = ScriptParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=20_000, help="deals per pairing (each played twice, seats swapped)")
    ap.add_argument("--search-games", type=int, default=1_000,
                    help="deals of a pairing with a search player (each played twice, seats swapped)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--strategies", help="comma-separated names (default: every registered one but `weighted` "
                                         "and the search players' parameter files; `expert` is in)")
    ap.add_argument("--threads", type=int, default=0, help="0: one per core")
    ap.add_argument("--profile-games", type=int, default=300,
                    help="deals (both seats) recorded per strategy for the style profile; 0: none")
    ap.add_argument("--record-deals", type=int, default=10,
                    help="deals of each search pairing recorded under results/expert/records and replay-checked")
    ap.add_argument("--markdown", default=os.path.join(ROOT, "results", "strategies.md"))
    ap.add_argument("--json", default=os.path.join(ROOT, "results", "strategies.json"))
    ap.add_argument("--from-json", help="rewrite the report from a JSON file this script wrote (no games played)")
    args = ap.parse_args(argv)
    if args.from_json:
        with open(args.from_json) as f:
            saved = json.load(f)
    else:
        set_threads(args.threads)
        names = args.strategies or ",".join(s["name"] for s in available() if s["name"] not in SKIP_BY_DEFAULT
                                            and (s["family"] != "search" or s["name"] == "expert"))
        t = tournament(names, games=args.games, seed=args.seed, progress=sys.stderr.isatty(),
                       search_games=args.search_games)
        d = tournament_json(t)
        profs = ([profile(n, _profile_deals(n, args.profile_games), args.seed) for n in t.entrants]
                 if args.profile_games > 0 else [])
        checks = record_search_games(d, args.seed, args.record_deals, os.path.join(ROOT, "results", "expert",
                                                                                  "records"))
        saved = {"tournament": d, "profiles": profs, "profile_games": args.profile_games, "threads": get_threads(),
                 "records": checks}
        if args.json:
            with open(args.json, "w") as f:
                json.dump(saved, f, indent=1, default=float)
    md = markdown(saved["tournament"], saved.get("profiles", []), saved.get("profile_games", 0),
                  saved.get("threads", 0), saved.get("records", []))
    md += search_section(os.path.join(ROOT, "results", "expert"))
    if args.markdown:
        os.makedirs(os.path.dirname(os.path.abspath(args.markdown)), exist_ok=True)
        with open(args.markdown, "w") as f:
            f.write(md)
    print(md)


SEARCH_PROFILE_DEALS = 100   # the search player's style profile: a few games a second


def _profile_deals(name: str, deals: int) -> int:
    return min(deals, SEARCH_PROFILE_DEALS) if name in search_players() else deals


def record_search_games(d: dict, seed: int, deals: int, folder: str) -> list[dict]:
    """Record the first ``deals`` deals (both seats) of every pairing with a search player through
    ``ccsim run --swap-seats --record`` — the round robin's own games: game i of a seed is the same
    game everywhere — and check each file with ``ccsim replay --check``."""
    import subprocess
    out = []
    if deals <= 0:
        return out
    os.makedirs(folder, exist_ok=True)
    for r in d["pairings"]:
        if not {r["a"], r["b"]} & search_players():
            continue
        path = os.path.join(folder, f"{r['a']}-vs-{r['b']}.jsonl")
        run = ["ccsim", "run", "--games", str(deals), "--seed", str(seed), "--cleopatra", r["a"], "--caesar", r["b"],
               "--swap-seats", "--record", path, "--no-progress"]
        subprocess.run(run, check=True, stdout=subprocess.DEVNULL)
        chk = subprocess.run(["ccsim", "replay", "--check", path], capture_output=True, text=True)
        with open(path, encoding="utf-8") as f:
            n = sum(1 for line in f if line.strip())
        out.append({"a": r["a"], "b": r["b"], "file": os.path.relpath(path, ROOT), "records": n,
                    "command": " ".join(run[:-3] + ["--record", os.path.relpath(path, ROOT)]),
                    "check_ok": chk.returncode == 0, "check_output": (chk.stdout + chk.stderr).strip()})
    return out


SEARCH_HEADING = "## The search player: skill trace against `tactician`"


def search_section(folder: str) -> str:
    """The skill trace ``scripts/expert_trace.py`` wrote (its table and plot), if there is one."""
    table = os.path.join(folder, "trace.md")
    if not os.path.exists(table):
        return ""
    with open(table, encoding="utf-8") as f:
        body = f.read()
    strength = os.path.join(folder, "strength.md")
    extra = open(strength, encoding="utf-8").read() if os.path.exists(strength) else ""
    return (f"\n{SEARCH_HEADING}\n\nHow `expert` works and what it costs: strategies/README.md, \"The search "
            f"player\".\n\n{extra}{body}\n"
            "The score rises with the budget. At 8 and 16 simulations per decision the search is weaker than "
            "its own rollout policy: a handful of paired simulations per candidate cannot tell the candidates "
            "apart, and it still switches on what is mostly noise; from 32 on it gains, and the default (64) is "
            "the cheapest budget of the trace that clears the 65% target.\n\n"
            f"![score against budget and against games/s](expert/trace.png)\n")


if __name__ == "__main__":
    main()

"""The search player's skill trace: its score against an opponent at budgets 2^k, and its speed.

    python scripts/expert_trace.py [--budgets 8,16,...,1024] [--deals 400] [--min-deals 20]
                                   [--opponent tactician] [--seed 7] [--out results/expert]

For each budget b it plays ``expert`` with ``budget = b`` (every other search
parameter at its default) against ``--opponent``, every deal twice with the
seats swapped (``ccsim run --swap-seats``), and records the expert's score (a
draw counts half) with its 95% Wilson interval and the games per second of the
run (2 threads on this machine).  Search costs about in proportion to the
budget, so the deals shrink as the budget grows: ``max(min_deals, deals * 64 / b)``
(each row says how many it played).  Writes ``trace.json``, ``trace.md`` (the
table) and ``trace.png`` (score against budget, and score against games/s)
under ``--out``.
"""
from __future__ import annotations

import datetime as dt
import json
import os
import platform
import sys
import tempfile
from pathlib import Path

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from ccsim.runner.config import RunConfig  # noqa: E402
from ccsim.analyses.run import run  # noqa: E402


def budget_file(folder: Path, budget: int) -> str:
    path = folder / f"expert-b{budget}.toml"
    path.write_text(f'family = "expert"\ndescription = "expert at budget {budget}"\n\n[search]\nbudget = {budget}\n')
    return str(path)


def deals_for(budget: int, deals: int, min_deals: int) -> int:
    return max(min_deals, deals * 64 // budget)


def trace_row(budget: int, player: str, opponent: str, deals: int, seed: int) -> dict:
    """One budget's score and speed (the run's summary by strategy)."""
    cfg = RunConfig(games=deals, seed=seed, cleopatra=player, caesar=opponent, swap_seats=True)
    summary, _ = run(cfg)
    me = summary["by_strategy"][0]
    return {"budget": budget, "deals": deals, "games": me["games"], "wins": me["wins"], "draws": me["draws"],
            "score": me["score"]["rate"], "ci95": me["score"]["ci95"],
            "as_cleopatra": me["as_cleopatra"]["score"]["rate"], "as_caesar": me["as_caesar"]["score"]["rate"],
            "games_per_s": summary["games_per_s"], "seconds": summary["seconds"]}


def strength_markdown(row: dict, opponent: str, seed: int) -> str:
    lo, hi = row["ci95"]
    verdict = "met" if row["score"] >= 0.65 and lo > 0.60 else "NOT met"
    return (f"**Strength at the default budget**: `expert` (budget 64) against `{opponent}`, {row['deals']:,} deals "
            f"each played twice with the seats swapped ({row['games']:,} games, seed {seed}; "
            f"`ccsim run --games {row['deals']} --cleopatra expert --caesar {opponent} --swap-seats --seed {seed}`): "
            f"score **{row['score']:.1%}** [{lo:.1%}, {hi:.1%}] (as cleopatra {row['as_cleopatra']:.1%}, as caesar "
            f"{row['as_caesar']:.1%}), {row['games_per_s']:.1f} games/s on 2 threads. "
            f"Target (at least 65%, the interval's lower end above 60%): {verdict}.\n\n")


def to_markdown(res: dict) -> str:
    lines = [f"Expert (`budget` = b, every other search parameter at its default) against `{res['opponent']}`, "
             f"each deal played twice with the seats swapped, seed {res['seed']}; "
             f"produced by `python scripts/expert_trace.py` on {res['date']} ({res['machine']}). "
             "Score: wins plus half the draws, with its 95% Wilson interval.", "",
             "| budget | deals | games | score | 95% interval | as cleopatra | as caesar | games/s |",
             "|---:|---:|---:|---:|---|---:|---:|---:|"]
    for r in res["rows"]:
        lines.append(f"| {r['budget']} | {r['deals']:,} | {r['games']:,} | {r['score']:.1%} | "
                     f"[{r['ci95'][0]:.1%}, {r['ci95'][1]:.1%}] | {r['as_cleopatra']:.1%} | {r['as_caesar']:.1%} | "
                     f"{r['games_per_s']:.1f} |")
    return "\n".join(lines) + "\n"


def plot(res: dict, path: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    rows = res["rows"]
    b = [r["budget"] for r in rows]
    s = [100 * r["score"] for r in rows]
    err = [[100 * (r["score"] - r["ci95"][0]) for r in rows], [100 * (r["ci95"][1] - r["score"]) for r in rows]]
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(11, 4.2))
    a1.errorbar(b, s, yerr=err, fmt="o-", capsize=4)
    a1.set_xscale("log", base=2)
    a1.set_xlabel("budget (simulations per decision)")
    a1.set_ylabel(f"score against {res['opponent']} (%)")
    a1.set_title("Skill trace: score against budget (95% intervals)")
    a1.axhline(50, color="grey", lw=0.8, ls="--")
    a1.grid(alpha=0.3)
    g = [r["games_per_s"] for r in rows]
    a2.errorbar(g, s, yerr=err, fmt="o-", capsize=4)
    for i, (x, y, k) in enumerate(zip(g, s, b)):  # labels above and below in turn: neighbours never overlap
        a2.annotate(f"b={k}", (x, y), textcoords="offset points", xytext=(6, 6 if i % 2 == 0 else -13), fontsize=8)
    a2.set_xscale("log")
    a2.set_xlabel("games per second (2 threads)")
    a2.set_ylabel(f"score against {res['opponent']} (%)")
    a2.set_title("Strength against speed")
    a2.axhline(50, color="grey", lw=0.8, ls="--")
    a2.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main():
    from ccsim.toolchain.script_args import ScriptParser
    ap = ScriptParser(description=__doc__.splitlines()[0])
    ap.add_argument("--budgets", default="8,16,32,64,128,256,512,1024")
    ap.add_argument("--deals", type=int, default=400, help="deals at budget 64 (scaled by 64/b)")
    ap.add_argument("--min-deals", type=int, default=20)
    ap.add_argument("--opponent", default="tactician")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--out", default=os.path.join(ROOT, "results", "expert"))
    ap.add_argument("--plot-only", action="store_true", help="redraw trace.md and trace.png from trace.json")
    ap.add_argument("--append", action="store_true", help="keep the rows of an earlier trace.json under --out")
    ap.add_argument("--strength", type=int, default=0, metavar="DEALS",
                    help="instead: the default expert over DEALS seat-swapped deals (strength.json, strength.md)")
    a = ap.parse_args()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    if a.plot_only:
        res = json.loads((out / "trace.json").read_text())
        (out / "trace.md").write_text(to_markdown(res))
        plot(res, out / "trace.png")
        return
    if a.strength:
        row = trace_row(64, "expert", a.opponent, a.strength, a.seed)
        (out / "strength.json").write_text(json.dumps({"opponent": a.opponent, "seed": a.seed, **row}, indent=2) + "\n")
        (out / "strength.md").write_text(strength_markdown(row, a.opponent, a.seed))
        print((out / "strength.md").read_text())
        return
    res = {"opponent": a.opponent, "seed": a.seed, "date": dt.date.today().isoformat(),
           "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}", "rows": []}
    if a.append and (out / "trace.json").exists():
        res["rows"] = json.loads((out / "trace.json").read_text())["rows"]
    with tempfile.TemporaryDirectory() as tmp:
        for b in (int(x) for x in a.budgets.split(",")):
            row = trace_row(b, budget_file(Path(tmp), b), a.opponent, deals_for(b, a.deals, a.min_deals), a.seed)
            res["rows"].append(row)
            print(f"budget {b:5d}: {row['games']:5d} games, score {row['score']:.3f} "
                  f"[{row['ci95'][0]:.3f}, {row['ci95'][1]:.3f}], {row['games_per_s']:.1f} games/s", flush=True)
            (out / "trace.json").write_text(json.dumps(res, indent=2) + "\n")  # each budget kept as it lands
    (out / "trace.md").write_text(to_markdown(res))
    plot(res, out / "trace.png")


if __name__ == "__main__":
    main()

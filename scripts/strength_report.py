"""results/strength/README.md and frontier.png from the parts' JSON files (scripts/strength.py report)."""
from __future__ import annotations

import json
import math
from pathlib import Path

import matplotlib
import numpy as np

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def _pct(x) -> str:
    return f"{100 * x:.1f}%"


def _ci(ci) -> str:
    return f"[{100 * ci[0]:.1f}%, {100 * ci[1]:.1f}%]"


def _signed(x) -> str:
    return f"{100 * x:+.1f}".replace("-", "−")


def ladder_section(d: dict) -> list:
    sd = d.get("search_deals")
    lines = ["## One scale for every player", "",
             f"A round robin of every registered player (and `master`): {d['deals']:,} deals a pairing, each played "
             f"twice with the seats swapped" + (f"; a pairing with a search player plays the first {sd:,} deals" if sd
                                                else "") + f"; seed {d['seed']}. Bradley–Terry ratings on the Elo "
             f"scale, anchored at **{d['anchor']}**, with 95% bootstrap intervals; games/s: the player against "
             f"`tactician` on this machine (2 threads). `{d['command']}` ({d['machine']}).", "",
             "| rank | player | Elo | 95% interval | mean score | games/s vs tactician |", "|---:|---|---:|---|---:|---:|"]
    for r in d["ratings"]:
        sp = d["speed_vs_tactician"].get(r["entrant"])
        lines.append(f"| {r['rank']} | `{_short(r['entrant'])}` | {r['elo']:+.0f} | {r['ci95'][0]:+.0f} … "
                     f"{r['ci95'][1]:+.0f} | {_pct(r['mean_score'])} | {f'{sp:,.1f}' if sp else '—'} |")
    return lines + [""]


def seats_section(d: dict) -> list:
    """Each player's gain in each seat over the reference's mirror, and its seat gap."""
    from strategies.seats import status_of
    m = d["mirror"]
    lines = ["## Each seat: how much better than `tactician` a player plays Cleopatra and Caesar", "",
             f"A balance figure is Cleopatra's edge when one player plays both seats, so it speaks of the game only "
             f"if the player is as good with Caesar's cards as with Cleopatra's. Each player below played "
             f"`{d['reference']}` in each seat on the same deals as `{d['reference']}`'s own mirror (in which "
             f"Cleopatra scores {m['cleopatra_score']:.1f}% [{m['cleopatra_score_ci95'][0]:.1f}%, {m['cleopatra_score_ci95'][1]:.1f}%], {m['deals']:,} deals). "
             f"Its *gain* in a seat is its score there minus that seat's score in the mirror, in points (a draw "
             f"half); the *seat gap* is the Cleopatra gain minus the Caesar gain. "
             f"A gap is *known* once its 95% interval reaches at most {d.get('known_within', 1.0):g} point each way "
             f"(the width of the fair band). A known gap within {d['gap_limit']:g} points is **balanced**; beyond "
             f"them, or with its whole interval beyond them, **lopsided**: its mirror adds its own lean to the "
             f"game's, so it cannot judge balance. Any other player is **not yet known**, and does not judge "
             f"either{_few_deals(d)}. A gain is bounded by its seat's headroom against `{d['reference']}`: "
             f"{100 - m['cleopatra_score']:.0f} points as Cleopatra, {m['cleopatra_score']:.0f} as Caesar, so a "
             f"player near the top of both (the searches) has its gap pulled toward Caesar by the ceiling alone; on "
             f"a log-odds scale the same scores lean the other way. The gap is the project's yardstick as defined "
             f"here; a search's status should be read with that in mind. "
             f"`{d['command']}` ({d['machine']}).", "",
             "| player | deals a seat | as Cleopatra | gain | as Caesar | gain | seat gap [95%] | |",
             "|---|---:|---:|---:|---:|---:|---|---|"]
    for r in sorted(d["players"], key=lambda r: -(r["gain_cleopatra"] + r["gain_caesar"])):
        kind = status_of(r)
        kind = f"**{kind}**" if kind != "balanced" else kind
        lines.append(f"| `{r['name']}` | {r['deals']:,} | {r['cleopatra_score']:.1f}% | {r['gain_cleopatra']:+.1f} | "
                     f"{r['caesar_score']:.1f}% | {r['gain_caesar']:+.1f} | {r['seat_gap']:+.1f} "
                     f"[{r['seat_gap_ci95'][0]:+.1f}, {r['seat_gap_ci95'][1]:+.1f}] | {kind} |")
    return lines + [""]


def _few_deals(d: dict) -> str:
    """What the intervals of the players measured on too few deals to know their gap are worth."""
    few = [r for r in d["players"] if (r["seat_gap_ci95"][1] - r["seat_gap_ci95"][0]) / 2 > d.get("known_within", 1.0)]
    if not few:
        return ""
    deals = sorted({r["deals"] for r in few})
    width = max((r["seat_gap_ci95"][1] - r["seat_gap_ci95"][0]) / 2 for r in few)
    said = " or ".join(f"{n:,}" for n in deals)
    return f" (the intervals of the players measured on {said} deals a seat are up to ±{width:.0f} points wide)"


def _short(name: str) -> str:
    return Path(name).stem if name.endswith(".toml") else name


def trace_section(d: dict) -> list:
    lines = [f"## Skill trace of `{d['player']}`", "",
             f"Budget 2b against budget b, seats swapped, doubling until a doubling scores less than 55%. "
             f"`{d['command']}` ({d['machine']}).", "",
             "| 2b vs b | games | score of 2b | 95% interval | games/s |", "|---|---:|---:|---|---:|"]
    for r in d["rows"]:
        lines.append(f"| {r['doubled']} vs {r['budget']} | {r['games']:,} | {_pct(r['score'])} | {_ci(r['ci95'])} | "
                     f"{r['games_per_s']:.1f} |")
    return lines + [""]


def exploit_section(d: dict) -> list:
    lines = ["## Exploitation: what a player loses to someone who has studied it", "",
             f"A best-response search (`expert` at budget {d['budget']}, searching each STEP, its simulations "
             f"playing the opponent's seat with exactly her strategy) against the player, and the same search "
             f"without that model (both seats simulated as `tactician`), on the same deals, seats swapped. The "
             f"margin is the paired difference of their scores. `{d['command']}` ({d['machine']}).", "",
             "| player | best response's score | plain search's score | margin (points) |", "|---|---:|---:|---:|"]
    for r in d["rows"]:
        b, p, m = r["best_response"], r["plain_search"], r["margin"]
        lines.append(f"| `{r['target']}` | {_pct(b['score'])} {_ci(b['ci95'])} | {_pct(p['score'])} {_ci(p['ci95'])} | "
                     f"{_signed(m['diff'])} [{_signed(m['ci95'][0])}, {_signed(m['ci95'][1])}] |")
    if any(r["target"] == "tactician" for r in d["rows"]):
        lines += ["", "Against `tactician` the two searches are one player (the plain search already simulates "
                  "`tactician`), so its margin is zero by construction: it is the row that checks the method."]
    return lines + [""]


def targets_section(d: dict) -> list:
    lines = ["## The learned player and the strong search against their targets, on fresh seeds", "",
             f"Seats swapped, 95% Wilson intervals. `{d['command']}` ({d['machine']}).", "",
             "| player | against | games | score | 95% interval | games/s |", "|---|---|---:|---:|---|---:|"]
    for r in d["rows"]:
        lines.append(f"| `{r['a']}` | `{r['b']}` | {r['games']:,} | {_pct(r['score'])} | {_ci(r['ci95'])} | "
                     f"{r['games_per_s']:.1f} |")
    return lines + [""]


def headroom_section(d: dict) -> list:
    return ["## Headroom of the search", "",
            f"`{d['search']}` against `{d['seer']}`, the same search seeing the hidden cards (the opponent's hand, "
            f"face-down cards and decks): {d['games']:,} games, seats swapped. `{d['search']}` scores "
            f"{_pct(d['score'])} {_ci(d['ci95'])}: what it gives up by not knowing what is hidden. "
            f"`{d['command']}` ({d['machine']}).", ""]


FLOOR = -800  # Elo below which a player is drawn at the floor (random, about -1900): the rest stays readable


def _label_column(points: list, x: float, gap: float) -> list:
    """Labels of a crowded cluster stacked in a column at x, in Elo order, at least ``gap`` apart."""
    ys, out = [], []
    for name, sp, elo in sorted(points, key=lambda p: -p[2]):
        y = min(elo, ys[-1] - gap) if ys else elo
        ys.append(y)
        out.append((name, sp, elo, x, y))
    return out


SEARCH_COLOUR, FAST_COLOUR = "#b5462f", "#1f5fa8"


def frontier(d: dict, path: Path) -> None:
    """frontier.png: ``frontier_figure`` of the ladder ``d``."""
    fig = frontier_figure(d)
    fig.savefig(path)
    plt.close(fig)


def frontier_figure(d: dict):
    """Strength (Elo) against games/s, log scale: the players a user chooses from."""
    from strategies.registry import search_players
    searches = search_players()  # the registry's word, not the name's: neural-search is a search too
    fig, ax = plt.subplots(figsize=(8.5, 5.0), dpi=120)
    fast, named, marks = [], [], []
    for r in d["ratings"]:
        sp = d["speed_vs_tactician"].get(r["entrant"])
        if not sp:
            continue
        name = _short(r["entrant"])
        colour = SEARCH_COLOUR if r["entrant"] in searches else FAST_COLOUR
        if r["elo"] < FLOOR:
            ax.annotate(f"{name} ({r['elo']:+.0f} Elo, below the axis)", (sp, FLOOR), xytext=(sp, FLOOR + 90),
                        ha="right", fontsize=7, arrowprops=dict(arrowstyle="->", color=colour))
            continue
        ax.errorbar(sp, r["elo"], yerr=[[r["elo"] - r["ci95"][0]], [r["ci95"][1] - r["elo"]]], fmt="o", ms=4,
                    color=colour, capsize=2)
        marks.append((sp, r["elo"], r["ci95"]))
        if sp > 1e3:
            fast.append((name, sp, r["elo"]))
        else:
            named.append((sp, r["elo"], name))
    right = 4 * max(p[1] for p in fast) if fast else None
    for name, sp, elo, x, y in _label_column(fast, right, 38):
        ax.annotate(f"{name} {elo:+.0f}", (sp, elo), xytext=(x, y), fontsize=7, va="center",
                    arrowprops=dict(arrowstyle="-", color="0.6", lw=0.5))
    ax.axhline(0, color="0.4", lw=0.7, ls="--")
    for colour, what in ((SEARCH_COLOUR, "searches (they simulate before each move)"),
                         (FAST_COLOUR, "fast players (one evaluation a move)")):
        ax.plot([], [], "o", ms=4, color=colour, label=what)
    ax.legend(loc="lower left", fontsize=7, frameon=False, bbox_to_anchor=(0.0, 0.12))
    ax.annotate("tactician (the anchor, 0 Elo)", (0.01, 0), xycoords=("axes fraction", "data"), xytext=(0, 3),
                textcoords="offset points", fontsize=7, color="0.3")
    ax.set_xscale("log")
    if right:
        ax.set_xlim(right=right * 12)
    ax.set_ylim(bottom=FLOOR)
    ax.set_xlabel("games/s against tactician (2 threads, log scale)")
    ax.set_ylabel("Elo (tactician = 0), 95% intervals")
    ax.set_title("Strength against speed: every player (results/strength/ladder.json)", fontsize=9)
    ax.grid(alpha=0.3, which="both")
    fig.tight_layout()
    _name_searches(ax, named, marks)  # after the layout: placed where they will be drawn
    return fig


def _marker_outline(ax, marks, radius_pt: float = 4.0) -> list:
    """Points (data) around every marker and along its interval, for the labels to keep clear of: a name
    must not run into another player's marker (expert-b256's ran into master's)."""
    to_data = ax.transData.inverted()
    r = radius_pt * ax.figure.dpi / 72
    out = []
    for sp, elo, ci in marks:
        x, y = ax.transData.transform((sp, elo))
        lo, hi = (ax.transData.transform((sp, max(v, FLOOR)))[1] for v in ci)
        ring = [(x + dx * r, y + dy * r) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]
        bar = [(x, v) for v in np.arange(lo, hi + 1, 2.0)]
        out += [tuple(to_data.transform(p)) for p in ring + bar]
    return out


def _name_searches(ax, named, marks) -> None:
    """Each search's name beside its own marker, where it overlaps no name and no other marker or interval
    (``ccsim.present.balance_plot.place_labels``: right first, then left, above, below...)."""
    from ccsim.present.balance_plot import place_labels
    place_labels(ax, sorted(named, key=lambda n: -n[1]), avoid=_marker_outline(ax, marks))


def judge_section(ds: list) -> list:
    """Each fast player measured as a judge (``strength.py two-seats``): its score against `tactician`, and
    its mirror's Cleopatra edge beside the balanced search's on the same deals of the standard rules."""
    lines = ["## A fast player as a judge: its mirror beside the strong search's", "",
             "A fast judge should see the game as the strong searches see it: under the standard rules, Cleopatra's "
             "edge in its mirror should land within ±2 points of the edge the published judge measured on the same "
             "deals (results/balance). The difference's interval treats the two as independent (the deals are "
             "shared, so it is wider than a paired one).", "",
             "| player | score vs `tactician` [95%] | its mirror: Cleopatra's edge | the judge's, same deals | "
             "difference | within ±2 points | command |",
             "|---|---|---|---|---|---|---|"]
    for d in ds:
        v, me, judge = d["vs_tactician"], d["mirror_edge"], d["judge_edge"]
        half = [(c[1] - c[0]) / 2 for c in (me["ci95"], judge["ci95"])]
        diff, h = me["points"] - judge["points"], math.hypot(*half)
        lines.append(f"| `{d['player']}` | {_pct(v['score'])} {_ci(v['ci95'])} ({v['games']:,} games, seed {v['seed']}) | "
                     f"{me['points']:+.1f} [{me['ci95'][0]:+.1f}, {me['ci95'][1]:+.1f}] ({me['deals']:,} deals, seed "
                     f"{me['seed']}) | `{judge['level']}` {judge['points']:+.1f} [{judge['ci95'][0]:+.1f}, "
                     f"{judge['ci95'][1]:+.1f}] | {diff:+.1f} [{diff - h:+.1f}, {diff + h:+.1f}] | "
                     f"{'yes' if abs(diff) <= 2 else 'no'} | `{d['command']}` ({d['machine']}) |")
    return lines + [""]


def report_text(out: Path) -> str:
    """results/strength/README.md from the parts' JSON files of ``out`` (no plot drawn)."""
    lines = ["# Strength certificate", "",
             "How strong each level of play is, measured, never assumed: every player on one Elo scale, the "
             "search players' skill traces, how much the fixed players lose to a best response, and the search's "
             "headroom. Produced by `scripts/strength.py` (each section names its command); every figure has its "
             "95% interval, every game is played twice with the seats swapped, and each part plays deals of a "
             "seed of its own.", ""]
    parts = {"targets.json": targets_section, "ladder.json": ladder_section, "trace-expert.json": trace_section, "trace-master.json": trace_section,
             "exploit.json": exploit_section, "headroom.json": headroom_section, "seats.json": seats_section}
    for name, section in parts.items():
        f = out / name
        if f.exists():
            d = json.loads(f.read_text())
            lines += section(d)
            if name == "ladder.json":
                lines += ["![strength against speed](frontier.png)", ""]
    judges = [d for f in sorted(out.glob("*.json")) if "mirror_edge" in (d := json.loads(f.read_text()))]
    if judges:
        lines += judge_section(judges)
    return "\n".join(lines)


def write_report(out: Path) -> None:
    if (out / "ladder.json").exists():
        frontier(json.loads((out / "ladder.json").read_text()), out / "frontier.png")
    (out / "README.md").write_text(report_text(out), encoding="utf-8")

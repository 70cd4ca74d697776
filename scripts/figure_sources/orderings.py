"""The figures of the ordering studies (results/orderings/, and results/orderings-greedy/ for the record)."""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Callable

from ccsim.analyses.balance.search.verdict import points

from .common import ROOT, edge, read_json


#: the ordering studies at the default balanced level, and the earlier ones that rest on `greedy` alone
ORDERINGS = "results/orderings"
ORDERINGS_GREEDY = "results/orderings-greedy"


def orderings_search_millions() -> str:
    """The size of the ordering search with `greedy` (results/orderings-greedy/search/search.json): "10-million"."""
    return f"{read_json(f'{ORDERINGS_GREEDY}/search/search.json')['games_used'] / 1e6:.0f}-million"


def orderings_best_greedy() -> str:
    """The best ordering's gain over a shuffled deck in that search, `greedy` against `greedy`: "+21.6"."""
    return points(read_json(f"{ORDERINGS_GREEDY}/search/search.json")["orderings"][0]["diff"])


def _search() -> dict:
    return read_json(f"{ORDERINGS}/search/search.json")


def _win(x: dict, ci: str = "ci95") -> str:
    """A win rate with its interval, the interval's ends without their % sign: "71.6% [71.4, 71.8]"."""
    lo, hi = x[ci]
    return f"{x['win_rate']:.1%} [{100 * lo:.1f}, {100 * hi:.1f}]"


def orderings_search_table() -> str:
    """The ordering search's confirmed top, `shuffled` and the first round's worst, on fresh deals (search.json)."""
    d = _search()
    top = d["orderings"]
    rows = [f"| # | ordering | score, {top[0]['games']:,} fresh games [95%] | vs `shuffled`, points [95%] |",
            "| --- | --- | --- | --- |"]
    rows += [f"| {o['rank']} | `{o['ordering']}` | {_win(o)} | {edge(o['diff'], *o['diff_ci95'])} |" for o in top]
    rows.append(f"| – | `{d['baseline']['ordering']}` | {_win(d['baseline'])} | 0 |")
    w = d["worst"]
    rows.append(f"| worst of the first round | `{w['ordering']}` | {_win(w)} | {edge(w['diff'], *w['diff_ci95'])} |")
    return "\n".join(rows)


def report_best_at_judge(judge: str) -> dict | None:
    """The balance report's claim on the published search's best ordering stated at ``judge``
    (results/balance-report/claims.json, ``orderings.best.levels``): the one source of the best ordering's worth
    at strong play, or None while the report has not measured it there."""
    claims = read_json("results/balance-report/claims.json")
    c = next((c for c in claims["claims"] if c["id"] == "orderings.best.levels"), None)
    best = _search()["orderings"][0]["ordering"]
    if c is None or c["level"] != judge or best not in c["statement"]:
        return None
    return dict(ordering=best, diff=c["value"], diff_ci95=[c["lo"], c["hi"]], games=c["games"],
                source=f"the balance report, seed {claims['seed']}")


def _report_top_at_judge(judge: str, best: dict | None) -> list[dict]:
    """The search's top orderings as the balance report played them with ``judge`` on both sides: the best one
    from its claim (``best``), the others from the report's table of re-measurements."""
    if best is None:
        return []
    rows = _report_remeasured_at(judge).set_index("ordering")
    source = best["source"]
    out = [best]
    for o in _search()["orderings"][1:]:
        if o["ordering"] in rows.index:
            r = rows.loc[o["ordering"]]
            out.append(dict(ordering=o["ordering"], diff=float(r["diff"]),
                            diff_ci95=[float(r["diff_lo"]), float(r["diff_hi"])], games=int(r["games"]),
                            source=source))
    return out


def orderings_judge_table() -> str:
    """The search's best orderings played again by the strongest search, beside the search's own figure and its
    prediction for that search: as the balance report measured them (the best one from its claim, the one source
    of its worth, ``report_best_at_judge``; the others from its table), then the confirmation on fresh deals of
    its own (results/orderings/confirm/judge.json)."""
    search = _search()
    found = {o["ordering"]: o for o in search["orderings"]}
    confirm = read_json(f"{ORDERINGS}/confirm/judge.json")
    judge = confirm["level"]["name"]
    measured = (_report_top_at_judge(judge, report_best_at_judge(judge))
                + [dict(o, source="the confirmation") for o in confirm["orderings"]])
    rows = [f"| ordering | `{search['level']['name']}`, vs `shuffled` | predicted for `{judge}` "
            f"| measured with `{judge}` | held |", "| --- | --- | --- | --- | --- |"]
    for o in measured:
        fast = found[o["ordering"]]
        pred = fast["judge"]
        lo, hi = pred["diff_ci95"]
        held = "yes" if lo <= o["diff"] <= hi else "no"
        rows.append(f"| `{o['ordering']}` | {edge(fast['diff'], *fast['diff_ci95'])} | {edge(pred['diff'], lo, hi)} "
                    f"| {edge(o['diff'], *o['diff_ci95'])} on {o['games']:,} games ({o['source']}) | {held} |")
    return "\n".join(rows)


def orderings_best_lower_ends() -> str:
    """The lower ends of the best ordering's interval, its own and the one valid for the whole top at once."""
    best = _search()["orderings"][0]
    return f"{best['ci95'][0]:.1%}, {best['simultaneous_ci'][0]:.1%} simultaneous over the ten"


def orderings_finalist_deals() -> str:
    """The deals each finalist of the search's first stage plays: the first round's, doubled every round."""
    plan = _search()["plan"]
    return f"{plan['first_deals'] * 2 ** plan['rounds']:,}"


def orderings_search_time() -> str:
    """The search's own clock and speed (search.json)."""
    d = _search()
    return (f"{d['seconds']:.0f} s inside the search ({d['games_used']:,} games at "
            f"{d['games_used'] / d['seconds']:,.0f} games/s)")


@lru_cache(maxsize=None)
def _compared() -> dict[str, str]:
    """Each ordering's score in results/orderings/compare/presets.txt (the presets and the search's two best
    against `shuffled`, seed 2), as the command printed it: "71.9% [71.5, 72.4]"."""
    text = (ROOT / ORDERINGS / "compare" / "presets.txt").read_text(encoding="utf-8")
    out = {}
    for m in re.finditer(r"^([A-Z]{13})(?:\s+([\w-]+))?\s+[\d,]+\s+([\d.]+)%\s*\[\s*([\d.]+)%,\s*([\d.]+)%\]",
                         text, re.M):
        out[m.group(1)] = f"{m.group(3)}% [{m.group(4)}, {m.group(5)}]"
    return out


def _preset_score(name: str) -> Callable[[], str]:
    """A preset's score against `shuffled`, the same level on both sides (its score alone: "50.3%"); found by
    its letters, which the file prints whether or not its name column fits."""
    from ccsim.runner.orderings import PRESETS
    return lambda: _compared()[PRESETS[name][0]].split(" ")[0]


def _report_level() -> str:
    """The level the balance report states its orderings claims at (its claim ``orderings.best.levels``)."""
    claims = read_json("results/balance-report/claims.json")["claims"]
    return next(c["level"] for c in claims if c["id"] == "orderings.best.levels")


def _report_remeasured_at(level: str):
    """The balance report's re-measurements with ``level`` on both sides (results/balance-report/tables)."""
    import pandas as pd
    d = pd.read_parquet(ROOT / "results/balance-report/tables/orderings_remeasured.parquet")
    return d[(d["strategy"] == level) & (d["opponent"] == level)]


def _preset_at_judge(name: str) -> Callable[[], str]:
    """A preset's score against `shuffled` with the report's judge on both sides, with its interval ("53.1% [52.0,
    54.2]"; the report measured it on few games), or "not played" for a preset the report's study does not name."""
    from ccsim.runner.orderings import PRESETS

    def figure() -> str:
        rows = _report_remeasured_at(_report_level())
        r = rows[rows["ordering"] == PRESETS[name][0]]
        if not len(r):
            return "not played"
        r = r.iloc[0]
        return f"{r['win_rate']:.1%} [{100 * r['ci_lo']:.1f}, {100 * r['ci_hi']:.1f}]"
    return figure


def presets_judge_size() -> str:
    """The games each preset played in the balance report with its judge on both sides, and the report's seed."""
    games = max(_report_remeasured_at(_report_level())["games"])
    seed = read_json("results/balance-report/claims.json")["seed"]
    return f"{games:,} games each ({games // 2:,} deals, both seats), seed {seed}"


def orderings_seed_2_check() -> str:
    """The search's two best, measured again on seed 2 (results/orderings/compare/presets.txt)."""
    best = [o["ordering"] for o in _search()["orderings"]]
    named = [o for o in best if o in _compared()]
    return ", ".join(f"`{o}` {_compared()[o]}" for o in named)


def _positions() -> dict:
    return read_json(f"{ORDERINGS}/positions/positions.json")


def _effect(card: str, kind: str, region: str) -> dict:
    return next(e for e in _positions()["effects"] if (e["card"], e["kind"], e["region"]) == (card, kind, region))


def _position_effect(card: str, kind: str, region: str) -> Callable[[], str]:
    """A card's effect at a position ("1" on top) or a region ("top 3") of the deck, in points (positions.json)."""
    return lambda: points(_effect(card, kind, region)["effect"])


def positions_size() -> str:
    d = _positions()
    return f"{d['orderings']:,} random orderings; {d['seconds']:.0f} s of play"


def positions_table() -> str:
    """Each card type's effect in each depth region of the deck, the top three's with its interval (in bold when
    two points or more)."""
    regions = ("top 3", "4-6", "7-10", "bottom 3")
    cards = list(dict.fromkeys(e["card"] for e in _positions()["effects"]))
    rows = ["| card | top 3 | 4–6 | 7–10 | bottom 3 |", "| --- | --- | --- | --- | --- |"]
    for card in cards:
        cells = []
        for region in regions:
            e = _effect(card, "region", region)
            value = points(e["effect"])
            if region == "top 3":
                value = f"**{value}**" if abs(e["effect"]) >= 0.02 else value
                value += f" [{points(e['ci95'][0])}, {points(e['ci95'][1])}]"
            cells.append(value)
        rows.append(f"| {card} | " + " | ".join(cells) + " |")
    return "\n".join(rows)


FIGURES: dict[str, Callable[[], str]] = {
    "orderings-search-millions": orderings_search_millions, "orderings-best-greedy": orderings_best_greedy,
    "orderings-search-table": orderings_search_table, "orderings-judge-table": orderings_judge_table,
    "orderings-best-lower-ends": orderings_best_lower_ends,
    "orderings-finalist-deals": orderings_finalist_deals, "orderings-search-time": orderings_search_time,
    "orderings-seed-2-check": orderings_seed_2_check, "positions-size": positions_size,
    "positions-table": positions_table, "presets-judge-size": presets_judge_size,
    **{f"preset-{name}": _preset_score(name) for name in (
        "balanced", "veto-first", "veto-last", "assassins-first", "spy-first", "wrath-last", "rules-example")},
    **{f"preset-judge-{name}": _preset_at_judge(name) for name in (
        "balanced", "veto-first", "veto-last", "assassins-first", "spy-first", "wrath-last", "rules-example")},
    **{f"position-{card}-{where.replace(' ', '-')}": _position_effect(card, kind, where) for card, kind, where in (
        ("veto", "region", "top 3"), ("spy", "region", "bottom 3"), ("veto", "position", "1"),
        ("scout", "position", "2"), ("spy", "position", "1"), ("wrath", "position", "13"))},
}

"""Every result-backed figure of the documents (README.md, docs/*.md, results/*/README.md, strategies/README.md),
written from the results files.

A figure in a document sits between two markers, inline or as a block:

    a <!-- fig:report-games -->23,086,996<!-- /fig:report-games -->-game study

and this script fills each one from the file that backs it (``FIGURES`` says which), so that no figure a
reader meets is typed by hand.

    python scripts/docs_figures.py            # rewrite every figure from the results
    python scripts/docs_figures.py --check    # exit 1, naming each figure that differs from its results
    python scripts/docs_figures.py --check --no-test-counts   # the same, without collecting the test suite

An unknown marker name is an error (a typo would otherwise leave a figure typed by hand). Whole files written
from the results (``FILES``: the benchmarks' tables, the strength and calibration pages) and the blocks that
``ccsim balance`` writes into results/balance/README.md are checked the same way. ``unowned`` lists the figures
of the documents' prose, and of the comments of examples/, that nothing writes: ``figures`` says what a figure is.
"""
from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import textwrap
from functools import lru_cache
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script from anywhere: the repository's package first
    sys.path.insert(0, str(ROOT))

from ccsim.analyses.balance.judge import level_lean  # noqa: E402
from ccsim.analyses.balance.search.verdict import answer_paragraph, points  # noqa: E402
from ccsim.analyses.levels import level_words  # noqa: E402
from strategies import seats  # noqa: E402

MARKER = re.compile(r"<!-- fig:(?P<name>[\w-]+) -->(?P<body>.*?)<!-- /fig:(?P=name) -->", re.S)
#: the documents whose figures this script fills between markers, and whose prose holds no other figure
DOCUMENTS = ("README.md", "docs/*.md", "results/*/README.md", "strategies/README.md")
#: the examples: their comments are prose a designer reads (their settings are the designer's to change)
EXAMPLES = ("examples/*.toml", "examples/*.py")
WIDTH = 110


def _json(rel: str) -> dict:
    return json.loads((ROOT / rel).read_text(encoding="utf-8"))


@lru_cache(maxsize=None)
def summary() -> dict:
    """The published result of ``ccsim balance``: results/balance/summary.json."""
    return _json("results/balance/summary.json")


def recommendation() -> dict:
    """The published answer: summary.json's ``recommendation``."""
    return summary()["recommendation"]


# --- the figures -------------------------------------------------------------------------------------

def answer() -> str:
    """The answer paragraph, made by the same function that made ``ccsim balance``'s, as a quote."""
    text = answer_paragraph(summary())
    return "\n".join("> " + line for line in textwrap.wrap(text, WIDTH - 2))


def answer_change() -> str:
    """The recommended change in words: "Caesar has 4 veto cards (standard: 2)"."""
    return recommendation().get("words") or "no change"


def _interval(e: dict) -> str:
    lo, hi = e["ci95"]
    return f"{points(e['seat_advantage'])} [{points(lo)}, {points(hi)}]"


def ladder() -> str:
    """Cleopatra's edge under the standard rules and with the recommended change at every level measured,
    strongest first, each level's seat gap beside it."""
    rec = recommendation()
    rows = ["| level of play | seat gap | standard rules | with the change | deals | the change |",
            "|---|---|---|---|---:|---|"]
    verdicts = {"fair": "fair", "not fair": "not fair", "unclear": "unclear"}
    for c in rec.get("curve") or []:
        lv = c["level"]
        gap = level_lean(lv, seats.status(lv), seats.describe(lv), style="column")
        rows.append(f"| {level_words(lv)} | {gap} | {_interval(c['standard'])} | "
                    f"{_interval(c)} | {c['deals']:,} | {verdicts.get(c['verdict'], c['verdict'])} |")
    rows.append("")
    rows += textwrap.wrap(f"Edge: Cleopatra's score − 50%, in points [95% interval]; fair: the whole interval "
                          f"within ±{rec['tolerance_points']:g} point of an even game. Source: "
                          f"`results/balance/summary.json`; seat gaps: `strategies/seats.py`.", WIDTH)
    return "\n".join(rows)


def _names(levels: list[str], conj: str = "and") -> str:
    names = [f"`{lv}`" for lv in levels]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" {conj} " + names[-1]


def where_fair() -> str:
    """The answer's reach in one plain sentence: at which levels measured the change is fair, and whether
    any level that plays both seats alike (``strategies.seats``) finds it fair."""
    rec = recommendation()
    curve = rec.get("curve") or []
    by = {v: [c["level"] for c in curve if c["verdict"] == v] for v in ("fair", "unclear", "not fair")}
    balanced = [c["level"] for c in curve if seats.is_balanced(c["level"])]
    fair_balanced = [lv for lv in by["fair"] if lv in balanced]
    out = (f"In short: the change is fair with {_names(by['fair'])} on both sides" if by["fair"]
           else "In short: the change is fair at no level measured")
    if by["not fair"]:
        out += f", not with {_names(by['not fair'], 'or')}"
    if by["unclear"]:
        out += f"; unclear with {_names(by['unclear'])} (too few games to tell)"
    out += ". "
    if balanced:
        out += (f"Of the levels that play both seats alike ({_names(balanced)}), "
                + (f"it is fair with {_names(fair_balanced)}." if fair_balanced else "none finds it fair."))
    return out


def _gap_interval(r: dict) -> str:
    """A certificate row's seat gap with its 95% interval, in points: "−2.9 [−7.5, +1.7]"."""
    lo, hi = r["seat_gap_ci95"]
    return f"{points(r['seat_gap'] / 100)} [{points(lo / 100)}, {points(hi / 100)}]"


def seat_table() -> str:
    """Every measured player's gains in each seat over `tactician`'s mirror and its seat gap
    (results/strength/seats.json, the packaged copy strategies/seats.json)."""
    d = _json("strategies/seats.json")
    rows = ["| player | as Cleopatra | as Caesar | seat gap [95%] | deals a seat | |", "|---|---:|---:|---|---:|---|"]
    for r in sorted(d["players"], key=lambda r: -(r["gain_cleopatra"] + r["gain_caesar"])):
        rows.append(f"| `{r['name']}` | {points(r['gain_cleopatra'] / 100)} | {points(r['gain_caesar'] / 100)} | "
                    f"{_gap_interval(r)} | {r['deals']:,} | {seats.status_of(r)} |")
    return "\n".join(rows)


#: the value network's training runs with a generation table in docs/learned.md: (folder, what it is)
NEURAL_RUNS = (("results/neural", "the shipped run"), ("results/neural/rerun", "the same command, today's code"))


def _seat_cells(d: dict) -> str:
    """A generation's scores in each seat against `tactician`, its gains over `tactician`'s mirror on the
    same deals, and the seat gap; "not kept" where the generation's weights were not kept to measure them."""
    if not d.get("seats") or d.get("mirror") is None:
        return "not kept | not kept | —"
    cleo, caesar = d["seats"]
    gc, gs = cleo - d["mirror"], caesar - (1 - d["mirror"])
    return f"{cleo:.1%} ({points(gc)}) | {caesar:.1%} ({points(gs)}) | {points(gc - gs)}"


def neural_generations() -> str:
    """The value network's generations, each with its score against `tactician` on its tuning deals and
    in each seat (results/neural/gen*.json and the rerun's)."""
    rows = ["| run | generation | decisions kept | minutes | rating margin | score vs `tactician` [95%] | "
            "as Cleopatra (gain) | as Caesar (gain) | seat gap |", "|---|---:|---:|---:|---:|---|---:|---:|---:|"]
    for folder, label in NEURAL_RUNS:
        for f in sorted((ROOT / folder).glob("gen*.json")):
            d = json.loads(f.read_text())
            lo, hi = d["ci95"]
            rows.append(f"| {label} | {d['generation']} | {d['decisions']:,} | {d['seconds'] / 60:.1f} | {d['margin']:g} | "
                        f"{d['score']:.1%} [{lo:.1%}, {hi:.1%}] | {_seat_cells(d)} |")
    return "\n".join(rows)


def balance_games() -> str:
    return f"{_json('results/balance/summary.json')['games']:,}"


def balance_millions() -> str:
    return f"{_json('results/balance/summary.json')['games'] / 1e6:.1f} million"


def report_games() -> str:
    return f"{_json('results/balance-report/claims.json')['games']:,}"


def report_millions() -> str:
    return f"{_json('results/balance-report/claims.json')['games'] / 1e6:.0f}-million"


def expert_speed() -> str:
    return f"{_json('results/expert/strength.json')['games_per_s']:.0f}"


def _edge(value: float, lo: float, hi: float) -> str:
    """An edge with its interval, in points: "+10.2 [+9.9, +10.5]"."""
    return f"{points(value)} [{points(lo)}, {points(hi)}]"


@lru_cache(maxsize=None)
def _parquet(rel: str):
    import pandas as pd
    return pd.read_parquet(ROOT / rel)


def _remeasured(level: str, setting: str):
    """A row of the published search's fresh re-measure (results/balance/remeasured.parquet)."""
    r = _parquet("results/balance/remeasured.parquet")
    return r[(r["setting"] == setting) & (r["level"] == level)].iloc[0]


def _remeasured_edge(level: str, setting: str) -> Callable[[], str]:
    def figure() -> str:
        row = _remeasured(level, setting)
        return _edge(row["seat_advantage"], row["seat_advantage_lo"], row["seat_advantage_hi"])
    return figure


def _remeasured_effect(level: str, setting: str) -> Callable[[], str]:
    """A change's effect at a level on the re-measure's deals: its edge minus the standard rules'."""
    return lambda: points(_remeasured(level, setting)["diff"])


def _at_judge(setting: str) -> dict:
    """A setting as the published search measured it at its search level (summary.json's ``search``)."""
    return next(s for s in summary()["search"]["settings"] if s["setting"] == setting)["levels"][0]


def _judge_edge(setting: str) -> Callable[[], str]:
    def figure() -> str:
        x = _at_judge(setting)
        return _edge(x["seat_advantage"], *x["ci95"])
    return figure


def _judge_effect(setting: str) -> Callable[[], str]:
    return lambda: points(_at_judge(setting)["diff"])


def judge_cleopatra_veto_1() -> str:
    """Cleopatra's one veto fewer at the judge, the check after the search (results/balance/ring/anchors.json)."""
    a = next(a for a in _json("results/balance/ring/anchors.json")["anchors"]
             if a["setting"] == [["action_count.cleopatra.veto", 1]])
    return _edge(a["seat_advantage"], *a["ci95"])


def balance_all_games() -> str:
    """Every game the published search played: the race, the re-measure, the search level, the skill curve."""
    s = summary()
    return f"{s['games'] + s['fresh']['games'] + s['search']['games'] + s['skill']['games']:,}"


def centre_prediction() -> str:
    """Cleopatra's one veto fewer at the judge as the ring's centre rule predicts it from the published tables
    (``ccsim.analyses.balance.centre``, before the judge measured her): "predicted at +1.1 (95% interval …)"."""
    import pandas as pd
    from ccsim.analyses.balance.ring.centre import balanced_fast, centre_ranking, kept_rows
    from ccsim.analyses.balance.space import load_space
    from ccsim.analyses.balance.ring.widen import judge_frame
    folder = ROOT / "results" / "balance"
    read = {n: pd.read_parquet(folder / f"{n}.parquet") for n in ("candidates", "remeasured", "search", "skill")}
    judge = summary()["search"]["level"]
    levels = [lv.name for lv in load_space(folder / "space.toml").levels]
    ranking = centre_ranking(kept_rows(read["remeasured"], read["candidates"]),
                             judge_frame((read["search"], read["skill"], read["remeasured"]), judge),
                             balanced_fast(levels, judge))
    row = ranking[ranking["setting"] == "action_count.cleopatra.veto 1"].iloc[0]
    return f"predicted at {points(row['edge'])} (95% interval {points(row['lo'])} to {points(row['hi'])})"


def race_rounds() -> str:
    """The published search's race in one sentence, from its first and last rounds (summary.json's ``rounds``)."""
    rounds = summary()["rounds"]
    first, last = rounds[0], rounds[-1]
    return (f"the first round gave each of the {first['candidates']} candidates {first['deals']:,} deals and put "
            f"{first['out_unfair']} out as clearly unfair; the {last['candidates']} finalists played "
            f"{sum(r['deals'] for r in rounds):,} deals each, over {len(rounds)} rounds.")


def _level_label(level: str) -> str:
    """A level as the balance tables name it, with its seat-gap status when it is not balanced."""
    status = seats.status(level)
    return f"`{level}`" + ("" if status == "balanced" else f" ({status})")


def remeasured_table() -> str:
    """Every simplest setting on the re-measure's fresh deals at both levels (remeasured.parquet)."""
    r = _parquet("results/balance/remeasured.parquet")
    levels = list(dict.fromkeys(r["level"]))
    rows = ["| setting | changes | " + " | ".join(f"`{lv}`" for lv in levels) + " | verdict |",
            "|---|---:|" + "---|" * len(levels) + "---|"]
    for setting, g in r.groupby("setting", sort=False):
        by = {row["level"]: row for _, row in g.iterrows()}
        first = g.iloc[0]
        name = first["words"] + ("" if setting == "RULES.md" else f" (`{setting}`)")
        fair = [lv for lv in levels if by[lv]["fair"]]
        verdict = ("fair at every level" if len(fair) == len(levels) else
                   f"fair at {', '.join(f'`{lv}`' for lv in fair)} only" if fair else "not fair")
        cells = " | ".join(_edge(by[lv]["seat_advantage"], by[lv]["seat_advantage_lo"], by[lv]["seat_advantage_hi"])
                           for lv in levels)
        rows.append(f"| {name} | {first['changes']} | {cells} | {verdict} |")
    return "\n".join(rows)


def search_table() -> str:
    """The final candidate and the standard rules at the search level, paired (summary.json's ``search``)."""
    level = summary()["search"]["level"]
    rows = [f"| setting | `{level}` | against the standard rules, same deals |", "|---|---|---|"]
    for s in summary()["search"]["settings"]:
        x = s["levels"][0]
        diff = "" if s["setting"] == "RULES.md" else _edge(x["diff"], *x["diff_ci95"])
        rows.append(f"| {s['words']} | {_edge(x['seat_advantage'], *x['ci95'])} | {diff} |")
    return "\n".join(rows)


def skill_table() -> str:
    """The search's own skill curve for its final candidate (results/balance/skill.parquet), each level at its Elo."""
    s = _parquet("results/balance/skill.parquet")
    change = s[s["setting"] != "RULES.md"].iloc[0]["words"].split(" (standard")[0]
    rows = [f"| level | Elo | deals an arm | the standard rules | {change} |", "|---|---:|---:|---|---|"]
    for level, g in s.groupby("level", sort=False):
        std, alt = g[g["setting"] == "RULES.md"].iloc[0], g[g["setting"] != "RULES.md"].iloc[0]
        elo = "{:+.0f}".format(std["elo"]).replace("-", "−") if round(std["elo"]) else "0"
        rows.append(f"| {_level_label(level)} | {elo} | {int(std['deals']):,} | "
                    f"{_edge(std['seat_advantage'], std['seat_advantage_lo'], std['seat_advantage_hi'])} | "
                    f"{_edge(alt['seat_advantage'], alt['seat_advantage_lo'], alt['seat_advantage_hi'])}"
                    + (" fair" if alt["fair"] else "") + " |")
    return "\n".join(rows)


def skill_elo_sources() -> str:
    """Where the skill curve's Elo of the levels off the ladder come from (skill.parquet's ``elo_source``)."""
    s = _parquet("results/balance/skill.parquet")
    off = s[s["elo_source"] != "ladder"].drop_duplicates("level")
    return "; ".join(f"`{r['level']}` from its {r['elo_source']}" for _, r in off.iterrows())


def ring_minutes() -> str:
    """The published search's next ring, screen to confirmation, in minutes (results/balance/ring/ring.json)."""
    return f"{_json('results/balance/ring/ring.json')['seconds'] / 60:.0f}"


def ring_confirm_minutes() -> str:
    """The minutes of the ring's confirmation of its winner at the judge (results/balance/ring/ring.json)."""
    return f"{_json('results/balance/ring/ring.json')['confirm']['seconds'] / 60:.0f}"


def master_mirror_speed() -> str:
    """games/s of `master`'s mirror as the published report played it (its part's own clock, info.json)."""
    info = next((ROOT / "results" / "balance-report" / "parts").glob("mirror_master_*/info.json"))
    d = json.loads(info.read_text(encoding="utf-8"))
    return f"{d['games'] / d['seconds']:.0f}"


def greedy_elo() -> str:
    """`greedy`'s rating in the round robin of every strategy (results/strategies.json): "−444"."""
    r = next(r for r in _json("results/strategies.json")["tournament"]["ratings"] if r["entrant"] == "greedy")
    return f"{r['elo']:+.0f}".replace("-", "−")


#: the ordering studies at the default balanced level, and the earlier ones that rest on `greedy` alone
ORDERINGS = "results/orderings"
ORDERINGS_GREEDY = "results/orderings-greedy"


def orderings_search_millions() -> str:
    """The size of the ordering search with `greedy` (results/orderings-greedy/search/search.json): "10-million"."""
    return f"{_json(f'{ORDERINGS_GREEDY}/search/search.json')['games_used'] / 1e6:.0f}-million"


def orderings_best_greedy() -> str:
    """The best ordering's gain over a shuffled deck in that search, `greedy` against `greedy`: "+21.6"."""
    return points(_json(f"{ORDERINGS_GREEDY}/search/search.json")["orderings"][0]["diff"])


def _elo(r: dict) -> str:
    lo, hi = r["ci95"]
    return "{:+.0f} Elo [{:+.0f}, {:+.0f}]".format(r["elo"], lo, hi).replace("-", "−")


def expert_round_robin() -> str:
    """`expert` in the round robin of every strategy (results/strategies.json): its rating beside `tactician`'s,
    its scores against the heuristics (every entrant but `random` and `greedy`) and against `greedy`."""
    d = _json("results/strategies.json")["tournament"]
    rating = {r["entrant"]: r for r in d["ratings"]}
    m = d["matrix"]
    row = m["entrants"].index("expert")
    score = {name: (m["score"][row][j], m["ci95_lo"][row][j], m["ci95_hi"][row][j])
             for j, name in enumerate(m["entrants"]) if j != row}
    heuristics = [s for name, (s, _, _) in score.items() if name not in ("random", "greedy")]
    s, lo, hi = score["tactician"]
    return (f"`expert` rates first, {_elo(rating['expert'])} against `tactician`'s "
            f"{_elo(rating['tactician']).replace(' Elo', '')}; it scores {100 * min(heuristics):.0f}–"
            f"{100 * max(heuristics):.0f}% against every heuristic ({s:.1%} [{lo:.1%}, {hi:.1%}] against `tactician`), "
            f"{score['greedy'][0]:.1%} against `greedy`")


def learned_selection() -> str:
    """The shipped `learned` weights' score against `tactician` on their selection deals: the best round of the
    training (results/learned/history.json), "53.2% [52.2%, 54.2%]"."""
    best = max(_json("results/learned/history.json")["rounds"], key=lambda r: r["score"])
    lo, hi = best["ci95"]
    return f"{best['score']:.1%} [{lo:.1%}, {hi:.1%}]"


def learned_speed() -> str:
    return f"{_strong_speed('learned', 'learned'):,.0f}"


def _search() -> dict:
    return _json(f"{ORDERINGS}/search/search.json")


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
    rows += [f"| {o['rank']} | `{o['ordering']}` | {_win(o)} | {_edge(o['diff'], *o['diff_ci95'])} |" for o in top]
    rows.append(f"| – | `{d['baseline']['ordering']}` | {_win(d['baseline'])} | 0 |")
    w = d["worst"]
    rows.append(f"| worst of the first round | `{w['ordering']}` | {_win(w)} | {_edge(w['diff'], *w['diff_ci95'])} |")
    return "\n".join(rows)


def orderings_judge_table() -> str:
    """The search's best orderings played again by the strongest search on fresh deals
    (results/orderings/confirm/judge.json), beside the search's own figure and its prediction for that search."""
    found = {o["ordering"]: o for o in _search()["orderings"]}
    confirm = _json(f"{ORDERINGS}/confirm/judge.json")
    judge = confirm["level"]["name"]
    rows = [f"| ordering | `{_search()['level']['name']}`, vs `shuffled` | predicted for `{judge}` "
            f"| measured with `{judge}` | held |", "| --- | --- | --- | --- | --- |"]
    for o in confirm["orderings"]:
        fast = found[o["ordering"]]
        pred = fast["judge"]
        lo, hi = pred["diff_ci95"]
        held = "yes" if lo <= o["diff"] <= hi else "no"
        rows.append(f"| `{o['ordering']}` | {_edge(fast['diff'], *fast['diff_ci95'])} | {_edge(pred['diff'], lo, hi)} "
                    f"| {_edge(o['diff'], *o['diff_ci95'])} on {o['games']:,} games | {held} |")
    return "\n".join(rows)


def judge_settings_table() -> str:
    """The cheaper settings of the judge tried (results/strength/judge-settings/settings.json): each one's speed
    against the judge's in the same run, its score against the judge, and its seat gap against `tactician`."""
    d = _json("results/strength/judge-settings/settings.json")
    rows = [f"| setting | games/s in its mirror (×`{d['judge']}`'s) | score against `{d['judge']}` [95%] "
            "| seat gap against `tactician` [95%] |", "| --- | --- | --- | --- |"]
    for r in d["settings"]:
        vs, seats = r["against_judge"], r["seats"]
        score = (f"{vs['score']:.1f}% [{vs['ci95'][0]:.1f}%, {vs['ci95'][1]:.1f}%] on {vs['games']:,} games"
                 if vs else "not played")
        gap = (f"{_edge(seats['seat_gap'] / 100, *(x / 100 for x in seats['seat_gap_ci95']))} on "
               f"{seats['deals_a_seat']:,} deals a seat" if seats else "not played")
        rows.append(f"| `{r['name']}` | {r['mirror_games_per_s']:.0f} ({r['speed_ratio']:.1f}×) | {score} | {gap} |")
    rows.append(f"| `{d['judge']}` (today's judge) | {d['judge_mirror_games_per_s']:.1f} (1×) | – | "
                f"{_gap(d['judge'])()} |")
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


def orderings_seed_2_check() -> str:
    """The search's two best, measured again on seed 2 (results/orderings/compare/presets.txt)."""
    best = [o["ordering"] for o in _search()["orderings"]]
    named = [o for o in best if o in _compared()]
    return ", ".join(f"`{o}` {_compared()[o]}" for o in named)


def _positions() -> dict:
    return _json(f"{ORDERINGS}/positions/positions.json")


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


def _score(x: dict) -> str:
    """A score with its interval: "60.2% [59.5%, 60.9%]"."""
    lo, hi = x["ci95"]
    return f"{x['score']:.1%} [{lo:.1%}, {hi:.1%}]"


def _generations(folder: str) -> list[dict]:
    return [json.loads(f.read_text()) for f in sorted((ROOT / folder).glob("gen*.json"))]


def _generation_scores(folder: str) -> Callable[[], str]:
    """A training run's generations' scores against `tactician` on their tuning deals: "57.4% → 60.9% → 61.6%"."""
    return lambda: " → ".join(f"{g['score']:.1%}" for g in _generations(folder))


def neural_gain() -> str:
    """What the shipped run's generation 1 gained over its generation 0, in points."""
    g = _generations("results/neural")
    return points(g[1]["score"] - g[0]["score"])


def neural_minutes() -> str:
    """The shipped network's training, every generation, in minutes (results/neural/history.json)."""
    return f"{sum(g['seconds'] for g in _json('results/neural/history.json')['generations']) / 60:.0f}"


def _network(a: str, b: str) -> dict:
    return next(r for r in _json("results/strength/network.json")["rows"] if (r["a"], r["b"]) == (a, b))


def network_table() -> str:
    """The network players on fresh seeds (results/strength/network.json)."""
    rows = ["| player | against | games | score |", "|---|---|---:|---|"]
    for r in _json("results/strength/network.json")["rows"]:
        against = f"`{r['b']}`" + (" (budget 64)" if r["b"] == "expert" else "")
        rows.append(f"| `{r['a']}` | {against} | {r['games']:,} | {_score(r)} |")
    return "\n".join(rows)


def neural_search_fresh() -> str:
    """`neural-search` against `master` on fresh seeds, and its speed against `tactician` beside `master`'s."""
    r = _network("neural-search", "master")
    speed = _json("results/strength/network.json")["games_per_s"]
    mine, theirs = speed["neural-search vs tactician"], speed["master vs tactician"]
    return (f"{_score(r)} against `master` over {r['games']:,} games at {mine / theirs:.1f} times its games/s "
            f"against `tactician` ({mine:g} and {theirs:g})")


def network_neural_search_master() -> str:
    return _score(_network("neural-search", "master"))


_DECISIONS = {"all": "all six (the shipped `neural-search`)", "nodraws": "no draws", "msv": "`mode`, `step`, `veto`"}


def retune_table() -> str:
    """`neural-search` re-tuned: each setting against `master` and its speed beside `master`'s
    (results/neural-search/retune/results.json)."""
    d = _json("results/neural-search/retune/results.json")
    master = d["master_games_per_s_vs_tactician"]
    rows = ["| budget | depth | decisions searched | score vs `master` | games/s vs `tactician` | × `master`'s |",
            "|---:|---:|---|---|---:|---:|"]
    for r in d["tuning"]:
        budget, depth, decisions = re.fullmatch(r"b(\d+)-d(\d+)-(\w+)", r["setting"]).groups()
        rows.append(f"| {budget} | {depth} | {_DECISIONS[decisions]} | "
                    f"{_score(dict(score=r['score_vs_master'], ci95=r['ci95']))} | "
                    f"{r['games_per_s_vs_tactician']:.1f} | {r['games_per_s_vs_tactician'] / master:.1f} |")
    rows.append(f"| `master` | | | | {master:.1f} | 1 |")
    return "\n".join(rows)


def retune_fresh() -> str:
    f = _json("results/neural-search/retune/results.json")["fresh"]
    return _score(dict(score=f["score_vs_master"], ci95=f["ci95"]))


def _target(a: str, b: str) -> Callable[[], str]:
    """A fresh-seed score of the strength certificate's targets (results/strength/targets.json)."""
    return lambda: _score(next(r for r in _json("results/strength/targets.json")["rows"] if (r["a"], r["b"]) == (a, b)))


def _ladder_elo(name: str) -> Callable[[], str]:
    """A player's rating on the one Elo scale, with its interval (results/strength/ladder.json)."""
    def figure() -> str:
        r = next(r for r in _json("results/strength/ladder.json")["ratings"] if r["entrant"] == name)
        return "{:+.0f} [{:+.0f}, {:+.0f}]".format(r["elo"], *r["ci95"]).replace("-", "−")
    return figure


def _seat_gains(name: str) -> Callable[[], str]:
    """A player's gains over `tactician`'s mirror in each seat (strategies/seats.json)."""
    def figure() -> str:
        r = seats.seat_row(name)
        return (f"{points(r['gain_cleopatra'] / 100)} as Cleopatra and {points(r['gain_caesar'] / 100)} as Caesar, "
                f"on {r['deals']:,} deals a seat")
    return figure


def tactician_speed() -> str:
    return f"{_strong_speed('tactician', 'tactician'):,.0f}"


def expert_b256_speed() -> str:
    return f"{_strong_speed('expert-b256', 'tactician'):.1f}"


def _strong_speed(a: str, b: str) -> float:
    """games/s of a matchup on 2 threads, timed in one process (results/bench/strong.json)."""
    rows = _json("results/bench/strong.json")["rows"]
    return next(r["games_per_s"] for r in rows
                if (r["cleopatra"], r["caesar"], r["threads"], r["how"]) == (a, b, 2, "in one process"))


def master_speed() -> str:
    return f"{_strong_speed('master', 'tactician'):.0f}"


def neural_speed() -> str:
    return f"{_strong_speed('neural', 'neural'):,.0f}"


def warm_start() -> str:
    """Seconds of a warm start, `ccsim run --games 1000` with the cache filled (results/bench/engine.json)."""
    return f"{_json('results/bench/engine.json')['warm_start_s']:.1f}"


def _tests_time(tier: str, field: str) -> Callable[[], str]:
    """A test tier's time as results/bench/tests.json holds it: a range as "13–20", one figure as "55"."""
    def figure() -> str:
        v = _json("results/bench/tests.json")[tier][field]
        low, high = v if isinstance(v, list) else (v, v)
        return f"{low:g}" if low == high else f"{low:g}–{high:g}"
    return figure


@lru_cache(maxsize=None)
def _test_counts() -> tuple[int, int]:
    """(fast tier, all) as pytest collects them, rounded to 50 so one new test does not move the figure."""
    def count(*extra: str) -> int:
        p = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *extra],
                           cwd=ROOT, capture_output=True, text=True)
        m = re.search(r"(\d+)(?:/(\d+))? tests? collected", p.stdout)
        if not m:
            raise SystemExit(f"docs_figures: could not count the tests: {p.stdout[-300:]}{p.stderr[-300:]}")
        return int(m.group(1)), int(m.group(2) or m.group(1))
    fast, total = count("-m", "not slow")
    return 50 * round(fast / 50), 50 * round(total / 50)


def tests_fast() -> str:
    return f"{_test_counts()[0]:,}"


def tests_all() -> str:
    return f"{_test_counts()[1]:,}"


def _flat_rules(block: dict, prefix: str = "") -> dict:
    """A nested rules block as the form's dotted keys: {"action_count.caesar.veto": 4}."""
    out = {}
    for k, v in block.items():
        out |= _flat_rules(v, f"{prefix}{k}.") if isinstance(v, dict) else {f"{prefix}{k}": v}
    return out


def published_json() -> str:
    """The page's copy of the published answer (ccsim/explore/static/answer.json): the change in words, the
    level that judged it, the form query that loads it, and the paragraph."""
    rec = recommendation()
    query = [[k, str(v)] for k, v in _flat_rules(rec.get("rules") or {}).items()]
    query += [["variant", v] for v in rec.get("variants") or []]
    at = rec.get("at_judge") or {}
    judged = (f"judged with {level_words(rec['judge'])} on both sides: Cleopatra's edge "
              f"{points(rec['standard']['seat_advantage'])} points under the standard rules, "
              f"{points(at['seat_advantage'])} with the change" if at else "")
    data = dict(words=rec.get("words"), level=rec.get("judge"), judged=judged, query=query,
                text=answer_paragraph(summary()), source="results/balance/summary.json")
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def _script(name: str):
    """A module of scripts/ (this folder is no package)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def benchmarks() -> str:
    """results/BENCHMARKS.md from results/bench/*.json (scripts/bench_table.py)."""
    return _script("bench_table").render(ROOT)


def strength_page() -> str:
    """results/strength/README.md from its parts' JSON files (scripts/strength_report.py, no plot drawn)."""
    return _script("strength_report").report_text(ROOT / "results" / "strength")


def calibration_page() -> str:
    """results/calibration/README.md from calibration.json (scripts/calibrate.py report)."""
    from ccsim.present.calibration import calibration_markdown
    return calibration_markdown(_json("results/calibration/calibration.json"))


#: files written whole from the results (the explore page's copy of the answer ships with the package)
FILES: dict[str, Callable[[], str]] = {
    "ccsim/explore/static/answer.json": published_json, "results/BENCHMARKS.md": benchmarks,
    "results/strength/README.md": strength_page, "results/calibration/README.md": calibration_page}


def balance_page(text: str) -> str:
    """results/balance/README.md with the blocks ``ccsim balance`` writes from summary.json and ring/ring.json
    (the answer, the next ring) written again; the rest of the page is prose."""
    from ccsim.analyses.balance.publish import answer as publish
    text = publish._with_answer(text, answer_paragraph(summary()))
    return publish._between(text, publish.RING_MARKS, publish.ring_markdown(_json("results/balance/ring/ring.json")))


#: documents with blocks a command writes between its own markers, each the command's way of writing them
WRITTEN_BLOCKS: dict[str, tuple[Callable[[str], str], tuple[tuple[str, str], ...]]] = {
    "results/balance/README.md": (balance_page, (("<!-- answer -->", "<!-- /answer -->"),
                                                 ("<!-- ring -->", "<!-- /ring -->")))}

def _gap(name: str) -> Callable[[], str]:
    """``name``'s seat gap with its interval and its kind, in points (the certificate's)."""
    def gap() -> str:
        r = seats.seat_row(name)
        return f"{_gap_interval(r)} on {r['deals']:,} deals a seat, {seats.status_of(r)}"
    return gap


def judge_status() -> str:
    """Whether a search judges today: the judge (the strongest search shown balanced), or the strongest search's
    own seat gap and status when none is (strategies/seats.json)."""
    from ccsim.analyses.levels import search_level, strong_level
    if search_level():
        return f"`{search_level()}` judges: {seats.describe(search_level())}, {_gap(search_level())()}."
    name = strong_level()
    return (f"No search is shown balanced today: `{name}` {seats.describe(name)} against `tactician`, "
            f"{_gap(name)()} (a gap known to ±1 point and beyond ±3), and `master`'s gap is "
            f"{seats.status('master')}. So {name}'s figures are strong play's best, shown beside every fast figure "
            f"with that said, but not yet a verdict by a balanced judge.")


def calibration() -> str:
    """The judge's map checked on settings it was not fitted on (results/calibration/calibration.json), one
    sentence per fast level."""
    from ccsim.present.calibration import summary_sentence
    d = _json("results/calibration/calibration.json")
    return " ".join(summary_sentence(s, d["judge"]) for s in d["summaries"])


FIGURES: dict[str, Callable[[], str]] = {
    "answer": answer, "answer-change": answer_change, "ladder": ladder, "where-fair": where_fair,
    "seat-table": seat_table, "neural-generations": neural_generations,
    "balance-games": balance_games, "balance-millions": balance_millions,
    "report-games": report_games, "report-millions": report_millions,
    "expert-speed": expert_speed, "master-speed": master_speed, "neural-speed": neural_speed,
    "tactician-standard": _remeasured_edge("tactician", "RULES.md"), "ring-minutes": ring_minutes,
    "ring-confirm-minutes": ring_confirm_minutes, "master-mirror-speed": master_mirror_speed,
    "warm-start": warm_start, "greedy-elo": greedy_elo, "orderings-search-millions": orderings_search_millions,
    "orderings-best-greedy": orderings_best_greedy, "expert-round-robin": expert_round_robin,
    "learned-selection": learned_selection, "learned-speed": learned_speed,
    "edge-neural-standard": _remeasured_edge("neural", "RULES.md"),
    "effect-neural-caesar-veto-4": _remeasured_effect("neural", "action_count.caesar.veto 4"),
    "edge-judge-standard": _judge_edge("RULES.md"),
    "edge-judge-caesar-veto-4": _judge_edge("action_count.caesar.veto 4"),
    "effect-judge-caesar-veto-4": _judge_effect("action_count.caesar.veto 4"),
    "edge-judge-cleopatra-veto-1": judge_cleopatra_veto_1, "balance-all-games": balance_all_games,
    "remeasured-table": remeasured_table, "search-table": search_table, "skill-table": skill_table,
    "skill-elo-sources": skill_elo_sources, "race-rounds": race_rounds,
    "centre-prediction": centre_prediction,
    "neural-generation-scores": _generation_scores("results/neural"),
    "neural-rerun-scores": _generation_scores("results/neural/rerun"), "neural-gain": neural_gain,
    "neural-minutes": neural_minutes, "network-table": network_table, "neural-search-fresh": neural_search_fresh,
    "network-neural-search-master": network_neural_search_master, "retune-table": retune_table,
    "retune-fresh": retune_fresh, "target-master": _target("master", "expert-b256"),
    "target-learned": _target("learned", "tactician"), "tactician-speed": tactician_speed,
    "expert-b256-speed": expert_b256_speed,
    **{f"elo-{name}": _ladder_elo(name) for name in ("master", "expert-b256", "neural-search", "neural")},
    **{f"gains-{name}": _seat_gains(name) for name in ("neural", "neural-search", "master")},
    "orderings-search-table": orderings_search_table, "orderings-judge-table": orderings_judge_table,
    "judge-settings-table": judge_settings_table,
    "orderings-best-lower-ends": orderings_best_lower_ends,
    "orderings-finalist-deals": orderings_finalist_deals, "orderings-search-time": orderings_search_time,
    "orderings-seed-2-check": orderings_seed_2_check, "positions-size": positions_size,
    "positions-table": positions_table,
    **{f"preset-{name}": _preset_score(name) for name in (
        "balanced", "veto-first", "veto-last", "assassins-first", "spy-first", "wrath-last", "rules-example")},
    **{f"position-{card}-{where.replace(' ', '-')}": _position_effect(card, kind, where) for card, kind, where in (
        ("veto", "region", "top 3"), ("spy", "region", "bottom 3"), ("veto", "position", "1"),
        ("scout", "position", "2"), ("spy", "position", "1"), ("wrath", "position", "13"))},
    "tests-fast": tests_fast, "tests-all": tests_all,
    **{f"tests-{tier}-{name}": _tests_time(tier, field) for tier, name, field in (
        ("all", "minutes", "minutes"), ("fast", "minutes", "minutes"), ("fast", "cpu", "cpu_s"),
        ("fast", "busy", "busy_minutes"), ("plain", "cpu", "cpu_s"))},
    "calibration": calibration, "judge-status": judge_status,
    **{f"gap-{name}": _gap(name) for name in ("neural", "neural-search", "master", "learned")},
}
#: figures that need the test suite collected (seconds, not milliseconds)
TEST_COUNTS = {"tests-fast", "tests-all"}
#: figures written as blocks (their own lines between the markers)
BLOCKS = {"answer", "ladder", "seat-table", "neural-generations", "remeasured-table", "search-table", "skill-table",
          "orderings-search-table", "orderings-judge-table", "judge-settings-table", "positions-table", "network-table", "retune-table"}


def documents(root: Path = ROOT) -> list[Path]:
    return sorted({p for pattern in DOCUMENTS for p in root.glob(pattern)})


# --- the figures nothing writes ------------------------------------------------------------------------

_N = r"\d[\d,]*(?:\.\d+)?"
_BOUND = rf"[+−]?{_N}%?"
_FIGURE = re.compile("|".join((
    rf"(?<![\w.±+−]){'[+−]'}{_N}",                                    # signed: +0.9, −2.9, +247 (Elo)
    r"(?<![\w.])\d+\.\d+%",                                          # a percentage with decimals: 53.2%
    rf"\[\s*{_BOUND}\s*,\s*{_BOUND}\s*\]",                             # an interval: [+9.9, +10.5]
    rf"(?<![\w.]){_N}k?\s+(?:games/s|games a second|games per (?:CPU-)?second|evaluations a second)",  # a speed
    rf"(?<![\w.])(?<!after )(?<!for )(?<!within )(?<!every ){_N}\s*(?:s|min|minutes?|hours?)\b",  # a run's time
    r"(?<![\w.×])\d+(?:\.\d+)?×(?!\d)",                                # a ratio: 1.4× (not a shape, 2×5)
    r"(?<![\w.])\d+(?:\.\d+)?[- ]million",                              # a study's size: 4.2 million games
    r"(?<![\w.,])\d{1,3}(?:,\d{3})*,(?!000\b)\d{3}\s+(?:games|deals)\b",  # a count played: 4,221,992 games
)))
#: what a reader does not read as prose: code blocks, code spans, and what a generator writes between markers
_NOT_PROSE = (re.compile(r"^\s*```.*?^\s*```[ \t]*$", re.S | re.M), re.compile(r"`[^`\n]*`"), MARKER)


def figures(text: str) -> list[str]:
    """Every figure of a text: a measured result a reader might copy, that drifts when the results change.

    A figure is a signed number (a seat edge or gap +0.9 or −2.9, an effect, an Elo rating +247; "−1", the
    rules' code for none, is not one), a percentage with decimals (53.2%), an interval of such numbers
    ([+9.9, +10.5], [52.2%, 54.2%]; one without a sign or a decimal point, [0, 1], is a range of values), a
    speed (46,075 games/s, games a second), a run's time (41 s, 54 minutes, 2 hours; not a waiting time
    "after 30 s", "for 30 s", "within 30 minutes", "every 5 s", which is a setting), a ratio (1.4×; not a
    shape, 2×5), a study's size in millions (4.2 million, a 10-million-game search) or a count of games or deals
    that is not a round thousand (4,221,992 games: 100,000 deals is a number a command was asked for).
    Not figures: rule numbers, the rules' card counts, dates, versions, round inputs of commands, targets
    (≥ 55%, ≤ 30 s: a bound asked for, not a result). The text is prose already (``prose``): what a generator
    writes is left out before, and so are code blocks and spans, a command (the documents' tests run them) or a
    command's printed output quoted as an example of what it prints (no test reprints those yet)."""
    found = (m.group(0) for m in _FIGURE.finditer(text) if not text[:m.start()].rstrip(" ").endswith(("≥", "≤")))
    return [f for f in found if f != "−1" and not (f.startswith("[") and not re.search(r"[+−.]", f))]


def prose(text: str, comments: bool = False) -> str:
    """What a reader reads as prose in a document: its text without code blocks, code spans, figures between
    markers and the blocks a command writes (``WRITTEN_BLOCKS``); with ``comments``, a file's comments only
    (an example's ``# ...``: its settings are the designer's to change, not figures)."""
    if comments:
        text = "\n".join(line.split("#", 1)[1] for line in text.splitlines() if "#" in line)
    for marks in (m for _, blocks in WRITTEN_BLOCKS.values() for m in blocks):
        text = re.sub(re.escape(marks[0]) + ".*?" + re.escape(marks[1]), " ", text, flags=re.S)
    for pattern in _NOT_PROSE:
        text = pattern.sub(" ", text)
    return text


def unowned(root: Path = ROOT) -> dict[str, list[str]]:
    """The figures nothing writes, by file: in the prose of the documents and the comments of the examples.
    A file written whole from the results (``FILES``) is owned throughout."""
    out = {}
    examples = {p for pattern in EXAMPLES for p in root.glob(pattern)}
    for path in sorted(set(documents(root)) | examples):
        rel = str(path.relative_to(root))
        if rel in FILES:
            continue
        found = figures(prose(path.read_text(encoding="utf-8"), comments=path in examples))
        if found:
            out[rel] = found
    return out


def fill(text: str, skip: frozenset = frozenset()) -> tuple[str, list[str]]:
    """The text with every figure filled, and the names of the figures that changed."""
    changed = []

    def one(m: re.Match) -> str:
        name, body = m.group("name"), m.group("body")
        if name not in FIGURES:
            raise SystemExit(f"docs_figures: unknown figure '{name}' (known: {', '.join(sorted(FIGURES))})")
        if name in skip:
            return m.group(0)
        value = FIGURES[name]()
        new = f"\n{value}\n" if name in BLOCKS else value
        if new != body:
            changed.append(name)
        return f"<!-- fig:{name} -->{new}<!-- /fig:{name} -->"

    return MARKER.sub(one, text), changed


def run(check: bool, skip: frozenset = frozenset(), root: Path = ROOT) -> list[str]:
    """Fill (or check) every document and generated file; the list of "file: figure" that were (or would
    be) changed."""
    drift = []
    for rel, make in FILES.items():
        path = root / rel
        if not path.parent.exists():
            continue
        new = make()
        if not path.exists() or path.read_text(encoding="utf-8") != new:
            drift.append(f"{rel}: the whole file")
            if not check:
                path.write_text(new, encoding="utf-8")
    for path in documents(root):
        text = path.read_text(encoding="utf-8")
        new, changed = fill(text, skip)
        rel = str(path.relative_to(root))
        if rel in WRITTEN_BLOCKS:
            written = WRITTEN_BLOCKS[rel][0](new)
            changed += ["its written blocks"] if written != new else []
            new = written
        drift += [f"{rel}: {name}" for name in changed]
        if changed and not check:
            path.write_text(new, encoding="utf-8")
    return drift


def main(argv: list[str] | None = None, root: Path = ROOT) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="change nothing; exit 1 if a figure differs")
    ap.add_argument("--no-test-counts", action="store_true", help="leave the test counts alone (no collection)")
    args = ap.parse_args(argv)
    skip = frozenset(TEST_COUNTS) if args.no_test_counts else frozenset()
    drift = run(args.check, skip, root)
    for d in drift:
        print(("differs from the results: " if args.check else "written: ") + d)
    if args.check and drift:
        print("run `python scripts/docs_figures.py` to write them from the results", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

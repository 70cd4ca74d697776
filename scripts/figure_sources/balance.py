"""The figures of the balance search and its published answer (results/balance/, the report's totals)."""
from __future__ import annotations

import json
import textwrap
from typing import Callable

from ccsim.analyses.balance.judge import level_lean
from ccsim.analyses.balance.search.verdict import answer_paragraph, points
from ccsim.analyses.levels import level_words
from strategies import seats

from .common import ROOT, WIDTH, edge, gap_interval, parquet, read_json, recommendation, summary


def answer() -> str:
    """The answer paragraph, made by the same function that made ``ccsim balance``'s, as a quote."""
    text = answer_paragraph(summary())
    return "\n".join("> " + line for line in textwrap.wrap(text, WIDTH - 2, break_on_hyphens=False))


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


def seat_table() -> str:
    """Every measured player's gains in each seat over `tactician`'s mirror and its seat gap
    (results/strength/seats.json, the packaged copy strategies/seats.json)."""
    d = read_json("strategies/seats.json")
    rows = ["| player | as Cleopatra | as Caesar | seat gap [95%] | deals a seat | |", "|---|---:|---:|---|---:|---|"]
    for r in sorted(d["players"], key=lambda r: -(r["gain_cleopatra"] + r["gain_caesar"])):
        rows.append(f"| `{r['name']}` | {points(r['gain_cleopatra'] / 100)} | {points(r['gain_caesar'] / 100)} | "
                    f"{gap_interval(r)} | {r['deals']:,} | {seats.status_of(r)} |")
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
    return f"{read_json('results/balance/summary.json')['games']:,}"


def balance_millions() -> str:
    return f"{read_json('results/balance/summary.json')['games'] / 1e6:.1f} million"


def report_games() -> str:
    return f"{read_json('results/balance-report/claims.json')['games']:,}"


def report_millions() -> str:
    return f"{read_json('results/balance-report/claims.json')['games'] / 1e6:.0f}-million"


def expert_speed() -> str:
    return f"{read_json('results/expert/strength.json')['games_per_s']:.0f}"


def _remeasured(level: str, setting: str):
    """A row of the published search's fresh re-measure (results/balance/remeasured.parquet)."""
    r = parquet("results/balance/remeasured.parquet")
    return r[(r["setting"] == setting) & (r["level"] == level)].iloc[0]


def _remeasured_edge(level: str, setting: str) -> Callable[[], str]:
    def figure() -> str:
        row = _remeasured(level, setting)
        return edge(row["seat_advantage"], row["seat_advantage_lo"], row["seat_advantage_hi"])
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
        return edge(x["seat_advantage"], *x["ci95"])
    return figure


def _judge_effect(setting: str) -> Callable[[], str]:
    return lambda: points(_at_judge(setting)["diff"])


def judge_cleopatra_veto_1() -> str:
    """Cleopatra's one veto fewer at the judge, the check after the search (results/balance/ring/anchors.json)."""
    a = next(a for a in read_json("results/balance/ring/anchors.json")["anchors"]
             if a["setting"] == [["action_count.cleopatra.veto", 1]])
    return edge(a["seat_advantage"], *a["ci95"])


def balance_all_games() -> str:
    """Every game the published search played: the race, the re-measure, the search level, the skill curve."""
    s = summary()
    return f"{s['games'] + s['fresh']['games'] + s['search']['games'] + s['skill']['games']:,}"


def centre_prediction() -> str:
    """Cleopatra's one veto fewer at the judge as the ring's centre rule predicts it from the published tables
    (``ccsim.analyses.balance.ring.centre``, before the judge measured her): "predicted at +1.1 (95% interval …)"."""
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
    r = parquet("results/balance/remeasured.parquet")
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
        cells = " | ".join(edge(by[lv]["seat_advantage"], by[lv]["seat_advantage_lo"], by[lv]["seat_advantage_hi"])
                           for lv in levels)
        rows.append(f"| {name} | {first['changes']} | {cells} | {verdict} |")
    return "\n".join(rows)


def search_table() -> str:
    """The final candidate and the standard rules at the search level, paired (summary.json's ``search``)."""
    level = summary()["search"]["level"]
    rows = [f"| setting | `{level}` | against the standard rules, same deals |", "|---|---|---|"]
    for s in summary()["search"]["settings"]:
        x = s["levels"][0]
        diff = "" if s["setting"] == "RULES.md" else edge(x["diff"], *x["diff_ci95"])
        rows.append(f"| {s['words']} | {edge(x['seat_advantage'], *x['ci95'])} | {diff} |")
    return "\n".join(rows)


def skill_table() -> str:
    """The search's own skill curve for its final candidate (results/balance/skill.parquet), each level at its Elo."""
    s = parquet("results/balance/skill.parquet")
    change = s[s["setting"] != "RULES.md"].iloc[0]["words"].split(" (standard")[0]
    rows = [f"| level | Elo | deals an arm | the standard rules | {change} |", "|---|---:|---:|---|---|"]
    for level, g in s.groupby("level", sort=False):
        std, alt = g[g["setting"] == "RULES.md"].iloc[0], g[g["setting"] != "RULES.md"].iloc[0]
        elo = "{:+.0f}".format(std["elo"]).replace("-", "−") if round(std["elo"]) else "0"
        rows.append(f"| {_level_label(level)} | {elo} | {int(std['deals']):,} | "
                    f"{edge(std['seat_advantage'], std['seat_advantage_lo'], std['seat_advantage_hi'])} | "
                    f"{edge(alt['seat_advantage'], alt['seat_advantage_lo'], alt['seat_advantage_hi'])}"
                    + (" fair" if alt["fair"] else "") + " |")
    return "\n".join(rows)


def skill_elo_sources() -> str:
    """Where the skill curve's Elo of the levels off the ladder come from (skill.parquet's ``elo_source``)."""
    s = parquet("results/balance/skill.parquet")
    off = s[s["elo_source"] != "ladder"].drop_duplicates("level")
    return "; ".join(f"`{r['level']}` from its {r['elo_source']}" for _, r in off.iterrows())


def ring_minutes() -> str:
    """The published search's next ring, screen to confirmation, in minutes (results/balance/ring/ring.json)."""
    return f"{read_json('results/balance/ring/ring.json')['seconds'] / 60:.0f}"


def _confirm_parts() -> list[dict]:
    """The ring's confirmation in the parts it was played in (results/balance/ring/ring.json): the ring's own,
    then each played on to settle it."""
    from ccsim.analyses.balance.ring.extend import confirmation_parts
    return confirmation_parts(read_json("results/balance/ring/ring.json")["confirm"])


def ring_confirm_minutes() -> str:
    """The minutes of the ring's own confirmation of its winner at the judge (its first part)."""
    return f"{_confirm_parts()[0]['seconds'] / 60:.0f}"


def ring_confirm_first_deals() -> str:
    """The deals of the ring's own confirmation (its first part)."""
    return f"{_confirm_parts()[0]['deals']:,}"


def curve_learned_deals() -> str:
    """The deals of the ring winner's skill curve at `learned` (results/balance/ring/curve.json)."""
    return f"{read_json('results/balance/ring/curve.json')['levels']['learned']['setting']['deals']:,}"


def ring_settle() -> str:
    """How the confirmation was played on to settle the answer: its later parts' deals, games and minutes."""
    parts = _confirm_parts()
    if len(parts) < 2:
        return "not played on since"
    later = parts[1:]
    deals, games = sum(p["deals"] for p in later), sum(p["games"] for p in later)
    minutes = sum(p["seconds"] for p in later) / 60
    total = sum(p["deals"] for p in parts)
    return (f"played on by {deals:,} more deals ({games:,} games, {minutes:.0f} minutes), {total:,} deals in all")


def master_mirror_speed() -> str:
    """games/s of `master`'s mirror as the published report played it (its part's own clock, info.json)."""
    info = next((ROOT / "results" / "balance-report" / "parts").glob("mirror_master_*/info.json"))
    d = json.loads(info.read_text(encoding="utf-8"))
    return f"{d['games'] / d['seconds']:.0f}"


FIGURES: dict[str, Callable[[], str]] = {
    "answer": answer, "answer-change": answer_change, "ladder": ladder, "where-fair": where_fair,
    "seat-table": seat_table, "neural-generations": neural_generations,
    "balance-games": balance_games, "balance-millions": balance_millions,
    "report-games": report_games, "report-millions": report_millions, "expert-speed": expert_speed,
    "tactician-standard": _remeasured_edge("tactician", "RULES.md"), "ring-minutes": ring_minutes,
    "ring-confirm-minutes": ring_confirm_minutes, "master-mirror-speed": master_mirror_speed,
    "ring-confirm-first-deals": ring_confirm_first_deals, "ring-settle": ring_settle,
    "curve-learned-deals": curve_learned_deals,
    "edge-neural-standard": _remeasured_edge("neural", "RULES.md"),
    "effect-neural-caesar-veto-4": _remeasured_effect("neural", "action_count.caesar.veto 4"),
    "edge-judge-standard": _judge_edge("RULES.md"),
    "edge-judge-caesar-veto-4": _judge_edge("action_count.caesar.veto 4"),
    "effect-judge-caesar-veto-4": _judge_effect("action_count.caesar.veto 4"),
    "edge-judge-cleopatra-veto-1": judge_cleopatra_veto_1, "balance-all-games": balance_all_games,
    "remeasured-table": remeasured_table, "search-table": search_table, "skill-table": skill_table,
    "skill-elo-sources": skill_elo_sources, "race-rounds": race_rounds, "centre-prediction": centre_prediction,
}

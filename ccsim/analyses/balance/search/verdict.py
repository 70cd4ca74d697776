"""The one answer of ``ccsim balance``: the recommended change as data, and the paragraph a designer reads.

The answer is decided at the *judge* (``ccsim.analyses.balance.judge``): the strongest level that plays both
seats alike.  ``choose`` takes every setting measured there (with its figures at the other levels too) and
picks the fewest-change setting fair (within ±tolerance) at the judge; among equals, the one whose edge
stays closest to even across the balanced levels from ``tactician`` up.  When none is clearly fair there,
the one whose estimate is within the band (its interval too wide to be sure) comes first, else the
closest.  ``recommendation(b)`` does it for a finished search; ``answer_paragraph(summary)`` says it, from
``summary.json``'s data alone, in the one paragraph quoted wherever the answer is (the command's summary,
``summary.json``, the results' README, the README, the designer's guide and the report's summary).
"""
from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING

import pandas as pd

from ccsim.analyses.balance.judge import BALANCED, LOPSIDED, judge_level, level_lean, seat_status
from ccsim.analyses.balance.publish.skill import FAIR, NOT_FAIR, UNCLEAR, level_elos, interval_verdict
from ccsim.analyses.levels import level_words

if TYPE_CHECKING:
    from ccsim.analyses.balance import Balance

__all__ = ["recommendation", "choose", "answer_paragraph", "points", "REFERENCE_LEVEL"]

#: the weakest level whose verdict counts for "fair at every strong level": the strongest heuristic
REFERENCE_LEVEL = "tactician"


def points(x: float) -> str:
    """A share as signed points, one decimal, a true minus sign: "+0.4", "−1.8", "0.0"."""
    if not math.isfinite(x):
        return "n/a"
    v = round(100 * x, 1)
    return "0.0" if v == 0 else f"{v:+.1f}".replace("-", "−")


# --- the figures -------------------------------------------------------------------------------------

def estimate(row, tolerance: float, source: str | None = None) -> dict:
    """One level's figures of one setting (a row with deals, seat_advantage, its interval and, when paired
    with the standard rules, diff): the answer's data."""
    out = dict(level=row["level"], deals=int(row["deals"]), seat_advantage=float(row["seat_advantage"]),
               ci95=[float(row["seat_advantage_lo"]), float(row["seat_advantage_hi"])],
               verdict=interval_verdict(row["seat_advantage_lo"], row["seat_advantage_hi"], tolerance),
               seats=seat_status(row["level"]))
    if "diff" in row and row.get("diff") is not None and math.isfinite(row["diff"]) and row["diff"] != 0:
        out |= dict(diff=float(row["diff"]), diff_ci95=[float(row["diff_lo"]), float(row["diff_hi"])])
    if source:
        out["source"] = source
    return out


def _rank(e: dict, tolerance: float) -> tuple:
    """Fair first, then an estimate within the band (its interval too wide to be sure), then the rest; the
    closer to even first within each."""
    inside = abs(e["seat_advantage"]) <= tolerance
    return (0 if e["verdict"] == FAIR else 1 if inside and e["verdict"] == UNCLEAR else 2, abs(e["seat_advantage"]))


def _spread(levels: dict, strong: list[str]) -> float:
    """How far from even the setting's edge may stray across the strong balanced levels: the farther end of
    its interval at the worst of them (a figure on few deals counts for what it can be, not its estimate)."""
    at = [max(abs(levels[n]["ci95"][0]), abs(levels[n]["ci95"][1])) for n in strong if n in levels]
    return max(at) if at else math.inf


def strong_levels(names, judge: str, elos: dict) -> list[str]:
    """The balanced levels from ``tactician`` up to the judge (by Elo), strongest first."""
    floor = elos.get(REFERENCE_LEVEL, (0.0,))[0]
    top = elos.get(judge, (math.inf,))[0]
    out = [n for n in names if seat_status(n) == BALANCED and floor <= elos.get(n, (-math.inf,))[0] <= top]
    return sorted(set(out) | {judge}, key=lambda n: -elos.get(n, (math.inf,))[0])


CONFIRMED_DEALS = 10_000  # deals at the judge that confirm a candidate (a race's few hundred only screen it)


def choose(settings: list[dict], judge: str, tolerance: float, strong: list[str]) -> dict | None:
    """The recommended setting among ``settings`` (each: changes, size, levels {level: estimate}) measured at
    ``judge``: fewest changes among the fair ones (else among those within the band, else the closest), then
    the one confirmed on more deals at the judge (up to CONFIRMED_DEALS), then the edge closest to even across
    the ``strong`` levels measured for every contender (a level measured for one only would favour the
    others), then the closest at the judge, then the smallest size."""
    at = [s for s in settings if judge in s["levels"]]
    if not at:
        return None
    tier = lambda s: _rank(s["levels"][judge], tolerance)[0]  # noqa: E731
    best_tier = min(tier(s) for s in at)
    pool = [s for s in at if tier(s) == best_tier]
    if best_tier == 2:  # none within the band: the closest, whatever its changes
        return min(pool, key=lambda s: (abs(s["levels"][judge]["seat_advantage"]), s["changes"], s["size"]))
    first = lambda s: (s["changes"], -min(s["levels"][judge].get("deals", 0), CONFIRMED_DEALS))  # noqa: E731
    pool = [s for s in pool if first(s) == min(map(first, pool))]
    common = [n for n in strong if all(n in s["levels"] for s in pool)]
    return min(pool, key=lambda s: (_spread(s["levels"], common), abs(s["levels"][judge]["seat_advantage"]),
                                    s["size"]))


def answer_of(best: dict, judge: str, tolerance: float, strong: list[str], elos: dict, others: list[dict]) -> dict:
    """The answer as data: the chosen setting, its figures at the judge beside the standard rules' (on the same
    deals: each level's ``standard``), its curve (strongest level first, each with the level's seat status),
    where it stops being fair, and whether any setting measured is fair at every strong level."""
    order = sorted(best["levels"], key=lambda n: -elos.get(n, (-math.inf,))[0])
    curve = [best["levels"][n] for n in order]
    k = order.index(judge)
    stops = next((c for c in curve[k + 1:] if c["verdict"] != FAIR and c["seats"] != LOPSIDED
                  and abs(c["seat_advantage"]) > tolerance), None)
    everywhere = [s["words"] for s in others
                  if all(n in s["levels"] and s["levels"][n]["verdict"] == FAIR for n in strong)]
    rec = {k: best[k] for k in ("setting", "words", "changes", "size", "rules", "variants") if k in best}
    rec |= dict(tolerance_points=round(100 * tolerance, 10), judge=judge, judge_seats=seat_status(judge),
                at_judge=best["levels"][judge], standard=best["levels"][judge].get("standard"), curve=curve, stops=stops,
                strong_levels=strong, fair_everywhere=everywhere,
                fair=best["levels"][judge]["verdict"] == FAIR)
    rec["text"] = _paragraph(rec)
    return rec


def recommendation(b: Balance) -> dict:
    """The recommended change of a finished search as data ({} when it has none), judged at the strongest
    balanced level it measured; ``text``: the paragraph."""
    finals = b.info.get("finals") or []
    if not finals:
        return {}
    sp, tol = b.space, b.space.tolerance
    rows = [r for r in (b.remeasured, b.search, b.skill) if not r.empty]
    allrows = pd.concat(rows, ignore_index=True).drop_duplicates(["candidate", "level"], keep="last")
    names = list(dict.fromkeys(allrows["level"]))
    elos = level_elos()
    judge = judge_level(names, sp.judge, elos)
    if judge is None:
        return {}
    strong = strong_levels(names, judge, elos)

    base = {x["level"]: estimate(x, tol) for _, x in allrows[allrows["candidate"] == 0].iterrows()}

    def setting(i):
        at = allrows[allrows["candidate"] == i]
        r = at.iloc[0]
        key = json.loads(r["key"])
        return dict(setting=r["setting"], words=r["words"], changes=int(r["changes"]), size=int(r["size"]),
                    rules=key["rules"], variants=key["variants"],
                    levels={x["level"]: estimate(x, tol) | dict(standard=base.get(x["level"])) for _, x in at.iterrows()})

    settings = [setting(i) for i in finals]
    best = choose(settings, judge, tol, strong)
    if best is None:
        return {}
    return answer_of(best, judge, tol, strong, elos, settings) | dict(seed=b.info["fresh_seed"])


# --- the words ---------------------------------------------------------------------------------------

def _band(rec: dict) -> str:
    t = rec["tolerance_points"]
    return f"±{t:g} point" + ("" if t == 1 else "s")


def _outside(e: dict, rec: dict) -> float:
    """How far, in points, the nearer end of an estimate's interval lies outside the band (0 inside it)."""
    near = min(abs(100 * e["ci95"][0]), abs(100 * e["ci95"][1]))
    return max(near - rec["tolerance_points"], 0.0)


def _fig(e: dict, deals: bool = True) -> str:
    lo, hi = e["ci95"]
    return (f"{points(e['seat_advantage'])} points (95% interval {points(lo)} to {points(hi)}"
            + (f"; {e['deals']:,} deals)" if deals else ")"))


def _short(e: dict) -> str:
    lo, hi = e["ci95"]
    return f"{points(e['seat_advantage'])} [{points(lo)}, {points(hi)}]"


def _curve_words(rec: dict) -> str:
    """Its edge at every level, strongest first, each with its interval."""
    parts = [f"{level_lean(c['level'], c['seats'], style='tag')} {_short(c)}" for c in rec["curve"]]
    return ("Its edge at every level measured, strongest first, in points with 95% intervals: "
            + "; ".join(parts) + ".")


def _judge_words(rec: dict) -> str:
    e, std, band = rec["at_judge"], rec["standard"], _band(rec)
    if std and "diff" in e:  # paired: the standard rules on the same deals
        lo, hi = e["diff_ci95"]
        start = (f"from {points(std['seat_advantage'])} points under the standard rules (on the same deals: a "
                 f"change of {points(e['diff'])} points, 95% interval {points(lo)} to {points(hi)}) to ")
    elif std:  # the setting alone on fresh deals: the standard rules' figure is from other deals
        start = (f"from {points(std['seat_advantage'])} points under the standard rules (on other deals, "
                 f"{std['deals']:,}) to ")
    else:
        start = "to "
    if e["verdict"] == FAIR:
        how = f"within {band} of an even game"
    elif abs(e["seat_advantage"]) * 100 <= rec["tolerance_points"]:
        how = (f"its estimate within {band} of an even game, its interval reaching "
               f"{max(abs(100 * e['ci95'][0]), abs(100 * e['ci95'][1])) - rec['tolerance_points']:.1f} points "
               f"past the band: too few deals to be sure")
    else:
        how = f"{_outside(e, rec):.1f} points outside {band}" if e["verdict"] == NOT_FAIR else \
            f"its estimate outside {band}, its interval reaching into it"
    return f"Cleopatra's edge goes {start}{_fig(e)}: {how}."


def _stop_words(rec: dict) -> str:
    s = rec["stops"]
    if s is None:
        return f"It stays within {_band(rec)} at every weaker balanced level measured."
    if s["verdict"] == NOT_FAIR:
        return (f"It stops being fair below the judge: with {level_words(s['level'])} on both sides Cleopatra's "
                f"edge is {_fig(s, deals=False)}.")
    # an estimate outside the band whose interval still reaches into it: not shown unfair, not fair either
    return (f"Below the judge its estimate leaves {_band(rec)}: with {level_words(s['level'])} on both sides "
            f"Cleopatra's edge is {_fig(s, deals=False)}, too few deals to say more.")


def _everywhere_words(rec: dict) -> str:
    strong = ", ".join(rec["strong_levels"])
    if rec["fair_everywhere"]:
        return f"Fair at every strong balanced level ({strong}): {'; '.join(rec['fair_everywhere'])}."
    return (f"No single setting measured is fair at every strong balanced level ({strong}): good players and "
            f"weaker ones need different rules.")


def _paragraph(rec: dict) -> str:
    """The recommendation in plain words, from the answer's data alone: one paragraph."""
    judge = level_words(rec["judge"])
    head = (f"For players who play both seats alike — judged with {judge} on both sides, the strongest such "
            f"level measured — ")
    e = rec["at_judge"]
    if e["verdict"] == FAIR:
        head += f"the fewest-change setting that makes the game fair is: {rec['words']}."
    elif abs(e["seat_advantage"]) * 100 <= rec["tolerance_points"]:
        head += (f"the fewest-change setting whose estimate is within {_band(rec)} of an even game is: "
                 f"{rec['words']}.")
    else:
        head += (f"no setting measured makes the game fair. The closest: {rec['words']}, its estimate "
                 f"{100 * abs(e['seat_advantage']) - rec['tolerance_points']:.1f} points outside {_band(rec)}.")
    return " ".join([head, _judge_words(rec), _curve_words(rec), _stop_words(rec), _everywhere_words(rec)])


def answer_paragraph(summary: dict) -> str:
    """The whole answer paragraph from ``summary.json``'s data (its ``recommendation``); the one sentence
    saying there is none when the search recommended nothing."""
    rec = (summary or {}).get("recommendation") or {}
    if not rec:
        return "The search found no setting to recommend."
    return _paragraph(rec)

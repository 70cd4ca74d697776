"""The one answer of ``ccsim balance`` (issue 39): the recommended change as data and in plain words.

``recommendation(b)`` reads a finished search: the first final candidate (``final.rank_finals``), its
fresh re-measure at the strongest fast level, its value at the search level, and the skill curve.
``recommendation_text(rec)`` says it in a paragraph a designer reads, from the data alone: the same
words wherever the answer is quoted (the command's summary, ``summary.json``, the results' README, the
report's summary and the designer's guide; a test holds them to it).
"""
from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING

import pandas as pd

from ccsim.analyses.balance.skill import FAIR, NOT_FAIR, UNCLEAR, level_verdict
from ccsim.analyses.levels import level_words

if TYPE_CHECKING:
    from ccsim.analyses.balance import Balance

__all__ = ["recommendation", "recommendation_text", "points"]


def points(x: float) -> str:
    """A share as signed points, one decimal, a true minus sign: "+0.4", "−1.8", "0.0"."""
    if not math.isfinite(x):
        return "n/a"
    v = round(100 * x, 1)
    return "0.0" if v == 0 else f"{v:+.1f}".replace("-", "−")


def _estimate(rows: pd.DataFrame, candidate: int, level: str, tolerance: float) -> dict | None:
    at = rows[(rows["candidate"] == candidate) & (rows["level"] == level)] if not rows.empty else rows
    if at.empty:
        return None
    r = at.iloc[0]
    out = dict(level=level, deals=int(r["deals"]), seat_advantage=float(r["seat_advantage"]),
               ci95=[float(r["seat_advantage_lo"]), float(r["seat_advantage_hi"])],
               verdict=level_verdict(r["seat_advantage_lo"], r["seat_advantage_hi"], tolerance))
    if "diff" in r and math.isfinite(r["diff"]) and candidate != 0:  # the change's own effect, paired
        out |= dict(diff=float(r["diff"]), diff_ci95=[float(r["diff_lo"]), float(r["diff_hi"])])
    if "elo" in r and math.isfinite(r["elo"]):
        out["elo"] = float(r["elo"])
    return out


def recommendation(b: Balance) -> dict:
    """The recommended change as data ({} when the search has none): the setting, its figures at the
    strongest fast level and the search level beside the standard rules', the curve strongest level first,
    and where it stops being fair as the players get weaker; ``text``: the paragraph."""
    finals = b.info.get("finals") or []
    if not finals:
        return {}
    best, tol, fast = finals[0], b.space.tolerance, b.space.levels[0].name
    row = b.recommended[b.recommended["candidate"] == best].iloc[0]
    key = json.loads(row["key"])
    rec = dict(setting=row["setting"], words=row["words"], changes=int(row["changes"]), size=int(row["size"]),
               rules=key["rules"], variants=key["variants"], tolerance_points=round(100 * tol, 10),
               seed=b.info["fresh_seed"], level=fast, standard=_estimate(b.recommended, 0, fast, tol),
               at_level=_estimate(b.recommended, best, fast, tol), search=None, search_standard=None,
               curve=[], stops=None)
    if b.space.search_level is not None and not b.search.empty:
        lv = b.space.search_level.name
        rec["search"], rec["search_standard"] = _estimate(b.search, best, lv, tol), _estimate(b.search, 0, lv, tol)
    if not b.skill.empty:
        order = b.skill[b.skill["candidate"] == best].sort_values("rank", ascending=False)["level"]
        rec["curve"] = [_estimate(b.skill, best, lv, tol) | dict(standard=_estimate(b.skill, 0, lv, tol))
                        for lv in order]
    rec["fair"] = rec["at_level"]["verdict"] == FAIR
    rec["stops"], rec["unfair_above"] = _where_unfair(rec["curve"], fast, rec["search"])
    rec["text"] = recommendation_text(rec)
    return rec


def _where_unfair(curve: list[dict], fast: str, search: dict | None) -> tuple[dict | None, list[dict]]:
    """On the curve (strongest first): the strongest level weaker than ``fast`` where the setting is clearly
    not fair (None: none is), and the levels stronger than ``fast`` where it is clearly not fair (the
    search level apart: its own sentence says so)."""
    names = [c["level"] for c in curve]
    if fast not in names:
        return None, []
    k = names.index(fast)
    stops = next((c for c in curve[k + 1:] if c["verdict"] == NOT_FAIR), None)
    above = [c for c in curve[:k] if c["verdict"] == NOT_FAIR and (search is None or c["level"] != search["level"])]
    return stops, above


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


def _search_words(rec: dict) -> str:
    s, std = rec["search"], rec["search_standard"]
    if s is None:
        return ""
    band = _band(rec)
    how = {FAIR: f"within {band} too",
           UNCLEAR: f"its estimate {'within' if abs(s['seat_advantage']) * 100 <= rec['tolerance_points'] else 'outside'}"
                    f" {band}, its interval too wide to be sure",
           NOT_FAIR: f"outside {band}"}[s["verdict"]]
    out = (f" With {level_words(s['level'])}, the strongest search, on both sides it is {_fig(s)}, against "
           f"{points(std['seat_advantage'])} points under the standard rules: {how}")
    if s["verdict"] != NOT_FAIR:
        return out + "."
    out += f", by {_outside(s, rec):.1f} points"
    at = rec["at_level"]
    if "diff" in s and "diff" in at:  # the change does the same at both levels; the starting edge differs
        out += (f": the change moves Cleopatra's edge by {points(s['diff'])} points there (by "
                f"{points(at['diff'])} with {at['level']}), but the strongest search starts from "
                f"{points(std['seat_advantage'])} points, not {points(rec['standard']['seat_advantage'])}")
    return out + "."


def _curve_words(rec: dict) -> str:
    """Where the setting stops being fair as the players get weaker, and any stronger level where it is not."""
    curve, stops = rec["curve"], rec["stops"]
    if not curve or not rec["fair"]:
        return ""
    out = "".join(f" With {level_words(c['level'])} on both sides it is not: {_fig(c)}." for c in rec["unfair_above"])
    if stops is None:
        return out + (f" It is not clearly unfair at any weaker level measured, down to "
                      f"{level_words(curve[-1]['level'])}.")
    return out + (f" It stops being fair as the players get weaker: with {level_words(stops['level'])} on both "
                  f"sides Cleopatra's edge is {_fig(stops, deals=False)}.")


def recommendation_text(rec: dict) -> str:
    """The recommendation in plain words, from ``recommendation``'s data alone."""
    if not rec:
        return "The search found no setting to recommend."
    at, std, fast = rec["at_level"], rec["standard"], level_words(rec["level"])
    band = _band(rec)
    if not rec["fair"]:
        return (f"No change the search tried makes the game fair for good players. The closest: {rec['words']}. "
                f"With {fast} on both sides it leaves Cleopatra's edge at {_fig(at)}, against "
                f"{points(std['seat_advantage'])} points under the standard rules: its interval stays "
                f"{_outside(at, rec):.1f} points outside {band}." + _search_words(rec)
                + _curve_words(rec))
    search = rec["search"]
    if search is not None and search["verdict"] != NOT_FAIR:  # the strongest search agrees: good players
        return (f"For good players, the smallest change that makes the game fair is: {rec['words']}. With {fast} on "
                f"both sides, Cleopatra's edge goes from {points(std['seat_advantage'])} points under the standard "
                f"rules to {_fig(at)}: within {band} of an even game." + _search_words(rec) + _curve_words(rec))
    return (f"The smallest change that makes the game fair with {fast} on both sides is: {rec['words']}. "
            f"Cleopatra's edge goes from {points(std['seat_advantage'])} points under the standard rules to "
            f"{_fig(at)}: within {band} of an even game."
            + (" The strongest search does not confirm it." if search is not None else "")
            + _search_words(rec) + _curve_words(rec))

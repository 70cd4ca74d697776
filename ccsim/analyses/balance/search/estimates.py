"""What a candidate's games come to: per-deal columns, their moments, and the estimates read from them.

Every deal of the search is played under a candidate and under the standard rules (common random numbers),
at each level; a deal's value at a level is the mean over the level's seatings (one for mirror
games, two for a pair).  Per deal and level the search keeps seven columns: the candidate's
Cleopatra score (a draw counts half, R10.5), draw and game length in turns, the same three under
the standard rules on that deal, and a one.  Their moments (``ccsim.analyses.stats.Moments``), summed chunk by
chunk, give everything: the seat advantage and its interval, the paired difference to the standard rules,
the draw rate and game length, and both relative to the standard rules' (delta method).
"""
from __future__ import annotations

import math

import numpy as np

from ccsim.analyses.stats import Moments, ratio_difference, ratio_interval

__all__ = ["COLUMNS", "deal_columns", "level_estimate", "seat_advantage_bounds", "worst_level"]

COLUMNS = ("score", "score_base", "draw", "draw_base", "turns", "turns_base", "one")
SCORE, SCORE_BASE, DRAW, DRAW_BASE, TURNS, TURNS_BASE, ONE = range(len(COLUMNS))


def deal_columns(cand: np.ndarray, base: np.ndarray) -> np.ndarray:
    """The seven columns of (..., deals) from ``cand`` and ``base``, each (..., deals, 3) of
    (score, draw, turns) per deal (``base`` broadcast against ``cand``): (..., deals, 7)."""
    base = np.broadcast_to(base, cand.shape)
    ones = np.ones(cand.shape[:-1] + (1,))
    return np.concatenate([cand[..., :1], base[..., :1], cand[..., 1:2], base[..., 1:2], cand[..., 2:3],
                           base[..., 2:3], ones], axis=-1)


def seat_advantage_bounds(m: Moments, confidence: float) -> tuple[float, float, float]:
    """Cleopatra's score - 50% with its interval (Student t on the per-deal values)."""
    r = ratio_interval(m, SCORE, ONE, confidence)
    return r["value"] - 0.5, r["lo"] - 0.5, r["hi"] - 0.5


def _bound(r: dict) -> tuple[float, float, float]:
    return r["value"], r["lo"], r["hi"]


def level_estimate(m: Moments, confidence: float = 0.95) -> dict:
    """Every figure of one candidate at one level: seat advantage, its difference to the standard rules on the
    same deals (and p), draw rate, mean turns, and draw rate and turns relative to the standard rules'."""
    adv, lo, hi = seat_advantage_bounds(m, confidence)
    diff = ratio_difference(m, (SCORE, ONE), (SCORE_BASE, ONE), confidence)
    out = dict(deals=int(m.n), seat_advantage=adv, seat_advantage_lo=lo, seat_advantage_hi=hi,
               diff=diff["value"], diff_lo=diff["lo"], diff_hi=diff["hi"], p=diff["p"])
    for name, num, den in (("draw_rate", DRAW, ONE), ("turns", TURNS, ONE), ("draw_ratio", DRAW, DRAW_BASE),
                           ("length_ratio", TURNS, TURNS_BASE)):
        v, vlo, vhi = _bound(ratio_interval(m, num, den, confidence))
        out |= {name: v, f"{name}_lo": vlo, f"{name}_hi": vhi}
    return out


def worst_level(advantages) -> tuple[int, float]:
    """The level whose seat advantage is farthest from 0 (its index) and that distance: the
    candidate's objective, for a setting is only as fair as its worst level."""
    a = np.abs(np.asarray(advantages, dtype=float))
    if not a.size or np.isnan(a).all():
        return -1, math.nan
    i = int(np.nanargmax(a))
    return i, float(a[i])

"""The judge of ``ccsim balance``: the level whose figure decides whether a setting is fair.

Cleopatra's edge in a player's mirror games is the rules' edge only if the player is as good with
Caesar's cards as with Cleopatra's.  The seat certificate (``strategies/seats.py``: each player's gain
over ``tactician``'s mirror in each seat, and their gap) marks a player *balanced* when the gap is within
±3 points.  The judge is the strongest balanced level the search measures (by the ladder's Elo,
``ccsim.analyses.balance.skill.level_elos``), or a level the space names; a lopsided level may be
measured and drawn on the skill curve, named as lopsided, but never decides.
"""
from __future__ import annotations

import math

__all__ = ["BALANCED", "LOPSIDED", "UNMEASURED", "seat_status", "seat_words", "lopsided_refusal", "judge_level"]

BALANCED, LOPSIDED, UNMEASURED = "balanced", "lopsided", "not measured"


def _seats():
    from strategies import seats
    return seats


def seat_status(name: str) -> str:
    """balanced, lopsided or not measured: a level's seat gap by the certificate (a pair level A+B: not
    measured, its seats are two players)."""
    ok = _seats().is_balanced(name)
    return UNMEASURED if ok is None else BALANCED if ok else LOPSIDED


def seat_words(name: str) -> str:
    """The certificate's plain words on a level."""
    return _seats().describe(name)


def lopsided_refusal(name: str) -> str | None:
    """Why ``name`` cannot judge (it is lopsided), else None."""
    if seat_status(name) != LOPSIDED:
        return None
    gap = _seats().seat_gap(name)
    return (f"{name} is lopsided (it gains {abs(gap):.1f} points more in one seat than in the other, more than "
            f"3): a lopsided level never decides; name a balanced level or \"balanced\"")


def judge_level(names, judge: str = "balanced", elos: dict | None = None) -> str | None:
    """The judge among the levels ``names`` the search measures: ``judge`` itself when it names a level,
    else the strongest balanced one by Elo (a level without an Elo after those with one, in the given
    order); None when none is balanced."""
    if judge != "balanced":
        return judge
    if elos is None:
        from ccsim.analyses.balance.skill import level_elos
        elos = level_elos()
    names = list(dict.fromkeys(names))
    ok = [n for n in names if seat_status(n) == BALANCED]
    if not ok:
        return None

    def strength(k_n):
        k, n = k_n
        e = elos.get(n, (math.nan,))[0]
        return (0, e) if math.isfinite(e) else (-1, -k)
    return max(enumerate(ok), key=strength)[1]

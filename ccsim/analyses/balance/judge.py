"""The judge of ``ccsim balance``: the level whose figure decides whether a setting is fair.

Cleopatra's edge in a player's mirror games is the rules' edge only if the player is as good with
Caesar's cards as with Cleopatra's.  The seat certificate (``strategies/seats.py``: each player's gain
over ``tactician``'s mirror in each seat, and their gap) marks a player *balanced* when its gap is known to
±1 point and within ±3, *lopsided* beyond ±3, and *not yet known* until then.  The judge is the strongest balanced level the search measures (by the ladder's Elo,
``ccsim.analyses.balance.publish.skill.level_elos``), or a level the space names; a lopsided level may be
measured and drawn on the skill curve, named as lopsided (or not yet known), but never decides.
"""
from __future__ import annotations

import math

from ccsim.analyses.levels import level_words

__all__ = ["BALANCED", "LOPSIDED", "UNMEASURED", "NOT_YET_KNOWN", "seat_status", "seat_words", "lopsided_refusal", "judge_level",
           "LEAN_STYLES", "level_lean"]

BALANCED, LOPSIDED, UNMEASURED, NOT_YET_KNOWN = "balanced", "lopsided", "not measured", "not yet known"
#: how a level that is not balanced is tagged beside its name
_TAGS = {LOPSIDED: LOPSIDED, NOT_YET_KNOWN: "seat gap not yet known"}

#: how ``level_lean`` says a level with its lean, for a lopsided ``neural`` (and for a level not measured):
#:   bare      "neural (lopsided)": the name the command line takes, in a table's row
#:   tag       "the neural-network player (neural, lopsided)": in a sentence that lists levels
#:   sentence  "the neural-network player (neural; lopsided: it plays Cleopatra N points better than Caesar)"
#:   column    "plays Cleopatra N points better than Caesar (lopsided)" ("not measured"): the lean alone, in a
#:             table's column beside the level
#:   menu      "plays Cleopatra N points better than Caesar: lopsided" ("seat gap not measured"): the lean
#:             alone, beside the level's name in a menu
LEAN_STYLES = ("bare", "tag", "sentence", "column", "menu")


def _seats():
    from strategies import seats
    return seats


def seat_status(name: str) -> str:
    """balanced, lopsided, not yet known or not measured: a level's seat gap by the certificate (a pair level
    A+B: not measured, its seats are two players)."""
    return _seats().status(name)


def seat_words(name: str) -> str:
    """The certificate's plain words on a level."""
    return _seats().describe(name)


def level_lean(name: str, kind: str, said: str = "", style: str = "tag") -> str:
    """A level of play with its seat lean, in one of ``LEAN_STYLES``: ``kind`` is what the seat certificate
    makes of it (``seat_status``: balanced, lopsided, not yet known or not measured) and ``said`` its plain words on the gap (``strategies.seats.describe``,
    "seat gap not measured" for a level it does not hold).  The bare, tag and sentence styles name the lean
    of a level that is not balanced only (its figures may lean its own way); the column and menu styles always
    say it."""
    if style == "column":
        return kind if kind == UNMEASURED else f"{said} ({kind})"
    if style == "menu":
        return said if kind == UNMEASURED else f"{said}: {kind}"
    if style not in LEAN_STYLES:
        raise ValueError(f"unknown style {style!r} (known: {', '.join(LEAN_STYLES)})")
    if kind in (BALANCED, UNMEASURED):  # a pair level (A+B) is not measured: its seats are two players
        return name if style == "bare" else level_words(name)
    tag = _TAGS[kind]
    if style == "bare":
        return f"{name} ({tag})"
    words = level_words(name)
    sep, lean = (", ", tag) if style == "tag" else ("; ", f"{tag}: it {said}")
    return f"{words[:-1]}{sep}{lean})" if words.endswith(")") else f"{words} ({lean})"


def lopsided_refusal(name: str) -> str | None:
    """Why ``name`` cannot judge (it is lopsided, or its seat gap is not yet known), else None."""
    status = seat_status(name)
    if status == LOPSIDED:
        gap = _seats().seat_gap(name)
        return (f"{name} is lopsided (it gains {abs(gap):.1f} points more in one seat than in the other, more than "
                f"3): a lopsided level never decides; name a balanced level or \"balanced\"")
    if status == NOT_YET_KNOWN:
        return (f"{name}'s seat gap is not yet known to ±1 point: only a level shown to play both seats alike "
                f"decides; name a balanced level or \"balanced\"")
    return None


def judge_level(names, judge: str = "balanced", elos: dict | None = None) -> str | None:
    """The judge among the levels ``names`` the search measures: ``judge`` itself when it names a level,
    else the strongest balanced one by Elo (a level without an Elo after those with one, in the given
    order); None when none is balanced."""
    if judge != "balanced":
        return judge
    if elos is None:
        from ccsim.analyses.balance.publish.skill import level_elos
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

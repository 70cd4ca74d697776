"""Beside a claim stated at the judge: the fast level's figure, and what the map predicted for the judge.

A claim the study states at its judge (a search, a few dozen games a second) was also measured at the faster
levels.  The strongest of those shown to play both seats alike is the *fast level*: its figure is the one a
designer gets in seconds from ``ccsim whatif`` or the page.  Where the judge's map carries a figure
(``ccsim.analyses.judging``: a change's effect on Cleopatra's edge), the fast figure also gives a
*prediction* of the judge's, with its interval; the claim says whether the judge's measurement fell inside it
(a prediction that missed is said so, never hidden).  An ordering's worth against a shuffled deck is carried too.
Other figures (a card's worth, a game's length) have no map: the fast figure stands beside them alone.
"""
from __future__ import annotations

import math
from dataclasses import replace

from ccsim.analyses.balance.judge import BALANCED, seat_status
from ccsim.analyses.judging.effect_map import Z, interval_se
from ccsim.analyses.judging.store import effect_map_of
from ccsim.report.units import quote

__all__ = ["MAPPED_KINDS", "fast_level", "fast_figure", "predicted_figure", "beside_text", "add_beside"]

#: the claim kinds the judge's map carries, and the share of its spread a prediction keeps: a rules change's
#: effect on Cleopatra's edge whole; an ordering's worth over a shuffled deck is the mean of its two seats'
#: effects, each straying from the line on its own (``ccsim.analyses.judging.figure.judge_ordering``)
MAPPED_KINDS = {"rules_seat": 1.0, "ordering_effect": 1 / math.sqrt(2)}


def fast_level(levels, judge: str, searches) -> str | None:
    """The strongest of ``levels`` (weakest first) below ``judge`` that is no search and is shown balanced."""
    below = list(levels)[:list(levels).index(judge)] if judge in levels else list(levels)
    fast = [lv for lv in below if lv not in searches and seat_status(lv) == BALANCED]
    return fast[-1] if fast else None


def fast_figure(claim, level: str) -> dict | None:
    """The claim's estimate at ``level`` (context, value, lo, hi, games), or None if it was not measured there."""
    e = next((e for e in claim.estimates if e.context == level), None)
    return None if e is None else dict(level=e.context, value=e.value, lo=e.lo, hi=e.hi, games=e.games)


def predicted_figure(claim, fast: dict) -> dict | None:
    """The judge's figure the map predicts from ``fast`` (value, lo, hi, the level it came from) and whether the
    claim's measurement lies inside its interval (``held``); None for a figure the map does not carry."""
    if claim.kind not in MAPPED_KINDS:
        return None
    fitted = effect_map_of(fast["level"])
    if fitted is None:
        return None
    emap = replace(fitted[0], model_sd=fitted[0].model_sd * MAPPED_KINDS[claim.kind])
    value, se = emap.predict(fast["value"], interval_se(fast["lo"], fast["hi"]))
    lo, hi = value - Z * se, value + Z * se
    return dict(level=fast["level"], value=value, lo=lo, hi=hi, held=bool(lo <= claim.value <= hi))


def beside_text(claim, fast: dict | None, predicted: dict | None) -> str:
    """One sentence: the fast level's figure, and the prediction with whether it held (or ""). """
    if fast is None:
        return ""
    q = lambda d: quote(d["value"], d["lo"], d["hi"], claim.unit)  # noqa: E731
    text = f" At {fast['level']}, the strongest fast level shown balanced, the figure is {q(fast)}"
    if predicted is None:
        return text + "."
    outcome = ("the measurement fell inside it" if predicted["held"] else
               "the measurement fell outside it: the prediction missed")
    return text + f"; from it the judge's map predicted {q(predicted)} for {claim.level}, and {outcome}."


def add_beside(claims, judge: str, levels, searches) -> None:
    """Every claim stated at ``judge`` gets its fast level's figure (``fast``) and the map's prediction
    (``predicted``) as data, and a sentence saying them at the end of its statement."""
    level = fast_level(levels, judge, searches)
    if level is None:
        return
    for c in claims:
        if c.level != judge or c.context != judge:
            continue
        fast = fast_figure(c, level)
        if fast is None or not all(math.isfinite(fast[k]) for k in ("value", "lo", "hi")):
            continue
        c.fast, c.predicted = fast, predicted_figure(c, fast)
        c.statement += beside_text(c, c.fast, c.predicted)

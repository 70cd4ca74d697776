"""Kinds of claim and their smallest effect of interest: what makes a figure worth a designer's attention.

A statistically significant figure can still be too small to matter (a rules change that shortens
the game by 0.003 turns on 100,000 deals).  Each kind of claim declares the smallest effect a
designer would act on (docs/report.md, "Practical significance"), and each measurement is put in one
of these classes:

* ``negligible``: the whole 95% interval lies within ±seoi of the null: whatever the effect is, it
  is smaller than anything of interest (equivalence).  Never a headline.
* ``fair``: the same for a seat advantage (null: an even 50%): the game is fair within ±seoi.
  A headline: it is the answer a designer wants.
* ``clear``: the interval excludes the null and the estimate reaches the smallest effect of
  interest (|estimate − null| ≥ seoi): an effect that matters.
* ``small``: the interval excludes the null but the estimate lies within ±seoi: a real effect,
  smaller than anything of interest (never called clear, never a headline).  For a
  seat advantage this is ``unclear``: too few games to tell whether the game is fair.
* ``unclear``: the interval contains the null and reaches beyond ±seoi: too few games to tell.
* ``descriptive``: a figure with no null (turns per game): nothing to test, only to describe.
"""
from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Kind", "KINDS", "classify", "direction", "HEADLINE_EFFECTS"]


@dataclass(frozen=True)
class Kind:
    unit: str
    null: float | None   # the figure of "no effect" (None: a description)
    seoi: float          # the smallest effect of interest, in the figure's own scale (a share: 0.01 = 1 point)
    signed: bool         # a difference: printed with its sign
    fairness: bool = False   # a seat advantage: inside ±seoi of the null means fair
    what: str = ""       # what the figure is, for the docs' table


POINT = 0.01  # one point of score or of a share

KINDS = {
    "seat_advantage": Kind("points", 0.0, POINT, True, True, "Cleopatra's score − 50% (mirror games)"),
    "score": Kind("%", 0.5, POINT, False, False, "one player's (or ordering's) score against another"),
    "ordering_effect": Kind("points", 0.0, POINT, True, False, "an ordering's score against a shuffled deck"),
    "position_effect": Kind("points", 0.0, POINT, True, False, "a card's worth at a depth of the deck"),
    "rules_seat": Kind("points", 0.0, POINT, True, False, "a rules change's effect on the seat advantage"),
    "rules_length": Kind("turns", 0.0, 0.5, True, False, "a rules change's effect on the game's length"),
    "rules_draws": Kind("points", 0.0, POINT, True, False, "a rules change's effect on the draw rate"),
    "card_worth": Kind("points", 0.0, POINT, True, False, "what one action card is worth to its owner"),
    "reversals": Kind("votes", 0.0, 0.1, False, False, "votes a game reversed by philosophers"),
    "game_length": Kind("turns", None, 0.5, False, False, "turns per game"),
    "decisiveness": Kind("%", 0.5, POINT, False, False, "how often the leader at half the votes wins"),
    "lead_changes": Kind("lead changes", None, 0.1, False, False, "lead changes per game"),
    "end_share": Kind("%", 0.5, POINT, False, False, "the share of games with the commonest end"),
}

#: the classes a headline may have: a negligible effect or an unclear one is never a headline
HEADLINE_EFFECTS = ("clear", "fair", "descriptive")


def classify(lo: float, hi: float, kind: Kind, seoi: float | None = None) -> str:
    """The class of a 95% interval [lo, hi] for a claim of ``kind`` (``seoi`` overrides the kind's)."""
    if kind.null is None:
        return "descriptive"
    s = kind.seoi if seoi is None else seoi
    if kind.null - s < lo and hi < kind.null + s:
        return "fair" if kind.fairness else "negligible"
    if lo > kind.null or hi < kind.null:
        if abs((lo + hi) / 2 - kind.null) >= s:  # the interval's middle: the estimate, for these intervals
            return "clear"
        return "unclear" if kind.fairness else "small"
    return "unclear"


def direction(value: float, lo: float, hi: float, null: float | None) -> int:
    """+1 / −1: which side of the null the interval lies on (the figure's side when it straddles it)."""
    if null is None:
        return 0
    if lo > null:
        return 1
    if hi < null:
        return -1
    return 1 if value >= null else -1

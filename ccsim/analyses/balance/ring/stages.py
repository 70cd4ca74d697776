"""The next ring, screened at the fast levels and raced at the judge: the strong level reached cheaply.

When no setting of the space is fair at the judge (the strongest balanced level: tens of games a
second), the search widens around the closest setting, ``around``: the *ring* is ``around`` with one
more change of the space (each other value of each other parameter), and each of ``around``'s own
parameters moved one step further the same way.  Racing the whole ring at the judge would cost tens of
thousands of its games per setting; the judge instead plays only what the fast levels cannot rule out:

1. **Screen** every ring setting at the fast levels (thousands of games a second), paired with the
   standard rules on the same deals: its *effect* there (its edge minus the standard rules').
2. **Map** fast-level effects to judge-level effects across the *anchors*, the settings measured at
   both.  A deal's outcome does not carry from one level to another (the correlation per deal is
   about 0.1), but a change's effect does (Caesar's four vetoes: −18.6 points at ``neural``, −19.5
   at ``neural-search``), so the map is a line through the origin (the standard rules change nothing
   at any level), fitted by weighted least squares; its prediction interval adds the slope's
   uncertainty, the fast measurement's and a model spread (the anchors' scatter beyond their own
   noise, never below ``MODEL_SD``, because a handful of anchors cannot show it).
3. **Shortlist**: the ring settings whose predicted judge edge (the standard rules' judge edge plus
   the mapped effect) could be within the band, i.e. whose prediction interval reaches ±tolerance.
4. **Race at the judge** (``judge_race``): the shortlist on common deals, in rounds of doubling
   deals; a setting is dropped as soon as its interval lies wholly outside the band, and after each
   round the worse half (by distance from an even game) goes too (sequential halving); it ends with
   one setting, or at ``max_deals``.  Then the winner is confirmed on fresh deals, paired with the
   standard rules (``confirm``).

``ring_plan`` (1-3) and ``judge_race`` (4) are pure: they take measurements, never play, and are tested
on synthetic data (tests/test_balance_ring.py); ``run_ring`` plays them through the balance search's
resumable ``Scheduler`` (``python -m ccsim.analyses.balance.ring.stages --out DIR``).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from ccsim.analyses.balance.publish.skill import NOT_FAIR, interval_verdict
from ccsim.analyses.judging.effect_map import (MODEL_SD, Z, EffectMap, Prediction, fit_effect_map, predict)
from ccsim.analyses.balance.space import Candidate, Param, Space, setting_of

__all__ = ["ring", "shortlist", "ring_plan", "judge_race", "RaceStep", "combined", "race_games", "pick_winner"]

# --- the ring -----------------------------------------------------------------------------------------

def _further(p: Param, value: int) -> Param:
    """``p`` with one more value beyond ``value``, away from the standard value (the step of its list)."""
    k = p.values.index(value)
    direction = 1 if value > p.default else -1
    nxt = k + direction
    if 0 <= nxt < len(p.values):
        return p  # the list already goes further: the ring's one-more-change covers it
    step = abs(p.values[k] - p.values[k - direction]) if 0 <= k - direction < len(p.values) else 1
    return Param(p.name, tuple(sorted({*p.values, value + direction * step})), p.default)


def ring(space: Space, around: tuple[tuple[str, int], ...]) -> list[Candidate]:
    """The settings one step from ``around`` ((param name, value) pairs of the space): ``around`` with one
    more change (each other value of each other parameter), and ``around`` with one of its parameters a
    step further from the standard value; fewest changes first, then smallest size, each setting once.
    Settings the rules refuse are left out."""
    params = {p.name: p for p in space.params}
    unknown = [n for n, _ in around if n not in params]
    if unknown:
        raise ValueError(f"around: {unknown[0]!r} is not a parameter of the space")
    base = [(params[n], v) for n, v in around]
    out, seen = [], set()

    def add(combo):
        try:
            c = setting_of(combo)
        except Exception:  # a combination the rules refuse (RulesError): not in the ring
            return
        if c.key not in seen:
            seen.add(c.key)
            out.append(c)

    for k, (p, v) in enumerate(base):
        q = _further(p, v)
        beyond = [w for w in q.values if (w - v) * (v - p.default) > 0]
        for w in beyond[:1]:
            add(tuple(base[:k]) + ((q, w),) + tuple(base[k + 1:]))
    taken = {n for n, _ in around}
    for p in space.params:
        if p.name in taken:
            continue
        for v in p.values:
            if v != p.default:
                add(tuple(base) + ((p, v),))
    return sorted(out, key=lambda c: (c.changes, c.size))


def shortlist(predictions: list[Prediction], tolerance: float, changes: dict[int, int] | None = None,
              limit: int | None = None) -> list[Prediction]:
    """The predictions the judge must see (their interval reaches the band): fewest changes first, then
    closest to an even game; at most ``limit``."""
    changes = changes or {}
    keep = [p for p in predictions if p.could_be_fair(tolerance)]
    keep.sort(key=lambda p: (changes.get(p.candidate, 0), abs(p.edge)))
    return keep[:limit] if limit else keep


@dataclass
class RingPlan:
    """What the fast levels decided: the map, every ring setting's prediction, and the shortlist."""
    emap: EffectMap
    predictions: list[Prediction]
    chosen: list[Prediction]


def ring_plan(effects: dict[int, tuple[float, float]], anchors: dict[int, tuple[float, float, float, float]],
              level: str, standard_edge: float, standard_se: float, tolerance: float,
              changes: dict[int, int] | None = None, limit: int | None = None,
              model_sd: float = MODEL_SD) -> RingPlan:
    """Steps 2 and 3: ``effects`` {candidate: (fast effect, se)} of the ring at ``level``; ``anchors``
    {candidate: (fast effect, fast se, judge effect, judge se)}; the standard rules' judge edge and its se.
    Every share is a fraction (0.01 = one point)."""
    a = np.array(list(anchors.values()), float).reshape(-1, 4)
    emap = fit_effect_map(level, a[:, 0], a[:, 2], a[:, 3], a[:, 1], model_sd)
    preds = [predict(emap, c, e, se, standard_edge, standard_se) for c, (e, se) in effects.items()]
    return RingPlan(emap, preds, shortlist(preds, tolerance, changes, limit))


# --- the race at the judge -----------------------------------------------------------------------

@dataclass
class RaceStep:
    """One round of the judge's race: the deals it added, its members, and each member's
    (edge, lo, hi) over every deal so far; who went out and why."""
    first: int
    deals: int
    members: list[int]
    estimates: dict[int, tuple[float, float, float]]
    out_unfair: list[int] = field(default_factory=list)
    out_halved: list[int] = field(default_factory=list)


def judge_race(measure: Callable[[list[int], int, int], dict[int, tuple[float, float, float]]],
               members: list[int], tolerance: float, first_deals: int = 250, max_deals: int = 4000,
               halve: bool = True, prior: dict[int, tuple[float, float]] | None = None
               ) -> tuple[list[int], list[RaceStep]]:
    """Step 4: race ``members`` (best first) at the judge. ``measure(members, first, deals)`` plays deals
    ``first .. first + deals - 1`` and returns each member's (edge, lo, hi) over *every* deal played so
    far.  Rounds double the deals; after each, a member whose interval lies wholly outside the band is
    out, then (``halve``) the worse half by distance from an even game.  Ends with one member, or at
    ``max_deals``; returns the survivors, closest to even first, and the rounds.

    ``prior`` {member: (predicted edge, se)}: the screen's predictions.  The halving then ranks by the
    precision-weighted mean of prediction and measurement (``combined``): a few hundred deals at the judge
    (±6 points) alone would halve at random among settings a point or two apart.  Going out as unfair
    rests on the measurement alone."""
    alive, steps, done, size = list(members), [], 0, first_deals
    while alive and done < max_deals:
        size = min(size, max_deals - done)
        est = measure(list(alive), done, size)
        step = RaceStep(done, size, list(alive), dict(est))
        done += size
        step.out_unfair = [m for m in alive if interval_verdict(est[m][1], est[m][2], tolerance) == NOT_FAIR]
        alive = [m for m in alive if m not in step.out_unfair]
        if halve and len(alive) > 1:
            ranked = sorted(alive, key=lambda m: abs(combined(est[m], (prior or {}).get(m))))
            keep = ranked[:math.ceil(len(ranked) / 2)]
            step.out_halved = [m for m in alive if m not in keep]
            alive = keep
        steps.append(step)
        if len(alive) <= 1:
            break
        size *= 2
    last = steps[-1].estimates if steps else {}
    return sorted(alive, key=lambda m: abs(last[m][0])), steps


def combined(est: tuple[float, float, float], prior: tuple[float, float] | None) -> float:
    """The precision-weighted mean of a measurement (edge, lo, hi: a 95% interval) and a prediction
    (edge, se); the measurement alone without a prediction."""
    if prior is None:
        return est[0]
    se = max((est[2] - est[1]) / (2 * Z), 1e-9)
    w_m, w_p = 1 / se ** 2, 1 / max(prior[1], 1e-9) ** 2
    return (w_m * est[0] + w_p * prior[0]) / (w_m + w_p)


def pick_winner(survivors: list[int], changes: dict[int, int],
                estimates: dict[int, list[tuple[float, float, float]]]) -> int:
    """The survivor the judge confirms, by the answer's own rule: fewest changes, then the edge that stays
    closest to even across the balanced levels (``estimates[m]``: (edge, lo, hi) at the judge and at each
    balanced fast level; the farther end of each interval counts), then the order of the race."""
    def spread(m):
        return max(max(abs(lo), abs(hi)) for _, lo, hi in estimates[m]) if estimates.get(m) else math.inf
    return min(survivors, key=lambda m: (changes.get(m, 0), spread(m), survivors.index(m)))


def race_games(steps: list[RaceStep], games_per_deal: int = 1) -> int:
    """The judge games a race played."""
    return sum(s.deals * len(s.members) for s in steps) * games_per_deal


def verdict_of(est: tuple[float, float, float], tolerance: float) -> str:
    return interval_verdict(est[1], est[2], tolerance)

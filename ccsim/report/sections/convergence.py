"""Convergence with skill: does a claim still move when the players get stronger?

The levels are ordered by strength: by the ladder's Elo when the study has a ladder that rates
every level, else in the order the study file gives them (weakest first).  A claim measured
across levels is **converged** when its two strongest levels agree: their difference d lies
inside its own 95% interval (|d| ≤ 1.96·se_d, se_d = √(se_a² + se_b²), each se read off its
interval) *and* inside the claim's smallest effect of interest (|d| ≤ seoi); otherwise it is
**still moving with skill**.  A converged claim whose difference has an interval wider than ±seoi
(a capped search level's few games) is marked *imprecise*: it may have converged by luck.  A claim
made across opponents (the ladder, the field, the meta-game) has no convergence; one measured at a
single level says so.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import pandas as pd

from ccsim.report.claims import Estimate
from ccsim.report.figures import skill_panels
from ccsim.report.kinds import KINDS
from ccsim.report.sections.common import SECTION_TITLES, Section
from ccsim.report.spec import Z95
from ccsim.report.tables import Show
from ccsim.report.units import ELO_ANCHOR, diff_unit, margin, quote, with_unit

__all__ = ["Strength", "strength_order", "convergence_verdict", "converge", "convergence_table", "build_convergence"]

CONVERGED, MOVING, ONE_LEVEL = "converged", "still moving with skill", "measured at one level only"


@dataclass(frozen=True)
class Strength:
    """The levels weakest first, each one's sort key (``elo``: the ladder's rating, or its place in the
    study file), and where the order comes from (``ladder`` or ``study``)."""
    levels: tuple
    key: dict = field(default_factory=dict)
    source: str = "study"


def strength_order(study, sections) -> Strength:
    """The study's levels by strength: the ladder's Elo when it rates them all, else the study's order."""
    ladder = next((s for s in sections if s.name == "ladder"), None)
    if ladder is not None:
        elo = dict(zip(ladder.tables["ratings"]["entrant"], ladder.tables["ratings"]["elo"].astype(float)))
        if all(lv in elo for lv in study.levels):
            return Strength(tuple(sorted(study.levels, key=elo.get)), elo, "ladder")
    return Strength(tuple(study.levels), {lv: float(i) for i, lv in enumerate(study.levels)}, "study")


def _se(e: Estimate) -> float:
    return (e.hi - e.lo) / (2 * Z95)


def convergence_verdict(strong: Estimate, weaker: Estimate, seoi: float) -> dict:
    """Whether the strongest level ``strong`` and the next one ``weaker`` agree: the difference, its 95%
    interval, and the verdict (``converged`` or ``still moving with skill``)."""
    d = strong.value - weaker.value
    half = Z95 * math.hypot(_se(strong), _se(weaker))
    ok = abs(d) <= half + 1e-12 and abs(d) <= seoi + 1e-12
    # ``precise``: the difference's own interval lies within ±seoi, so "converged" is not a matter of luck
    return dict(verdict=CONVERGED if ok else MOVING, strongest=strong.context, next=weaker.context, diff=d,
                lo=d - half, hi=d + half, precise=bool(half <= seoi + 1e-12))


def _text(v: dict, unit: str, seoi: float) -> str:
    q = quote(v["diff"], v["lo"], v["hi"], diff_unit(unit), signed=True)
    if v["verdict"] == CONVERGED:
        text = (f"settled: {v['strongest']} and {v['next']}, the two strongest levels measured, agree within "
                f"{margin(seoi, unit)} ({q})")
        return text if v["precise"] else text + "; the interval is wider than that: more games would make it sure"
    more = "; more games at these levels would tell whether it changes" if v["lo"] <= 0 <= v["hi"] else ""
    return (f"changes with skill: {v['strongest']} and {v['next']}, the two strongest levels measured, differ by "
            f"{q}{more}")


def converge(claim, strength: Strength) -> dict | None:
    """The convergence of one claim (``None`` for a claim made across opponents)."""
    if claim.across != "level":
        return None
    ranked = sorted((e for e in claim.estimates if e.context in strength.key), key=lambda e: strength.key[e.context])
    if len(ranked) < 2:
        return dict(verdict=ONE_LEVEL, text=f"measured at {claim.level} only")
    v = convergence_verdict(ranked[-1], ranked[-2], claim.seoi)
    return dict(v, text=_text(v, claim.unit, claim.seoi))


def convergence_table(claims, strength: Strength) -> pd.DataFrame:
    """One row per claim made across levels: its figure at each level (weakest first), the difference of
    the two strongest and the verdict; ``unit`` and ``signed`` say how the page prints the row."""
    rows = []
    for c in claims:
        if not c.convergence or "diff" not in c.convergence:
            continue
        at = {e.context: e.value for e in c.estimates}
        v = c.convergence
        rows.append(dict(claim=c.id, what=c.title or c.id, unit=c.unit, signed=c.signed, **{lv: at.get(lv, math.nan) for lv in strength.levels},
                         diff=v["diff"], diff_lo=v["lo"], diff_hi=v["hi"], verdict=v["verdict"]))
    return pd.DataFrame(rows)


def _short(claim) -> str:
    """A claim's name inside its kind's panel: the arm, the card, the metric."""
    parts = claim.id.split(".")
    return parts[1] if claim.section in ("variants", "balance") and len(parts) > 1 else parts[-1]


def _panels(claims, strength: Strength) -> list:
    """One panel per kind of claim made across levels: its claims' estimates, weakest level first."""
    kinds = {}
    for c in claims:
        if c.convergence and "diff" in c.convergence:
            kinds.setdefault(c.kind, []).append(c)
    panels = []
    for kind, cs in kinds.items():
        k = KINDS[kind]
        series = [(_short(c), sorted((e for e in c.estimates if e.context in strength.key),
                                     key=lambda e: strength.key[e.context])) for c in cs]
        panels.append(dict(title=f"{k.what} ({k.unit})", unit=k.unit, null=k.null, band=cs[0].seoi, series=series))
    return panels


def build_convergence(study, sections):
    """The convergence of every claim (set on the claims) and the section that shows it."""
    strength = strength_order(study, sections)
    claims = [c for s in sections for c in s.claims]
    for c in claims:
        c.convergence = converge(c, strength)
    sec = Section("convergence", SECTION_TITLES["convergence"])
    table = convergence_table(claims, strength)
    if table.empty:
        sec.notes.append("No claim here was measured at two levels of play or more.")
        return sec, strength
    sec.tables["claims"] = table
    sec.shows["claims"] = [Show((lv,)) for lv in strength.levels] + [Show(("diff", "diff_lo", "diff_hi"),
                                                                          difference=True)]
    labels = [f"{lv}\n{with_unit(strength.key[lv], 'Elo')}" if strength.source == "ladder" else lv
              for lv in strength.levels]
    sec.figures["skill"] = skill_panels(_panels(claims, strength), list(strength.levels), labels)
    sec.conclusions.append(_order_words(study, strength))
    moving = [c.title or c.id for c in claims if c.convergence and c.convergence["verdict"] == MOVING]
    sec.conclusions.append(f"Settled (the two strongest levels agree): {len(table) - len(moving)} of the {len(table)} "
                           f"claims measured at two levels or more" +
                           (f"; stronger players still change these: {'; '.join(moving)}." if moving else "."))
    return sec, strength


def _order_words(study, strength: Strength) -> str:
    if strength.source == "study":
        return (f"Levels in the study file's order, weakest first: {', '.join(strength.levels)} (no ladder rates "
                f"them all).")
    elo = ", ".join(f"{lv} ({with_unit(strength.key[lv], 'Elo')})" for lv in strength.levels)
    differs = tuple(strength.levels) != tuple(study.levels)
    zero = f"0 = {ELO_ANCHOR}" if ELO_ANCHOR in strength.key else "0 = the field's mean"
    return (f"Levels by the ladder's rating ({zero}), weakest first: {elo}"
            + (f"; the study file lists them as {', '.join(study.levels)}." if differs else "."))

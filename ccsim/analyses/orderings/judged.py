"""The judge's figure beside each ordering a study measured at a fast level (``ccsim.analyses.judging``).

An ordering's difference over the baseline is a difference of two settings' effects on Cleopatra's edge (her
deck in that order as Cleopatra, and as Caesar), so the judge's map carries it like any effect.  The judge's
figure is measured where the judge's store holds the ordering in both seats, else predicted from the level's
difference; it is left empty where the study's two players differ (their difference measures them, not the
deck) or the level has no map.
"""
from __future__ import annotations

import math

import numpy as np

from ccsim.analyses.judging.effect_map import interval_se
from ccsim.analyses.judging.figure import judge_ordering
from ccsim.runner.config import RunConfig

__all__ = ["judge_columns", "judge_json"]

COLUMNS = ("judge", "judge_how", "judge_value", "judge_lo", "judge_hi", "judge_deals")


def judge_columns(rows, strategy: str, opponent: str | None, opponent_order: str, baseline: str, variants=()) -> list:
    """``rows`` (dicts with ordering, diff, diff_lo, diff_hi) with the judge's figure added under ``COLUMNS``."""
    vec = RunConfig(variants=tuple(variants)).validated().rules_vector()
    out = []
    for r in rows:
        f = None
        if opponent in (None, strategy) and math.isfinite(r["diff"]):
            f = judge_ordering(vec, r["ordering"], strategy, r["diff"], interval_se(r["diff_lo"], r["diff_hi"]),
                               baseline, opponent_order)
        out.append(dict(r, judge=f.judge if f else None, judge_how=f.how if f else None,
                        judge_value=f.edge if f else np.nan, judge_lo=f.lo if f else np.nan,
                        judge_hi=f.hi if f else np.nan, judge_deals=f.deals if f else None))
    return out


def judge_json(r: dict) -> dict | None:
    """An ordering's judge figure as ``--json`` gives it (shares), None where there is none."""
    if not r.get("judge_how"):
        return None
    label = f"measured with {r['judge']}" if r["judge_how"] == "measured" else f"predicted for {r['judge']}"
    from strategies.seats import status
    return dict(judge=r["judge"], how=r["judge_how"], label=label, status=status(r["judge"]), diff=float(r["judge_value"]),
                diff_ci95=[float(r["judge_lo"]), float(r["judge_hi"])],
                deals=None if r["judge_deals"] is None or r["judge_how"] != "measured" else int(r["judge_deals"]))

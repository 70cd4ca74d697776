"""The judge's map: a change's effect at a fast balanced level carried to the judge's.

A deal's outcome does not carry from one level to another (the correlation per deal is about 0.1), but a
change's *effect* does: the edge under the change minus the edge under the standard rules on the same deals
moves by about the same at every balanced level (results/calibration/).  The map is a line through the
origin (the standard rules change nothing at any level) from a fast level's effects to the judge's, fitted
by weighted least squares on the *anchors* (settings measured at both); its prediction interval adds the
slope's uncertainty, the fast measurement's and a model spread (the anchors' scatter beyond their own noise,
never below ``MODEL_SD``, because a handful of anchors cannot show it).

Every door that shows the judge's figure (``ccsim.analyses.judging.figure``), the balance search's ring and
its centre use this one module.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

__all__ = ["EffectMap", "fit_effect_map", "Prediction", "predict", "MODEL_SD", "Z", "interval_se"]

#: the least spread (a share: 0.01 is one point) the map's predictions carry beyond the measured noise:
#: two or three anchors cannot show how far a new setting's effect strays from the line
MODEL_SD = 0.01
#: how many standard errors a prediction's interval spans each way (about 95%)
Z = 1.96


def interval_se(lo, hi):
    """The standard error behind a 95% interval (numbers or arrays alike)."""
    return (hi - lo) / (2 * Z)


@dataclass(frozen=True)
class EffectMap:
    """judge effect = slope x fast effect (a line through the origin), fitted on ``anchors`` settings;
    ``model_sd``: the spread a new setting's effect keeps around the line (a share)."""
    level: str
    slope: float
    slope_se: float
    model_sd: float
    anchors: int

    def predict(self, effect: float, effect_se: float) -> tuple[float, float]:
        """A judge-level effect and its standard error from a fast-level effect and its own."""
        var = (effect * self.slope_se) ** 2 + (self.slope * effect_se) ** 2 + self.model_sd ** 2
        return self.slope * effect, math.sqrt(var)


def fit_effect_map(level: str, fast: np.ndarray, judge: np.ndarray, judge_se: np.ndarray,
                   fast_se: np.ndarray | None = None, model_sd: float = MODEL_SD) -> EffectMap:
    """The line through the origin from ``fast`` effects to ``judge`` effects over the anchors, weighted by
    each anchor's variance (the judge's, and the fast level's carried through the slope); the model spread
    is the anchors' scatter beyond that noise (method of moments), never below ``model_sd``.
    ValueError without an anchor that has an effect."""
    x, y = np.asarray(fast, float), np.asarray(judge, float)
    sy = np.asarray(judge_se, float)
    sx = np.zeros_like(x) if fast_se is None else np.asarray(fast_se, float)
    if x.size == 0 or not np.any(np.abs(x) > 0):
        raise ValueError("the map needs at least one anchor whose fast-level effect is not zero")
    b = float(np.sum(x * y / np.maximum(sy, 1e-9) ** 2) / np.sum(x ** 2 / np.maximum(sy, 1e-9) ** 2))
    for _ in range(3):  # the weights depend on the slope through the fast level's noise
        w = 1 / np.maximum(sy ** 2 + (b * sx) ** 2, 1e-18)
        b = float(np.sum(w * x * y) / np.sum(w * x ** 2))
    resid = y - b * x
    excess = float(np.sum(resid ** 2 - (sy ** 2 + (b * sx) ** 2)) / max(x.size - 1, 1)) if x.size > 1 else 0.0
    spread = max(model_sd, math.sqrt(max(excess, 0.0)))
    w = 1 / (sy ** 2 + (b * sx) ** 2 + spread ** 2)
    return EffectMap(level, b, float(math.sqrt(1 / np.sum(w * x ** 2))), spread, int(x.size))


@dataclass(frozen=True)
class Prediction:
    """A setting's predicted edge at the judge (a share) with its standard error, from ``level``'s effect."""
    candidate: int
    level: str
    fast_effect: float
    fast_effect_se: float
    edge: float
    edge_se: float

    @property
    def interval(self) -> tuple[float, float]:
        return self.edge - Z * self.edge_se, self.edge + Z * self.edge_se

    def could_be_fair(self, tolerance: float) -> bool:
        """Whether the prediction's interval reaches the band (the judge cannot rule it out unplayed)."""
        lo, hi = self.interval
        return lo <= tolerance and hi >= -tolerance


def predict(emap: EffectMap, candidate: int, effect: float, effect_se: float, standard_edge: float,
            standard_se: float) -> Prediction:
    """The judge edge of a setting: the standard rules' judge edge plus its mapped effect."""
    e, se = emap.predict(effect, effect_se)
    return Prediction(candidate, emap.level, effect, effect_se, standard_edge + e,
                      math.sqrt(se ** 2 + standard_se ** 2))

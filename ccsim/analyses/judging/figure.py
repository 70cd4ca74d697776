"""The judge's figure beside a fast level's: Cleopatra's edge with the judge on both sides, measured or predicted.

*Measured* when the judge's store holds the setting (``ccsim.analyses.judging.store``): the judge played it.
Otherwise *predicted*: the judge's edge under the standard rules plus the fast level's effect carried through
the map fitted for that level (``ccsim.analyses.judging.effect_map``); its interval adds the map's spread, the
slope's uncertainty, the fast measurement's and the standard edge's.  A level without a fitted map (a lopsided
or unmeasured one) predicts nothing: its effects are its own, not the game's.

Every share is a fraction (0.01 = one point), in ``as_json`` too (as every ``--json`` gives shares).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace

from ccsim.analyses.judging.effect_map import Z, interval_se, predict
from ccsim.analyses.judging.store import effect_map_of, fitted_maps, judge_store, setting_key
from ccsim.runner.orderings import SHUFFLED

__all__ = ["JudgeFigure", "judge_figure", "judge_figure_of_edge", "judge_ordering", "MEASURED", "PREDICTED"]

MEASURED, PREDICTED = "measured", "predicted"


@dataclass(frozen=True)
class JudgeFigure:
    """Cleopatra's edge with ``judge`` on both sides under one setting, and how it is known."""
    judge: str
    how: str                   # MEASURED or PREDICTED
    edge: float
    lo: float
    hi: float
    deals: int | None = None   # the judge's deals (measured)
    level: str | None = None   # the fast level it was predicted from
    source: str | None = None  # where a measurement came from

    @property
    def label(self) -> str:
        """"measured with neural-search" or "predicted for neural-search"."""
        return f"measured with {self.judge}" if self.how == MEASURED else f"predicted for {self.judge}"

    def as_json(self) -> dict:
        from strategies.seats import status
        return dict(judge=self.judge, how=self.how, label=self.label, edge=self.edge, ci95=[self.lo, self.hi],
                    deals=self.deals, predicted_from=self.level, status=status(self.judge))


def _measured(row: dict, judge: str) -> JudgeFigure:
    lo, hi = row["ci95"]
    return JudgeFigure(judge, MEASURED, row["edge"], lo, hi, deals=row["deals"], source=row.get("source"))


def judge_figure(vec, orders=(SHUFFLED, SHUFFLED), level: str | None = None, effect: float | None = None,
                 effect_se: float | None = None) -> JudgeFigure | None:
    """The judge's figure for a setting: measured if stored, else predicted from ``level``'s ``effect`` (the
    setting's edge minus the standard rules' on the same deals, and its standard error); None when neither
    can be had (no store, or a level without a map)."""
    store = judge_store()
    row = store.get(setting_key(vec, orders))
    if row is not None:
        return _measured(row, store.judge)
    fitted, standard = effect_map_of(level), store.standard
    if fitted is None or standard is None or effect is None or not math.isfinite(effect):
        return None
    se_effect = effect_se if effect_se is not None and math.isfinite(effect_se) else 0.0
    p = predict(fitted[0], 0, effect, se_effect, standard["edge"], interval_se(*standard["ci95"]))
    lo, hi = p.interval
    return JudgeFigure(store.judge, PREDICTED, p.edge, lo, hi, level=level)


def judge_figure_of_edge(vec, orders, level: str, edge: float, edge_se: float) -> JudgeFigure | None:
    """The judge's figure from a fast level's *edge* alone (a door that played no paired standard rules): its
    effect is that edge minus the level's own standard edge (measured on many deals, in the map's file)."""
    fitted = effect_map_of(level)
    if fitted is None:
        return judge_figure(vec, orders)
    std = fitted[1]
    return judge_figure(vec, orders, level, edge - std["edge"], math.hypot(edge_se, interval_se(*std["ci95"])))


def judge_ordering(vec, order: str, level: str | None, diff: float, diff_se: float,
                   baseline: str = SHUFFLED, opponent_order: str = SHUFFLED) -> JudgeFigure | None:
    """The judge's figure of an ordering's score difference over ``baseline`` (its player's score over both
    seats, against the same player with ``opponent_order``): measured when the store holds the ordering in
    each seat against a shuffled deck (and the baseline and the opponent are shuffled), else ``level``'s
    difference carried through its map (a difference of two settings' effects: the line carries it whole,
    with the model spread of the two seats' effects, halved); None when neither can be had."""
    store = judge_store()
    if baseline == SHUFFLED and opponent_order == SHUFFLED:
        a, b = (store.get(setting_key(vec, o)) for o in ((order, SHUFFLED), (SHUFFLED, order)))
        if a is not None and b is not None and a.get("effect") is not None and b.get("effect") is not None:
            # as Cleopatra she gains her edge's effect; as Caesar she gains minus it: the mean of her two seats
            value = (a["effect"] - b["effect"]) / 2
            se = math.hypot(*(interval_se(*r["effect_ci95"]) for r in (a, b))) / 2
            return JudgeFigure(store.judge, MEASURED, value, value - Z * se, value + Z * se,
                               deals=min(a["deals"], b["deals"]), source=a.get("source"))
    fitted = effect_map_of(level)
    if fitted is None or not math.isfinite(diff):
        return None
    emap = fitted[0]
    # a mean of two seats' effects: each strays from the line on its own, so their mean strays by 1/sqrt(2)
    value, se = replace(emap, model_sd=emap.model_sd / math.sqrt(2)).predict(diff, diff_se)
    return JudgeFigure(store.judge or fitted_maps().get("judge"), PREDICTED, value, value - Z * se, value + Z * se,
                       level=level)

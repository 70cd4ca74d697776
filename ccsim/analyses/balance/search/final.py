"""After the race: the fresh re-measure, the final candidates and the recommendation.

1. **Every simplest setting, re-measured.**  The race's estimates carry noise (±0.8 points on
   16,000 deals), enough to rank a simpler fair setting behind a costlier one.  So the fresh
   re-measure takes *every* setting of the Pareto set and every finalist, grouped by number of
   changes, fewest first (one change, then two ...), and stops after the first group that holds a
   setting fair at the strongest fast level (the first of the space's levels).
2. **The final candidates** are the re-measured settings fair at that level, fewest changes first,
   then closest to 50% (at most ``recommend``); the closest one alone when none is fair.  They go to
   the search level, and to the skill curve.
3. **The recommendation** is the first final candidate ranked by (changes, distance from 50% at the
   strongest level measured: the search level when it was played, else the first level, size).

The rows are pandas frames, one per setting and level, with the estimates of
``ccsim.analyses.balance.search.estimates.level_estimate`` and ``fair``.
"""
from __future__ import annotations

import pandas as pd

from ccsim.analyses.balance.search.estimates import level_estimate
from ccsim.analyses.balance.search.race import FINALIST
from ccsim.analyses.balance.publish.skill import FAIR, interval_verdict

__all__ = ["remeasure_groups", "setting_rows", "final_candidates", "rank_finals"]


def remeasure_groups(frame: pd.DataFrame) -> list[list[int]]:
    """The settings the fresh re-measure takes, grouped by number of changes, fewest first: every
    setting of the Pareto set and every finalist that keeps the bounds, the cheapest first within a
    group.  ``frame``: the race's rows (candidate, pareto, status, keeps_bounds, changes, size, worst)."""
    pool = frame["pareto"] | ((frame["status"] == FINALIST) & frame["keeps_bounds"])
    one = frame[pool & (frame["candidate"] != 0)].drop_duplicates("candidate")
    one = one.sort_values(["changes", "size", "worst"], kind="stable")
    return [[int(c) for c in g["candidate"]] for _, g in one.groupby("changes", sort=True)]


def setting_rows(cands, members, levels, stats, tolerance: float) -> list[dict]:
    """One row per member (candidate index) and level from a block's moments ``stats``."""
    rows = []
    for i in members:
        c = cands[i]
        for lv, level in enumerate(levels):
            x = level_estimate(stats[i][lv])
            rows.append(dict(candidate=i, setting=c.name, words=c.words, key=c.key, changes=c.changes,
                             size=c.size, level=level.name, **x,
                             fair=interval_verdict(x["seat_advantage_lo"], x["seat_advantage_hi"], tolerance) == FAIR))
    return rows


def _at(rows: pd.DataFrame, level: str) -> pd.DataFrame:
    """The settings' rows at ``level``, one per candidate, the standard rules left out."""
    return rows[(rows["level"] == level) & (rows["candidate"] != 0)].drop_duplicates("candidate")


def final_candidates(fresh: pd.DataFrame, level: str, k: int) -> list[int]:
    """The settings fair at ``level`` on the fresh deals, fewest changes first, then closest to 50%
    (at most ``k``); the closest alone when none is fair."""
    at = _at(fresh, level).assign(dist=lambda d: d["seat_advantage"].abs())
    if at.empty:
        return []
    fair = at[at["fair"]].sort_values(["changes", "dist", "size"], kind="stable")
    if fair.empty:
        return [int(at.sort_values(["dist", "changes", "size"], kind="stable")["candidate"].iloc[0])]
    return [int(c) for c in fair["candidate"][:k]]


def rank_finals(finals: list[int], fresh: pd.DataFrame, search: pd.DataFrame, level: str) -> list[int]:
    """The final candidates best first: fewest changes, then closest to 50% at the strongest level
    measured (the search level's rows when there are any, else ``level``'s fresh rows), then size."""
    rows = search if not search.empty else fresh[fresh["level"] == level]
    at = rows[rows["candidate"].isin(finals)].drop_duplicates("candidate")
    dist = dict(zip(at["candidate"], at["seat_advantage"].abs()))
    cost = dict(zip(fresh["candidate"], zip(fresh["changes"], fresh["size"])))
    return sorted(finals, key=lambda i: (cost[i][0], dist.get(i, float("inf")), cost[i][1]))

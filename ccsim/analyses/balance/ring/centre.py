"""The next ring's centre: the setting the search knows to be closest to even at the judge.

When nothing is fair at the judge, the next ring widens around one setting, and the judge has measured only a
few (the search's final candidates, chosen at the fast levels).  The search knows more than that: every setting
it *kept* (the race's Pareto set and finalists, re-measured on fresh deals where the re-measure took them) has
its effect at the fast levels, paired with the standard rules on the same deals; and a change's effect carries
from one level to another (``ccsim.analyses.balance.ring.stages``'s map), so the settings measured at both a fast level
and the judge (the *anchors*) map every kept setting's fast effect to a predicted edge at the judge.

The centre is chosen from the best figure the search has of each kept setting at the judge: its measurement
there when it has one, else its prediction from the fast *balanced* levels (a lopsided level decides nothing),
through the map of the balanced fast level whose anchors scatter least (then the surest slope: the ring's own
rule).  The settings closest to even come first (then fewest changes, then smallest).  A predicted figure is
not a measurement: when the first is predicted, the judge measures it (``next_check``, a check of its own on
fresh deals, paired with the standard rules) and the ranking is made again with it as one more anchor, at most
``MAX_CHECKS`` times; the centre is then the closest setting *measured* at the judge.

Everything here is pure (tables in, tables out): ``ccsim.analyses.balance.ring.widen`` plays the checks, and
tests/test_balance_centre.py reads the published folder's tables to show the choice without a game.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import pandas as pd

from ccsim.analyses.balance.judge import BALANCED, seat_status
from ccsim.analyses.judging.effect_map import fit_effect_map, interval_se, predict

__all__ = ["CHECK_OFFSET", "MAX_CHECKS", "MEASURED", "PREDICTED", "kept_rows", "balanced_fast", "centre_ranking",
           "CentrePlan", "centre_plan"]

#: the centre checks' fresh deals at the judge are those of the search's seed + 5: none of the search's (seed,
#: seed + 1) nor the ring's (seed + 2, + 3, + 4)
CHECK_OFFSET = 5
#: at most this many settings measured at the judge to find the centre (each a block of ``search_deals``)
MAX_CHECKS = 2
MEASURED, PREDICTED = "measured", "predicted"


def kept_rows(fresh: pd.DataFrame, race: pd.DataFrame) -> pd.DataFrame:
    """The rows (one per setting and level) of every setting the search kept and the standard rules: the fresh
    re-measure's where it took the setting (fresh deals), else the race's (the Pareto set and the finalists that
    keep the bounds, ``final.remeasure_groups``' pool: the groups the re-measure did not reach)."""
    parts = [fresh] if not fresh.empty else []
    if not race.empty:
        pool = race["pareto"] | ((race["status"] == "finalist") & race["keeps_bounds"])
        have = set(fresh["candidate"]) if not fresh.empty else set()
        parts.append(race[pool & ~race["candidate"].isin(have)])
    if not parts:
        return pd.DataFrame()
    cols = ["candidate", "setting", "words", "key", "changes", "size", "level", "deals", "seat_advantage",
            "seat_advantage_lo", "seat_advantage_hi", "diff", "diff_lo", "diff_hi"]
    return pd.concat([p[cols] for p in parts], ignore_index=True)


def balanced_fast(levels, judge: str) -> list[str]:
    """The fast levels whose effects may predict the judge's: the space's levels but the judge, balanced ones."""
    return [n for n in levels if n != judge and seat_status(n) == BALANCED]


def _maps(kept: pd.DataFrame, judge_rows: pd.DataFrame, fast: list[str]) -> list:
    """Each balanced fast level's map from its effects to the judge's, fitted on the settings measured at both
    (their paired effects); levels without an anchor with an effect are left out."""
    at_judge = judge_rows[judge_rows["candidate"] != 0].drop_duplicates("candidate").set_index("candidate")
    maps = []
    for level in fast:
        here = kept[(kept["level"] == level) & kept["candidate"].isin(at_judge.index)].drop_duplicates("candidate")
        here = here[here["diff"].abs() > 0]
        if here.empty:
            continue
        j = at_judge.loc[here["candidate"]]
        maps.append(fit_effect_map(level, here["diff"].to_numpy(), j["diff"].to_numpy(),
                                   interval_se(j["diff_lo"], j["diff_hi"]).to_numpy(),
                                   interval_se(here["diff_lo"], here["diff_hi"]).to_numpy()))
    return maps


def centre_ranking(kept: pd.DataFrame, judge_rows: pd.DataFrame, fast: list[str]) -> pd.DataFrame:
    """Every kept setting and every setting measured at the judge, with its edge there (a share): ``measured``
    (``judge_rows``: its own figure) or ``predicted`` (the standard rules' edge at the judge plus its mapped fast
    effect, with the prediction's 95% interval); closest to even first, then fewest changes, then smallest.

    ``judge_rows``: rows at the judge (candidate, setting, ..., seat_advantage with its interval, diff with its
    interval), the standard rules (candidate 0) first, its figure the one predictions start from; each other
    row's diff paired with the standard rules on its own deals.  ``fast``: the balanced fast levels."""
    std = judge_rows[judge_rows["candidate"] == 0].iloc[0]
    info = ["candidate", "setting", "words", "key", "changes", "size"]
    rows = []
    measured = judge_rows[judge_rows["candidate"] != 0].drop_duplicates("candidate")
    for _, r in measured.iterrows():
        rows.append({k: r[k] for k in info} | dict(source=MEASURED, level=r["level"], edge=float(r["seat_advantage"]),
                                                  lo=float(r["seat_advantage_lo"]), hi=float(r["seat_advantage_hi"])))
    maps = _maps(kept, judge_rows, fast)
    if maps:
        emap = min(maps, key=lambda m: (m.model_sd, m.slope_se))  # the ring's own rule (ring_run._best_plan)
        fast_rows = kept[(kept["level"] == emap.level) & (kept["candidate"] != 0)
                         & ~kept["candidate"].isin(measured["candidate"])].drop_duplicates("candidate")
        for _, r in fast_rows.iterrows():
            p = predict(emap, int(r["candidate"]), float(r["diff"]), float(interval_se(r["diff_lo"], r["diff_hi"])),
                        float(std["seat_advantage"]),
                        float(interval_se(std["seat_advantage_lo"], std["seat_advantage_hi"])))
            lo, hi = p.interval
            rows.append({k: r[k] for k in info} | dict(source=PREDICTED, level=emap.level, edge=p.edge, lo=lo, hi=hi))
    out = pd.DataFrame(rows, columns=[*info, "source", "level", "edge", "lo", "hi"])
    out["distance"] = out["edge"].abs()
    return out.sort_values(["distance", "changes", "size"], kind="stable").reset_index(drop=True)


@dataclass(frozen=True)
class CentrePlan:
    """The ranking (``centre_ranking``), the centre (the closest setting measured at the judge: a candidate, None
    when nothing was), and the setting the judge should measure first (``check``: the first of the ranking when
    only predicted and checks remain, else None)."""
    ranking: pd.DataFrame
    centre: int | None
    check: int | None


def centre_plan(kept: pd.DataFrame, judge_rows: pd.DataFrame, fast: list[str], checks_done: int = 0,
                max_checks: int = MAX_CHECKS) -> CentrePlan:
    """The centre from what the search knows (``centre_ranking``), and the check the judge should play first."""
    ranking = centre_ranking(kept, judge_rows, fast)
    measured = ranking[ranking["source"] == MEASURED]
    centre = int(measured["candidate"].iloc[0]) if not measured.empty else None
    top = ranking.iloc[0] if not ranking.empty else None
    check = (int(top["candidate"]) if top is not None and top["source"] == PREDICTED and checks_done < max_checks
             and math.isfinite(top["edge"]) else None)
    return CentrePlan(ranking, centre, check)

"""Fair rules: the Python API of ``ccsim balance`` (docs/balance.md).

Searches a space of rules changes (``ccsim.analyses.balance.space``) for the smallest change that
brings Cleopatra's score to 50% at every level of play: a race over the candidates on common deals
(``ccsim.analyses.balance.race``, played by ``ccsim.analyses.balance.play``), the Pareto set over
(worst-level |seat advantage|, number of changes, size of change), and the recommended settings
re-measured on fresh deals (another seed) and marked *fair* where the whole 95% interval of the
seat advantage lies within ±tolerance of 50% at every level.

>>> b = balance("examples/balance.toml", out="out/balance")          # doctest: +SKIP
>>> b.pareto[["setting", "level", "seat_advantage", "seat_advantage_lo", "seat_advantage_hi"]]  # doctest: +SKIP
>>> b.recommended.query("fair")                                       # doctest: +SKIP
"""
from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ccsim.runner.backends import LocalBackend
from ccsim.analyses.balance.estimates import level_estimate, worst_level
from ccsim.analyses.balance.folder import TaskStore, open_folder
from ccsim.analyses.balance.output import write_outputs
from ccsim.analyses.balance.plot import balance_plot
from ccsim.analyses.balance.play import Player
from ccsim.analyses.balance.race import FINALIST, OUT_BOUND, RacePlan, race, pareto_layers
from ccsim.runner.parameters import STANDARD_RULES
from ccsim.analyses.balance.space import BalanceError, Space, candidates, load_space, with_overrides

__all__ = ["Balance", "balance", "FRESH_SEED_OFFSET"]

#: the fresh deals of the re-measure are those of seed + 1: none of them was played by the search
FRESH_SEED_OFFSET = 1


def _stderr(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


@dataclass
class Balance:
    """A search's answer: ``candidates`` and ``pareto`` (one row per setting and level, as measured by
    the race), ``recommended`` (the chosen settings and the standard rules re-measured on fresh deals: one row
    per setting and level, ``fair`` per level and ``verdict`` per setting), the figure, and
    ``info`` (what it rests on: the space, the rounds, games and seconds)."""
    space: Space
    candidates: pd.DataFrame
    pareto: pd.DataFrame
    recommended: pd.DataFrame
    figure: Any = None
    info: dict = field(default_factory=dict)


def balance(space=None, out=None, backend=None, log=_stderr, progress: bool = False, *, levels=None,
            budget=None, seed=None, tolerance=None, remeasure_games=None) -> Balance:
    """Search ``space`` (a TOML path, a ``Space``, or None for the default space) for fair rules.

    ``out``: a folder for the outputs, which also makes the search resumable (a rerun with the same
    folder and space plays no finished task again); ``levels``, ``budget``, ``seed``, ``tolerance``,
    ``remeasure_games`` override the space's own.  ``log``: a function given one line per step
    (default: stderr; ``None`` for silence).  Ctrl-C ends it early: ``info['interrupted']``.
    """
    sp = space if isinstance(space, Space) else load_space(space)
    sp = with_overrides(sp, levels=levels, budget=budget, seed=seed, tolerance=tolerance,
                        remeasure_games=remeasure_games)
    log = log or (lambda msg: None)
    cands, refused = candidates(sp)
    plan = _plan(sp, len(cands))
    folder = open_folder(out, sp)
    # a damaged task file is named through the same log as the rounds (and played again)
    store = TaskStore(folder / "tasks" if folder else None, warn=log)
    player = Player(cands, sp.levels, backend or LocalBackend(), store, progress)
    log(f"balance: {len(cands) - 1:,} candidates at {', '.join(lv.name for lv in sp.levels)}; budget "
        f"{sp.budget:,} games, seed {sp.seed}" + (f"; results in {folder}" if folder else ""))
    result = race([(c.changes, c.size) for c in cands], player.round_measure(sp.seed), plan, log)
    frame = _candidates_frame(cands, result.entries, sp)
    info = dict(space=sp.source, identity=sp.identity(), candidates=len(cands) - 1, refused=refused,
                rounds=result.rounds, games=result.games, resumed=result.resumed, seconds=result.seconds,
                interrupted=result.interrupted, fresh_seed=sp.seed + FRESH_SEED_OFFSET, fresh_deals=0, fresh_games=0,
                fresh_seconds=0.0)
    fresh = _fresh(sp, cands, frame, player, info, log) if not result.interrupted else _empty_fresh()
    b = Balance(space=sp, candidates=frame, pareto=frame[frame["pareto"]].reset_index(drop=True),
                recommended=fresh, info=info)
    b.figure = balance_plot(b)
    if folder:
        write_outputs(folder, b)
    return b


def _plan(sp: Space, n_candidates: int) -> RacePlan:
    """The race's plan; BalanceError if the budget cannot give every candidate a first round."""
    plan = RacePlan(levels=len(sp.levels), games_per_deal=sum(len(lv.seatings) for lv in sp.levels),
                    budget=sp.budget, tolerance=sp.tolerance, draw_rate=sp.draw_rate, game_length=sp.game_length)
    racing = n_candidates - 1
    if plan.round_deals(racing, sp.budget) < plan.min_deals:
        least = plan.min_deals * (racing + 1) * plan.games_per_deal * plan.rounds_left(racing)
        raise BalanceError(f"--budget {sp.budget:,} is too small for {racing:,} candidates at "
                           f"{len(sp.levels)} level(s): give at least {least:,} games")
    return plan


def _candidates_frame(cands, entries, sp: Space) -> pd.DataFrame:
    """One row per candidate and level: its race (status, deals) and its estimates, its worst level,
    whether it keeps the bounds (point estimates), and whether it is in the Pareto set."""
    rows = []
    for i, (c, e) in enumerate(zip(cands, entries)):
        if e.stats is None or e.stats.n == 0:
            continue
        est = [level_estimate(e.stats[lv]) for lv in range(len(sp.levels))]
        w, worst = worst_level([x["seat_advantage"] for x in est])
        keeps = e.status != OUT_BOUND and all(_within(sp.draw_rate, x["draw_ratio"]) and
                                              _within(sp.game_length, x["length_ratio"]) for x in est)
        for lv, x in zip(sp.levels, est):
            rows.append(dict(candidate=i, setting=c.name, words=c.words, key=c.key, changes=c.changes,
                             size=c.size, status="reference" if i == 0 else e.status, round_out=e.round_out, level=lv.name,
                             **x, worst=worst, worst_level=sp.levels[w].name, keeps_bounds=keeps))
    df = pd.DataFrame(rows)
    if df.empty:
        return df.assign(pareto=pd.Series(dtype=bool))
    one = df.drop_duplicates("candidate")
    ok = one[one["keeps_bounds"]]
    front = set(ok["candidate"][pareto_layers(ok["worst"], ok["changes"], ok["size"]) == 1])
    return df.assign(pareto=df["candidate"].isin(front))


def _within(bound, ratio) -> bool:
    """A relative bound kept by a point estimate (no bound, or no estimate yet: kept)."""
    return bound is None or not np.isfinite(ratio) or abs(ratio - 1) <= bound


def recommend(frame: pd.DataFrame, tolerance: float, k: int) -> list[int]:
    """The settings to re-measure: those of the Pareto set and the race's finalists (measured the
    longest; a finalist off the Pareto set is one a noisy point estimate puts a hair behind another
    of the same cost) that keep the bounds and lie within tolerance at every level (point estimates
    of the search), cheapest first (changes, then size), at most ``k``, and always the one closest
    to fair among them; if none is within tolerance, the closest alone.  ``frame``: one row per
    candidate (and level) with candidate, pareto, status, keeps_bounds, changes, size, worst."""
    pool = frame["pareto"] | ((frame["status"] == FINALIST) & frame["keeps_bounds"])
    one = frame[pool & (frame["candidate"] != 0)].drop_duplicates("candidate")
    if one.empty:
        return []
    inside = one[one["worst"] <= tolerance].sort_values(["changes", "size", "worst"], kind="stable")
    closest = int(one.sort_values(["worst", "changes", "size"], kind="stable")["candidate"].iloc[0])
    picks = [int(c) for c in inside["candidate"][:k]]
    if closest not in picks:
        picks = picks[:k - 1] + [closest]
    return picks


def _fresh(sp: Space, cands, frame, player: Player, info: dict, log) -> pd.DataFrame:
    """The recommended settings and the standard rules, re-measured on ``remeasure_games`` fresh deals per level."""
    picks = recommend(frame, sp.tolerance, sp.recommend)
    if not picks:
        return _empty_fresh()
    seed, deals = sp.seed + FRESH_SEED_OFFSET, sp.remeasure_games
    log(f"re-measure: {len(picks)} recommended setting(s) and {STANDARD_RULES} on {deals:,} fresh deals "
        f"(seed {seed}) at every level")
    res = player.play(seed, "fresh", (0, *picks), 0, deals, "fresh deals")
    info.update(fresh_deals=int(res.stats[0].n), fresh_games=res.games, fresh_seconds=res.seconds,
                interrupted=res.interrupted)
    rows = []
    for i in (0, *picks):
        c = cands[i]
        for lv, level in enumerate(sp.levels):
            x = level_estimate(res.stats[i][lv])
            fair = bool(-sp.tolerance <= x["seat_advantage_lo"] and x["seat_advantage_hi"] <= sp.tolerance)
            rows.append(dict(candidate=i, setting=c.name, words=c.words, key=c.key, changes=c.changes,
                             size=c.size, level=level.name, **x, fair=fair))
    df = pd.DataFrame(rows)
    verdicts = {i: _verdict(g, sp.tolerance) for i, g in df.groupby("candidate", sort=False)}
    return df.assign(verdict=df["candidate"].map(verdicts),
                     fair_everywhere=df.groupby("candidate")["fair"].transform("all"))


def _verdict(rows: pd.DataFrame, tolerance: float) -> str:
    """Fair at every level, at some only (flagged: a claim about the players, not the game), or none;
    a level whose interval reaches both inside and outside the band is on its edge, or too coarse to
    tell when the interval is wider than the band (issue 37)."""
    fair = rows.loc[rows["fair"], "level"].tolist()
    out = (rows["seat_advantage_lo"] > tolerance) | (rows["seat_advantage_hi"] < -tolerance)
    unfair = rows.loc[out, "level"].tolist()
    unclear = rows.loc[~rows["fair"] & ~out, "level"]
    wide = (rows["seat_advantage_hi"] - rows["seat_advantage_lo"]) / 2 > tolerance
    edge = unclear[~wide].tolist()  # narrow enough, but across the band's edge
    unclear = unclear[wide].tolist()
    parts = []
    if fair and not unfair + edge + unclear:
        parts.append(f"fair at every level ({', '.join(fair)})" if len(fair) > 1 else f"fair at {fair[0]}")
    elif fair:
        parts.append(f"fair at {', '.join(fair)} only")
    if unfair:
        parts.append(("NOT at " if fair else "not fair at ") + ", ".join(unfair))
    if edge:
        parts.append(f"on the edge of the band at {', '.join(edge)}")
    if unclear:
        parts.append(f"too few deals to tell at {', '.join(unclear)}")
    return "; ".join(parts)


def _empty_fresh() -> pd.DataFrame:
    return pd.DataFrame(columns=["candidate", "setting", "words", "key", "changes", "size", "level", "deals",
                                 "seat_advantage", "seat_advantage_lo", "seat_advantage_hi", "fair", "verdict", "fair_everywhere"])

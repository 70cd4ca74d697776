"""Fair rules: the search of ``ccsim balance`` from a space to its answer (docs/balance.md); its face is
``ccsim.analyses.balance``."""
from __future__ import annotations

import sys
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ccsim.runner.backends import LocalBackend
from ccsim.analyses.balance.ring.centre import kept_rows
from ccsim.analyses.balance.search.estimates import level_estimate, worst_level
from ccsim.analyses.balance.publish.folder import TaskStore, open_folder
from ccsim.analyses.balance.search.final import final_candidates, rank_finals, remeasure_groups, setting_rows
from ccsim.analyses.balance.search.play import Scheduler
from ccsim.analyses.balance.search.race import OUT_BOUND, RacePlan, pareto_layers
from ccsim.analyses.balance.search.race import race as run_race
from ccsim.analyses.balance.publish.skill import level_elos, with_elo
from ccsim.analyses.balance.search.verdict import recommendation
from ccsim.analyses.balance.publish.answer import published_answer
from ccsim.analyses.balance.ring.widen import next_ring, ring_published
from ccsim.runner.parameters import STANDARD_RULES
from ccsim.analyses.balance.space import BalanceError, Space, ask_balance, candidates
from strategies.registry import search_players

__all__ = ["Balance", "balance", "answer_balance", "FRESH_SEED_OFFSET"]

#: the fresh deals of the re-measure are those of seed + 1: none of them was played by the search
FRESH_SEED_OFFSET = 1


def _stderr(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


@dataclass
class Balance:
    """A search's answer: ``candidates`` and ``pareto`` (one row per setting and level, as measured by
    the race), ``remeasured`` (every setting the fresh re-measure took, and the standard rules: one row per
    setting and level, ``fair`` per level, ``verdict`` per setting, ``final`` for the final candidates),
    ``recommended`` (its rows of the standard rules and the final candidates, best first),
    ``search`` (the final candidates at the search level), ``skill`` (the skill curve: the final candidates
    at every level of the ladder, with its Elo), ``recommendation`` (the answer, as data:
    ``ccsim.analyses.balance.search.verdict``), ``info`` (what it rests on: the space, the
    rounds, games and seconds), and ``ring`` (``ccsim.analyses.balance.ring.widen.ring_outcome``: the next ring's
    outcome when nothing was fair at the judge, None when it was not needed)."""
    space: Space
    candidates: pd.DataFrame
    pareto: pd.DataFrame
    recommended: pd.DataFrame
    remeasured: pd.DataFrame = field(default_factory=pd.DataFrame)
    search: pd.DataFrame = field(default_factory=pd.DataFrame)
    skill: pd.DataFrame = field(default_factory=pd.DataFrame)
    recommendation: dict = field(default_factory=dict)
    info: dict = field(default_factory=dict)
    ring: dict | None = None


def balance(space=None, out=None, backend=None, log=_stderr, progress: bool = False, *, levels=None,
            budget=None, seed=None, tolerance=None, remeasure_games=None, search_level=None, search_deals=None,
            skill_levels=None, skill_deals=None, judge=None, race=None, ring=None) -> Balance:
    """Search ``space`` (a TOML path, a ``Space``, or None for the default space) for fair rules.

    ``out``: a folder that makes the search resumable (a rerun with the same folder and space plays no
    finished task again, and the next ring runs there when nothing is fair at the judge: ``recommendation`` is
    then the answer published with the ring's settings, what ``ccsim balance`` prints); the tables, figures and
    summary of ``ccsim balance --out`` are written there by ``ccsim.present.balance.write_balance(out, b)``; ``levels``, ``budget``, ``seed``, ``tolerance``,
    ``remeasure_games``, ``search_level``, ``search_deals``, ``skill_levels``, ``skill_deals``, ``ring`` override
    the space's own.  ``log``: a function given one line per step
    (default: stderr; ``None`` for silence).  Ctrl-C ends it early: ``info['interrupted']``.

    The Python door: the space and the overrides become one checked question (``ask_balance``), which
    ``answer_balance`` searches.
    """
    sp = ask_balance(space, levels=levels, budget=budget, seed=seed, tolerance=tolerance,
                     remeasure_games=remeasure_games, search_level=search_level, search_deals=search_deals,
                     skill_levels=skill_levels, skill_deals=skill_deals, judge=judge, race=race, ring=ring)
    return answer_balance(sp, out=out, backend=backend, log=log, progress=progress)


def answer_balance(sp: Space, out=None, backend=None, log=_stderr, progress: bool = False) -> Balance:
    """Search a checked space (``ask_balance``'s) for fair rules; ``out``, ``backend``, ``log`` and
    ``progress`` as ``balance``'s."""
    log = log or (lambda msg: None)
    cands, refused = candidates(sp)
    plan = _plan(sp, len(cands))
    folder = open_folder(out, sp)
    backend = backend or LocalBackend()
    # a damaged task file is named through the same log as the rounds (and played again)
    store = TaskStore(folder / "tasks" if folder else None, warn=log)
    scheduler = Scheduler(cands, sp.levels, backend, store, progress)
    log(f"balance: {len(cands) - 1:,} candidates at {', '.join(lv.name for lv in sp.levels)}; budget "
        f"{sp.budget:,} games, seed {sp.seed}" + (f"; results in {folder}" if folder else ""))
    result = run_race([(c.changes, c.size) for c in cands], scheduler.round_measure(sp.seed), plan, log)
    frame = _candidates_frame(cands, result.entries, sp)
    info = dict(space=sp.source, identity=sp.identity(), candidates=len(cands) - 1, refused=refused,
                rounds=result.rounds, games=result.games, resumed=result.resumed, seconds=result.seconds,
                interrupted=result.interrupted, fresh_seed=sp.seed + FRESH_SEED_OFFSET, fresh_deals=0, fresh_games=0,
                fresh_seconds=0.0)
    fresh = _fresh(sp, cands, frame, scheduler, info, log) if not result.interrupted else _empty_fresh()
    first = sp.levels[0].name
    finals = final_candidates(fresh, first, sp.recommend) if not fresh.empty else []
    search = _search(sp, cands, finals, backend, store, progress, info, log)
    finals = rank_finals(finals, fresh, search, first)
    fresh = fresh.assign(final=fresh["candidate"].isin(finals))
    skill = _skill(sp, cands, finals, fresh, search, backend, store, progress, info, log)
    b = Balance(space=sp, candidates=frame, pareto=frame[frame["pareto"]].reset_index(drop=True),
                recommended=_in_order(fresh, [0, *finals]), remeasured=fresh, search=search, skill=skill,
                info=dict(info, finals=finals))
    b.recommendation = recommendation(b)
    if not b.info["interrupted"]:  # nothing fair at the judge: the next ring, in this folder's task store
        b.ring = next_ring(sp, cands, b.recommendation, (search, skill, fresh), folder, store, backend, progress,
                           log, kept=kept_rows(fresh, frame), search_seed=info["fresh_seed"])
        b.info["interrupted"] = bool(b.ring and b.ring.get("interrupted"))
        if ring_published(b.ring):  # every setting measured at the judge competes, the ring's among them
            tables = dict(remeasured=b.remeasured, skill=b.skill, search=b.search)
            b.recommendation = published_answer(out, tables) | dict(seed=info["fresh_seed"])
    return b


def _plan(sp: Space, n_candidates: int) -> RacePlan:
    """The race's plan; BalanceError if the budget cannot give every candidate a first round."""
    plan = RacePlan(levels=judged(sp), games_per_deal=sum(len(lv.seatings) for lv in sp.levels),
                    budget=sp.budget, tolerance=sp.tolerance, draw_rate=sp.draw_rate, game_length=sp.game_length)
    racing = n_candidates - 1
    if plan.round_deals(racing, sp.budget) < plan.min_deals:
        least = plan.min_deals * (racing + 1) * plan.games_per_deal * plan.rounds_left(racing)
        raise BalanceError(f"--budget {sp.budget:,} is too small for {racing:,} candidates at "
                           f"{len(sp.levels)} level(s): give at least {least:,} games")
    return plan


def judged(sp: Space) -> int:
    """How many of the space's levels (the first ones) decide "fair" in the race: all, or the first alone."""
    return 1 if sp.race == "first" else len(sp.levels)


def _candidates_frame(cands, entries, sp: Space) -> pd.DataFrame:
    """One row per candidate and level: its race (status, deals) and its estimates, its worst level,
    whether it keeps the bounds (point estimates), and whether it is in the Pareto set."""
    rows = []
    for i, (c, e) in enumerate(zip(cands, entries)):
        if e.stats is None or e.stats.n == 0:
            continue
        est = [level_estimate(e.stats[lv]) for lv in range(len(sp.levels))]
        w, worst = worst_level([x["seat_advantage"] for x in est[:judged(sp)]])
        keeps = e.status != OUT_BOUND and all(_within(sp.draw_rate, x["draw_ratio"]) and
                                              _within(sp.game_length, x["length_ratio"]) for x in est[:judged(sp)])
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


def _fresh(sp: Space, cands, frame, scheduler: Scheduler, info: dict, log) -> pd.DataFrame:
    """Every simplest setting of the race (``final.remeasure_groups``) and the standard rules, re-measured on
    ``remeasure_games`` fresh deals at every level, a group of settings at a time (fewest changes first)
    until one is fair at the strongest fast level."""
    seed, deals, first = sp.seed + FRESH_SEED_OFFSET, sp.remeasure_games, sp.levels[0].name
    rows = []
    for group in remeasure_groups(frame):
        n = cands[group[0]].changes
        log(f"re-measure: the {len(group)} setting(s) of {n} change(s) the race kept, and {STANDARD_RULES}, on "
            f"{deals:,} fresh deals (seed {seed}) at every level")
        res = scheduler.play(seed, "fresh", (0, *group), 0, deals, f"fresh deals, {n} change(s)")
        _count(info, "fresh", res)
        rows += setting_rows(cands, group if rows else (0, *group), sp.levels, res.stats, sp.tolerance)
        if res.interrupted or any(r["fair"] and r["level"] == first for r in rows if r["candidate"] != 0):
            break
    if not rows:
        return _empty_fresh()
    df = pd.DataFrame(rows)
    verdicts = {i: _setting_verdict(g, sp.tolerance) for i, g in df.groupby("candidate", sort=False)}
    return df.assign(verdict=df["candidate"].map(verdicts),
                     fair_everywhere=df.groupby("candidate")["fair"].transform("all"))


def _in_order(rows: pd.DataFrame, members: list[int]) -> pd.DataFrame:
    """The rows of ``members``, in that order (the standard rules, then the final candidates best first)."""
    if rows.empty:
        return rows
    place = {m: k for k, m in enumerate(members)}
    kept = rows[rows["candidate"].isin(members)]
    return kept.iloc[kept["candidate"].map(place).argsort(kind="stable")].reset_index(drop=True)


def _count(info: dict, stage: str, res) -> None:
    """Add a block's games, deals and seconds to ``info`` under ``stage``."""
    info[f"{stage}_deals"] = max(info.get(f"{stage}_deals", 0), int(res.stats[0].n))
    info[f"{stage}_games"] = info.get(f"{stage}_games", 0) + res.games
    info[f"{stage}_seconds"] = info.get(f"{stage}_seconds", 0.0) + res.seconds
    info[f"{stage}_resumed"] = info.get(f"{stage}_resumed", 0) + res.resumed
    info["interrupted"] = info.get("interrupted", False) or res.interrupted


def _search(sp: Space, cands, finals, backend, store, progress, info: dict, log) -> pd.DataFrame:
    """The final candidates and the standard rules at the search level, on ``search_deals`` fresh deals
    (the re-measure's: the same deals, paired)."""
    if sp.search_level is None or not finals or info.get("interrupted"):
        return pd.DataFrame()
    level, seed = sp.search_level, sp.seed + FRESH_SEED_OFFSET
    log(f"search level: {len(finals)} final candidate(s) and {STANDARD_RULES} with {level.name} on both sides, "
        f"{sp.search_deals:,} fresh deals (seed {seed})")
    res = Scheduler(cands, (level,), backend, store, progress).play(seed, f"search-{level.name}", (0, *finals), 0,
                                                               sp.search_deals, f"{level.name}: final candidates")
    _count(info, "search", res)
    return pd.DataFrame(setting_rows(cands, (0, *finals), (level,), res.stats, sp.tolerance))


def _skill(sp: Space, cands, finals, fresh, search, backend, store, progress, info: dict, log) -> pd.DataFrame:
    """The skill curve: the standard rules and the final candidates at every level of ``skill_levels``, a level
    the search already measured taken from its rows (the same fresh deals), the others played: a fast level
    on ``remeasure_games`` deals, a search level on ``skill_deals``."""
    if not sp.skill_levels or not finals or info.get("interrupted"):
        return pd.DataFrame()
    members, seed = (0, *finals), sp.seed + FRESH_SEED_OFFSET
    have = pd.concat([fresh, search]) if not search.empty else fresh
    searchers = search_players()
    rows = []
    for level in sp.skill_levels:
        kept = have[(have["level"] == level.name) & have["candidate"].isin(members)].drop_duplicates(
            ["candidate", "level"])
        if len(kept) == len(members):
            rows += kept.drop(columns=["verdict", "fair_everywhere"], errors="ignore").to_dict("records")
            continue
        deals = sp.skill_deals if set(level.players) & searchers else sp.remeasure_games
        log(f"skill curve: {level.name} on both sides, {deals:,} fresh deals")
        res = Scheduler(cands, (level,), backend, store, progress).play(seed, f"skill-{level.name}", members, 0, deals,
                                                                   f"skill curve: {level.name}")
        _count(info, "skill", res)
        rows += setting_rows(cands, members, (level,), res.stats, sp.tolerance)
        if res.interrupted:
            break
    return with_elo(pd.DataFrame(rows), [lv.name for lv in sp.skill_levels], level_elos(), sp.tolerance)


def _setting_verdict(rows: pd.DataFrame, tolerance: float) -> str:
    """One setting judged across its levels (its rows, one a level), in words: fair at every level, at
    some only (flagged: a claim about the players, not the game), or none; a level whose interval reaches
    both inside and outside the band is on its edge, or too coarse to tell when the interval is wider
    than the band."""
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
                                 "seat_advantage", "seat_advantage_lo", "seat_advantage_hi", "fair", "verdict",
                                 "fair_everywhere", "final"])

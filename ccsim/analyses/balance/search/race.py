"""The race of ``ccsim balance``: successive halving over the candidates, with sequential elimination.

The search plays in rounds.  In each round every candidate still racing, and the standard rules beside
them, plays the same fresh block of deals (common random numbers: the comparisons between
candidates and against the standard rules are paired deal by deal), at every level.  After the round:

1. **Sequential elimination.**  A candidate whose seat-advantage interval (99% by default: it
   is looked at once a round) lies wholly outside ±tolerance at some level cannot be fair there,
   and is out; so is one whose draw rate or game length, relative to the standard rules', lies wholly
   outside a bound of the objectives.  If that would leave no candidate, the closest few stay,
   so that the search still ends with the nearest settings it can find.
2. **Halving.**  If more than half the round's candidates are left, the best half goes on,
   chosen by Pareto layers over (worst-level |seat advantage|, number of changes, size of
   change), as NSGA-II selects: the cheapest candidate of each cost that is closest to fair
   stays in the race, not only the closest overall.

Each round gets an equal share of the budget left (so what an early elimination saves goes to
the later rounds), split evenly over the round's candidates: survivors get twice the deals of the
round before, or more.  The race ends after the round played by ``finalists`` candidates or
fewer, which takes all the budget left.

The core is pure: ``race`` gets a ``measure`` function that plays a round and returns the moments
of each member's per-deal columns (``ccsim.analyses.balance.search.estimates``), so tests drive it with
synthetic games.
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from ccsim.analyses.balance.search.estimates import DRAW, DRAW_BASE, TURNS, TURNS_BASE, seat_advantage_bounds, worst_level
from ccsim.analyses.stats import Moments, ratio_interval

__all__ = ["RacePlan", "Round", "RoundResult", "Entry", "RaceResult", "race", "pareto_layers", "RACING", "FINALIST",
           "OUT_UNFAIR", "OUT_BOUND", "OUT_HALVED"]

RACING, FINALIST = "racing", "finalist"
OUT_UNFAIR, OUT_BOUND, OUT_HALVED = "out: unfair", "out: bound", "out: halved"
REFERENCE = 0  # the standard rules: member of every round, never out


@dataclass(frozen=True)
class RacePlan:
    """The race's budget and judgement (``ccsim.analyses.balance`` fills it from the space)."""
    levels: int
    games_per_deal: int          # the games one deal of one candidate costs: every level's seatings
    budget: int
    tolerance: float
    draw_rate: float | None = None
    game_length: float | None = None
    finalists: int = 4
    confidence: float = 0.99     # of the elimination intervals
    min_deals: int = 100         # a round of fewer deals per candidate is not worth playing

    def rounds_left(self, racing: int) -> int:
        """Rounds still to play with ``racing`` candidates: the halvings down to ``finalists``, and the last."""
        return (math.ceil(math.log2(racing / self.finalists)) if racing > self.finalists else 0) + 1

    def round_deals(self, racing: int, remaining: int) -> int:
        """Deals per candidate of the next round: an equal share of the budget left per round to come."""
        return int(remaining // self.rounds_left(racing) // ((racing + 1) * self.games_per_deal))


@dataclass(frozen=True)
class Round:
    index: int
    members: tuple[int, ...]     # candidate indices, the standard rules (0) first
    first: int                   # first deal (game index of the run seed)
    deals: int


@dataclass
class RoundResult:
    """What ``measure`` returns: each member's moments (7 columns x levels) over the deals played,
    and whether Ctrl-C stopped it early (then the stats cover the deals played so far)."""
    stats: dict
    games: int = 0
    resumed: int = 0             # of the games, those a rerun found finished (nothing played for them)
    seconds: float = 0.0
    interrupted: bool = False


@dataclass
class Entry:
    stats: Moments | None = None
    status: str = RACING
    round_out: int | None = None

    def add(self, m: Moments) -> None:
        self.stats = m if self.stats is None else self.stats.merge(m)

    def advantages(self, levels: int, confidence: float) -> np.ndarray:
        """(levels, 3): seat advantage, lo, hi per level (NaN before any deal)."""
        if self.stats is None:
            return np.full((levels, 3), np.nan)
        return np.array([seat_advantage_bounds(self.stats[lv], confidence) for lv in range(levels)])

    def worst(self, levels: int) -> float:
        return worst_level(self.advantages(levels, 0.95)[:, 0])[1]


@dataclass
class RaceResult:
    entries: list[Entry]
    rounds: list[dict] = field(default_factory=list)
    games: int = 0
    resumed: int = 0
    seconds: float = 0.0
    interrupted: bool = False


def race(costs, measure: Callable[[Round], RoundResult], plan: RacePlan, log=None) -> RaceResult:
    """Race the candidates whose (changes, size) are ``costs`` (index 0: the standard rules) within ``plan``."""
    log = log or (lambda msg: None)
    out = RaceResult([Entry() for _ in costs])
    racing, first = list(range(1, len(costs))), 0
    while racing:
        deals = plan.round_deals(len(racing), plan.budget - out.games)
        if deals < plan.min_deals:
            break
        rnd = Round(len(out.rounds), (REFERENCE, *racing), first, deals)
        log(f"round {rnd.index + 1}: {len(racing):,} candidates x {deals:,} deals "
            f"(deals {first:,}..{first + deals - 1:,})")
        res = measure(rnd)
        for i, m in res.stats.items():
            out.entries[i].add(m)
        out.games += res.games
        out.resumed += res.resumed
        out.seconds += res.seconds
        if res.interrupted:
            out.interrupted = True
            return out
        first += deals
        outs = _select(out.entries, racing, costs, plan, rnd.index) if len(racing) > plan.finalists else {}
        out.rounds.append(dict(round=rnd.index + 1, candidates=len(racing), first_deal=rnd.first, deals=deals,
                               games=res.games, seconds=res.seconds,
                               out_unfair=_count(outs, OUT_UNFAIR), out_bound=_count(outs, OUT_BOUND),
                               out_halved=_count(outs, OUT_HALVED)))
        if not outs:
            break  # the final round was played
        racing = [i for i in racing if i not in outs]
    for i in racing:
        out.entries[i].status = FINALIST
    return out


def _count(outs: dict, status: str) -> int:
    return sum(s == status for s in outs.values())


def _select(entries, racing, costs, plan: RacePlan, index: int) -> dict:
    """Who leaves the race after round ``index``: {candidate: status}, also written into ``entries``."""
    flagged = {i: s for i in racing if (s := _clearly_out(entries[i], plan))}
    worst = {i: entries[i].worst(plan.levels) for i in racing}
    left = [i for i in racing if i not in flagged]
    if not left:  # nothing can be fair: the closest stay, so that the search still ends with them
        left = sorted(racing, key=lambda i: (worst[i], costs[i]))[:plan.finalists]
        flagged = {i: s for i, s in flagged.items() if i not in left}
    target = max(plan.finalists, math.ceil(len(racing) / 2))
    halved = {}
    if len(left) > target:
        layers = pareto_layers([worst[i] for i in left], [costs[i][0] for i in left], [costs[i][1] for i in left])
        # within a layer, the best of each cost first: ties (identical games) keep every cost in the race
        rank, seen = {}, Counter()
        for k in sorted(range(len(left)), key=lambda k: (costs[left[k]], worst[left[k]])):
            rank[k], seen[costs[left[k]]] = seen[costs[left[k]]], seen[costs[left[k]]] + 1
        order = sorted(range(len(left)), key=lambda k: (layers[k], rank[k], worst[left[k]], costs[left[k]]))
        halved = {left[k]: OUT_HALVED for k in order[target:]}
    outs = flagged | halved
    for i, s in outs.items():
        entries[i].status, entries[i].round_out = s, index + 1
    return outs


def _clearly_out(e: Entry, plan: RacePlan) -> str | None:
    """OUT_UNFAIR if at some level the seat advantage's interval lies wholly outside ±tolerance,
    OUT_BOUND if the draw rate or game length relative to the standard rules' lies wholly outside its bound."""
    adv = e.advantages(plan.levels, plan.confidence)
    if np.any((adv[:, 1] > plan.tolerance) | (adv[:, 2] < -plan.tolerance)):
        return OUT_UNFAIR
    for bound, num, den in ((plan.draw_rate, DRAW, DRAW_BASE), (plan.game_length, TURNS, TURNS_BASE)):
        if bound is None:
            continue
        for lv in range(plan.levels):
            r = ratio_interval(e.stats[lv], num, den, plan.confidence)
            if r["lo"] > 1 + bound or r["hi"] < 1 - bound:  # (NaN, before the standard rules have a draw, is no evidence)
                return OUT_BOUND
    return None


def pareto_layers(objective, changes, size) -> np.ndarray:
    """Non-dominated sorting of points (objective, changes, size), all three smaller-is-better:
    layer 1 is the Pareto set, layer 2 the Pareto set of the rest, ...  A point dominates another
    when it is no worse in all three and better in one.

    The costs are small integers, so the points are taken class by class ((changes, size) in
    increasing order: every class that can dominate one comes before it), each against the sorted
    objectives of the classes before: O(points x classes x log points), for the tens of thousands
    of candidates of a large space.

    >>> pareto_layers([0.05, 0.01, 0.02, 0.01], [1, 2, 2, 2], [1, 2, 3, 2]).tolist()
    [1, 1, 2, 1]
    """
    obj = np.nan_to_num(np.asarray(objective, dtype=float), nan=np.inf)
    cost = list(zip(changes, size))
    layers = np.zeros(len(obj), np.int64)
    done: list = []   # per finished class: its cost, sorted objectives and the running max of their layers
    for c in sorted(set(cost)):
        idx = np.array([k for k, x in enumerate(cost) if x == c])
        idx = idx[np.argsort(obj[idx], kind="stable")]
        for k in idx:
            below = [runmax[np.searchsorted(o, obj[k], side="right") - 1] for cc, o, runmax in done
                     if cc[0] <= c[0] and cc[1] <= c[1] and o[0] <= obj[k]]
            same = layers[idx][:np.searchsorted(obj[idx], obj[k], side="left")]  # strictly better, same cost
            layers[k] = 1 + max(below + ([same.max()] if same.size else []), default=0)
        done.append((c, obj[idx], np.maximum.accumulate(layers[idx])))
    return layers

"""The page's answer: a ``Question`` played on the same deals for the standard and the changed rules,
chunk after chunk, each chunk's running figures handed out as they narrow.

The games and the figures are ``ccsim whatif``'s: the same compiled kernel and task driver
(``ccsim.runner.grid.play_task`` through ``ccsim.runner.driver.drive``), deals 0, 1, 2, … of the
seed for every arm (common random numbers), mirror games at one level, every metric the ratio of two
per-game sums with its 95% interval, and the difference of the changed rules to the standard ones
on the same deals (``ccsim.analyses.stats.ratio_difference``).  With the same seed and deals the
figures are whatif's own.

The arms: the standard rules and the changed rules, both with the form's deck orders (as whatif
plays them); a change of deck orders alone is paired with shuffled decks under the standard rules
(there is no rule to compare); a form that changes nothing plays the standard rules alone.

A chunk of an arm played before (the standard rules, every time; a change tried again) is not
played again: its rows come from the page's ``Memory``, and the figures are the same.

Each snapshot carries the judge's figure for the changed arm and the standard rules
(``ccsim.explore.judged``): measured when the judge's store holds the setting, else predicted through
the effect map from this level's paired difference; a question played at the judge itself (a
confirmation, ``ccsim.explore.confirm``) is measured by its own games.

It stops when Cleopatra's edge under the changed rules, and its difference to the standard, are
known within ``target`` (±0.5 points), at the cap of deals, or when ``cancel`` is set (a new request
from the page) — between two chunks, so a chunk is tallied whole or not at all.
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from ccsim.kernel.engine.episode import R_VP
from ccsim.runner.backends import LocalBackend
from ccsim.runner.driver import drive
from ccsim.runner.grid import GridBuilder, GridTask, play_task, warm_task
from ccsim.runner.orderings import SHUFFLED
from ccsim.runner.ruleset import rules_vector
from ccsim.analyses.metrics import INDEX, METRICS, MetricSums, game_values
from ccsim.analyses.stats import Moments, ratio_difference
from ccsim.analyses.question import BASE, Arm, Change, arms_for
from ccsim.explore.judged import judge_of, page_judge
from ccsim.explore.memory import Memory, chunk_key
from strategies.registry import search_players

__all__ = ["Plan", "plan_for", "arms_of", "answer", "chunks", "Cancelled", "TakingTurns", "SHOWN", "TARGET"]

#: the figures the page shows, each with its interval: Cleopatra's edge (R10.5 score - 50%), draws,
#: game length, decisiveness (docs/metrics.md)
SHOWN = ("seat_advantage", "draw_rate", "turns", "decisiveness")
TARGET = 0.005          # stop at ±0.5 points on the edge and on its difference
MARGIN_SPAN = 30        # the VP-margin histogram: Cleopatra's VP - Caesar's, clipped to ±30


@dataclass(frozen=True)
class Plan:
    """How much one request may play: deals per chunk and at most ``cap`` deals (the work bound)."""
    chunk: int
    cap: int
    target: float = TARGET


FAST = Plan(chunk=2_000, cap=100_000)
SEARCH = Plan(chunk=2, cap=200)        # a search player plays a few games a second


def plan_for(level: str) -> Plan:
    return SEARCH if level in search_players() else FAST


class Cancelled(Exception):
    """The page asked a new question: this one stops between two chunks."""


class _Stop(Exception):
    """The figures are known well enough: stop before the next chunk."""


def arms_of(q) -> list[Arm]:
    """The arms of a question (see the module's docstring): whatif's own ``arms_for`` when a rule
    changes."""
    base = rules_vector()
    if q.changes_rules:
        change = Change(q.words(), q.block, q.variants)
        return arms_for((), [change], False, q.orders)
    arms = [Arm(BASE, "base", base, (SHUFFLED, SHUFFLED))]
    if q.orders != (SHUFFLED, SHUFFLED):
        arms.append(Arm("these deck orders", "change", base, q.orders))
    return arms


@dataclass
class Tally:
    """The running sums of every arm, the paired sums of the changed arm with the standard, the VP
    margins, and the edge's intervals after each chunk (the page's plot)."""
    arms: list
    sums: list = field(default_factory=list)
    paired: Moments | None = None
    margins: np.ndarray | None = None
    history: list = field(default_factory=list)
    deals: int = 0
    played: int = 0     # games played for this question (the others came from memory)

    def __post_init__(self):
        self.sums = [MetricSums() for _ in self.arms]
        self.paired = Moments(4, batch=len(METRICS))
        self.margins = np.zeros((len(self.arms), 2 * MARGIN_SPAN + 1), np.int64)

    def add(self, rows: np.ndarray) -> None:
        """One chunk's result rows, arm after arm (its deals in the same order in each)."""
        rows = rows.reshape(len(self.arms), -1, rows.shape[-1])
        values = [game_values(r, a.rules) for r, a in zip(rows, self.arms)]
        for s, v in zip(self.sums, values):
            s.add_values(v)
        if len(self.arms) == 2:
            self.paired.update(np.concatenate([values[1], values[0]], axis=2))
        for k, r in enumerate(rows):
            m = np.clip(r[:, R_VP].astype(np.int64) - r[:, R_VP + 1], -MARGIN_SPAN, MARGIN_SPAN)
            self.margins[k] += np.bincount(m + MARGIN_SPAN, minlength=2 * MARGIN_SPAN + 1)
        self.deals += rows.shape[1]
        edge = self.figures()
        self.history.append([self.deals] + [[e["seat_advantage"]["lo"], e["seat_advantage"]["hi"]]
                                            for e in edge["arms"]]
                            + ([[edge["diff"]["seat_advantage"][k] for k in ("lo", "hi")]] if edge["diff"] else []))

    def figures(self) -> dict:
        """The shown figures of each arm and, with two arms, their differences (value, lo, hi)."""
        arms = [{m: _trio(s.estimate(m)) for m in SHOWN} for s in self.sums]
        diff = None
        if len(self.arms) == 2:
            diff = {m: _trio(ratio_difference(self.paired[INDEX[m]], (0, 1), (2, 3))) for m in SHOWN}
        return dict(arms=arms, diff=diff)

    def precision(self) -> float:
        """The widest half-interval of the changed arm's edge and of its difference."""
        f = self.figures()
        parts = [f["arms"][-1]["seat_advantage"]] + ([f["diff"]["seat_advantage"]] if f["diff"] else [])
        return max((p["hi"] - p["lo"]) / 2 for p in parts)


def _trio(e: dict) -> dict:
    return {k: _finite(e[k]) for k in ("value", "lo", "hi")}


def _finite(x) -> float | None:
    x = float(x)
    return x if np.isfinite(x) else None


@dataclass(eq=False)
class Chunk:
    """Deals ``first .. first + deals - 1`` of every arm: ``task`` plays the arms ``played`` (None
    when every arm's rows were in memory), ``kept`` holds the others' rows (taken when the question
    was planned: memory may forget them meanwhile)."""
    first: int
    deals: int
    played: tuple
    task: GridTask | None
    kept: dict = field(default_factory=dict)


def chunks(q, arms, plan: Plan, memory: Memory) -> list[Chunk]:
    """The question's chunks in deal order, each playing only the arms whose rows are not in memory."""
    builder = GridBuilder()
    for a in arms:
        builder.add((q.level, a.orders[0]), (q.level, a.orders[1]), a.rules)
    grid = builder.build()
    out = []
    for d0 in range(0, plan.cap, plan.chunk):
        n = min(plan.chunk, plan.cap - d0)
        kept = {k: memory.get(chunk_key(q.level, a, q.seed, d0, n)) for k, a in enumerate(arms)}
        kept = {k: rows for k, rows in kept.items() if rows is not None}
        played = tuple(k for k in range(len(arms)) if k not in kept)
        task = GridTask(int(q.seed), grid, np.array([(k, 0, d0, n) for k in played], np.int64)) if played else None
        out.append(Chunk(d0, n, played, task, kept))
    return out


class TakingTurns(LocalBackend):
    """This process's backend, one task at a time across every page and search of the server (the
    pages share the cores, and numba's thread pool takes one parallel call at a time); ``cancel``
    stops it before the next task (``Cancelled`` out of the drive)."""

    _turn = threading.Lock()

    def __init__(self, cancel: threading.Event | None = None):
        self.cancel = cancel or threading.Event()

    def warm(self, fn, task):
        with self._turn:
            fn(task)

    def map(self, fn, tasks):
        for task in tasks:
            if self.cancel.is_set():
                raise Cancelled
            with self._turn:
                result = fn(task)
            yield task, result


def _play(chunk: Chunk) -> np.ndarray | None:
    return None if chunk.task is None else play_task(chunk.task)


def _rows(q, arms, chunk: Chunk, played, memory: Memory) -> np.ndarray:
    """Every arm's rows of a chunk, arm after arm: the ones just played (kept for later questions)
    and the ones from memory."""
    fresh = {} if played is None else dict(zip(chunk.played, played.reshape(len(chunk.played), chunk.deals, -1)))
    for k, rows in fresh.items():
        memory.put(chunk_key(q.level, arms[k], q.seed, chunk.first, chunk.deals), rows)
    return np.concatenate([fresh[k] if k in fresh else chunk.kept[k] for k in range(len(arms))])


def snapshot(q, arms, tally: Tally, seconds: float, state: str, judge: str | None = None,
             own_first: bool = False) -> dict:
    """What the page shows now (JSON-ready), with the judge's figure (``ccsim.explore.judged.judge_of``)."""
    f = tally.figures()
    return dict(state=state, level=q.level, deals=tally.deals, games=tally.deals * len(arms), played=tally.played,
                seconds=round(seconds, 3),
                arms=[dict(name=a.name, rules=a.name if a.kind == "base" else q.words(), orders=list(a.orders),
                           figures=figures) for a, figures in zip(arms, f["arms"])],
                diff=f["diff"], history=tally.history, margins=tally.margins.tolist(), margin_span=MARGIN_SPAN,
                judge=judge_of(q, arms, f["arms"], f["diff"], tally.deals, judge, own_first))


def answer(q, emit: Callable[[dict], None], cancel: threading.Event | None = None,
           plan: Plan | None = None, memory: Memory | None = None, own_first: bool = False) -> dict:
    """Play ``q`` chunk by chunk, handing each chunk's ``snapshot`` to ``emit``; the last snapshot's
    ``state`` says why it stopped: ``target``, ``cap`` or ``cancelled``.  ``memory``: the chunks
    played before (a fresh one: none).  ``own_first``: at the judge's level, the judge's figure is these
    games' own even where the store holds more deals (a confirmation narrowing)."""
    plan = plan or plan_for(q.level)
    cancel = cancel or threading.Event()
    memory = Memory() if memory is None else memory
    arms = arms_of(q)
    judge = page_judge()
    work = chunks(q, arms, plan, memory)
    tally = Tally(arms)
    t0 = time.perf_counter()

    def add(chunk, played) -> int:
        tally.add(_rows(q, arms, chunk, played, memory))
        tally.played += 0 if played is None else len(played)
        done = tally.precision() <= plan.target
        emit(snapshot(q, arms, tally, time.perf_counter() - t0, "running", judge, own_first))
        if done:
            raise _Stop
        return chunk.deals * len(chunk.played)

    first = next((c for c in work if c.task is not None), None)  # one game of it loads the kernel
    warm = Chunk(first.first, 1, first.played[:1], warm_task(first.task)) if first is not None else None
    state = "cap"
    try:
        drive(TakingTurns(cancel), _play, work, add, warm=warm)
    except _Stop:
        state = "target"
    except Cancelled:
        state = "cancelled"
    final = snapshot(q, arms, tally, time.perf_counter() - t0, state, judge, own_first)
    emit(final)
    return final

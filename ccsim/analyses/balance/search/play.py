"""Playing the games of ``ccsim balance``: blocks of deals for some candidates at every level.

A block (a race's round, or the fresh re-measure) is cut into grid tasks of a few deals each, every
task holding those deals for *every* candidate of the block, the standard rules first, at every level and
seating: each task's games pair deal by deal (common random numbers) on their own.  The tasks go
through the one driver loop (``ccsim.runner.driver.drive``: any backend, the progress bar,
Ctrl-C between tasks), and each finished task is kept in the ``TaskStore`` as the moments of its
per-deal columns (``ccsim.analyses.balance.search.estimates``), so a rerun loads it instead of playing it.
"""
from __future__ import annotations

import numpy as np

from ccsim.kernel.engine.episode import R_TURNS, R_WINNER
from ccsim.runner.backends import search_aware
from ccsim.runner.driver import drive
from ccsim.runner.grid import GridBuilder, GridTask, play_task, warm_task
from ccsim.runner.orderings import SHUFFLED
from ccsim.analyses.balance.search.estimates import COLUMNS, deal_columns
from ccsim.analyses.balance.publish.folder import TaskStore, members_digest
from ccsim.analyses.balance.search.race import RoundResult
from ccsim.analyses.stats import Moments

__all__ = ["Scheduler", "deal_values"]

_COLS = np.array([R_WINNER, R_TURNS], np.int64)
TASK_GAMES = 50_000  # games per task: memory stays flat, and a Ctrl-C loses a few seconds at most


def deal_values(rows: np.ndarray) -> np.ndarray:
    """(score, draw, turns) of result rows (``_COLS``): Cleopatra's score, a draw counting half (R10.5)."""
    winner = rows[..., 0].astype(np.int64)
    score = np.where(winner == 0, 1.0, np.where(winner < 0, 0.5, 0.0))
    return np.stack([score, (winner < 0).astype(float), rows[..., 1].astype(float)], axis=-1)


class Scheduler:
    """Schedules blocks of deals of ``candidates`` (``ccsim.analyses.balance.space.Candidate``, the standard rules
    first) at ``levels``: cuts each block into grid tasks, sends them through the driver to the backend, and keeps
    each finished task in the store (a scheduler of games, not a player: the levels' strategies play them)."""

    def __init__(self, candidates, levels, backend, store: TaskStore, progress: bool = False):
        self.candidates, self.levels = candidates, levels
        self.backend, self.store, self.progress = backend, store, progress
        self.seatings = [s for lv in levels for s in lv.seatings]
        # which level each seating belongs to: a deal's value at a level is the mean over its seatings
        self.level_of = np.repeat(np.arange(len(levels)), [len(lv.seatings) for lv in levels])

    def round_measure(self, seed: int):
        """The race's ``measure``: a round's block of deals of ``seed``."""
        return lambda rnd: self.play(seed, f"r{rnd.index + 1:02d}", rnd.members, rnd.first, rnd.deals,
                                     f"round {rnd.index + 1}")

    def play(self, seed: int, tag: str, members, first: int, deals: int, label: str) -> RoundResult:
        """Deals ``first .. first + deals - 1`` of ``seed`` for ``members`` (candidate indices, the standard rules
        first): their moments, from the store where a task was finished before, else played."""
        members = tuple(members)
        grid = self._grid(members)
        tag = f"{tag}-{members_digest([self.candidates[m].key for m in members])}"
        per = self._deals_per_task(len(members), deals)
        tasks = [GridTask(int(seed), grid, self._segments(len(members), d, min(per, first + deals - d)), _COLS)
                 for d in range(first, first + deals, per)]
        names = {id(t): f"{tag}-{int(t.first_games[0])}-{int(t.segment_games[0])}" for t in tasks}
        res = RoundResult({m: Moments(len(COLUMNS), batch=len(self.levels)) for m in members})
        todo = []
        for t in tasks:
            kept = self.store.get(names[id(t)])
            if kept is None:
                todo.append(t)
            else:
                res.resumed += self._add(res, members, kept)
        res.games = res.resumed

        def tally(task, rows) -> int:
            arrays = self._moments(len(members), rows)
            self.store.put(names[id(task)], arrays)
            n = self._add(res, members, arrays)
            res.games += n
            return n

        if todo:
            done = drive(self.backend, play_task, todo, tally, warm=warm_task(todo[0]),
                         total=sum(t.games for t in todo), progress=self.progress, label=label)
            if done.failure:
                raise done.failure
            res.seconds, res.interrupted = done.seconds, done.interrupted
        return res

    def _grid(self, members):
        """One configuration per member and seating, in that order: shuffled decks (R2.2), the
        member's rules (whose action counts stay with the seat, whoever sits there)."""
        builder = GridBuilder()
        for m in members:
            for cleopatra, caesar in self.seatings:
                builder.add((cleopatra, SHUFFLED), (caesar, SHUFFLED), self.candidates[m].rules)
        return builder.build()

    def _segments(self, n_members: int, first: int, deals: int) -> np.ndarray:
        return np.array([(c, 0, first, deals) for c in range(n_members * len(self.seatings))], np.int64)

    def _deals_per_task(self, n_members: int, deals: int) -> int:
        """Deals per task: ``TASK_GAMES`` spread over every member and seating (whatever the backend,
        so that a search begun on one backend resumes on another from the same tasks); a search
        player's tasks are small (a few games a second: the progress moves, a Ctrl-C loses little)."""
        games = n_members * len(self.seatings)
        task_games = search_aware(TASK_GAMES, {p for lv in self.levels for p in lv.players})
        return max(1, min(deals, task_games // games))

    def _moments(self, n_members: int, rows: np.ndarray) -> dict:
        """A task's rows as the moments of each member's per-deal columns at each level:
        n, sum (members, levels, 7), cross (members, levels, 7, 7)."""
        v = deal_values(rows).reshape(n_members, len(self.seatings), -1, 3)
        by_level = np.stack([v[:, self.level_of == lv].mean(axis=1) for lv in range(len(self.levels))], axis=1)
        cols = deal_columns(by_level, by_level[:1])                 # (members, levels, deals, 7)
        x = cols.transpose(2, 0, 1, 3).reshape(cols.shape[2], -1, len(COLUMNS))
        m = Moments(len(COLUMNS), batch=x.shape[1]).update(x)
        shape = (n_members, len(self.levels))
        return dict(n=np.array(m.n), sum=m.sum.reshape(*shape, -1), cross=m.cross.reshape(*shape, *m.cross.shape[1:]))

    def _add(self, res: RoundResult, members, arrays: dict) -> int:
        """Add a task's moments to the block's; returns its games."""
        n = int(arrays["n"])
        for k, member in enumerate(members):
            one = Moments(len(COLUMNS), batch=len(self.levels))
            one.n, one.sum, one.cross = n, arrays["sum"][k], arrays["cross"][k]
            res.stats[member].merge(one)
        return n * len(members) * len(self.seatings)

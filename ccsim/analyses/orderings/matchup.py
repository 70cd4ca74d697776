"""The matchup of the ordering studies (``ccsim.analyses.orderings.study``): who plays whom,
the checks of a study's arguments, and its games played through the one driver loop
(``ccsim.runner.driver.drive``) on any backend."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ccsim.errors import UsageError
from ccsim.kernel.engine.episode import R_ERROR, R_WINNER
from ccsim.runner.backends import LocalBackend
from ccsim.runner.checks import check_count, check_seed
from ccsim.runner.config import ConfigError, RunConfig
from ccsim.runner.driver import drive
from ccsim.runner.grid import orderings_grid, play_task, segment_tasks, warm_task
from ccsim.runner.orderings import LENGTH, SHUFFLED, OrderingError, from_codes, parse_ordering, to_codes
from strategies.registry import lookup

__all__ = ["OrderingStudyError", "Matchup", "study_ordering", "kernel_codes", "positive_count", "deal_values"]

_COLS = (R_WINNER, R_ERROR)  # the result columns a study reads


class OrderingStudyError(UsageError):
    """An unusable study argument (a usage error: exit status 2 in the CLI)."""


def _strategy(name: str, flag: str):
    """Refuse an unknown strategy (its name or file) without compiling it: ``warm`` compiles what plays."""
    try:
        return lookup(name)
    except KeyError as e:
        raise OrderingStudyError(f"{flag}: {e.args[0]}") from None


def study_ordering(text: str, flag: str | None, allow_shuffled: bool = True) -> str:
    try:
        s = parse_ordering(text)
    except OrderingError as e:
        raise OrderingStudyError(f"{flag}: {e}" if flag else str(e)) from None
    if s == SHUFFLED and not allow_shuffled:
        raise OrderingStudyError(f"{flag}: '{SHUFFLED}' is not one ordering here")
    return s


def kernel_codes(ordering: str) -> np.ndarray:
    """Kernel code row of a canonical ordering; -1s for shuffled."""
    if ordering == SHUFFLED:
        return np.full(LENGTH, -1, np.int8)
    return to_codes(ordering)


def positive_count(value, flag: str, minimum: int = 1) -> int:
    return check_count(value, OrderingStudyError, flag, minimum)


@dataclass
class Matchup:
    """A candidate's strategy against an opponent (strategy and ordering), one run seed.

    ``play(codes, first, n_deals)`` plays every candidate code row on deals
    ``first .. first + n_deals - 1`` at both seats and returns the candidate's
    points doubled, int8 of shape (candidates, deals, 2): 2 win, 1 draw, 0 loss.
    The games are tasks of the grid kernel (``ccsim.runner.grid``) driven by
    ``ccsim.runner.driver.drive`` on ``backend`` (this process by default); Ctrl-C
    raises KeyboardInterrupt, as does any call a study makes.  ``games`` counts
    every game played so far.
    """
    strategy: str | None = None   # None: the default balanced level (ccsim.analyses.levels.default_level)
    opponent: str | None = None
    opponent_order: str = SHUFFLED
    seed: int = 1
    variants: tuple = ()
    games: int = 0
    backend: object = None
    warmed: bool = True           # compile the players now (False: only check the input, as a command does first)

    def __post_init__(self):
        if self.strategy is None:  # a notebook's study plays the level every command defaults to
            from ccsim.analyses.levels import default_level
            self.strategy = default_level()
        if self.opponent is None:
            self.opponent = self.strategy
        # what needs no compiled player first: with an empty cache a bad input's error stays the only line
        self.opponent_order = study_ordering(self.opponent_order, "--opponent-order")
        check_seed(self.seed, OrderingStudyError)
        _strategy(self.strategy, "--strategy")
        _strategy(self.opponent, "--opponent")
        try:
            self.rules = RunConfig(variants=tuple(self.variants)).validated().rules_vector()
        except ConfigError as e:
            raise OrderingStudyError(str(e)) from None
        self.opp = kernel_codes(self.opponent_order)
        self.backend = self.backend or LocalBackend()
        if self.warmed:
            self.warm()

    def _tasks(self, codes: np.ndarray, first: int, n: int, off: np.ndarray) -> list:
        """Tasks of candidates ``codes`` on deals ``first + off[c] ..`` (``n`` each), both seats."""
        grid = orderings_grid(self.strategy, self.opponent, codes, self.opp, self.rules)
        segments = [(c, s, int(first) + int(off[c]), n) for c in range(codes.shape[0]) for s in (0, 1)]
        return segment_tasks(self.seed, grid, segments, cols=_COLS)

    def warm(self) -> None:
        """Compile (or load) the kernel and both strategies wherever tasks run: one game, not
        counted, so a study's time counts games, not compiling."""
        tasks = self._tasks(kernel_codes(SHUFFLED)[None], 0, 1, np.zeros(1, np.int64))
        self.backend.warm(play_task, warm_task(tasks[0]))

    def play(self, codes, first: int, n_deals: int, deal_off=None) -> np.ndarray:
        codes = np.ascontiguousarray(codes, dtype=np.int8).reshape(-1, LENGTH)
        k = codes.shape[0]
        n = int(n_deals)
        off = (np.zeros(k, np.int64) if deal_off is None
               else np.ascontiguousarray(deal_off, dtype=np.int64).reshape(k))
        if k * n == 0:
            return np.empty((k, n, 2), np.int8)
        parts = []
        done = drive(self.backend, play_task, self._tasks(codes, first, n, off),
                     lambda task, rows: parts.append(rows) or len(rows))
        if done.failure:
            raise done.failure
        if done.interrupted:
            raise KeyboardInterrupt
        rows = np.concatenate(parts).reshape(k, 2, n, 2)
        winner, error = rows[..., 0].transpose(0, 2, 1), rows[..., 1].transpose(0, 2, 1)
        if (error != 0).any():
            k_bad, i_bad, s_bad = np.argwhere(error != 0)[0]
            raise RuntimeError(f"engine error in game {first + off[k_bad] + i_bad} of seed {self.seed} "
                               f"(ordering {from_codes(codes[k_bad]) if codes[k_bad, 0] >= 0 else SHUFFLED}, "
                               f"seat {s_bad})")
        seat = np.arange(2, dtype=np.int16)
        out = np.where(winner == seat, 2, np.where(winner < 0, 1, 0)).astype(np.int8)
        self.games += 2 * k * n
        return out

    def describe(self) -> str:
        return (f"{self.strategy} vs {self.opponent} (opponent ordering {self.opponent_order}), "
                f"seed {self.seed}" + (f", variants {', '.join(self.variants)}" if self.variants else ""))


def deal_values(pts: np.ndarray) -> np.ndarray:
    """Per-deal mean score (0, .25, .5, .75, 1) of (candidates, deals, 2) doubled points."""
    return pts.sum(axis=2, dtype=np.int64) / 4.0

"""Grids of configurations x deals x seats, as small picklable tasks for any backend.

A *configuration* is two entrants — each a strategy and an action-deck
ordering — and a rules vector in which entrant A holds Cleopatra's action
counts and entrant B Caesar's.  A ``Grid`` holds many configurations as
arrays; a ``GridTask`` names a grid, a run seed and *segments* (configuration,
arrangement, first game, games), and ``play_task`` plays it through
``ccsim.kernel.simulate.play_specs`` wherever the backend sends it (the entrants'
compiled strategies are resolved in that process).  Arrangement 1 plays the
same deal with the seats swapped: entrant A as Caesar, with her strategy, her
ordering and her action counts.

Every command that plays games in bulk — the orderings studies, the
tournament, the what-ifs — builds a grid and maps ``play_task`` over its
tasks with ``backend.map``.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ccsim.kernel import rules as R
from ccsim.kernel.layout import MAX_PARAMS
from ccsim.runner.orderings import SHUFFLED, to_codes
from ccsim.runner.ruleset import action_counts, swap_players

__all__ = ["Grid", "GridBuilder", "GridTask", "play_task", "warm_task", "segment_tasks", "order_row", "orderings_grid",
           "SEG_CONFIG", "SEG_ARRANGEMENT", "SEG_FIRST", "SEG_GAMES"]


def order_row(ordering: str, counts) -> np.ndarray:
    """An entrant's action deck for the kernel: codes padded with -1 (all -1: shuffled);
    OrderingError unless the letters are exactly her ``counts``."""
    row = np.full(R.MAX_ACTION_DECK, -1, np.int8)
    if ordering != SHUFFLED:
        codes = to_codes(ordering, counts)
        row[:len(codes)] = codes
    return row


@dataclass(eq=False)
class Grid:
    """Configurations as arrays (C configurations, R distinct rules vectors)."""
    strategies: tuple                # distinct strategy names (or weights-file paths)
    entrants: np.ndarray             # (C, 2) index into ``strategies`` of entrants A and B
    codes: np.ndarray                # (C, 2, MAX_ACTION_DECK) int8 orders of A and B, -1 rows shuffled
    rule_index: np.ndarray           # (C,) index into ``rules``
    rules: np.ndarray                # (R, 2, N_RULE_PARAMS): arrangement 0, and 1 (action counts swapped)

    @property
    def size(self) -> int:
        return int(self.entrants.shape[0])

    def tables(self):
        """The kernel's tables (``ccsim.kernel.simulate.play_specs``), strategies resolved in this process."""
        from strategies.registry import resolve
        sid = np.zeros(len(self.strategies), np.int64)
        sp = np.zeros((len(self.strategies), MAX_PARAMS), np.float64)
        for e, name in enumerate(self.strategies):
            sid[e], sp[e] = resolve(name)
        return (sid, sp, np.ascontiguousarray(self.entrants, dtype=np.int64),
                np.ascontiguousarray(self.codes, dtype=np.int8),
                np.ascontiguousarray(self.rule_index, dtype=np.int64),
                np.ascontiguousarray(self.rules, dtype=np.int64))


@dataclass
class GridBuilder:
    """Collects configurations one by one; ``build()`` gives the ``Grid``."""
    _strategies: dict = field(default_factory=dict)
    _rules: dict = field(default_factory=dict)
    _entrants: list = field(default_factory=list)
    _codes: list = field(default_factory=list)
    _rule_index: list = field(default_factory=list)

    def _strategy(self, name: str) -> int:
        return self._strategies.setdefault(name, len(self._strategies))

    def _rules_of(self, vec: np.ndarray) -> int:
        return self._rules.setdefault(tuple(int(x) for x in vec), len(self._rules))

    def add(self, a: tuple[str, str], b: tuple[str, str], rules: np.ndarray) -> int:
        """Configuration of entrant ``a`` = (strategy, ordering) against ``b`` under ``rules``
        (``a`` with Cleopatra's action counts); returns its index."""
        self._entrants.append((self._strategy(a[0]), self._strategy(b[0])))
        self._codes.append((order_row(a[1], action_counts(rules, 0)), order_row(b[1], action_counts(rules, 1))))
        self._rule_index.append(self._rules_of(rules))
        return len(self._entrants) - 1

    def build(self) -> Grid:
        rules = [np.array(v, np.int64) for v in self._rules]
        return Grid(strategies=tuple(self._strategies), entrants=np.array(self._entrants, np.int64).reshape(-1, 2),
                    codes=np.array(self._codes, np.int8).reshape(-1, 2, R.MAX_ACTION_DECK),
                    rule_index=np.array(self._rule_index, np.int64),
                    rules=np.array([[v, swap_players(v)] for v in rules], np.int64).reshape(-1, 2, R.N_RULE_PARAMS))


def orderings_grid(strategy: str, opponent: str, codes: np.ndarray, opponent_codes: np.ndarray,
                   rules: np.ndarray) -> Grid:
    """One configuration per code row of ``codes`` (the candidate's ordering, R1.4's cards), all
    against the same opponent: built as arrays, for the thousands of candidates of a search."""
    k = codes.shape[0]
    cand = np.full((k, R.MAX_ACTION_DECK), -1, np.int8)
    cand[:, :codes.shape[1]] = codes
    opp = np.full(R.MAX_ACTION_DECK, -1, np.int8)
    opp[:opponent_codes.shape[0]] = opponent_codes
    names = tuple(dict.fromkeys((strategy, opponent)))
    ent = np.array([0, names.index(opponent)], np.int64)
    return Grid(strategies=names, entrants=np.tile(ent, (k, 1)),
                codes=np.stack([cand, np.broadcast_to(opp, cand.shape)], axis=1),
                rule_index=np.zeros(k, np.int64),
                rules=np.array([[rules, swap_players(rules)]], np.int64))


# the columns of GridTask.segments: one row a segment of games
SEG_CONFIG, SEG_ARRANGEMENT, SEG_FIRST, SEG_GAMES = range(4)


@dataclass(eq=False)
class GridTask:
    """Games of a grid: ``segments`` rows (configuration, arrangement, first game, games), the
    columns ``SEG_*``; read them by name through the properties below."""
    seed: int
    grid: Grid
    segments: np.ndarray
    cols: tuple | None = None

    @property
    def configs(self) -> np.ndarray:
        return self.segments[:, SEG_CONFIG]

    @property
    def arrangements(self) -> np.ndarray:
        return self.segments[:, SEG_ARRANGEMENT]

    @property
    def first_games(self) -> np.ndarray:
        return self.segments[:, SEG_FIRST]

    @property
    def segment_games(self) -> np.ndarray:
        return self.segments[:, SEG_GAMES]

    @property
    def games(self) -> int:
        return int(self.segment_games.sum())

    def piece(self, start: int, n: int) -> "GridTask":
        """Games ``start .. start + n - 1`` of the task, in its order (segment after segment), as a task."""
        out, at = [], 0
        for c, s, first, g in self.segments:
            lo, hi = max(start, at), min(start + n, at + g)
            if lo < hi:
                out.append((c, s, first + lo - at, hi - lo))
            at += g
        return GridTask(self.seed, self.grid, np.array(out, np.int64).reshape(-1, 4), self.cols)

    def specs(self):
        """The kernel's spec arrays (configuration, game, arrangement), segment after segment."""
        n = self.segment_games
        cfg = np.repeat(self.configs, n)
        swap = np.repeat(self.arrangements, n)
        start = np.repeat(self.first_games - np.cumsum(n) + n, n)
        return cfg, start + np.arange(int(n.sum()), dtype=np.int64), swap


def play_task(task: GridTask) -> np.ndarray:
    """The result rows of a task, in segment order (runs wherever the backend sends it)."""
    from ccsim.kernel.simulate import play_specs
    return play_specs(task.seed, task.specs(), task.grid.tables(), task.cols)


play_task.plays_games = True  # rows game by game: the local backend may play it a piece at a time


def warm_task(task: GridTask) -> GridTask:
    """One game of ``task``'s first segment: resolves every strategy of its grid and loads (or
    compiles) the kernel, for ``backend.warm`` before a command's clock starts."""
    one = task.segments[:1].copy()
    one[0, SEG_GAMES] = 1
    return GridTask(task.seed, task.grid, one, task.cols)


def segment_tasks(seed: int, grid: Grid, segments, cols=None, max_games: int = 200_000) -> list[GridTask]:
    """``segments`` (configuration, arrangement, first game, games) cut into tasks of at most about
    ``max_games`` games, in order: a segment longer than that is split."""
    tasks, cur, size = [], [], 0
    for c, s, first, n in segments:
        while n > 0:
            take = min(n, max_games - size)
            cur.append((c, s, first, take))
            size += take
            first += take
            n -= take
            if size >= max_games:
                tasks.append(GridTask(int(seed), grid, np.array(cur, np.int64), cols))
                cur, size = [], 0
    if cur:
        tasks.append(GridTask(int(seed), grid, np.array(cur, np.int64), cols))
    return tasks

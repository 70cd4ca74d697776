"""The games the page has played, kept: a chunk's result rows under the arm and the deals they are.

A game is fixed by its seed, its deal, the level, the rules and the decks (every game seeds its own
random streams from (seed, deal)), so the rows of a chunk played once are the rows it would give
again.  The page asks again and again about the standard rules — every question compares with them —
and a designer often steps back to a change tried before: those chunks come from here instead of
the cores, and a change then plays only its own games.  Least recently used chunks go first past
``limit`` bytes.
"""
from __future__ import annotations

import threading
from collections import OrderedDict

import numpy as np

__all__ = ["Memory", "chunk_key"]

LIMIT = 128 * 2**20  # about ten arms of 100,000 deals (an int16 result row is ~60 columns)


def chunk_key(level: str, arm, seed: int, first: int, deals: int) -> tuple:
    """What decides a chunk's games: the level (mirror games), the arm's rules and decks, the seed
    and the deals ``first .. first + deals - 1``."""
    return (level, tuple(int(x) for x in arm.rules), tuple(arm.orders), int(seed), int(first), int(deals))


class Memory:
    """Chunks' result rows by ``chunk_key``, least recently used out first (thread-safe)."""

    def __init__(self, limit: int = LIMIT):
        self.limit = limit
        self._rows: OrderedDict[tuple, np.ndarray] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    def get(self, key: tuple) -> np.ndarray | None:
        with self._lock:
            rows = self._rows.get(key)
            if rows is not None:
                self._rows.move_to_end(key)
            return rows

    def put(self, key: tuple, rows: np.ndarray) -> None:
        rows = np.array(rows, copy=True)
        rows.flags.writeable = False  # handed out to every later question: nobody may change it
        with self._lock:
            if key in self._rows:
                return
            self._rows[key] = rows
            self._bytes += rows.nbytes
            while self._bytes > self.limit and len(self._rows) > 1:
                _, old = self._rows.popitem(last=False)
                self._bytes -= old.nbytes

    def __contains__(self, key: tuple) -> bool:
        with self._lock:
            return key in self._rows

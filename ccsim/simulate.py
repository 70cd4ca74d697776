"""The batch kernel: many games per compiled call, one output row per game.

Games are split into blocks played on a pool of Python threads; the compiled
block loop releases the GIL (``nogil``), so the blocks run in parallel.  We
measured numba's ``parallel=True`` (prange) loop to add about 10 s to every
cold compile for no speed gain here, so plain threads drive the blocks.  Each
game seeds its own streams, so the rows depend neither on the thread count nor
on the blocks.
"""
from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from ccsim.jit import njit

from ccsim.layout import BASE_SIZE, N_RNG
from ccsim.engine.game import play_seeded_nb, result_row_nb, N_RESULT

_POOL: ThreadPoolExecutor | None = None
_THREADS = os.cpu_count() or 1


@njit(nogil=True, cache=True, nrt=True, whole=True)
def simulate_block_nb(seed, first_game, lo, hi, rules, sids, sp, orders, out):
    """Play games ``first_game + lo .. first_game + hi - 1`` of run ``seed`` into ``out[lo:hi]``.

    One scratch state for the whole block: the game loop allocates nothing.
    """
    st = np.zeros(BASE_SIZE, np.int32)
    rng = np.zeros(N_RNG, np.uint64)
    for i in range(lo, hi):
        play_seeded_nb(st, rng, sp, rules, sids, seed, first_game + i, orders)
        result_row_nb(st, out[i])


def set_threads(n: int) -> None:
    """Threads used by ``simulate_rows`` (0: one per core)."""
    global _THREADS, _POOL
    n = n or os.cpu_count() or 1
    if n != _THREADS and _POOL is not None:
        _POOL.shutdown()
        _POOL = None
    _THREADS = n


def get_threads() -> int:
    return _THREADS


def simulate_rows(seed, first_game, n_games, rules, sids, sparams, orders) -> np.ndarray:
    """Result rows (``engine.game.RESULT_COLUMNS``, int16) of games first_game .. first_game + n_games - 1."""
    global _POOL
    out = np.zeros((n_games, N_RESULT), np.int16)
    args = (np.int64(seed), np.int64(first_game))
    # many small blocks per thread: a thread whose core is slowed by other work takes fewer
    # (a shared machine's cores do not run at one speed), and the last block is short
    n_blocks = max(1, min(n_games // 64, _THREADS * 16))
    if _THREADS == 1 or n_blocks == 1:
        simulate_block_nb(*args, np.int64(0), np.int64(n_games), rules, sids, sparams, orders, out)
        return out
    if _POOL is None:
        _POOL = ThreadPoolExecutor(max_workers=_THREADS, thread_name_prefix="ccsim")
    bounds = [(b * n_games // n_blocks, (b + 1) * n_games // n_blocks) for b in range(n_blocks)]
    jobs = [_POOL.submit(simulate_block_nb, *args, np.int64(lo), np.int64(hi), rules, sids, sparams, orders, out)
            for lo, hi in bounds]
    for j in jobs:
        j.result()
    return out

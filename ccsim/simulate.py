"""The batch kernel: many games in one compiled call, one output row per game."""
import numba
import numpy as np
from numba import njit, prange

from ccsim.layout import BASE_SIZE, N_RNG
from ccsim.engine.game import play_seeded_nb, result_row_nb, N_RESULT


@njit(parallel=True, cache=True)
def simulate_nb(seed, first_game, n_games, n_blocks, rules, sids, sp, orders, out):
    """Play games ``first_game .. first_game + n_games - 1`` of run ``seed`` into ``out``.

    Games are split into blocks, one scratch state per block (the hot loop
    allocates nothing); each game seeds its own streams, so the rows do not
    depend on the thread count or the blocks.
    """
    for b in prange(n_blocks):
        st = np.zeros(BASE_SIZE, np.int32)
        rng = np.zeros(N_RNG, np.uint64)
        lo = b * n_games // n_blocks
        hi = (b + 1) * n_games // n_blocks
        for i in range(lo, hi):
            play_seeded_nb(st, rng, sp, rules, sids, seed, first_game + i, orders)
            result_row_nb(st, out[i])


def simulate_rows(seed, first_game, n_games, rules, sids, sparams, orders):
    out = np.zeros((n_games, N_RESULT), np.int16)
    n_blocks = max(1, min(n_games, numba.get_num_threads() * 4))  # get_num_threads in the kernel defeats the cache
    simulate_nb(np.int64(seed), np.int64(first_game), np.int64(n_games), np.int64(n_blocks), rules, sids, sparams,
                orders, out)
    return out

"""The batch kernel: one compiled loop over a table of games, and the threads that drive it.

Every game ccsim plays in bulk goes through ``play_specs``: ``ccsim run``'s
chunks, the orderings studies, the tournament and the what-ifs.  A batch is a
*grid* of configurations (two entrants, each a strategy and an action-deck
ordering, and a rules vector) and a table of *game specs*: (configuration,
game index, seat arrangement), where arrangement 1 seats the configuration's
second entrant as cleopatra (everything of an entrant moves with it: strategy,
ordering, her action counts).  Each spec is one game of
``engine.episode.play_seeded_nb``, its result row cut to the columns asked for.

Specs are split into blocks played on a pool of Python threads; the compiled
block loop releases the GIL (``nogil``), so the blocks run in parallel.  We
measured numba's ``parallel=True`` (prange) loop to add about 10 s to every
cold compile for no speed gain here, so plain threads drive the blocks.  Each
game seeds its own streams from (run seed, game index), so the rows depend
neither on the thread count nor on the blocks.
"""
from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from ccsim.toolchain.jit import njit
from ccsim.toolchain.notice import KERNEL_SECONDS, first_call

from ccsim.kernel.layout import BASE_SIZE, N_RNG, MAX_PARAMS
from ccsim.kernel.rules import MAX_ACTION_DECK
from ccsim.kernel.engine.episode import play_seeded_nb, result_row_nb, N_RESULT

_POOL: ThreadPoolExecutor | None = None
_THREADS = os.cpu_count() or 1
ALL_COLUMNS = np.arange(N_RESULT, dtype=np.int64)


@njit(cache=True)
def seat_config_nb(c, s, ent_sid, ent_sp, cfg_ent, cfg_codes, sids, sp, orders):
    """Seat configuration c's entrants in arrangement s (seat p holds entrant p ^ s) into the
    block's scratch seats: strategy ids, parameters and action-deck orders."""
    for p in range(2):
        e = cfg_ent[c, p ^ s]
        sids[p] = ent_sid[e]
        for k in range(sp.shape[1]):
            sp[p, k] = ent_sp[e, k]
        for k in range(orders.shape[1]):
            orders[p, k] = cfg_codes[c, p ^ s, k]


@njit(nogil=True, cache=True, nrt=True, whole=True)
def play_specs_block_nb(lo, hi, seed, spec_cfg, spec_game, spec_swap, ent_sid, ent_sp, cfg_ent, cfg_codes,
                        cfg_rules, rules_tab, cols, out):
    """Play specs ``lo .. hi - 1`` of run ``seed``: ``out[j]`` gets columns ``cols`` of spec j's result row.

    One scratch state and one set of seats for the whole block: the game loop
    allocates nothing.  ``rules_tab[cfg_rules[c], s]`` is configuration c's
    rules vector in arrangement s.
    """
    st = np.zeros(BASE_SIZE, np.int32)
    rng = np.zeros(N_RNG, np.uint64)
    row = np.zeros(N_RESULT, np.int16)
    sids = np.zeros(2, np.int64)
    sp = np.zeros((2, ent_sp.shape[1]), np.float64)
    orders = np.full((2, cfg_codes.shape[2]), -1, np.int8)
    seated_c = -1
    seated_s = -1
    for j in range(lo, hi):
        c = spec_cfg[j]
        s = spec_swap[j]
        if c != seated_c or s != seated_s:
            seat_config_nb(c, s, ent_sid, ent_sp, cfg_ent, cfg_codes, sids, sp, orders)
            seated_c = c
            seated_s = s
        play_seeded_nb(st, rng, sp, rules_tab[cfg_rules[c], s], sids, seed, spec_game[j], orders)
        result_row_nb(st, row)
        for k in range(cols.shape[0]):
            out[j, k] = row[cols[k]]


def set_threads(n: int) -> None:
    """Threads used by the batch functions (0: one per core)."""
    global _THREADS, _POOL
    n = n or os.cpu_count() or 1
    if n != _THREADS and _POOL is not None:
        _POOL.shutdown()
        _POOL = None
    _THREADS = n


def get_threads() -> int:
    return _THREADS


def run_blocks(kernel, n: int, *args, n_blocks: int | None = None) -> None:
    """Call ``kernel(lo, hi, *args)`` over blocks covering ``0 .. n - 1``, on the thread pool.

    Many small blocks per thread: a thread whose core is slowed by other work
    takes fewer (a shared machine's cores do not run at one speed), and the
    last block is short.
    """
    global _POOL
    if n_blocks is None:  # (every thread busy even for a few slow games: a search player's)
        n_blocks = max(1, min(n, _THREADS * 16))
    bounds = [(b * n // n_blocks, (b + 1) * n // n_blocks) for b in range(n_blocks)]
    if _THREADS == 1 or n_blocks == 1:
        for lo, hi in bounds:
            kernel(np.int64(lo), np.int64(hi), *args)
        return
    if _POOL is None:
        _POOL = ThreadPoolExecutor(max_workers=_THREADS, thread_name_prefix="ccsim")
    jobs = [_POOL.submit(kernel, np.int64(lo), np.int64(hi), *args) for lo, hi in bounds]
    for j in jobs:
        j.result()


def play_specs(seed, specs, tables, cols=None, n_blocks=None) -> np.ndarray:
    """Result rows (int16, columns ``cols`` of ``engine.episode.RESULT_COLUMNS``, all by default) of a
    table of game specs.

    ``specs`` is ``(spec_cfg, spec_game, spec_swap)``, int64 arrays of one
    length; ``tables`` is ``(ent_sid, ent_sp, cfg_ent, cfg_codes, cfg_rules,
    rules_tab)``: the entrants' strategy ids (E,) and parameters (E, MAX_PARAMS),
    each configuration's two entrants (C, 2), their orders (C, 2, L) int8 (a row
    of -1: shuffled), the index of its rules (C,), and the rules table
    (R, arrangements, N_RULE_PARAMS).
    """
    cols = ALL_COLUMNS if cols is None else np.ascontiguousarray(cols, dtype=np.int64)
    spec_cfg, spec_game, spec_swap = (np.ascontiguousarray(a, dtype=np.int64) for a in specs)
    out = np.zeros((spec_cfg.shape[0], cols.shape[0]), np.int16)
    if spec_cfg.shape[0]:
        args = (np.int64(seed), spec_cfg, spec_game, spec_swap, *tables, cols, out)
        if not getattr(play_specs_block_nb, "signatures", True):  # first call here: compile or load,
            with first_call(play_specs_block_nb, "the kernel", KERNEL_SECONDS):  # announced (an empty block)
                play_specs_block_nb(np.int64(0), np.int64(0), *args)
        run_blocks(play_specs_block_nb, spec_cfg.shape[0], *args, n_blocks=n_blocks)
    return out


def single_tables(rules, sids, sparams, orders):
    """The grid tables of one configuration: seat 0's entrant against seat 1's, not swapped."""
    codes = np.full((1, 2, max(MAX_ACTION_DECK, orders.shape[1])), -1, np.int8)
    codes[0, :, :orders.shape[1]] = orders
    return (np.ascontiguousarray(sids, dtype=np.int64), np.ascontiguousarray(sparams, dtype=np.float64),
            np.array([[0, 1]], np.int64), codes, np.zeros(1, np.int64),
            np.ascontiguousarray(rules, dtype=np.int64).reshape(1, 1, -1))


def game_specs(first_game: int, n_games: int, cfg: int = 0, swap: int = 0):
    """The specs of games first_game .. first_game + n_games - 1 of one configuration and arrangement."""
    return (np.full(n_games, cfg, np.int64), np.arange(first_game, first_game + n_games, dtype=np.int64),
            np.full(n_games, swap, np.int64))


def simulate_rows(seed, first_game, n_games, rules, sids, sparams, orders, n_blocks=None) -> np.ndarray:
    """Result rows (``engine.episode.RESULT_COLUMNS``, int16) of games first_game .. first_game + n_games - 1
    with the seats as given (``sids``, ``sparams`` (2, MAX_PARAMS), ``orders`` (2, L) int8)."""
    assert sparams.shape[-1] == MAX_PARAMS
    return play_specs(seed, game_specs(first_game, n_games), single_tables(rules, sids, sparams, orders),
                      n_blocks=n_blocks)

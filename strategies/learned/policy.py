"""The learned player's pick: the option of the largest ``theta . features`` at the decisions it models, the
tactician's elsewhere."""
import numpy as np

from ccsim.kernel.decisions import MODE
from ccsim.kernel.layout import MAX_OPTIONS
from ccsim.toolchain.jit import njit, stack_array
from strategies.heuristics.scoring import must_be_active
from strategies.heuristics.tables import keep_step_tables, new_tables_nb
from strategies.heuristics.weighted import policy_nb
from strategies.learned.features import BASE, MAX_FEATURES, block_of, decision_features_nb

_features_nb = stack_array(np.float64, (MAX_OPTIONS, MAX_FEATURES), zeroed=False)


@njit(cache=True)
def best_option(params, first, k, F, n):
    """The option of the largest theta . features (the first of equals)."""
    best = 0
    bv = -1e300
    for i in range(n):
        v = 0.0
        for j in range(k):
            v += params[first + j] * F[i, j]
        if v > bv:
            bv = v
            best = i
    return best


@njit(cache=True)
def choose_learned_nb(params, kind, opts, n, pub, own, mem, me, rng):
    first, k = block_of(kind)
    if k == 0:  # the initial placement, the castling split, the passive discard: the tactician's
        return policy_nb(BASE, kind, opts, n, pub, own, mem, me, rng)
    if kind == MODE and must_be_active(pub, me):  # a passive turn would stall the game (R9.4) or draw nothing
        return n - 1
    T = new_tables_nb()
    F = _features_nb()
    decision_features_nb(kind, opts, n, pub, own, mem, me, T, F)
    i = best_option(params, first, k, F, n)
    keep_step_tables(kind, pub, mem, me, T, opts[i])
    return i

"""Invariants of a game state, checked after every turn in test runs (H_CHECK)."""
from numba import njit

from ccsim.layout import ERR_INVARIANT, H_ERROR, H_ERROR_AT, H_NLOG, PUB_END


@njit(cache=True)
def check_state_nb(st):
    """Return 0 if the state is consistent, else a code naming the first broken invariant."""
    return 0


@njit(cache=True)
def enforce_invariants_nb(st):
    """Stop the game with ERR_INVARIANT if an invariant is broken."""
    code = check_state_nb(st)
    if code != 0 and st[H_ERROR] == 0:
        st[H_ERROR] = ERR_INVARIANT
        st[H_ERROR_AT] = st[H_NLOG]
        st[PUB_END] = -1
    return code

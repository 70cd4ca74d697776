"""What a player may see (R8), and read-only helpers over it.

A player's observation is ``(pub, own)``: the public array and her own private
array of ``ccsim.kernel.layout``.  Nothing hidden from her is reachable from them.
The helpers here read only public slots, so both the engine and every
strategy use them.
"""
import numpy as np
from ccsim.toolchain.jit import njit

from ccsim.kernel.layout import PUB, PUB_REMAIN, PUB_RULES, PUB_SIZE, PRIV_SIZE, PR_HAND, siden_at, priv_at
from ccsim.kernel.rules import RP_SIDE_LIMIT, RP_GROUP_LIMIT, N_GROUPS, N_VALUES


@njit(cache=True)
def side_n(pub, g, p):
    """Cards on player p's side of group g (R4.2.1)."""
    return pub[siden_at(g, p)]


@njit(cache=True)
def group_n(pub, g):
    """Cards at group g, both sides (R4.2.2)."""
    return pub[siden_at(g, 0)] + pub[siden_at(g, 1)]


@njit(cache=True)
def in_play(pub, g):
    """R4.2.3: a group with no patrician left is out of play."""
    return pub[PUB_REMAIN + g] > 0


@njit(cache=True)
def rule(pub, k):
    """Entry k (rules.RP_*) of the game's rules vector, which is public."""
    return pub[PUB_RULES + k]


@njit(cache=True)
def room(pub, g, p):
    """How many more cards player p may put on group g now (R4.2.1, R4.2.2, R4.2.3)."""
    if pub[PUB_REMAIN + g] <= 0:
        return 0
    a = pub[PUB_RULES + RP_SIDE_LIMIT] - side_n(pub, g, p)
    b = pub[PUB_RULES + RP_GROUP_LIMIT] - group_n(pub, g)
    r = a if a < b else b
    return r if r > 0 else 0


@njit(cache=True)
def hand_influence(own):
    """Influence cards in the owner's hand."""
    n = 0
    for c in range(N_VALUES):
        n += own[PR_HAND + c]
    return n


@njit(cache=True)
def groups_out_of_play(pub):
    n = 0
    for g in range(N_GROUPS):
        if pub[PUB_REMAIN + g] <= 0:
            n += 1
    return n


def public_view(st: np.ndarray) -> np.ndarray:
    return st[PUB:PUB + PUB_SIZE]


def private_view(st: np.ndarray, p: int) -> np.ndarray:
    b = priv_at(p)
    return st[b:b + PRIV_SIZE]


def observation(st: np.ndarray, p: int) -> np.ndarray:
    """Player p's whole observation as one flat vector (for tests and tools)."""
    return np.concatenate([public_view(st), private_view(st, p)])

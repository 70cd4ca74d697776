"""The value of a position where a search cuts its rollouts off: a learned logistic model.

A search that plays its simulations only a few turns deep (``strategies.search.expert``, ``P_DEPTH``)
needs the value of the position it stops in.  In a simulation every card is known (a sampled
world), so the features read the whole state: the VP each player would score now (R10), how each
group's next vote stands (exact influence, R6.3's philosophers included) weighed by the
patricians still to be won there, the influence left in hands and decks, and how far the game
has come.  The value is ``P(win) = sigmoid(w . x)`` for the player ``me``, a draw counting half:
the weights are fitted to the outcomes of self-play games (``ccsim.training.leaf_data``), so the
model is data (``LEAF_TABLE``'s block of a search's parameter vector).
"""
import math

import numpy as np

from ccsim.kernel.layout import (PUB_REMAIN, PUB_RULES, PUB_IDECKN, PUB_VOC_DECKN, PUB_NEXT, H_BONUS, PR_HAND,
                                 fu_at, fd_at, priv_at)
from ccsim.kernel.rules import CARD_VALUE, N_GROUPS, PHIL, RP_GROUP_SIZE
from ccsim.kernel.engine.score import vp_nb
from ccsim.kernel.layout import MEM_SIZE, PUB, PUB_SIZE, PRIV_SIZE
from ccsim.toolchain.jit import njit, stack_array
from strategies.heuristics.layouts import N_ROWS, R_W, R_E
from strategies.param_files import ParamFileError
from strategies.heuristics.styles import style_vector
from strategies.heuristics.tables import fill_groups

TACTICIAN = style_vector("tactician")  # the tables' weights (frozen into the compiled code)
_tables_nb = stack_array(np.float64, (N_ROWS, 6), zeroed=False)
_mem_nb = stack_array(np.int32, (MEM_SIZE,))

LEAF_FEATURES = (
    ("bias", "1"),
    ("vp", "my VP minus hers if the game ended now (R10) / 10"),
    ("votes", "sum over groups of (patricians left / group size) x tanh(the vote as it stands / 4)"),
    ("patricians", "sum over groups of patricians left x tanh(the vote as it stands / 4) / 5"),
    ("hand", "the influence value in my hand minus hers / 10"),
    ("decks", "cards left in my influence deck minus hers / 10"),
    ("actions", "action cards in my hand minus hers / 3"),
    ("voc_left", "cards left in the VoC deck / 14"),
    ("vp_late", "vp x (1 - voc_left): a lead counts more late"),
    ("to_move", "1 if I take the next turn"),
    ("position", "the tactician's value of the position as I see it (sum over groups of W x E, its tables) / 10"),
    ("her_position", "the same as she sees it / 10"),
)
N_LEAF = len(LEAF_FEATURES)
VAL = np.array(CARD_VALUE, np.float64)


@njit(cache=True)
def influence_nb(st, g, p):
    """(p's influence at g, her philosophers there), face-down cards included (a simulation knows them)."""
    b = priv_at(p)
    s = 0.0
    for c in range(6):
        s += (st[fu_at(g, p, c)] + st[b + fd_at(g, c)]) * VAL[c]
    return s, st[fu_at(g, p, PHIL)] + st[b + fd_at(g, PHIL)]


@njit(cache=True)
def hand_value_nb(st, p):
    b = priv_at(p)
    s = 0.0
    for c in range(6):
        s += st[b + PR_HAND + c] * VAL[c]
    return s


@njit(cache=True)
def hand_actions_nb(st, p):
    b = priv_at(p)
    k = 0
    for c in range(6, 12):
        k += st[b + PR_HAND + c]
    return k


@njit(cache=True)
def leaf_features_nb(st, me, x):
    """The features of the whole state ``st`` for player ``me`` into ``x`` (LEAF_FEATURES order)."""
    o = 1 - me
    x[0] = 1.0
    x[1] = (vp_nb(st, st[H_BONUS + me], me) - vp_nb(st, st[H_BONUS + o], o)) / 10.0
    votes = 0.0
    pats = 0.0
    for g in range(N_GROUPS):
        left = st[PUB_REMAIN + g]
        if left <= 0:
            continue
        mine, ph_m = influence_nb(st, g, me)
        hers, ph_h = influence_nb(st, g, o)
        d = mine - hers
        if ph_m != ph_h:  # R6.3: the philosophers reverse the vote
            d = -d
        e = math.tanh(d / 4.0)
        votes += left / st[PUB_RULES + RP_GROUP_SIZE + g] * e
        pats += left * e / 5.0
    x[2] = votes
    x[3] = pats
    x[4] = (hand_value_nb(st, me) - hand_value_nb(st, o)) / 10.0
    x[5] = (st[PUB_IDECKN + me] - st[PUB_IDECKN + o]) / 10.0
    x[6] = (hand_actions_nb(st, me) - hand_actions_nb(st, o)) / 3.0
    x[7] = st[PUB_VOC_DECKN] / 14.0
    x[8] = x[1] * (1.0 - x[7])
    x[9] = 1.0 if st[PUB_NEXT] == me else 0.0
    x[10] = position_nb(st, me) / 10.0
    x[11] = position_nb(st, o) / 10.0


@njit(cache=True)
def position_nb(st, p):
    """The tactician's value of the position from p's observation: sum over groups of W x E of its
    group table (strategies.heuristics.tables; a fresh memory, so nothing kept is read)."""
    T = _tables_nb()
    mem = _mem_nb()
    b = priv_at(p)
    fill_groups(TACTICIAN, st[PUB:PUB + PUB_SIZE], st[b:b + PRIV_SIZE], mem, p, T)
    v = 0.0
    for g in range(N_GROUPS):
        v += T[R_W, g] * T[R_E, g]
    return v


@njit(cache=True)
def leaf_value_nb(st, me, w, first, x):
    """P(``me`` wins) at ``st`` by the weights ``w[first:first + N_LEAF]`` (x: scratch)."""
    leaf_features_nb(st, me, x)
    z = 0.0
    for j in range(N_LEAF):
        z += w[first + j] * x[j]
    return 1.0 / (1.0 + math.exp(-z))


def leaf_weights(table: dict, where: str) -> np.ndarray:
    """The leaf value's weights of a ``[leaf]`` table (by ``LEAF_FEATURES`` name; 0 if not
    named); ParamFileError names a bad key or value."""
    names = [f for f, _ in LEAF_FEATURES]
    w = np.zeros(len(names))
    for k, v in table.items():
        if k not in names:
            raise ParamFileError(f"{where}: [leaf] has no feature {k!r} (known: {', '.join(names)})")
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise ParamFileError(f"{where}: [leaf] {k} must be a number, got {v!r}")
        w[names.index(k)] = float(v)
    return w

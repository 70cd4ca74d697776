"""Decision points and the encoding of their options.

A game is a sequence of small decisions.  At each, the engine writes every
legal option into ``opts[:n]`` as an int32 code and asks the acting player's
strategy for an index.  Legality lives in the engine only: a strategy picks
from what it is offered, so it can never make an illegal move.  A decision
with a single option is taken without asking.

Kinds and their option codes:

========== ============================================= ======================
kind       decides                                        option code
========== ============================================= ======================
PLACEMENT  initial placement, R2.5                        permutation index 0..119
                                                          (``PERMS[i, g]`` = value code on group g)
MODE       active or passive, R3                          0 passive, 1 active
STEP       next step of an active turn, R4.1–R4.2         ``step_code(type, card, group, x)``
VETO       veto the opponent's action card, R7.6          0 no, 1 veto
SPY_PICK   which card of the opponent's hand, R7.2        card code 0..11
CASTLE     how many cards of value ``PUB_CTX_CARD`` go    a count 0..10
           back on the first castling group, R7.3
DRAW       which deck to draw from, R4.4 / R7.2           1 influence, 2 action
VETO_DRAW  the optional draw after a veto, R7.6           0 none, 1 influence, 2 action
DISCARD    the passive discard, R5.1                      ``discard_code`` of a multiset
========== ============================================= ======================

STEP codes pack ``type | card << 4 | group << 8 | x << 12`` where x is the
assassinated value code (assassination) or the second group (castling).
"""
import itertools

import numpy as np
from ccsim.toolchain.jit import njit

PLACEMENT, MODE, STEP, VETO, SPY_PICK, CASTLE, DRAW, VETO_DRAW, DISCARD = range(9)
N_KINDS = 9
KIND_NAMES = ("placement", "mode", "step", "veto", "spy_pick", "castle", "draw", "veto_draw", "discard")

from ccsim.kernel.layout import MAX_OPTIONS  # noqa: E402,F401  (sized there, with the state)

# STEP option types
T_PLACE_DOWN, T_PLACE_UP, T_ACTION, T_END = 1, 2, 3, 4

# DRAW / VETO_DRAW options
DRAW_NONE, DRAW_INFLUENCE, DRAW_ACTION = 0, 1, 2

PERMS = np.array(list(itertools.permutations(range(5))), dtype=np.int32)  # 120 x 5


@njit(cache=True)
def step_code(t, card, group, x):
    return t | (card << 4) | (group << 8) | (x << 12)


# the one decoder of a STEP option code (type | card << 4 | group << 8 | x << 12): nowhere else
# does code read its bits
@njit(cache=True)
def step_type(code):
    return code & 15


@njit(cache=True)
def step_card(code):
    return (code >> 4) & 15


@njit(cache=True)
def step_group(code):
    return (code >> 8) & 15


@njit(cache=True)
def step_x(code):
    return (code >> 12) & 15


@njit(cache=True)
def discard_code_count(code):
    """Number of cards in a DISCARD option; the cards are 4-bit codes above bit 3."""
    return code & 7


@njit(cache=True)
def discard_code_card(code, i):
    return (code >> (4 + 4 * i)) & 15

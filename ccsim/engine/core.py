"""Card movements, the event log and the decision call: the engine's primitives.

Every function takes the game's state vector ``st`` (``ccsim.layout``) and
keeps its cached counts (hand sizes, side sizes, deck sizes) in step with the
cards.  Functions that may ask a player to decide also take the game's random
streams ``rng`` and the seats' strategy parameters ``sp``.
"""
from ccsim.jit import njit

from ccsim.layout import (
    PUB_FU, PUB_FDN, PUB_SIDEN, PUB_DISC, PUB_HANDN, PUB_IDECKN, PUB_ADECKN, PUB_END,
    PRIV, PRIV_SIZE, PR_HAND, PR_FD, PR_ADECK, PR_ADECK_TOP, OPTS, LOG, EV_W,
    H_IDECK, H_IDECK_TOP, H_NLOG, H_LOG_CAP, H_REPLAY, H_ERROR, H_ERROR_AT, ERR_NO_OPTION, ERR_LOG_FULL, ERR_REPLAY_ILLEGAL, ERR_BAD_CHOICE, ERR_NO_STRATEGY, EV_DRAW,
)
from ccsim.decisions import DRAW_INFLUENCE
from ccsim.engine.replay import replay_choose_nb
from strategies.registry import choose_nb, NO_ENTRY


@njit(cache=True)
def pv(p):
    """Start of player p's private block in ``st``."""
    return PRIV + p * PRIV_SIZE


# ------------------------------------------------------------------ errors ---
@njit(cache=True)
def fail_nb(st, code):
    """Stop the game with an engine error (never expected; tests assert none)."""
    if st[H_ERROR] == 0:
        st[H_ERROR] = code
        st[H_ERROR_AT] = st[H_NLOG]
    st[PUB_END] = -1


@njit(cache=True)
def over_nb(st):
    """True once the game has ended (or stopped on an error)."""
    return st[PUB_END] != 0


# ------------------------------------------------------------------ log ------
@njit(cache=True)
def log_nb(st, t, p, a, b, c, d, e):
    """Append one event; returns its index (-1 when no log is kept)."""
    cap = st[H_LOG_CAP]
    if cap == 0:
        return -1
    k = st[H_NLOG]
    if k >= cap:
        fail_nb(st, ERR_LOG_FULL)
        return -1
    o = LOG + k * EV_W
    st[o] = t
    st[o + 1] = p
    st[o + 2] = a
    st[o + 3] = b
    st[o + 4] = c
    st[o + 5] = d
    st[o + 6] = e
    st[H_NLOG] = k + 1
    return k


@njit(cache=True)
def log_set_nb(st, k, field, value):
    """Fill in a field of an event already written (an action's effect, R7.0)."""
    if k >= 0:
        st[LOG + k * EV_W + field] = value


# ------------------------------------------------------------------ hands ----
@njit(cache=True)
def hand_add_nb(st, p, code):
    st[PRIV + p * PRIV_SIZE + PR_HAND + code] += 1
    st[PUB_HANDN + p] += 1


@njit(cache=True)
def hand_remove_nb(st, p, code):
    st[PRIV + p * PRIV_SIZE + PR_HAND + code] -= 1
    st[PUB_HANDN + p] -= 1


@njit(cache=True)
def discard_nb(st, p, code):
    """A card goes face-up to its owner's discard pile."""
    st[PUB_DISC + p * 12 + code] += 1


@njit(cache=True)
def hand_influence_nb(st, p):
    n = 0
    b = PRIV + p * PRIV_SIZE + PR_HAND
    for c in range(6):
        n += st[b + c]
    return n


@njit(cache=True)
def has_influence_nb(st, p):
    """R9.3: an influence card in hand or in the influence deck."""
    return st[PUB_IDECKN + p] > 0 or hand_influence_nb(st, p) > 0


# ------------------------------------------------------------------ groups ---
@njit(cache=True)
def put_at_nb(st, g, p, code, up):
    """One influence card onto p's side of g, face-up or face-down."""
    if up:
        st[PUB_FU + (g * 2 + p) * 6 + code] += 1
    else:
        st[PUB_FDN + g * 2 + p] += 1
        st[PRIV + p * PRIV_SIZE + PR_FD + g * 6 + code] += 1
    st[PUB_SIDEN + g * 2 + p] += 1


@njit(cache=True)
def take_at_nb(st, g, p, code, up):
    if up:
        st[PUB_FU + (g * 2 + p) * 6 + code] -= 1
    else:
        st[PUB_FDN + g * 2 + p] -= 1
        st[PRIV + p * PRIV_SIZE + PR_FD + g * 6 + code] -= 1
    st[PUB_SIDEN + g * 2 + p] -= 1


@njit(cache=True)
def reveal_side_nb(st, g, p):
    """Turn all of p's cards at g face-up (R6.1, R7.4)."""
    fd = PRIV + p * PRIV_SIZE + PR_FD + g * 6
    fu = PUB_FU + (g * 2 + p) * 6
    for c in range(6):
        k = st[fd + c]
        if k > 0:
            st[fd + c] = 0
            st[fu + c] += k
    st[PUB_FDN + g * 2 + p] = 0


@njit(cache=True)
def side_count_nb(st, g, p, code):
    """p's cards of one value code at g, both faces (the engine sees all)."""
    return st[PUB_FU + (g * 2 + p) * 6 + code] + st[PRIV + p * PRIV_SIZE + PR_FD + g * 6 + code]


@njit(cache=True)
def clear_side_nb(st, g, p):
    """Every card on p's side of g to her discard pile (R6.8, R7.5)."""
    fd = PRIV + p * PRIV_SIZE + PR_FD + g * 6
    fu = PUB_FU + (g * 2 + p) * 6
    for c in range(6):
        k = st[fu + c] + st[fd + c]
        if k > 0:
            st[PUB_DISC + p * 12 + c] += k
            st[fu + c] = 0
            st[fd + c] = 0
    st[PUB_FDN + g * 2 + p] = 0
    st[PUB_SIDEN + g * 2 + p] = 0


# ------------------------------------------------------------------ decks ----
@njit(cache=True)
def draw_nb(st, p, which):
    """Draw the top card of p's influence or action deck into her hand (R4.4)."""
    if which == DRAW_INFLUENCE:
        i = st[H_IDECK_TOP + p]
        code = st[H_IDECK + p * 64 + i]
        st[H_IDECK_TOP + p] = i + 1
        st[PUB_IDECKN + p] -= 1
    else:
        b = PRIV + p * PRIV_SIZE
        i = st[b + PR_ADECK_TOP]
        code = st[b + PR_ADECK + i]
        st[b + PR_ADECK_TOP] = i + 1
        st[PUB_ADECKN + p] -= 1
    hand_add_nb(st, p, code)
    log_nb(st, EV_DRAW, p, which, code, 0, 0, 0)
    return code


@njit(cache=True)
def draw_options_nb(st, p, with_none):
    """The decks p may draw from now; optionally 'no draw' first (R7.6)."""
    n = 0
    if with_none:
        st[OPTS + n] = 0
        n += 1
    if st[PUB_IDECKN + p] > 0:
        st[OPTS + n] = 1
        n += 1
    if st[PUB_ADECKN + p] > 0:
        st[OPTS + n] = 2
        n += 1
    return n


# ------------------------------------------------------------------ decide ---
@njit(cache=True)
def decide_nb(st, rng, sp, p, kind, n):
    """Ask player p to pick one of the n options at ``st[OPTS:]``; returns the option's code.

    A single option is taken without asking.  In a replay the record decides;
    otherwise the seat's strategy, from p's observation only (R8.4).
    """
    if n <= 0:
        fail_nb(st, ERR_NO_OPTION)
        return -1
    if st[H_REPLAY] != 0:
        i = replay_choose_nb(st, p, kind, n)
        if i < 0:
            fail_nb(st, ERR_REPLAY_ILLEGAL)
            return st[OPTS]
        return st[OPTS + i]
    if n == 1:
        return st[OPTS]
    i = choose_nb(st, rng, sp, p, kind, n)
    if i == NO_ENTRY:
        fail_nb(st, ERR_NO_STRATEGY)
        return st[OPTS]
    if i < 0 or i >= n:
        fail_nb(st, ERR_BAD_CHOICE)
        return st[OPTS]
    return st[OPTS + i]

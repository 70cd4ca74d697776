"""Card movements and the event log: the engine's primitives.

Every function takes the game's state vector ``st`` (``ccsim.kernel.layout``) and
keeps its cached counts (hand sizes, side sizes, deck sizes) in step with the
cards.  None of them decides anything: decisions are posted and applied by
``ccsim.kernel.engine.step``.
"""
from ccsim.toolchain.jit import njit

from ccsim.kernel.layout import (
    PR_SPY_KNOWN, PUB_HANDN, PUB_IDECKN, PUB_ADECKN, PUB_END, PR_HAND, PR_ADECK, PR_ADECK_TOP, OPTS, LOG, EV_W,
    H_IDECK_TOP, H_HAND_INF, H_NLOG, H_LOG_CAP, H_ERROR, H_ERROR_AT, ERR_LOG_FULL, EV_DRAW,
    fu_at, fdn_at, siden_at, disc_at, priv_at, fd_at, ideck_at, seat_of, group_of,
)
from ccsim.kernel.rules import N_VALUES
from ccsim.kernel.decisions import DRAW_INFLUENCE


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
    st[priv_at(p) + PR_HAND + code] += 1
    st[PUB_HANDN + p] += 1
    if code < N_VALUES:
        st[H_HAND_INF + p] += 1


@njit(cache=True)
def hand_remove_nb(st, p, code):
    st[priv_at(p) + PR_HAND + code] -= 1
    st[PUB_HANDN + p] -= 1
    if code < N_VALUES:
        st[H_HAND_INF + p] -= 1


@njit(cache=True)
def seen_leave_nb(st, q, code):
    """A card of code ``code`` left q's hand in public (placed face-up, discarded, played):
    her opponent knows one card fewer of that code in it (PR_SPY_KNOWN, R8.3)."""
    k = priv_at(1 - q) + PR_SPY_KNOWN + code
    if st[k] > 0:
        st[k] -= 1


@njit(cache=True)
def unseen_leave_nb(st, q):
    """q placed a card face-down: any of her influence cards may be the one that left, so
    her opponent no longer knows which are still in her hand (PR_SPY_KNOWN, R8.3)."""
    k = priv_at(1 - q) + PR_SPY_KNOWN
    for c in range(N_VALUES):
        st[k + c] = 0


@njit(cache=True)
def discard_nb(st, p, code):
    """A card goes face-up to its owner's discard pile."""
    st[disc_at(p, code)] += 1


@njit(cache=True)
def hand_influence_nb(st, p):
    """Influence cards in p's hand (kept in step with the hand by hand_add_nb, hand_remove_nb)."""
    return st[H_HAND_INF + p]


@njit(cache=True)
def has_influence_nb(st, p):
    """R9.3: an influence card in hand or in the influence deck."""
    return st[PUB_IDECKN + p] > 0 or hand_influence_nb(st, p) > 0


# ------------------------------------------------------------------ groups ---
@njit(cache=True)
def put_at_nb(st, g, p, code, up):
    """One influence card onto p's side of g, face-up or face-down."""
    if up:
        st[fu_at(g, p, code)] += 1
    else:
        st[fdn_at(g, p)] += 1
        st[priv_at(p) + fd_at(g, code)] += 1
    st[siden_at(g, p)] += 1


@njit(cache=True)
def take_at_nb(st, g, p, code, up):
    if up:
        st[fu_at(g, p, code)] -= 1
    else:
        st[fdn_at(g, p)] -= 1
        st[priv_at(p) + fd_at(g, code)] -= 1
    st[siden_at(g, p)] -= 1


@njit(cache=True, forceinline=True)
def reveal_side_nb(st, g, p):
    """Turn all of p's cards at g face-up (R6.1, R7.4)."""
    fd = priv_at(p) + fd_at(g, 0)
    fu = fu_at(g, p, 0)
    for c in range(N_VALUES):
        k = st[fd + c]
        if k > 0:
            st[fd + c] = 0
            st[fu + c] += k
    st[fdn_at(g, p)] = 0


@njit(cache=True)
def side_count_nb(st, g, p, code):
    """p's cards of one value code at g, both faces (the engine sees all)."""
    return st[fu_at(g, p, code)] + st[priv_at(p) + fd_at(g, code)]


@njit(cache=True)
def clear_side_nb(st, g, p):
    """Every card on p's side of g to her discard pile (R6.8, R7.5)."""
    g = group_of(g)
    p = seat_of(p)
    fd = priv_at(p) + fd_at(g, 0)
    fu = fu_at(g, p, 0)
    for c in range(N_VALUES):
        k = st[fu + c] + st[fd + c]
        if k > 0:
            st[disc_at(p, c)] += k
            st[fu + c] = 0
            st[fd + c] = 0
    st[fdn_at(g, p)] = 0
    st[siden_at(g, p)] = 0


# ------------------------------------------------------------------ decks ----
@njit(cache=True, forceinline=True)  # called from 3 places of the step loop: a call cost random play 5%
def draw_nb(st, p, which):
    """Draw the top card of p's influence or action deck into her hand (R4.4)."""
    if which == DRAW_INFLUENCE:
        i = st[H_IDECK_TOP + p]
        code = st[ideck_at(p, i)]
        st[H_IDECK_TOP + p] = i + 1
        st[PUB_IDECKN + p] -= 1
    else:
        b = priv_at(p)
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

"""The per-decision group table of the heuristic family, and its keeping between decisions.

``fill_groups`` and ``fill_gains`` compute, once per decision, a small float64 table ``T``
(rows ``strategies.heuristics.layouts.R_*``) from the features of ``strategies.heuristics.features``; options are
then scored by look-ups in it (``strategies.heuristics.scoring``).  Parts of it are kept in the player's
memory for the next decision of the same turn, where they still hold (``keep_*``,
``kept_tables``).  Everything is read from the player's observation (pub, own) only.
"""
import numpy as np
from ccsim.toolchain.jit import njit, stack_array, f64_view

from ccsim.kernel.decisions import STEP, T_PLACE_DOWN, T_PLACE_UP, step_group, step_type
from ccsim.kernel.layout import (PUB_TURN, PUB_NPLACED, PUB_ACTION, PUB_RULES, PUB_REMAIN, PUB_OUT,
                                 PR_HAND, group_of, fd_at, fdn_at, fu_at, siden_at)
from ccsim.kernel.rules import PHIL, RP_GROUP_LIMIT, RP_GROUP_SIZE, RP_SIDE_LIMIT, N_GROUPS, VETO as VETO_CARD_CODE
from strategies.heuristics.features import (VAL, INVH_BY_FD, FRAC, e_val, rev_prob, opp_unseen, opp_hand_actions,
                                 p_opp_holds, voc_odds, voc_card_in_deck, spread_inv, inv_spread, stake_context,
                                 stake_kept)
from strategies.heuristics.layouts import (P_MAJORITY, P_HIDDEN_PHIL, P_NOISE, P_HORIZON, P_NEXT, P_SOON, P_LONG, P_TRIGGER,
                                R_D, R_INV, R_INVH, R_PREV, R_PREVP, R_W, R_E, R_ROOM, R_N, R_STAKE, R_NEXT, R_SOON,
                                R_MY, R_OPPV, R_OPPFD, R_MYUP, R_GAIN, R_SC, R_MYPH, R_OPPPH, R_HID, N_ROWS,
                                S_MU, S_PVETO, S_DECKMEAN, S_HANDINF, S_GAINS, S_STALE, KEPT_ROWS, KEPT,
                                M_TURN, M_KEPT_NP, M_TURN_T, M_KEPT_G, M_KEPT_SIDE)

# =============================================================================
# Per-decision tables shared by the heuristic strategies (weighted, majority,
# trickster, tactician, oracle, counter, defender).
#
# ``fill_groups`` and ``fill_gains`` compute, once per decision, a small float64 table ``T``
# (``new_tables()``, shape (N_ROWS, 6)): one column per group, one row per
# feature below, then the gain of each of my hand cards on each group.  Options
# are then scored by look-ups in it.  Everything is read from the player's
# observation (pub, own) only.
#
# The vote model.  For group g let D be my influence there minus the
# opponent's visible influence minus her face-down cards at the mean value of
# her unseen influence cards (card counting, R8.1: her discards and face-up
# cards are public).  A vote is won (R6.5) by the larger sum unless the
# philosopher counts differ (R6.3); she may hide a philosopher face-down.  With
# s the spread of her hidden and future influence,
#
#     E(D) = (1 - 2 P(reversed)) * (F((D - 0.5) / s) - F((-D - 0.5) / s))
#
# is P(I win) - P(she wins) (a tie, R6.4, counts 0), F a cheap algebraic
# sigmoid (no exp).  A group's weight W is the VP swing of its next patrician
# (``stake``: patrician, majority, all, bonus, R10) times how soon it may vote
# (its VoC card still in the deck, R4.5; a group near 8 cards, R4.3).  A
# position is worth sum_g W_g E_g; a card's gain is the change it makes.
# =============================================================================

def new_tables():
    """A fresh table (for tools; the strategies allocate with new_tables_nb)."""
    return np.zeros((N_ROWS, 6))


# One table per decision: N_ROWS x 6 (a column per group; rows R_SEC.. use one per
# card code), on the deciding function's stack (ccsim.toolchain.jit.stack_array), not zeroed:
# every row is written before it is read (fill_groups, fill_gains, ... fill the rows
# their readers use), and the interpreted run, whose tables start as NaN, must play
# the same games (tests/test_jit.py).
new_tables_nb = stack_array(np.float64, (N_ROWS, 6), zeroed=False)

@njit(cache=True)
def fill_groups(w, pub, own, mem, me, T):
    """Every row of T but the gains: a strategy may reweigh R_W before ``fill_gains``.
    ``mem`` is the player's memory: the stakes are kept there (M_STAKE_*)."""
    refill_groups(w, pub, own, mem, me, T, 0, N_GROUPS)


@njit(cache=True)
def refill_groups(w, pub, own, mem, me, T, lo, hi):
    """fill_groups for the columns of groups lo .. hi - 1 only (the others as they are) and
    the scalars: the groups are independent of each other, given the scalars.  Fewer than
    all groups is for the tables kept_tables gives, where only my card at lo has changed
    since (R4.2): her unseen cards, her hand's action cards and the rules are as the
    scalars kept from then say (S_MU, S_PVETO, and her philosopher odds in T[R_HID, 5])."""
    o = 1 - me
    every = hi - lo == N_GROUPS
    if every:
        stake_context(pub, own, me, w[P_MAJORITY], mem)
        tot, mu, q = opp_unseen(pub, me)
        hid_q = q * w[P_HIDDEN_PHIL]
    else:
        mu = T[R_SC, S_MU]
        hid_q = T[R_HID, 5]
    glim = pub[PUB_RULES + RP_GROUP_LIMIT]
    slim = pub[PUB_RULES + RP_SIDE_LIMIT]
    noise2 = w[P_NOISE] * w[P_NOISE]
    hinf = 0
    for c in range(6):
        hinf += own[PR_HAND + c]
    alone = pub[PUB_OUT + o] != 0
    if alone:
        noise2 = 0.0  # she will place nothing more (R9.3)
    nxt_in, soon_in, soon_out = voc_odds(pub, w[P_HORIZON])
    for g in range(lo, hi):
        d = group_sides(pub, own, me, g, mu, hid_q, noise2, mem, T)
        group_timing(w, pub, own, me, g, d, glim, slim, nxt_in, soon_in, soon_out, mem, T)
    if every:
        T[R_SC, S_MU] = mu
        T[R_SC, S_PVETO] = p_opp_holds(pub, me, VETO_CARD_CODE, opp_hand_actions(pub, me))
        T[R_HID, 5] = hid_q
    T[R_SC, S_DECKMEAN] = 0.0  # filled where needed (passive turns): my_deck_mean
    T[R_SC, S_HANDINF] = hinf
    if hi - lo == 1 and T[R_SC, S_GAINS] == 1.0 and T[R_SC, S_STALE] == 0.0:
        T[R_SC, S_STALE] = lo + 1.0  # the other columns' gains hold (refresh_gains)
    else:
        T[R_SC, S_GAINS] = 0.0
        T[R_SC, S_STALE] = 0.0


@njit(cache=True)
def group_sides(pub, own, me, g, mu, hid_q, noise2, mem, T):
    """Column g's rows of the two sides: influence (mine, hers seen and expected), spreads,
    philosophers and the reversal odds (R6.3); returns D."""
    o = 1 - me
    my = 0.0
    myph = 0
    myup = 0
    for c in range(6):
        fu = pub[fu_at(g, me, c)]
        k = fu + own[fd_at(g, c)]
        my += k * VAL[c]
        myup += fu
        if c == PHIL:
            myph = k
    ov = 0.0
    for c in range(5):
        ov += pub[fu_at(g, o, c)] * VAL[c]
    oph = pub[fu_at(g, o, PHIL)]
    ofd = pub[fdn_at(g, o)]
    d = my - ov - ofd * mu
    T[R_D, g] = d
    T[R_INV, g] = inv_spread(mem, ofd, noise2)
    T[R_INVH, g] = INVH_BY_FD[ofd] if ofd < 32 else spread_inv(ofd, 0.0)
    keep = 1.0
    for _ in range(ofd):
        keep *= 1.0 - hid_q
    hid = 1.0 - keep
    if hid > 1.0:
        hid = 1.0
    if hid < 0.0:
        hid = 0.0
    T[R_PREV, g] = rev_prob(myph, oph, hid)
    T[R_MYPH, g] = myph
    T[R_OPPPH, g] = oph
    T[R_HID, g] = hid
    T[R_PREVP, g] = rev_prob(myph + 1, oph, hid)
    T[R_N, g] = pub[siden_at(g, 0)] + pub[siden_at(g, 1)]
    T[R_MY, g] = my
    T[R_OPPV, g] = ov
    T[R_OPPFD, g] = ofd
    T[R_MYUP, g] = myup
    return d


@njit(cache=True)
def group_timing(w, pub, own, me, g, d, glim, slim, nxt_in, soon_in, soon_out, mem, T):
    """Column g's room, stake, vote timing (R4.3, R4.5), weight W and E, from its D; all zero
    for a group out of play."""
    if pub[PUB_REMAIN + g] <= 0:
        T[R_W, g] = 0.0
        T[R_STAKE, g] = 0.0
        T[R_NEXT, g] = 0.0
        T[R_SOON, g] = 0.0
        T[R_ROOM, g] = 0.0
        T[R_E, g] = 0.0
        return
    gn = pub[siden_at(g, 0)] + pub[siden_at(g, 1)]
    a = slim - pub[siden_at(g, me)]
    b = glim - gn
    r = a if a < b else b
    T[R_ROOM, g] = r if r > 0 else 0
    st = stake_kept(pub, own, me, g, w[P_MAJORITY], mem)
    if voc_card_in_deck(pub, g):
        nxt = nxt_in
        soon = soon_in
    else:
        nxt = 0.0
        soon = soon_out
    if gn >= glim - 1:
        soon += 0.5  # one card from an exceptional vote (R4.3)
        if soon > 1.0:
            soon = 1.0
    left = pub[PUB_REMAIN + g]
    size = pub[PUB_RULES + RP_GROUP_SIZE + g]
    frac = FRAC[left, size] if left < 16 and size < 16 else left / size
    T[R_STAKE, g] = st
    T[R_NEXT, g] = nxt
    T[R_SOON, g] = soon
    T[R_W, g] = st * (w[P_NEXT] * nxt + w[P_SOON] * soon + w[P_LONG] * frac)
    T[R_E, g] = e_val(d, T[R_INV, g], T[R_PREV, g])

@njit(cache=True)
def card_gain(w, T, c, g, glim):
    """The gain of one of my cards of code c on g (R4.2), from the rows fill_groups made; a
    card that fills a group to its limit votes at once (R4.3).  -1e9 where it cannot go (every
    row it reads is filled there too: computed and dropped by a select, not a branch, as
    whether a group has room is a coin toss to the branch predictor)."""
    if c == PHIL:
        e1 = e_val(T[R_D, g], T[R_INV, g], T[R_PREVP, g])
    else:
        e1 = e_val(T[R_D, g] + VAL[c], T[R_INV, g], T[R_PREV, g])
    gain = T[R_W, g] * (e1 - T[R_E, g])
    if T[R_N, g] + 1 == glim:  # this card fills the group: a vote right now (R4.3)
        if c == PHIL:
            eh = e_val(T[R_D, g], T[R_INVH, g], T[R_PREVP, g])
        else:
            eh = e_val(T[R_D, g] + VAL[c], T[R_INVH, g], T[R_PREV, g])
        gain += w[P_TRIGGER] * T[R_STAKE, g] * eh
    return gain if T[R_ROOM, g] > 0 else -1e9


@njit(cache=True)
def fill_gains(w, pub, own, T):
    """Rows R_GAIN + c: the gain of one of my cards of code c on each group (card_gain;
    -1e9 for a card I do not hold)."""
    gains_in(w, pub, own, T, 0, N_GROUPS)


@njit(cache=True)
def refresh_gains(w, pub, own, T):
    """fill_gains where refill_groups left the gains of one group stale (S_STALE): that
    column, and the rows of the cards I no longer hold; the rest holds as it is."""
    g = group_of(int(T[R_SC, S_STALE]) - 1)
    gains_in(w, pub, own, T, g, g + 1)


@njit(cache=True)
def gains_in(w, pub, own, T, lo, hi):
    """The gains of my cards on groups lo .. hi - 1, and -1e9 on every group for a card I do
    not hold; the R_GAIN rows then hold for this position (S_GAINS, none stale)."""
    glim = pub[PUB_RULES + RP_GROUP_LIMIT]
    for c in range(6):
        if own[PR_HAND + c] > 0:
            for g in range(lo, hi):
                T[R_GAIN + c, g] = card_gain(w, T, c, g, glim)
        else:
            for g in range(N_GROUPS):
                T[R_GAIN + c, g] = -1e9
    T[R_SC, S_GAINS] = 1.0
    T[R_SC, S_STALE] = 0.0


@njit(cache=True)
def gains_ready(w, pub, own, T):
    """The R_GAIN rows for this position: filled, refreshed or (kept) already there."""
    if T[R_SC, S_GAINS] == 0.0:
        fill_gains(w, pub, own, T)
    elif T[R_SC, S_STALE] != 0.0:
        refresh_gains(w, pub, own, T)


@njit(cache=True)
def keep_tables(pub, mem, T, placed, g, side):
    """Keep T (rows 0 .. KEPT_ROWS - 1) for this turn's next STEP with ``placed`` cards placed;
    g >= 0: my card goes to g, where I shall then hold ``side`` cards."""
    kept = f64_view(mem, M_TURN_T, KEPT)
    for i in range(KEPT_ROWS):
        for c in range(6):
            kept[i * 6 + c] = T[i, c]
    # column 5 is written only in rows R_HID and R_SC (the table is not zeroed: elsewhere it is
    # whatever the stack held, which the memory, part of a game's state, must not take in)
    for i in range(KEPT_ROWS):
        if i != R_HID and i != R_SC:
            kept[i * 6 + 5] = 0.0
    mem[M_TURN] = pub[PUB_TURN] + 1
    mem[M_KEPT_NP] = placed
    mem[M_KEPT_G] = g
    mem[M_KEPT_SIDE] = side


@njit(cache=True)
def keep_turn_tables(pub, mem, T):
    """At a MODE decision (T filled, gains included): keep T for the turn's first STEP."""
    keep_tables(pub, mem, T, 0, -1, 0)  # (R3: the turn's first decision, no card placed yet)


@njit(cache=True)
def keep_step_tables(kind, pub, mem, me, T, code):
    """After a STEP decision (T as it decided) that places a card: keep T for the next STEP."""
    t = step_type(code)
    if kind == STEP and (t == T_PLACE_DOWN or t == T_PLACE_UP):
        g = group_of(step_group(code))
        keep_tables(pub, mem, T, pub[PUB_NPLACED] + 1, g, pub[siden_at(g, me)] + 1)


@njit(cache=True)
def kept_tables(kind, pub, mem, me, T):
    """Fill T from the tables this turn's last decision kept, where they hold: a STEP with no
    action played (R7: an action changes anything), after the kept decision and the card it
    placed, if any.  The groups lo .. hi - 1 whose columns must be (re)computed, with the
    scalars: (0, 0) none (the same position), (g, g + 1) the group my card went to,
    (0, N_GROUPS) all (nothing kept holds)."""
    if kind != STEP or mem[M_TURN] != pub[PUB_TURN] + 1 or pub[PUB_NPLACED] != mem[M_KEPT_NP] \
            or pub[PUB_ACTION] >= 0:
        return 0, N_GROUPS
    mem[M_TURN] = 0  # once
    g = mem[M_KEPT_G]
    if g >= 0 and pub[siden_at(group_of(g), me)] != mem[M_KEPT_SIDE]:
        return 0, N_GROUPS  # the card filled the group: its vote (R4.3) changed the scalars too
    kept = f64_view(mem, M_TURN_T, KEPT)
    for i in range(KEPT_ROWS):
        for c in range(6):
            T[i, c] = kept[i * 6 + c]
    if g < 0:
        return 0, 0
    return g, g + 1

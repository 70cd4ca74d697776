"""R7 action cards: their legal targets, the veto (R7.6) and their effects.

Each effect is a function of its own; the decisions between them (the veto,
the spy's pick, the castling split) are posted by ``ccsim.kernel.engine.step``.
"""
from ccsim.toolchain.jit import njit

from ccsim.kernel.layout import (OPTS, PUB_RULES, PUB_HANDN, PUB_OUT, PUB_ACTION, PUB_TURN,
                          PUB_CTX_CARD, PUB_CTX_G1, PUB_CTX_G2, PUB_CTX_A, PUB_CTX_B, PUB_CTX_LEFT,
                          PR_HAND, PR_SPY_SEEN, PR_SPY_TURN, PR_SPY_KNOWN, H_ACTION_EV, PUB_ACT_CARD, PUB_ACT_G, PUB_ACT_X,
                          EV_ACTION, EV_VETO, fu_at, fdn_at, siden_at, played_at, vetoed_at, priv_at, fd_at)
from ccsim.kernel.rules import (ASSASSINATION, SPY, CASTLING, SCOUT, WRATH, VETO, ACTION_BASE, N_GROUPS, N_VALUES,
                         N_CARD_CODES, RP_SIDE_LIMIT, RP_GROUP_LIMIT)
from ccsim.kernel.decisions import T_ACTION, step_code, step_card, step_group, step_x
from ccsim.kernel.observe import side_n, group_n, in_play
from ccsim.kernel.engine.core import (log_nb, hand_remove_nb, seen_leave_nb, discard_nb, take_at_nb, put_at_nb, reveal_side_nb,
                               clear_side_nb, side_count_nb, log_set_nb)


@njit(cache=True)
def frees_room_nb(st, p, card, g, x):
    """Would this action card give p room where she has none (R3.2, R3.3)?

    Only wrath (a group emptied) and assassination at a full group can; castling
    never changes the room over its two groups, spy and scout touch no group.
    """
    if card == WRATH:
        return True
    if card == ASSASSINATION:
        return (side_n(st, g, p) < st[PUB_RULES + RP_SIDE_LIMIT]
                and group_n(st, g) - 1 < st[PUB_RULES + RP_GROUP_LIMIT])
    return False


@njit(cache=True, forceinline=True)  # (two call sites in the step loop: a call each cost 3%)
def action_options_nb(st, p, n, freeing_only):
    """Append p's playable action cards with every legal target (R7) to the options.

    With ``freeing_only`` only those after which a placement is possible (R3.3).
    """
    o = 1 - p
    hand = priv_at(p) + PR_HAND
    if st[hand + ASSASSINATION] > 0:  # R7.1: an opponent's face-up card
        for g in range(N_GROUPS):
            if not in_play(st, g):
                continue
            for c in range(N_VALUES):
                if st[fu_at(g, o, c)] > 0:
                    if (not freeing_only) or frees_room_nb(st, p, ASSASSINATION, g, c):
                        st[OPTS + n] = step_code(T_ACTION, ASSASSINATION, g, c)
                        n += 1
    if st[hand + WRATH] > 0:  # R7.5: a group with at least one card
        for g in range(N_GROUPS):
            if in_play(st, g) and group_n(st, g) > 0:
                st[OPTS + n] = step_code(T_ACTION, WRATH, g, 0)
                n += 1
    if freeing_only:
        return n
    if st[hand + SPY] > 0 and st[PUB_HANDN + o] > 0:  # R7.2: a non-empty hand
        st[OPTS + n] = step_code(T_ACTION, SPY, 0, 0)
        n += 1
    if st[hand + CASTLING] > 0:  # R7.3: two groups in play
        for g1 in range(N_GROUPS):
            if not in_play(st, g1):
                continue
            for g2 in range(g1 + 1, N_GROUPS):
                if in_play(st, g2):
                    st[OPTS + n] = step_code(T_ACTION, CASTLING, g1, g2)
                    n += 1
    if st[hand + SCOUT] > 0:  # R7.4: an opponent's face-down card
        for g in range(N_GROUPS):
            if in_play(st, g) and st[fdn_at(g, o)] > 0:
                st[OPTS + n] = step_code(T_ACTION, SCOUT, g, 0)
                n += 1
    return n


@njit(cache=True)
def any_freeing_action_nb(st, p):
    """R3.2: does p hold an action card that would let her place after it?"""
    return action_options_nb(st, p, 0, True) > 0


@njit(cache=True)
def announce_target_nb(st, card, g, x):
    """The announced target of the action card being vetoed, in the decision context (R7.0,
    R8.1): PUB_CTX_G1 its group (-1: spy), PUB_CTX_G2 castling's second group, PUB_CTX_A the
    code of the card an assassination removes (-1 where they do not apply); all -1: none."""
    st[PUB_CTX_G1] = g if card >= 0 and card != SPY else -1
    st[PUB_CTX_G2] = x if card == CASTLING else -1
    st[PUB_CTX_A] = x if card == ASSASSINATION else -1


@njit(cache=True)
def announce_action_nb(st, p, code):
    """R4.1, R7.0: p plays an action card, announced with its targets; it goes to her
    discard pile whether or not it is vetoed.  Its effect waits for the veto (R7.6)."""
    card = step_card(code)
    g = step_group(code)
    x = step_x(code)
    hand_remove_nb(st, p, card)
    seen_leave_nb(st, p, card)
    discard_nb(st, p, card)
    st[PUB_ACTION] = card
    st[played_at(p, card - ACTION_BASE)] += 1
    if card == ASSASSINATION or card == CASTLING:
        ev = log_nb(st, EV_ACTION, p, card, g, x, -1, -1)
    elif card == SPY:
        ev = log_nb(st, EV_ACTION, p, card, -1, -1, -1, -1)
    else:
        ev = log_nb(st, EV_ACTION, p, card, g, -1, -1, -1)
    st[H_ACTION_EV] = ev
    st[PUB_ACT_CARD] = card
    st[PUB_ACT_G] = g
    st[PUB_ACT_X] = x


@njit(cache=True)
def can_veto_nb(st, o):
    """R7.6, R9.3: o holds a veto and is not out (an out player plays nothing)."""
    return st[priv_at(o) + PR_HAND + VETO] > 0 and st[PUB_OUT + o] == 0


@njit(cache=True)
def veto_nb(st, o, card):
    """R7.6: o vetoes the action card ``card`` of her opponent: both cards go to their
    owners' discard piles; the vetoed card has no effect."""
    hand_remove_nb(st, o, VETO)
    seen_leave_nb(st, o, VETO)
    discard_nb(st, o, VETO)
    st[played_at(o, VETO - ACTION_BASE)] += 1  # a veto is played too, on the opponent's turn
    log_nb(st, EV_VETO, o, 0, 0, 0, 0, 0)
    st[vetoed_at(1 - o, card - ACTION_BASE)] += 1


@njit(cache=True)
def direct_effect_nb(st, p, card, g, x):
    """The effects that ask nothing: R7.1 assassination, R7.4 scout, R7.5 wrath."""
    o = 1 - p
    if card == ASSASSINATION:  # R7.1
        take_at_nb(st, g, o, x, True)
        discard_nb(st, o, x)
    elif card == SCOUT:  # R7.4
        reveal_side_nb(st, g, o)
    elif card == WRATH:  # R7.5
        clear_side_nb(st, g, 0)
        clear_side_nb(st, g, 1)


@njit(cache=True)
def spy_look_nb(st, p):
    """R7.2, R8.3: p sees the opponent's hand; its cards (by code) are her options."""
    o = 1 - p
    n = 0
    mine = priv_at(p)
    hers = priv_at(o) + PR_HAND
    for c in range(N_CARD_CODES):
        st[mine + PR_SPY_SEEN + c] = st[hers + c]
        st[mine + PR_SPY_KNOWN + c] = st[hers + c]
        if st[hers + c] > 0:
            st[OPTS + n] = c
            n += 1
    st[mine + PR_SPY_TURN] = st[PUB_TURN]
    return n


@njit(cache=True)
def spy_take_nb(st, p, pick):
    """R7.2: the picked card goes from the opponent's hand to her discard pile."""
    o = 1 - p
    log_set_nb(st, st[H_ACTION_EV], 4, pick)
    hand_remove_nb(st, o, pick)
    discard_nb(st, o, pick)
    mine = priv_at(p) + PR_SPY_KNOWN  # R8.3: she saw the rest of that hand
    hers = priv_at(o) + PR_HAND
    for c in range(N_CARD_CODES):
        st[mine + c] = st[hers + c]


@njit(cache=True)
def castle_gather_nb(st, p, g1, g2):
    """R7.3: take all of p's cards from g1 and g2, face-down into g2's slots for the split;
    returns how many."""
    fd1 = priv_at(p) + fd_at(g1, 0)
    fd2 = priv_at(p) + fd_at(g2, 0)
    total = 0
    for c in range(N_VALUES):
        k = side_count_nb(st, g1, p, c) + side_count_nb(st, g2, p, c)
        st[fu_at(g1, p, c)] = 0
        st[fu_at(g2, p, c)] = 0
        st[fd1 + c] = 0
        st[fd2 + c] = k
        total += k
    st[fdn_at(g1, p)] = 0
    st[siden_at(g1, p)] = 0
    st[fdn_at(g2, p)] = total
    st[siden_at(g2, p)] = total
    st[PUB_CTX_G1] = g1
    st[PUB_CTX_G2] = g2
    return total


@njit(cache=True)
def castle_split_options_nb(st, p, g1, g2, c, m, a, left, total):
    """R7.3 within R4.2.1 and R4.2.2 for both groups: how many of the m cards of value c may go
    back on g1, given a cards already there and ``left`` cards of later values still to split.
    Writes the options (counts) and the CASTLE decision's context; returns their number."""
    side = st[PUB_RULES + RP_SIDE_LIMIT]
    group = st[PUB_RULES + RP_GROUP_LIMIT]
    cap1 = min(side, group - side_n(st, g1, 1 - p))
    cap2 = min(side, group - side_n(st, g2, 1 - p))
    b = total - left - m - a  # cards of earlier values kept on g2
    lo = max(0, m - (cap2 - b))
    hi = min(m, cap1 - a)
    n = 0
    for k in range(lo, hi + 1):
        st[OPTS + n] = k
        n += 1
    st[PUB_CTX_CARD] = c
    st[PUB_CTX_A] = a
    st[PUB_CTX_B] = b
    st[PUB_CTX_LEFT] = left
    return n


@njit(cache=True)
def castle_move_nb(st, p, g1, g2, c, k):
    """k cards of value c from g2 back onto g1, face-down (R7.3)."""
    for _ in range(k):
        take_at_nb(st, g2, p, c, False)
        put_at_nb(st, g1, p, c, False)


@njit(cache=True)
def castle_done_nb(st, split1, split2):
    """The split is complete: the castling event gets it (R7.0), the context is cleared."""
    st[PUB_CTX_CARD] = -1
    st[PUB_CTX_G1] = -1
    st[PUB_CTX_G2] = -1
    log_set_nb(st, st[H_ACTION_EV], 5, split1)
    log_set_nb(st, st[H_ACTION_EV], 6, split2)

"""R7 action cards: their legal targets, the veto (R7.6) and their effects."""
from ccsim.jit import njit

from ccsim.layout import (PRIV, PRIV_SIZE, OPTS, PUB_RULES, PUB_SIDEN, PR_FD, PUB_FU, PUB_FDN, PUB_HANDN, PUB_OUT, PUB_ACTION, PUB_NPLAYED, PUB_NVETOED, PUB_TURN,
                          PUB_CTX_CARD, PUB_CTX_G1, PUB_CTX_G2, PUB_CTX_A, PUB_CTX_B, PUB_CTX_LEFT,
                          PR_HAND, PR_SPY_SEEN, PR_SPY_TURN, H_ACTION_EV, EV_ACTION, EV_VETO)
from ccsim.rules import (ASSASSINATION, SPY, CASTLING, SCOUT, WRATH, VETO, ACTION_BASE, N_GROUPS,
                         RP_SIDE_LIMIT, RP_GROUP_LIMIT)
from ccsim.decisions import (T_ACTION, step_code, step_card, step_group, step_x,
                             VETO as K_VETO, VETO_DRAW, SPY_PICK, CASTLE, DRAW)
from ccsim.observe import side_n, group_n, in_play
from ccsim.engine.core import (log_nb, hand_remove_nb, discard_nb, take_at_nb, put_at_nb, reveal_side_nb,
                               clear_side_nb, side_count_nb, log_set_nb, draw_nb, draw_options_nb, decide_nb, over_nb)


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


@njit(cache=True)
def action_options_nb(st, p, n, freeing_only):
    """Append p's playable action cards with every legal target (R7) to s.opts.

    With ``freeing_only`` only those after which a placement is possible (R3.3).
    """
    o = 1 - p
    hand = PRIV + p * PRIV_SIZE + PR_HAND
    if st[hand + ASSASSINATION] > 0:  # R7.1: an opponent's face-up card
        for g in range(N_GROUPS):
            if not in_play(st, g):
                continue
            for c in range(6):
                if st[PUB_FU + (g * 2 + o) * 6 + c] > 0:
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
            if in_play(st, g) and st[PUB_FDN + g * 2 + o] > 0:
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
def veto_nb(st, rng, sp, p, card, g, x):
    """R7.6: the opponent of p may veto p's action card, announced with its target g, x
    (R7.0: public, R8.1); returns True if she did."""
    o = 1 - p
    if st[PRIV + o * PRIV_SIZE + PR_HAND + VETO] <= 0 or st[PUB_OUT + o] != 0:  # R9.3: an out player plays nothing
        return False
    st[OPTS + 0] = 0
    st[OPTS + 1] = 1
    announce_target_nb(st, card, g, x)
    vetoed = decide_nb(st, rng, sp, o, K_VETO, 2) == 1
    announce_target_nb(st, -1, -1, -1)
    if not vetoed:
        return False
    hand_remove_nb(st, o, VETO)
    discard_nb(st, o, VETO)
    st[PUB_NPLAYED + o * 6 + VETO - ACTION_BASE] += 1  # a veto is played too, on the opponent's turn
    log_nb(st, EV_VETO, o, 0, 0, 0, 0, 0)
    st[PUB_NVETOED + p * 6 + card - ACTION_BASE] += 1
    n = draw_options_nb(st, o, True)
    w = decide_nb(st, rng, sp, o, VETO_DRAW, n)
    if w > 0:
        draw_nb(st, o, w)
    return True


@njit(cache=True)
def spy_nb(st, rng, sp, p, ev):
    """R7.2: see the opponent's hand, take one card; she draws a replacement."""
    o = 1 - p
    n = 0
    for c in range(12):
        st[PRIV + p * PRIV_SIZE + PR_SPY_SEEN + c] = st[PRIV + o * PRIV_SIZE + PR_HAND + c]  # R8.3
        if st[PRIV + o * PRIV_SIZE + PR_HAND + c] > 0:
            st[OPTS + n] = c
            n += 1
    st[PRIV + p * PRIV_SIZE + PR_SPY_TURN] = st[PUB_TURN]
    pick = decide_nb(st, rng, sp, p, SPY_PICK, n)
    if over_nb(st):
        return
    log_set_nb(st, ev, 4, pick)
    hand_remove_nb(st, o, pick)
    discard_nb(st, o, pick)
    n = draw_options_nb(st, o, False)  # R9.3: an out player still draws here
    if n > 0:
        draw_nb(st, o, decide_nb(st, rng, sp, o, DRAW, n))


@njit(cache=True)
def castling_nb(st, rng, sp, p, g1, g2, ev):
    """R7.3: take all of p's cards from g1 and g2, put them back face-down split as she likes.

    The split is decided value by value (CASTLE decisions): how many of this
    value go back on g1, within R4.2.1 and R4.2.2 for both groups.
    """
    fd1 = PRIV + p * PRIV_SIZE + PR_FD + g1 * 6
    fd2 = PRIV + p * PRIV_SIZE + PR_FD + g2 * 6
    total = 0
    for c in range(6):  # gather both sides into g2's face-down slots
        k = side_count_nb(st, g1, p, c) + side_count_nb(st, g2, p, c)
        st[PUB_FU + (g1 * 2 + p) * 6 + c] = 0
        st[PUB_FU + (g2 * 2 + p) * 6 + c] = 0
        st[fd1 + c] = 0
        st[fd2 + c] = k
        total += k
    st[PUB_FDN + g1 * 2 + p] = 0
    st[PUB_SIDEN + g1 * 2 + p] = 0
    st[PUB_FDN + g2 * 2 + p] = total
    st[PUB_SIDEN + g2 * 2 + p] = total
    side = st[PUB_RULES + RP_SIDE_LIMIT]
    group = st[PUB_RULES + RP_GROUP_LIMIT]
    cap1 = min(side, group - side_n(st, g1, 1 - p))
    cap2 = min(side, group - side_n(st, g2, 1 - p))
    a = 0
    left = total
    st[PUB_CTX_G1] = g1
    st[PUB_CTX_G2] = g2
    split1 = 0
    split2 = 0
    for c in range(6):
        m = st[fd2 + c]
        if m == 0:
            continue
        left -= m
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
        k = decide_nb(st, rng, sp, p, CASTLE, n)
        if over_nb(st):
            return
        for _ in range(k):  # move k of them from g2 to g1
            take_at_nb(st, g2, p, c, False)
            put_at_nb(st, g1, p, c, False)
        a += k
        split1 |= k << (3 * c)
        split2 |= (m - k) << (3 * c)
    st[PUB_CTX_CARD] = -1
    st[PUB_CTX_G1] = -1
    st[PUB_CTX_G2] = -1
    log_set_nb(st, ev, 5, split1)
    log_set_nb(st, ev, 6, split2)


@njit(cache=True)
def play_action_nb(st, rng, sp, p, code):
    """R4.1/R7: p plays an action card, announced with its targets (R7.0)."""
    card = step_card(code)
    g = step_group(code)
    x = step_x(code)
    o = 1 - p
    hand_remove_nb(st, p, card)
    discard_nb(st, p, card)  # a played card goes to its owner's discard pile, vetoed or not
    st[PUB_ACTION] = card
    st[PUB_NPLAYED + p * 6 + card - ACTION_BASE] += 1
    if card == ASSASSINATION:
        ev = log_nb(st, EV_ACTION, p, card, g, x, -1, -1)
    elif card == CASTLING:
        ev = log_nb(st, EV_ACTION, p, card, g, x, -1, -1)
    elif card == SPY:
        ev = log_nb(st, EV_ACTION, p, card, -1, -1, -1, -1)
    else:
        ev = log_nb(st, EV_ACTION, p, card, g, -1, -1, -1)
    st[H_ACTION_EV] = ev
    if veto_nb(st, rng, sp, p, card, g, x) or over_nb(st):
        return
    if card == ASSASSINATION:  # R7.1
        take_at_nb(st, g, o, x, True)
        discard_nb(st, o, x)
    elif card == SPY:
        spy_nb(st, rng, sp, p, ev)
    elif card == CASTLING:
        castling_nb(st, rng, sp, p, g, x, ev)
    elif card == SCOUT:  # R7.4
        reveal_side_nb(st, g, o)
    elif card == WRATH:  # R7.5
        clear_side_nb(st, g, 0)
        clear_side_nb(st, g, 1)

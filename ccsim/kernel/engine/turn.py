"""R3–R5: the options and moves of a turn, and R9 the end of the game at a turn boundary."""
import numpy as np
from ccsim.toolchain.jit import njit, stack_array

from ccsim.kernel.layout import (OPTS, PUB_RULES, PUB_TURN, PUB_OUT, PUB_NPLACED, PUB_PLACED_UP, PUB_ACTION, PUB_QUIET,
                          PUB_HANDN, PR_HAND, EV_PLACE, EV_DISCARD, priv_at, seat_of)
from ccsim.kernel.rules import (N_GROUPS, N_VALUES, N_CARD_CODES, RP_HAND_SIZE, RP_MAX_TURNS, RP_VARIANTS, V_LONE_PLAYER_NO_DRAW, END_NO_INFLUENCE, END_STALEMATE,
                         END_TRUNCATED)
from ccsim.kernel.decisions import (T_PLACE_DOWN, T_PLACE_UP, T_END, step_code, step_type, step_card, step_group,
                             discard_code_count, discard_code_card)
from ccsim.kernel.observe import room
from ccsim.kernel.engine.core import (log_nb, hand_remove_nb, seen_leave_nb, unseen_leave_nb, discard_nb, put_at_nb, draw_options_nb,
                               has_influence_nb, hand_influence_nb)
from ccsim.kernel.engine.actions import action_options_nb, any_freeing_action_nb
from ccsim.kernel.engine.dispatch import random_pick_nb


@njit(cache=True, forceinline=True)
def can_place_nb(st, p):
    """Some group can take one of p's influence cards now (R3.2)."""
    if hand_influence_nb(st, p) == 0:
        return False
    for g in range(N_GROUPS):
        if room(st, g, p) > 0:
            return True
    return False


@njit(cache=True)
def can_be_active_nb(st, p):
    """R3.2: she can place now, or will after an action card played first."""
    if hand_influence_nb(st, p) == 0:
        return False
    return can_place_nb(st, p) or any_freeing_action_nb(st, p)


@njit(cache=True, forceinline=True)
def hand_values_nb(st, p, cards):
    """The value codes in p's hand, ascending, into ``cards``; returns how many."""
    hand = priv_at(p) + PR_HAND
    k = 0
    for c in range(N_VALUES):  # written branch-free: a test per value is a coin toss in random play
        cards[k] = c
        k += 1 if st[hand + c] > 0 else 0
    return k


_hand_values_nb = stack_array(np.int64, (N_VALUES,), zeroed=False)


@njit(cache=True, forceinline=True)
def step_plan_nb(st, p):
    """The legal next steps of p's active turn (R4.1, R4.2, R3.3, R3.4): her action cards with
    their targets written to the option buffer, and what her placements and the end of her
    placements are.  Returns (number of action options, first card?, has_room, up_room, end?):
    her placements go at each group of bit set in ``has_room``, each value code in her hand
    face-down if it is her first card, and face-up where ``up_room`` has the bit too."""
    placed = st[PUB_NPLACED]
    up = st[PUB_PLACED_UP]
    hand_inf = hand_influence_nb(st, p)
    n_room = 0
    has_room = 0  # bit g: room at g (R4.2.1–R4.2.3)
    room2 = 0     # bit g: room for two cards at g
    for g in range(N_GROUPS):
        r = room(st, g, p)
        if r > 0:
            n_room += 1
            has_room |= 1 << g
            if r >= 2:
                room2 |= 1 << g
    placeable = hand_inf > 0 and n_room > 0  # R3.2
    n = 0
    if st[PUB_ACTION] < 0:
        # R3.3: before the first placement an action card is offered only if a
        # placement remains possible after it
        n = action_options_nb(st, p, n, placed == 0 and not placeable)
    up_room = 0
    if not placeable or placed == 2 or (placed == 1 and up == 0):
        has_room = 0  # no placement (left) this turn
    elif placed == 1:
        up_room = has_room  # her second card, face-up like the first
    elif hand_inf >= 2:  # R4.2.4: a first face-up card only where a second fits too (here or elsewhere)
        up_room = has_room if n_room >= 2 else room2
    done_placing = placed == 2 or (placed == 1 and up == 0)
    # R3.4: a vetoed action before any placement may leave nothing placeable
    stuck = placed == 0 and not placeable and st[PUB_ACTION] >= 0
    return n, placed == 0, has_room, up_room, done_placing or stuck


@njit(cache=True)
def step_options_nb(st, p):
    """The legal next steps of p's active turn into the option buffer: action cards, then the
    placements group by group (each value face-down, then face-up), then the end (T_END)."""
    n, first, has_room, up_room, end = step_plan_nb(st, p)
    cards = _hand_values_nb()
    k = hand_values_nb(st, p, cards)
    for g in range(N_GROUPS):
        if (has_room >> g) & 1 == 0:
            continue
        up_ok = (up_room >> g) & 1 == 1
        for j in range(k):
            if first:
                st[OPTS + n] = step_code(T_PLACE_DOWN, cards[j], g, 0)
                n += 1
            if up_ok:
                st[OPTS + n] = step_code(T_PLACE_UP, cards[j], g, 0)
                n += 1
    if end:
        st[OPTS + n] = step_code(T_END, 0, 0, 0)
        n += 1
    return n


@njit(cache=True)
def step_pick_nb(st, rng, p):
    """The `random` strategy's choice among step_options_nb's n options, found without
    listing the placements (only the action options are written): returns (n, its code)."""
    n_act, first, has_room, up_room, end = step_plan_nb(st, p)
    cards = _hand_values_nb()
    k = hand_values_nb(st, p, cards)
    n = n_act
    for g in range(N_GROUPS):
        if (has_room >> g) & 1 == 1:
            n += k * ((1 if first else 0) + ((up_room >> g) & 1))
    if end:
        n += 1
    i = random_pick_nb(rng, p, n)
    if i < n_act:
        return n, st[OPTS + i]
    j = i - n_act
    for g in range(N_GROUPS):
        if (has_room >> g) & 1 == 0:
            continue
        per = (1 if first else 0) + ((up_room >> g) & 1)  # options per value code here
        if j < k * per:
            t = T_PLACE_DOWN if first and j % per == 0 else T_PLACE_UP
            return n, step_code(t, cards[j // per], g, 0)
        j -= k * per
    return n, step_code(T_END, 0, 0, 0)


@njit(cache=True)
def place_nb(st, p, code):
    """R4.2: one influence card onto a group, face-down (alone) or face-up (one of two)."""
    c = step_card(code)
    g = step_group(code)
    up = step_type(code) == T_PLACE_UP
    hand_remove_nb(st, p, c)
    if up:
        seen_leave_nb(st, p, c)
    else:
        unseen_leave_nb(st, p)
    put_at_nb(st, g, p, c, up)
    st[PUB_NPLACED] += 1
    st[PUB_PLACED_UP] = 1 if up else 0
    log_nb(st, EV_PLACE, p, c, g, 1 if up else 0, 0, 0)


@njit(cache=True)
def refill_options_nb(st, p):
    """R4.4: the decks p may draw from while her hand is below the hand size; 0 when she is
    done (hand full, both decks empty, or R11 lone_player_no_draw with her opponent out)."""
    if (st[PUB_RULES + RP_VARIANTS] & V_LONE_PLAYER_NO_DRAW) != 0 and st[PUB_OUT + 1 - p] != 0:
        return 0  # R11 lone_player_no_draw
    if st[PUB_HANDN + p] >= st[PUB_RULES + RP_HAND_SIZE]:
        return 0
    return draw_options_nb(st, p, False)


@njit(cache=True)
def mode_options_nb(st, p):
    """R3: passive (0), and active (1) if she can be (R3.2)."""
    p = seat_of(p)
    active_ok = can_be_active_nb(st, p)  # (this uses the option buffer as scratch)
    st[OPTS] = 0
    if active_ok:
        st[OPTS + 1] = 1
        return 2
    return 1


@njit(cache=True)
def discard_options_nb(st, p):
    """R5.1: every distinct multiset of hand cards (none to all) as a DISCARD code."""
    n = 1
    st[OPTS + 0] = 0  # discard nothing
    hand = priv_at(p) + PR_HAND
    for c in range(N_CARD_CODES):  # extend every multiset so far by 1..m cards of code c
        m = st[hand + c]
        if m == 0:
            continue
        prev = n
        for i in range(prev):
            code = st[OPTS + i]
            for _ in range(m):
                # card slot `count` is empty: one more card c there, and the count + 1
                code += (c << (4 + 4 * (code & 7))) + 1
                st[OPTS + n] = code
                n += 1
    return n


_list_sizes_nb = stack_array(np.int64, (N_CARD_CODES,), zeroed=False)


@njit(cache=True)
def discard_pick_nb(st, rng, p):
    """The `random` strategy's choice among discard_options_nb's n options, found without
    listing them: returns (n, its code).  That list grows code by code: a code c held m
    times appends, option by option of the list so far, it with 1..m cards c; so an index
    is decoded from the last code back."""
    hand = priv_at(p) + PR_HAND
    before = _list_sizes_nb()  # [c]: the length of the list before code c
    n = 1
    for c in range(N_CARD_CODES):
        before[c] = n
        n *= st[hand + c] + 1
    i = random_pick_nb(rng, p, n)
    take = 0  # 3 bits per card code: how many of it the option discards
    for c in range(N_CARD_CODES - 1, -1, -1):
        m = st[hand + c]
        if m == 0:
            continue
        size = before[c]
        if i >= size:
            t = i - size
            if m == 1:  # (most codes held: no division)
                take |= 1 << (3 * c)
                i = t
            else:
                take |= (t % m + 1) << (3 * c)
                i = t // m
    code = 0
    for c in range(N_CARD_CODES):
        for _ in range((take >> (3 * c)) & 7):
            code += (c << (4 + 4 * (code & 7))) + 1  # as discard_options_nb writes it
    return n, code


@njit(cache=True)
def discard_cards_nb(st, p, code):
    """R5.1: the cards of a DISCARD option from p's hand to her discard pile; returns how many."""
    cnt = discard_code_count(code)
    for i in range(cnt):
        c = discard_code_card(code, i)
        hand_remove_nb(st, p, c)
        seen_leave_nb(st, p, c)
        discard_nb(st, p, c)
    if cnt > 0:
        log_nb(st, EV_DISCARD, p, code, 0, 0, 0, 0)
    return cnt


@njit(cache=True)
def end_of_turn_nb(st):
    """R9.2, R11 lone_player_no_draw, R9.4, R9.5 — the first that applies names the end (R9.6)."""
    i0 = has_influence_nb(st, 0)
    i1 = has_influence_nb(st, 1)
    if not i0 and not i1:
        return END_NO_INFLUENCE
    if (st[PUB_RULES + RP_VARIANTS] & V_LONE_PLAYER_NO_DRAW) != 0:
        if (not i0 and hand_influence_nb(st, 1) == 0) or (not i1 and hand_influence_nb(st, 0) == 0):
            return END_NO_INFLUENCE
    if st[PUB_QUIET] >= 2:
        return END_STALEMATE
    if st[PUB_TURN] >= st[PUB_RULES + RP_MAX_TURNS]:
        return END_TRUNCATED
    return 0



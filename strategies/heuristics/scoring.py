"""The scorers of the heuristic family: what a card, an action, a discard or a veto is worth.

Every decision of a heuristic (``strategies.heuristics.weighted``, the one policy skeleton, and the
styles of ``strategies/params``) is scored here, from the shared tables of
``strategies.heuristics.tables`` (one pass per decision: each group's margin, vote odds, stake and
the gain of each hand card there) and a parameter vector ``w`` (``layouts.P_*``, names in
``layouts.PARAM_NAMES``).  The scores, in short:

* PLACEMENT (R2.5): high cards where ``place_big * size + place_bonus * [bonus] +
  place_small / size`` is largest (rearrangement: any positive weights sort).
* MODE (R3): active, unless the best single card gains less than ``passive``
  and a passive discard would improve the hand (and the game is not stalling).
* STEP (R4): argmax over the options of gain - cost; a first face-up card is
  valued with the best second one (R4.2); actions by their effect on the
  position times P(not vetoed); ending the turn is worth 0.
* VETO (R7.6): the damage of her action card at the target she announced
  (R7.0, public); veto if it reaches ``veto``.
* SPY_PICK: her most dangerous card; CASTLE (R7.3): a greedy best split of my
  cards over the two groups; DRAW (R4.4): action card if the next one of my own
  deck is worth it and my hand holds enough influence; DISCARD (R5.1): cards
  below my deck's mean by ``fish``, never a quiet turn after a quiet turn.
"""
from ccsim.toolchain.jit import njit

from ccsim.kernel.decisions import (T_PLACE_DOWN, T_PLACE_UP, T_ACTION, T_END, step_card, step_group, step_type, step_x,
                                    discard_code_card, discard_code_count)
from ccsim.kernel.layout import (PUB_OUT, PUB_RULES, PUB_NPLACED, PUB_ACTION, PUB_CTX_G1, PUB_CTX_G2,
                                 PUB_CTX_A, PUB_HANDN, PUB_IDECKN, PUB_ADECKN, PUB_QUIET, PUB_REMAIN, PR_HAND,
                                 fd_at, fdn_at, fu_at, siden_at)
from ccsim.kernel.rules import (PHIL, ASSASSINATION, SPY, CASTLING, SCOUT, WRATH, VETO as VETO_CARD, N_GROUPS,
                                RP_SIDE_LIMIT, RP_GROUP_LIMIT, RP_HAND_SIZE)
from ccsim.kernel.observe import room
from strategies.heuristics.layouts import (R_COST, R_D, R_INV, R_PREV, R_W, R_E, R_ROOM, R_N, R_MY, R_OPPV, R_OPPFD, R_MYUP,
                                R_GAIN, R_SC, R_MYPH, R_OPPPH, R_HID, R_B1, R_B1C, R_B2, R_SEC, R_SECG, R_SEC2,
                                S_MU, S_PVETO, S_DECKMEAN, S_HANDINF, P_CARD_COST, P_UP_COST, P_VALUE_COST,
                                P_PHILOSOPHER, P_ACTION, P_ACTION_COST, P_SPY, P_SCOUT, P_FISH, P_MATERIAL,
                                P_CASTLE, P_SAME_GROUP)
from strategies.heuristics.tables import gains_ready
from strategies.heuristics.features import VAL, e_val, rev_prob, my_deck_mean


# ------------------------------------------------------------------ costs ----
@njit(cache=True)
def card_cost(w, c, up):
    """What placing my card c costs: a card spent, its value, face-up exposure."""
    k = w[P_CARD_COST] + w[P_VALUE_COST] * VAL[c]
    if up:
        k += w[P_UP_COST] * (2.0 if c == PHIL else 1.0)
    elif c == PHIL:
        k -= w[P_PHILOSOPHER]
    return k


@njit(cache=True)
def fill_best(own, T):
    """Rows R_B1/R_B1C/R_B2: per group the best face-up card, and the best one left
    when one copy of that card is gone; rows R_SEC/R_SECG/R_SEC2: per first card c the
    best second face-up card (R4.2), its group and the best on another group.
    (After fill_costs: the face-up costs.)  Each is the first of equals, as a scan of the
    cards (then the groups) in order finds it; the comparisons pick values (selects), not
    paths: which card or group is best is a coin toss to the branch predictor."""
    for g in range(N_GROUPS):
        T[R_B1, g] = -1e9  # best gain - cost of a card face-up here
        T[R_B1C, g] = -1
        T[R_B2, g] = -1e9  # the best of the other cards
    for c in range(6):
        if own[PR_HAND + c] <= 0:
            continue
        k = T[R_COST + 1, c]
        for g in range(N_GROUPS):
            gain = T[R_GAIN + c, g]
            v = gain - k
            b1 = T[R_B1, g]
            b2 = T[R_B2, g]
            fits = gain >= -1e8
            top = fits & (v > b1)
            second = fits & (v > b2)
            T[R_B2, g] = (b1 if b1 > b2 else b2) if top else (v if second else b2)
            T[R_B1, g] = v if top else b1
            T[R_B1C, g] = c if top else T[R_B1C, g]
    for g in range(N_GROUPS):
        b1c = int(T[R_B1C, g])
        if b1c >= 0 and own[PR_HAND + b1c] >= 2:
            T[R_B2, g] = T[R_B1, g]  # a second copy of the best card
    for c in range(6):
        t1 = -1e9
        t1g = -1
        t2 = -1e9
        if own[PR_HAND + c] > 0:
            single = own[PR_HAND + c] < 2
            for g2 in range(N_GROUPS):
                bc = T[R_B1C, g2]
                v = T[R_B2, g2] if (int(bc) == c) & single else T[R_B1, g2]
                fits = bc >= 0
                top = fits & (v > t1)
                second = fits & (v > t2)
                t2 = t1 if top else (v if second else t2)
                t1 = v if top else t1
                t1g = g2 if top else t1g
        T[R_SEC, c] = t1
        T[R_SECG, c] = t1g
        T[R_SEC2, c] = t2


@njit(cache=True)
def second_up(w, own, T, c, g):
    """Best value of the second face-up card after my card c on g (R4.2: it must follow);
    a second card on the same group keeps ``same_group`` of its gain.  (Values picked by
    selects: whether the best second card is on g is a coin toss to the branch predictor.)"""
    k = card_cost(w, c, True)
    same = w[P_SAME_GROUP] * (T[R_SEC, c] + k) - k
    here = same if (T[R_ROOM, g] >= 2) & (same > T[R_SEC2, c]) else T[R_SEC2, c]
    return here if int(T[R_SECG, c]) == g else T[R_SEC, c]


# ------------------------------------------------------------------ actions --
@njit(cache=True)
def assassination_gain(w, T, g, x):
    """Position gain of removing her face-up card x at g (R7.1), before veto and cost."""
    d2 = T[R_D, g] + VAL[x]
    prev = T[R_PREV, g]
    if x == PHIL:
        prev = rev_prob(T[R_MYPH, g], T[R_OPPPH, g] - 1, T[R_HID, g])
    e2 = e_val(d2, T[R_INV, g], prev)
    return T[R_W, g] * (e2 - T[R_E, g]) + w[P_MATERIAL] * VAL[x]


@njit(cache=True)
def wrath_gain(w, T, g):
    """Position gain of clearing g (R7.5): its vote becomes a tie, both sides lose their cards."""
    opp = T[R_OPPV, g] + T[R_OPPFD, g] * T[R_SC, S_MU]
    return -T[R_W, g] * T[R_E, g] + w[P_MATERIAL] * (opp - T[R_MY, g])


@njit(cache=True)
def castle_plan(w, T, pub, own, me, g1, g2, query):
    """Greedy best split of my cards at g1 and g2 (R7.3): (position value after, cards of code
    ``query`` that go on g1).  High cards first, each where it adds more; philosophers last."""
    o = 1 - me
    slim = pub[PUB_RULES + RP_SIDE_LIMIT]
    glim = pub[PUB_RULES + RP_GROUP_LIMIT]
    cap1 = min(slim, glim - pub[siden_at(g1, o)])
    cap2 = min(slim, glim - pub[siden_at(g2, o)])
    d1 = T[R_D, g1] - T[R_MY, g1]
    d2 = T[R_D, g2] - T[R_MY, g2]
    inv1 = T[R_INV, g1]
    inv2 = T[R_INV, g2]
    w1 = T[R_W, g1]
    w2 = T[R_W, g2]
    e1 = e_val(d1, inv1, 0.0)
    e2 = e_val(d2, inv2, 0.0)
    n1 = 0
    n2 = 0
    k_query = 0
    for c in range(4, -1, -1):
        k = pub[fu_at(g1, me, c)] + own[fd_at(g1, c)] + \
            pub[fu_at(g2, me, c)] + own[fd_at(g2, c)]
        v = VAL[c]
        for _ in range(k):
            # where the card goes picks values, not paths (selects): it is a coin toss to the
            # branch predictor; the group's new value is the one just compared
            a1 = e_val(d1 + v, inv1, 0.0)
            a2 = e_val(d2 + v, inv2, 0.0)
            to1 = (n1 < cap1) & ((n2 >= cap2) | (w1 * (a1 - e1) > w2 * (a2 - e2)))
            d1 = d1 + v if to1 else d1
            e1 = a1 if to1 else e1
            d2 = d2 if to1 else d2 + v
            e2 = e2 if to1 else a2
            n1 += 1 if to1 else 0
            n2 += 0 if to1 else 1
            k_query += 1 if to1 & (c == query) else 0
    kp = pub[fu_at(g1, me, PHIL)] + own[fd_at(g1, PHIL)] + \
        pub[fu_at(g2, me, PHIL)] + own[fd_at(g2, PHIL)]
    p1 = 0
    p2 = 0
    for _ in range(kp):
        a = w1 * (e_val(d1, inv1, rev_prob(p1 + 1, T[R_OPPPH, g1], T[R_HID, g1]))
                  - e_val(d1, inv1, rev_prob(p1, T[R_OPPPH, g1], T[R_HID, g1])))
        b = w2 * (e_val(d2, inv2, rev_prob(p2 + 1, T[R_OPPPH, g2], T[R_HID, g2]))
                  - e_val(d2, inv2, rev_prob(p2, T[R_OPPPH, g2], T[R_HID, g2])))
        to1 = (n1 < cap1) & ((n2 >= cap2) | (a > b))
        p1 += 1 if to1 else 0
        n1 += 1 if to1 else 0
        p2 += 0 if to1 else 1
        n2 += 0 if to1 else 1
        k_query += 1 if to1 & (query == PHIL) else 0
    if kp == 0 and T[R_OPPPH, g1] == 0 and T[R_OPPPH, g2] == 0 and T[R_HID, g1] == 0 and T[R_HID, g2] == 0:
        return w1 * e1 + w2 * e2, k_query
    val = w1 * e_val(d1, inv1, rev_prob(p1, T[R_OPPPH, g1], T[R_HID, g1])) + \
        w2 * e_val(d2, inv2, rev_prob(p2, T[R_OPPPH, g2], T[R_HID, g2]))
    return val, k_query


@njit(cache=True)
def castle_gain(w, T, pub, own, me, g1, g2):
    if T[R_MY, g1] + T[R_MYPH, g1] + T[R_MY, g2] + T[R_MYPH, g2] <= 0:
        return -1e9  # nothing of mine to move
    val, _ = castle_plan(w, T, pub, own, me, g1, g2, -1)
    now = T[R_W, g1] * T[R_E, g1] + T[R_W, g2] * T[R_E, g2]
    hide = w[P_UP_COST] * (T[R_MYUP, g1] + T[R_MYUP, g2])  # my face-up cards go face-down again
    return w[P_CASTLE] * (val - now) + hide


@njit(cache=True)
def action_score(w, T, pub, own, me, card, g, x):
    """Score of playing action card ``card`` with target g (and x): gain x P(no veto) - cost."""
    pv = 1.0 - T[R_SC, S_PVETO]
    if card == ASSASSINATION:
        return w[P_ACTION] * assassination_gain(w, T, g, x) * pv - w[P_ACTION_COST]
    if card == WRATH:
        return w[P_ACTION] * wrath_gain(w, T, g) * pv - w[P_ACTION_COST]
    if card == SPY:
        return w[P_SPY] * pub[PUB_HANDN + 1 - me] / 5.0 - w[P_ACTION_COST]
    if card == SCOUT:
        return w[P_SCOUT] * T[R_OPPFD, g] * T[R_W, g] * pv - w[P_ACTION_COST]
    if card == CASTLING:
        return w[P_ACTION] * castle_gain(w, T, pub, own, me, g, x) * pv - w[P_ACTION_COST]
    return -1e9


# ------------------------------------------------------------------ steps ----
@njit(cache=True)
def fill_costs(w, own, T):
    """Rows R_COST, R_COST + 1: what each card in my hand costs face-down and face-up,
    once per decision; the placement options are scored from them (placement_score)."""
    for c in range(6):
        if own[PR_HAND + c] > 0:
            T[R_COST, c] = card_cost(w, c, False)
            T[R_COST + 1, c] = card_cost(w, c, True)


@njit(cache=True)
def placement_score(w, T, pub, own, t, c, g):
    """Score of placing my card c on g (gain - cost; a first face-up card with its best
    second one, R4.2), -1e9 where it cannot go; T prepared by prepare_step."""
    gain = T[R_GAIN + c, g]
    if gain < -1e8:
        return -1e9
    if t == T_PLACE_DOWN:
        return gain - T[R_COST, c]
    v = gain - T[R_COST + 1, c]
    if pub[PUB_NPLACED] == 0:
        v += second_up(w, own, T, c, g)
    return v


@njit(cache=True)
def step_score(w, T, pub, own, me, code):
    """Score of one STEP option (see the module docstring); T prepared by prepare_step."""
    t = step_type(code)
    if t == T_END:
        return 0.0
    c = step_card(code)
    g = step_group(code)
    if t == T_PLACE_DOWN or t == T_PLACE_UP:
        return placement_score(w, T, pub, own, t, c, g)
    return action_score(w, T, pub, own, me, c, g, step_x(code))


@njit(cache=True)
def any_placement(opts, n):
    for i in range(n):
        t = step_type(opts[i])
        if t == T_PLACE_DOWN or t == T_PLACE_UP:
            return True
    return False


@njit(cache=True)
def prepare_step(w, pub, own, T, opts, n):
    """Fill what scoring these STEP options needs when a placement is among them: the
    gains, the costs and, before the turn's first card (the only one that may be followed
    by a second, R4.2), the best second cards.  Returns whether one is."""
    placing = any_placement(opts, n)
    if placing:
        gains_ready(w, pub, own, T)  # (kept from this turn's last decision: there, or all but a column)
        fill_costs(w, own, T)
        if pub[PUB_NPLACED] == 0:
            fill_best(own, T)
    return placing


@njit(cache=True)
def option_score(w, T, pub, own, me, code, placing):
    """step_score, except that castling waits until the placements are done (it then
    rearranges the new cards too, and is evaluated once a turn: it is the costly one)."""
    if placing and step_type(code) == T_ACTION and step_card(code) == CASTLING:
        return -1e9
    return step_score(w, T, pub, own, me, code)


@njit(cache=True)
def best_step(w, T, pub, own, me, opts, n):
    placing = prepare_step(w, pub, own, T, opts, n)
    best = 0
    bv = -1e18
    for i in range(n):
        code = opts[i]
        t = step_type(code)
        if t == T_PLACE_DOWN or t == T_PLACE_UP:
            v = placement_score(w, T, pub, own, t, step_card(code), step_group(code))
        elif t == T_END:
            v = 0.0
        else:
            v = option_score(w, T, pub, own, me, code, placing)
        if v > bv:
            bv = v
            best = i
    return best


@njit(cache=True)
def best_single_placement(w, own, T):
    """(gain - cost, card, group) of the best single face-down card this turn
    ((-1e9, -1, -1) if none fits)."""
    best = -1e9
    bc = -1
    bg = -1
    for c in range(6):
        if own[PR_HAND + c] <= 0:
            continue
        for g in range(N_GROUPS):
            v = T[R_GAIN + c, g]
            if v < -1e8:
                continue
            v -= card_cost(w, c, False)
            if v > best:
                best = v
                bc = c
                bg = g
    return best, bc, bg


@njit(cache=True)
def best_single(w, own, T):
    """Best gain - cost of one face-down card this turn (-1e9 if none fits)."""
    return best_single_placement(w, own, T)[0]


# ------------------------------------------------------------------ discards --
@njit(cache=True)
def discard_gain(w, T, pub, own, me, c):
    """What discarding one card of code c (and drawing another) is worth, R5.1."""
    o = 1 - me
    idn = pub[PUB_IDECKN + me]
    if c < 6:
        if idn <= 0:
            return -5.0
        if c == PHIL:
            return -1.0 - w[P_PHILOSOPHER]
        return (T[R_SC, S_DECKMEAN] - VAL[c] - w[P_FISH]) * 0.1
    need_inf = 0.3 if T[R_SC, S_HANDINF] == 0 and idn > 0 else 0.0
    if c == ASSASSINATION:
        any_up = 0
        for g in range(N_GROUPS):
            if pub[PUB_REMAIN + g] > 0:
                any_up += pub[siden_at(g, o)] - pub[fdn_at(g, o)]
        return need_inf + (0.05 if any_up == 0 else -0.3)
    if c == SCOUT:
        return need_inf + 0.02
    if c == CASTLING:
        return need_inf - 0.05
    if c == SPY:
        return need_inf - 0.1
    if c == WRATH:
        return need_inf - 0.4
    return need_inf - 0.3  # veto


@njit(cache=True)
def best_discard(w, T, pub, own, me, opts, n, can_place):
    """The best DISCARD option; at least one card when the turn would otherwise be quiet
    after a quiet turn (R9.4) or when a full hand cannot be played."""
    for c in range(12):  # the gain of each card in hand, once: row R_GAIN.., column c % 6
        if own[PR_HAND + c] > 0:
            T[R_GAIN + c // 6, c % 6] = discard_gain(w, T, pub, own, me, c)
    full = pub[PUB_HANDN + me] >= pub[PUB_RULES + RP_HAND_SIZE]
    decks = pub[PUB_IDECKN + me] + pub[PUB_ADECKN + me]
    # never a second quiet turn in a row (R9.4); a full hand that cannot be played is refreshed
    must = pub[PUB_QUIET] >= 1 or (full and decks > 0 and (T[R_SC, S_HANDINF] == 0 or not can_place))
    best = 0
    bv = -1e18
    for i in range(n):
        code = opts[i]
        k = discard_code_count(code)
        if must and k == 0:
            continue
        v = 0.0
        for j in range(k):
            c = discard_code_card(code, j)
            v += T[R_GAIN + c // 6, c % 6]
        if v > bv:
            bv = v
            best = i
    return best


@njit(cache=True)
def fill_light(pub, own, me, T):
    """The scalars a discard needs, without the group tables."""
    hinf = 0
    for c in range(6):
        hinf += own[PR_HAND + c]
    T[R_SC, S_HANDINF] = hinf
    T[R_SC, S_DECKMEAN] = my_deck_mean(pub, own, me)


@njit(cache=True)
def can_place_any(pub, own, me):
    """Is there an influence card in my hand and room for it somewhere (R3.2)?"""
    hinf = 0
    for c in range(6):
        hinf += own[PR_HAND + c]
    if hinf == 0:
        return False
    for g in range(N_GROUPS):
        if room(pub, g, me) > 0:
            return True
    return False


@njit(cache=True)
def hand_can_improve(w, T, pub, own, me):
    """Would a passive turn's discard (R5.1) improve my hand?  (Fills S_DECKMEAN: only here
    does a table decision need my deck's mean.)"""
    T[R_SC, S_DECKMEAN] = my_deck_mean(pub, own, me)
    for c in range(12):
        if own[PR_HAND + c] > 0 and discard_gain(w, T, pub, own, me, c) > 0:
            return True
    return False


# ------------------------------------------------------------------ others ---
@njit(cache=True)
def must_be_active(pub, me):
    """No passive turn: she is out (R9.3: nothing to wait for), the last turn was quiet
    (R9.4: a second would end the game) or my influence deck is empty (R5.1: nothing to draw)."""
    return pub[PUB_OUT + 1 - me] != 0 or pub[PUB_QUIET] >= 1 or pub[PUB_IDECKN + me] <= 0


@njit(cache=True)
def damage_at(w, T, pub, me, card, g, x):
    """How much the opponent's action card ``card`` hurts me at target g (x: the code of my
    face-up card an assassination removes; castling: one of its groups), 0 where it cannot."""
    if card == ASSASSINATION:
        if T[R_W, g] <= 0 or pub[fu_at(g, me, x)] <= 0:
            return 0.0
        prev = T[R_PREV, g]
        if x == PHIL:
            prev = rev_prob(T[R_MYPH, g] - 1, T[R_OPPPH, g], T[R_HID, g])
        e2 = e_val(T[R_D, g] - VAL[x], T[R_INV, g], prev)
        return T[R_W, g] * (T[R_E, g] - e2) + w[P_MATERIAL] * VAL[x]
    if card == WRATH:
        if T[R_W, g] <= 0 or T[R_N, g] <= 0:
            return 0.0
        return -wrath_gain(w, T, g)
    if card == SPY:
        return w[P_SPY]
    if card == SCOUT:
        return w[P_SCOUT] * pub[fdn_at(g, me)] * T[R_W, g]
    if card == CASTLING:
        return 0.5 * T[R_W, g] * (1.0 + T[R_E, g]) * 0.5
    return 0.0


@njit(cache=True)
def veto_damage(w, T, pub, own, me, card):
    """How much the opponent's action card ``card`` can hurt me at her best target (R7.6)."""
    if card == SPY:
        return w[P_SPY]
    dmg = 0.0
    for g in range(N_GROUPS):
        for x in range(6 if card == ASSASSINATION else 1):
            v = damage_at(w, T, pub, me, card, g, x)
            if v > dmg:
                dmg = v
    return dmg


@njit(cache=True)
def announced_damage(w, T, pub, own, me):
    """How much the action card I may veto hurts me at the target she announced (R7.0: public,
    R8.1); at her best target if none is given (a position made outside the engine)."""
    card = pub[PUB_ACTION]
    g = pub[PUB_CTX_G1]
    if card == SPY or g < 0:
        return veto_damage(w, T, pub, own, me, card)
    x = pub[PUB_CTX_G2] if card == CASTLING else pub[PUB_CTX_A]
    dmg = damage_at(w, T, pub, me, card, g, x)
    if card == CASTLING:  # either of its two groups may lose what I hold there
        dmg = max(dmg, damage_at(w, T, pub, me, card, x, 0))
    return dmg if dmg > 0.0 else 0.0


@njit(cache=True)
def spy_value(pub, own, me, c):
    """How much a card of hers hurts me (SPY_PICK, R7.2)."""
    if c < 5:
        return VAL[c]
    if c == PHIL:
        return 3.5
    if c == WRATH:
        return 6.0
    if c == VETO_CARD:
        k = 0
        for a in range(6, 11):
            k += own[PR_HAND + a]
        return 3.0 + k
    if c == ASSASSINATION:
        up = 0
        for g in range(N_GROUPS):
            up += pub[siden_at(g, me)] - pub[fdn_at(g, me)]
        return 2.5 + 0.2 * up
    if c == CASTLING:
        return 2.0
    if c == SPY:
        return 2.0
    return 1.5  # scout


@njit(cache=True)
def choose_spy(pub, own, me, opts, n):
    best = 0
    bv = -1e9
    for i in range(n):
        v = spy_value(pub, own, me, opts[i])
        if v > bv:
            bv = v
            best = i
    return best

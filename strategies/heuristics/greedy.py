"""`greedy`: plays to win the vote most likely to come next.

Each option is scored by how much it raises the chance of winning the votes
weighted by how likely each group is to vote next (its VoC card still in the
deck, or the group about to fill up); the best option is taken.  The per-group
margins and the gain of each hand card on each group are computed once per
decision, so scoring an option is a table look-up.
"""
import numpy as np
from ccsim.toolchain.jit import njit, stack_array

from ccsim.kernel.decisions import (PLACEMENT, MODE, STEP, VETO, SPY_PICK, DRAW, VETO_DRAW, DISCARD, PERMS,
                             T_PLACE_DOWN, T_PLACE_UP, T_END, step_type, step_card, step_group, step_x,
                             discard_code_card, discard_code_count)
from ccsim.kernel.layout import PR_HAND, PR_BONUS, PR_ADECK, PR_ADECK_TOP, PR_ADECK_LEN, PUB_RULES, PUB_ADECKN
from ccsim.kernel.rules import CARD_VALUE, PHIL, ASSASSINATION, SPY, CASTLING, SCOUT, WRATH, VETO as VETO_CARD, N_GROUPS, RP_GROUP_SIZE
from ccsim.kernel.observe import hand_influence, room
from strategies.heuristics.features import margin, win_prob, next_vote_weight, group_stake

NAME = "greedy"
ID = 1  # its kernel id: stable (parameter vectors and dispatch hold it); unique among the strategies
DESCRIPTION = "plays to win the vote most likely to come next"
FAMILY = "baseline"

PAIR_COST = 0.06  # in weighted win chance: what keeping a card for later is worth

# scratch arrays of one decision, on its stack
_per_group = stack_array(np.float64, (N_GROUPS,))
_gain_table = stack_array(np.float64, (6, N_GROUPS))
_per_card = stack_array(np.float64, (6,))
_code_counts = stack_array(np.int64, (12,))


@njit(cache=True)
def same_counts(a, b):
    for i in range(a.shape[0]):
        if a[i] != b[i]:
            return False
    return True


@njit(cache=True)
def gain_table(pub, own, me, m, w, gain):
    """m[g], w[g]: margin and weight of each group; gain[c, g]: the gain of my card c on g."""
    for g in range(N_GROUPS):
        m[g] = margin(pub, own, me, g)
        w[g] = next_vote_weight(pub, g) * group_stake(pub, own, me, g)
    for g in range(N_GROUPS):
        p_now = win_prob(m[g])
        for c in range(6):
            if c == PHIL:  # a philosopher reverses when the counts differ (R6.3): useful when losing
                gain[c, g] = w[g] * ((1.0 - p_now) - p_now) * 0.5
            else:
                gain[c, g] = w[g] * (win_prob(m[g] + CARD_VALUE[c]) - p_now)


@njit(cache=True)
def best_other(own, gain, skip_c):
    """The best gain of another card in hand than one copy of skip_c."""
    best = 0.0
    for c in range(6):
        if own[PR_HAND + c] - (1 if c == skip_c else 0) <= 0:
            continue
        for g in range(N_GROUPS):
            if gain[c, g] > best:
                best = gain[c, g]
    return best


@njit(cache=True)
def step_value(own, code, m, w, gain, other):
    t = step_type(code)
    if t == T_END:
        return 0.0
    c = step_card(code)
    g = step_group(code)
    if t == T_PLACE_DOWN:
        return gain[c, g] + 1e-3 * CARD_VALUE[c]
    if t == T_PLACE_UP:
        # a second card must earn its keep: cards spent early are missing when the last votes come
        return gain[c, g] + other[c] - PAIR_COST
    if c == ASSASSINATION:
        v = CARD_VALUE[step_x(code)]
        return w[g] * (win_prob(m[g] + v) - win_prob(m[g])) - 0.01
    if c == WRATH:
        return w[g] * (0.5 - win_prob(m[g])) - 0.02
    if c == SPY:
        return 0.004
    if c == SCOUT:
        return 0.002
    return -1.0  # castling: the greedy player does not reshuffle her own cards


@njit(cache=True)
def argmax_step(pub, own, me, opts, n):
    m = _per_group()
    w = _per_group()
    gain = _gain_table()
    gain_table(pub, own, me, m, w, gain)
    other = _per_card()
    for c in range(6):
        other[c] = best_other(own, gain, c) if own[PR_HAND + c] > 0 else 0.0
    best = 0
    bv = -1e9
    for i in range(n):
        v = step_value(own, opts[i], m, w, gain, other)
        if v > bv:
            bv = v
            best = i
    return best


@njit(cache=True)
def best_placement(pub, own, n):
    """R2.5: high cards on the big groups and on my bonus group."""
    best = 0
    bv = -1e9
    for i in range(n):
        v = 0.0
        for g in range(N_GROUPS):
            wt = pub[PUB_RULES + RP_GROUP_SIZE + g] + (3.0 if own[PR_BONUS] == g else 0.0)
            v += wt * (PERMS[i, g] + 1)
        if v > bv:
            bv = v
            best = i
    return best


@njit(cache=True)
def is_dead_card(c):
    """Cards greedy never plays (castling) or that cannot win a vote (spy, scout)."""
    return c == CASTLING or c == SPY or c == SCOUT


@njit(cache=True)
def stuck(pub, me):
    """No group has room for me (R4.2): only a wrath or an assassination can change that."""
    for g in range(N_GROUPS):
        if room(pub, g, me) > 0:
            return False
    return True


@njit(cache=True)
def discard_choice(opts, n, pub, own, me):
    """R5.1: when forced to pass, throw away every dead card; if there is none and every
    group is full, the lowest influence card, so that the refill can bring a wrath or an
    assassination from the action deck (otherwise both players may wait forever, R9.4)."""
    want = _code_counts()
    for c in range(12):
        if is_dead_card(c):
            want[c] = own[PR_HAND + c]
    if want.sum() == 0 and stuck(pub, me) and pub[PUB_ADECKN + me] > 0:
        for c in range(5):
            if own[PR_HAND + c] > 0:
                want[c] = 1
                break
    for i in range(n):
        code = opts[i]
        k = discard_code_count(code)
        if k != want.sum():
            continue
        got = _code_counts()
        for j in range(k):
            got[discard_code_card(code, j)] += 1
        if same_counts(got, want):
            return i
    return 0


@njit(cache=True)
def choose_greedy_nb(params, kind, opts, n, pub, own, mem, me, rng):
    if kind == STEP:
        return argmax_step(pub, own, me, opts, n)
    if kind == MODE:
        return n - 1  # active whenever possible
    if kind == PLACEMENT:
        return best_placement(pub, own, n)
    if kind == VETO:
        return n - 1  # veto every action card played against me
    if kind == SPY_PICK:
        best = 0
        bv = -1
        for i in range(n):
            c = opts[i]
            v = CARD_VALUE[c] if c < 6 else (6 if c == VETO_CARD else 0)
            if v > bv:
                bv = v
                best = i
        return best
    if kind == DRAW or kind == VETO_DRAW:
        # influence first; an action card only with enough influence in hand and a useful card on top
        top = own[PR_ADECK + own[PR_ADECK_TOP]] if own[PR_ADECK_TOP] < own[PR_ADECK_LEN] else -1
        want = 2 if (hand_influence(own) >= 4 or stuck(pub, me)) and top >= 0 and top != CASTLING else 1
        for i in range(n):
            if opts[i] == want:
                return i
        return n - 1
    if kind == DISCARD:
        return discard_choice(opts, n, pub, own, me)
    return 0  # CASTLE: as few cards as allowed on the first group


CHOOSE = choose_greedy_nb  # what the registry compiles into this strategy's entry

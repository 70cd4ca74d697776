"""Observation-level features shared by the heuristic strategies: card counting, the vote model's
pieces, VoC odds, a patrician's stake (kept in the player's memory between decisions).

Everything here reads only a player's observation (``pub`` and her own
``own`` array, R8), so any strategy built on it respects hidden information
by construction.  The per-decision group table built from them is ``strategies.heuristics.tables``;
the slots of the parameter vector, the table and the memory are ``strategies.heuristics.layouts``.
"""

import math

import numpy as np
from ccsim.toolchain.jit import njit, f64_view

from ccsim.kernel.layout import (PUB_VOC_DISC, PUB_VOC_BOX, PUB_VOC_DECKN, PR_BONUS, PUB_RULES, PUB_REMAIN,
                                 PUB_ADECKN, PUB_OUT, PR_HAND, action_count_at, disc_at, fd_at, fdn_at, fu_at,
                                 won_at)
from ccsim.kernel.rules import (CARD_VALUE, PHIL, RP_GROUP_LIMIT, RP_GROUP_SIZE, RP_DECK_COUNT,
                                RP_VP_PATRICIAN, RP_VP_MAJORITY, RP_VP_ALL, RP_VP_BONUS, RP_BONUS_THRESHOLD,
                                ACTION_BASE, N_GROUPS)
from ccsim.kernel.observe import group_n, in_play
from strategies.heuristics.layouts import M_STAKE_CTX, M_STAKE_KEY, M_STAKE_F, M_INV_F

# mean value of an unseen influence card of the default deck: (5*(1+2+3+4+5) + 2*0) / 27
MEAN_HIDDEN_VALUE = 75.0 / 27.0


@njit(cache=True)
def my_sum(pub, own, me, g):
    """My influence at g: face-up and my own face-down cards, which I may look at (R2.7)."""
    t = 0
    for c in range(5):
        t += (pub[fu_at(g, me, c)] + own[fd_at(g, c)]) * CARD_VALUE[c]
    return t


@njit(cache=True)
def opp_visible_sum(pub, me, g):
    o = 1 - me
    t = 0
    for c in range(5):
        t += pub[fu_at(g, o, c)] * CARD_VALUE[c]
    return t


@njit(cache=True)
def opp_estimate(pub, me, g):
    """Opponent's expected influence at g: visible cards plus the mean for each face-down one."""
    return opp_visible_sum(pub, me, g) + pub[fdn_at(g, 1 - me)] * MEAN_HIDDEN_VALUE


@njit(cache=True)
def margin(pub, own, me, g):
    return my_sum(pub, own, me, g) - opp_estimate(pub, me, g)


@njit(cache=True)
def win_prob(m):
    """A smooth guess of winning a vote at margin m (about one card's worth of noise).

    A rational sigmoid: as good a guess as the logistic and ten times cheaper
    than exp(), which dominated the heuristic players' run time.
    """
    x = m / 2.5
    return 0.5 + 0.5 * x / (1.0 + abs(x))


@njit(cache=True)
def voc_card_in_deck(pub, g):
    """Is g's VoC card still face-down in the deck (neither discarded nor boxed)?"""
    return pub[PUB_VOC_DISC + g] == 0 and pub[PUB_VOC_BOX + g] == 0


@njit(cache=True)
def next_vote_weight(pub, g):
    """How likely g is to be the next group voted on: from the VoC discard and box
    (R8.1), plus a sure vote for a group about to hold 8 cards (R4.3)."""
    if not in_play(pub, g):
        return 0.0
    w = 0.05
    n = pub[PUB_VOC_DECKN]
    if voc_card_in_deck(pub, g) and n > 0:
        w = 1.0 / n
    if group_n(pub, g) >= pub[PUB_RULES + RP_GROUP_LIMIT] - 1:
        w += 0.5
    return w


@njit(cache=True)
def group_stake(pub, own, me, g):
    """VP at stake in one patrician of g for me: the card, a share of majority and all, my bonus."""
    size = pub[PUB_RULES + RP_GROUP_SIZE + g]
    v = 1.0 + 1.0 / size + 0.5 / size
    if own[PR_BONUS] == g:
        v += 2.0 / 3.0
    return v




# P(Bin(r, 1/2) >= k) for r < 11, k < 12: the chance to win k of r coin-flip votes
_BT = np.zeros((11, 12))
for _r in range(11):
    for _k in range(12):
        _BT[_r, _k] = sum(math.comb(_r, j) for j in range(_k, _r + 1)) / 2.0 ** _r if _k <= _r else 0.0
BINTAIL = _BT
HALF_POW = 0.5 ** np.arange(16.0)  # 0.5 ** r without pow()
VAL = np.array(CARD_VALUE, np.float64)  # card values as a constant array: a plain load in compiled code

@njit(cache=True)
def sig(x):
    """A cheap sigmoid in [0, 1], close to the normal CDF (within 0.03): the cubic
    smoothstep of x / 2.5, clamped; no exp, sqrt or division.  Clamped by min and max, not
    by branches: which side of the clamp a vote falls is a coin toss to the branch predictor,
    and at y = -1 and 1 the cubic is exactly 0.0 and 1.0 (the same values as returning them)."""
    y = min(max(x * 0.4, -1.0), 1.0)
    return 0.5 + y * (0.75 - 0.25 * y * y)


@njit(cache=True)
def e_val(d, inv, prev):
    """P(win) - P(lose) of a vote at margin d, spread 1/inv, reversal chance prev."""
    return (1.0 - 2.0 * prev) * (sig((d - 0.5) * inv) - sig((-d - 0.5) * inv))


@njit(cache=True)
def rev_prob(mine, theirs, hid):
    """P(the philosopher counts differ, R6.3) when she may hide one more (with prob hid)."""
    a = 1.0 if mine != theirs else 0.0
    b = 1.0 if mine != theirs + 1 else 0.0
    return a * (1.0 - hid) + b * hid


@njit(cache=True)
def tail(r, k):
    """P(winning at least k of r votes at even odds)."""
    if k <= 0:
        return 1.0
    if r < 0 or k > r or r > 10:
        return 0.0
    return BINTAIL[r, k]


@njit(cache=True)
def outlook(pub, me, g, wm, wo, r, bonus_me):
    """Expected (my - her) VP from majority, all and bonus of g with wm/wo won and r left."""
    size = pub[PUB_RULES + RP_GROUP_SIZE + g]
    thr = size // 2 + 1
    v = pub[PUB_RULES + RP_VP_MAJORITY] * (tail(r, thr - wm) - tail(r, thr - wo))
    if wo == 0 and wm + r == size:
        v += pub[PUB_RULES + RP_VP_ALL] * HALF_POW[r]
    if wm == 0 and wo + r == size:
        v -= pub[PUB_RULES + RP_VP_ALL] * HALF_POW[r]
    bt = pub[PUB_RULES + RP_BONUS_THRESHOLD]
    if bonus_me == g:
        v += pub[PUB_RULES + RP_VP_BONUS] * tail(r, bt - wm)
    if g < 3:  # her bonus is one of the five cards I do not hold (R1.3, R2.3)
        pb = 0.2 if bonus_me == g else 0.4
        v -= pb * pub[PUB_RULES + RP_VP_BONUS] * tail(r, bt - wo)
    return v


@njit(cache=True)
def stake_of(pub, own, me, g, wmaj):
    """VP swing between me and her winning g's next patrician (halved: W*E is in VP)."""
    r = pub[PUB_REMAIN + g]
    if r <= 0:
        return 0.0
    wm = pub[won_at(me, g)]
    wo = pub[won_at(1 - me, g)]
    b = own[PR_BONUS]
    x = outlook(pub, me, g, wm + 1, wo, r - 1, b) - outlook(pub, me, g, wm, wo + 1, r - 1, b)
    return pub[PUB_RULES + RP_VP_PATRICIAN] + wmaj * 0.5 * x



_STAKE_RULES = (RP_VP_PATRICIAN, RP_VP_MAJORITY, RP_VP_ALL, RP_VP_BONUS, RP_BONUS_THRESHOLD)


@njit(cache=True)
def stake_context(pub, own, me, wmaj, mem):
    """Forget the kept stakes unless they were computed for this player, bonus, rules and weight."""
    f = f64_view(mem, M_STAKE_F, 6)
    same = mem[M_STAKE_CTX] == me + 1 and mem[M_STAKE_CTX + 1] == own[PR_BONUS] and f[0] == wmaj
    for i in range(5):
        same = same and mem[M_STAKE_CTX + 2 + i] == pub[PUB_RULES + _STAKE_RULES[i]]
    if same:
        return
    mem[M_STAKE_CTX] = me + 1
    mem[M_STAKE_CTX + 1] = own[PR_BONUS]
    for i in range(5):
        mem[M_STAKE_CTX + 2 + i] = pub[PUB_RULES + _STAKE_RULES[i]]
    f[0] = wmaj
    for g in range(N_GROUPS):
        mem[M_STAKE_KEY + g * 4 + 3] = 0


@njit(cache=True)
def stake_kept(pub, own, me, g, wmaj, mem):
    """stake_of, reused from mem while g's patricians are unchanged (after stake_context)."""
    k = M_STAKE_KEY + g * 4
    r = pub[PUB_REMAIN + g]
    wm = pub[won_at(me, g)]
    wo = pub[won_at(1 - me, g)]
    size = pub[PUB_RULES + RP_GROUP_SIZE + g]
    f = f64_view(mem, M_STAKE_F, 6)
    if mem[k] == r and mem[k + 1] == wm and mem[k + 2] == wo and mem[k + 3] == size:
        return f[1 + g]
    v = stake_of(pub, own, me, g, wmaj)
    mem[k] = r
    mem[k + 1] = wm
    mem[k + 2] = wo
    mem[k + 3] = size
    f[1 + g] = v
    return v


@njit(cache=True)
def opp_unseen(pub, me):
    """(count, mean value, share of philosophers) of her influence cards I have not seen:
    her hand, deck and face-down cards (R8: her discards and face-up cards are public)."""
    o = 1 - me
    tot = 0.0
    s = 0.0
    ph = 0.0
    for c in range(6):
        k = pub[PUB_RULES + RP_DECK_COUNT + c] + (2 if c < 5 else 0) - pub[disc_at(o, c)]
        for g in range(N_GROUPS):
            k -= pub[fu_at(g, o, c)]
        if k < 0:
            k = 0
        tot += k
        s += k * VAL[c]
        if c == PHIL:
            ph += k
    if tot <= 0:
        return 0.0, MEAN_HIDDEN_VALUE, 0.0
    return tot, s / tot, ph / tot


@njit(cache=True)
def opp_hand_actions(pub, me):
    """Action cards in her hand: those she drew (deck size minus what is left) minus those discarded."""
    o = 1 - me
    drawn = 0
    for a in range(6):
        drawn += pub[action_count_at(o, a)]  # the cards she owns (R1.4, rules)
    drawn -= pub[PUB_ADECKN + o]
    for a in range(6):
        drawn -= pub[disc_at(o, ACTION_BASE + a)]
    return drawn if drawn > 0 else 0


@njit(cache=True)
def p_opp_holds(pub, me, card, k):
    """P(her hand holds at least one action card ``card``), given k action cards in her hand
    drawn from the unseen ones (hand and action deck) at random."""
    o = 1 - me
    if k <= 0 or pub[PUB_OUT + o] != 0:
        return 0.0
    u = pub[action_count_at(o, card - ACTION_BASE)] - pub[disc_at(o, card)]
    if u <= 0:
        return 0.0
    pool = k + pub[PUB_ADECKN + o]
    p_none = 1.0
    for i in range(k):
        num = pool - u - i
        if num <= 0:
            return 1.0
        p_none *= num / (pool - i)
    return 1.0 - p_none


@njit(cache=True)
def my_deck_mean(pub, own, me):
    """Mean value of my influence deck: everything I own minus what I have seen of it."""
    tot = 0.0
    s = 0.0
    for c in range(6):
        k = pub[PUB_RULES + RP_DECK_COUNT + c] + (2 if c < 5 else 0) - pub[disc_at(me, c)] - own[PR_HAND + c]
        for g in range(N_GROUPS):
            k -= pub[fu_at(g, me, c)] + own[fd_at(g, c)]
        if k > 0:
            tot += k
            s += k * VAL[c]
    if tot <= 0:
        return 0.0
    return s / tot


@njit(cache=True)
def voc_odds(pub, horizon):
    """(P(next VoC card is a given group's), P(it comes within ``horizon`` draws) if its card
    is in the deck, the same if it is not) from the VoC discard and box (R4.5): a card
    already drawn comes back only after the reshuffle card.  The same for every group."""
    n = pub[PUB_VOC_DECKN]
    if n <= 0:
        n = 1
    nxt = 1.0 / n
    soon = horizon / n
    if soon > 1.0:
        soon = 1.0
    # back only after the reshuffle card (always in the deck, drawn within `horizon` with
    # probability `soon`), then among all non-boxed cards
    m = n
    for v in range(7):
        m += pub[PUB_VOC_DISC + v]
    return nxt, soon, soon * 0.5 * horizon / m


# spread_inv(k, 0.0) (a vote right now: R_INVH) by her face-down cards k, evaluated here
# as compiled code would (correctly rounded sqrt and division; k * 2.0 + 0.0 is k * 2.0)
INVH_BY_FD = np.array([1.0 / math.sqrt(k * 2.0 + 0.25) for k in range(32)])
# patricians left / group size (frac in fill_groups), by left and size
FRAC = np.array([[r / s if s > 0 else 0.0 for s in range(16)] for r in range(16)])


@njit(cache=True)
def spread_inv(ofd, noise2):
    """1 / the spread of a vote: her ofd face-down cards (variance 2.0 each: values 0..5)
    plus noise2 for what she may still place, plus a quarter for ties."""
    return 1.0 / math.sqrt(ofd * 2.0 + noise2 + 0.25)


@njit(cache=True)
def inv_spread(mem, ofd, noise2):
    """spread_inv (R_INV), remembered in mem by ofd for this noise2."""
    f = f64_view(mem, M_INV_F, 33)
    if f[0] != noise2:
        f[0] = noise2
        for k in range(1, 33):
            f[k] = 0.0
    if ofd >= 32:
        return spread_inv(ofd, noise2)
    if f[1 + ofd] == 0.0:
        f[1 + ofd] = spread_inv(ofd, noise2)
    return f[1 + ofd]

"""Observation-level features shared by the heuristic strategies.

Everything here reads only a player's observation (``pub`` and her own
``own`` array, R8), so any strategy built on it respects hidden information
by construction.
"""

import math

import numpy as np
from ccsim.toolchain.jit import njit, stack_array, f64_view

from ccsim.kernel.decisions import STEP, T_PLACE_DOWN, T_PLACE_UP
from ccsim.kernel.layout import (MEM_SIZE, PUB_TURN, PUB_NPLACED, PUB_ACTION, PUB_VOC_DISC, PUB_VOC_BOX,
                          PUB_VOC_DECKN, PR_BONUS, PUB_RULES, PUB_REMAIN, PUB_ADECKN, PUB_OUT, PR_HAND,
                          action_count_at, disc_at, group_of, fd_at, fdn_at, fu_at, siden_at, won_at)
from ccsim.kernel.rules import (CARD_VALUE, PHIL, RP_GROUP_LIMIT, RP_GROUP_SIZE, RP_SIDE_LIMIT, RP_DECK_COUNT,
                         RP_VP_PATRICIAN, RP_VP_MAJORITY, RP_VP_ALL, RP_VP_BONUS, RP_BONUS_THRESHOLD,
                         ACTION_BASE, N_GROUPS, VETO as VETO_CARD_CODE)
from ccsim.kernel.observe import group_n, in_play

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
def my_phils(pub, own, me, g):
    return pub[fu_at(g, me, PHIL)] + own[fd_at(g, PHIL)]


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

# ---- rows of the table T (each holds one value per group) -------------------
R_D = 0        # D: my influence minus the opponent's expected influence
R_INV = 1      # 1 / spread of a later vote (her hidden cards and her next placements)
R_INVH = 2     # 1 / spread of a vote right now (her hidden cards only): exceptional votes I trigger
R_PREV = 3     # P(the vote is reversed by philosophers), as things are
R_PREVP = 4    # the same if I add one philosopher
R_W = 5        # weight: stake x timing (0 for a group out of play)
R_E = 6        # E now: P(win) - P(lose) of a vote
R_ROOM = 7     # cards I may still put there (R4.2.1, R4.2.2)
R_N = 8        # cards at the group, both sides
R_STAKE = 9    # VP swing of its next patrician (R10), majority part scaled by w[P_MAJ]
R_NEXT = 10    # P(its VoC card is the next one drawn)
R_SOON = 11    # P(it votes within the next few VoC draws)
R_MY = 12      # my influence there (all my cards, I know my face-down ones)
R_OPPV = 13    # her visible influence there
R_OPPFD = 14   # her face-down cards there
R_MYUP = 15    # my face-up cards there (what an assassination can hit)
R_GAIN = 16    # rows 16..21: gain of one of my cards of code c (0..5) on g, face-down, before costs
R_SC = 22      # scalars, row 22: see S_* below
R_MYPH = 23    # my philosophers there
R_OPPPH = 24   # her visible philosophers there
R_HID = 25     # P(she hides a philosopher among her face-down cards there); T[R_HID, 5]: per card
R_B1 = 26      # best value of a face-up card there (gain - cost), -1e9 if none
R_B1C = 27     # its card code
R_B2 = 28      # best value there of a card other than one copy of that code
R_SEC = 29     # R_SEC[c]: best value of a second face-up card after my card c (any group)
R_SECG = 30    # R_SECG[c]: the group of that best second card; R_SEC2 = R_SECG + 1: the best elsewhere
R_SEC2 = 31
R_COST = 32    # R_COST[c]: the cost of my card c face-down; row R_COST + 1: face-up (cards in my hand)
N_ROWS = 34    # (rows 29..33 use a column per card code: allocate N_ROWS x 6)
# scalars: T[R_SC, k]
S_MU = 0       # mean value of the opponent's unseen influence cards
S_PVETO = 1    # P(the opponent holds a veto now)
S_DECKMEAN = 2  # mean value of my own influence deck (I know its contents, not its order)
S_HANDINF = 3   # influence cards in my hand
S_GAINS = 4     # 1 once the R_GAIN rows are filled for this position (fill_gains), else 0
S_STALE = 5     # 1 + the one group whose gains are not (refill_groups refreshed its column); 0: none
KEPT_ROWS = R_HID + 1  # the rows fill_groups and fill_gains fill, kept from one decision to the next
KEPT = KEPT_ROWS * 6

# ---- parameter vector (the `weighted` family; every heuristic fills one) ----
P_VERSION = 0    # 1.0 marks a filled vector (an all-zero one means "the defaults")
P_NEXT = 1       # weight of the next VoC draw
P_SOON = 2       # weight of the next few VoC draws
P_LONG = 3       # weight of the patricians left at a group (lasting influence)
P_NOISE = 4      # spread (influence points) of her next placements before a later vote
P_MAJ = 5        # weight of majority, all and bonus in a group's stake (1 = their VP)
P_CARD = 6       # cost of each influence card placed (conserve cards)
P_UP = 7         # extra cost of each face-up card (seen, assassinable)
P_VALUE = 8      # cost per point of value placed (keep high cards)
P_PHIL = 9       # extra gain of a face-down philosopher where a reversal helps
P_TRIGGER = 10   # weight of an exceptional vote I trigger by filling a group (R4.3)
P_ACTION = 11    # multiplier of the gain of assassination, wrath, castling
P_ACT_COST = 12  # cost of spending an action card
P_SPY = 13       # value of a spy
P_SCOUT = 14     # value of scouting one of her face-down cards (times the group weight)
P_VETO = 15      # damage (in position value) that justifies a veto
P_PASSIVE = 16   # go passive when the best placement gains less than this and the hand can improve
P_FISH = 17      # discard an influence card this far below my deck's mean value
P_DRAW_INF = 18  # influence cards wanted in hand before drawing action cards
P_DRAW_ACT = 19  # value of the next action card that makes me draw it
P_PLACE_BIG = 20  # initial placement (R2.5): weight of a group's size
P_PLACE_BONUS = 21  # initial placement: weight of my bonus group
P_HIDDEN = 22    # how much I fear a hidden philosopher of hers (1 = card-counting odds)
P_MATERIAL = 23  # value per influence point removed from the table (wrath, assassination)
P_CASTLE = 24    # multiplier of castling's gain
P_HORIZON = 25   # VoC draws counted as "soon"
P_SAME = 26      # second face-up card on the same group: share of its gain kept
P_SPREAD = 27    # initial placement: extra weight of small groups (cheap majorities)
P_KNOB = 28      # 28..31: four knobs of a named heuristic's own twist (see its module); unused by `weighted`
N_PARAMS = 32

PARAM_NAMES = ("version", "next", "soon", "long", "noise", "majority", "card_cost", "up_cost", "value_cost",
               "philosopher", "trigger", "action", "action_cost", "spy", "scout", "veto", "passive", "fish",
               "draw_influence", "draw_action", "place_big", "place_bonus", "hidden_phil", "material",
               "castle", "horizon", "same_group", "place_small", "knob1", "knob2", "knob3", "knob4")
assert len(PARAM_NAMES) == N_PARAMS

# P(Bin(r, 1/2) >= k) for r < 11, k < 12: the chance to win k of r coin-flip votes
_BT = np.zeros((11, 12))
for _r in range(11):
    for _k in range(12):
        _BT[_r, _k] = sum(math.comb(_r, j) for j in range(_k, _r + 1)) / 2.0 ** _r if _k <= _r else 0.0
BINTAIL = _BT
HALF_POW = 0.5 ** np.arange(16.0)  # 0.5 ** r without pow()
VAL = np.array(CARD_VALUE, np.float64)  # card values as a constant array: a plain load in compiled code


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


# ---- the player's memory (``mem``, zero at game start) used by these features ----
# A patrician's stake is the costliest feature, and it changes only when a vote
# changes a group's patricians; a vote's spread depends only on her face-down
# cards there.  Both are kept in the player's memory from one decision to the next,
# with the inputs they were computed from, and reused only while those are all
# unchanged, so a decision is the same as with a fresh computation, bit for bit.
# The tables of a decision are kept for the next decision of the same turn, where they
# still hold: a MODE decision's for the first STEP of the active turn (R3, R4: the very
# same position), a STEP's that places a card for the next STEP, where only that card's
# group has changed (R4.2: a placement changes nothing elsewhere, unless it fills the
# group, whose vote, R4.3, then changes everything).
# mem[0:16] is left to the strategies themselves (counter keeps its spy record there).
M_STAKE_CTX = 16   # [7] me + 1, my bonus group and the rules' VP values the stakes assume
M_STAKE_KEY = 24   # [5*4] per group: patricians left, mine, hers, group size (0: nothing kept)
M_STAKE_F = 44     # [2*6] float64: the majority weight, then the stake of each group
M_INV_F = 56       # [2*33] float64: the noise2 of the next 32, then R_INV by her face-down cards (0: not yet)
M_TURN = 122       # the turn (PUB_TURN + 1) whose tables are kept; 0: none
M_KEPT_NP = 123    # the cards placed this turn (PUB_NPLACED) at the decision they are kept for
M_TURN_T = 124     # [2*KEPT] float64: rows 0 .. KEPT_ROWS - 1 of those tables
M_KEPT_G = 436     # the group my card went to since (-1: the position is the same)
M_KEPT_SIDE = 437  # my cards at that group once it is there (anything else: its vote came, R4.3)
M_END = 438        # first slot after the features' memory
assert M_END <= MEM_SIZE and M_TURN_T % 2 == 0 and M_TURN_T + 2 * KEPT <= M_END
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
        stake_context(pub, own, me, w[P_MAJ], mem)
        tot, mu, q = opp_unseen(pub, me)
        hid_q = q * w[P_HIDDEN]
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
        gn = pub[siden_at(g, 0)] + pub[siden_at(g, 1)]
        T[R_N, g] = gn
        T[R_MY, g] = my
        T[R_OPPV, g] = ov
        T[R_OPPFD, g] = ofd
        T[R_MYUP, g] = myup
        if pub[PUB_REMAIN + g] <= 0:
            T[R_W, g] = 0.0
            T[R_STAKE, g] = 0.0
            T[R_NEXT, g] = 0.0
            T[R_SOON, g] = 0.0
            T[R_ROOM, g] = 0.0
            T[R_E, g] = 0.0
            continue
        a = slim - pub[siden_at(g, me)]
        b = glim - gn
        r = a if a < b else b
        T[R_ROOM, g] = r if r > 0 else 0
        st = stake_kept(pub, own, me, g, w[P_MAJ], mem)
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
    t = code & 15
    if kind == STEP and (t == T_PLACE_DOWN or t == T_PLACE_UP):
        g = group_of((code >> 8) & 15)
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


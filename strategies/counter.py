"""`counter`: the card counter — tracks what is left in the opponent's hand and decks.

Every card she owns is known by kind (R1.4); her discard pile and her
face-up cards are public (R8.1), her hand and deck sizes too.  So the counter
knows exactly how many action cards her hand holds (drawn minus discarded)
and which ones she may still have, and the value mix of her unseen influence
cards (the core's estimate of her face-down cards).  On top of the core it

* remembers what its spy saw (R8.3) in its per-game memory ``mem``: the action
  cards left in her hand after its pick and her discard pile at that moment;
  an action card seen there and not discarded since is *known* to be in her
  hand, so P(she can veto) is 1 or comes from the unknown rest of her hand;
* scales her response (the spread of her next placements) by the influence
  cards she has left in hand and deck: when she is nearly out, it places just
  enough to win;
* prices face-up cards by P(she holds an assassination) (R7.1), from the same
  count, so it plays two cards face-up freely once her assassins are spent.

Memory layout (``mem``, int32, zero at game start): mem[0] = 1 once a spy
record is held; mem[1 + a] = her action cards of kind a (0..5 =
assassination..veto) left in her hand after my pick; mem[7 + a] = her discards
of that kind right after my pick.
"""
import math

from ccsim.toolchain.jit import njit

from ccsim.kernel.decisions import STEP, SPY_PICK, T_PLACE_UP
from ccsim.kernel.layout import (PUB_REMAIN, PUB_NPLACED, PUB_OUT, PUB_IDECKN, PUB_HANDN,
                          PR_SPY_SEEN, disc_at)
from ccsim.kernel.rules import ACTION_BASE, ASSASSINATION, VETO as VETO_CARD
from strategies.features import (new_tables_nb, refill_groups, kept_tables, keep_step_tables, opp_hand_actions, e_val,
                                 p_opp_holds, R_INV, R_OPPFD, R_E, R_D, R_PREV, R_SC, S_PVETO, P_NOISE)
from strategies.features import P_VERSION, P_KNOB
from strategies.weighted import light_policy, table_policy, params_with, prepare_step, option_score, choose_spy

NAME = "counter"
ID = 7  # its kernel id: stable (parameter vectors and dispatch hold it); unique among the strategies
FAMILY = "heuristic"
DESCRIPTION = "card counter: tracks her unseen cards from public discards, remembers what its spy saw"

W = DEFAULT_PARAMS = params_with(up_cost=0.0, hidden_phil=1.0,
                                 knob1=0.05, knob2=5.0)  # face-up fear, cards for a full response


@njit(cache=True)
def known_in_hand(pub, mem, me, card):
    """Her action cards ``card`` my spy saw and she has not discarded since (a sure lower bound)."""
    if mem[0] == 0:
        return 0
    a = card - ACTION_BASE
    k = mem[1 + a] - (pub[disc_at(1 - me, card)] - mem[7 + a])
    return k if k > 0 else 0


@njit(cache=True)
def p_holds(pub, mem, me, card):
    """P(her hand holds an action card ``card``): sure if my spy saw it; else the unknown rest of
    her hand drawn from her unseen action cards."""
    o = 1 - me
    if pub[PUB_OUT + o] != 0:
        return 0.0
    if known_in_hand(pub, mem, me, card) > 0:
        return 1.0
    k = opp_hand_actions(pub, me)
    known = 0
    for c in range(ACTION_BASE, ACTION_BASE + 6):
        known += known_in_hand(pub, mem, me, c)
    return p_opp_holds(pub, me, card, k - known)


@njit(cache=True)
def remember_spy(pub, own, mem, me, pick):
    o = 1 - me
    mem[0] = 1
    for a in range(6):
        c = ACTION_BASE + a
        mine = 1 if c == pick else 0
        mem[1 + a] = own[PR_SPY_SEEN + c] - mine
        mem[7 + a] = pub[disc_at(o, c)] + mine


@njit(cache=True)
def her_response(w, pub, me, T, lo, hi):
    """Shrink the spread of her next placements to the influence she has left (groups lo .. hi - 1)."""
    o = 1 - me
    hand_inf = pub[PUB_HANDN + o] - opp_hand_actions(pub, me)
    left = hand_inf + pub[PUB_IDECKN + o]
    f = left / w[P_KNOB + 1]
    if f > 1.0:
        f = 1.0
    if f < 0.0:
        f = 0.0
    noise2 = (w[P_NOISE] * f) ** 2
    for g in range(lo, hi):
        if pub[PUB_REMAIN + g] <= 0:
            continue
        T[R_INV, g] = 1.0 / math.sqrt(T[R_OPPFD, g] * 2.0 + noise2 + 0.25)
        T[R_E, g] = e_val(T[R_D, g], T[R_INV, g], T[R_PREV, g])


@njit(cache=True)
def counting_step(w, T, pub, own, mem, me, opts, n):
    placing = prepare_step(w, pub, own, T, opts, n)
    placed = pub[PUB_NPLACED]
    fear = w[P_KNOB] * p_holds(pub, mem, me, ASSASSINATION)
    best = 0
    bv = -1e18
    for i in range(n):
        code = opts[i]
        v = option_score(w, T, pub, own, me, code, placing)
        if (code & 15) == T_PLACE_UP:
            v -= fear * (2.0 if placed == 0 else 1.0)
        if v > bv:
            bv = v
            best = i
    return best


@njit(cache=True)
def counter_policy(w, kind, opts, n, pub, own, mem, me, rng):
    if kind == SPY_PICK:
        i = choose_spy(pub, own, me, opts, n)
        remember_spy(pub, own, mem, me, opts[i])
        return i
    i = light_policy(w, kind, opts, n, pub, own, mem, me)
    if i >= 0:
        return i
    T = new_tables_nb()
    lo, hi = kept_tables(kind, pub, mem, me, T)
    if lo < hi:  # the columns that this turn's last decision's tables do not give
        refill_groups(w, pub, own, mem, me, T, lo, hi)
        T[R_SC, S_PVETO] = p_holds(pub, mem, me, VETO_CARD)
        her_response(w, pub, me, T, lo, hi)
    if kind == STEP:
        i = counting_step(w, T, pub, own, mem, me, opts, n)
        keep_step_tables(kind, pub, mem, me, T, opts[i])
        return i
    return table_policy(w, T, kind, opts, n, pub, own, mem, me)


@njit(cache=True)
def choose_counter_nb(params, kind, opts, n, pub, own, mem, me, rng):
    if params[P_VERSION] == 1.0:  # a filled vector (resolve gives DEFAULT_PARAMS): experiments
        return counter_policy(params, kind, opts, n, pub, own, mem, me, rng)
    return counter_policy(W, kind, opts, n, pub, own, mem, me, rng)


CHOOSE = choose_counter_nb  # what the registry compiles into this strategy's entry

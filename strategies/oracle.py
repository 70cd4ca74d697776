"""`oracle`: the vote-odds player — which group votes next, and when.

The VoC deck (R4.5) is public in part: its size, the discard pile and the box
(R8.1).  A group whose card was already drawn cannot vote by card until the
reshuffle card comes; a group one or two cards short of its limit can be made
to vote by whoever fills it (R4.3).  The oracle weighs each group by

    stake x (3 P(it votes after my turn) + 1.5 P(it votes after hers) + P(soon) + long-term share)

where "after my turn" is my own VoC draw (or an exceptional vote I trigger,
counted in the gains), and "after hers" adds the exceptional votes she can
trigger: a group at 7 cards where she leads is almost sure to vote on her
turn, one at 6 cards likely.  It also refuses a bad draw: when the expected
outcome of my VoC draw after my best placement is clearly against me and a
passive discard would improve my hand, it stays passive (R5) and lets the
draw wait.
"""
from ccsim.toolchain.jit import njit

from ccsim.kernel.decisions import MODE
from ccsim.kernel.layout import PUB_RULES, PUB_VOC_DECKN, PUB_REMAIN
from ccsim.kernel.rules import N_GROUPS, RP_GROUP_SIZE, RP_GROUP_LIMIT, PHIL
from strategies.features import (new_tables_nb, refill_groups, kept_tables, keep_step_tables, keep_turn_tables,
                                 fill_gains, voc_card_in_deck, e_val, VAL, R_W, R_E, R_N, R_STAKE, R_NEXT, R_SOON, R_D, R_INV,
                                 R_PREV, R_PREVP, P_NEXT, P_SOON, P_LONG)
from strategies.features import P_VERSION, P_KNOB
from strategies.weighted import (light_policy, table_policy, params_with, best_single_placement, hand_can_improve,
                                 must_be_active)

NAME = "oracle"
ID = 6  # its kernel id: stable (parameter vectors and dispatch hold it); unique among the strategies
FAMILY = "heuristic"
DESCRIPTION = "vote-odds player: reads the VoC discard and box for who votes next, counts exceptional votes"

W = DEFAULT_PARAMS = params_with(next=3.0, soon=1.0, horizon=3.0, trigger=5.0, passive=0.0,
                                 knob1=1.5, knob2=1.0)  # vote after her turn, bad-draw threshold


@njit(cache=True)
def timing(w, pub, T, lo, hi):
    """Reweigh R_W of groups lo .. hi - 1 with the two coming VoC draws and the exceptional
    votes either of us can force."""
    n = pub[PUB_VOC_DECKN]
    if n <= 0:
        n = 1
    glim = pub[PUB_RULES + RP_GROUP_LIMIT]
    for g in range(lo, hi):
        if pub[PUB_REMAIN + g] <= 0:
            continue
        in_deck = voc_card_in_deck(pub, g)
        p_my = 1.0 / n if in_deck else 0.0
        p_her = p_my
        cnt = T[R_N, g]
        if cnt >= glim - 1:
            p_her = max(p_her, 0.8 if T[R_E, g] < 0.0 else 0.3)
        elif cnt == glim - 2:
            p_her = max(p_her, 0.35 if T[R_E, g] < 0.0 else 0.1)
        T[R_NEXT, g] = p_my
        frac = pub[PUB_REMAIN + g] / pub[PUB_RULES + RP_GROUP_SIZE + g]
        T[R_W, g] = T[R_STAKE, g] * (w[P_NEXT] * p_my + w[P_KNOB] * p_her + w[P_SOON] * T[R_SOON, g] + w[P_LONG] * frac)


@njit(cache=True)
def draw_outlook(w, T, own):
    """Expected VP outcome of my coming VoC draw after my best single face-down card."""
    _, bc, bg = best_single_placement(w, own, T)
    be = 0.0
    if bg >= 0:
        if bc == PHIL:
            be = e_val(T[R_D, bg], T[R_INV, bg], T[R_PREVP, bg])
        else:
            be = e_val(T[R_D, bg] + VAL[bc], T[R_INV, bg], T[R_PREV, bg])
    ev = 0.0
    for g in range(N_GROUPS):
        e = be if g == bg else T[R_E, g]
        ev += T[R_NEXT, g] * T[R_STAKE, g] * e
    return ev


@njit(cache=True)
def oracle_mode(w, T, pub, own, me):
    if must_be_active(pub, me):
        return 1
    if draw_outlook(w, T, own) < -w[P_KNOB + 1] and hand_can_improve(w, T, pub, own, me):
        return 0
    return 1


@njit(cache=True)
def oracle_policy(w, kind, opts, n, pub, own, mem, me, rng):
    i = light_policy(w, kind, opts, n, pub, own, mem, me)
    if i >= 0:
        return i
    T = new_tables_nb()
    lo, hi = kept_tables(kind, pub, mem, me, T)
    if lo < hi:  # the columns that this turn's last decision's tables do not give
        refill_groups(w, pub, own, mem, me, T, lo, hi)
        timing(w, pub, T, lo, hi)
    if kind == MODE:
        fill_gains(w, pub, own, T)
        keep_turn_tables(pub, mem, T)
        return n - 1 if oracle_mode(w, T, pub, own, me) == 1 else 0
    i = table_policy(w, T, kind, opts, n, pub, own, mem, me)
    keep_step_tables(kind, pub, mem, me, T, opts[i])
    return i


@njit(cache=True)
def choose_oracle_nb(params, kind, opts, n, pub, own, mem, me, rng):
    if params[P_VERSION] == 1.0:  # a filled vector (resolve gives DEFAULT_PARAMS): experiments
        return oracle_policy(params, kind, opts, n, pub, own, mem, me, rng)
    return oracle_policy(W, kind, opts, n, pub, own, mem, me, rng)


CHOOSE = choose_oracle_nb  # what the registry compiles into this strategy's entry

"""`defender`: the defensive player — protects its leads and spends few cards.

It plays one card face-down a turn unless two face-up cards clearly pay
(a face-up card costs 0.4, against about 0 for the other heuristics), weighs groups where it already leads 1.4
times (a lead kept is a patrician won) and groups it is clearly losing at
0.75 (no good cards after bad), vetoes readily, and keeps more influence in
hand before it draws action cards.  When no single card gains enough it goes
passive (R5) and discards its low cards to fish for fours and fives — never
two quiet turns in a row (R9.4).
"""
from ccsim.toolchain.jit import njit

from strategies.features import new_tables_nb, refill_groups, kept_tables, keep_step_tables, R_W, R_E
from strategies.features import P_VERSION, P_KNOB
from strategies.weighted import light_policy, table_policy, params_with

NAME = "defender"
ID = 8  # its kernel id: stable (parameter vectors and dispatch hold it); unique among the strategies
FAMILY = "heuristic"
DESCRIPTION = "defender: guards its leads, one face-down card unless two clearly pay, passive discards to fish"

W = DEFAULT_PARAMS = params_with(up_cost=0.4, card_cost=0.06, passive=0.02, fish=0.5, veto=0.15,
                                 draw_influence=3.0, draw_action=0.25, long=1.6, value_cost=0.0,
                                 knob1=1.4, knob2=0.75, knob3=0.1, knob4=-0.4)  # lead x, trail x, lead, trail


@njit(cache=True)
def guard(w, T, lo, hi):
    """Reweigh R_W of groups lo .. hi - 1: my leads up, the votes I trail down."""
    for g in range(lo, hi):
        if T[R_E, g] > w[P_KNOB + 2]:
            T[R_W, g] *= w[P_KNOB]
        elif T[R_E, g] < w[P_KNOB + 3]:
            T[R_W, g] *= w[P_KNOB + 1]


@njit(cache=True)
def defender_policy(w, kind, opts, n, pub, own, mem, me, rng):
    i = light_policy(w, kind, opts, n, pub, own, mem, me)
    if i >= 0:
        return i
    T = new_tables_nb()
    lo, hi = kept_tables(kind, pub, mem, me, T)
    if lo < hi:  # the columns that this turn's last decision's tables do not give
        refill_groups(w, pub, own, mem, me, T, lo, hi)
        guard(w, T, lo, hi)
    i = table_policy(w, T, kind, opts, n, pub, own, mem, me)
    keep_step_tables(kind, pub, mem, me, T, opts[i])
    return i


@njit(cache=True)
def choose_defender_nb(params, kind, opts, n, pub, own, mem, me, rng):
    if params[P_VERSION] == 1.0:  # a filled vector (resolve gives DEFAULT_PARAMS): experiments
        return defender_policy(params, kind, opts, n, pub, own, mem, me, rng)
    return defender_policy(W, kind, opts, n, pub, own, mem, me, rng)


CHOOSE = choose_defender_nb  # what the registry compiles into this strategy's entry

"""`majority`: the majority hunter — values each group by the VP at stake.

Groups are weighed by what their next patrician is worth to the final score
(R10): the patrician, the majority (R10.2), all of them (R10.3) and my bonus
(R10.4), with majority/all/bonus weighted three times as much as the plain
vote model does.  On top of that it *focuses*: a group whose majority is
still open between us counts up to 2.5 times, a group whose majority is
settled counts half (only its patrician is left to win), and my bonus group
counts extra while the bonus is within reach.  Its initial placement (R2.5)
puts the high cards on the small groups (2 of 3 is a majority) and on the
bonus group.  Everything else is the weighted core.
"""
from ccsim.toolchain.jit import njit

from ccsim.kernel.layout import (PUB_RULES, PR_BONUS, won_at)
from ccsim.kernel.rules import RP_GROUP_SIZE, RP_BONUS_THRESHOLD
from ccsim.kernel.layout import PUB_REMAIN
from strategies.features import new_tables_nb, refill_groups, kept_tables, keep_step_tables, tail, R_W
from strategies.features import P_VERSION, P_KNOB
from strategies.weighted import light_policy, table_policy, params_with

NAME = "majority"
ID = 3  # its kernel id: stable (parameter vectors and dispatch hold it); unique among the strategies
FAMILY = "heuristic"
DESCRIPTION = "majority hunter: weighs groups by VP at stake (majority, all, own bonus), focuses on open majorities"

W = DEFAULT_PARAMS = params_with(majority=3.0, long=1.6, place_big=0.0, place_bonus=6.0, place_small=8.0,
                                 knob1=1.8, knob2=0.5, knob3=0.5)  # focus, settled, bonus


@njit(cache=True)
def focus(w, pub, own, me, T, lo, hi):
    """Reweigh R_W of groups lo .. hi - 1: open majorities up, settled ones down, the reachable
    bonus up."""
    bt = pub[PUB_RULES + RP_BONUS_THRESHOLD]
    for g in range(lo, hi):
        if T[R_W, g] <= 0.0:
            continue
        size = pub[PUB_RULES + RP_GROUP_SIZE + g]
        thr = size // 2 + 1
        wm = pub[won_at(me, g)]
        wo = pub[won_at(1 - me, g)]
        r = pub[PUB_REMAIN + g]
        if wm >= thr or wo >= thr:
            f = w[P_KNOB + 1]
        else:
            pm = tail(r, thr - wm)
            po = tail(r, thr - wo)
            f = 0.7 + w[P_KNOB] * 4.0 * pm * po if pm > 0.0 else 0.8  # open race: up; lost race: deny only
        if own[PR_BONUS] == g and wm < bt <= wm + r:
            f += w[P_KNOB + 2]
        T[R_W, g] *= f


@njit(cache=True)
def majority_policy(w, kind, opts, n, pub, own, mem, me, rng):
    i = light_policy(w, kind, opts, n, pub, own, mem, me)
    if i >= 0:
        return i
    T = new_tables_nb()
    lo, hi = kept_tables(kind, pub, mem, me, T)
    if lo < hi:  # the columns that this turn's last decision's tables do not give
        refill_groups(w, pub, own, mem, me, T, lo, hi)
        focus(w, pub, own, me, T, lo, hi)
    i = table_policy(w, T, kind, opts, n, pub, own, mem, me)
    keep_step_tables(kind, pub, mem, me, T, opts[i])
    return i


@njit(cache=True)
def choose_majority_nb(params, kind, opts, n, pub, own, mem, me, rng):
    if params[P_VERSION] == 1.0:  # a filled vector (resolve gives DEFAULT_PARAMS): experiments
        return majority_policy(params, kind, opts, n, pub, own, mem, me, rng)
    return majority_policy(W, kind, opts, n, pub, own, mem, me, rng)


CHOOSE = choose_majority_nb  # what the registry compiles into this strategy's entry

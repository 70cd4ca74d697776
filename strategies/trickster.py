"""`trickster`: the philosopher player — sets up reversals and springs them.

Philosophers reverse a vote when the two sides hold different numbers of them
(R6.3), so a face-down philosopher on a group where I am *behind* turns the
vote my way, and the opponent cannot see it.  The trickster

* rewards a face-down philosopher (``philosopher`` weight) and hardly fears
  one of hers (it counts her unseen philosophers at a quarter of their odds);
* *springs* a set trap: a group where my philosophers outnumber hers while I
  am the smaller side weighs 1.6 times, so it fills such a group to 8 cards
  for an immediate vote (R4.3, ``trigger`` x1.5) and adds only low cards there
  (a larger sum would lose a reversed vote);
* breaks her traps: a group where her visible philosophers outnumber mine
  weighs 1.3 times (a philosopher of mine cancels hers, an assassination of
  her philosopher too, R7.1);
* never shows a philosopher if it can help it (a face-up one costs ``knob3``),
  never discards one, and when spying takes hers first.
"""
from ccsim.toolchain.jit import njit

from ccsim.kernel.decisions import SPY_PICK, STEP, T_PLACE_UP
from ccsim.kernel.rules import PHIL
from strategies.features import new_tables_nb, refill_groups, kept_tables, keep_step_tables, R_W, R_D, R_MYPH, R_OPPPH
from strategies.features import P_VERSION, P_KNOB
from strategies.weighted import light_policy, table_policy, params_with, prepare_step, option_score

NAME = "trickster"
ID = 4  # its kernel id: stable (parameter vectors and dispatch hold it); unique among the strategies
FAMILY = "heuristic"
DESCRIPTION = "philosopher trickster: hides philosophers where it trails, then springs the reversed vote"

W = DEFAULT_PARAMS = params_with(philosopher=0.12, hidden_phil=0.25, trigger=6.0, fish=1.5,
                                 knob1=1.6, knob2=1.3, knob3=0.5)  # spring, break, cost of a philosopher shown


@njit(cache=True)
def traps(w, T, lo, hi):
    """Reweigh R_W of groups lo .. hi - 1: my set traps (spring them), her visible traps
    (break them)."""
    for g in range(lo, hi):
        if T[R_W, g] <= 0.0:
            continue
        if T[R_MYPH, g] > T[R_OPPPH, g] and T[R_D, g] < 0.0:
            T[R_W, g] *= w[P_KNOB]
        elif T[R_OPPPH, g] > T[R_MYPH, g]:
            T[R_W, g] *= w[P_KNOB + 1]


@njit(cache=True)
def trick_step(w, T, pub, own, me, opts, n):
    """The core's step, except that a philosopher goes face-down: one shown face-up is a trap
    sprung too early (she sees the reversal coming and answers it)."""
    placing = prepare_step(w, pub, own, T, opts, n)
    best = 0
    bv = -1e18
    for i in range(n):
        code = opts[i]
        v = option_score(w, T, pub, own, me, code, placing)
        if (code & 15) == T_PLACE_UP and ((code >> 4) & 15) == PHIL:
            v -= w[P_KNOB + 2]
        if v > bv:
            bv = v
            best = i
    return best


@njit(cache=True)
def trickster_policy(w, kind, opts, n, pub, own, mem, me, rng):
    if kind == SPY_PICK:
        for i in range(n):
            if opts[i] == PHIL:
                return i
    i = light_policy(w, kind, opts, n, pub, own, mem, me)
    if i >= 0:
        return i
    T = new_tables_nb()
    lo, hi = kept_tables(kind, pub, mem, me, T)
    if lo < hi:  # the columns that this turn's last decision's tables do not give
        refill_groups(w, pub, own, mem, me, T, lo, hi)
        traps(w, T, lo, hi)
    if kind == STEP:
        i = trick_step(w, T, pub, own, me, opts, n)
        keep_step_tables(kind, pub, mem, me, T, opts[i])
        return i
    return table_policy(w, T, kind, opts, n, pub, own, mem, me)


@njit(cache=True)
def choose_trickster_nb(params, kind, opts, n, pub, own, mem, me, rng):
    if params[P_VERSION] == 1.0:  # a filled vector (resolve gives DEFAULT_PARAMS): experiments
        return trickster_policy(params, kind, opts, n, pub, own, mem, me, rng)
    return trickster_policy(W, kind, opts, n, pub, own, mem, me, rng)


CHOOSE = choose_trickster_nb  # what the registry compiles into this strategy's entry

"""`tactician`: the action-card player.

It plays assassination (R7.1), wrath (R7.5), castling (R7.3) and scout (R7.4)
whenever their evaluated gain on the position beats a placement — weighting
action gains 1.5 times the core's, castling 4 times — and draws action cards
as soon as its hand holds two influence cards.  Combinations: a scout is worth
three times as much while it holds an assassination (scout a face-down card,
then kill it).  Vetoes (R7.6) are kept for the opponent's most damaging
actions: it vetoes only when the damage of the card just played, at the
target she announced, is at least 70% of the worst damage an action she may
still hold could do (her unplayed
wrath and assassinations, counted from her public discard pile), and never
less than its threshold.
"""
from ccsim.toolchain.jit import njit

from ccsim.kernel.decisions import STEP, VETO, T_ACTION
from ccsim.kernel.layout import (PUB_ACTION, PR_HAND, action_count_at, disc_at)
from ccsim.kernel.rules import ASSASSINATION, SCOUT, WRATH, SPY, CASTLING, VETO as VETO_CARD, ACTION_BASE
from strategies.features import (new_tables_nb, fill_groups, refill_groups, kept_tables, keep_step_tables, P_VETO,
                                 P_SCOUT, R_OPPFD, R_W, R_SC, S_PVETO)
from strategies.features import P_VERSION, P_KNOB
from strategies.weighted import (light_policy, table_policy, params_with, prepare_step, option_score, veto_damage,
                                 announced_damage)

NAME = "tactician"
ID = 5  # its kernel id: stable (parameter vectors and dispatch hold it); unique among the strategies
FAMILY = "heuristic"
DESCRIPTION = "action tactician: plays assassination/wrath/castling/scout by evaluated gain, saves vetoes for the worst"

W = DEFAULT_PARAMS = params_with(action=1.5, castle=4.0, scout=0.3, spy=0.25, material=0.03, veto=0.3,
                                 knob1=2.0, knob2=0.7)  # scout-assassin combo, share of the worst threat


@njit(cache=True)
def tactical_score(w, T, pub, own, me, code, placing, combo):
    """The score of one STEP option: the core's, a scout worth more while an assassination waits."""
    v = option_score(w, T, pub, own, me, code, placing)
    if combo and (code & 15) == T_ACTION and ((code >> 4) & 15) == SCOUT:
        g = (code >> 8) & 15
        v += w[P_KNOB] * w[P_SCOUT] * T[R_OPPFD, g] * T[R_W, g] * (1.0 - T[R_SC, S_PVETO])
    return v


@njit(cache=True)
def step_scores(w, pub, own, mem, me, opts, n, out):
    """Every STEP option's score into ``out`` (what tactical_step maximises): the search
    player's prior (strategies.expert)."""
    T = new_tables_nb()
    fill_groups(w, pub, own, mem, me, T)
    placing = prepare_step(w, pub, own, T, opts, n)
    combo = own[PR_HAND + ASSASSINATION] > 0
    for i in range(n):
        out[i] = tactical_score(w, T, pub, own, me, opts[i], placing, combo)


@njit(cache=True)
def tactical_step(w, T, pub, own, me, opts, n):
    placing = prepare_step(w, pub, own, T, opts, n)
    combo = own[PR_HAND + ASSASSINATION] > 0
    best = 0
    bv = -1e18
    for i in range(n):
        v = tactical_score(w, T, pub, own, me, opts[i], placing, combo)
        if v > bv:
            bv = v
            best = i
    return best


@njit(cache=True)
def still_held(pub, me, card):
    """How many of her action cards ``card`` are not in her discard pile yet (hand or deck)."""
    return pub[action_count_at(1 - me, card - ACTION_BASE)] - pub[disc_at(1 - me, card)]


@njit(cache=True)
def tactical_veto(w, T, pub, own, me):
    card = pub[PUB_ACTION]
    dmg = announced_damage(w, T, pub, own, me)
    worst = dmg
    for a in (WRATH, ASSASSINATION, CASTLING, SPY):
        if a != card and still_held(pub, me, a) > 0:
            d = veto_damage(w, T, pub, own, me, a)
            if d > worst:
                worst = d
    thr = w[P_KNOB + 1] * worst
    if thr < w[P_VETO]:
        thr = w[P_VETO]
    if own[PR_HAND + VETO_CARD] >= 2:
        thr *= 0.7
    return 1 if dmg >= thr else 0


@njit(cache=True)
def tactician_policy(w, kind, opts, n, pub, own, mem, me, rng):
    i = light_policy(w, kind, opts, n, pub, own, mem, me)
    if i >= 0:
        return i
    T = new_tables_nb()
    lo, hi = kept_tables(kind, pub, mem, me, T)
    if lo < hi:  # the columns that this turn's last decision's tables do not give
        refill_groups(w, pub, own, mem, me, T, lo, hi)
    if kind == STEP:
        i = tactical_step(w, T, pub, own, me, opts, n)
        keep_step_tables(kind, pub, mem, me, T, opts[i])
        return i
    if kind == VETO:
        return n - 1 if tactical_veto(w, T, pub, own, me) == 1 else 0
    return table_policy(w, T, kind, opts, n, pub, own, mem, me)


@njit(cache=True)
def choose_tactician_nb(params, kind, opts, n, pub, own, mem, me, rng):
    if params[P_VERSION] == 1.0:  # a filled vector (resolve gives DEFAULT_PARAMS): experiments
        return tactician_policy(params, kind, opts, n, pub, own, mem, me, rng)
    return tactician_policy(W, kind, opts, n, pub, own, mem, me, rng)


CHOOSE = choose_tactician_nb  # what the registry compiles into this strategy's entry

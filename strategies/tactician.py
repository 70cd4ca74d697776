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
from ccsim.jit import njit

from ccsim.decisions import STEP, VETO, T_ACTION
from ccsim.layout import PUB_ACTION, PUB_DISC, PUB_ACTION_COUNT, PR_HAND
from ccsim.rules import ASSASSINATION, SCOUT, WRATH, SPY, CASTLING, VETO as VETO_CARD, ACTION_BASE
from strategies.features import new_tables_nb, fill_groups, kept_turn_tables, P_VETO, P_SCOUT, R_OPPFD, R_W, R_SC, S_PVETO
from strategies.features import P_VERSION, P_KNOB
from strategies.weighted import (light_policy, table_policy, params_with, prepare_step, option_score, veto_damage,
                                 announced_damage)

NAME = "tactician"
FAMILY = "heuristic"
DESCRIPTION = "action tactician: plays assassination/wrath/castling/scout by evaluated gain, saves vetoes for the worst"

W = DEFAULT_PARAMS = params_with(action=1.5, castle=4.0, scout=0.3, spy=0.25, material=0.03, veto=0.3,
                                 knob1=2.0, knob2=0.7)  # scout-assassin combo, share of the worst threat


@njit(cache=True)
def tactical_step(w, T, pub, own, me, opts, n):
    placing = prepare_step(w, pub, own, T, opts, n)
    combo = own[PR_HAND + ASSASSINATION] > 0
    best = 0
    bv = -1e18
    for i in range(n):
        code = opts[i]
        v = option_score(w, T, pub, own, me, code, placing)
        if combo and (code & 15) == T_ACTION and ((code >> 4) & 15) == SCOUT:
            g = (code >> 8) & 15
            v += w[P_KNOB] * w[P_SCOUT] * T[R_OPPFD, g] * T[R_W, g] * (1.0 - T[R_SC, S_PVETO])
        if v > bv:
            bv = v
            best = i
    return best


@njit(cache=True)
def still_held(pub, me, card):
    """How many of her action cards ``card`` are not in her discard pile yet (hand or deck)."""
    return pub[PUB_ACTION_COUNT + (1 - me) * 6 + card - ACTION_BASE] - pub[PUB_DISC + (1 - me) * 12 + card]


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
    if not kept_turn_tables(kind, pub, mem, T):  # this turn's MODE decision made them
        fill_groups(w, pub, own, mem, me, T)
    if kind == STEP:
        return tactical_step(w, T, pub, own, me, opts, n)
    if kind == VETO:
        return n - 1 if tactical_veto(w, T, pub, own, me) == 1 else 0
    return table_policy(w, T, kind, opts, n, pub, own, mem, me)


@njit(cache=True)
def choose_tactician_nb(params, kind, opts, n, pub, own, mem, me, rng):
    if params[P_VERSION] == 1.0:  # a filled vector (resolve gives DEFAULT_PARAMS): experiments
        return tactician_policy(params, kind, opts, n, pub, own, mem, me, rng)
    return tactician_policy(W, kind, opts, n, pub, own, mem, me, rng)

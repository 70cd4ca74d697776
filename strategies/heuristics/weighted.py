"""`weighted`: the one policy of the heuristic family; its weights and switches are data.

Every heuristic plays this skeleton (``policy_nb``): the light decisions first (draw, spy,
placement, mode when it is forced, discards), then the group tables of ``strategies.heuristics.tables``
(kept from this turn's last decision where they hold, refilled where not), then the decision
from the tables, scored by ``strategies.heuristics.scoring``.  A parameter vector ``w`` (``layouts.P_*``,
names in ``layouts.PARAM_NAMES``) holds the weights, and five switches
(``layouts.SWITCH_NAMES``) that turn on the *twists* of ``strategies.heuristics.twists``, a style's own
ideas at fixed places of the skeleton.

So a strategy of this family is a TOML file in ``strategies/params``:

* ``family = "weighted"`` (the default): weights only, registered as ``weighted-<stem>``;
* ``family = "heuristic"``: a *style* with a name, an id, weights and switches
  (``majority``, ``trickster``, ``tactician``, ``oracle``, ``counter``, ``defender``), registered
  under its file's stem.

``weighted`` itself plays the seat's parameter vector (``registry.resolve`` fills it; the
`balanced` weights by default).
"""
import numpy as np
from ccsim.toolchain.jit import njit, stack_array

from ccsim.kernel.decisions import (PLACEMENT, MODE, STEP, VETO, SPY_PICK, CASTLE, DRAW, VETO_DRAW, DISCARD, PERMS,
                                    DRAW_INFLUENCE, DRAW_ACTION)
from ccsim.kernel.layout import (PUB_RULES, PUB_CTX_CARD, PUB_CTX_G1, PUB_CTX_G2, PUB_ADECKN, PUB_REMAIN,
                                 PR_HAND, PR_BONUS, PR_ADECK, PR_ADECK_TOP, fdn_at, siden_at)
from ccsim.kernel.rules import ASSASSINATION, SPY, CASTLING, WRATH, VETO as VETO_CARD, N_GROUPS, RP_GROUP_SIZE
from strategies.heuristics.layouts import (PARAM_NAMES, N_PARAMS, P_PASSIVE, P_VETO, P_DRAW_INFLUENCE, P_DRAW_ACTION,
                                P_PLACE_BIG, P_PLACE_BONUS, P_PLACE_SMALL)
from strategies.heuristics.tables import (new_tables_nb, fill_groups, fill_gains, keep_turn_tables, kept_tables,
                               keep_step_tables, refill_groups)
from strategies.heuristics.scoring import (best_step, prepare_step, best_single, hand_can_improve, must_be_active,
                                announced_damage, castle_plan, best_discard, fill_light, can_place_any)
from strategies.heuristics.twists import (reweigh_groups, step_context, twisted_score, worst_threat_veto, outlook_mode,
                               spy_choice, S_STEP, S_VETO, S_MODE, WORST_THREAT, OUTLOOK)

NAME = "weighted"
ID = 2  # its kernel id: stable (parameter vectors and dispatch hold it); unique among the strategies
FAMILY = "weighted"
DESCRIPTION = "parametric: scores every option by weighted features; weights from a TOML file (default: balanced)"

# the `balanced` weights (strategies/params/balanced.toml holds the same); also what an
# all-zero parameter vector falls back to
BALANCED_WEIGHTS = {  # by name: strategies.heuristics.layouts.PARAM_TABLE gives each its slot and meaning
    "version": 1.0,
    "next": 2.0,
    "soon": 2.0,
    "long": 1.2,
    "noise": 2.0,
    "majority": 1.5,
    "card_cost": 0.03,
    "up_cost": 0.0,
    "value_cost": 0.005,
    "philosopher": 0.0,
    "trigger": 4.0,
    "action": 1.0,
    "action_cost": 0.0,
    "spy": 0.05,
    "scout": 0.2,
    "veto": 0.5,
    "passive": -1.0,
    "fish": 1.0,
    "draw_influence": 2.0,
    "draw_action": 0.2,
    "place_big": 0.25,
    "place_bonus": 2.0,
    "hidden_phil": 0.5,
    "material": 0.01,
    "castle": 3.0,
    "horizon": 5.0,
    "same_group": 0.7,
    "place_small": 0.0,
    # the twists' own weights: the values of the style each comes from
    "guard_lead": 1.4,
    "guard_trail": 0.75,
    "guard_lead_margin": 0.1,
    "guard_trail_margin": -0.4,
    "focus_open": 1.8,
    "focus_settled": 0.5,
    "focus_bonus": 0.5,
    "trap_spring": 1.6,
    "trap_break": 1.3,
    "shown_philosopher": 0.5,
    "her_turn": 1.5,
    "bad_draw": 1.0,
    "combo": 2.0,
    "threat_share": 0.7,
    "face_up_fear": 0.05,
    "response_cards": 5.0,
}
assert set(BALANCED_WEIGHTS) == set(PARAM_NAMES), "name every weight of strategies.heuristics.layouts.PARAM_TABLE"


def _vector(weights: dict) -> np.ndarray:
    """The parameter vector of every weight by name; the switches 0 (no twist)."""
    v = np.zeros(N_PARAMS, np.float64)
    for name, x in weights.items():
        v[PARAM_NAMES.index(name)] = x
    return v


BALANCED = _vector(BALANCED_WEIGHTS)
DEFAULT_PARAMS = BALANCED


# ------------------------------------------------------------------ decisions
@njit(cache=True)
def choose_mode(w, T, pub, own, me):
    """1 active / 0 passive (R3)."""
    if must_be_active(pub, me):
        return 1
    best = best_single(w, own, T)
    if best < w[P_PASSIVE] and hand_can_improve(w, T, pub, own, me):
        return 0
    return 1


@njit(cache=True)
def choose_veto(w, T, pub, own, me):
    dmg = announced_damage(w, T, pub, own, me)
    thr = w[P_VETO]
    if own[PR_HAND + VETO_CARD] >= 2:
        thr *= 0.6
    return 1 if dmg >= thr else 0


@njit(cache=True)
def action_card_value(pub, me, a):
    """A rough worth (0..1) of holding my action card a now."""
    o = 1 - me
    if a == ASSASSINATION:
        for g in range(N_GROUPS):
            if pub[PUB_REMAIN + g] > 0 and pub[siden_at(g, o)] > pub[fdn_at(g, o)]:
                return 1.0
        return 0.5
    if a == WRATH:
        return 1.0
    if a == VETO_CARD:
        return 0.7
    if a == SPY:
        return 0.6
    if a == CASTLING:
        return 0.4
    return 0.3


@njit(cache=True)
def choose_draw(w, pub, own, me, opts, n):
    """Which deck (R4.4, R7.2, R7.6): I know my own action deck's order (R2.7)."""
    hinf = 0
    for c in range(6):
        hinf += own[PR_HAND + c]
    want = DRAW_INFLUENCE
    if hinf >= w[P_DRAW_INFLUENCE] and pub[PUB_ADECKN + me] > 0:
        a = own[PR_ADECK + own[PR_ADECK_TOP]]
        if action_card_value(pub, me, a) >= w[P_DRAW_ACTION]:
            want = DRAW_ACTION
    for i in range(n):
        if opts[i] == want:
            return i
    return n - 1  # the other deck; 'none' (option 0 of VETO_DRAW) only if nothing else


group_weights_nb = stack_array(np.float64, (N_GROUPS,), zeroed=False)


@njit(cache=True)
def choose_placement(w, pub, own, n):
    """R2.5: my cards 1..5 face-down, the high ones where the weight is largest."""
    wg = group_weights_nb()  # a group's weight, once (not once per permutation)
    b = own[PR_BONUS]
    for g in range(N_GROUPS):
        size = pub[PUB_RULES + RP_GROUP_SIZE + g]
        wg[g] = w[P_PLACE_BIG] * size + w[P_PLACE_SMALL] / size + (w[P_PLACE_BONUS] if b == g else 0.0) + 0.01 * g
    best = 0
    bv = -1e18
    for i in range(n):
        v = 0.0
        for g in range(N_GROUPS):
            v += wg[g] * (PERMS[i, g] + 1)
        if v > bv:
            bv = v
            best = i
    return best


@njit(cache=True)
def castle_choice(w, T, pub, own, me, opts, n):
    """CASTLE: how many cards of value PUB_CTX_CARD go back on the first group (R7.3)."""
    g1 = pub[PUB_CTX_G1]
    g2 = pub[PUB_CTX_G2]
    c = pub[PUB_CTX_CARD]
    if g1 < 0 or g2 < 0 or c < 0:
        return 0
    _, k = castle_plan(w, T, pub, own, me, g1, g2, c)
    i = k - opts[0]
    if i < 0:
        i = 0
    if i > n - 1:
        i = n - 1
    return i


# ------------------------------------------------------------------ policy ---
@njit(cache=True)
def light_policy(w, kind, opts, n, pub, own, mem, me):
    """The decisions that need no group tables; -1 for the others."""
    if kind == DRAW or kind == VETO_DRAW:
        return choose_draw(w, pub, own, me, opts, n)
    if kind == SPY_PICK:
        return spy_choice(w, pub, own, mem, me, opts, n)
    if kind == PLACEMENT:
        return choose_placement(w, pub, own, n)
    if kind == MODE and (w[P_PASSIVE] < -0.5 or must_be_active(pub, me)):
        return n - 1  # never passive by choice, or not allowed to be
    if kind == DISCARD:
        T = new_tables_nb()
        fill_light(pub, own, me, T)
        return best_discard(w, T, pub, own, me, opts, n, can_place_any(pub, own, me))
    return -1


@njit(cache=True)
def twisted_step(w, T, pub, own, mem, me, opts, n):
    """STEP with the style's `step` twist: the best option by ``twists.twisted_score``."""
    placing = prepare_step(w, pub, own, T, opts, n)
    k = step_context(w, pub, own, mem, me)
    best = 0
    bv = -1e18
    for i in range(n):
        v = twisted_score(w, T, pub, own, me, opts[i], placing, k)
        if v > bv:
            bv = v
            best = i
    return best


@njit(cache=True)
def step_scores(w, pub, own, mem, me, opts, n, out):
    """Every STEP option's score into ``out``, from freshly filled tables (what a `step`-twisted
    STEP maximises): the search player's prior (strategies.search.expert)."""
    T = new_tables_nb()
    fill_groups(w, pub, own, mem, me, T)
    placing = prepare_step(w, pub, own, T, opts, n)
    k = step_context(w, pub, own, mem, me)
    for i in range(n):
        out[i] = twisted_score(w, T, pub, own, me, opts[i], placing, k)


@njit(cache=True)
def table_policy(w, T, kind, opts, n, pub, own, mem, me):
    """STEP, MODE, VETO and CASTLE from T as ``fill_groups`` left it (the gains are
    filled here, only where a decision needs them), each with the style's twist if it has one.
    A MODE decision's tables are kept for the turn's first STEP (features.kept_tables)."""
    if kind == STEP:
        if w[S_STEP] != 0.0:
            return twisted_step(w, T, pub, own, mem, me, opts, n)
        return best_step(w, T, pub, own, me, opts, n)
    if kind == MODE:
        fill_gains(w, pub, own, T)
        keep_turn_tables(pub, mem, T)
        if int(w[S_MODE]) == OUTLOOK:
            return n - 1 if outlook_mode(w, T, pub, own, me) == 1 else 0
        return n - 1 if choose_mode(w, T, pub, own, me) == 1 else 0
    if kind == VETO:
        if int(w[S_VETO]) == WORST_THREAT:
            return n - 1 if worst_threat_veto(w, T, pub, own, me) == 1 else 0
        return n - 1 if choose_veto(w, T, pub, own, me) == 1 else 0
    if kind == CASTLE:
        return castle_choice(w, T, pub, own, me, opts, n)
    return 0


@njit(cache=True)
def policy_nb(w, kind, opts, n, pub, own, mem, me, rng):
    """The whole policy for parameter vector w: every heuristic's skeleton."""
    i = light_policy(w, kind, opts, n, pub, own, mem, me)
    if i >= 0:
        return i
    T = new_tables_nb()
    lo, hi = kept_tables(kind, pub, mem, me, T)
    if lo < hi:  # the columns that this turn's last decision's tables do not give
        refill_groups(w, pub, own, mem, me, T, lo, hi)
        reweigh_groups(w, pub, own, mem, me, T, lo, hi)
    i = table_policy(w, T, kind, opts, n, pub, own, mem, me)
    keep_step_tables(kind, pub, mem, me, T, opts[i])
    return i


def params_with(**weights) -> np.ndarray:
    """The balanced vector with some weights changed, by name (layouts.PARAM_NAMES)."""
    v = BALANCED.copy()
    for k, x in weights.items():
        v[PARAM_NAMES.index(k)] = x
    return v


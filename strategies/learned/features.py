"""The learned player's features: each decision kind's columns by name (slots), the model's blocks of weights,
and the compiled features of an option (``decision_features_nb``), read off the heuristics' group tables.

The training reads an option's features through the same function (on a copy of the player's memory), so what
it learns from is what plays."""
import numpy as np

from ccsim.kernel import slots
from ccsim.kernel.decisions import (MODE, STEP, VETO, SPY_PICK, DRAW, VETO_DRAW, T_PLACE_DOWN, T_PLACE_UP, T_END,
                                    DRAW_NONE, DRAW_INFLUENCE, DRAW_ACTION, step_card, step_group, step_type)
from ccsim.kernel.layout import (MAX_PARAMS, P_ENTRY, PUB_NPLACED, PUB_ACTION, PUB_HANDN, PUB_REMAIN,
                                 PUB_RULES, PUB_VOC_DECKN, PR_HAND, PR_ADECK, PR_ADECK_TOP,
                                 PUB_ADECKN)
from ccsim.kernel.rules import (ASSASSINATION, SPY, CASTLING, SCOUT, WRATH, VETO as VETO_CARD, PHIL, N_GROUPS,
                                ACTION_BASE, RP_GROUP_SIZE, RP_GROUP_LIMIT, RP_HAND_SIZE)
from ccsim.toolchain.jit import njit
from strategies.heuristics.features import VAL, opp_hand_actions, p_opp_holds
from strategies.heuristics.layouts import P_PASSIVE, R_GAIN, R_W, R_E, R_D, R_NEXT, R_N, R_ROOM, R_SC, S_PVETO, S_DECKMEAN
from strategies.heuristics.styles import style_vector
from strategies.heuristics.scoring import (announced_damage, veto_damage, best_single_placement, hand_can_improve,
                                prepare_step, choose_spy)
from strategies.heuristics.tables import fill_gains, keep_turn_tables, kept_tables, refill_groups
from strategies.heuristics.twists import reweigh_groups, step_context, twisted_score, worst_threat_veto, still_held
from strategies.heuristics.weighted import choose_mode, choose_draw, action_card_value


# the tables the features are read from: `tactician`'s weights (frozen into the compiled code)
BASE = style_vector("tactician")

# ---- the features of each decision kind: (name, meaning); an option's vector, in this order ----
STEP_FEATURES = (
    ("score", "the tactician's score of the option / 4, clipped to +-16"),
    ("blocked", "1 where the tactician rules the option out (castling before the placements are done)"),
    ("end", "ending the turn"),
    ("place_down", "a card face-down (R4.2)"),
    ("place_up", "a card face-up (R4.2)"),
    ("assassination", "playing an assassination (R7.1)"),
    ("spy", "playing a spy (R7.2)"),
    ("castling", "playing a castling (R7.3)"),
    ("scout", "playing a scout (R7.4)"),
    ("wrath", "playing a wrath (R7.5)"),
    ("gain", "a placement: the card's gain on its group, clipped to +-4"),
    ("value", "a placement: the card's value / 5"),
    ("philosopher", "a placement of a philosopher"),
    ("weight", "the target group's weight W (stake x timing), clipped to 0..4"),
    ("vote", "the target group's E: P(I win its vote) - P(she wins)"),
    ("margin", "the target group's D / 5 (my influence minus hers expected), clipped to +-2"),
    ("next", "P(the target group's VoC card is the next one drawn)"),
    ("fills", "a placement that fills its group: an exceptional vote now (R4.3)"),
    ("end_placed", "ending the turn x cards placed this turn"),
    ("end_hand", "ending the turn x influence cards in hand / 5"),
    ("end_best", "ending the turn x the best placement's score / 4 (clipped to +-16)"),
    ("action_veto", "an action x P(she holds a veto)"),
    ("action_late", "an action x the share of patricians already won"),
    ("up_fear", "a face-up card x P(she holds an assassination)"),
    ("last_room", "a placement into my last free place at that group (R4.2.1)"),
    ("lead", "a placement on a group whose vote I lead (E > 0)"),
    ("tactician", "1 on the tactician's pick (the first of its best scores)"),
)
MODE_FEATURES = (  # on the passive option (the active one scores 0)
    ("bias", "going passive (R3)"),
    ("best_single", "the best single face-down placement's score, clipped to +-4"),
    ("can_improve", "1 if a passive discard would improve my hand (R5.1)"),
    ("hand_influence", "influence cards in hand / 5"),
    ("hand_full", "cards in hand / hand size"),
    ("deck_mean", "mean value of my influence deck / 5"),
    ("my_actions", "action cards in my hand / 3"),
    ("her_hand", "cards in her hand / 5"),
    ("voc_left", "cards left in the VoC deck / 10"),
    ("progress", "the share of patricians already won"),
    ("tactician", "1 if the tactician goes passive"),
)
VETO_FEATURES = (  # on the veto option (not vetoing scores 0)
    ("bias", "vetoing (R7.6)"),
    ("damage", "what her card does to me at the announced target, clipped to 0..4"),
    ("worst", "the worst an action card she may still hold could do, clipped to 0..4"),
    ("share", "damage / worst, clipped to 0..2"),
    ("spare", "1 if I hold two vetoes or more"),
    ("assassination", "her card is an assassination"),
    ("spy", "her card is a spy"),
    ("castling", "her card is a castling"),
    ("scout", "her card is a scout"),
    ("wrath", "her card is a wrath"),
    ("tactician", "1 if the tactician vetoes"),
)
DRAW_FEATURES = (  # DRAW (R4.4, R7.2) and VETO_DRAW (R7.6): options none, influence, action
    ("none", "drawing nothing (VETO_DRAW)"),
    ("influence", "drawing an influence card"),
    ("influence_hand", "an influence card x influence cards in hand / 5"),
    ("influence_full", "an influence card x cards in hand / hand size"),
    ("action", "drawing an action card"),
    ("action_value", "an action card x the worth of my next one (my own deck's order, R2.7)"),
    ("action_hand", "an action card x action cards in hand / 3"),
    ("action_influence", "an action card x influence cards in hand / 5"),
    ("tactician", "1 on the tactician's pick"),
)
SPY_FEATURES = tuple((f"card_{c}", f"taking her card of code {c}") for c in range(12)) + (
    ("tactician", "1 on the tactician's pick"),)
N_STEP, N_MODE, N_VETO, N_DRAW, N_SPY = (len(t) for t in (STEP_FEATURES, MODE_FEATURES, VETO_FEATURES,
                                                          DRAW_FEATURES, SPY_FEATURES))
MAX_FEATURES = N_STEP
KIND_FEATURES = {STEP: STEP_FEATURES, MODE: MODE_FEATURES, VETO: VETO_FEATURES, DRAW: DRAW_FEATURES,
                 VETO_DRAW: DRAW_FEATURES, SPY_PICK: SPY_FEATURES}


def _columns(features, prefix: str) -> dict:
    """{prefix + NAME: column} of a feature table: an option's vector, one slot a feature."""
    return slots.place([(name.upper(), (), meaning) for name, meaning in features], prefix)[0]


# each feature's column by its name (the compiled code writes F[i, F_STEP_END_PLACED], not F[i, 18])
STEP_COLUMNS = _columns(STEP_FEATURES, "F_STEP_")
# --- slots of step features: generated from its table (ccsim.kernel.slots), held by tests/test_slots.py ---
F_STEP_SCORE = 0
F_STEP_BLOCKED = 1
F_STEP_END = 2
F_STEP_PLACE_DOWN = 3
F_STEP_PLACE_UP = 4
F_STEP_ASSASSINATION = 5
F_STEP_SPY = 6
F_STEP_CASTLING = 7
F_STEP_SCOUT = 8
F_STEP_WRATH = 9
F_STEP_GAIN = 10
F_STEP_VALUE = 11
F_STEP_PHILOSOPHER = 12
F_STEP_WEIGHT = 13
F_STEP_VOTE = 14
F_STEP_MARGIN = 15
F_STEP_NEXT = 16
F_STEP_FILLS = 17
F_STEP_END_PLACED = 18
F_STEP_END_HAND = 19
F_STEP_END_BEST = 20
F_STEP_ACTION_VETO = 21
F_STEP_ACTION_LATE = 22
F_STEP_UP_FEAR = 23
F_STEP_LAST_ROOM = 24
F_STEP_LEAD = 25
F_STEP_TACTICIAN = 26
# --- end of the slots of step features ---
slots.hold(globals(), STEP_COLUMNS, "step features")
MODE_COLUMNS = _columns(MODE_FEATURES, "F_MODE_")
# --- slots of mode features: generated from its table (ccsim.kernel.slots), held by tests/test_slots.py ---
F_MODE_BIAS = 0
F_MODE_BEST_SINGLE = 1
F_MODE_CAN_IMPROVE = 2
F_MODE_HAND_INFLUENCE = 3
F_MODE_HAND_FULL = 4
F_MODE_DECK_MEAN = 5
F_MODE_MY_ACTIONS = 6
F_MODE_HER_HAND = 7
F_MODE_VOC_LEFT = 8
F_MODE_PROGRESS = 9
F_MODE_TACTICIAN = 10
# --- end of the slots of mode features ---
slots.hold(globals(), MODE_COLUMNS, "mode features")
VETO_COLUMNS = _columns(VETO_FEATURES, "F_VETO_")
# --- slots of veto features: generated from its table (ccsim.kernel.slots), held by tests/test_slots.py ---
F_VETO_BIAS = 0
F_VETO_DAMAGE = 1
F_VETO_WORST = 2
F_VETO_SHARE = 3
F_VETO_SPARE = 4
F_VETO_ASSASSINATION = 5
F_VETO_SPY = 6
F_VETO_CASTLING = 7
F_VETO_SCOUT = 8
F_VETO_WRATH = 9
F_VETO_TACTICIAN = 10
# --- end of the slots of veto features ---
slots.hold(globals(), VETO_COLUMNS, "veto features")
DRAW_COLUMNS = _columns(DRAW_FEATURES, "F_DRAW_")
# --- slots of draw features: generated from its table (ccsim.kernel.slots), held by tests/test_slots.py ---
F_DRAW_NONE = 0
F_DRAW_INFLUENCE = 1
F_DRAW_INFLUENCE_HAND = 2
F_DRAW_INFLUENCE_FULL = 3
F_DRAW_ACTION = 4
F_DRAW_ACTION_VALUE = 5
F_DRAW_ACTION_HAND = 6
F_DRAW_ACTION_INFLUENCE = 7
F_DRAW_TACTICIAN = 8
# --- end of the slots of draw features ---
slots.hold(globals(), DRAW_COLUMNS, "draw features")
F_SPY_TACTICIAN = N_SPY - 1  # SPY_FEATURES: a column per card code (F[i, code]), then the tactician's pick
# the action cards' columns follow action_index's order (assassination, spy, castling, scout, wrath)
assert F_STEP_WRATH - F_STEP_ASSASSINATION == F_VETO_WRATH - F_VETO_ASSASSINATION == 4

# ---- the parameter vector: one block of weights per decision kind ---------------------------------
MODEL_TABLE = (
    ("VERSION", (), "1.0 marks a filled vector"),
    ("STEP", (N_STEP,), "STEP weights, STEP_FEATURES order"),
    ("MODE", (N_MODE,), "MODE weights"),
    ("VETO", (N_VETO,), "VETO weights"),
    ("DRAW", (N_DRAW,), "DRAW and VETO_DRAW weights"),
    ("SPY", (N_SPY,), "SPY_PICK weights"),
)
MODEL_SLOTS, N_PARAMS = slots.place(MODEL_TABLE, "M_")
# --- slots of model: generated from its table (ccsim.kernel.slots), held by tests/test_slots.py ---
M_VERSION = 0
M_STEP = 1
M_MODE = 28
M_VETO = 39
M_DRAW = 50
M_SPY = 59
# --- end of the slots of model ---
slots.hold(globals(), MODEL_SLOTS, "model")
assert N_PARAMS <= P_ENTRY
BLOCKS = {"step": (M_STEP, STEP_FEATURES), "mode": (M_MODE, MODE_FEATURES), "veto": (M_VETO, VETO_FEATURES),
          "draw": (M_DRAW, DRAW_FEATURES), "spy": (M_SPY, SPY_FEATURES)}


def tactician_clone() -> np.ndarray:
    """Weights that play as the tactician does (the training's starting point): its score for STEP,
    its pick elsewhere."""
    v = np.zeros(MAX_PARAMS, np.float64)
    v[M_VERSION] = 1.0
    v[M_STEP + N_STEP - 1] = 10.0           # the tactician's pick
    v[M_MODE], v[M_MODE + N_MODE - 1] = -5.0, 10.0
    v[M_VETO], v[M_VETO + N_VETO - 1] = -5.0, 10.0
    v[M_DRAW + N_DRAW - 1] = 10.0
    v[M_SPY + N_SPY - 1] = 10.0
    return v


@njit(cache=True)
def block_of(kind):
    """(first weight, features) of a decision kind's block; (0, 0) for a kind the model leaves to
    the tactician."""
    if kind == STEP:
        return M_STEP, N_STEP
    if kind == MODE:
        return M_MODE, N_MODE
    if kind == VETO:
        return M_VETO, N_VETO
    if kind == DRAW or kind == VETO_DRAW:
        return M_DRAW, N_DRAW
    if kind == SPY_PICK:
        return M_SPY, N_SPY
    return 0, 0


@njit(cache=True)
def clip(x, lo, hi):
    return min(max(x, lo), hi)


@njit(cache=True)
def progress(pub):
    """The share of the patricians already won (R10): how far the game has come."""
    left = 0
    size = 0
    for g in range(N_GROUPS):
        left += pub[PUB_REMAIN + g]
        size += pub[PUB_RULES + RP_GROUP_SIZE + g]
    return 1.0 - left / size if size > 0 else 0.0


@njit(cache=True)
def hand_influence(own):
    k = 0
    for c in range(6):
        k += own[PR_HAND + c]
    return k


# ------------------------------------------------------------------ STEP --
@njit(cache=True)
def step_features(T, pub, own, mem, me, opts, n, F):
    """Every STEP option's features into F[:n, :N_STEP], from T as the tactician's policy fills it."""
    w = BASE
    placing = prepare_step(w, pub, own, T, opts, n)
    k = step_context(w, pub, own, mem, me)
    glim = pub[PUB_RULES + RP_GROUP_LIMIT]
    npl = pub[PUB_NPLACED]
    hinf = hand_influence(own) / 5.0
    late = progress(pub)
    p_assassin = p_opp_holds(pub, me, ASSASSINATION, opp_hand_actions(pub, me))
    best = -16.0
    tac = 0
    top = -1e300
    for i in range(n):
        s = twisted_score(w, T, pub, own, me, opts[i], placing, k)
        F[i, F_STEP_SCORE] = clip(s * 0.25, -16.0, 16.0)
        F[i, F_STEP_BLOCKED] = 1.0 if s < -1e8 else 0.0
        if s > top:
            top = s
            tac = i
        t = step_type(opts[i])
        if (t == T_PLACE_DOWN or t == T_PLACE_UP) and s > -1e8 and F[i, F_STEP_SCORE] > best:
            best = F[i, F_STEP_SCORE]
    for i in range(n):
        code = opts[i]
        t = step_type(code)
        c = step_card(code)
        g = step_group(code)
        for j in range(F_STEP_BLOCKED + 1, N_STEP):
            F[i, j] = 0.0
        F[i, F_STEP_TACTICIAN] = 1.0 if i == tac else 0.0
        if t == T_END:
            F[i, F_STEP_END] = 1.0
            F[i, F_STEP_END_PLACED] = npl
            F[i, F_STEP_END_HAND] = hinf
            F[i, F_STEP_END_BEST] = best
            continue
        placed = t == T_PLACE_DOWN or t == T_PLACE_UP
        if placed:
            F[i, F_STEP_PLACE_DOWN if t == T_PLACE_DOWN else F_STEP_PLACE_UP] = 1.0
            F[i, F_STEP_GAIN] = clip(T[R_GAIN + c, g], -4.0, 4.0)
            F[i, F_STEP_VALUE] = VAL[c] / 5.0
            F[i, F_STEP_PHILOSOPHER] = 1.0 if c == PHIL else 0.0
            F[i, F_STEP_FILLS] = 1.0 if T[R_N, g] + 1 == glim else 0.0
            F[i, F_STEP_UP_FEAR] = p_assassin if t == T_PLACE_UP else 0.0
            F[i, F_STEP_LAST_ROOM] = 1.0 if T[R_ROOM, g] == 1 else 0.0
            F[i, F_STEP_LEAD] = 1.0 if T[R_E, g] > 0.0 else 0.0
        else:
            F[i, F_STEP_ASSASSINATION + action_index(c)] = 1.0
            F[i, F_STEP_ACTION_VETO] = T[R_SC, S_PVETO]
            F[i, F_STEP_ACTION_LATE] = late
        if placed or c != SPY:
            F[i, F_STEP_WEIGHT] = clip(T[R_W, g], 0.0, 4.0)
            F[i, F_STEP_VOTE] = T[R_E, g]
            F[i, F_STEP_MARGIN] = clip(T[R_D, g] / 5.0, -2.0, 2.0)
            F[i, F_STEP_NEXT] = T[R_NEXT, g]


@njit(cache=True)
def action_index(card):
    """0 .. 4 for assassination, spy, castling, scout, wrath (the STEP action features)."""
    if card == ASSASSINATION:
        return 0
    if card == SPY:
        return 1
    if card == CASTLING:
        return 2
    if card == SCOUT:
        return 3
    return 4


# ------------------------------------------------------------------ MODE, VETO --
@njit(cache=True)
def mode_features(T, pub, own, me, F):
    """MODE (R3): the passive option's features (F[0]); the active one's are zero (F[1])."""
    w = BASE
    tac_passive = 0.0 if w[P_PASSIVE] < -0.5 else (1.0 if choose_mode(w, T, pub, own, me) == 0 else 0.0)
    best = best_single_placement(w, own, T)[0]
    acts = 0
    for c in range(6, 12):
        acts += own[PR_HAND + c]
    x = F[0]
    x[F_MODE_BIAS] = 1.0
    x[F_MODE_BEST_SINGLE] = clip(best, -4.0, 4.0)
    x[F_MODE_CAN_IMPROVE] = 1.0 if hand_can_improve(w, T, pub, own, me) else 0.0
    x[F_MODE_HAND_INFLUENCE] = hand_influence(own) / 5.0
    x[F_MODE_HAND_FULL] = pub[PUB_HANDN + me] / max(pub[PUB_RULES + RP_HAND_SIZE], 1)
    x[F_MODE_DECK_MEAN] = T[R_SC, S_DECKMEAN] / 5.0
    x[F_MODE_MY_ACTIONS] = acts / 3.0
    x[F_MODE_HER_HAND] = pub[PUB_HANDN + 1 - me] / 5.0
    x[F_MODE_VOC_LEFT] = pub[PUB_VOC_DECKN] / 10.0
    x[F_MODE_PROGRESS] = progress(pub)
    x[F_MODE_TACTICIAN] = tac_passive
    for j in range(N_MODE):
        F[1, j] = 0.0


@njit(cache=True)
def veto_features(T, pub, own, me, F):
    """VETO (R7.6): the veto option's features (F[1]); not vetoing scores zero (F[0])."""
    w = BASE
    card = pub[PUB_ACTION]
    dmg = announced_damage(w, T, pub, own, me)
    worst = 0.0
    for a in (WRATH, ASSASSINATION, CASTLING, SPY):
        if a != card and still_held(pub, me, a) > 0:
            worst = max(worst, veto_damage(w, T, pub, own, me, a))
    x = F[1]
    x[F_VETO_BIAS] = 1.0
    x[F_VETO_DAMAGE] = clip(dmg, 0.0, 4.0)
    x[F_VETO_WORST] = clip(worst, 0.0, 4.0)
    x[F_VETO_SHARE] = clip(dmg / max(worst, 1e-3), 0.0, 2.0)
    x[F_VETO_SPARE] = 1.0 if own[PR_HAND + VETO_CARD] >= 2 else 0.0
    for j in range(5):  # the five action cards' columns
        x[F_VETO_ASSASSINATION + j] = 0.0
    if card >= ACTION_BASE and card != VETO_CARD:
        x[F_VETO_ASSASSINATION + action_index(card)] = 1.0
    x[F_VETO_TACTICIAN] = 1.0 if worst_threat_veto(w, T, pub, own, me) == 1 else 0.0
    for j in range(N_VETO):
        F[0, j] = 0.0


# ------------------------------------------------------------------ DRAW, SPY_PICK --
@njit(cache=True)
def draw_features(pub, own, me, opts, n, F):
    """DRAW / VETO_DRAW: each option's features by what it draws."""
    w = BASE
    pick = choose_draw(w, pub, own, me, opts, n)
    hinf = hand_influence(own) / 5.0
    full = pub[PUB_HANDN + me] / max(pub[PUB_RULES + RP_HAND_SIZE], 1)
    acts = 0
    for c in range(6, 12):
        acts += own[PR_HAND + c]
    nxt = 0.0
    if pub[PUB_ADECKN + me] > 0:
        nxt = action_card_value(pub, me, own[PR_ADECK + own[PR_ADECK_TOP]])
    for i in range(n):
        for j in range(N_DRAW):
            F[i, j] = 0.0
        o = opts[i]
        if o == DRAW_NONE:
            F[i, F_DRAW_NONE] = 1.0
        elif o == DRAW_INFLUENCE:
            F[i, F_DRAW_INFLUENCE] = 1.0
            F[i, F_DRAW_INFLUENCE_HAND] = hinf
            F[i, F_DRAW_INFLUENCE_FULL] = full
        elif o == DRAW_ACTION:
            F[i, F_DRAW_ACTION] = 1.0
            F[i, F_DRAW_ACTION_VALUE] = nxt
            F[i, F_DRAW_ACTION_HAND] = acts / 3.0
            F[i, F_DRAW_ACTION_INFLUENCE] = hinf
        F[i, F_DRAW_TACTICIAN] = 1.0 if i == pick else 0.0


@njit(cache=True)
def spy_features(pub, own, me, opts, n, F):
    """SPY_PICK (R7.2): the card code of each option, and the tactician's pick."""
    pick = choose_spy(pub, own, me, opts, n)
    for i in range(n):
        for j in range(N_SPY):
            F[i, j] = 0.0
        F[i, opts[i]] = 1.0  # the card code's column
        F[i, F_SPY_TACTICIAN] = 1.0 if i == pick else 0.0


# ------------------------------------------------------------------ the policy --
@njit(cache=True)
def table_features(kind, opts, n, pub, own, mem, me, T, F):
    """STEP, MODE, VETO: T as the tactician's policy fills it at this decision (the tables kept from
    this turn's last decision where they hold, as its memory says), then the options' features."""
    w = BASE
    lo, hi = kept_tables(kind, pub, mem, me, T)
    if lo < hi:
        refill_groups(w, pub, own, mem, me, T, lo, hi)
        reweigh_groups(w, pub, own, mem, me, T, lo, hi)
    if kind == STEP:
        step_features(T, pub, own, mem, me, opts, n, F)
    elif kind == MODE:
        fill_gains(w, pub, own, T)
        keep_turn_tables(pub, mem, T)
        mode_features(T, pub, own, me, F)
    else:
        veto_features(T, pub, own, me, F)


@njit(cache=True)
def decision_features_nb(kind, opts, n, pub, own, mem, me, T, F):
    """The features of every option of this decision into F[:n, :k]; returns k (0 for a kind the
    model leaves to the tactician).  Writes the player's memory as her policy would."""
    first, k = block_of(kind)
    if k == 0:
        return 0
    if kind == STEP or kind == MODE or kind == VETO:
        table_features(kind, opts, n, pub, own, mem, me, T, F)
    elif kind == SPY_PICK:
        spy_features(pub, own, me, opts, n, F)
    else:
        draw_features(pub, own, me, opts, n, F)
    return k




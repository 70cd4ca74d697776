"""What the value network sees: one player's observation and one option, as two vectors.

The observation part (``OBS_TABLE``) is read from ``pub`` and ``own`` only (R8: what the player
may see), as small non-negative integers kept as ``uint8``: the training stores millions of
decisions, and a count needs no more.  Each column has a fixed scale (``OBS_SCALE``) that the
network's first layer applies, so the data stay integers.  Sides are relative: *mine* first,
*hers* second, so one network plays both seats.

The option part (``OPT_TABLE``) says what the option is (decision kind, STEP type, card, group,
second target, the plain choice of a MODE/VETO/DRAW decision) and carries the learned player's
option features of that decision kind (``strategies.learned``: the tactician's own tables read for
this option).  A zero option with the ``state`` kind asks the network for the value of the
position itself (the search's leaf value).
"""
import numpy as np

from ccsim.kernel import slots
from ccsim.kernel.decisions import (MODE, STEP, VETO, SPY_PICK, DRAW, VETO_DRAW, step_type, step_card, step_group,
                                    step_x, N_KINDS)
from ccsim.kernel.layout import (PUB_TURN, PUB_CUR, PUB_NEXT, PUB_REMAIN, PUB_HANDN, PUB_IDECKN, PUB_ADECKN,
                                 PUB_VOC_DISC, PUB_VOC_BOX, PUB_VOC_DECKN, PUB_QUIET, PUB_MODE, PUB_NPLACED,
                                 PUB_PLACED_UP, PUB_ACTION, PUB_CTX_G1, PUB_DEC_KIND, PUB_RULES, PUB_ACTION_COUNT,
                                 PR_HAND, PR_BONUS, PR_ADECK, PR_ADECK_TOP, PR_ADECK_LEN, PR_SPY_KNOWN,
                                 fu_at, fdn_at, siden_at, won_at, disc_at, played_at, fd_at)
from ccsim.kernel.rules import (CLEOPATRA, N_GROUPS, N_VALUES, N_CARD_CODES, N_ACTIONS, N_VOC_KINDS, ACTION_BASE, CARD_VALUE,
                                RP_HAND_SIZE, RP_SIDE_LIMIT, RP_GROUP_LIMIT, RP_GROUP_SIZE, RP_ORGIES,
                                RP_VP_PATRICIAN, RP_VP_MAJORITY, RP_VP_ALL, RP_VP_BONUS, RP_BONUS_THRESHOLD,
                                RP_VARIANTS)
from ccsim.toolchain.jit import njit

N_RULE_INPUTS = 13  # hand size, side and group limits, orgies, the four VP values, bonus threshold, 4 variant bits
N_NEXT_ACTIONS = 2  # the next action cards of my own deck (R2.7: I know its order)

# ---- the observation: (name, shape, meaning); uint8 counts, scaled by OBS_SCALE in the network ----
OBS_TABLE = (
    ("REMAIN", (N_GROUPS,), "[g] patricians left at g"),
    ("SIZE", (N_GROUPS,), "[g] patricians of g at the start (rules)"),
    ("MY_FU", (N_GROUPS, N_VALUES), "[g, code] my face-up cards at g"),
    ("HER_FU", (N_GROUPS, N_VALUES), "[g, code] her face-up cards at g"),
    ("MY_FD", (N_GROUPS, N_VALUES), "[g, code] my face-down cards at g (mine to see, R8.2)"),
    ("HER_FDN", (N_GROUPS,), "[g] her face-down cards at g (their number only)"),
    ("MY_SIDE", (N_GROUPS,), "[g] cards on my side of g"),
    ("HER_SIDE", (N_GROUPS,), "[g] cards on her side of g"),
    ("MY_VALUE", (N_GROUPS,), "[g] my influence at g, face-down cards included"),
    ("HER_VALUE", (N_GROUPS,), "[g] her face-up influence at g"),
    ("MY_WON", (N_GROUPS,), "[g] patricians of g I won"),
    ("HER_WON", (N_GROUPS,), "[g] patricians of g she won"),
    ("MY_BONUS", (N_GROUPS,), "[g] 1 at my bonus group (R2.3)"),
    ("HAND", (N_CARD_CODES,), "[code] my hand"),
    ("MY_DISC", (N_CARD_CODES,), "[code] my discard pile"),
    ("HER_DISC", (N_CARD_CODES,), "[code] her discard pile"),
    ("HANDN", (2,), "cards in my hand, in hers"),
    ("IDECKN", (2,), "cards in my influence deck, in hers"),
    ("ADECKN", (2,), "cards in my action deck, in hers"),
    ("NEXT_ACTION", (N_NEXT_ACTIONS, N_ACTIONS), "[k, a] 1 if my k-th next action card is of kind a"),
    ("MY_PLAYED", (N_ACTIONS,), "[a] my action cards of kind a played"),
    ("HER_PLAYED", (N_ACTIONS,), "[a] her action cards of kind a played"),
    ("MY_ACTIONS", (N_ACTIONS,), "[a] action cards of kind a I own (rules, R1.4)"),
    ("HER_ACTIONS", (N_ACTIONS,), "[a] action cards of kind a she owns"),
    ("SPY_KNOWN", (N_CARD_CODES,), "[code] her cards my last spy saw that are still known in her hand (R8.3)"),
    ("VOC_DISC", (N_VOC_KINDS,), "[kind] the VoC discard pile"),
    ("VOC_BOX", (N_VOC_KINDS,), "[kind] VoC cards in the box"),
    ("VOC_DECKN", (), "cards left in the VoC deck"),
    ("TURN", (), "turns taken (clipped to 255)"),
    ("MY_TURN", (), "1 if the current turn is mine"),
    ("MY_NEXT", (), "1 if the next turn is mine"),
    ("QUIET", (), "quiet turns in a row (R9.4)"),
    ("ACTIVE", (), "1 if this turn is active (R3)"),
    ("NPLACED", (), "influence cards placed this turn (R4.2)"),
    ("PLACED_UP", (), "1 if this turn's placements are face-up"),
    ("ANNOUNCED", (N_ACTIONS,), "[a] 1 if the action card played this turn (the one to veto) is of kind a"),
    ("TARGET", (N_GROUPS,), "[g] 1 at the announced target group"),
    ("KIND", (N_KINDS,), "[kind] 1 at the pending decision's kind"),
    ("RULES", (N_RULE_INPUTS,), "the rules in force: limits, orgies, VP values, bonus threshold, variant bits"),
    ("SEAT", (), "1 if I am Cleopatra (R2.6: she moves first): the seats play differently"),
)
OBS_SLOTS, N_OBS = slots.place(OBS_TABLE, "O_")
# --- slots of obs: generated from its table (ccsim.kernel.slots), held by tests/test_slots.py ---
O_REMAIN = 0
O_SIZE = 5
O_MY_FU = 10
O_HER_FU = 40
O_MY_FD = 70
O_HER_FDN = 100
O_MY_SIDE = 105
O_HER_SIDE = 110
O_MY_VALUE = 115
O_HER_VALUE = 120
O_MY_WON = 125
O_HER_WON = 130
O_MY_BONUS = 135
O_HAND = 140
O_MY_DISC = 152
O_HER_DISC = 164
O_HANDN = 176
O_IDECKN = 178
O_ADECKN = 180
O_NEXT_ACTION = 182
O_MY_PLAYED = 194
O_HER_PLAYED = 200
O_MY_ACTIONS = 206
O_HER_ACTIONS = 212
O_SPY_KNOWN = 218
O_VOC_DISC = 230
O_VOC_BOX = 237
O_VOC_DECKN = 244
O_TURN = 245
O_MY_TURN = 246
O_MY_NEXT = 247
O_QUIET = 248
O_ACTIVE = 249
O_NPLACED = 250
O_PLACED_UP = 251
O_ANNOUNCED = 252
O_TARGET = 258
O_KIND = 263
O_RULES = 272
O_SEAT = 285
# --- end of the slots of obs ---
slots.hold(globals(), OBS_SLOTS, "obs")

# the scale of each observation column: a count of about s reads as about 1
_SCALES = {"REMAIN": 0.2, "SIZE": 0.2, "MY_FU": 0.5, "HER_FU": 0.5, "MY_FD": 0.5, "HER_FDN": 0.5, "MY_SIDE": 0.25,
           "HER_SIDE": 0.25, "MY_VALUE": 0.1, "HER_VALUE": 0.1, "MY_WON": 0.25, "HER_WON": 0.25, "HAND": 0.5,
           "MY_DISC": 0.25, "HER_DISC": 0.25, "HANDN": 0.2, "IDECKN": 0.05, "ADECKN": 0.1, "MY_PLAYED": 0.5,
           "HER_PLAYED": 0.5, "MY_ACTIONS": 0.5, "HER_ACTIONS": 0.5, "SPY_KNOWN": 0.5, "VOC_DISC": 0.5,
           "VOC_BOX": 0.5, "VOC_DECKN": 0.125, "TURN": 0.02, "QUIET": 0.5, "NPLACED": 0.5, "RULES": 0.1}


def _scale_vector() -> np.ndarray:
    s = np.ones(N_OBS, np.float32)
    for name, shape, _ in OBS_TABLE:
        at = OBS_SLOTS["O_" + name]
        s[at:at + slots.size_of(shape)] = _SCALES.get(name, 1.0)
    return s


OBS_SCALE = _scale_vector()

# ---- the option: what it is, and the learned player's features of it ----
OPTION_KINDS = (MODE, STEP, VETO, SPY_PICK, DRAW, VETO_DRAW)  # the kinds the network decides
N_OPTION_FEATURES = 27  # strategies.learned.MAX_FEATURES (held by tests/test_neural.py)
OPT_TABLE = (
    ("KIND", (len(OPTION_KINDS) + 1,), "[k] the decision kind (OPTION_KINDS order), last: the position itself"),
    ("TYPE", (4,), "[t] a STEP's type: face-down, face-up, action, end (R4.1, R4.2)"),
    ("CARD", (N_CARD_CODES,), "[code] the card a STEP plays or a SPY_PICK takes"),
    ("GROUP", (N_GROUPS,), "[g] the group a STEP targets"),
    ("X", (N_VALUES,), "[x] a STEP's second target: the value assassinated, castling's second group"),
    ("CHOICE", (3,), "[c] a MODE, VETO, DRAW or VETO_DRAW option's code (passive/active, no/veto, none/influence/action)"),
    ("FEATURES", (N_OPTION_FEATURES,), "the learned player's features of the option (strategies.learned)"),
)
OPT_SLOTS, N_OPT = slots.place(OPT_TABLE, "Y_")
# --- slots of option: generated from its table (ccsim.kernel.slots), held by tests/test_slots.py ---
Y_KIND = 0
Y_TYPE = 7
Y_CARD = 11
Y_GROUP = 23
Y_X = 28
Y_CHOICE = 34
Y_FEATURES = 37
# --- end of the slots of option ---
slots.hold(globals(), OPT_SLOTS, "option")
STATE_KIND = len(OPTION_KINDS)  # Y_KIND's last column: the value of the position
N_INPUTS = N_OBS + N_OPT


@njit(cache=True)
def kind_column(kind):
    """The column of a decision kind in Y_KIND; -1 for a kind the network leaves to the tactician."""
    if kind == MODE:
        return 0
    if kind == STEP:
        return 1
    if kind == VETO:
        return 2
    if kind == SPY_PICK:
        return 3
    if kind == DRAW:
        return 4
    if kind == VETO_DRAW:
        return 5
    return -1


@njit(cache=True)
def put(x, at, v):
    """A count into a uint8 column, clipped to 0 .. 255."""
    x[at] = min(max(v, 0), 255)


@njit(cache=True)
def encode_groups_nb(pub, own, me, x):
    """The board (R4.2, R6): per group, the patricians, both sides' cards and influence, VP won."""
    o = 1 - me
    for g in range(N_GROUPS):
        put(x, O_REMAIN + g, pub[PUB_REMAIN + g])
        put(x, O_SIZE + g, pub[PUB_RULES + RP_GROUP_SIZE + g])
        mine = 0
        hers = 0
        for c in range(N_VALUES):
            put(x, O_MY_FU + g * N_VALUES + c, pub[fu_at(g, me, c)])
            put(x, O_HER_FU + g * N_VALUES + c, pub[fu_at(g, o, c)])
            put(x, O_MY_FD + g * N_VALUES + c, own[fd_at(g, c)])
            mine += (pub[fu_at(g, me, c)] + own[fd_at(g, c)]) * CARD_VALUE[c]
            hers += pub[fu_at(g, o, c)] * CARD_VALUE[c]
        put(x, O_HER_FDN + g, pub[fdn_at(g, o)])
        put(x, O_MY_SIDE + g, pub[siden_at(g, me)])
        put(x, O_HER_SIDE + g, pub[siden_at(g, o)])
        put(x, O_MY_VALUE + g, mine)
        put(x, O_HER_VALUE + g, hers)
        put(x, O_MY_WON + g, pub[won_at(me, g)])
        put(x, O_HER_WON + g, pub[won_at(o, g)])
        x[O_MY_BONUS + g] = 1 if own[PR_BONUS] == g else 0


@njit(cache=True)
def encode_cards_nb(pub, own, me, x):
    """Hands, discard piles, decks, action cards played and owned, what my spy saw (R8.3)."""
    o = 1 - me
    for c in range(N_CARD_CODES):
        put(x, O_HAND + c, own[PR_HAND + c])
        put(x, O_MY_DISC + c, pub[disc_at(me, c)])
        put(x, O_HER_DISC + c, pub[disc_at(o, c)])
        put(x, O_SPY_KNOWN + c, own[PR_SPY_KNOWN + c])
    for k, p in enumerate((me, o)):
        put(x, O_HANDN + k, pub[PUB_HANDN + p])
        put(x, O_IDECKN + k, pub[PUB_IDECKN + p])
        put(x, O_ADECKN + k, pub[PUB_ADECKN + p])
    for a in range(N_ACTIONS):
        put(x, O_MY_PLAYED + a, pub[played_at(me, a)])
        put(x, O_HER_PLAYED + a, pub[played_at(o, a)])
        put(x, O_MY_ACTIONS + a, pub[PUB_ACTION_COUNT + me * N_ACTIONS + a])
        put(x, O_HER_ACTIONS + a, pub[PUB_ACTION_COUNT + o * N_ACTIONS + a])
    for k in range(N_NEXT_ACTIONS):
        for a in range(N_ACTIONS):
            x[O_NEXT_ACTION + k * N_ACTIONS + a] = 0
        at = own[PR_ADECK_TOP] + k
        if at < own[PR_ADECK_LEN]:
            x[O_NEXT_ACTION + k * N_ACTIONS + own[PR_ADECK + at] - ACTION_BASE] = 1


@njit(cache=True)
def encode_turn_nb(pub, me, x):
    """The VoC deck (R6), where the turn stands, the pending decision, the rules in force."""
    for v in range(N_VOC_KINDS):
        put(x, O_VOC_DISC + v, pub[PUB_VOC_DISC + v])
        put(x, O_VOC_BOX + v, pub[PUB_VOC_BOX + v])
    put(x, O_VOC_DECKN, pub[PUB_VOC_DECKN])
    put(x, O_TURN, pub[PUB_TURN])
    x[O_MY_TURN] = 1 if pub[PUB_CUR] == me else 0
    x[O_MY_NEXT] = 1 if pub[PUB_NEXT] == me else 0
    put(x, O_QUIET, pub[PUB_QUIET])
    put(x, O_ACTIVE, pub[PUB_MODE])
    put(x, O_NPLACED, pub[PUB_NPLACED])
    put(x, O_PLACED_UP, pub[PUB_PLACED_UP])
    card = pub[PUB_ACTION]
    for a in range(N_ACTIONS):
        x[O_ANNOUNCED + a] = 1 if card == ACTION_BASE + a else 0
    target = pub[PUB_CTX_G1]
    for g in range(N_GROUPS):
        x[O_TARGET + g] = 1 if target == g else 0
    for k in range(N_KINDS):
        x[O_KIND + k] = 1 if pub[PUB_DEC_KIND] == k else 0
    rules = (RP_HAND_SIZE, RP_SIDE_LIMIT, RP_GROUP_LIMIT, RP_ORGIES, RP_VP_PATRICIAN, RP_VP_MAJORITY, RP_VP_ALL,
             RP_VP_BONUS, RP_BONUS_THRESHOLD)
    for j in range(9):
        put(x, O_RULES + j, pub[PUB_RULES + rules[j]])
    for b in range(4):
        x[O_RULES + 9 + b] = 10 if (pub[PUB_RULES + RP_VARIANTS] >> b) & 1 else 0  # 1.0 after the scale
    x[O_SEAT] = 1 if me == CLEOPATRA else 0


@njit(cache=True)
def encode_obs_nb(pub, own, me, x):
    """Player ``me``'s observation into the uint8 vector ``x`` (OBS_TABLE order)."""
    encode_groups_nb(pub, own, me, x)
    encode_cards_nb(pub, own, me, x)
    encode_turn_nb(pub, me, x)


@njit(cache=True)
def encode_option_nb(kind, code, F, i, k, y):
    """Option ``i`` (``code``) of a decision of ``kind`` into the float32 vector ``y`` (OPT_TABLE
    order), with its ``k`` learned features ``F[i, :k]``."""
    for j in range(N_OPT):
        y[j] = 0.0
    y[Y_KIND + kind_column(kind)] = 1.0
    if kind == STEP:
        y[Y_TYPE + step_type(code) - 1] = 1.0
        y[Y_CARD + step_card(code)] = 1.0
        y[Y_GROUP + step_group(code)] = 1.0
        y[Y_X + step_x(code)] = 1.0
    elif kind == SPY_PICK:
        y[Y_CARD + code] = 1.0
    else:
        y[Y_CHOICE + code] = 1.0
    for j in range(k):
        y[Y_FEATURES + j] = F[i, j]


@njit(cache=True)
def encode_state_option_nb(y):
    """The zero option of the ``state`` kind: the network's value of the position itself."""
    for j in range(N_OPT):
        y[j] = 0.0
    y[Y_KIND + STATE_KIND] = 1.0

"""The constants of the standard rules: names, card codes, deck compositions, limits, variants.

This module is imported by compiled code (module-level ints are frozen into the
kernel at compile time) and by the Python edge alike, so it holds plain ints,
tuples and numpy arrays only.  Every encoding used anywhere in ccsim is defined
here once.
"""
import numpy as np

from ccsim.kernel import slots

# --- players (R2.6: cleopatra always moves first) ---------------------------
CLEOPATRA = 0
CAESAR = 1
PLAYERS = ("cleopatra", "caesar")

# --- patrician groups, in vote order (R4.3) ---------------------------------
GROUPS = ("senator", "praetor", "quaestor", "censor", "aedile")
N_GROUPS = 5

# --- hand card codes: influence 0..5, action 6..11 --------------------------
# Influence code c < 5 is the value c + 1; code 5 is the philosopher (value 0).
N_VALUES = 6
PHIL = 5
INFLUENCE_NAMES = ("1", "2", "3", "4", "5", "P")
CARD_VALUE = (1, 2, 3, 4, 5, 0)
# the same as arrays for compiled code: a tuple indexed by a variable is rebuilt on the stack
# at every use, an array is a constant in memory
VALUE_OF = np.array(CARD_VALUE, np.int64)

ACTION_BASE = 6
ASSASSINATION, SPY, CASTLING, SCOUT, WRATH, VETO = 6, 7, 8, 9, 10, 11
N_ACTIONS = 6
ACTION_NAMES = ("assassination", "spy", "castling", "scout", "wrath", "veto")
ACTION_LETTERS = "ASCRWV"
N_CARD_CODES = 12
CARD_NAMES = INFLUENCE_NAMES + ACTION_NAMES

# --- vote-of-confidence cards: 0..4 a group, then the orgies (R1.2) ---------
ORGY = 5
ORGY_RESHUFFLE = 6
N_VOC_KINDS = 7
VOC_NAMES = GROUPS + ("orgy", "orgy_reshuffle")

# --- decks ------------------------------------------------------------------
MAX_INFLUENCE_DECK = 64  # buffer size; the default deck holds 27 (R2.1)
MAX_ACTION_DECK = 32     # buffer size; the default deck holds 13 (R1.4)
MAX_VOC_DECK = 16        # buffer size; the default deck holds 8 (R1.2)
BONUS_GROUPS = (0, 0, 1, 1, 2, 2)  # R1.3: senator x2, praetor x2, quaestor x2
BONUS_DECK = np.array(BONUS_GROUPS, np.int64)

# --- end reasons (R9) ---------------------------------------------------------
END_NONE, END_ALL_PATRICIANS, END_NO_INFLUENCE, END_STALEMATE, END_TRUNCATED = 0, 1, 2, 3, 4
END_NAMES = ("none", "all_patricians", "no_influence", "stalemate", "truncated")

# --- variants (R11): bit flags ----------------------------------------------
V_MAJORITY_NEEDS_COMPLETE = 1
V_LATE_ORGIES_BOXED = 2
V_TWO_ORGIES = 4
V_LONE_PLAYER_NO_DRAW = 8
VARIANTS = {
    "majority_needs_complete": V_MAJORITY_NEEDS_COMPLETE,
    "late_orgies_boxed": V_LATE_ORGIES_BOXED,
    "two_orgies": V_TWO_ORGIES,
    "lone_player_no_draw": V_LONE_PLAYER_NO_DRAW,
}

# --- the rules-parameter array: one int64 vector handed to the kernel --------
# Index names; defaults are those of the standard rules.  What-if studies change entries
# of this vector, never the engine.
RULES_TABLE = (
    ("HAND_SIZE", (), "R4.4 refill target"),
    ("SIDE_LIMIT", (), "R4.2.1"),
    ("GROUP_LIMIT", (), "R4.2.2 (also the exceptional-vote size of R4.3)"),
    ("GROUP_SIZE", (5,), "[g] patricians per group (R1.1)"),
    ("DECK_COUNT", (6,), "[code] influence-deck cards per code 1..5, P (R2.1)"),
    ("ACTION_COUNT", (6,), "[a] cleopatra's action cards per type A S C R W V (R1.4)"),
    ("ORGIES", (), "plain orgy cards in the VoC deck (R1.2)"),
    ("VP_PATRICIAN", (), "R10.1"),
    ("VP_MAJORITY", (), "R10.2"),
    ("VP_ALL", (), "R10.3"),
    ("VP_BONUS", (), "R10.4"),
    ("BONUS_THRESHOLD", (), "R10.4"),
    ("MAX_TURNS", (), "R9.5"),
    ("VARIANTS", (), "R11 bit flags"),
    ("ACTION_COUNT_CAESAR", (6,), "[a] caesar's action cards per type (GAME_RECORD.md `action_count` by player)"),
)
RULES_SLOTS, N_RULE_PARAMS = slots.place(RULES_TABLE, "RP_")
# --- slots of rules: generated from its table (ccsim.kernel.slots), held by tests/test_slots.py ---
RP_HAND_SIZE = 0
RP_SIDE_LIMIT = 1
RP_GROUP_LIMIT = 2
RP_GROUP_SIZE = 3
RP_DECK_COUNT = 8
RP_ACTION_COUNT = 14
RP_ORGIES = 20
RP_VP_PATRICIAN = 21
RP_VP_MAJORITY = 22
RP_VP_ALL = 23
RP_VP_BONUS = 24
RP_BONUS_THRESHOLD = 25
RP_MAX_TURNS = 26
RP_VARIANTS = 27
RP_ACTION_COUNT_CAESAR = 28
# --- end of the slots of rules ---
slots.hold(globals(), RULES_SLOTS, "rules")

N_PUB_RULES = 28          # entries 0..27 sit in the state's PUB_RULES; each player's action counts in PUB_ACTION_COUNT
RP_PLAYER_ACTIONS = (RP_ACTION_COUNT, RP_ACTION_COUNT_CAESAR)  # where player p's six action counts start

DEFAULT_RULES = np.array(
    [5, 5, 8,
     5, 5, 5, 3, 3,
     5, 5, 5, 5, 5, 2,
     4, 2, 2, 2, 1, 2,
     2, 1, 1, 1, 2, 3, 1000, 0,
     4, 2, 2, 2, 1, 2],
    dtype=np.int64,
)
assert DEFAULT_RULES.shape == (N_RULE_PARAMS,)

RULE_PARAM_NAMES = {
    "hand_size": RP_HAND_SIZE,
    "side_limit": RP_SIDE_LIMIT,
    "group_limit": RP_GROUP_LIMIT,
    **{f"group_size.{g}": RP_GROUP_SIZE + i for i, g in enumerate(GROUPS)},
    **{f"deck_count.{c}": RP_DECK_COUNT + i for i, c in enumerate(INFLUENCE_NAMES)},
    **{f"action_count.{p}.{a}": RP_PLAYER_ACTIONS[k] + i for k, p in enumerate(PLAYERS)
       for i, a in enumerate(ACTION_NAMES)},
    "orgies": RP_ORGIES,
    "vp_patrician": RP_VP_PATRICIAN,
    "vp_majority": RP_VP_MAJORITY,
    "vp_all": RP_VP_ALL,
    "vp_bonus": RP_VP_BONUS,
    "bonus_threshold": RP_BONUS_THRESHOLD,
    "max_turns": RP_MAX_TURNS,
    "variants": RP_VARIANTS,
}

ACTION_COUNTS = tuple(int(x) for x in DEFAULT_RULES[RP_ACTION_COUNT:RP_ACTION_COUNT + 6])
ACTION_DECK_SIZE = sum(ACTION_COUNTS)  # 13
assert tuple(DEFAULT_RULES[RP_ACTION_COUNT_CAESAR:RP_ACTION_COUNT_CAESAR + 6]) == ACTION_COUNTS  # R1.4: equivalent sets

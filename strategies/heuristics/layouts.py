"""The integer layouts of the heuristic family: its parameter vector, its group table, its memory.

Each is one table of slots (``ccsim.kernel.slots``: name, shape, meaning) whose offsets stand
below as plain definitions, held to the table at import and by ``tests/test_slots.py``.

* ``PARAM_TABLE`` — the parameter vector ``w`` of every heuristic (``P_*``): the weights a
  TOML file names (``PARAM_NAMES``), then the style's switches (``SWITCH_NAMES``).
* ``ROW_TABLE`` — the rows of the per-decision group table ``T`` (``R_*``; shape
  ``(N_ROWS, 6)``: a column per group, or per card code where a row says so) and the scalars
  of its row ``R_SC`` (``SCALAR_TABLE``, ``S_*``).
* ``MEMORY_TABLE`` — what the features keep in the player's memory between decisions
  (``M_*``, from ``M_BASE``; ``mem[0:16]`` is left to the strategies themselves).
"""
from ccsim.kernel import slots
from ccsim.kernel.layout import MEM_SIZE

# ---- the parameter vector (the `weighted` family; every heuristic style fills one) -------------
PARAM_TABLE = (
    ("version", (), "1.0 marks a filled vector (an all-zero one means \"the defaults\")"),
    ("next", (), "weight of the next VoC draw"),
    ("soon", (), "weight of the next few VoC draws"),
    ("long", (), "weight of the patricians left at a group (lasting influence)"),
    ("noise", (), "spread (influence points) of her next placements before a later vote"),
    ("majority", (), "weight of majority, all and bonus in a group's stake (1 = their VP)"),
    ("card_cost", (), "cost of each influence card placed (conserve cards)"),
    ("up_cost", (), "extra cost of each face-up card (seen, assassinable)"),
    ("value_cost", (), "cost per point of value placed (keep high cards)"),
    ("philosopher", (), "extra gain of a face-down philosopher where a reversal helps"),
    ("trigger", (), "weight of an exceptional vote I trigger by filling a group (R4.3)"),
    ("action", (), "multiplier of the gain of assassination, wrath, castling"),
    ("action_cost", (), "cost of spending an action card"),
    ("spy", (), "value of a spy"),
    ("scout", (), "value of scouting one of her face-down cards (times the group weight)"),
    ("veto", (), "damage (in position value) that justifies a veto"),
    ("passive", (), "go passive when the best placement gains less than this and the hand can improve"),
    ("fish", (), "discard an influence card this far below my deck's mean value"),
    ("draw_influence", (), "influence cards wanted in hand before drawing action cards"),
    ("draw_action", (), "value of the next action card that makes me draw it"),
    ("place_big", (), "initial placement (R2.5): weight of a group's size"),
    ("place_bonus", (), "initial placement: weight of my bonus group"),
    ("hidden_phil", (), "how much I fear a hidden philosopher of hers (1 = card-counting odds)"),
    ("material", (), "value per influence point removed from the table (wrath, assassination)"),
    ("castle", (), "multiplier of castling's gain"),
    ("horizon", (), "VoC draws counted as \"soon\""),
    ("same_group", (), "second face-up card on the same group: share of its gain kept"),
    ("place_small", (), "initial placement: extra weight of small groups (cheap majorities)"),
    # the twists' own weights (strategies.heuristics.twists; unused by `weighted`, which switches no twist on)
    ("guard_lead", (), "guard (defender): weight factor of a group whose vote I lead by more than guard_lead_margin"),
    ("guard_trail", (), "guard: weight factor of a group I trail by more than -guard_trail_margin"),
    ("guard_lead_margin", (), "guard: the lead (expected vote margin) that counts as a lead"),
    ("guard_trail_margin", (), "guard: the margin below which a vote counts as trailed"),
    ("focus_open", (), "focus (majority): weight of a majority race still open (R10.2)"),
    ("focus_settled", (), "focus: weight factor of a group whose majority is settled"),
    ("focus_bonus", (), "focus: added to my bonus group's factor while the bonus is within reach (R10.4)"),
    ("trap_spring", (), "traps (trickster): weight factor of a group where my philosophers would reverse the vote (R6.3)"),
    ("trap_break", (), "traps: weight factor of a group where her visible philosophers outnumber mine"),
    ("shown_philosopher", (), "hide_philosopher (trickster): cost of a philosopher placed face-up"),
    ("her_turn", (), "timing (oracle): weight of P(the group votes after her turn)"),
    ("bad_draw", (), "outlook (oracle): expected VP of my coming VoC draw below -bad_draw: stay passive"),
    ("combo", (), "combo (tactician): extra worth of a scout while an assassination waits (R7.4, R7.1)"),
    ("threat_share", (), "worst_threat (tactician): veto at this share of the worst threat she may still hold"),
    ("face_up_fear", (), "fear_face_up (counter): cost of a face-up card per P(she holds an assassination)"),
    ("response_cards", (), "count (counter): influence cards she needs left for a full answer"),
    ("switch", (5,), "the style's switches (SWITCH_NAMES: which twist of strategies.heuristics.twists, 0 = none)"),
)
PARAM_SLOTS, N_PARAMS = slots.place([(n.upper(), s, m) for n, s, m in PARAM_TABLE], "P_")
# --- slots of params: generated from its table (ccsim.kernel.slots), held by tests/test_slots.py ---
P_VERSION = 0
P_NEXT = 1
P_SOON = 2
P_LONG = 3
P_NOISE = 4
P_MAJORITY = 5
P_CARD_COST = 6
P_UP_COST = 7
P_VALUE_COST = 8
P_PHILOSOPHER = 9
P_TRIGGER = 10
P_ACTION = 11
P_ACTION_COST = 12
P_SPY = 13
P_SCOUT = 14
P_VETO = 15
P_PASSIVE = 16
P_FISH = 17
P_DRAW_INFLUENCE = 18
P_DRAW_ACTION = 19
P_PLACE_BIG = 20
P_PLACE_BONUS = 21
P_HIDDEN_PHIL = 22
P_MATERIAL = 23
P_CASTLE = 24
P_HORIZON = 25
P_SAME_GROUP = 26
P_PLACE_SMALL = 27
P_GUARD_LEAD = 28
P_GUARD_TRAIL = 29
P_GUARD_LEAD_MARGIN = 30
P_GUARD_TRAIL_MARGIN = 31
P_FOCUS_OPEN = 32
P_FOCUS_SETTLED = 33
P_FOCUS_BONUS = 34
P_TRAP_SPRING = 35
P_TRAP_BREAK = 36
P_SHOWN_PHILOSOPHER = 37
P_HER_TURN = 38
P_BAD_DRAW = 39
P_COMBO = 40
P_THREAT_SHARE = 41
P_FACE_UP_FEAR = 42
P_RESPONSE_CARDS = 43
P_SWITCH = 44
# --- end of the slots of params ---
slots.hold(globals(), PARAM_SLOTS, "params")
PARAM_NAMES = tuple(n for n, _, _ in PARAM_TABLE[:-1])  # the weights a TOML file may name
N_WEIGHTS = len(PARAM_NAMES)
# the switches of a style file's [switches] table, in slot order from P_SWITCH; each names one
# twist of strategies.heuristics.twists (their values: twists.SWITCH_VALUES)
SWITCH_NAMES = ("groups", "step", "veto", "mode", "spy")
assert P_SWITCH == N_WEIGHTS and N_WEIGHTS + len(SWITCH_NAMES) == N_PARAMS  # noqa: F821

# ---- the rows of the group table T (each holds one value per group) --------------------------
ROW_TABLE = (
    ("D", (), "D: my influence minus the opponent's expected influence"),
    ("INV", (), "1 / spread of a later vote (her hidden cards and her next placements)"),
    ("INVH", (), "1 / spread of a vote right now (her hidden cards only): exceptional votes I trigger"),
    ("PREV", (), "P(the vote is reversed by philosophers), as things are"),
    ("PREVP", (), "the same if I add one philosopher"),
    ("W", (), "weight: stake x timing (0 for a group out of play)"),
    ("E", (), "E now: P(win) - P(lose) of a vote"),
    ("ROOM", (), "cards I may still put there (R4.2.1, R4.2.2)"),
    ("N", (), "cards at the group, both sides"),
    ("STAKE", (), "VP swing of its next patrician (R10), majority part scaled by w[P_MAJORITY]"),
    ("NEXT", (), "P(its VoC card is the next one drawn)"),
    ("SOON", (), "P(it votes within the next few VoC draws)"),
    ("MY", (), "my influence there (all my cards, I know my face-down ones)"),
    ("OPPV", (), "her visible influence there"),
    ("OPPFD", (), "her face-down cards there"),
    ("MYUP", (), "my face-up cards there (what an assassination can hit)"),
    ("GAIN", (6,), "[c] gain of one of my cards of code c on g, face-down, before costs"),
    ("SC", (), "the scalars (SCALAR_TABLE, S_*), one per column"),
    ("MYPH", (), "my philosophers there"),
    ("OPPPH", (), "her visible philosophers there"),
    ("HID", (), "P(she hides a philosopher among her face-down cards there); T[R_HID, 5]: per card"),
    ("B1", (), "best value of a face-up card there (gain - cost), -1e9 if none"),
    ("B1C", (), "its card code"),
    ("B2", (), "best value there of a card other than one copy of that code"),
    ("SEC", (), "by card code c: best value of a second face-up card after my card c (any group)"),
    ("SECG", (), "by card code c: the group of that best second card"),
    ("SEC2", (), "by card code c: the best second card elsewhere"),
    ("COST", (2,), "by card code c: the cost of my card c face-down, then face-up (cards in my hand)"),
)
ROW_SLOTS, N_ROWS = slots.place(ROW_TABLE, "R_")
SCALAR_TABLE = (
    ("MU", (), "mean value of the opponent's unseen influence cards"),
    ("PVETO", (), "P(the opponent holds a veto now)"),
    ("DECKMEAN", (), "mean value of my own influence deck (I know its contents, not its order)"),
    ("HANDINF", (), "influence cards in my hand"),
    ("GAINS", (), "1 once the R_GAIN rows are filled for this position (fill_gains), else 0"),
    ("STALE", (), "1 + the one group whose gains are not (refill_groups refreshed its column); 0: none"),
)
SCALAR_SLOTS, N_SCALARS = slots.place(SCALAR_TABLE, "S_")
# --- slots of rows: generated from its table (ccsim.kernel.slots), held by tests/test_slots.py ---
R_D = 0
R_INV = 1
R_INVH = 2
R_PREV = 3
R_PREVP = 4
R_W = 5
R_E = 6
R_ROOM = 7
R_N = 8
R_STAKE = 9
R_NEXT = 10
R_SOON = 11
R_MY = 12
R_OPPV = 13
R_OPPFD = 14
R_MYUP = 15
R_GAIN = 16
R_SC = 22
R_MYPH = 23
R_OPPPH = 24
R_HID = 25
R_B1 = 26
R_B1C = 27
R_B2 = 28
R_SEC = 29
R_SECG = 30
R_SEC2 = 31
R_COST = 32
# --- end of the slots of rows ---
# --- slots of scalars: generated from its table (ccsim.kernel.slots), held by tests/test_slots.py ---
S_MU = 0
S_PVETO = 1
S_DECKMEAN = 2
S_HANDINF = 3
S_GAINS = 4
S_STALE = 5
# --- end of the slots of scalars ---
slots.hold(globals(), ROW_SLOTS, "rows")
slots.hold(globals(), SCALAR_SLOTS, "scalars")
assert N_SCALARS <= 6
KEPT_ROWS = R_HID + 1  # noqa: F821  (the rows fill_groups and fill_gains fill, kept from one decision to the next)
KEPT = KEPT_ROWS * 6

# ---- the player's memory (``mem``, zero at game start) used by the features -----------------
# A patrician's stake is the costliest feature, and it changes only when a vote
# changes a group's patricians; a vote's spread depends only on her face-down
# cards there.  Both are kept in the player's memory from one decision to the next,
# with the inputs they were computed from, and reused only while those are all
# unchanged, so a decision is the same as with a fresh computation, bit for bit.
# The tables of a decision are kept for the next decision of the same turn, where they
# still hold (strategies.heuristics.tables.kept_tables).
M_BASE = 16  # mem[0:16] is left to the strategies themselves (counter keeps its spy record there)
MEMORY_TABLE = (
    ("STAKE_CTX", (7,), "me + 1, my bonus group and the rules' VP values the stakes assume"),
    ("STAKE_PAD", (), "unused: the float64 slots below start on an even index"),
    ("STAKE_KEY", (5, 4), "[g] patricians left, mine, hers, group size (0: nothing kept)"),
    ("STAKE_F", (2 * 6,), "float64 [6]: the majority weight, then the stake of each group"),
    ("INV_F", (2 * 33,), "float64 [33]: the noise2 of the next 32, then R_INV by her face-down cards (0: not yet)"),
    ("TURN", (), "the turn (PUB_TURN + 1) whose tables are kept; 0: none"),
    ("KEPT_NP", (), "the cards placed this turn (PUB_NPLACED) at the decision they are kept for"),
    ("TURN_T", (2 * KEPT,), "float64 [KEPT]: rows 0 .. KEPT_ROWS - 1 of those tables"),
    ("KEPT_G", (), "the group my card went to since (-1: the position is the same)"),
    ("KEPT_SIDE", (), "my cards at that group once it is there (anything else: its vote came, R4.3)"),
)
MEMORY_SLOTS, M_END = slots.place(MEMORY_TABLE, "M_", M_BASE)
# --- slots of memory: generated from its table (ccsim.kernel.slots), held by tests/test_slots.py ---
M_STAKE_CTX = 16
M_STAKE_PAD = 23
M_STAKE_KEY = 24
M_STAKE_F = 44
M_INV_F = 56
M_TURN = 122
M_KEPT_NP = 123
M_TURN_T = 124
M_KEPT_G = 436
M_KEPT_SIDE = 437
# --- end of the slots of memory ---
slots.hold(globals(), MEMORY_SLOTS, "memory")
assert M_END <= MEM_SIZE and M_TURN_T % 2 == 0  # noqa: F821

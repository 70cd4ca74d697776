"""The layout of one game's state: flat integer arrays with named slots, from one table.

A game is one int32 vector ``st`` (plus its random streams ``rng`` and the
seats' strategy parameters ``sp``).  One flat vector, passed as a plain
argument, keeps the compiled turn loop free of reference counting (a tuple of
arrays cost a third of the run time in refcount traffic).  Its regions follow
the information sets of R8, so that a strategy can be handed exactly what its
player may see, by construction:

* ``pub``  (``st[PUB:PUB + PUB_SIZE]``) — public to both players (R8.1),
  the rules vector and the pending decision included;
* ``priv`` (``st[priv_at(p):...+PRIV_SIZE]``) — private to player ``p``
  (R8.2): her hand, her face-down cards, her bonus, her own action-deck
  order, what a spy showed her;
* ``hid``  — hidden from both: deck orders, the VoC deck, engine bookkeeping
  (where the game stands between two decisions: ``PUB_PHASE`` and the context
  of the pending decision), the event log's bookkeeping;
* ``setup`` (what chance and the players fixed before the first turn, R2),
  ``opts`` (the options of the pending decision: private to its decider),
  ``mem`` (each player's strategy memory: private to her), and when recording
  or replaying the event ``log`` and the replayed record ``rec``.

Every slot is one row of the tables below: ``(name, shape, meaning)``.  The
offsets are generated from them (``PUB_*`` and ``H_*`` absolute indices into
``st``; ``PR_*`` relative to a player's private base ``priv_at(p)``; ``S_*``
relative to ``SETUP``), and the index helpers (``fu_at(g, p, c)``, ...) name
the multi-dimensional ones, so no offset arithmetic is written out anywhere
else.  Counts are never negative; ``-1`` means "none" where a slot can be
empty.
"""
from collections import namedtuple

from ccsim.toolchain.jit import njit
from ccsim.kernel import slots
from ccsim.kernel.rules import (N_GROUPS, N_VALUES, N_CARD_CODES, N_ACTIONS, N_VOC_KINDS, N_PUB_RULES,
                         MAX_INFLUENCE_DECK, MAX_ACTION_DECK, MAX_VOC_DECK)

Field = namedtuple("Field", "region name shape meaning")

# ------------------------------------------------------------------ pub ------
PUB_FIELDS = (
    ("TURN", (), "number of turns taken so far (the n of the last `turn` event)"),
    ("CUR", (), "player taking the current turn"),
    ("OUT", (2,), "[p] 1 if that player is out (R9.3)"),
    ("REMAIN", (N_GROUPS,), "[g] patricians left at each group; 0 = out of play (R4.2.3)"),
    ("WON", (2, N_GROUPS), "[p, g] patricians won"),
    ("FU", (N_GROUPS, 2, N_VALUES), "[g, p, code] face-up influence cards at groups"),
    ("FDN", (N_GROUPS, 2), "[g, p] number of face-down cards (their values are private)"),
    ("DISC", (2, N_CARD_CODES), "[p, code] discard piles by card code"),
    ("HANDN", (2,), "[p] hand sizes"),
    ("IDECKN", (2,), "[p] cards left in each influence deck"),
    ("ADECKN", (2,), "[p] cards left in each action deck"),
    ("VOC_DISC", (N_VOC_KINDS,), "[kind] VoC discard pile"),
    ("VOC_BOX", (N_VOC_KINDS,), "[kind] VoC cards in the box"),
    ("VOC_DECKN", (), "cards left in the VoC deck"),
    ("QUIET", (), "consecutive quiet turns (R9.4)"),
    ("END", (), "end reason (rules.END_*); 0 while the game runs, -1 stopped on an error"),
    ("MODE", (), "this turn: 1 active, 0 passive"),
    ("NPLACED", (), "influence cards placed this turn (0, 1, 2)"),
    ("PLACED_UP", (), "1 if this turn's placements are face-up (R4.2)"),
    ("ACTION", (), "action card played this turn (card code), -1 none (R4.1); at a VETO decision the card to veto"),
    ("CTX_CARD", (), "CASTLE decision: the value code being split; -1 otherwise"),
    ("CTX_G1", (), "CASTLE: first castling group; VETO: the announced target group (-1: spy); else -1"),
    ("CTX_G2", (), "CASTLE: second castling group; VETO: castling's second group; else -1"),
    ("CTX_A", (), "CASTLE: cards already put back on the first group; VETO: the code an assassination removes"),
    ("CTX_B", (), "CASTLE: cards of earlier values kept on the second group"),
    ("CTX_LEFT", (), "CASTLE: cards still to split after this value"),
    ("NPLAYED", (2, N_ACTIONS), "[p, a] action cards played (vetoed ones too)"),
    ("NVETOED", (2, N_ACTIONS), "[p, a] own action cards cancelled by a veto"),
    ("SIDEN", (N_GROUPS, 2), "[g, p] cards on each side of each group (a cache of FU + FDN)"),
    ("RULES", (N_PUB_RULES,), "the rules-parameter vector's entries 0..27 of this game (everybody knows the rules)"),
    ("ACTION_COUNT", (2, N_ACTIONS), "[p, a] action cards each player owns by type (R1.4, R2.2: the rules vector's "
                                     "per-player counts; RULES' own action-count entries hold cleopatra's only)"),
    ("DEC_KIND", (), "the pending decision's kind (ccsim.kernel.decisions), -1 none (over, or between steps)"),
    ("DEC_P", (), "the player who makes the pending decision"),
    # where the game stands between two decisions (ccsim.kernel.engine.step): what the events
    # announced, so public (R8.1); a castling in progress is in the castler's block
    ("PHASE", (), "what the engine does next when no decision is pending (step.PH_*)"),
    ("RESUME", (), "what applies the pending decision's option (step.A_*)"),
    ("DEC_N", (), "options of the pending decision (at OPTS, its decider's)"),
    ("NEXT", (), "the player due to take the next turn (R2.6, R9.3)"),
    ("IN_TURN", (), "1 from the start of a turn until its end (invariants are checked then)"),
    ("PLACE_P", (), "the player whose initial placement (R2.5) is next"),
    ("ACT_P", (), "the player whose action card is being resolved"),
    ("ACT_CARD", (), "the action card being resolved (R7), -1 none"),
    ("ACT_G", (), "its announced group"),
    ("ACT_X", (), "its announced second target: assassinated code, second castling group"),
    ("DRAWN", (), "cards drawn in this turn's refill (R4.4, R5.1)"),
    ("DISC_CNT", (), "cards discarded on this passive turn (R5.1)"),
    ("QUIET_TURN", (), "1 if this turn changed nothing (R9.4)"),
)

# ------------------------------------------------------------------ priv -----
PRIV_FIELDS = (
    ("HAND", (N_CARD_CODES,), "[code] her hand"),
    ("FD", (N_GROUPS, N_VALUES), "[g, code] her own face-down cards"),
    ("BONUS", (), "her bonus group (R2.3)"),
    ("ADECK", (MAX_ACTION_DECK,), "her action deck, card codes, in order; the next card at ADECK_TOP"),
    ("ADECK_TOP", (), "index into ADECK of the next card to draw"),
    ("ADECK_LEN", (), "cards in her action deck at setup"),
    ("SPY_SEEN", (N_CARD_CODES,), "[code] the opponent's hand as her last spy showed it (R8.3)"),
    ("SPY_TURN", (), "turn of that spy, -1 never"),
    ("SPY_KNOWN", (N_CARD_CODES,), "[code] cards of that hand still known to be in it: action cards until they reach "
                                   "her discard pile, influence cards until she places a card face-down"),
    ("CASTLE_C", (), "her castling in progress (R7.3): the next value code to split"),
    ("CASTLE_A", (), "  cards put back on the first group so far"),
    ("CASTLE_M", (), "  cards of the value being split"),
    ("CASTLE_LEFT", (), "  cards of later values still to split"),
    ("CASTLE_TOTAL", (), "  all her cards at the two groups"),
    ("SPLIT1", (), "  the split so far on the first group, 3 bits per value code"),
    ("SPLIT2", (), "  the split so far on the second group"),
)

# ------------------------------------------------------------------ hid ------
HID_FIELDS = (
    ("IDECK", (2, MAX_INFLUENCE_DECK), "[p, i] influence decks; the next card at IDECK_TOP"),
    ("IDECK_TOP", (2,), "[p] index of each influence deck's next card"),
    ("IDECK_LEN", (2,), "[p] cards in each influence deck at setup"),
    ("VOC", (MAX_VOC_DECK,), "the VoC deck; the next card at VOC_TOP"),
    ("VOC_TOP", (), "index of the next VoC card"),
    ("VOC_LEN", (), "cards in the current VoC deck"),
    ("BONUS", (2,), "[p] both bonus groups (the engine's copy for scoring)"),
    ("SID", (2,), "[p] strategy id of each seat (strategies.registry)"),
    ("HAND_INF", (2,), "[p] influence cards in each hand (a cache of HAND: R3.2, R9.3 ask it often)"),
    ("STOP", (), "a phase to stop before (tests drive one rule at a time), 0 none"),
    ("QUICK", (), "bit p: seat p plays `random` and the strategies decide (drive_nb): her STEP and DISCARD "
                  "choices are drawn as the decision is posted, the list of options never written"),
    ("ACTION_EV", (), "log index of the action event being resolved (-1: no log)"),
    # the event log and replay
    ("NLOG", (), "events written to the log"),
    ("LOG_CAP", (), "events the log region can hold (0: no log kept)"),
    ("REPLAY", (), "1 when decisions and chance come from a record (replay)"),
    ("REC", (), "index in st of the replayed record's first event"),
    ("REC_LEN", (), "events in the replayed record"),
    ("ERROR", (), "0, or an engine/replay error code (ERR_*)"),
    ("ERROR_AT", (), "event index where the error arose"),
    ("BROKEN", (), "code of the invariant found broken (engine.invariants), 0 none"),
    # per-game counters of the designer metrics (result columns; docs/metrics.md), never read by the rules
    ("VOTES", (N_GROUPS,), "[g] votes held on each group, ties included (R4.3, R4.5)"),
    ("TIES", (), "tied votes (R6.4)"),
    ("REVERSALS", (), "decided votes the philosophers reversed (R6.3)"),
    ("EXCEPTIONAL", (), "votes of a group holding group_limit cards (R4.3)"),
    ("LEADER", (), "the last strict VP leader after a vote: 0 none yet, p + 1"),
    ("VP_LEAD", (), "cleopatra's VP minus caesar's (R10), kept up to date vote by vote (engine.vote)"),
    ("LEAD_CHANGES", (), "votes after which the strict VP leader is the other player than the last one"),
    ("LEADERS", (32,), "VP leader after each vote (0 tied, p + 1), 2 bits a vote, LEADERS_PER_SLOT a slot"),
)
LEADERS_PER_SLOT = 15   # 30 bits of an int32 slot: votes beyond 32 * 15 = 480 go unrecorded
MAX_LEADERS = 32 * LEADERS_PER_SLOT

# ------------------------------------------------------------------ setup ----
# What chance and the players fixed before the first turn (R2); the engine
# starts every game from such a block, simulated or read from a record.
SETUP_FIELDS = (
    ("IDECK", (2, MAX_INFLUENCE_DECK), "[p, i] influence decks, top first"),
    ("IDECK_LEN", (2,), "[p]"),
    ("ADECK", (2, MAX_ACTION_DECK), "[p, i] action decks (card codes), top first"),
    ("ADECK_LEN", (2,), "[p]"),
    ("VOC", (MAX_VOC_DECK,), "the VoC deck, top first"),
    ("VOC_LEN", (), ""),
    ("BONUS", (2,), "[p] bonus groups"),
    ("PLACEMENT", (2, N_GROUPS), "[p, g] value code placed on each group (R2.5), -1 until chosen"),
)

MAX_OPTIONS = 128       # the largest option list (120 initial placements)
MEM_SIZE = 440          # per-player strategy memory (int32), zeroed at game start
#                         (strategies.heuristics.features keeps its tables in [16:436])


def _place(fields, base, prefix, region):
    """Offsets of consecutive fields from ``base`` (ccsim.kernel.slots); returns (names -> offset,
    end, Field rows)."""
    offsets, end = slots.place(fields, prefix, base)
    return offsets, end, [Field(region, *f) for f in fields]


def _even(n: int) -> int:
    return (n + 1) // 2 * 2


PUB = 0
_pub, PUB_SIZE, _pub_rows = _place(PUB_FIELDS, PUB, "PUB_", "pub")
PRIV = PUB_SIZE
_priv, PRIV_SIZE, _priv_rows = _place(PRIV_FIELDS, 0, "PR_", "priv")
HID = PRIV + 2 * PRIV_SIZE
_hid, _hid_end, _hid_rows = _place(HID_FIELDS, HID, "H_", "hid")
HID_SIZE = _hid_end - HID
SETUP = HID + HID_SIZE
_setup, SETUP_SIZE, _setup_rows = _place(SETUP_FIELDS, 0, "S_", "setup")
OPTS = SETUP + SETUP_SIZE                 # [MAX_OPTIONS] option codes of the pending decision
MEM = _even(OPTS + MAX_OPTIONS)           # [2*MEM_SIZE] strategy memory, player p at mem_at(p)
#                                           (even: a strategy may keep float64 values in it, ccsim.toolchain.jit.f64_view)
LOG = MEM + 2 * MEM_SIZE                  # [cap*EV_W] event log when recording (H_LOG_CAP events)
BASE_SIZE = LOG                           # a state that keeps no log
# --- the slots, as the tables place them: plain definitions that grep and editors find.
# --- slots of pub: generated from its table (ccsim.kernel.slots), held by tests/test_slots.py ---
PUB_TURN = 0
PUB_CUR = 1
PUB_OUT = 2
PUB_REMAIN = 4
PUB_WON = 9
PUB_FU = 19
PUB_FDN = 79
PUB_DISC = 89
PUB_HANDN = 113
PUB_IDECKN = 115
PUB_ADECKN = 117
PUB_VOC_DISC = 119
PUB_VOC_BOX = 126
PUB_VOC_DECKN = 133
PUB_QUIET = 134
PUB_END = 135
PUB_MODE = 136
PUB_NPLACED = 137
PUB_PLACED_UP = 138
PUB_ACTION = 139
PUB_CTX_CARD = 140
PUB_CTX_G1 = 141
PUB_CTX_G2 = 142
PUB_CTX_A = 143
PUB_CTX_B = 144
PUB_CTX_LEFT = 145
PUB_NPLAYED = 146
PUB_NVETOED = 158
PUB_SIDEN = 170
PUB_RULES = 180
PUB_ACTION_COUNT = 208
PUB_DEC_KIND = 220
PUB_DEC_P = 221
PUB_PHASE = 222
PUB_RESUME = 223
PUB_DEC_N = 224
PUB_NEXT = 225
PUB_IN_TURN = 226
PUB_PLACE_P = 227
PUB_ACT_P = 228
PUB_ACT_CARD = 229
PUB_ACT_G = 230
PUB_ACT_X = 231
PUB_DRAWN = 232
PUB_DISC_CNT = 233
PUB_QUIET_TURN = 234
# --- end of the slots of pub ---
# --- slots of priv: generated from its table (ccsim.kernel.slots), held by tests/test_slots.py ---
PR_HAND = 0
PR_FD = 12
PR_BONUS = 42
PR_ADECK = 43
PR_ADECK_TOP = 75
PR_ADECK_LEN = 76
PR_SPY_SEEN = 77
PR_SPY_TURN = 89
PR_SPY_KNOWN = 90
PR_CASTLE_C = 102
PR_CASTLE_A = 103
PR_CASTLE_M = 104
PR_CASTLE_LEFT = 105
PR_CASTLE_TOTAL = 106
PR_SPLIT1 = 107
PR_SPLIT2 = 108
# --- end of the slots of priv ---
# --- slots of hid: generated from its table (ccsim.kernel.slots), held by tests/test_slots.py ---
H_IDECK = 453
H_IDECK_TOP = 581
H_IDECK_LEN = 583
H_VOC = 585
H_VOC_TOP = 601
H_VOC_LEN = 602
H_BONUS = 603
H_SID = 605
H_HAND_INF = 607
H_STOP = 609
H_QUICK = 610
H_ACTION_EV = 611
H_NLOG = 612
H_LOG_CAP = 613
H_REPLAY = 614
H_REC = 615
H_REC_LEN = 616
H_ERROR = 617
H_ERROR_AT = 618
H_BROKEN = 619
H_VOTES = 620
H_TIES = 625
H_REVERSALS = 626
H_EXCEPTIONAL = 627
H_LEADER = 628
H_VP_LEAD = 629
H_LEAD_CHANGES = 630
H_LEADERS = 631
# --- end of the slots of hid ---
# --- slots of setup: generated from its table (ccsim.kernel.slots), held by tests/test_slots.py ---
S_IDECK = 0
S_IDECK_LEN = 128
S_ADECK = 130
S_ADECK_LEN = 194
S_VOC = 196
S_VOC_LEN = 212
S_BONUS = 213
S_PLACEMENT = 215
# --- end of the slots of setup ---
SLOT_TABLES = {"pub": _pub, "priv": _priv, "hid": _hid, "setup": _setup}  # table -> {name: offset}
for _table, _offsets in SLOT_TABLES.items():
    slots.hold(globals(), _offsets, _table)


#: every slot of the state, in order: Field(region, name, shape, meaning); regions
#: "pub", "priv" (twice: player 0, then 1), "hid", "setup"; then opts, mem, log
FIELDS = tuple(_pub_rows + _priv_rows + _hid_rows + _setup_rows)
REGIONS = (("pub", PUB, PUB_SIZE), ("priv", PRIV, 2 * PRIV_SIZE), ("hid", HID, HID_SIZE),
           ("setup", SETUP, SETUP_SIZE), ("opts", OPTS, MAX_OPTIONS), ("mem", MEM, 2 * MEM_SIZE))
assert MEM % 2 == 0 and MEM_SIZE % 2 == 0


def offset(region: str, name: str) -> int:
    """The offset of a slot by its table name (``offset("pub", "FU")``): for tools and tests."""
    prefix = {"pub": "PUB_", "priv": "PR_", "hid": "H_", "setup": "S_"}[region]
    return globals()[prefix + name]


# ------------------------------------------------------------------ errors ---
ERR_NO_OPTION = 1       # a decision with no legal option (must never happen)
ERR_REPLAY_ILLEGAL = 2  # replay: the recorded event is not a legal option here
ERR_LOG_FULL = 3        # the event log buffer overflowed
ERR_REPLAY_CHANCE = 4   # replay: the record's chance event (reshuffle) does not fit
ERR_BAD_CHOICE = 5      # a strategy returned an index outside its options
ERR_INVARIANT = 6       # a state invariant was broken (checked runs only)
ERR_NO_STRATEGY = 7     # a seat's parameters carry no compiled strategy (not from registry.resolve)
ERROR_NAMES = {0: "ok", ERR_NO_OPTION: "no legal option", ERR_REPLAY_ILLEGAL: "illegal event",
               ERR_LOG_FULL: "event log full", ERR_REPLAY_CHANCE: "bad reshuffle",
               ERR_BAD_CHOICE: "strategy chose outside its options", ERR_INVARIANT: "invariant broken",
               ERR_NO_STRATEGY: "seat has no compiled strategy"}

# ---------------------------------------------------------------- events -----
EV_W = 7                # fields per event: type, p, a, b, c, d, e
EV_TURN, EV_PLACE, EV_ACTION, EV_VETO, EV_DISCARD, EV_DRAW, EV_VOTE, EV_VOC, EV_RESHUFFLE = range(1, 10)
EVENT_NAMES = {EV_TURN: "turn", EV_PLACE: "place", EV_ACTION: "action", EV_VETO: "veto",
               EV_DISCARD: "discard", EV_DRAW: "draw", EV_VOTE: "vote", EV_VOC: "voc",
               EV_RESHUFFLE: "reshuffle"}
EVENTS_PER_TURN = 40    # bound on the events of one turn (votes, draws, VoC draws)

MAX_PARAMS = 256        # per-seat strategy parameter vector (float64): a search holds its rollout's in it
P_ENTRY = MAX_PARAMS - 1  # its last slot: the address of the seat's compiled strategy (strategies.registry)
N_RNG = 4               # random streams: chance, cleopatra's strategy, caesar's strategy, shuffled action decks


def max_events(rules) -> int:
    """Events that any game under these rules can write (R9.5 caps its turns)."""
    from ccsim.kernel.rules import RP_MAX_TURNS
    return int(rules[RP_MAX_TURNS]) * EVENTS_PER_TURN + 64


def state_size(n_log: int, n_rec: int) -> int:
    """Length of ``st`` for a log of n_log events followed by a record of n_rec events."""
    return BASE_SIZE + (n_log + n_rec) * EV_W


# ------------------------------------------------------------------ index helpers
# The multi-dimensional slots by their indices, row-major as in the tables
# (tests/test_layout.py holds every helper to the table).  ``pub`` helpers are
# absolute (pub starts at 0, so they index a strategy's ``pub`` view too);
# ``fd_at`` is relative to a private block.
@njit(cache=True, forceinline=True)
def seat_of(p):
    """Player p (0 or 1) as LLVM can tell it is one.  numba wraps every array index it cannot
    prove non-negative (a negative index counts from the end); a seat read from the state, or
    passed to a function not inlined, is such an index, and so is every slot computed from it.
    The mask changes no value and drops that fix-up from each of them."""
    return p & 1


@njit(cache=True, forceinline=True)
def group_of(g):
    """Group g (0..4) as LLVM can tell it is one (seat_of's reason)."""
    return g & 7


@njit(cache=True, forceinline=True)
def fu_at(g, p, c):
    """PUB_FU[g, p, c]: face-up cards of value code c on p's side of g."""
    return PUB_FU + (g * 2 + p) * N_VALUES + c


@njit(cache=True, forceinline=True)
def fdn_at(g, p):
    """PUB_FDN[g, p]: face-down cards on p's side of g."""
    return PUB_FDN + g * 2 + p


@njit(cache=True, forceinline=True)
def siden_at(g, p):
    """PUB_SIDEN[g, p]: cards on p's side of g, both faces."""
    return PUB_SIDEN + g * 2 + p


@njit(cache=True, forceinline=True)
def won_at(p, g):
    """PUB_WON[p, g]: patricians of g won by p."""
    return PUB_WON + p * N_GROUPS + g


@njit(cache=True, forceinline=True)
def disc_at(p, c):
    """PUB_DISC[p, c]: cards of code c in p's discard pile."""
    return PUB_DISC + p * N_CARD_CODES + c


@njit(cache=True, forceinline=True)
def played_at(p, a):
    """PUB_NPLAYED[p, a]: p's action cards of kind a (0..5) played."""
    return PUB_NPLAYED + p * N_ACTIONS + a


@njit(cache=True, forceinline=True)
def action_count_at(p, a):
    """PUB_ACTION_COUNT[p, a]: action cards of kind a (0..5) that p owns under this game's rules."""
    return PUB_ACTION_COUNT + p * N_ACTIONS + a


@njit(cache=True, forceinline=True)
def vetoed_at(p, a):
    """PUB_NVETOED[p, a]: p's action cards of kind a cancelled by a veto."""
    return PUB_NVETOED + p * N_ACTIONS + a


@njit(cache=True, forceinline=True)
def priv_at(p):
    """Start of player p's private block in ``st``."""
    return PRIV + p * PRIV_SIZE


@njit(cache=True, forceinline=True)
def fd_at(g, c):
    """PR_FD[g, c], relative to a private block: her face-down cards of code c at g."""
    return PR_FD + g * N_VALUES + c


@njit(cache=True, forceinline=True)
def ideck_at(p, i):
    """H_IDECK[p, i]: card i of p's influence deck."""
    return H_IDECK + p * MAX_INFLUENCE_DECK + i


@njit(cache=True, forceinline=True)
def s_ideck_at(p, i):
    """S_IDECK[p, i], relative to SETUP."""
    return S_IDECK + p * MAX_INFLUENCE_DECK + i


@njit(cache=True, forceinline=True)
def s_adeck_at(p, i):
    """S_ADECK[p, i], relative to SETUP."""
    return S_ADECK + p * MAX_ACTION_DECK + i


@njit(cache=True, forceinline=True)
def s_placement_at(p, g):
    """S_PLACEMENT[p, g], relative to SETUP."""
    return S_PLACEMENT + p * N_GROUPS + g


@njit(cache=True, forceinline=True)
def mem_at(p):
    """Start of player p's strategy memory in ``st``."""
    return MEM + p * MEM_SIZE

"""The layout of one game's state: flat integer arrays with named slots.

A game is one int32 vector ``st`` (plus its random streams ``rng`` and the
seats' strategy parameters ``sp``).  One flat vector, passed as a plain
argument, keeps the compiled turn loop free of reference counting (a tuple of
arrays cost a third of the run time in refcount traffic).  Its regions follow
the information sets of R8, so that a strategy can be handed exactly what its
player may see, by construction:

* ``pub``  (``st[PUB:PUB + PUB_SIZE]``) — public to both players (R8.1),
  the rules vector included;
* ``priv`` (``st[priv_base(p):...+PRIV_SIZE]``) — private to player ``p``
  (R8.2): her hand, her face-down cards, her bonus, her own action-deck
  order, what a spy showed her;
* ``hid``  — hidden from both: deck orders, the VoC deck, engine bookkeeping;
* ``setup``, ``opts`` (the option buffer of the current decision), ``mem``
  (each player's strategy memory), and when recording or replaying the event
  ``log`` and the replayed record ``rec``.

Offsets named ``PUB_*`` and ``H_*`` are absolute indices into ``st``;
``PR_*`` are relative to a player's private base, ``S_*`` to ``SETUP``.

Every slot below carries its layout; counts are never negative; ``-1`` means
"none" where a slot can be empty.
"""

# ---------------------------------------------------------------- pub --------
PUB = 0
PUB_TURN = 0            # number of turns taken so far (the n of the last `turn` event)
PUB_CUR = 1             # player taking the current turn
PUB_OUT = 2             # [2] 1 if that player is out (R9.3)
PUB_REMAIN = 4          # [5] patricians left at each group; 0 = out of play (R4.2.3)
PUB_WON = 9             # [2*5] patricians won, index p*5+g
PUB_FU = 19             # [5*2*6] face-up cards at groups, index (g*2+p)*6+code
PUB_FDN = 79            # [5*2] number of face-down cards, index g*2+p
PUB_DISC = 89           # [2*12] discard piles by card code, index p*12+code
PUB_HANDN = 113         # [2] hand sizes
PUB_IDECKN = 115        # [2] influence cards left in each influence deck
PUB_ADECKN = 117        # [2] cards left in each action deck
PUB_VOC_DISC = 119      # [7] VoC discard pile by VoC kind
PUB_VOC_BOX = 126       # [7] VoC cards in the box by VoC kind
PUB_VOC_DECKN = 133     # cards left in the VoC deck
PUB_QUIET = 134         # consecutive quiet turns (R9.4)
PUB_END = 135           # end reason (rules.END_*); 0 while the game runs
PUB_MODE = 136          # this turn: 1 active, 0 passive
PUB_NPLACED = 137       # influence cards placed this turn (0, 1, 2)
PUB_PLACED_UP = 138     # 1 if this turn's placements are face-up (R4.2)
PUB_ACTION = 139        # action card played this turn (card code), -1 none (R4.1)
PUB_CTX_CARD = 140      # decision context: action card being resolved / castling value code
PUB_CTX_G1 = 141        # decision context: first group (castling, assassination, ...) or -1
PUB_CTX_G2 = 142        # decision context: second castling group or -1
PUB_CTX_A = 143         # castling: cards already put back on the first group
PUB_CTX_B = 144         # castling: cards already put back on the second group
PUB_CTX_LEFT = 145      # castling: cards still to put back after this value
PUB_ACTION_COUNT = 146  # [2*6] action cards each player owns by type, index p*6+action (R1.4, R2.2: the
#                         rules vector's per-player counts, public like every rule; PUB_RULES' own action-count
#                         entries hold cleopatra's only)
PUB_NPLAYED = 160       # [2*6] action cards played, index p*6+action (vetoed ones too)
PUB_NVETOED = 172       # [2*6] own action cards cancelled by a veto, index p*6+action
PUB_SIDEN = 184         # [5*2] cards on each side of each group, index g*2+p (cache of FU+FDN)
PUB_RULES = 200         # [28] the rules-parameter vector's entries 0..27 (public: everybody knows the rules)
PUB_SIZE = 232

# ---------------------------------------------------------------- priv -------
PRIV = PUB_SIZE         # player p's private block starts at PRIV + p * PRIV_SIZE
PR_HAND = 0             # [12] hand by card code
PR_FD = 12              # [5*6] own face-down cards, index g*6+code
PR_BONUS = 42           # own bonus group (R2.3)
PR_ADECK = 43           # [32] own action deck, card codes, in order; top at PR_ADECK_TOP
PR_ADECK_TOP = 75       # index into PR_ADECK of the next card to draw
PR_ADECK_LEN = 76       # cards in the action deck at setup
PR_SPY_SEEN = 77        # [12] opponent's hand as last shown by a spy (R8.3)
PR_SPY_TURN = 89        # turn of that spy, -1 never
PRIV_SIZE = 96

# ---------------------------------------------------------------- hid --------
HID = PRIV + 2 * 96
H_IDECK = HID + 0       # [2*64] influence decks, index p*64+i, top at H_IDECK_TOP
H_IDECK_TOP = HID + 128 # [2] index of each deck's next card
H_IDECK_LEN = HID + 130 # [2] cards in each influence deck at setup
H_VOC = HID + 132       # [16] VoC deck, top at H_VOC_TOP
H_VOC_TOP = HID + 148   # index of the next VoC card
H_VOC_LEN = HID + 149   # cards in the current VoC deck
H_NLOG = HID + 150      # events written to the log
H_RECORD = HID + 151    # 1 when the event log is kept
H_REPLAY = HID + 152    # 1 when decisions and chance come from a record (replay)
H_ERROR = HID + 153     # 0, or an engine/replay error code (ERR_*)
H_ERROR_AT = HID + 154  # event index where the error arose
H_BONUS = HID + 155     # [2] both bonus groups (the engine's copy for scoring)
H_ACTION_EV = HID + 157 # log index of the action event being resolved (-1 none)
H_LOG_CAP = HID + 158   # events the log region can hold (0: no log kept)
H_REC = HID + 159       # index in st of the replayed record's first event
H_REC_LEN = HID + 160   # events in the replayed record
H_SID = HID + 161       # [2] strategy id of each seat (strategies.registry)
H_BROKEN = HID + 164    # code of the invariant found broken (engine.invariants), 0 none
# per-game counters of the designer metrics (result columns; docs/metrics.md), never read by the rules
H_VOTES = HID + 168     # [5] votes held on each group, ties included (R4.3, R4.5)
H_TIES = HID + 173      # tied votes (R6.4)
H_REVERSALS = HID + 174  # decided votes the philosophers reversed (R6.3)
H_EXCEPTIONAL = HID + 175  # votes of a group holding group_limit cards (R4.3)
H_LEADER = HID + 176    # the last strict VP leader after a vote: 0 none yet, p + 1
H_LEAD_CHANGES = HID + 177  # votes after which the strict VP leader is the other player than the last one
H_LEADERS = HID + 178   # [32] VP leader after each vote (0 tied, p + 1), 2 bits a vote, LEADERS_PER_SLOT a slot
HID_SIZE = 210
LEADERS_PER_SLOT = 15   # 30 bits of an int32 slot: votes beyond 32 * 15 = 480 go unrecorded
MAX_LEADERS = 32 * LEADERS_PER_SLOT

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

# ---------------------------------------------------------------- setup ------
# What chance and the players fixed before the first turn (R2); the engine
# starts every game from such a vector, simulated or read from a record.
S_IDECK = 0             # [2*64] influence decks, top first
S_IDECK_LEN = 128       # [2]
S_ADECK = 130           # [2*32] action decks (card codes), top first
S_ADECK_LEN = 194       # [2]
S_VOC = 196             # [16] VoC deck, top first
S_VOC_LEN = 212
S_BONUS = 213           # [2]
S_PLACEMENT = 215       # [2*5] value code placed on each group (R2.5), -1 until chosen
SETUP_SIZE = 225

# ---------------------------------------------------------------- events -----
EV_W = 7                # fields per event: type, p, a, b, c, d, e
EV_TURN, EV_PLACE, EV_ACTION, EV_VETO, EV_DISCARD, EV_DRAW, EV_VOTE, EV_VOC, EV_RESHUFFLE = range(1, 10)
EVENT_NAMES = {EV_TURN: "turn", EV_PLACE: "place", EV_ACTION: "action", EV_VETO: "veto",
               EV_DISCARD: "discard", EV_DRAW: "draw", EV_VOTE: "vote", EV_VOC: "voc",
               EV_RESHUFFLE: "reshuffle"}
EVENTS_PER_TURN = 40    # bound on the events of one turn (votes, draws, VoC draws)

MEM_SIZE = 440          # per-player strategy memory (int32), zeroed at game start
#                         (strategies.features keeps its tables in [16:436])
MAX_PARAMS = 33         # per-seat strategy parameter vector (float64)
P_ENTRY = MAX_PARAMS - 1  # its last slot: the address of the seat's compiled strategy (strategies.registry)
N_RNG = 4               # random streams: chance, cleopatra's strategy, caesar's strategy, shuffled action decks

# ---------------------------------------------------------------- bases ------
SETUP = HID + HID_SIZE                  # [SETUP_SIZE]
OPTS = SETUP + SETUP_SIZE               # [MAX_OPTIONS] option codes of the current decision
MAX_OPTIONS = 128                       # the largest option list (120 initial placements)
MEM = (OPTS + MAX_OPTIONS + 1) // 2 * 2  # [2*MEM_SIZE] strategy memory, player p at MEM + p*MEM_SIZE
#                                         (even: a strategy may keep float64 values in it, ccsim.jit.f64_view)
LOG = MEM + 2 * MEM_SIZE                # [cap*EV_W] event log when recording (H_LOG_CAP events)
BASE_SIZE = LOG                         # a state that keeps no log
assert PRIV + 2 * PRIV_SIZE == HID
assert MEM % 2 == 0 and MEM_SIZE % 2 == 0


def max_events(rules) -> int:
    """Events that any game under these rules can write (R9.5 caps its turns)."""
    return int(rules[26]) * EVENTS_PER_TURN + 64


def state_size(n_log: int, n_rec: int) -> int:
    """Length of ``st`` for a log of n_log events followed by a record of n_rec events."""
    return BASE_SIZE + (n_log + n_rec) * EV_W

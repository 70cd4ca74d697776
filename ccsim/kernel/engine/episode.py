"""Whole games: the step loop with the seats' strategies (or a record) choosing, and the
result row.  The compiled entry points of the batch kernel, recording and replay."""
import numpy as np
from ccsim.toolchain.jit import njit

from ccsim.kernel import slots

from ccsim.kernel.layout import (SETUP, SETUP_SIZE, LOG, EV_W, N_RNG, PUB_RULES, PUB_END, PUB_TURN, H_BONUS, H_ERROR, H_REPLAY, H_NLOG, H_LOG_CAP, H_REC, H_REC_LEN,
                          H_VOTES, H_TIES, H_REVERSALS, H_EXCEPTIONAL, H_LEAD_CHANGES, won_at, played_at, vetoed_at)
from ccsim.kernel.rules import N_GROUPS, N_ACTIONS, RP_GROUP_SIZE, RP_BONUS_THRESHOLD
from ccsim.kernel.rng import seed_game_nb
from ccsim.kernel.engine.setup import deal_nb, reset_nb
from ccsim.kernel.engine.step import start_game_nb, advance_nb, drive_nb
from ccsim.kernel.engine.score import vp_nb, winner_nb, has_majority_nb
from ccsim.kernel.engine.vote import leader_after_nb

# result row: one int16 per column (rules.END_* for `end`, -1 for a draw / no error)
RESULT_COLUMNS = (
    ("winner", "0 cleopatra, 1 caesar, -1 draw (R10.5)"),
    ("end", "end reason code, rules.END_NAMES"),
    ("turns", "turns taken"),
    ("vp_cleopatra", "R10 score"),
    ("vp_caesar", "R10 score"),
    *((f"pat_cleopatra_{g}", f"patricians of {g} won") for g in
      ("senator", "praetor", "quaestor", "censor", "aedile")),
    *((f"pat_caesar_{g}", f"patricians of {g} won") for g in
      ("senator", "praetor", "quaestor", "censor", "aedile")),
    ("bonus_cleopatra", "bonus group (R2.3)"),
    ("bonus_caesar", "bonus group (R2.3)"),
    ("majorities_cleopatra", "bit g set: majority of group g (R10.2)"),
    ("majorities_caesar", "bit g set: majority of group g (R10.2)"),
    ("alls_cleopatra", "bit g set: every patrician of group g (R10.3)"),
    ("alls_caesar", "bit g set: every patrician of group g (R10.3)"),
    ("bonus_hit_cleopatra", "1 if the bonus scored (R10.4)"),
    ("bonus_hit_caesar", "1 if the bonus scored (R10.4)"),
    *((f"played_cleopatra_{a}", f"{a} cards played") for a in
      ("assassination", "spy", "castling", "scout", "wrath", "veto")),
    *((f"played_caesar_{a}", f"{a} cards played") for a in
      ("assassination", "spy", "castling", "scout", "wrath", "veto")),
    *((f"vetoed_cleopatra_{a}", f"own {a} cards vetoed") for a in
      ("assassination", "spy", "castling", "scout", "wrath", "veto")),
    *((f"vetoed_caesar_{a}", f"own {a} cards vetoed") for a in
      ("assassination", "spy", "castling", "scout", "wrath", "veto")),
    ("error", "engine error code, 0 = none (layout.ERR_*)"),
    # appended for the designer metrics (docs/metrics.md); the columns above never move
    *((f"votes_{g}", f"votes held on {g}, ties included (R4.3, R4.5)") for g in
      ("senator", "praetor", "quaestor", "censor", "aedile")),
    ("ties", "tied votes (R6.4)"),
    ("reversals", "decided votes the philosophers reversed (R6.3)"),
    ("exceptional_votes", "votes of a group holding group_limit cards (R4.3)"),
    ("lead_changes", "votes after which the other player leads on VP than the last leader"),
    ("leader_half", "VP leader after the first half (rounded down) of the votes: 0, 1, -1 none"),
)
# the result row's slots (RESULT_COLUMNS names every column of them, the Parquet contract)
RESULT_TABLE = (
    ("WINNER", (), "0 cleopatra, 1 caesar, -1 draw (R10.5)"),
    ("END", (), "end reason code"),
    ("TURNS", (), "turns taken"),
    ("VP", (2,), "[p] R10 score"),
    ("PAT", (2, N_GROUPS), "[p, g] patricians won"),
    ("BONUS", (2,), "[p] bonus group (R2.3)"),
    ("MAJ", (2,), "[p] bit g set: majority of group g (R10.2)"),
    ("ALL", (2,), "[p] bit g set: every patrician of group g (R10.3)"),
    ("BONUS_HIT", (2,), "[p] 1 if the bonus scored (R10.4)"),
    ("PLAYED", (2, N_ACTIONS), "[p, a] action cards played"),
    ("VETOED", (2, N_ACTIONS), "[p, a] own action cards vetoed"),
    ("ERROR", (), "engine error code, 0 = none"),
    ("VOTES", (N_GROUPS,), "[g] votes held, ties included"),
    ("TIES", (), "tied votes (R6.4)"),
    ("REVERSALS", (), "decided votes the philosophers reversed (R6.3)"),
    ("EXCEPTIONAL", (), "votes of a group holding group_limit cards (R4.3)"),
    ("LEAD_CHANGES", (), "votes after which the other player leads"),
    ("LEADER_HALF", (), "VP leader after the first half of the votes"),
)
RESULT_SLOTS, N_RESULT = slots.place(RESULT_TABLE, "R_")
assert N_RESULT == len(RESULT_COLUMNS) == 58
# --- slots of result: generated from its table (ccsim.kernel.slots), held by tests/test_slots.py ---
R_WINNER = 0
R_END = 1
R_TURNS = 2
R_VP = 3
R_PAT = 5
R_BONUS = 15
R_MAJ = 17
R_ALL = 19
R_BONUS_HIT = 21
R_PLAYED = 23
R_VETOED = 35
R_ERROR = 47
R_VOTES = 48
R_TIES = 53
R_REVERSALS = 54
R_EXCEPTIONAL = 55
R_LEAD_CHANGES = 56
R_LEADER_HALF = 57
# --- end of the slots of result ---
slots.hold(globals(), RESULT_SLOTS, "result")


@njit(cache=True)
def play_nb(st, rng, sp, checked=None, replay=None):
    """One whole game from the dealt setup block (placements still to choose) to its end
    (the record deciding if ``replay`` is given)."""
    start_game_nb(st)
    drive_nb(st, rng, sp, checked, replay)


@njit(cache=True, nrt=True)  # an entry point from Python: allocates the seats' (empty) ids
def start_and_advance_nb(st, rng, rules, seed, game, orders):
    """Deal game ``game`` of run seed ``seed`` (as play_seeded_nb does) and run it to its first
    decision, for a game driven one decision at a time (``ccsim.Game``)."""
    reset_nb(st, rules, np.zeros(2, np.int64))
    st[H_LOG_CAP] = (st.shape[0] - LOG) // EV_W
    seed_game_nb(rng, seed, game)
    deal_nb(st, orders, rng)
    start_game_nb(st)
    advance_nb(st, rng)


@njit(cache=True)
def deal_and_advance_nb(st, rng, rules, sids, seed, game, orders):
    """Deal game ``game`` of run seed ``seed`` for the seats ``sids`` and run it to its first
    decision: the start of a game a loop of its own drives (the training's self-play)."""
    reset_nb(st, rules, sids)
    seed_game_nb(rng, seed, game)
    deal_nb(st, orders, rng)
    start_game_nb(st)
    advance_nb(st, rng)


@njit(cache=True)
def play_seeded_nb(st, rng, sp, rules, sids, seed, game, orders, checked=None):
    """Game ``game`` of run seed ``seed``: deal (R2) from its own streams, then play
    (with invariants checked after every turn if ``checked`` is given)."""
    reset_nb(st, rules, sids)
    seed_game_nb(rng, seed, game)
    deal_nb(st, orders, rng)
    play_nb(st, rng, sp, checked)


@njit(cache=True)
def result_row_nb(st, out):
    """Write the game's result row (RESULT_COLUMNS) into ``out``."""
    out[R_WINNER] = winner_nb(st)
    out[R_END] = st[PUB_END]
    out[R_TURNS] = st[PUB_TURN]
    for p in range(2):
        bonus = st[H_BONUS + p]
        out[R_VP + p] = vp_nb(st, bonus, p)
        out[R_BONUS + p] = bonus
        maj = 0
        alls = 0
        for g in range(N_GROUPS):
            won = st[won_at(p, g)]
            out[R_PAT + p * 5 + g] = won
            if has_majority_nb(st, p, g):
                maj |= 1 << g
            if won == st[PUB_RULES + RP_GROUP_SIZE + g]:
                alls |= 1 << g
        out[R_MAJ + p] = maj
        out[R_ALL + p] = alls
        out[R_BONUS_HIT + p] = 1 if st[won_at(p, bonus)] >= st[PUB_RULES + RP_BONUS_THRESHOLD] else 0
        for a in range(N_ACTIONS):
            out[R_PLAYED + p * N_ACTIONS + a] = st[played_at(p, a)]
            out[R_VETOED + p * N_ACTIONS + a] = st[vetoed_at(p, a)]
    out[R_ERROR] = st[H_ERROR]
    votes = 0
    for g in range(N_GROUPS):
        out[R_VOTES + g] = st[H_VOTES + g]
        votes += st[H_VOTES + g]
    out[R_TIES] = st[H_TIES]
    out[R_REVERSALS] = st[H_REVERSALS]
    out[R_EXCEPTIONAL] = st[H_EXCEPTIONAL]
    out[R_LEAD_CHANGES] = st[H_LEAD_CHANGES]
    out[R_LEADER_HALF] = leader_after_nb(st, votes // 2)


@njit(cache=True, nrt=True)  # an entry point: copies a slice
def record_game_nb(st, rng, sp, rules, sids, seed, game, orders, setup_out, result_out, checked=None):
    """Play one game keeping its event log (``st`` sized by ``layout.state_size``);
    returns the number of events, found at ``st[LOG:]``."""
    st[H_LOG_CAP] = (st.shape[0] - LOG) // EV_W
    play_seeded_nb(st, rng, sp, rules, sids, seed, game, orders, checked)
    setup_out[:] = st[SETUP:SETUP + SETUP_SIZE]
    result_row_nb(st, result_out)
    return st[H_NLOG]


@njit(cache=True, nrt=True)
def replay_game_nb(st, rules, setup, rec, n_log, result_out, checked=None):
    """Replay a recorded game: its setup, every decision and every reshuffle from
    the record ``rec`` (events x EV_W).  ``st`` holds n_log log events then the
    record.  Returns the number of events the engine logged; ``result_out[R_ERROR]``
    is non-zero if a recorded event was illegal at its moment."""
    rng = np.zeros(N_RNG, np.uint64)
    sp = np.zeros((2, 1), np.float64)
    sids = np.zeros(2, np.int64)
    st[H_LOG_CAP] = n_log
    st[H_REC] = LOG + n_log * EV_W
    st[H_REC_LEN] = rec.shape[0]
    st[H_REPLAY] = 1
    reset_nb(st, rules, sids)
    r = st[H_REC]
    for k in range(rec.shape[0]):
        for j in range(EV_W):
            st[r + k * EV_W + j] = rec[k, j]
    st[SETUP:SETUP + SETUP_SIZE] = setup
    play_nb(st, rng, sp, checked, 1)
    result_row_nb(st, result_out)
    return st[H_NLOG]

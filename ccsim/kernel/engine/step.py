"""The resumable game: where it stands lives in the state, and one step applies one option.

A game is a sequence of phases (``PH_*``) and decisions.  ``advance_nb`` runs
phases — the rules between two decisions, chance included — until one posts a
decision (its kind and player in ``pub``, its options at ``OPTS``, what
applies the chosen one in ``PUB_RESUME``) or the game ends.  A decision with a
single option is taken on the spot (not in a replay, which checks every
decision against its record).  ``apply_nb`` takes the index of an option of
the pending decision, applies it and advances to the next decision:

    start_game_nb(st); advance_nb(st, rng)
    while st[PUB_DEC_KIND] >= 0:
        apply_nb(st, rng, <an index into st[OPTS:OPTS + st[PUB_DEC_N]]>)

Nothing of a game lives on the call stack between two decisions, so a copy
of ``st`` and ``rng`` is an independent game (a fork), and anything — the
batch kernel's strategies (``engine.episode``), a record (replay), a search
player, the Python ``ccsim.Game``, a person at a terminal — can choose.

The turn, in phases (R3–R5, R9):

    PLACEMENT ×2 (R2.5) → NEXT_TURN (R9.3, R2.6) → MODE (R3) ─┬─ STEP* (R4.1, R4.2) → PLAY_DONE (R4.3)
                                                               │     action: VETO? (R7.6) → EFFECT (R7)
                                                               │             (SPY_PICK, CASTLE*)
                                                               └─ DISCARD (R5.1)
        → REFILL (R4.4; then R4.5 on an active turn) → TURN_END (R9.2, R9.4, R9.5) → NEXT_TURN …

With ``checked`` given (tests), the state's invariants are checked at the end
of every turn (and of a turn cut short by the end of the game); left out,
that code is not even compiled into the kernel.
"""
from ccsim.toolchain.jit import njit

from ccsim.kernel.layout import (OPTS, PUB_TURN, PUB_CUR, PUB_OUT, PUB_END, PUB_MODE, PUB_NPLACED, PUB_PLACED_UP,
                          PUB_ACTION, PUB_QUIET, PUB_DEC_KIND, PUB_DEC_P, PUB_PHASE, PUB_RESUME, PUB_DEC_N, H_STOP,
                          PUB_NEXT, PUB_IN_TURN, PUB_PLACE_P, PUB_ACT_P, PUB_ACT_CARD, PUB_ACT_G, PUB_ACT_X, PUB_DRAWN,
                          PUB_DISC_CNT, PUB_QUIET_TURN, H_QUICK, PR_CASTLE_C, PR_CASTLE_A, PR_CASTLE_M, PR_CASTLE_LEFT,
                          PR_CASTLE_TOTAL, PR_SPLIT1, PR_SPLIT2, H_REPLAY, H_BROKEN, EV_TURN, ERR_NO_OPTION,
                          ERR_REPLAY_ILLEGAL, ERR_NO_STRATEGY, ERR_BAD_CHOICE, H_SID,
                          priv_at, fd_at, seat_of)
from ccsim.kernel.rules import SPY, CASTLING, N_VALUES
from ccsim.kernel.decisions import (PLACEMENT, MODE, STEP, VETO, SPY_PICK, CASTLE, DRAW, VETO_DRAW, DISCARD,
                             T_ACTION, T_END, step_type, step_card, step_group, step_x)
from ccsim.kernel.engine.core import log_nb, draw_nb, draw_options_nb, over_nb, fail_nb, has_influence_nb
from ccsim.kernel.engine.setup import start_nb, placement_options_nb, place_initial_nb
from ccsim.kernel.engine.turn import (step_options_nb, step_pick_nb, place_nb, refill_options_nb, mode_options_nb,
                               discard_options_nb, discard_pick_nb, discard_cards_nb, end_of_turn_nb)
from ccsim.kernel.engine.actions import (announce_action_nb, announce_target_nb, can_veto_nb, veto_nb, direct_effect_nb,
                                  spy_look_nb, spy_take_nb, castle_gather_nb, castle_split_options_nb,
                                  castle_move_nb, castle_done_nb)
from ccsim.kernel.engine.vote import exceptional_votes_nb, voc_draw_nb
from ccsim.kernel.engine.invariants import enforce_invariants_nb
from ccsim.kernel.engine.dispatch import choose_nb, NO_ENTRY, RANDOM
from ccsim.kernel.engine.replay import replay_choose_nb

# phases: what advance_nb runs next when no decision is pending (0: not started)
PH_PLACEMENT = 1    # R2.5: post the initial placement of PUB_PLACE_P
PH_NEXT_TURN = 2    # R9.3 who is out, R2.6 whose turn; the turn starts
PH_MODE = 3         # R3: post active or passive
PH_STEP = 4         # R4.1, R4.2: post the next step of the active turn
PH_EFFECT = 5       # R7: the effect of the announced (not vetoed) action card
PH_CASTLE = 6       # R7.3: post the split of the next value, or finish the castling
PH_PLAY_DONE = 7    # R4.3: exceptional votes, then the refill
PH_REFILL = 8       # R4.4, R5.1: post the next draw, or finish (R4.5 on an active turn)
PH_DISCARD = 9      # R5.1: post the passive discard
PH_TURN_END = 10    # R9.2, R9.4, R9.5 at the turn boundary
PH_OVER = 11        # the game has ended
PHASE_NAMES = ("none", "placement", "next_turn", "mode", "step", "effect", "castle", "play_done", "refill",
               "discard", "turn_end", "over")

# what applies the chosen option of the pending decision
A_PLACEMENT = 1
A_MODE = 2
A_STEP = 3
A_VETO = 4
A_VETO_DRAW = 5
A_SPY_PICK = 6
A_SPY_DRAW = 7
A_CASTLE = 8
A_REFILL_DRAW = 9
A_DISCARD = 10


@njit(cache=True)
def start_game_nb(st):
    """From the dealt setup block to the first decision's phase (call advance_nb next)."""
    start_nb(st)
    st[PUB_PLACE_P] = 0
    st[PUB_NEXT] = 0  # R2.6: cleopatra first
    st[PUB_PHASE] = PH_PLACEMENT


@njit(cache=True)
def post_nb(st, kind, p, n, resume):
    """Pend a decision of player p between the n options at OPTS."""
    st[PUB_DEC_KIND] = kind
    st[PUB_DEC_P] = p
    st[PUB_DEC_N] = n
    st[PUB_RESUME] = resume


@njit(cache=True)
def post_picked_nb(st, kind, p, n, code, resume):
    """Pend a decision already taken (H_QUICK): its one option the code picked among n."""
    st[OPTS] = code
    post_nb(st, kind, p, 1 if n > 0 else n, resume)  # none: drive_nb fails the decision


@njit(cache=True)
def post_step_nb(st, rng, p):
    """R4.1, R4.2: pend the next step of p's active turn."""
    p = seat_of(p)
    if (st[H_QUICK] >> p) & 1 == 1:
        n, code = step_pick_nb(st, rng, p)
        post_picked_nb(st, STEP, p, n, code, A_STEP)
    else:
        post_nb(st, STEP, p, step_options_nb(st, p), A_STEP)


@njit(cache=True)
def post_discard_nb(st, rng, p):
    """R5.1: pend p's passive discard."""
    p = seat_of(p)
    if (st[H_QUICK] >> p) & 1 == 1:
        n, code = discard_pick_nb(st, rng, p)
        post_picked_nb(st, DISCARD, p, n, code, A_DISCARD)
    else:
        post_nb(st, DISCARD, p, discard_options_nb(st, p), A_DISCARD)


@njit(cache=True)
def quick_seats_nb(st, sp, replay):
    """H_QUICK for drive_nb: the seats playing `random` when their strategies decide.  Listing
    the options of a step or a discard cost random play most of its time, and `random` needs
    only their number; it draws its choice from its own stream as it would at the decision."""
    if sp is None or (replay is not None and st[H_REPLAY] != 0):
        return 0
    q = 0
    for p in range(2):
        if st[H_SID + p] == RANDOM:
            q |= 1 << p
    return q


@njit(cache=True)
def finish_nb(st, checked):
    """The game is over (R9, or an error): check the last turn if it was cut short."""
    if st[PUB_IN_TURN] != 0:
        if checked is not None:
            st[H_BROKEN] = enforce_invariants_nb(st)
        st[PUB_IN_TURN] = 0
    st[PUB_DEC_KIND] = -1
    st[PUB_PHASE] = PH_OVER


@njit(cache=True)
def next_turn_nb(st):
    """R9.3: a player without influence in hand and deck is out from the start of a turn on;
    R2.6: turns alternate, skipping an out player."""
    for q in range(2):
        if st[PUB_OUT + q] == 0 and not has_influence_nb(st, q):
            st[PUB_OUT + q] = 1
    cur = st[PUB_NEXT]
    if st[PUB_OUT + cur] != 0:
        cur = 1 - cur
    st[PUB_TURN] += 1
    st[PUB_CUR] = cur
    st[PUB_IN_TURN] = 1


@njit(cache=True)
def turn_end_nb(st, checked):
    """R9.4 counts quiet turns; R9.2, R9.5 (and R11) may end the game here."""
    if checked is not None:
        st[H_BROKEN] = enforce_invariants_nb(st)
    st[PUB_IN_TURN] = 0
    if over_nb(st):
        return
    st[PUB_QUIET] = st[PUB_QUIET] + 1 if st[PUB_QUIET_TURN] != 0 else 0
    end = end_of_turn_nb(st)
    if end != 0:
        st[PUB_END] = end
    st[PUB_NEXT] = 1 - st[PUB_CUR]


@njit(cache=True)
def castle_next_nb(st):
    """R7.3: post how many cards of the next value go back on the first group, or finish."""
    p = seat_of(st[PUB_ACT_P])
    g1 = st[PUB_ACT_G]
    g2 = st[PUB_ACT_X]
    own = priv_at(p)  # the castling in progress is hers (R7.3: her cards, face-down)
    kept = own + fd_at(g2, 0)  # all her cards wait face-down at g2 (castle_gather_nb)
    c = st[own + PR_CASTLE_C]
    while c < N_VALUES and st[kept + c] == 0:
        c += 1
    if c == N_VALUES:
        castle_done_nb(st, st[own + PR_SPLIT1], st[own + PR_SPLIT2])
        st[PUB_PHASE] = PH_STEP
        return
    m = st[kept + c]
    left = st[own + PR_CASTLE_LEFT] - m
    st[own + PR_CASTLE_LEFT] = left
    st[own + PR_CASTLE_C] = c
    st[own + PR_CASTLE_M] = m
    n = castle_split_options_nb(st, p, g1, g2, c, m, st[own + PR_CASTLE_A], left, st[own + PR_CASTLE_TOTAL])
    post_nb(st, CASTLE, p, n, A_CASTLE)


@njit(cache=True)
def effect_nb(st):
    """R7: the effect of the action card, announced and not vetoed."""
    p = seat_of(st[PUB_ACT_P])
    card = st[PUB_ACT_CARD]
    if card == SPY:
        post_nb(st, SPY_PICK, p, spy_look_nb(st, p), A_SPY_PICK)
    elif card == CASTLING:
        own = priv_at(p)
        total = castle_gather_nb(st, p, st[PUB_ACT_G], st[PUB_ACT_X])
        st[own + PR_CASTLE_TOTAL] = total
        st[own + PR_CASTLE_LEFT] = total
        st[own + PR_CASTLE_A] = 0
        st[own + PR_CASTLE_C] = 0
        st[own + PR_SPLIT1] = 0
        st[own + PR_SPLIT2] = 0
        st[PUB_PHASE] = PH_CASTLE
    else:
        direct_effect_nb(st, p, card, st[PUB_ACT_G], st[PUB_ACT_X])
        st[PUB_PHASE] = PH_STEP


@njit(cache=True)
def refill_nb(st, rng):
    """R4.4 / R5.1: post the next draw of the refill; once the hand is full, R4.5 on an
    active turn, and a passive turn is quiet (R9.4) if it discarded and drew nothing."""
    p = seat_of(st[PUB_CUR])
    n = refill_options_nb(st, p)
    if n > 0:
        post_nb(st, DRAW, p, n, A_REFILL_DRAW)
        return
    if st[PUB_MODE] == 1:
        voc_draw_nb(st, rng)  # R4.5
    else:
        st[PUB_QUIET_TURN] = 1 if st[PUB_DISC_CNT] == 0 and st[PUB_DRAWN] == 0 else 0
    st[PUB_PHASE] = PH_TURN_END


@njit(cache=True)
def go_on_nb(st, rng, ph):
    """Set the next phase, and run it at once if it is one a decision leads to most often
    (the next step, the refill, the discard): a trip round the step loop saved (random
    play: 8%).  Not past H_STOP."""
    st[PUB_PHASE] = ph
    if ph == st[H_STOP]:
        return
    p = seat_of(st[PUB_CUR])
    if ph == PH_STEP:
        post_step_nb(st, rng, p)
    elif ph == PH_REFILL:
        refill_nb(st, rng)
    elif ph == PH_DISCARD:
        post_discard_nb(st, rng, p)


@njit(cache=True)
def apply_step_nb(st, rng, p, code):
    """R4.1, R4.2: a placement, the end of the placements, or an action card announced (R7.0),
    which her opponent may veto (R7.6)."""
    t = step_type(code)
    if t == T_END:
        st[PUB_PHASE] = PH_PLAY_DONE
    elif t == T_ACTION:
        announce_action_nb(st, p, code)
        st[PUB_ACT_P] = p
        o = 1 - p
        if can_veto_nb(st, o):
            st[OPTS] = 0
            st[OPTS + 1] = 1
            announce_target_nb(st, step_card(code), step_group(code), step_x(code))
            post_nb(st, VETO, o, 2, A_VETO)
        else:
            st[PUB_PHASE] = PH_EFFECT
    else:
        place_nb(st, p, code)
        go_on_nb(st, rng, PH_STEP)


@njit(cache=True)
def resolve_nb(st, rng, code):
    """Apply option ``code`` of the pending decision; set what comes next."""
    p = seat_of(st[PUB_DEC_P])
    r = st[PUB_RESUME]
    st[PUB_DEC_KIND] = -1
    if r == A_STEP:
        apply_step_nb(st, rng, p, code)
    elif r == A_REFILL_DRAW:
        draw_nb(st, p, code)
        st[PUB_DRAWN] += 1
        go_on_nb(st, rng, PH_REFILL)
    elif r == A_MODE:
        st[PUB_MODE] = code
        log_nb(st, EV_TURN, p, st[PUB_TURN], code, 0, 0, 0)
        st[PUB_QUIET_TURN] = 0
        if code == 1:
            st[PUB_NPLACED] = 0
            st[PUB_PLACED_UP] = 0
            st[PUB_ACTION] = -1
            go_on_nb(st, rng, PH_STEP)
        else:
            go_on_nb(st, rng, PH_DISCARD)
    elif r == A_DISCARD:
        st[PUB_DISC_CNT] = discard_cards_nb(st, p, code)
        st[PUB_DRAWN] = 0
        go_on_nb(st, rng, PH_REFILL)
    elif r == A_VETO:
        announce_target_nb(st, -1, -1, -1)
        if code == 1:
            veto_nb(st, p, st[PUB_ACT_CARD])
            post_nb(st, VETO_DRAW, p, draw_options_nb(st, p, True), A_VETO_DRAW)
        else:
            st[PUB_PHASE] = PH_EFFECT
    elif r == A_VETO_DRAW:
        if code > 0:
            draw_nb(st, p, code)  # R7.6: the vetoing player's optional draw
        st[PUB_PHASE] = PH_STEP
    elif r == A_CASTLE:
        own = priv_at(p)
        c = st[own + PR_CASTLE_C]
        castle_move_nb(st, p, st[PUB_ACT_G], st[PUB_ACT_X], c, code)
        st[own + PR_CASTLE_A] += code
        st[own + PR_SPLIT1] |= code << (3 * c)
        st[own + PR_SPLIT2] |= (st[own + PR_CASTLE_M] - code) << (3 * c)
        st[own + PR_CASTLE_C] = c + 1
        st[PUB_PHASE] = PH_CASTLE
    elif r == A_SPY_PICK:
        spy_take_nb(st, p, code)
        o = 1 - p
        n = draw_options_nb(st, o, False)  # R9.3: an out player still draws here
        if n > 0:
            post_nb(st, DRAW, o, n, A_SPY_DRAW)
        else:
            st[PUB_PHASE] = PH_STEP
    elif r == A_SPY_DRAW:
        draw_nb(st, p, code)
        st[PUB_PHASE] = PH_STEP
    elif r == A_PLACEMENT:
        place_initial_nb(st, p, code)
        if p == 0:
            st[PUB_PLACE_P] = 1
            st[PUB_PHASE] = PH_PLACEMENT
        else:
            st[PUB_PHASE] = PH_NEXT_TURN


@njit(cache=True)
def decide_nb(st, rng, sp, replay):
    """The index of the option the pending decision's player takes: the record's in a
    replay (``replay`` given and H_REPLAY set), else her seat's strategy's, from her
    observation only (R8.4); -1 (and the game stopped with an error) if there is none."""
    p = seat_of(st[PUB_DEC_P])
    kind = st[PUB_DEC_KIND]
    n = st[PUB_DEC_N]
    if replay is not None and st[H_REPLAY] != 0:
        i = replay_choose_nb(st, p, kind, n)
        if i < 0:
            fail_nb(st, ERR_REPLAY_ILLEGAL)
        return i
    i = choose_nb(st, rng, sp, p, kind, n)
    if i == NO_ENTRY:
        fail_nb(st, ERR_NO_STRATEGY)
        return -1
    if i < 0 or i >= n:
        fail_nb(st, ERR_BAD_CHOICE)
        return -1
    return i


@njit(cache=True)
def drive_nb(st, rng, sp, checked=None, replay=None):
    """Run the game, the seats' strategies (parameters ``sp``) or the record deciding, to
    its end or to the phase ``H_STOP`` (0: none).  With ``sp`` None, stop instead at the
    next decision with two or more options (every decision, in a replay): ``advance_nb``.
    ``replay`` (any value; None leaves that code out of the batch kernel): the record at
    ``H_REC`` decides (``engine.replay``).

    One loop for the whole game: the batch kernel's hot path (a loop of its own, not
    advance_nb called from a loop of choices, measured 1.3 times faster in random play)."""
    st[H_QUICK] = quick_seats_nb(st, sp, replay)
    while True:
        if st[PUB_DEC_KIND] >= 0:
            n = st[PUB_DEC_N]
            if n == 1 and st[H_REPLAY] == 0:  # a forced move: nobody is asked
                i = 0
            elif n <= 0:
                fail_nb(st, ERR_NO_OPTION)
                i = -1
            elif sp is None:
                return
            else:
                i = decide_nb(st, rng, sp, replay)
            if i >= 0:
                resolve_nb(st, rng, st[OPTS + i])
                continue
            st[PUB_DEC_KIND] = -1  # an error has ended the game
        if over_nb(st):
            finish_nb(st, checked)
            return
        ph = st[PUB_PHASE]
        if ph == st[H_STOP]:
            return
        # run phase ph: it posts a decision, or sets the next phase (or ends the game).  Written
        # out here, not in a function: one call per phase of a big function cost random play 20%
        p = seat_of(st[PUB_CUR])
        if ph == PH_STEP:
            post_step_nb(st, rng, p)
        elif ph == PH_REFILL:
            refill_nb(st, rng)
        elif ph == PH_TURN_END or ph == PH_NEXT_TURN:
            # phases that post nothing run on into the next turn's MODE in one go: each
            # trip round this loop costs (random play: 5% for these two)
            if ph == PH_TURN_END:
                turn_end_nb(st, checked)
                st[PUB_PHASE] = PH_NEXT_TURN
                if over_nb(st) or st[H_STOP] == PH_NEXT_TURN:
                    continue
            next_turn_nb(st)
            p = seat_of(st[PUB_CUR])
            post_nb(st, MODE, p, mode_options_nb(st, p), A_MODE)
        elif ph == PH_MODE:
            post_nb(st, MODE, p, mode_options_nb(st, p), A_MODE)
        elif ph == PH_PLAY_DONE:
            exceptional_votes_nb(st)  # R4.3
            st[PUB_DRAWN] = 0
            st[PUB_PHASE] = PH_REFILL
            if not over_nb(st) and st[H_STOP] != PH_REFILL:
                refill_nb(st, rng)
        elif ph == PH_EFFECT:
            effect_nb(st)
        elif ph == PH_CASTLE:
            castle_next_nb(st)
        elif ph == PH_DISCARD:
            post_discard_nb(st, rng, p)
        elif ph == PH_PLACEMENT:
            post_nb(st, PLACEMENT, seat_of(st[PUB_PLACE_P]), placement_options_nb(st), A_PLACEMENT)


@njit(cache=True)
def advance_nb(st, rng, checked=None):
    """Run the game to its next decision with two or more options (every decision, in a
    replay), to the end, or to the phase ``H_STOP`` (0: none)."""
    drive_nb(st, rng, None, checked)


@njit(cache=True)
def apply_nb(st, rng, i, checked=None):
    """Take option ``i`` (an index into the pending decision's options) and advance."""
    resolve_nb(st, rng, st[OPTS + i])
    advance_nb(st, rng, checked)


@njit(cache=True)
def drive_turns_nb(st, rng, sp, turns):
    """Play on, the seats' strategies deciding, past ``turns`` turn boundaries (R9.2: the end of a
    turn) or to the end of the game; it stops at the last boundary, before the next turn starts.
    A search's rollout cut off at a depth (``strategies.search.expert``) plays this way."""
    keep = st[H_STOP]
    st[H_STOP] = PH_NEXT_TURN
    for t in range(turns):
        if t > 0:  # past the boundary drive_nb stopped at: the NEXT_TURN phase, as drive_nb runs it
            next_turn_nb(st)
            p = seat_of(st[PUB_CUR])
            post_nb(st, MODE, p, mode_options_nb(st, p), A_MODE)
        drive_nb(st, rng, sp)
        if over_nb(st) or st[PUB_END] != 0:
            break
    st[H_STOP] = keep

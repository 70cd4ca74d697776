"""Replay: the record, not a strategy, makes every decision.

At each decision the engine has written ``k`` events; the record's event ``k``
(or, for the effects of an announced action card, the action event itself)
says what was done.  The option matching it is chosen; if none does, the
recorded event was illegal at that moment (-1).  Every claim the record makes
(draws, votes, the result) is then checked by comparing the engine's own log
with the record, event by event (``ccsim.play.record``).
"""
from ccsim.toolchain.jit import njit

from ccsim.kernel.layout import (OPTS, EV_W, SETUP, H_REC, H_REC_LEN, H_NLOG, H_ACTION_EV, EV_TURN, EV_PLACE, EV_ACTION, EV_VETO, EV_DRAW, EV_DISCARD,
                          PUB_CTX_CARD, s_placement_at)
from ccsim.kernel.decisions import (PLACEMENT, MODE, STEP, VETO, SPY_PICK, CASTLE, DRAW, VETO_DRAW, DISCARD, PERMS,
                             T_PLACE_DOWN, T_PLACE_UP, T_ACTION, T_END, step_code)
from ccsim.kernel.rules import CASTLING, ASSASSINATION, SCOUT, WRATH


@njit(cache=True)
def find_option_nb(st, n, code):
    for i in range(n):
        if st[OPTS + i] == code:
            return i
    return -1


@njit(cache=True)
def action_event_nb(st):
    """Index in st of the recorded action event whose effect is being decided."""
    return st[H_REC] + st[H_ACTION_EV] * EV_W


@njit(cache=True)
def recorded_step_nb(st, ev):
    """The STEP option code of the recorded place/action event at st[ev], or END."""
    if st[ev] == EV_PLACE:
        return step_code(T_PLACE_UP if st[ev + 4] == 1 else T_PLACE_DOWN, st[ev + 2], st[ev + 3], 0)
    if st[ev] == EV_ACTION:
        card = st[ev + 2]
        if card == CASTLING:  # the record lists the lower group first (ccsim.play.record)
            return step_code(T_ACTION, card, st[ev + 3], st[ev + 4])
        if card == ASSASSINATION:
            return step_code(T_ACTION, card, st[ev + 3], st[ev + 4])
        if card == SCOUT or card == WRATH:
            return step_code(T_ACTION, card, st[ev + 3], 0)
        return step_code(T_ACTION, card, 0, 0)
    return step_code(T_END, 0, 0, 0)


@njit(cache=True)
def replay_choose_nb(st, p, kind, n):
    """The index of the option the record took at this decision, or -1 if none fits.

    Past the record's last event only "nothing happened" options fit (no
    further step, no veto, no draw, no discard): a record stops at its end.
    """
    k = st[H_NLOG]
    ev = st[H_REC] + k * EV_W  # index in st of the recorded event k
    t = st[ev] if k < st[H_REC_LEN] else 0  # 0: no such event
    who = st[ev + 1] if t != 0 else -1
    if kind == PLACEMENT:
        for i in range(n):
            ok = True
            for g in range(5):
                if PERMS[st[OPTS + i], g] != st[SETUP + s_placement_at(p, g)]:
                    ok = False
            if ok:
                return i
        return -1
    if kind == SPY_PICK:
        return find_option_nb(st, n, st[action_event_nb(st) + 4])
    if kind == CASTLE:
        # the first castling group is the lower group index; its split is field d
        want = (st[action_event_nb(st) + 5] >> (3 * st[PUB_CTX_CARD])) & 7
        return find_option_nb(st, n, want)
    if kind == MODE:
        if t != EV_TURN or who != p:
            return -1
        return find_option_nb(st, n, st[ev + 3])
    if kind == STEP:
        if t == EV_PLACE or t == EV_ACTION:
            if who != p:
                return -1
            return find_option_nb(st, n, recorded_step_nb(st, ev))
        return find_option_nb(st, n, step_code(T_END, 0, 0, 0))
    if kind == VETO:
        return find_option_nb(st, n, 1 if (t == EV_VETO and who == p) else 0)
    if kind == DRAW:
        if t != EV_DRAW or who != p:
            return -1
        return find_option_nb(st, n, st[ev + 2])
    if kind == VETO_DRAW:
        return find_option_nb(st, n, st[ev + 2] if (t == EV_DRAW and who == p) else 0)
    if kind == DISCARD:
        return find_option_nb(st, n, st[ev + 2] if (t == EV_DISCARD and who == p) else 0)
    return -1

"""The heuristics' twists: the small feature functions a style switches on.

A style (a file ``strategies/params/<name>.toml`` with ``family = "heuristic"``) is the one
policy skeleton of ``strategies.heuristics.weighted`` with its own weights and up to five switches,
one per place where a style may depart from the core (``layouts.SWITCH_NAMES``):

| switch   | where                                   | twists (value: what it does)                     |
|----------|-----------------------------------------|--------------------------------------------------|
| `groups` | after the group tables are (re)filled   | `guard`, `focus`, `traps`, `timing`, `count`     |
| `step`   | the score of each STEP option           | `combo`, `hide_philosopher`, `fear_face_up`      |
| `veto`   | the VETO decision                       | `worst_threat`                                   |
| `mode`   | the MODE decision                       | `outlook`                                        |
| `spy`    | the SPY_PICK decision                   | `philosopher_first`, `remember`                  |

A twist's own numbers are named weights of the vector (``layouts.P_GUARD_LEAD`` ...
``P_RESPONSE_CARDS``; defaults: the values of the style each comes from); each function below
says which it reads.  A new twist is a function here and one line of the
switch it belongs to (``SWITCH_VALUES`` and its dispatcher).
"""
import math

from ccsim.toolchain.jit import njit

from ccsim.kernel.decisions import T_ACTION, T_PLACE_UP, step_card, step_group, step_type
from ccsim.kernel.layout import (PUB_RULES, PUB_REMAIN, PUB_VOC_DECKN, PUB_ACTION, PUB_NPLACED, PUB_OUT,
                                 PUB_IDECKN, PUB_HANDN, PR_BONUS, PR_HAND, PR_SPY_SEEN, won_at, disc_at,
                                 action_count_at)
from ccsim.kernel.rules import (N_GROUPS, RP_GROUP_SIZE, RP_GROUP_LIMIT, RP_BONUS_THRESHOLD, PHIL, ACTION_BASE,
                                ASSASSINATION, SCOUT, WRATH, SPY, CASTLING, VETO as VETO_CARD)
from strategies.heuristics.layouts import (R_W, R_E, R_N, R_D, R_INV, R_PREV, R_PREVP, R_STAKE, R_NEXT, R_SOON, R_OPPFD, R_SC,
                                R_MYPH, R_OPPPH, S_PVETO, P_SWITCH, P_NEXT, P_SOON, P_LONG, P_NOISE, P_SCOUT,
                                P_VETO, P_GUARD_LEAD, P_GUARD_TRAIL, P_GUARD_LEAD_MARGIN, P_GUARD_TRAIL_MARGIN,
                                P_FOCUS_OPEN, P_FOCUS_SETTLED, P_FOCUS_BONUS, P_TRAP_SPRING, P_TRAP_BREAK,
                                P_SHOWN_PHILOSOPHER, P_HER_TURN, P_BAD_DRAW, P_COMBO, P_THREAT_SHARE,
                                P_FACE_UP_FEAR, P_RESPONSE_CARDS)
from strategies.heuristics.features import tail, voc_card_in_deck, e_val, opp_hand_actions, p_opp_holds, VAL
from strategies.heuristics.scoring import (option_score, best_single_placement, hand_can_improve, must_be_active,
                                veto_damage, announced_damage, choose_spy)

# the values each switch takes in a style file, in code order (0 = the core's behaviour)
SWITCH_VALUES = {
    "groups": ("none", "guard", "focus", "traps", "timing", "count"),
    "step": ("none", "combo", "hide_philosopher", "fear_face_up"),
    "veto": ("none", "worst_threat"),
    "mode": ("none", "outlook"),
    "spy": ("none", "philosopher_first", "remember"),
}
S_GROUPS, S_STEP, S_VETO, S_MODE, S_SPY = (P_SWITCH + k for k in range(5))
GUARD, FOCUS, TRAPS, TIMING, COUNT = 1, 2, 3, 4, 5
COMBO, HIDE_PHILOSOPHER, FEAR_FACE_UP = 1, 2, 3
WORST_THREAT = 1
OUTLOOK = 1
PHILOSOPHER_FIRST, REMEMBER = 1, 2


# ------------------------------------------------------------------ groups ---
@njit(cache=True)
def guard(w, T, lo, hi):
    """`defender`: reweigh R_W of groups lo .. hi - 1: my leads (margin above guard_lead_margin) times guard_lead,
    the votes I trail (below guard_trail_margin) times guard_trail: a lead kept is a patrician won."""
    for g in range(lo, hi):
        if T[R_E, g] > w[P_GUARD_LEAD_MARGIN]:
            T[R_W, g] *= w[P_GUARD_LEAD]
        elif T[R_E, g] < w[P_GUARD_TRAIL_MARGIN]:
            T[R_W, g] *= w[P_GUARD_TRAIL]


@njit(cache=True)
def focus(w, pub, own, me, T, lo, hi):
    """`majority`: reweigh R_W of groups lo .. hi - 1: open majorities (R10.2) up (focus_open), settled
    ones at focus_settled, my bonus group (R10.4) while the bonus is within reach plus focus_bonus."""
    bt = pub[PUB_RULES + RP_BONUS_THRESHOLD]
    for g in range(lo, hi):
        if T[R_W, g] <= 0.0:
            continue
        size = pub[PUB_RULES + RP_GROUP_SIZE + g]
        thr = size // 2 + 1
        wm = pub[won_at(me, g)]
        wo = pub[won_at(1 - me, g)]
        r = pub[PUB_REMAIN + g]
        if wm >= thr or wo >= thr:
            f = w[P_FOCUS_SETTLED]
        else:
            pm = tail(r, thr - wm)
            po = tail(r, thr - wo)
            f = 0.7 + w[P_FOCUS_OPEN] * 4.0 * pm * po if pm > 0.0 else 0.8  # open race: up; lost race: deny only
        if own[PR_BONUS] == g and wm < bt <= wm + r:
            f += w[P_FOCUS_BONUS]
        T[R_W, g] *= f


@njit(cache=True)
def traps(w, T, lo, hi):
    """`trickster`: reweigh R_W of groups lo .. hi - 1: my set philosopher traps (R6.3: more of
    mine while I am the smaller side) times trap_spring, to spring them; her visible traps times trap_break,
    to break them."""
    for g in range(lo, hi):
        if T[R_W, g] <= 0.0:
            continue
        if T[R_MYPH, g] > T[R_OPPPH, g] and T[R_D, g] < 0.0:
            T[R_W, g] *= w[P_TRAP_SPRING]
        elif T[R_OPPPH, g] > T[R_MYPH, g]:
            T[R_W, g] *= w[P_TRAP_BREAK]


@njit(cache=True)
def timing(w, pub, T, lo, hi):
    """`oracle`: R_W of groups lo .. hi - 1 from the two coming VoC draws (R4.5: the deck's size,
    discard and box are public, R8.1) and the exceptional votes either of us can force (R4.3):
    stake x (next x P(after my turn) + her_turn x P(after hers) + soon x P(soon) + long x share)."""
    n = pub[PUB_VOC_DECKN]
    if n <= 0:
        n = 1
    glim = pub[PUB_RULES + RP_GROUP_LIMIT]
    for g in range(lo, hi):
        if pub[PUB_REMAIN + g] <= 0:
            continue
        in_deck = voc_card_in_deck(pub, g)
        p_my = 1.0 / n if in_deck else 0.0
        p_her = p_my
        cnt = T[R_N, g]
        if cnt >= glim - 1:
            p_her = max(p_her, 0.8 if T[R_E, g] < 0.0 else 0.3)
        elif cnt == glim - 2:
            p_her = max(p_her, 0.35 if T[R_E, g] < 0.0 else 0.1)
        T[R_NEXT, g] = p_my
        frac = pub[PUB_REMAIN + g] / pub[PUB_RULES + RP_GROUP_SIZE + g]
        T[R_W, g] = T[R_STAKE, g] * (w[P_NEXT] * p_my + w[P_HER_TURN] * p_her + w[P_SOON] * T[R_SOON, g] + w[P_LONG] * frac)


# `counter`'s memory (``mem``, int32, zero at game start): mem[0] = 1 once a spy record is
# held; mem[1 + a] = her action cards of kind a (0..5 = assassination..veto) left in her hand
# after my pick; mem[7 + a] = her discards of that kind right after my pick.
@njit(cache=True)
def known_in_hand(pub, mem, me, card):
    """Her action cards ``card`` my spy saw (R8.3) and she has not discarded since (a sure lower bound)."""
    if mem[0] == 0:
        return 0
    a = card - ACTION_BASE
    k = mem[1 + a] - (pub[disc_at(1 - me, card)] - mem[7 + a])
    return k if k > 0 else 0


@njit(cache=True)
def p_holds(pub, mem, me, card):
    """P(her hand holds an action card ``card``): sure if my spy saw it; else the unknown rest of
    her hand drawn from her unseen action cards (R1.4: every card she owns is known by kind)."""
    o = 1 - me
    if pub[PUB_OUT + o] != 0:
        return 0.0
    if known_in_hand(pub, mem, me, card) > 0:
        return 1.0
    k = opp_hand_actions(pub, me)
    known = 0
    for c in range(ACTION_BASE, ACTION_BASE + 6):
        known += known_in_hand(pub, mem, me, c)
    return p_opp_holds(pub, me, card, k - known)


@njit(cache=True)
def her_response(w, pub, me, T, lo, hi):
    """`counter`: shrink the spread of her next placements (groups lo .. hi - 1) to the influence
    she has left in hand and deck (full at response_cards cards): nearly out, she cannot answer much."""
    o = 1 - me
    hand_inf = pub[PUB_HANDN + o] - opp_hand_actions(pub, me)
    left = hand_inf + pub[PUB_IDECKN + o]
    f = left / w[P_RESPONSE_CARDS]
    if f > 1.0:
        f = 1.0
    if f < 0.0:
        f = 0.0
    noise2 = (w[P_NOISE] * f) ** 2
    for g in range(lo, hi):
        if pub[PUB_REMAIN + g] <= 0:
            continue
        T[R_INV, g] = 1.0 / math.sqrt(T[R_OPPFD, g] * 2.0 + noise2 + 0.25)
        T[R_E, g] = e_val(T[R_D, g], T[R_INV, g], T[R_PREV, g])


@njit(cache=True)
def reweigh_groups(w, pub, own, mem, me, T, lo, hi):
    """The `groups` switch: the style's change to the group tables of groups lo .. hi - 1."""
    s = int(w[S_GROUPS])
    if s == GUARD:
        guard(w, T, lo, hi)
    elif s == FOCUS:
        focus(w, pub, own, me, T, lo, hi)
    elif s == TRAPS:
        traps(w, T, lo, hi)
    elif s == TIMING:
        timing(w, pub, T, lo, hi)
    elif s == COUNT:
        T[R_SC, S_PVETO] = p_holds(pub, mem, me, VETO_CARD)
        her_response(w, pub, me, T, lo, hi)


# ------------------------------------------------------------------ steps ----
@njit(cache=True)
def step_context(w, pub, own, mem, me):
    """What the `step` switch's twist needs once per decision: `combo`: 1 while my hand holds an
    assassination; `hide_philosopher`: the cost of a philosopher shown (shown_philosopher); `fear_face_up`:
    the cost of a face-up card, face_up_fear x P(she holds an assassination, R7.1), doubled for a first
    card (a second may follow it, R4.2)."""
    s = int(w[S_STEP])
    if s == COMBO:
        return 1.0 if own[PR_HAND + ASSASSINATION] > 0 else 0.0
    if s == HIDE_PHILOSOPHER:
        return w[P_SHOWN_PHILOSOPHER]
    if s == FEAR_FACE_UP:
        fear = w[P_FACE_UP_FEAR] * p_holds(pub, mem, me, ASSASSINATION)
        return fear * (2.0 if pub[PUB_NPLACED] == 0 else 1.0)
    return 0.0


@njit(cache=True)
def twisted_score(w, T, pub, own, me, code, placing, k):
    """A STEP option's score with the `step` twist (k from step_context): `combo` (`tactician`): a
    scout (R7.4) worth `combo` times more while an assassination waits to kill what it shows;
    `hide_philosopher` (`trickster`): a philosopher shown face-up is a trap sprung too early;
    `fear_face_up` (`counter`): a face-up card may be assassinated."""
    v = option_score(w, T, pub, own, me, code, placing)
    s = int(w[S_STEP])
    t = step_type(code)
    c = step_card(code)
    if s == COMBO:
        if k > 0.0 and t == T_ACTION and c == SCOUT:
            g = step_group(code)
            v += w[P_COMBO] * w[P_SCOUT] * T[R_OPPFD, g] * T[R_W, g] * (1.0 - T[R_SC, S_PVETO])
    elif s == HIDE_PHILOSOPHER:
        if t == T_PLACE_UP and c == PHIL:
            v -= k
    elif s == FEAR_FACE_UP:
        if t == T_PLACE_UP:
            v -= k
    return v


# ------------------------------------------------------------------ veto -----
@njit(cache=True)
def still_held(pub, me, card):
    """How many of her action cards ``card`` are not in her discard pile yet (hand or deck)."""
    return pub[action_count_at(1 - me, card - ACTION_BASE)] - pub[disc_at(1 - me, card)]


@njit(cache=True)
def worst_threat_veto(w, T, pub, own, me):
    """`tactician` (R7.6): veto only when the damage of the card just played, at the target she
    announced, is at least threat_share of the worst an action she may still hold could do (and never
    below ``veto``); 1 veto, 0 not."""
    card = pub[PUB_ACTION]
    dmg = announced_damage(w, T, pub, own, me)
    worst = dmg
    for a in (WRATH, ASSASSINATION, CASTLING, SPY):
        if a != card and still_held(pub, me, a) > 0:
            d = veto_damage(w, T, pub, own, me, a)
            if d > worst:
                worst = d
    thr = w[P_THREAT_SHARE] * worst
    if thr < w[P_VETO]:
        thr = w[P_VETO]
    if own[PR_HAND + VETO_CARD] >= 2:
        thr *= 0.7
    return 1 if dmg >= thr else 0


# ------------------------------------------------------------------ mode -----
@njit(cache=True)
def draw_outlook(w, T, own):
    """Expected VP outcome of my coming VoC draw after my best single face-down card."""
    _, bc, bg = best_single_placement(w, own, T)
    be = 0.0
    if bg >= 0:
        if bc == PHIL:
            be = e_val(T[R_D, bg], T[R_INV, bg], T[R_PREVP, bg])
        else:
            be = e_val(T[R_D, bg] + VAL[bc], T[R_INV, bg], T[R_PREV, bg])
    ev = 0.0
    for g in range(N_GROUPS):
        e = be if g == bg else T[R_E, g]
        ev += T[R_NEXT, g] * T[R_STAKE, g] * e
    return ev


@njit(cache=True)
def outlook_mode(w, T, pub, own, me):
    """`oracle` (R3, R5): passive when my coming VoC draw looks worse than -bad_draw and a passive
    discard would improve the hand: the draw waits.  1 active, 0 passive."""
    if must_be_active(pub, me):
        return 1
    if draw_outlook(w, T, own) < -w[P_BAD_DRAW] and hand_can_improve(w, T, pub, own, me):
        return 0
    return 1


# ------------------------------------------------------------------ spy ------
@njit(cache=True)
def remember_spy(pub, own, mem, me, pick):
    """`counter` (R8.3): keep what my spy saw in ``mem`` (layout above)."""
    o = 1 - me
    mem[0] = 1
    for a in range(6):
        c = ACTION_BASE + a
        mine = 1 if c == pick else 0
        mem[1 + a] = own[PR_SPY_SEEN + c] - mine
        mem[7 + a] = pub[disc_at(o, c)] + mine


@njit(cache=True)
def spy_choice(w, pub, own, mem, me, opts, n):
    """The `spy` switch (R7.2): `philosopher_first` (`trickster`) takes her philosopher when it
    can; `remember` (`counter`) remembers what it saw; else her most dangerous card."""
    s = int(w[S_SPY])
    if s == PHILOSOPHER_FIRST:
        for i in range(n):
            if opts[i] == PHIL:
                return i
    i = choose_spy(pub, own, me, opts, n)
    if s == REMEMBER:
        remember_spy(pub, own, mem, me, opts[i])
    return i

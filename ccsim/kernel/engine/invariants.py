"""Invariants of a game state, checked after every turn in test runs (``play_nb(..., checked=1)``).

``check_state_nb(st)`` returns 0 for a consistent state, else the code of the
first broken invariant; ``INVARIANT_NAMES`` says what each code means.  The
checks are ordered so that a state whose buffer bounds are wrong is reported
before anything indexes with those bounds, then negative counts, then the
cached counts, the limits, card conservation and the rest.  The function reads
only ``st`` and allocates nothing (per-code tallies are recounted by scanning
the short decks once per code).

What is checked, per player p (rule R1.4, R2):

* each of her 37 influence cards and 13 action cards is in exactly one place:
  influence-deck remainder, action-deck remainder, hand, face-up or face-down
  at a group, discard pile; per card code the counts equal the setup
  composition of the rules vector (deck counts plus the 10 set-aside cards
  1..5 twice; the action counts);
* the vote-of-confidence cards (deck remainder, discard, box) are exactly the
  VoC composition (one per group, ``RP_ORGIES`` orgies, one reshuffle; R1.2,
  R11 two_orgies boxes one orgy, so the totals do not change);
* the cached counts agree with the cards (PUB_HANDN, PUB_SIDEN, PUB_FDN,
  PUB_IDECKN, PUB_ADECKN, PUB_VOC_DECKN);
* the VP lead kept vote by vote (H_VP_LEAD) is the recounted scores' difference (R10);
* the limits hold (R4.2.1, R4.2.2, R4.4), no count is negative, a group out
  of play holds no card (R4.2.3, R6.8), won plus remaining patricians make the
  group's size (R1.1), and no game goes past the turn cap (R9.5).
"""
from ccsim.toolchain.jit import njit

from ccsim.kernel.layout import (
    ERR_INVARIANT, H_ERROR, H_ERROR_AT, H_NLOG, PUB_END,
    PUB_TURN, PUB_CUR, PUB_OUT, PUB_REMAIN, PUB_HANDN, PUB_IDECKN,
    PUB_ADECKN, PUB_VOC_DISC, PUB_VOC_BOX, PUB_VOC_DECKN, PUB_QUIET, PUB_MODE, PUB_NPLACED, PUB_RULES,
    PR_HAND, PR_BONUS, PR_ADECK, PR_ADECK_TOP, PR_ADECK_LEN,
    H_IDECK_TOP, H_IDECK_LEN, H_VOC, H_VOC_TOP, H_VOC_LEN, H_BONUS, disc_at, fd_at, fdn_at, fu_at, ideck_at, played_at, priv_at, siden_at, vetoed_at, won_at, action_count_at, H_HAND_INF, H_VP_LEAD)
from ccsim.kernel.rules import (
    N_GROUPS, ACTION_BASE, VETO, ORGY, ORGY_RESHUFFLE, N_VOC_KINDS, END_ALL_PATRICIANS, END_TRUNCATED,
    MAX_INFLUENCE_DECK, MAX_ACTION_DECK, MAX_VOC_DECK,
    RP_HAND_SIZE, RP_SIDE_LIMIT, RP_GROUP_LIMIT, RP_GROUP_SIZE, RP_DECK_COUNT, RP_ORGIES,
    RP_MAX_TURNS, RP_VARIANTS, V_LATE_ORGIES_BOXED, V_TWO_ORGIES,
)
from ccsim.kernel.engine.score import vp_lead_nb

# ------------------------------------------------------------------ codes ----
INV_DECK_BOUNDS = 1       # a deck's top/length outside its buffer (or top > length)
INV_NEGATIVE = 2          # a negative count (hand, group, discard, VoC pile, patricians, played)
INV_HAND_COUNT = 3        # PUB_HANDN != the hand's cards
INV_FD_COUNT = 4          # PUB_FDN != the side's face-down cards (PR_FD)
INV_SIDE_COUNT = 5        # PUB_SIDEN != face-up + face-down cards of the side
INV_IDECK_COUNT = 6       # PUB_IDECKN != influence-deck remainder
INV_ADECK_COUNT = 7       # PUB_ADECKN != action-deck remainder
INV_VOC_DECK_COUNT = 8    # PUB_VOC_DECKN != VoC-deck remainder
INV_SIDE_LIMIT = 9        # a side holds more than RP_SIDE_LIMIT cards (R4.2.1)
INV_GROUP_LIMIT = 10      # a group holds more than RP_GROUP_LIMIT cards (R4.2.2)
INV_HAND_LIMIT = 11       # a hand holds more than RP_HAND_SIZE cards (R4.4; at least the 5 of R2.5)
INV_DECK_CODES = 12       # an influence deck holds a non-influence code, an action deck a non-action code
INV_INFLUENCE_CARDS = 13  # a player's influence cards per value differ from the setup composition (R1.4, R2.1)
INV_ACTION_CARDS = 14     # a player's action cards per type differ from the setup composition (R1.4)
INV_VOC_CARDS = 15        # the VoC cards (deck, discard, box) differ from the VoC composition (R1.2)
INV_OUT_OF_PLAY = 16      # a group out of play holds cards (R4.2.3, R6.8)
INV_PATRICIANS = 17       # won + remaining patricians != the group's size (R1.1), or remaining < 0
INV_TURNS = 18            # more turns than RP_MAX_TURNS (R9.5), or a negative turn count
INV_BONUS = 19            # the engine's bonus copy differs from the player's, or is not a group (R2.3)
INV_VOC_BOX = 20          # a boxed VoC card that R4.5 / R11 cannot box
INV_VOC_RESHUFFLE = 21    # the orgy_reshuffle card is not in the VoC deck between turns (R4.5: never dry)
INV_END = 22              # the end reason disagrees with the patricians left (R9.1), or is unknown
INV_OUT = 23              # an out player (R9.3) holds an influence card, or a flag is not 0/1
INV_PLAYED = 24           # action cards played/vetoed counts inconsistent with the discard piles
INV_TURN_STATE = 25       # current player, mode, placements or quiet count out of range
INV_VP_LEAD = 26          # the kept VP lead (H_VP_LEAD) differs from the recounted scores (R10)

INVARIANT_NAMES = {
    0: "ok",
    INV_DECK_BOUNDS: "deck top/length outside its buffer",
    INV_NEGATIVE: "negative count",
    INV_HAND_COUNT: "cached hand size (PUB_HANDN) or influence count (H_HAND_INF) wrong",
    INV_FD_COUNT: "cached face-down count (PUB_FDN) wrong",
    INV_SIDE_COUNT: "cached side size (PUB_SIDEN) wrong",
    INV_IDECK_COUNT: "cached influence-deck size (PUB_IDECKN) wrong",
    INV_ADECK_COUNT: "cached action-deck size (PUB_ADECKN) wrong",
    INV_VOC_DECK_COUNT: "cached VoC-deck size (PUB_VOC_DECKN) wrong",
    INV_SIDE_LIMIT: "side over RP_SIDE_LIMIT (R4.2.1)",
    INV_GROUP_LIMIT: "group over RP_GROUP_LIMIT (R4.2.2)",
    INV_HAND_LIMIT: "hand over RP_HAND_SIZE (R4.4)",
    INV_DECK_CODES: "wrong card code in a deck",
    INV_INFLUENCE_CARDS: "influence cards not conserved (R1.4, R2.1)",
    INV_ACTION_CARDS: "action cards not conserved (R1.4)",
    INV_VOC_CARDS: "VoC cards not conserved (R1.2)",
    INV_OUT_OF_PLAY: "cards at a group out of play (R4.2.3, R6.8)",
    INV_PATRICIANS: "patricians won + remaining != group size (R1.1)",
    INV_TURNS: "turn count past RP_MAX_TURNS (R9.5)",
    INV_BONUS: "bonus copies disagree (R2.3)",
    INV_VOC_BOX: "VoC card boxed against R4.5/R11",
    INV_VOC_RESHUFFLE: "orgy_reshuffle not in the VoC deck (R4.5)",
    INV_END: "end reason inconsistent (R9.1)",
    INV_OUT: "out player holds influence (R9.3)",
    INV_PLAYED: "played/vetoed action counts inconsistent",
    INV_TURN_STATE: "turn bookkeeping out of range",
    INV_VP_LEAD: "kept VP lead (H_VP_LEAD) wrong (R10)",
}


@njit(cache=True)
def _check_bounds_nb(st):
    for p in range(2):
        top = st[H_IDECK_TOP + p]
        n = st[H_IDECK_LEN + p]
        if top < 0 or n < 0 or n > MAX_INFLUENCE_DECK or top > n:
            return INV_DECK_BOUNDS
        b = priv_at(p)
        top = st[b + PR_ADECK_TOP]
        n = st[b + PR_ADECK_LEN]
        if top < 0 or n < 0 or n > MAX_ACTION_DECK or top > n:
            return INV_DECK_BOUNDS
    top = st[H_VOC_TOP]
    n = st[H_VOC_LEN]
    if top < 0 or n < 0 or n > MAX_VOC_DECK or top > n:
        return INV_DECK_BOUNDS
    return 0


@njit(cache=True)
def _check_negative_nb(st):
    for p in range(2):
        b = priv_at(p)
        if st[PUB_HANDN + p] < 0 or st[PUB_IDECKN + p] < 0 or st[PUB_ADECKN + p] < 0:
            return INV_NEGATIVE
        for c in range(12):
            if st[b + PR_HAND + c] < 0 or st[disc_at(p, c)] < 0:
                return INV_NEGATIVE
        for g in range(N_GROUPS):
            if st[fdn_at(g, p)] < 0 or st[siden_at(g, p)] < 0 or st[won_at(p, g)] < 0:
                return INV_NEGATIVE
            for c in range(6):
                if st[fu_at(g, p, c)] < 0 or st[b + fd_at(g, c)] < 0:
                    return INV_NEGATIVE
        for a in range(6):
            if st[played_at(p, a)] < 0 or st[vetoed_at(p, a)] < 0:
                return INV_NEGATIVE
    for v in range(N_VOC_KINDS):
        if st[PUB_VOC_DISC + v] < 0 or st[PUB_VOC_BOX + v] < 0:
            return INV_NEGATIVE
    if st[PUB_VOC_DECKN] < 0:
        return INV_NEGATIVE
    return 0


@njit(cache=True)
def _check_caches_nb(st):
    for p in range(2):
        b = priv_at(p)
        n = 0
        for c in range(12):
            n += st[b + PR_HAND + c]
        if st[PUB_HANDN + p] != n:
            return INV_HAND_COUNT
        inf = 0
        for c in range(6):
            inf += st[b + PR_HAND + c]
        if st[H_HAND_INF + p] != inf:
            return INV_HAND_COUNT
        for g in range(N_GROUPS):
            fd = 0
            fu = 0
            for c in range(6):
                fd += st[b + fd_at(g, c)]
                fu += st[fu_at(g, p, c)]
            if st[fdn_at(g, p)] != fd:
                return INV_FD_COUNT
            if st[siden_at(g, p)] != fu + fd:
                return INV_SIDE_COUNT
        if st[PUB_IDECKN + p] != st[H_IDECK_LEN + p] - st[H_IDECK_TOP + p]:
            return INV_IDECK_COUNT
        if st[PUB_ADECKN + p] != st[b + PR_ADECK_LEN] - st[b + PR_ADECK_TOP]:
            return INV_ADECK_COUNT
    if st[PUB_VOC_DECKN] != st[H_VOC_LEN] - st[H_VOC_TOP]:
        return INV_VOC_DECK_COUNT
    return 0


@njit(cache=True)
def _check_limits_nb(st):
    side = st[PUB_RULES + RP_SIDE_LIMIT]
    group = st[PUB_RULES + RP_GROUP_LIMIT]
    hand = st[PUB_RULES + RP_HAND_SIZE]
    if hand < 5:
        hand = 5  # R2.5: the starting hand is the five set-aside cards, whatever the refill target
    for g in range(N_GROUPS):
        if st[siden_at(g, 0)] > side or st[siden_at(g, 1)] > side:
            return INV_SIDE_LIMIT
        if st[siden_at(g, 0)] + st[siden_at(g, 1)] > group:
            return INV_GROUP_LIMIT
    for p in range(2):
        if st[PUB_HANDN + p] > hand:
            return INV_HAND_LIMIT
    return 0


@njit(cache=True)
def _check_cards_nb(st):
    """Every card of each player in exactly one place, per code (R1.4, R2.1)."""
    for p in range(2):
        b = priv_at(p)
        itop = st[H_IDECK_TOP + p]
        ilen = st[H_IDECK_LEN + p]
        atop = st[b + PR_ADECK_TOP]
        alen = st[b + PR_ADECK_LEN]
        for i in range(itop, ilen):
            x = st[ideck_at(p, i)]
            if x < 0 or x >= 6:
                return INV_DECK_CODES
        for i in range(atop, alen):
            x = st[b + PR_ADECK + i]
            if x < ACTION_BASE or x >= ACTION_BASE + 6:
                return INV_DECK_CODES
        for c in range(6):
            n = st[b + PR_HAND + c] + st[disc_at(p, c)]
            for g in range(N_GROUPS):
                n += st[fu_at(g, p, c)] + st[b + fd_at(g, c)]
            for i in range(itop, ilen):
                if st[ideck_at(p, i)] == c:
                    n += 1
            want = st[PUB_RULES + RP_DECK_COUNT + c] + (2 if c < 5 else 0)  # R2.1: 1..5 set aside twice
            if n != want:
                return INV_INFLUENCE_CARDS
        for a in range(6):
            c = ACTION_BASE + a
            n = st[b + PR_HAND + c] + st[disc_at(p, c)]
            for i in range(atop, alen):
                if st[b + PR_ADECK + i] == c:
                    n += 1
            if n != st[action_count_at(p, a)]:  # her own cards (R1.4, rules)
                return INV_ACTION_CARDS
    top = st[H_VOC_TOP]
    n_voc = st[H_VOC_LEN]
    for i in range(top, n_voc):
        x = st[H_VOC + i]
        if x < 0 or x >= N_VOC_KINDS:
            return INV_VOC_CARDS
    for v in range(N_VOC_KINDS):
        n = st[PUB_VOC_DISC + v] + st[PUB_VOC_BOX + v]
        for i in range(top, n_voc):
            if st[H_VOC + i] == v:
                n += 1
        want = 1
        if v == ORGY:
            want = st[PUB_RULES + RP_ORGIES]
        if n != want:
            return INV_VOC_CARDS
    return 0


@njit(cache=True)
def _check_groups_nb(st):
    for g in range(N_GROUPS):
        left = st[PUB_REMAIN + g]
        if left < 0 or st[won_at(0, g)] + st[won_at(1, g)] + left != st[PUB_RULES + RP_GROUP_SIZE + g]:
            return INV_PATRICIANS
        if left == 0:
            for p in range(2):
                if st[siden_at(g, p)] != 0 or st[fdn_at(g, p)] != 0:
                    return INV_OUT_OF_PLAY
                for c in range(6):
                    if st[fu_at(g, p, c)] != 0 or st[priv_at(p) + fd_at(g, c)] != 0:
                        return INV_OUT_OF_PLAY
    return 0


@njit(cache=True)
def _check_voc_nb(st):
    variants = st[PUB_RULES + RP_VARIANTS]
    for g in range(N_GROUPS):  # R4.5: a group card is boxed only once its group is out of play
        if st[PUB_VOC_BOX + g] > 0 and st[PUB_REMAIN + g] > 0:
            return INV_VOC_BOX
    if st[PUB_VOC_BOX + ORGY_RESHUFFLE] != 0:  # R11: the reshuffle card is never boxed
        return INV_VOC_BOX
    if (variants & V_LATE_ORGIES_BOXED) == 0:
        boxed_ok = 1 if (variants & V_TWO_ORGIES) != 0 else 0  # R11 two_orgies: one orgy boxed at setup
        if st[PUB_VOC_BOX + ORGY] > boxed_ok:
            return INV_VOC_BOX
    if (variants & V_TWO_ORGIES) != 0 and st[PUB_RULES + RP_ORGIES] > 0 and st[PUB_VOC_BOX + ORGY] < 1:
        return INV_VOC_BOX
    found = 0
    for i in range(st[H_VOC_TOP], st[H_VOC_LEN]):
        if st[H_VOC + i] == ORGY_RESHUFFLE:
            found += 1
    if found != 1:
        return INV_VOC_RESHUFFLE
    return 0


@njit(cache=True)
def _check_misc_nb(st):
    t = st[PUB_TURN]
    if t < 0 or t > st[PUB_RULES + RP_MAX_TURNS]:
        return INV_TURNS
    for p in range(2):
        if st[H_BONUS + p] != st[priv_at(p) + PR_BONUS] or st[H_BONUS + p] < 0 or st[H_BONUS + p] >= N_GROUPS:
            return INV_BONUS
    end = st[PUB_END]
    if end < -1 or end > END_TRUNCATED:
        return INV_END
    left = 0
    for g in range(N_GROUPS):
        left += st[PUB_REMAIN + g]
    if end >= 0 and (left == 0) != (end == END_ALL_PATRICIANS):  # R9.1 (an error stop, -1, may be anywhere)
        return INV_END
    for p in range(2):
        out = st[PUB_OUT + p]
        if out != 0 and out != 1:
            return INV_OUT
        if out == 1:  # R9.3: out means no influence in hand or deck, and nothing brings one back
            if st[PUB_IDECKN + p] != 0:
                return INV_OUT
            for c in range(6):
                if st[priv_at(p) + PR_HAND + c] != 0:
                    return INV_OUT
    for p in range(2):
        cancelled = 0
        for a in range(6):
            played = st[played_at(p, a)]
            if st[vetoed_at(p, a)] > played:
                return INV_PLAYED
            # a played card goes to its owner's discard (R7), vetoed or not; spied cards add to it
            if played > st[disc_at(p, ACTION_BASE + a)]:
                return INV_PLAYED
            cancelled += st[vetoed_at(1 - p, a)]
        if st[played_at(p, VETO - ACTION_BASE)] != cancelled:  # R7.6: one veto, one cancelled card
            return INV_PLAYED
    cur = st[PUB_CUR]
    if cur != 0 and cur != 1:
        return INV_TURN_STATE
    if st[PUB_MODE] != 0 and st[PUB_MODE] != 1:
        return INV_TURN_STATE
    if st[PUB_NPLACED] < 0 or st[PUB_NPLACED] > 2:
        return INV_TURN_STATE
    if st[PUB_QUIET] < 0 or st[PUB_QUIET] > 2:
        return INV_TURN_STATE
    return 0


@njit(cache=True)
def check_state_nb(st):
    """Return 0 if the state is consistent, else a code naming the first broken
    invariant (``INVARIANT_NAMES``).  Meant for turn boundaries (play_nb calls it
    after every turn when called with ``checked``)."""
    code = _check_bounds_nb(st)
    if code != 0:
        return code
    code = _check_negative_nb(st)
    if code != 0:
        return code
    code = _check_caches_nb(st)
    if code != 0:
        return code
    code = _check_limits_nb(st)
    if code != 0:
        return code
    code = _check_cards_nb(st)
    if code != 0:
        return code
    code = _check_groups_nb(st)
    if code != 0:
        return code
    code = _check_voc_nb(st)
    if code != 0:
        return code
    code = _check_misc_nb(st)
    if code != 0:
        return code
    # last: a broken bonus copy or patrician count (checked above) breaks the lead too
    if st[H_VP_LEAD] != vp_lead_nb(st):
        return INV_VP_LEAD
    return 0


@njit(cache=True)
def enforce_invariants_nb(st):
    """Stop the game with ERR_INVARIANT if an invariant is broken."""
    code = check_state_nb(st)
    if code != 0 and st[H_ERROR] == 0:
        st[H_ERROR] = ERR_INVARIANT
        st[H_ERROR_AT] = st[H_NLOG]
        st[PUB_END] = -1
    return code

"""R6 votes of confidence, R4.3 exceptional votes and R4.5 the VoC draw."""
from ccsim.toolchain.jit import njit

from ccsim.kernel.layout import (PUB_RULES, H_REC, H_REC_LEN, EV_W, PUB_REMAIN, PUB_END, PUB_VOC_DISC, PUB_VOC_BOX,
                          PUB_VOC_DECKN, H_VOC, H_VOC_TOP, H_VOC_LEN, H_REPLAY, H_NLOG, EV_VOTE, EV_VOC, EV_RESHUFFLE,
                          ERR_REPLAY_CHANCE, H_VOTES, H_TIES, H_REVERSALS, H_EXCEPTIONAL, H_LEADER,
                          H_LEAD_CHANGES, H_LEADERS, H_VP_LEAD, LEADERS_PER_SLOT, MAX_LEADERS, fu_at, siden_at, won_at, group_of)
from ccsim.kernel.rules import (VALUE_OF, PHIL, N_GROUPS, ORGY, ORGY_RESHUFFLE, N_VOC_KINDS, RP_GROUP_LIMIT,
                         RP_VARIANTS, V_LATE_ORGIES_BOXED, END_ALL_PATRICIANS)
from ccsim.kernel.observe import group_n, groups_out_of_play
from ccsim.kernel.engine.score import group_lead_nb
from ccsim.kernel.engine.core import log_nb, discard_nb, reveal_side_nb, clear_side_nb, over_nb, fail_nb
from ccsim.kernel.rng import shuffle_nb, RNG_CHANCE

TRIGGER_EIGHT = 0
TRIGGER_CARD = 1


@njit(cache=True)
def side_sum_nb(st, g, p):
    """R6.2: the sum of p's card values at g (all face-up after R6.1)."""
    t = 0
    for c in range(5):
        t += st[fu_at(g, p, c)] * VALUE_OF[c]
    return t


@njit(cache=True)
def discard_from_side_nb(st, g, p, code):
    st[fu_at(g, p, code)] -= 1
    st[siden_at(g, p)] -= 1
    discard_nb(st, p, code)


@njit(cache=True)
def note_leader_nb(st, k):
    """The designer metrics' view of vote k (0-based) just resolved: who leads on VP now
    (R10 of the position, H_VP_LEAD), and whether the strict lead changed hands (docs/metrics.md)."""
    lead = st[H_VP_LEAD]
    code = 0 if lead == 0 else (1 if lead > 0 else 2)
    if k < MAX_LEADERS:
        st[H_LEADERS + k // LEADERS_PER_SLOT] |= code << (2 * (k % LEADERS_PER_SLOT))
    if code != 0:
        if st[H_LEADER] != 0 and st[H_LEADER] != code:
            st[H_LEAD_CHANGES] += 1
        st[H_LEADER] = code


@njit(cache=True)
def leader_after_nb(st, h):
    """The VP leader after the first h votes (0, 1; -1 tied, no vote yet, or unrecorded)."""
    if h <= 0 or h > MAX_LEADERS:
        return -1
    k = h - 1
    return ((st[H_LEADERS + k // LEADERS_PER_SLOT] >> (2 * (k % LEADERS_PER_SLOT))) & 3) - 1


@njit(cache=True)
def count_vote_nb(st, g, trigger):
    """Bump the per-game vote counters; returns the vote's index in the game."""
    k = 0
    for h in range(N_GROUPS):
        k += st[H_VOTES + h]
    st[H_VOTES + g] += 1
    if trigger == TRIGGER_EIGHT:
        st[H_EXCEPTIONAL] += 1
    return k


@njit(cache=True)
def vote_nb(st, g, trigger):
    """Resolve a vote on group g (R6); returns the winner, -1 on a tie.

    Ends the game when it takes the last patrician of all (R9.1).
    """
    g = group_of(g)
    reveal_side_nb(st, g, 0)  # R6.1
    reveal_side_nb(st, g, 1)
    s0 = side_sum_nb(st, g, 0)  # R6.2
    s1 = side_sum_nb(st, g, 1)
    ph0 = st[fu_at(g, 0, PHIL)]
    ph1 = st[fu_at(g, 1, PHIL)]
    rev = 1 if ph0 != ph1 else 0  # R6.3: reversed iff the philosopher counts differ
    k = count_vote_nb(st, g, trigger)
    if s0 == s1:  # R6.4: tie, nothing happens
        log_nb(st, EV_VOTE, -1, g, trigger, s0, s1, rev)
        st[H_TIES] += 1
        note_leader_nb(st, k)
        return -1
    big = 0 if s0 > s1 else 1  # R6.5
    small = 1 - big
    w = small if rev == 1 else big
    log_nb(st, EV_VOTE, w, g, trigger, s0, s1, rev)
    st[H_REVERSALS] += rev
    before = group_lead_nb(st, g)  # R10: only g's patricians change, so only g's term of the lead
    st[PUB_REMAIN + g] -= 1
    st[won_at(w, g)] += 1
    st[H_VP_LEAD] += group_lead_nb(st, g) - before
    # R6.6: L her highest card, S her lowest non-philosopher, every philosopher
    for c in range(4, -1, -1):
        if st[fu_at(g, big, c)] > 0:
            discard_from_side_nb(st, g, big, c)
            break
    for c in range(5):
        if st[fu_at(g, small, c)] > 0:
            discard_from_side_nb(st, g, small, c)
            break
    for p in range(2):
        while st[fu_at(g, p, PHIL)] > 0:
            discard_from_side_nb(st, g, p, PHIL)
    if st[PUB_REMAIN + g] == 0:  # R6.8: the group leaves play
        clear_side_nb(st, g, 0)
        clear_side_nb(st, g, 1)
        left = 0
        for h in range(N_GROUPS):
            left += st[PUB_REMAIN + h]
        if left == 0:  # R9.1
            st[PUB_END] = END_ALL_PATRICIANS
    note_leader_nb(st, k)
    return w


@njit(cache=True)
def exceptional_votes_nb(st):
    """R4.3: after an active turn's play, every group holding exactly 8 cards votes, in group order."""
    for g in range(N_GROUPS):
        if over_nb(st):
            return
        if st[PUB_REMAIN + g] > 0 and group_n(st, g) == st[PUB_RULES + RP_GROUP_LIMIT]:
            vote_nb(st, g, TRIGGER_EIGHT)


@njit(cache=True)
def packed_voc_field_nb(st, j):
    """Field j of the packed VoC deck (top first, 7 cards x 3 bits per field)."""
    f = 0
    top = st[H_VOC_TOP]
    for i in range(7 * j, min(7 * j + 7, st[H_VOC_LEN] - top)):
        f |= st[H_VOC + top + i] << (3 * (i - 7 * j))
    return f


@njit(cache=True)
def reshuffle_nb(st, rng):
    """R4.5 orgy_reshuffle: every VoC card not in the box forms a new shuffled deck."""
    n = 0
    for i in range(st[H_VOC_TOP], st[H_VOC_LEN]):  # the cards still in the deck ...
        st[H_VOC + n] = st[H_VOC + i]
        n += 1
    for v in range(N_VOC_KINDS):  # ... and the discard pile, this card included
        for _ in range(st[PUB_VOC_DISC + v]):
            st[H_VOC + n] = v
            n += 1
        st[PUB_VOC_DISC + v] = 0
    st[H_VOC_TOP] = 0
    st[H_VOC_LEN] = n
    st[PUB_VOC_DECKN] = n
    if st[H_REPLAY] != 0:
        # the record's reshuffle event comes next; it must hold exactly these cards
        k = st[H_NLOG]
        ev = st[H_REC] + k * EV_W
        if k >= st[H_REC_LEN] or st[ev] != EV_RESHUFFLE or st[ev + 2] != n:
            fail_nb(st, ERR_REPLAY_CHANCE)
            return
        for v in range(N_VOC_KINDS):
            have = 0
            want = 0
            for i in range(n):
                have += 1 if st[H_VOC + i] == v else 0
                want += 1 if ((st[ev + 3 + i // 7] >> (3 * (i % 7))) & 7) == v else 0
            if have != want:
                fail_nb(st, ERR_REPLAY_CHANCE)
                return
        for i in range(n):
            st[H_VOC + i] = (st[ev + 3 + i // 7] >> (3 * (i % 7))) & 7
    else:
        shuffle_nb(rng, RNG_CHANCE, st, H_VOC, n)
    log_nb(st, EV_RESHUFFLE, -1, n, packed_voc_field_nb(st, 0), packed_voc_field_nb(st, 1),
           packed_voc_field_nb(st, 2), 0)


@njit(cache=True)
def voc_draw_nb(st, rng):
    """R4.5: turn over VoC cards until one is not boxed for an out-of-play group."""
    while not over_nb(st):
        top = st[H_VOC_TOP]
        card = st[H_VOC + top]
        st[H_VOC_TOP] = top + 1
        st[PUB_VOC_DECKN] -= 1
        log_nb(st, EV_VOC, -1, card, 0, 0, 0, 0)
        if card < N_GROUPS:
            if st[PUB_REMAIN + card] <= 0:
                st[PUB_VOC_BOX + card] += 1  # its group is out of play: box it, draw again
                continue
            vote_nb(st, card, TRIGGER_CARD)
            if st[PUB_REMAIN + card] <= 0:
                st[PUB_VOC_BOX + card] += 1  # it took the last patrician
            else:
                st[PUB_VOC_DISC + card] += 1
            return
        if card == ORGY:
            if (st[PUB_RULES + RP_VARIANTS] & V_LATE_ORGIES_BOXED) != 0 and groups_out_of_play(st) >= 2:
                st[PUB_VOC_BOX + ORGY] += 1  # R11 late_orgies_boxed
            else:
                st[PUB_VOC_DISC + ORGY] += 1
            return
        st[PUB_VOC_DISC + ORGY_RESHUFFLE] += 1
        reshuffle_nb(st, rng)
        return

"""R2 setup: what chance deals, then the state every game starts from."""
from ccsim.toolchain.jit import njit

from ccsim.kernel.layout import (S_IDECK_LEN, S_ADECK_LEN, S_VOC, S_VOC_LEN, S_BONUS,
                          SETUP, OPTS, LOG, PUB_RULES, PUB_REMAIN, PUB_IDECKN, PUB_ADECKN, PUB_DEC_KIND,
                          PUB_VOC_DECKN, PUB_VOC_BOX, PUB_ACTION, PUB_CTX_CARD, PUB_CTX_G1, PUB_CTX_G2,
                          PR_ADECK, PR_ADECK_TOP, PR_ADECK_LEN, PR_BONUS, PR_SPY_TURN,
                          H_IDECK_TOP, H_IDECK_LEN, H_VOC, H_VOC_TOP, H_VOC_LEN, H_BONUS, H_ACTION_EV, PUB_ACT_CARD,
                          H_LOG_CAP, H_REC, H_REC_LEN, H_REPLAY, H_SID,
                          priv_at, ideck_at, s_ideck_at, s_adeck_at, s_placement_at, action_count_at)
from ccsim.kernel.rules import (RP_GROUP_SIZE, RP_DECK_COUNT, RP_ORGIES, RP_VARIANTS, V_TWO_ORGIES,
                         ORGY, ORGY_RESHUFFLE, ACTION_BASE, ACTION_COUNTS, N_GROUPS, BONUS_DECK, N_PUB_RULES,
                         RP_PLAYER_ACTIONS)
from ccsim.kernel.decisions import PERMS
from ccsim.kernel.rng import shuffle_nb, below_nb, RNG_CHANCE, RNG_ORDERS
from ccsim.kernel.engine.core import hand_add_nb, put_at_nb


@njit(cache=True)
def reset_nb(st, rules, sids):
    """Clear the state for a new game, keeping its log and replay settings."""
    cap = st[H_LOG_CAP]
    rec = st[H_REC]
    rec_len = st[H_REC_LEN]
    replay = st[H_REPLAY]
    st[:LOG] = 0
    st[H_LOG_CAP] = cap
    st[H_REC] = rec
    st[H_REC_LEN] = rec_len
    st[H_REPLAY] = replay
    for k in range(N_PUB_RULES):
        st[PUB_RULES + k] = rules[k]
    for p in range(2):
        for a in range(6):
            st[action_count_at(p, a)] = rules[RP_PLAYER_ACTIONS[p] + a]
    st[H_SID] = sids[0]
    st[H_SID + 1] = sids[1]
    st[PUB_DEC_KIND] = -1  # no decision pending (0 is a kind)


@njit(cache=True)
def action_total_nb(st, p):
    """The action cards player p owns (R1.4; the rules' per-player counts)."""
    n = 0
    for a in range(6):
        n += st[action_count_at(p, a)]
    return n


@njit(cache=True)
def take_copy_nb(st, base, n, code, j):
    """Remove the j-th copy (top first) of card ``code`` from the deck st[base:base + n]."""
    seen = 0
    for i in range(n):
        if st[base + i] == code:
            if seen == j:
                for k in range(i, n - 1):
                    st[base + k] = st[base + k + 1]
                return
            seen += 1


@njit(cache=True)
def put_card_nb(st, base, n, code, at):
    """Insert card ``code`` at index ``at`` of the deck st[base:base + n]."""
    for k in range(n, at, -1):
        st[base + k] = st[base + k - 1]
    st[base + at] = code


@njit(cache=True)
def fit_shuffled_deck_nb(st, p, rng):
    """A shuffled R1.4 deck made into a uniformly random ordering of player p's own cards
    (GAME_RECORD.md ``action_count``): each card she lacks is a uniformly random copy taken
    out, each extra one put in at a uniformly random place.  Both keep the ordering uniform
    (delete a random copy of, or insert at a random gap of, a uniformly random arrangement),
    and under R1.4's counts nothing is drawn, so the default games are unchanged; a deck
    that lost one card keeps the order of all the others (paired ablations, docs/metrics.md)."""
    base = SETUP + s_adeck_at(p, 0)
    n = st[SETUP + S_ADECK_LEN + p]
    for a in range(6):
        have = ACTION_COUNTS[a]
        want = st[action_count_at(p, a)]
        while have > want:
            take_copy_nb(st, base, n, ACTION_BASE + a, below_nb(rng, RNG_ORDERS, have))
            have -= 1
            n -= 1
        while have < want:
            put_card_nb(st, base, n, ACTION_BASE + a, below_nb(rng, RNG_ORDERS, n + 1))
            have += 1
            n += 1
    st[SETUP + S_ADECK_LEN + p] = n


@njit(cache=True)
def deal_nb(st, orders, rng):
    """Chance's part of R2 into the setup block: influence decks (R2.1), action
    decks (R2.2: the given order, or shuffled where ``orders[p, 0] < 0``), bonus
    cards (R2.3) and the VoC deck (R2.4).  Placement is left at -1 (R2.5 is
    the players' choice).  A given order holds the player's own action cards
    (``orders[p, :n]``, n her total); the edge checks it."""
    for p in range(2):
        n = 0
        for c in range(6):
            for _ in range(st[PUB_RULES + RP_DECK_COUNT + c]):
                st[SETUP + s_ideck_at(p, n)] = c
                n += 1
        st[SETUP + S_IDECK_LEN + p] = n
        shuffle_nb(rng, RNG_CHANCE, st, SETUP + s_ideck_at(p, 0), n)
    for i in range(6):  # the option buffer is free scratch before the first decision
        st[OPTS + i] = BONUS_DECK[i]
    shuffle_nb(rng, RNG_CHANCE, st, OPTS, 6)
    st[SETUP + S_BONUS] = st[OPTS]
    st[SETUP + S_BONUS + 1] = st[OPTS + 1]
    n = 0
    for g in range(N_GROUPS):
        st[SETUP + S_VOC + n] = g
        n += 1
    orgies = st[PUB_RULES + RP_ORGIES]
    if (st[PUB_RULES + RP_VARIANTS] & V_TWO_ORGIES) != 0:
        orgies -= 1  # R11 two_orgies: one plain orgy boxed before the game
    for _ in range(orgies):
        st[SETUP + S_VOC + n] = ORGY
        n += 1
    st[SETUP + S_VOC + n] = ORGY_RESHUFFLE
    n += 1
    st[SETUP + S_VOC_LEN] = n
    shuffle_nb(rng, RNG_CHANCE, st, SETUP + S_VOC, n)
    for p in range(2):
        n = 0
        if orders[p, 0] < 0:  # shuffled: R1.4's deck first, the same draws whatever the counts
            for a in range(6):
                for _ in range(ACTION_COUNTS[a]):
                    st[SETUP + s_adeck_at(p, n)] = ACTION_BASE + a
                    n += 1
            shuffle_nb(rng, RNG_ORDERS, st, SETUP + s_adeck_at(p, 0), n)
        else:
            n = action_total_nb(st, p)
            for i in range(n):
                st[SETUP + s_adeck_at(p, i)] = ACTION_BASE + orders[p, i]
        st[SETUP + S_ADECK_LEN + p] = n
    for p in range(2):  # after both shuffles: a player's counts never move the other's deck
        if orders[p, 0] < 0:
            fit_shuffled_deck_nb(st, p, rng)
    for p in range(2):
        for g in range(N_GROUPS):
            st[SETUP + s_placement_at(p, g)] = -1


@njit(cache=True)
def start_nb(st):
    """Lay out the game of the setup block: decks, bonus, patricians and the "nothing yet"
    markers; the initial placements (R2.5) are the first decisions (``engine.step``)."""
    for g in range(N_GROUPS):
        st[PUB_REMAIN + g] = st[PUB_RULES + RP_GROUP_SIZE + g]
    for p in range(2):
        b = priv_at(p)
        n = st[SETUP + S_IDECK_LEN + p]
        for i in range(n):
            st[ideck_at(p, i)] = st[SETUP + s_ideck_at(p, i)]
        st[H_IDECK_LEN + p] = n
        st[H_IDECK_TOP + p] = 0
        st[PUB_IDECKN + p] = n
        n = st[SETUP + S_ADECK_LEN + p]
        for i in range(n):
            st[b + PR_ADECK + i] = st[SETUP + s_adeck_at(p, i)]
        st[b + PR_ADECK_LEN] = n
        st[b + PR_ADECK_TOP] = 0
        st[PUB_ADECKN + p] = n
        st[b + PR_BONUS] = st[SETUP + S_BONUS + p]
        st[H_BONUS + p] = st[SETUP + S_BONUS + p]
        st[b + PR_SPY_TURN] = -1
    n = st[SETUP + S_VOC_LEN]
    for i in range(n):
        st[H_VOC + i] = st[SETUP + S_VOC + i]
    st[H_VOC_TOP] = 0
    st[H_VOC_LEN] = n
    st[PUB_VOC_DECKN] = n
    if (st[PUB_RULES + RP_VARIANTS] & V_TWO_ORGIES) != 0:
        st[PUB_VOC_BOX + ORGY] = 1
    st[PUB_ACTION] = -1
    st[PUB_CTX_CARD] = -1
    st[PUB_CTX_G1] = -1
    st[PUB_CTX_G2] = -1
    st[H_ACTION_EV] = -1
    st[PUB_ACT_CARD] = -1


@njit(cache=True)
def placement_options_nb(st):
    """R2.5: every bijection of the values 1..5 to the groups, as indices into decisions.PERMS."""
    for i in range(PERMS.shape[0]):
        st[OPTS + i] = i
    return PERMS.shape[0]


@njit(cache=True)
def place_initial_nb(st, p, choice):
    """R2.5: p's set-aside cards 1..5 face-down, one per group (permutation ``choice``); her
    other five set-aside cards are her hand."""
    for g in range(N_GROUPS):
        c = PERMS[choice, g]
        put_at_nb(st, g, p, c, False)
        st[SETUP + s_placement_at(p, g)] = c
    for c in range(5):
        hand_add_nb(st, p, c)

"""Sampling the hidden position: a world a player cannot tell from the real one.

``sample_hidden_nb(st, p, rng, k)`` keeps everything player ``p`` may see —
the public block, her own private block (her hand, face-down cards, bonus,
action deck, what her spy showed her and still knows, R8.2, R8.3) and her
strategy memory — and redeals everything else uniformly at random from
stream ``k`` of ``rng``, consistent with what she has seen:

* her opponent's unseen cards (all of hers that are neither in her discard
  pile nor face-up on the table; R8.1) go to her hand (the cards p's spy
  still knows stay there: ``PR_SPY_KNOWN``), to her face-down places (as many
  per group as the public counts say) and to her decks (as many as their
  public sizes); her action cards split between hand and action deck by the
  deck's public size;
* the order of p's own influence deck (she knows what is in it, not the
  order, R2.7) and of the VoC deck (its cards: those neither in the VoC
  discard nor in the box);
* the opponent's bonus card, one of the five p does not hold (R2.3);
* what the opponent knows of p (her spy record) and her strategy memory are
  cleared: p cannot know them.

Every hidden slot is written from p's observation and the random stream
alone (pools are built in card-code order, then shuffled), so the sample does
not depend on the real hidden cards at all.  The setup block (the real deal)
is cleared.  Search players (``strategies/search/expert.py``) play their simulations
in such worlds.
"""
import numpy as np

from ccsim.toolchain.jit import njit, stack_array

from ccsim.kernel.layout import (PUB_RULES, PUB_HANDN, PUB_IDECKN, PUB_ADECKN, PUB_VOC_DECKN, PUB_VOC_DISC, PUB_VOC_BOX,
                          PR_HAND, PR_BONUS, PR_ADECK, PR_ADECK_TOP, PR_ADECK_LEN, PR_SPY_SEEN, PR_SPY_TURN,
                          PR_SPY_KNOWN, PR_CASTLE_C, PR_SPLIT2, MEM_SIZE, SETUP, SETUP_SIZE, H_IDECK_TOP, H_IDECK_LEN, H_VOC,
                          H_VOC_TOP, H_VOC_LEN, H_BONUS, H_HAND_INF, H_VP_LEAD, fu_at, fdn_at, disc_at, priv_at, fd_at,
                          ideck_at, mem_at, action_count_at)
from ccsim.kernel.rules import (N_GROUPS, N_VALUES, N_ACTIONS, N_CARD_CODES, N_VOC_KINDS, ACTION_BASE, ORGY, RP_DECK_COUNT,
                         RP_ORGIES, BONUS_DECK, MAX_INFLUENCE_DECK, MAX_ACTION_DECK,
                         MAX_VOC_DECK)
from ccsim.kernel.rng import below_nb, shuffle_nb
from ccsim.kernel.engine.score import vp_lead_nb

_pool_nb = stack_array(np.int32, (MAX_INFLUENCE_DECK + 16,), zeroed=False)


@njit(cache=True)
def influence_owned_nb(st, q, c):
    """How many influence cards of code c player q owns (R2.1: the deck and the ten set aside)."""
    return st[PUB_RULES + RP_DECK_COUNT + c] + (2 if c < 5 else 0)


@njit(cache=True)
def opponent_unseen_nb(st, o, c):
    """o's cards of code c that nobody but o has seen: not in her discard pile, not face-up."""
    if c < N_VALUES:
        n = influence_owned_nb(st, o, c)
        for g in range(N_GROUPS):
            n -= st[fu_at(g, o, c)]
    else:
        n = st[action_count_at(o, c - ACTION_BASE)]  # her own cards (rules: per player)
    return n - st[disc_at(o, c)]


@njit(cache=True)
def unseen_pool_nb(st, o, known, hand, first, last, pool):
    """o's unseen cards of codes first .. last - 1: those her opponent's spy still knows
    (``st[known + c]``) go straight into her hand (``st[hand + c]``, which they set), the
    rest into ``pool``.  Returns (cards pooled, cards known)."""
    n = 0
    n_known = 0
    for c in range(first, last):
        u = opponent_unseen_nb(st, o, c)
        kn = min(st[known + c], u)
        n_known += kn
        st[hand + c] = kn
        for _ in range(u - kn):
            pool[n] = c
            n += 1
    return n, n_known


@njit(cache=True)
def _deal_pool_nb(pool, n, rng, k):
    shuffle_nb(rng, k, pool, 0, n)


@njit(cache=True)
def sample_hidden_nb(st, p, rng, k):
    """Redeal, in place, everything hidden from player p (see the module docstring); each part
    draws from stream k in this order, so a world is one function of the observation and the
    stream."""
    o = 1 - p
    mine = priv_at(p)
    hers = priv_at(o)
    pool = _pool_nb()
    in_hand, known_act = deal_her_actions_nb(st, o, mine, hers, pool, rng, k)
    deal_her_influence_nb(st, o, mine, hers, in_hand + known_act, pool, rng, k)
    deal_own_deck_nb(st, p, mine, pool, rng, k)
    deal_voc_nb(st, pool, rng, k)
    deal_her_bonus_nb(st, p, o, mine, hers, pool, rng, k)
    forget_what_she_knows_nb(st, o, hers)


@njit(cache=True)
def deal_her_actions_nb(st, o, mine, hers, pool, rng, k):
    """Her hand's and action deck's action cards (R1.4), the ones p's spy still knows kept in
    her hand; returns (unknown action cards dealt to her hand, known ones)."""
    n, known_act = unseen_pool_nb(st, o, mine + PR_SPY_KNOWN, hers + PR_HAND, ACTION_BASE,
                                  ACTION_BASE + N_ACTIONS, pool)
    _deal_pool_nb(pool, n, rng, k)
    deck = st[PUB_ADECKN + o]
    in_hand = n - deck  # her unseen action cards not in her deck are in her hand
    for i in range(in_hand):
        st[hers + PR_HAND + pool[i]] += 1
    length = 0
    for a in range(N_ACTIONS):
        length += st[action_count_at(o, a)]
    top = length - deck
    for i in range(MAX_ACTION_DECK):
        st[hers + PR_ADECK + i] = ACTION_BASE
    for i in range(deck):
        st[hers + PR_ADECK + top + i] = pool[in_hand + i]
    st[hers + PR_ADECK_TOP] = top
    st[hers + PR_ADECK_LEN] = length
    return in_hand, known_act


@njit(cache=True)
def deal_her_influence_nb(st, o, mine, hers, actions_in_hand, pool, rng, k):
    """Her influence cards: hand (beside her ``actions_in_hand`` action cards), face-down
    places (as many per group as the public counts), influence deck."""
    n, known_inf = unseen_pool_nb(st, o, mine + PR_SPY_KNOWN, hers + PR_HAND, 0, N_VALUES, pool)
    _deal_pool_nb(pool, n, rng, k)
    j = 0
    for _ in range(st[PUB_HANDN + o] - actions_in_hand - known_inf):
        st[hers + PR_HAND + pool[j]] += 1
        j += 1
    for g in range(N_GROUPS):
        for c in range(N_VALUES):
            st[hers + fd_at(g, c)] = 0
        for _ in range(st[fdn_at(g, o)]):
            st[hers + fd_at(g, pool[j])] += 1
            j += 1
    for i in range(MAX_INFLUENCE_DECK):
        st[ideck_at(o, i)] = 0
    for i in range(st[PUB_IDECKN + o]):
        st[ideck_at(o, i)] = pool[j]
        j += 1
    st[H_IDECK_TOP + o] = 0
    st[H_IDECK_LEN + o] = st[PUB_IDECKN + o]
    inf = 0
    for c in range(N_VALUES):
        inf += st[hers + PR_HAND + c]
    st[H_HAND_INF + o] = inf


@njit(cache=True)
def deal_own_deck_nb(st, p, mine, pool, rng, k):
    """The order of p's own influence deck (R2.7: its cards she knows, not their order)."""
    n = 0
    for c in range(N_VALUES):
        u = influence_owned_nb(st, p, c) - st[disc_at(p, c)] - st[mine + PR_HAND + c]
        for g in range(N_GROUPS):
            u -= st[fu_at(g, p, c)] + st[mine + fd_at(g, c)]
        for _ in range(u):
            pool[n] = c
            n += 1
    _deal_pool_nb(pool, n, rng, k)
    for i in range(MAX_INFLUENCE_DECK):
        st[ideck_at(p, i)] = pool[i] if i < n else 0
    st[H_IDECK_TOP + p] = 0
    st[H_IDECK_LEN + p] = n
    inf = 0
    for c in range(N_VALUES):
        inf += st[mine + PR_HAND + c]
    st[H_HAND_INF + p] = inf


@njit(cache=True)
def deal_voc_nb(st, pool, rng, k):
    """The VoC deck: every card neither discarded nor boxed (R1.2, R4.5), in a random order."""
    n = 0
    for v in range(N_VOC_KINDS):
        u = (st[PUB_RULES + RP_ORGIES] if v == ORGY else 1) - st[PUB_VOC_DISC + v] - st[PUB_VOC_BOX + v]
        for _ in range(u):
            pool[n] = v
            n += 1
    _deal_pool_nb(pool, n, rng, k)
    for i in range(MAX_VOC_DECK):
        st[H_VOC + i] = pool[i] if i < n else 0
    st[H_VOC_TOP] = 0
    st[H_VOC_LEN] = n
    st[PUB_VOC_DECKN] = n  # (equal already: the public count of the same cards)


@njit(cache=True)
def deal_her_bonus_nb(st, p, o, mine, hers, pool, rng, k):
    """Her bonus: one of the five cards p does not hold (R2.3)."""
    n = 0
    skipped = False
    for i in range(6):
        if not skipped and BONUS_DECK[i] == st[mine + PR_BONUS]:
            skipped = True
            continue
        pool[n] = BONUS_DECK[i]
        n += 1
    b = pool[below_nb(rng, k, n)]
    st[hers + PR_BONUS] = b
    st[H_BONUS + o] = b
    st[H_BONUS + p] = st[mine + PR_BONUS]
    st[H_VP_LEAD] = vp_lead_nb(st)  # her bonus may score differently (R10.4)


@njit(cache=True)
def forget_what_she_knows_nb(st, o, hers):
    """What she knows of p (her spy record), her castling, her memory and the real deal:
    unknown to p."""
    for c in range(N_CARD_CODES):
        st[hers + PR_SPY_SEEN + c] = 0
        st[hers + PR_SPY_KNOWN + c] = 0
    st[hers + PR_SPY_TURN] = -1
    for i in range(PR_CASTLE_C, PR_SPLIT2 + 1):  # (she is not castling while p decides)
        st[hers + i] = 0
    m = mem_at(o)
    for i in range(MEM_SIZE):
        st[m + i] = 0
    for i in range(SETUP_SIZE):
        st[SETUP + i] = 0

"""Sampling the hidden position (ccsim.kernel.engine.determinize): R8's information sets respected.

For mid-game positions of real games: the sample keeps the searching player's
observation, is a consistent state, depends on nothing hidden from her, keeps
what her spy still knows, and deals the hidden cards with the right multiset
in a uniformly random arrangement.
"""
from collections import Counter

import numpy as np
import pytest
from scipy import stats

from ccsim.kernel import layout as L
from ccsim.kernel import rules as R
from ccsim.kernel.engine.determinize import sample_hidden_nb
from ccsim.kernel.engine.invariants import check_state_nb, INVARIANT_NAMES
from ccsim.play.game import Game
from test_observation import perturb_hidden


def _positions(n, seed=3):
    """Mid-game states (with every decision kind among them) of games between heuristics."""
    gen = np.random.default_rng(seed)
    out = []
    k = 0
    while len(out) < n:
        g = Game(seed=seed, game=k)
        stop = int(gen.integers(4, 60))
        while not g.over and g.turn < stop:
            g.step(g.ask("tactician" if g.to_move == "cleopatra" else "counter"))
        if not g.over and g.decision != "placement":
            out.append(g.st[:L.BASE_SIZE].copy())
        k += 1
    return out


def _observed(st, p):
    b, m = L.PRIV + p * L.PRIV_SIZE, L.MEM + p * L.MEM_SIZE
    return np.concatenate([st[L.PUB:L.PUB + L.PUB_SIZE], st[b:b + L.PRIV_SIZE], st[m:m + L.MEM_SIZE],
                           st[L.OPTS:L.OPTS + L.MAX_OPTIONS]])


def _sample(st, p, seed):
    s = st.copy()
    rng = np.zeros(L.N_RNG, np.uint64)
    rng[0] = seed
    sample_hidden_nb(s, p, rng, 0)
    return s


@pytest.fixture(scope="module")
def positions(compiled):
    return _positions(40)


def test_the_sample_keeps_her_observation_and_is_a_consistent_state(positions):
    for i, st in enumerate(positions):
        for p in range(2):
            s = _sample(st, p, i + 1)
            np.testing.assert_array_equal(_observed(s, p), _observed(st, p))
            assert check_state_nb(s) == 0, INVARIANT_NAMES[check_state_nb(s)]


def test_the_sample_depends_on_nothing_hidden_from_her(positions):
    """Redeal the real hidden cards first: the sample is the very same state."""
    gen = np.random.default_rng(5)
    moved = 0
    for i, st in enumerate(positions):
        for p in range(2):
            other = perturb_hidden(st, p, gen)
            moved += not np.array_equal(other, st)
            np.testing.assert_array_equal(_sample(other, p, 7 + i), _sample(st, p, 7 + i))
    assert moved > len(positions)  # the perturbation did change the real hidden cards


def test_the_sample_redeals_what_she_cannot_see(positions):
    """Her opponent's hand and face-down cards and the deck orders do change between samples."""
    changed = Counter()
    for st in positions[:20]:
        a, b = _sample(st, 0, 1), _sample(st, 0, 2)
        hers = L.PRIV + L.PRIV_SIZE
        changed["hand"] += not np.array_equal(a[hers + L.PR_HAND:hers + L.PR_HAND + 12],
                                              b[hers + L.PR_HAND:hers + L.PR_HAND + 12])
        changed["voc"] += not np.array_equal(a[L.H_VOC:L.H_VOC + 16], b[L.H_VOC:L.H_VOC + 16])
        changed["deck"] += not np.array_equal(a[L.H_IDECK:L.H_IDECK + 64], b[L.H_IDECK:L.H_IDECK + 64])
    assert min(changed.values()) > 10, changed


def _hidden_cards(st, o):
    """o's cards p cannot see: hand, face-down, both decks' remainders, by code."""
    b = L.PRIV + o * L.PRIV_SIZE
    out = Counter()
    for c in range(12):
        out[c] += int(st[b + L.PR_HAND + c])
    for g in range(5):
        for c in range(6):
            out[c] += int(st[b + L.PR_FD + g * 6 + c])
    top, n = st[L.H_IDECK_TOP + o], st[L.H_IDECK_LEN + o]
    out.update(int(x) for x in st[L.H_IDECK + o * 64 + top:L.H_IDECK + o * 64 + n])
    top, n = st[b + L.PR_ADECK_TOP], st[b + L.PR_ADECK_LEN]
    out.update(int(x) for x in st[b + L.PR_ADECK + top:b + L.PR_ADECK + n])
    return +out


def test_the_hidden_cards_keep_their_multiset(positions):
    for i, st in enumerate(positions):
        for p in range(2):
            assert _hidden_cards(_sample(st, p, 3 + i), 1 - p) == _hidden_cards(st, 1 - p)


def test_what_her_spy_still_knows_stays_in_the_hand(compiled):
    """R8.3: a spy shows the hand; the cards seen stay known until they leave it in public."""
    found = 0
    for st in _positions(60, seed=11):
        for p in range(2):
            known = st[L.PRIV + p * L.PRIV_SIZE + L.PR_SPY_KNOWN:][:12]
            if known.sum() == 0:
                continue
            found += 1
            hand = st[L.PRIV + (1 - p) * L.PRIV_SIZE + L.PR_HAND:][:12]
            assert (hand >= known).all(), "the engine's record of what she knows is wrong"
            for seed in range(5):
                s = _sample(st, p, seed)
                assert (s[L.PRIV + (1 - p) * L.PRIV_SIZE + L.PR_HAND:][:12] >= known).all()
    assert found > 5


def test_hidden_cards_are_uniformly_arranged(compiled):
    """Chi-square: the card on each slot of her influence deck, her face-down places and her
    hand follows the shares of her unseen cards (the cards p's spy knows aside)."""
    st = next(s for s in _positions(30, seed=21) if s[L.PUB_IDECKN + 1] > 10 and s[L.fdn_at.py_func(0, 1)] >= 0)
    p, o = 0, 1
    draws = 4000
    slots = {}
    for seed in range(draws):
        s = _sample(st, p, 1000 + seed)
        deck = s[L.H_IDECK + o * 64:L.H_IDECK + o * 64 + 4]
        for i, c in enumerate(deck):
            slots.setdefault(f"deck{i}", Counter())[int(c)] += 1
        b = L.PRIV + o * L.PRIV_SIZE
        known = s[L.PRIV + p * L.PRIV_SIZE + L.PR_SPY_KNOWN:][:6]
        for c in range(6):
            slots.setdefault("hand", Counter())[c] += int(s[b + L.PR_HAND + c] - known[c])
    unseen = Counter()
    for c in range(6):
        owned = R.DEFAULT_RULES[R.RP_DECK_COUNT + c] + (2 if c < 5 else 0)
        unseen[c] = owned - st[L.disc_at.py_func(o, c)] - sum(st[L.fu_at.py_func(g, o, c)] for g in range(5))
        unseen[c] -= st[L.PRIV + p * L.PRIV_SIZE + L.PR_SPY_KNOWN + c]
    total = sum(unseen.values())
    codes = [c for c in range(6) if unseen[c] > 0]
    for name, counts in slots.items():
        observed = np.array([counts[c] for c in codes], float)
        expected = np.array([unseen[c] / total for c in codes]) * observed.sum()
        assert sum(counts[c] for c in range(6) if c not in codes) == 0, name
        p_value = stats.chisquare(observed, expected).pvalue
        assert p_value > 1e-4, (name, observed, expected)

"""R1 components and R2 setup, on the state the engine starts every game from."""
from collections import Counter

import pytest
from scenario import Game, Turn, dealt_state, engine  # noqa: F401  (session fixture: compile once)

from ccsim.kernel import layout as L
from ccsim.kernel import rules as R

pytestmark = pytest.mark.usefixtures("engine")

C, K = "cleopatra", "caesar"


def pv(p):
    return L.PRIV + p * L.PRIV_SIZE


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_R2_1_influence_decks_of_27(seed):
    st = dealt_state(seed=seed)
    for p in range(2):
        n = int(st[L.PUB_IDECKN + p])
        deck = Counter(R.INFLUENCE_NAMES[int(c)] for c in st[L.H_IDECK + p * 64:L.H_IDECK + p * 64 + n])
        assert n == 27 and deck == Counter({"1": 5, "2": 5, "3": 5, "4": 5, "5": 5, "P": 2})


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_R2_5_initial_placement_one_face_down_card_per_group_and_hand_1_to_5(seed):
    st = dealt_state(seed=seed)
    for p in range(2):
        values = []
        for g in range(R.N_GROUPS):
            assert int(st[L.PUB_FDN + g * 2 + p]) == 1 and int(st[L.PUB_SIDEN + g * 2 + p]) == 1
            fd = st[pv(p) + L.PR_FD + g * 6:pv(p) + L.PR_FD + g * 6 + 6]
            values += [c for c in range(6) for _ in range(int(fd[c]))]
        assert sorted(values) == [0, 1, 2, 3, 4]  # a bijection of 1..5 onto the groups
        hand = st[pv(p) + L.PR_HAND:pv(p) + L.PR_HAND + 12]
        assert list(hand) == [1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0] and int(st[L.PUB_HANDN + p]) == 5


def test_R2_2_action_deck_in_the_given_order():
    orders = ("VAASRCAWSARCV", "AAAASSCCRRWVV")
    st = dealt_state(orderings=orders)
    for p in range(2):
        deck = "".join(R.ACTION_LETTERS[int(c) - R.ACTION_BASE] for c in st[pv(p) + L.PR_ADECK:pv(p) + L.PR_ADECK + 13])
        assert deck == orders[p] and int(st[L.PUB_ADECKN + p]) == 13


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_R1_4_R2_2_shuffled_action_deck_has_the_13_cards(seed):
    st = dealt_state(seed=seed)
    for p in range(2):
        deck = Counter(R.ACTION_NAMES[int(c) - R.ACTION_BASE] for c in st[pv(p) + L.PR_ADECK:pv(p) + L.PR_ADECK + 13])
        assert deck == Counter(assassination=4, spy=2, castling=2, scout=2, wrath=1, veto=2)


@pytest.mark.parametrize("seed", range(1, 9))
def test_R2_3_bonus_groups_are_senator_praetor_or_quaestor(seed):
    st = dealt_state(seed=seed)
    for p in range(2):
        assert int(st[L.H_BONUS + p]) in (0, 1, 2) and st[pv(p) + L.PR_BONUS] == st[L.H_BONUS + p]


def test_R1_1_R1_2_patricians_and_voc_deck():
    st = dealt_state()
    assert [int(st[L.PUB_REMAIN + g]) for g in range(5)] == [5, 5, 5, 3, 3]
    n = int(st[L.PUB_VOC_DECKN])
    assert n == 8
    deck = Counter(R.VOC_NAMES[int(v)] for v in st[L.H_VOC:L.H_VOC + n])
    assert deck == Counter({**{g: 1 for g in R.GROUPS}, "orgy": 2, "orgy_reshuffle": 1})
    assert sum(int(x) for x in st[L.PUB_VOC_BOX:L.PUB_VOC_BOX + 7]) == 0


def test_R2_6_cleopatra_takes_the_first_turn():
    assert Game().run(Turn(C, 1, "passive"), Turn(K, 2, "passive")).ok
    assert Game().run(Turn(K, 1, "passive"), Turn(C, 2, "passive")).error == "illegal event"

"""R6 votes of confidence, R4.3 exceptional votes, R4.5 the VoC draw — scenario tests."""
import pytest
from scenario import (
    Action,
    Draw,
    Place,
    Reshuffle,
    Table,
    Turn,
    Voc,
    Vote,
    engine,  # noqa: F401  (session fixture: compile once)
)

pytestmark = pytest.mark.usefixtures("engine")

C, K = "cleopatra", "caesar"


def senator_vote(cleo, caesar, down_cleo=(), down_caesar=()):
    t = Table()
    t.side("senator", C, up=cleo, down=down_cleo)
    t.side("senator", K, up=caesar, down=down_caesar)
    w = t.vote("senator")
    return t, w


# ------------------------------------------------------------------ R6.1/R6.2
def test_R6_1_all_cards_turned_face_up_and_R6_2_sums():
    t, w = senator_vote(["2"], ["4"], down_cleo=["3", "1"], down_caesar=["1"])
    assert t.events() == [Vote("senator", "card", (6, 5), False, C)]
    assert w == C
    # R6.6 after the reveal: cleopatra (L) loses her 3, caesar (S) his 1
    assert t.up("senator", C) == ["1", "2"] and t.down("senator", C) == []
    assert t.up("senator", K) == ["4"] and t.down("senator", K) == []
    assert t.face_down_count("senator", C) == 0 and t.face_down_count("senator", K) == 0


def test_R6_2_philosopher_is_worth_zero_and_empty_side_sums_zero():
    t, _ = senator_vote(["4", "P"], ["P"])
    assert t.events() == [Vote("senator", "card", (4, 0), False, C)]  # 1 v 1 cancels (R6.3)


def test_R6_5_winner_takes_one_patrician():
    t, w = senator_vote(["5"], ["3"])
    assert w == C
    assert t.left("senator") == 4
    assert t.won_by(C, "senator") == 1 and t.won_by(K, "senator") == 0


# ------------------------------------------------------------------ R6.3 -----
def test_R6_3_one_philosopher_against_none_reverses():
    t, w = senator_vote(["5", "P"], ["3"])
    assert t.events() == [Vote("senator", "card", (5, 3), True, K)]
    assert w == K and t.won_by(K, "senator") == 1
    assert t.discards(C) == ["5", "P"] and t.discards(K) == ["3"]


def test_R6_3_one_philosopher_on_the_smaller_side_reverses():
    t, w = senator_vote(["5"], ["3", "P"])
    assert t.events() == [Vote("senator", "card", (5, 3), True, K)]
    assert w == K


def test_R6_3_one_philosopher_against_one_cancels():
    t, w = senator_vote(["5", "P"], ["3", "P"])
    assert t.events() == [Vote("senator", "card", (5, 3), False, C)]
    assert w == C
    assert t.discards(C) == ["5", "P"] and t.discards(K) == ["3", "P"]


def test_R6_3_one_philosopher_against_two_reverses():
    t, w = senator_vote(["5", "P"], ["3", "P", "P"])
    assert t.events() == [Vote("senator", "card", (5, 3), True, K)]
    assert w == K
    assert t.discards(K) == ["3", "P", "P"]  # R6.6: every philosopher goes


def test_R6_3_two_philosophers_against_one_leave_one_and_reverse():
    t, w = senator_vote(["5", "P", "P"], ["3", "P"])
    assert t.events() == [Vote("senator", "card", (5, 3), True, K)]
    assert w == K


def test_R6_3_two_philosophers_against_none_count_as_one_and_reverse():
    t, w = senator_vote(["5", "P", "P"], ["3"])
    assert t.events() == [Vote("senator", "card", (5, 3), True, K)]
    assert w == K
    assert t.discards(C) == ["5", "P", "P"]


def test_R6_3_two_philosophers_against_two_cancel():
    t, w = senator_vote(["5", "P", "P"], ["3", "P", "P"])
    assert t.events() == [Vote("senator", "card", (5, 3), False, C)]
    assert w == C


def test_R6_3_face_down_philosophers_count_after_reveal():
    t, w = senator_vote(["5"], ["3"], down_cleo=["P"])
    assert t.events() == [Vote("senator", "card", (5, 3), True, K)]
    assert w == K and t.up("senator", C) == [] and t.discards(C) == ["5", "P"]


# ------------------------------------------------------------------ R6.4 -----
def test_R6_4_tie_nothing_happens_cards_stay_face_up():
    t, w = senator_vote(["1"], ["1", "2"], down_cleo=["2", "P"])
    assert w is None
    # a tie is logged with its reversal flag (1 P against none) and no winner
    assert t.events() == [Vote("senator", "card", (3, 3), True, None)]
    assert t.left("senator") == 5 and t.won_by(C, "senator") == t.won_by(K, "senator") == 0
    assert t.up("senator", C) == ["1", "2", "P"] and t.down("senator", C) == []
    assert t.up("senator", K) == ["1", "2"]
    assert t.discards(C) == [] and t.discards(K) == []


def test_R6_4_tie_without_philosophers():
    t, w = senator_vote(["4"], ["1", "3"])
    assert w is None and t.events() == [Vote("senator", "card", (4, 4), False, None)]
    assert t.size("senator") == 3


# ------------------------------------------------------------------ R6.6 -----
def test_R6_6_L_discards_one_highest_S_one_lowest():
    t, w = senator_vote(["1", "4", "5", "5"], ["3", "2", "3"])
    assert w == C
    assert t.up("senator", C) == ["1", "4", "5"] and t.discards(C) == ["5"]
    assert t.up("senator", K) == ["3", "3"] and t.discards(K) == ["2"]


def test_R6_6_S_discards_her_lowest_non_philosopher_and_all_philosophers_go():
    t, w = senator_vote(["5", "P", "4"], ["P", "2", "3"])
    assert w == C  # 1 v 1 cancels
    assert t.discards(C) == ["5", "P"] and t.up("senator", C) == ["4"]
    assert t.discards(K) == ["2", "P"] and t.up("senator", K) == ["3"]


def test_R6_6_S_with_only_philosophers_discards_no_other_card():
    t, w = senator_vote(["3", "1"], ["P", "P"])
    assert w == K  # 0 v 2 reverses: the smaller side wins
    assert t.discards(C) == ["3"] and t.up("senator", C) == ["1"]
    assert t.discards(K) == ["P", "P"] and t.up("senator", K) == []


def test_R6_6_reversed_vote_L_still_discards_highest():
    # L (larger sum) loses the vote but still discards her highest card
    t, w = senator_vote(["5", "2", "P"], ["1", "4"])
    assert w == K
    assert t.discards(C) == ["5", "P"] and t.up("senator", C) == ["2"]
    assert t.discards(K) == ["1"] and t.up("senator", K) == ["4"]


# ------------------------------------------------------------------ R6.7 -----
def test_R6_7_empty_side_wins_by_reversal():
    t, w = senator_vote([], ["3", "P"])
    assert t.events() == [Vote("senator", "card", (0, 3), True, C)]
    assert w == C and t.won_by(C, "senator") == 1
    assert t.discards(K) == ["3", "P"] and t.size("senator") == 0


def test_R6_7_empty_side_against_face_down_philosopher():
    t, w = senator_vote([], [], down_caesar=["4", "P"])
    assert w == C and t.events() == [Vote("senator", "card", (0, 4), True, C)]


# ------------------------------------------------------------------ R6.8 -----
def test_R6_8_last_patrician_clears_the_group():
    t = Table().patricians("censor", 1)
    t.side("censor", C, up=["5", "4"], down=["1"])
    t.side("censor", K, up=["4", "3", "1"])
    assert t.vote("censor") == C
    assert t.left("censor") == 0 and t.won_by(C, "censor") == 1
    assert t.size("censor") == 0 and t.at("censor", C) == [] and t.at("censor", K) == []
    assert t.discards(C) == ["1", "4", "5"] and t.discards(K) == ["1", "3", "4"]
    assert t.end is None  # other groups still hold patricians


def test_R6_8_R4_2_3_group_out_of_play_takes_no_card_and_is_no_target():
    t = Table().patricians("censor", 1)
    t.side("censor", C, up=["5"])
    t.side("censor", K, up=["3"])
    t.side("senator", K, up=["2"], down=["1"])
    t.vote("censor")
    t.hand(C, ["1", "2", "assassination", "castling", "scout", "wrath"])
    t.hand(K, ["3"])
    opts = t.options(C)
    assert not [o for o in opts if "censor" in o]
    assert "castling senator praetor" in opts and "wrath senator" in opts and "down 1 senator" in opts
    t.hand(K, ["1", "2", "assassination", "castling", "scout", "wrath"])
    assert not [o for o in t.options(K) if "censor" in o]


# ------------------------------------------------------------------ R4.3 -----
def test_R4_3_group_with_exactly_eight_cards_votes_trigger_eight():
    t = Table()
    t.side("senator", C, down=["1", "2", "3", "4"]).side("senator", K, down=["1", "1", "1", "1"])
    t.side("praetor", C, down=["5", "5", "5", "5"]).side("praetor", K, down=["1", "1", "1"])  # 7 cards
    t.exceptional_votes()
    assert t.events() == [Vote("senator", "eight", (10, 4), False, C)]


def test_R4_3_exceptional_votes_in_group_order():
    t = Table()
    for g in ("aedile", "quaestor"):
        t.side(g, C, down=["1", "1", "1", "1", "1"]).side(g, K, down=["2", "2", "2"])
    t.exceptional_votes()
    assert t.events() == [Vote("quaestor", "eight", (5, 6), False, K),
                          Vote("aedile", "eight", (5, 6), False, K)]


def test_R4_3_exceptional_vote_after_play_and_before_refill():
    t = Table()
    t.side("senator", C, down=["1", "2", "3"]).side("senator", K, down=["1", "1", "1", "1"])
    t.hand(C, ["4", "5"]).influence_deck(C, ["2", "3"])
    t.voc_deck(["orgy"])
    script = [Turn(C, 1, "active"), Place(C, "4", "senator", "down"),
              Vote("senator", "eight", (10, 4), False, C),
              Draw(C, "influence", "2"), Draw(C, "influence", "3"),  # R4.4: then both decks are empty
              Voc("orgy")]
    t.script(*script)
    t.turn(C)
    assert t.error == "ok"
    assert t.events() == script
    assert t.hand_of(C) == ["2", "3", "5"]


def test_R4_3_tie_stays_at_eight_and_votes_again_next_active_turn_never_on_passive():
    t = Table()
    t.side("senator", C, up=["1", "1", "1", "2"]).side("senator", K, up=["1", "1", "1", "2"])
    t.hand(C, ["3", "4"]).hand(K, ["5"])
    t.voc_deck(["orgy", "orgy", "orgy"])
    tie = Vote("senator", "eight", (5, 5), False, None)
    t.script(Turn(C, 1, "active"), Place(C, "3", "praetor", "down"), tie, Voc("orgy"),
             Turn(K, 2, "passive"),
             Turn(C, 3, "active"), Place(C, "4", "praetor", "down"), tie, Voc("orgy"))
    t.turn(C)
    assert t.size("senator") == 8
    t.turn(K)  # passive: no exceptional vote (R4.3 ruling)
    t.turn(C)
    assert t.error == "ok"
    assert t.events() == [Turn(C, 1, "active"), Place(C, "3", "praetor", "down"), tie, Voc("orgy"),
                          Turn(K, 2, "passive"),
                          Turn(C, 3, "active"), Place(C, "4", "praetor", "down"), tie, Voc("orgy")]
    assert t.left("senator") == 5


def test_R4_3_full_group_votes_in_the_opponents_active_turn_too():
    t = Table()
    t.side("senator", C, up=["1", "1", "1", "2"]).side("senator", K, up=["1", "1", "1", "3"])
    t.hand(K, ["3"])
    t.script(Turn(K, 1, "active"), Place(K, "3", "praetor", "down"),
             Vote("senator", "eight", (5, 6), False, K), Voc("orgy"))
    t.turn(K)
    assert t.error == "ok" and t.won_by(K, "senator") == 1


def test_R4_3_no_exceptional_vote_on_a_passive_turn():
    t = Table()
    t.side("senator", C, down=["1", "1", "1", "2"]).side("senator", K, down=["5", "1", "1", "2"])
    t.hand(C, ["3"])
    t.script(Turn(C, 1, "passive"))
    t.turn(C)
    assert t.error == "ok"
    assert t.events() == [Turn(C, 1, "passive")]
    assert t.down("senator", C) == ["1", "1", "1", "2"]  # nothing revealed


def test_R4_3_after_castling_the_repeated_vote_reveals_again():
    t = Table()
    t.side("senator", C, up=["1", "1", "1", "2"]).side("senator", K, up=["1", "1", "1", "2"])
    t.hand(C, ["castling", "4"])
    t.script(Action(C, "castling", groups=["senator", "praetor"],
                    split={"senator": ["1", "1", "1", "2"], "praetor": []}))
    t.play(C, "castling senator praetor")
    assert t.down("senator", C) == ["1", "1", "1", "2"] and t.up("senator", C) == []
    t.exceptional_votes()
    assert t.events()[-1] == Vote("senator", "eight", (5, 5), False, None)
    assert t.up("senator", C) == ["1", "1", "1", "2"] and t.down("senator", C) == []


# ------------------------------------------------------------------ R4.5 -----
def test_R4_5_group_card_votes_and_goes_to_the_voc_discard():
    t = Table().voc_deck(["praetor", "orgy"])
    t.side("praetor", C, up=["3"]).side("praetor", K, down=["2"])
    t.voc_draw()
    assert t.events() == [Voc("praetor"), Vote("praetor", "card", (3, 2), False, C)]
    assert t.voc_discards() == ["praetor"] and t.voc_boxed() == [] and t.voc_deck_now() == ["orgy"]


def test_R4_5_group_card_of_an_empty_group_votes_a_tie():
    t = Table().voc_deck(["quaestor"])
    t.voc_draw()
    assert t.events() == [Voc("quaestor"), Vote("quaestor", "card", (0, 0), False, None)]
    assert t.voc_discards() == ["quaestor"]


def test_R4_5_out_of_play_groups_card_is_boxed_and_the_next_drawn():
    t = Table().voc_deck(["censor", "aedile", "praetor", "orgy"]).out_of_play("censor", "aedile")
    t.side("praetor", K, up=["2"])
    t.voc_draw()
    assert t.events() == [Voc("censor"), Voc("aedile"), Voc("praetor"),
                          Vote("praetor", "card", (0, 2), False, K)]
    assert t.voc_boxed() == ["censor", "aedile"] and t.voc_discards() == ["praetor"]
    assert t.voc_deck_now() == ["orgy"]


def test_R4_5_orgy_has_no_vote():
    t = Table().voc_deck(["orgy", "senator"])
    t.side("senator", C, up=["3"])
    t.voc_draw()
    assert t.events() == [Voc("orgy")]
    assert t.voc_discards() == ["orgy"] and t.left("senator") == 5


def test_R4_5_orgy_reshuffle_rebuilds_deck_from_deck_and_discard_not_box():
    t = Table().voc_deck(["orgy_reshuffle", "senator", "orgy"])
    t.voc_discard(["praetor", "orgy"]).voc_box(["censor"]).out_of_play("censor")
    t.voc_draw()
    ev = t.events()
    assert ev[0] == Voc("orgy_reshuffle") and ev[1]["e"] == "reshuffle" and len(ev) == 2
    deck = t.voc_deck_now()
    assert ev[1]["deck"] == deck
    assert sorted(deck) == sorted(["senator", "orgy", "praetor", "orgy", "orgy_reshuffle"])
    assert t.voc_discards() == [] and t.voc_boxed() == ["censor"]
    assert t.size("senator") == 0 and t.left("senator") == 5  # no vote


def test_R4_5_orgy_reshuffle_replayed_order():
    t = Table().voc_deck(["orgy_reshuffle", "senator"]).voc_discard(["orgy"])
    t.script(Voc("orgy_reshuffle"), Reshuffle(["orgy", "orgy_reshuffle", "senator"]))
    t.voc_draw()
    assert t.error == "ok" and t.voc_deck_now() == ["orgy", "orgy_reshuffle", "senator"]


def test_R4_5_card_whose_vote_took_the_last_patrician_is_boxed():
    t = Table().voc_deck(["aedile", "orgy"]).patricians("aedile", 1)
    t.side("aedile", C, up=["3"]).side("aedile", K, up=["1"])
    t.voc_draw()
    assert t.events() == [Voc("aedile"), Vote("aedile", "card", (3, 1), False, C)]
    assert t.left("aedile") == 0 and t.voc_boxed() == ["aedile"] and t.voc_discards() == []
    assert t.size("aedile") == 0


def test_R4_5_tie_on_last_patrician_keeps_the_card_in_the_cycle():
    t = Table().voc_deck(["aedile"]).patricians("aedile", 1)
    t.side("aedile", C, up=["3"]).side("aedile", K, up=["3"])
    t.voc_draw()
    assert t.left("aedile") == 1 and t.voc_discards() == ["aedile"] and t.voc_boxed() == []

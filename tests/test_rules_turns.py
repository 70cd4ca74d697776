"""R3 active or passive, R4.2 placement, R4.4 refill, R5 the passive turn — scenario tests."""
import pytest
from scenario import (
    Action,
    Discard,
    Draw,
    Place,
    Table,
    Turn,
    Veto,
    Voc,
    Vote,
    engine,  # noqa: F401  (session fixture: compile once)
)

pytestmark = pytest.mark.usefixtures("engine")

C, K = "cleopatra", "caesar"
GROUPS = ["senator", "praetor", "quaestor", "censor", "aedile"]


def no_room_for_cleopatra():
    """Cleopatra has no room anywhere: her side of senator is full (R4.2.1),
    praetor holds 8 cards (R4.2.2), the other groups are out of play."""
    t = Table().out_of_play("quaestor", "censor", "aedile")
    t.side("senator", C, up=["1", "1", "1", "1", "1"]).side("senator", K, up=["2"])
    t.side("praetor", C, up=["2", "2", "2", "2"]).side("praetor", K, up=["3", "P"], down=["1", "1"])
    t.hand(K, ["4"])
    return t


# ------------------------------------------------------------------ R3.2 -----
def test_R3_2_active_possible_when_some_group_takes_a_card():
    t = Table().hand(C, ["1"])
    assert t.can_be_active(C)


def test_R3_2_no_room_and_no_freeing_action_must_be_passive():
    t = no_room_for_cleopatra()
    t.hand(C, ["1", "2", "castling", "spy", "scout"])
    assert not t.can_be_active(C)
    t.script(Turn(C, 1, "active"))
    t.turn(C)
    assert t.error == "illegal event"  # the MODE decision offers passive only


def test_R3_2_wrath_frees_room():
    t = no_room_for_cleopatra()
    t.hand(C, ["1", "2", "wrath", "spy", "castling", "scout"])
    assert t.can_be_active(C)
    # R3.3: before the first placement only the freeing action is offered
    assert sorted(t.options(C)) == ["wrath praetor", "wrath senator"]


def test_R3_2_assassination_at_a_full_group_frees_room():
    t = no_room_for_cleopatra()
    t.hand(C, ["1", "assassination"])
    assert t.can_be_active(C)
    # at senator her own side is full: assassinating the opponent's 2 frees nothing
    assert sorted(t.options(C)) == ["assassination praetor 3", "assassination praetor P"]


def test_R3_2_assassination_where_her_side_is_full_does_not_free_room():
    t = Table().out_of_play("praetor", "quaestor", "censor", "aedile")
    t.side("senator", C, up=["1"] * 5).side("senator", K, up=["2", "3"])
    t.hand(C, ["1", "assassination"])
    assert not t.can_be_active(C)


def test_R3_2_R5_2_no_influence_card_in_hand_must_be_passive():
    t = Table().hand(C, ["wrath", "spy", "castling"]).hand(K, ["1"]).side("senator", K, up=["3"])
    assert not t.can_be_active(C)


def test_R3_2_castling_never_frees_room():
    t = no_room_for_cleopatra().hand(C, ["3", "castling"])
    assert not t.can_be_active(C)


def test_R3_3_after_the_freeing_action_she_places_where_it_freed_room():
    t = no_room_for_cleopatra()
    t.hand(C, ["1", "2", "wrath"])
    t.play(C, "wrath praetor")
    assert sorted(t.options(C)) == sorted(["down 1 praetor", "up 1 praetor", "down 2 praetor", "up 2 praetor"])


def test_R3_2_at_least_one_placement_no_end_before_it():
    t = Table().hand(C, ["1", "scout"]).side("senator", K, down=["2"])
    assert "end" not in t.options(C)
    t.play(C, "scout senator")
    assert "end" not in t.options(C) and t.options(C) == ["down 1 " + g for g in GROUPS]


def test_R3_4_vetoed_freeing_action_leaves_end_only():
    t = no_room_for_cleopatra().hand(C, ["1", "wrath"]).hand(K, ["veto"])
    t.script(Action(C, "wrath", group="senator"), Veto(K))
    t.play(C, "wrath senator")
    assert t.options(C) == ["end"]


def test_R3_4_vetoed_freeing_action_turn_goes_on_without_placement():
    t = no_room_for_cleopatra().hand(C, ["1", "wrath"]).hand(K, ["veto"]).influence_deck(C, ["3"])
    script = [Turn(C, 1, "active"), Action(C, "wrath", group="senator"), Veto(K),
              Vote("praetor", "eight", (8, 5), True, K),  # R4.3 still happens (caesar's P reverses)
              Draw(C, "influence", "3"),                     # R4.4 refill
              Voc("orgy")]                                   # R4.5
    t.script(*script)
    t.turn(C)
    assert t.error == "ok" and t.events() == script
    assert t.hand_of(C) == ["1", "3"] and t.up("senator", C) == ["1"] * 5


# ------------------------------------------------------------------ R4.2 -----
def test_R4_2_one_face_down_or_face_up_offered_for_every_card_and_group():
    t = Table().hand(C, ["3", "P"])
    want = [f"{face} {c} {g}" for g in GROUPS for c in ["3", "P"] for face in ["down", "up"]]
    assert sorted(t.options(C)) == sorted(want)


def test_R4_2_after_one_face_down_card_no_more_placement():
    t = Table().hand(C, ["3", "4", "scout"]).side("aedile", K, down=["1"])
    t.place(C, "down 3 senator")
    assert sorted(t.options(C)) == ["end", "scout aedile"]
    assert t.down("senator", C) == ["3"]


def test_R4_2_one_face_up_card_alone_is_not_allowed():
    t = Table().hand(C, ["3", "4"])
    t.place(C, "up 3 senator")
    opts = t.options(C)
    assert "end" not in opts
    assert sorted(opts) == sorted(f"up 4 {g}" for g in GROUPS)  # no face-down card now
    t.place(C, "up 4 senator")  # two on one group is fine
    assert t.options(C) == ["end"]
    assert t.up("senator", C) == ["3", "4"]


def test_R4_2_two_face_up_cards_on_two_groups():
    t = Table().hand(C, ["3", "4", "5"])
    t.place(C, "up 3 senator").place(C, "up 5 aedile")
    assert t.options(C) == ["end"]
    assert t.up("senator", C) == ["3"] and t.up("aedile", C) == ["5"] and t.hand_of(C) == ["4"]


def test_R4_2_1_side_limit_five():
    t = Table().hand(C, ["3", "4"])
    t.side("senator", C, down=["1"] * 4)
    assert "down 3 senator" in t.options(C)
    t.side("senator", C, down=["1"])
    assert not [o for o in t.options(C) if "senator" in o]


def test_R4_2_2_group_limit_eight():
    t = Table().hand(C, ["3", "4"]).hand(K, ["3", "4"])
    t.side("senator", C, down=["1"] * 4).side("senator", K, down=["1"] * 3)
    assert "down 3 senator" in t.options(C) and "down 3 senator" in t.options(K)
    t.side("senator", K, down=["2"])
    assert not [o for o in t.options(C) if "senator" in o]
    assert not [o for o in t.options(K) if "senator" in o]


def test_R4_2_4_no_face_up_pair_where_only_one_card_fits():
    t = Table().hand(C, ["3", "4"]).out_of_play("praetor", "quaestor", "censor", "aedile")
    t.side("senator", C, down=["1"] * 4)
    assert sorted(t.options(C)) == ["down 3 senator", "down 4 senator"]


def test_R4_2_4_no_face_up_pair_where_group_limit_leaves_one_place():
    t = Table().hand(C, ["3", "4"]).out_of_play("praetor", "quaestor", "censor", "aedile")
    t.side("senator", C, down=["1"] * 2).side("senator", K, down=["1"] * 5)
    assert sorted(t.options(C)) == ["down 3 senator", "down 4 senator"]


def test_R4_2_4_face_up_pair_over_two_groups_with_one_place_each():
    t = Table().hand(C, ["3", "4"]).out_of_play("quaestor", "censor", "aedile")
    t.side("senator", C, down=["1"] * 4).side("praetor", C, down=["1"] * 4)
    assert "up 3 senator" in t.options(C) and "up 4 praetor" in t.options(C)
    t.place(C, "up 3 senator")
    assert t.options(C) == ["up 4 praetor"]


def test_R4_2_4_face_up_pair_on_one_group_with_two_places():
    t = Table().hand(C, ["3", "4"]).out_of_play("praetor", "quaestor", "censor", "aedile")
    t.side("senator", C, down=["1"] * 3)
    assert sorted(t.options(C)) == ["down 3 senator", "down 4 senator", "up 3 senator", "up 4 senator"]
    t.place(C, "up 3 senator")
    assert t.options(C) == ["up 4 senator"]


def test_R4_2_4_no_face_up_with_a_single_influence_card():
    t = Table().hand(C, ["3", "spy"])
    assert not [o for o in t.options(C) if o.startswith("up")]


def test_R4_2_4_room_an_action_would_free_does_not_count():
    t = Table().hand(C, ["3", "4", "wrath"]).out_of_play("praetor", "quaestor", "censor", "aedile")
    t.side("senator", C, down=["1"] * 4).side("senator", K, up=["2"])
    assert "up 3 senator" not in t.options(C)


# ------------------------------------------------------------------ R4.4 -----
def test_R4_4_refill_to_five_from_the_decks_of_her_choice():
    t = Table().hand(C, ["1", "2"]).influence_deck(C, ["3", "4"]).action_deck(C, ["spy", "wrath", "scout"])
    script = [Turn(C, 1, "active"), Place(C, "1", "senator", "up"), Place(C, "2", "praetor", "up"),
              Draw(C, "influence", "3"), Draw(C, "action", "spy"), Draw(C, "influence", "4"),
              Draw(C, "action", "wrath"), Draw(C, "action", "scout"), Voc("orgy")]
    t.script(*script)
    t.turn(C)
    assert t.error == "ok" and t.events() == script
    assert t.hand_of(C) == ["3", "4", "spy", "scout", "wrath"]


def test_R4_4_an_empty_deck_cannot_be_chosen():
    t = Table().hand(C, ["1", "2", "3", "4"]).action_deck(C, ["spy"])
    t.script(Turn(C, 1, "active"), Place(C, "1", "senator", "down"), Draw(C, "influence", "5"))
    t.turn(C)
    assert t.error == "illegal event"


def test_R4_4_both_decks_empty_she_stops():
    t = Table().hand(C, ["1", "2", "3"]).action_deck(C, ["spy"])
    script = [Turn(C, 1, "active"), Place(C, "1", "senator", "down"), Draw(C, "action", "spy"), Voc("orgy")]
    t.script(*script)
    t.turn(C)
    assert t.error == "ok" and t.events() == script
    assert t.hand_of(C) == ["2", "3", "spy"]


def test_R4_order_of_an_active_turn():
    t = Table().hand(C, ["1", "2", "4", "scout"]).influence_deck(C, ["5", "5"]).voc_deck(["praetor", "orgy"])
    t.side("senator", C, down=["1", "1", "1"]).side("senator", K, down=["2", "2", "2", "2"])
    t.side("praetor", K, down=["3"])
    script = [Turn(C, 1, "active"), Place(C, "1", "senator", "up"), Action(C, "scout", group="praetor"),
              Place(C, "4", "praetor", "up"),
              Vote("senator", "eight", (4, 8), False, K),
              Draw(C, "influence", "5"), Draw(C, "influence", "5"),
              Voc("praetor"), Vote("praetor", "card", (4, 3), False, C)]
    t.script(*script)
    t.turn(C)
    assert t.error == "ok" and t.events() == script


# ------------------------------------------------------------------ R5 -------
def test_R5_1_discard_any_number_of_hand_cards():
    t = Table().hand(C, ["1", "1", "spy"])
    assert sorted(t.discard_options(C)) == sorted([[], ["1"], ["1", "1"], ["spy"], ["1", "spy"], ["1", "1", "spy"]])
    t.hand(C, ["1", "2", "3", "P", "veto"])
    assert len(t.discard_options(C)) == 32


def test_R5_1_passive_turn_discards_then_refills_and_nothing_else():
    t = Table().hand(C, ["1", "2", "3", "4", "spy"]).influence_deck(C, ["5"]).action_deck(C, ["veto"])
    t.side("senator", C, down=["1"] * 4).side("senator", K, down=["1"] * 4)  # a full group: no vote
    script = [Turn(C, 1, "passive"), Discard(C, ["1", "spy"]),
              Draw(C, "action", "veto"), Draw(C, "influence", "5")]
    t.script(*script)
    quiet = t.turn(C)
    assert t.error == "ok" and t.events() == script  # no action card, no vote, no VoC card
    assert not quiet
    assert t.hand_of(C) == ["2", "3", "4", "5", "veto"] and t.discards(C) == ["1", "spy"]
    assert t.voc_deck_now() == ["orgy"] * 6


def test_R5_1_passive_turn_may_discard_nothing():
    t = Table().hand(C, ["1", "2", "3", "4", "5"]).influence_deck(C, ["5"])
    t.script(Turn(C, 1, "passive"))
    assert t.turn(C) is True
    assert t.error == "ok" and t.hand_of(C) == ["1", "2", "3", "4", "5"]


def test_R5_2_a_player_who_may_be_active_may_still_choose_passive():
    t = Table().hand(C, ["1"])
    t.script(Turn(C, 1, "passive"))
    t.turn(C)
    assert t.error == "ok"

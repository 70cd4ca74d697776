"""R7 action cards (targets, effects, veto) and R4.1 the one action card of a turn — scenario tests."""
import pytest
from scenario import Action, Draw, Table, Veto, engine  # noqa: F401  (session fixture: compile once)

pytestmark = pytest.mark.usefixtures("engine")

C, K = "cleopatra", "caesar"
ALL_PAIRS = [f"castling {a} {b}" for i, a in enumerate(["senator", "praetor", "quaestor", "censor", "aedile"])
             for b in ["senator", "praetor", "quaestor", "censor", "aedile"][i + 1:]]


def acts(t, player, card):
    return sorted(o for o in t.action_options(player) if o.split()[0] == card)


# ------------------------------------------------------------------ R7.1 -----
def board_for_assassination():
    t = Table().out_of_play("censor")
    t.side("senator", K, up=["3", "P"], down=["5"]).side("senator", C, up=["4"])
    t.side("praetor", K, down=["2"]).side("praetor", C, up=["1"])
    t.side("quaestor", K, up=["1", "1"])
    t.hand(C, ["1", "2", "assassination"])
    return t


def test_R7_1_assassination_targets_only_opponents_face_up_cards():
    t = board_for_assassination()
    assert acts(t, C, "assassination") == sorted(
        ["assassination senator 3", "assassination senator P", "assassination quaestor 1"])


def test_R7_1_assassination_without_target_is_not_offered():
    t = Table()
    t.side("senator", K, down=["5"]).side("senator", C, up=["4"])
    t.hand(C, ["1", "2", "assassination"])
    assert acts(t, C, "assassination") == []


def test_R7_1_assassination_removes_the_card_to_the_opponents_discard():
    t = board_for_assassination()
    t.play(C, "assassination senator P")
    assert t.events() == [Action(C, "assassination", group="senator", target="P")]
    assert t.up("senator", K) == ["3"] and t.down("senator", K) == ["5"]
    assert t.discards(K) == ["P"] and t.discards(C) == ["assassination"]
    assert t.hand_of(C) == ["1", "2"]


# ------------------------------------------------------------------ R7.2 -----
def test_R7_2_spy_needs_a_non_empty_opponent_hand():
    t = Table().hand(C, ["1", "2", "spy"])
    assert acts(t, C, "spy") == []
    t.hand(K, ["veto"])
    assert acts(t, C, "spy") == ["spy"]


def test_R7_2_spy_takes_the_chosen_card_and_the_victim_draws_from_the_deck_of_her_choice():
    t = Table().hand(C, ["1", "2", "spy"]).hand(K, ["1", "4", "scout", "veto"])
    t.influence_deck(K, ["2"]).action_deck(K, ["wrath"])
    script = [Action(C, "spy", target="4"), Draw(K, "action", "wrath")]  # caesar does not veto
    t.script(*script)
    t.play(C, "spy")
    assert t.error == "ok" and t.events() == script
    assert t.spy_seen(C) == ["1", "4", "scout", "veto"]  # R8.3
    assert t.hand_of(K) == ["1", "scout", "wrath", "veto"]
    assert t.discards(K) == ["4"] and t.discards(C) == ["spy"]


def test_R7_2_spy_may_take_an_action_card_replacement_from_influence_deck():
    t = Table().hand(C, ["1", "2", "spy"]).hand(K, ["1", "wrath"])
    t.influence_deck(K, ["P"]).action_deck(K, ["scout"])
    script = [Action(C, "spy", target="wrath"), Draw(K, "influence", "P")]
    t.script(*script)
    t.play(C, "spy")
    assert t.error == "ok" and t.events() == script
    assert t.hand_of(K) == ["1", "P"] and t.discards(K) == ["wrath"]


def test_R7_2_spy_no_replacement_when_both_decks_are_empty():
    t = Table().hand(C, ["1", "2", "spy"]).hand(K, ["3"])
    t.script(Action(C, "spy", target="3"))
    t.play(C, "spy")
    assert t.error == "ok" and t.events() == [Action(C, "spy", target="3")]
    assert t.hand_of(K) == [] and t.discards(K) == ["3"]


# ------------------------------------------------------------------ R7.3 -----
def test_R7_3_castling_any_two_groups_in_play_even_without_own_cards():
    t = Table().hand(C, ["1", "castling"])
    assert acts(t, C, "castling") == sorted(ALL_PAIRS)
    t.out_of_play("censor")
    assert acts(t, C, "castling") == sorted(p for p in ALL_PAIRS if "censor" not in p)


def test_R7_3_castling_needs_two_groups_in_play():
    t = Table().hand(C, ["1", "castling"]).out_of_play("senator", "praetor", "quaestor", "censor")
    assert acts(t, C, "castling") == []
    assert t.options(C) == ["down 1 aedile"]


def test_R7_3_castling_moves_own_cards_back_face_down_as_split():
    t = Table().hand(C, ["1", "castling"])
    t.side("senator", C, up=["5"], down=["2"]).side("praetor", C, up=["3"])
    t.side("senator", K, up=["4"], down=["1"]).side("praetor", K, up=["2"])
    script = [Action(C, "castling", groups=["senator", "praetor"],
                     split={"senator": ["3"], "praetor": ["2", "5"]})]
    t.script(*script)
    t.play(C, "castling senator praetor")
    assert t.error == "ok" and t.events() == script
    assert t.down("senator", C) == ["3"] and t.up("senator", C) == []
    assert t.down("praetor", C) == ["2", "5"] and t.up("praetor", C) == []
    assert t.face_down_count("praetor", C) == 2
    # the opponent's cards are untouched
    assert t.up("senator", K) == ["4"] and t.down("senator", K) == ["1"] and t.up("praetor", K) == ["2"]
    assert t.discards(C) == ["castling"]


@pytest.mark.parametrize("on_senator", range(6))
def test_R7_3_castling_split_next_to_a_full_group(on_senator):
    # senator: caesar 5 + cleopatra 3 = 8 cards (full); praetor: cleopatra 2
    t = Table().hand(C, ["1", "castling"])
    t.side("senator", K, up=["2"] * 5).side("senator", C, down=["1"] * 3).side("praetor", C, down=["1"] * 2)
    t.script(Action(C, "castling", groups=["senator", "praetor"],
                    split={"senator": ["1"] * on_senator, "praetor": ["1"] * (5 - on_senator)}))
    t.play(C, "castling senator praetor")
    legal = on_senator <= 3  # R4.2.2: 8 - 5 places for her at senator
    assert (t.error == "ok") == legal, t.error
    if legal:
        assert t.size("senator") == 5 + on_senator and t.size("praetor") == 5 - on_senator


@pytest.mark.parametrize("on_senator", range(7))
def test_R7_3_castling_split_within_the_side_limit(on_senator):
    t = Table().hand(C, ["1", "castling"])
    t.side("senator", C, down=["1"] * 5).side("praetor", C, up=["1"])
    t.script(Action(C, "castling", groups=["senator", "praetor"],
                    split={"senator": ["1"] * on_senator, "praetor": ["1"] * (6 - on_senator)}))
    t.play(C, "castling senator praetor")
    legal = 1 <= on_senator <= 5  # R4.2.1 on both groups
    assert (t.error == "ok") == legal, t.error


@pytest.mark.parametrize("split, legal", [
    ({"senator": ["1", "2", "3", "5"], "praetor": ["P"]}, True),
    ({"senator": ["2", "5"], "praetor": ["1", "3", "P"]}, True),
    ({"senator": ["1", "2", "3", "5", "P"], "praetor": []}, False),   # senator: 4 + 5 > 8
    ({"senator": ["5"], "praetor": ["1", "2", "3", "P"]}, False),     # praetor: 5 + 4 > 8
])
def test_R7_3_castling_split_of_several_values_within_both_group_limits(split, legal):
    t = Table().hand(C, ["1", "castling"])
    t.side("senator", K, up=["4"] * 4).side("praetor", K, up=["4"] * 5)
    t.side("senator", C, up=["2", "5"]).side("praetor", C, down=["1", "3", "P"])
    t.script(Action(C, "castling", groups=["senator", "praetor"], split=split))
    t.play(C, "castling senator praetor")
    assert (t.error == "ok") == legal, t.error
    if legal:
        assert t.down("senator", C) == split["senator"] and t.down("praetor", C) == split["praetor"]


# ------------------------------------------------------------------ R7.4 -----
def test_R7_4_scout_targets_groups_where_the_opponent_has_a_face_down_card():
    t = Table()
    t.side("senator", K, down=["3"], up=["1"]).side("praetor", K, up=["2"]).side("quaestor", C, down=["4"])
    t.side("aedile", K, down=["5", "P"])
    t.hand(C, ["1", "scout"])
    assert acts(t, C, "scout") == ["scout aedile", "scout senator"]


def test_R7_4_scout_without_target_is_not_offered():
    t = Table().side("praetor", K, up=["2"]).side("quaestor", C, down=["4"]).hand(C, ["1", "scout"])
    assert acts(t, C, "scout") == []


def test_R7_4_scout_turns_all_the_opponents_cards_there_face_up():
    t = Table().hand(C, ["1", "scout"])
    t.side("senator", K, down=["3", "P"], up=["1"]).side("senator", C, down=["4"])
    t.side("praetor", K, down=["2"])
    t.play(C, "scout senator")
    assert t.events() == [Action(C, "scout", group="senator")]
    assert t.up("senator", K) == ["1", "3", "P"] and t.down("senator", K) == []
    assert t.down("senator", C) == ["4"]  # her own stay face-down
    assert t.down("praetor", K) == ["2"]
    assert t.discards(C) == ["scout"]


# ------------------------------------------------------------------ R7.5 -----
def test_R7_5_wrath_targets_any_group_in_play_with_a_card():
    t = Table().hand(C, ["1", "wrath"])
    assert acts(t, C, "wrath") == []
    t.side("senator", C, down=["1"]).side("quaestor", K, up=["2"])
    assert acts(t, C, "wrath") == ["wrath quaestor", "wrath senator"]


def test_R7_5_wrath_sends_every_card_there_to_its_owners_discard():
    t = Table().hand(C, ["1", "wrath"])
    t.side("senator", C, up=["5"], down=["P", "2"]).side("senator", K, up=["3"], down=["4"])
    t.side("praetor", K, up=["1"])
    t.play(C, "wrath senator")
    assert t.events() == [Action(C, "wrath", group="senator")]
    assert t.size("senator") == 0 and t.left("senator") == 5
    assert t.discards(C) == ["2", "5", "P", "wrath"] and t.discards(K) == ["3", "4"]
    assert t.up("praetor", K) == ["1"]


# ------------------------------------------------------------------ R7.6 -----
def test_R7_6_veto_cancels_the_card_both_go_to_discard_and_it_was_the_turns_action():
    t = Table().hand(C, ["1", "2", "wrath", "scout"]).hand(K, ["veto", "3"])
    t.side("senator", K, up=["5"], down=["4"])
    script = [Action(C, "wrath", group="senator"), Veto(K)]
    t.script(*script)
    t.play(C, "wrath senator")
    assert t.error == "ok" and t.events() == script
    assert t.up("senator", K) == ["5"] and t.down("senator", K) == ["4"]  # no effect
    assert t.discards(C) == ["wrath"] and t.discards(K) == ["veto"]
    assert t.hand_of(K) == ["3"]
    assert t.action_options(C) == []  # R4.1: her one action card this turn is spent
    assert "down 1 senator" in t.options(C)


def test_R7_6_the_veto_decision_sees_the_announced_target():
    """R7.0, R8.1: the target of the card to veto is announced, so the vetoing player's
    observation holds it (PUB_CTX_G1, PUB_CTX_G2, PUB_CTX_A), and only during that decision."""
    import numpy as np
    from ccsim.kernel import layout as L
    from ccsim.kernel.engine.actions import announce_target_nb
    from ccsim.kernel.rules import ASSASSINATION, CASTLING, SPY, WRATH, SCOUT
    st = np.zeros(L.BASE_SIZE, np.int32)
    ctx = lambda: (st[L.PUB_CTX_G1], st[L.PUB_CTX_G2], st[L.PUB_CTX_A])  # noqa: E731
    for card, g, x, want in [(ASSASSINATION, 2, 4, (2, -1, 4)), (CASTLING, 1, 3, (1, 3, -1)), (WRATH, 3, 0, (3, -1, -1)),
                             (SCOUT, 0, 0, (0, -1, -1)), (SPY, 0, 0, (-1, -1, -1)), (-1, -1, -1, (-1, -1, -1))]:
        announce_target_nb(st, card, g, x)
        assert ctx() == want
    t = Table().hand(C, ["1", "2", "wrath", "scout"]).hand(K, ["veto", "3"])
    t.side("senator", K, up=["5"], down=["4"])
    t.script(Action(C, "wrath", group="senator"), Veto(K))
    t.play(C, "wrath senator")
    assert t.error == "ok" and t.st[L.PUB_CTX_G1] == -1 and t.st[L.PUB_CTX_G2] == -1  # announced no longer


@pytest.mark.parametrize("deck, card", [("influence", "3"), ("action", "spy")])
def test_R7_6_vetoing_player_may_draw_one_card_from_the_deck_of_her_choice(deck, card):
    t = Table().hand(C, ["1", "2", "scout"]).hand(K, ["veto"])
    t.side("senator", K, down=["4"])
    t.influence_deck(K, ["3"]).action_deck(K, ["spy"])
    script = [Action(C, "scout", group="senator"), Veto(K), Draw(K, deck, card)]
    t.script(*script)
    t.play(C, "scout senator")
    assert t.error == "ok" and t.events() == script
    assert t.hand_of(K) == [card] and t.down("senator", K) == ["4"]


def test_R7_6_vetoing_player_may_decline_the_draw():
    t = Table().hand(C, ["1", "2", "scout"]).hand(K, ["veto"])
    t.side("senator", K, down=["4"])
    t.influence_deck(K, ["3"]).action_deck(K, ["spy"])
    t.script(Action(C, "scout", group="senator"), Veto(K))
    t.play(C, "scout senator")
    assert t.error == "ok" and len(t.events()) == 2 and t.hand_of(K) == []


def test_R7_6_a_veto_cannot_be_vetoed():
    t = Table().hand(C, ["1", "2", "scout", "veto"]).hand(K, ["veto"])
    t.side("senator", K, down=["4"])
    # cleopatra would answer with her own veto if she were asked
    t.script(Action(C, "scout", group="senator"), Veto(K), Veto(C))
    t.play(C, "scout senator")
    assert t.events() == [Action(C, "scout", group="senator"), Veto(K)]
    assert t.hand_of(C) == ["1", "2", "veto"] and t.down("senator", K) == ["4"]


def test_R7_6_veto_is_never_offered_as_an_action_card():
    t = Table().hand(C, ["1", "2", "veto"]).hand(K, ["3"])
    t.side("senator", K, up=["4"], down=["2"]).side("praetor", C, up=["1"])
    for placed, up in [(0, False), (1, False), (1, True), (2, True)]:
        t.mid_turn(placed=placed, up=up)
        assert not [o for o in t.options(C) if "veto" in o]
    t.hand(C, ["veto"]).mid_turn(placed=2, up=True)
    assert t.options(C) == ["end"]


def test_R7_6_no_veto_decision_without_a_veto_card():
    t = Table().hand(C, ["1", "2", "scout"]).hand(K, ["spy", "3"])
    t.side("senator", K, down=["4"])
    t.script(Action(C, "scout", group="senator"), Veto(K))
    t.play(C, "scout senator")
    assert t.events() == [Action(C, "scout", group="senator")]
    assert t.up("senator", K) == ["4"]


def test_R7_0_vetoed_spy_sees_nothing_and_takes_nothing():
    t = Table().hand(C, ["1", "2", "spy"]).hand(K, ["veto", "3", "5"])
    script = [Action(C, "spy"), Veto(K)]
    t.script(*script)
    t.play(C, "spy")
    assert t.error == "ok" and t.events() == script
    assert t.hand_of(K) == ["3", "5"] and t.spy_seen(C) == []


def test_R7_0_vetoed_castling_has_no_split_and_moves_nothing():
    t = Table().hand(C, ["1", "castling"]).hand(K, ["veto"])
    t.side("senator", C, up=["5"]).side("praetor", C, up=["3"], down=["2"])
    script = [Action(C, "castling", groups=["senator", "praetor"]), Veto(K)]
    t.script(*script)
    t.play(C, "castling senator praetor")
    assert t.error == "ok" and t.events() == script
    assert t.up("senator", C) == ["5"] and t.up("praetor", C) == ["3"] and t.down("praetor", C) == ["2"]


def test_R7_0_vetoed_assassination_keeps_its_announced_target():
    t = Table().hand(C, ["1", "assassination"]).hand(K, ["veto"])
    t.side("senator", K, up=["5"])
    script = [Action(C, "assassination", group="senator", target="5"), Veto(K)]
    t.script(*script)
    t.play(C, "assassination senator 5")
    assert t.error == "ok" and t.events() == script and t.up("senator", K) == ["5"]


def test_R9_3_an_out_player_cannot_veto():
    t = Table().out(K).hand(K, ["veto", "scout"]).hand(C, ["1", "spy"])
    # the script lets caesar veto; an out player is never asked (R9.3)
    t.script(Action(C, "spy", target="scout"), Veto(K))
    t.play(C, "spy")
    assert t.events() == [Action(C, "spy", target="scout")]
    assert t.hand_of(K) == ["veto"] and t.discards(K) == ["scout"]


# ------------------------------------------------------------------ R4.1 -----
@pytest.mark.parametrize("placed, up", [(0, False), (1, False), (1, True), (2, True)])
def test_R4_1_action_card_before_between_or_after_placements(placed, up):
    t = Table().hand(C, ["1", "2", "wrath"]).side("senator", K, up=["3"])
    t.mid_turn(placed=placed, up=up)
    assert t.action_options(C) == ["wrath senator"]
    t.mid_turn(placed=placed, up=up, action="scout")  # one action card already played
    assert t.action_options(C) == []


def test_R4_1_action_played_between_two_face_up_placements():
    t = Table().hand(C, ["1", "2", "wrath"]).side("senator", K, up=["3"])
    t.place(C, "up 1 praetor")
    t.play(C, "wrath senator")
    assert "up 2 senator" in t.options(C) and "end" not in t.options(C)
    t.place(C, "up 2 senator")
    assert t.options(C) == ["end"]
    assert t.up("praetor", C) == ["1"] and t.up("senator", C) == ["2"] and t.discards(K) == ["3"]

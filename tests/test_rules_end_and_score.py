"""R9 the end of the game and R10 scoring — scenario tests."""
import pytest
from scenario import (
    Action,
    Discard,
    Draw,
    Game,
    Place,
    Table,
    Turn,
    Voc,
    Vote,
    engine,  # noqa: F401  (session fixture: compile once)
)

pytestmark = pytest.mark.usefixtures("engine")

C, K = "cleopatra", "caesar"
ALL5 = ["1", "2", "3", "4", "5"]
ZERO = {g: 0 for g in ["senator", "praetor", "quaestor", "censor", "aedile"]}


def result(end, turns, won_c=None, won_k=None, vp=(0, 0), winner=None):
    return {"end": end, "turns": turns,
            "patricians": {C: {**ZERO, **(won_c or {})}, K: {**ZERO, **(won_k or {})}},
            "vp": {C: vp[0], K: vp[1]}, "winner": winner}


# ------------------------------------------------------------------ R9.1 -----
def last_patrician_table():
    t = Table().out_of_play("senator", "praetor", "quaestor", "censor").patricians("aedile", 1)
    t.side("aedile", C, down=["1", "1", "1", "2"]).side("aedile", K, down=["1", "1", "1"])
    return t


def test_R9_1_game_ends_at_the_last_patrician_mid_turn():
    t = last_patrician_table().hand(C, ["3", "4"]).influence_deck(C, ["5"]).voc_deck(["orgy"])
    script = [Turn(C, 1, "active"), Place(C, "3", "aedile", "down"), Vote("aedile", "eight", (8, 3), False, C)]
    t.script(*script)
    t.turn(C)
    assert t.error == "ok"
    assert t.end == "all_patricians"
    assert t.events() == script  # no refill, no VoC card after the last patrician
    assert t.hand_of(C) == ["4"] and t.voc_deck_now() == ["orgy"]


def test_R9_1_game_ends_at_the_last_patrician_taken_by_a_voc_card():
    t = last_patrician_table().voc_deck(["aedile", "orgy"])
    t.voc_draw()
    assert t.end == "all_patricians" and t.won_by(C, "aedile") == 1


def test_R9_1_not_over_while_a_patrician_remains_elsewhere():
    t = last_patrician_table().patricians("censor", 1).voc_deck(["aedile", "orgy"])
    t.voc_draw()
    assert t.end is None and t.left("aedile") == 0


# ------------------------------------------------------------------ R9.2 -----
def test_R9_2_neither_player_has_an_influence_card_left():
    t = Table().hand(C, ["spy"]).hand(K, ["veto", "wrath"]).action_deck(C, ["scout"])
    assert t.end_of_turn() == "no_influence"


@pytest.mark.parametrize("where", ["hand", "deck"])
def test_R9_2_game_goes_on_while_one_player_has_influence(where):
    t = Table().hand(C, ["spy"])
    if where == "hand":
        t.hand(K, ["P"])
    else:
        t.influence_deck(K, ["P"])
    assert t.end_of_turn() is None


def test_R9_2_whole_game_both_discard_everything():
    run = Game().run(Turn(C, 1, "passive"), Discard(C, ALL5), Turn(K, 2, "passive"), Discard(K, ALL5))
    assert run.ok, (run.error, run.events)
    assert run.result == result("no_influence", 2)


# ------------------------------------------------------------------ R9.3 -----
def test_R9_3_out_player_is_skipped_and_the_other_goes_on_with_draws():
    script = [Turn(C, 1, "passive"),
              Turn(K, 2, "passive"), Discard(K, ALL5),         # caesar has nothing left
              Turn(C, 3, "passive"), Discard(C, ["1"]), Draw(C, "influence", "2"),
              Turn(C, 4, "passive"),                           # caesar is out: no turn for him
              Turn(C, 5, "passive")]                           # two quiet turns, both hers (R9.4)
    run = Game(influence={C: ["2", "3"]}).run(*script)
    assert run.ok, (run.error, run.events)
    assert run.result == result("stalemate", 5)


def test_R9_3_out_player_turn_in_the_script_is_illegal():
    run = Game(influence={C: ["2", "3"]}).run(
        Turn(C, 1, "passive"), Turn(K, 2, "passive"), Discard(K, ALL5),
        Turn(C, 3, "passive"), Turn(K, 4, "passive"))
    assert run.error == "illegal event"


def test_R9_3_player_who_runs_out_mid_turn_still_plays_her_action_card():
    t = Table().hand(C, ["4", "5", "scout"]).side("senator", K, down=["2"])
    t.place(C, "up 4 praetor").place(C, "up 5 praetor")
    assert sorted(t.options(C)) == ["end", "scout senator"]
    t.play(C, "scout senator")
    assert t.up("senator", K) == ["2"]


def test_R9_3_out_player_is_spied_and_makes_the_replacement_draw():
    t = Table().out(K).hand(K, ["scout"]).action_deck(K, ["wrath"]).hand(C, ["1", "spy"])
    script = [Action(C, "spy", target="scout"), Draw(K, "action", "wrath")]
    t.script(*script)
    t.play(C, "spy")
    assert t.error == "ok" and t.events() == script and t.hand_of(K) == ["wrath"]


def test_R9_3_player_with_influence_only_in_her_deck_is_not_out():
    refill = [Draw(C, "action", a) for a in ("assassination", "assassination", "spy", "spy", "castling")]
    script = [Turn(C, 1, "passive"), Discard(C, ALL5), *refill,  # her hand: five action cards
              Turn(K, 2, "passive"),
              Turn(C, 3, "passive"), Discard(C, ["spy"]), Draw(C, "influence", "3"),
              Turn(K, 4, "passive"), Turn(C, 5, "passive")]
    run = Game(influence={C: ["3"]}, actions={C: "AASSC"}).run(*script)
    assert run.ok, (run.error, run.events)
    assert run.result["end"] == "stalemate"


# ------------------------------------------------------------------ R9.4 -----
def test_R9_4_two_quiet_turns_end_in_stalemate():
    assert Table().quiet_turns(2).hand(C, ["1"]).end_of_turn() == "stalemate"
    assert Table().quiet_turns(1).hand(C, ["1"]).end_of_turn() is None


def test_R9_4_quiet_turn_is_passive_without_discard_or_draw():
    t = Table().hand(C, ALL5).influence_deck(C, ["1"])
    t.script(Turn(C, 1, "passive"))
    assert t.turn(C) is True
    t = Table().hand(C, ["1", "2"]).influence_deck(C, ["3"])  # no discard, but a draw
    t.script(Turn(C, 1, "passive"), Draw(C, "influence", "3"))
    assert t.turn(C) is False and t.error == "ok"
    t = Table().hand(C, ["1", "2"])  # a discard, no draw
    t.script(Turn(C, 1, "passive"), Discard(C, ["2"]))
    assert t.turn(C) is False and t.error == "ok"
    t = Table().hand(C, ["1", "2"])  # an active turn is never quiet
    t.script(Turn(C, 1, "active"), Place(C, "1", "senator", "down"), Voc("orgy"))
    assert t.turn(C) is False and t.error == "ok"


def test_R9_4_whole_game_two_quiet_turns():
    run = Game().run(Turn(C, 1, "passive"), Turn(K, 2, "passive"))
    assert run.ok, (run.error, run.events)
    assert run.result == result("stalemate", 2)


def test_R9_4_quiet_turns_must_be_in_a_row():
    script = [Turn(C, 1, "passive"), Turn(K, 2, "passive"), Discard(K, ["1"]),
              Turn(C, 3, "passive"), Turn(K, 4, "passive")]
    run = Game().run(*script)
    assert run.ok, (run.error, run.events)
    assert run.result == result("stalemate", 4)


# ------------------------------------------------------------------ R9.5 -----
def test_R9_5_truncated_at_max_turns():
    assert Table(max_turns=5).turn_number(5).hand(C, ["1"]).end_of_turn() == "truncated"
    assert Table(max_turns=5).turn_number(4).hand(C, ["1"]).end_of_turn() is None


def test_R9_5_whole_game_truncated_keeps_the_score():
    script = [Turn(C, 1, "active"), Place(C, "5", "senator", "down"),
              Voc("senator"), Vote("senator", "card", (6, 1), False, C),
              Turn(K, 2, "passive"), Discard(K, ["1"]),
              Turn(C, 3, "passive"), Discard(C, ["1"])]
    run = Game(voc=["senator"] + ["orgy"] * 6 + ["orgy_reshuffle"], bonus={C: "praetor"}, max_turns=3).run(*script)
    assert run.ok, (run.error, run.events)
    assert run.result == result("truncated", 3, won_c={"senator": 1}, vp=(1, 0), winner=C)


# ------------------------------------------------------------------ R9.6 -----
def test_R9_6_no_influence_before_stalemate_before_truncated():
    t = Table(max_turns=5).turn_number(5).quiet_turns(2)
    assert t.end_of_turn() == "no_influence"
    t.hand(K, ["2"])
    assert t.end_of_turn() == "stalemate"
    t.quiet_turns(0)
    assert t.end_of_turn() == "truncated"


def test_R9_6_whole_game_stalemate_at_the_turn_cap():
    run = Game(max_turns=2).run(Turn(C, 1, "passive"), Turn(K, 2, "passive"))
    assert run.ok and run.result["end"] == "stalemate"


def test_R9_6_whole_game_no_influence_at_the_turn_cap():
    run = Game(max_turns=2).run(Turn(C, 1, "passive"), Discard(C, ALL5), Turn(K, 2, "passive"), Discard(K, ALL5))
    assert run.ok and run.result["end"] == "no_influence"


# ------------------------------------------------------------------ R10 ------
def scored(won_c=(), won_k=(), bonus=("aedile", "aedile"), **kw):
    """A table with patricians won: (group, n) pairs; remaining patricians follow."""
    t = Table(**kw).bonus(C, bonus[0]).bonus(K, bonus[1])
    size = {"senator": 5, "praetor": 5, "quaestor": 5, "censor": 3, "aedile": 3}
    left = dict(size)
    for p, won in ((C, won_c), (K, won_k)):
        for g, n in won:
            t.won(p, g, n)
            left[g] -= n
    for g, n in left.items():
        t.patricians(g, n)
    return t


def test_R10_1_one_point_per_patrician():
    t = scored(won_c=[("senator", 1), ("praetor", 2), ("aedile", 1)], bonus=("quaestor", "quaestor"))
    assert t.vp(C) == 4 and t.vp(K) == 0


def test_R10_2_majority_three_of_five_even_if_not_all_won():
    t = scored(won_c=[("senator", 3)], bonus=("quaestor", "quaestor"))
    assert t.left("senator") == 2
    assert t.vp(C) == 3 + 1


def test_R10_2_majority_two_of_three_even_if_not_all_won():
    t = scored(won_c=[("censor", 2)])
    assert t.left("censor") == 1
    assert t.vp(C) == 2 + 1


def test_R10_2_no_majority_with_half_or_less():
    t = scored(won_c=[("senator", 2), ("censor", 1)], won_k=[("senator", 3), ("censor", 2)],
               bonus=("quaestor", "quaestor"))
    assert t.vp(C) == 3 and t.vp(K) == 5 + 2


def test_R10_3_all_patricians_of_a_group():
    t = scored(won_c=[("aedile", 3)], bonus=("quaestor", "quaestor"))
    assert t.vp(C) == 3 + 1 + 1
    t = scored(won_c=[("senator", 5)], bonus=("quaestor", "quaestor"))
    assert t.vp(C) == 5 + 1 + 1


@pytest.mark.parametrize("n, bonus_vp", [(2, 0), (3, 2), (4, 2)])
def test_R10_4_bonus_at_three_patricians_of_the_bonus_group(n, bonus_vp):
    t = scored(won_c=[("praetor", n)], bonus=("praetor", "praetor"))
    majority = 1 if n >= 3 else 0
    assert t.vp(C) == n + majority + bonus_vp


def test_R10_4_both_players_may_hold_the_same_bonus_group():
    t = scored(won_c=[("quaestor", 3)], won_k=[("quaestor", 2)], bonus=("quaestor", "quaestor"))
    assert t.vp(C) == 3 + 1 + 2 and t.vp(K) == 2


def test_R10_5_most_vp_wins():
    t = scored(won_c=[("senator", 3)], won_k=[("praetor", 2), ("quaestor", 2)], bonus=("aedile", "aedile"))
    assert (t.vp(C), t.vp(K)) == (4, 4)
    assert t.winner() == K  # equal VP: more patricians
    t = scored(won_c=[("senator", 3)], won_k=[("praetor", 2), ("quaestor", 1)], bonus=("aedile", "aedile"))
    assert t.winner() == C  # 4 VP against 3


def test_R10_5_equal_vp_and_patricians_is_a_draw():
    t = scored(won_c=[("senator", 2)], won_k=[("praetor", 2)])
    assert t.winner() is None
    assert scored().winner() is None  # nothing won: nobody scores


def test_R10_5_more_patricians_cannot_beat_more_vp():
    # cleopatra 4 patricians without majority (4 VP); caesar 3 censor... all of a group of 3 (5 VP)
    t = scored(won_c=[("senator", 2), ("praetor", 2)], won_k=[("censor", 3)])
    assert (t.vp(C), t.vp(K)) == (4, 5) and t.winner() == K

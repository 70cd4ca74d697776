"""R11 variants, each on its own (and once all together) — scenario tests."""
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
    dealt_state,
    engine,  # noqa: F401  (session fixture: compile once)
)

from ccsim.kernel import layout as L
from ccsim.kernel import rules as R

pytestmark = pytest.mark.usefixtures("engine")

C, K = "cleopatra", "caesar"
ALL5 = ["1", "2", "3", "4", "5"]
MNC, LOB, TWO, LONE = "majority_needs_complete", "late_orgies_boxed", "two_orgies", "lone_player_no_draw"


# ------------------------------------------------------------ majority_needs_complete
def test_R11_majority_needs_complete_no_majority_while_patricians_remain():
    t = Table(MNC).bonus(C, "quaestor").bonus(K, "quaestor")
    t.won(C, "senator", 3).patricians("senator", 2)
    t.won(C, "censor", 2).patricians("censor", 1)
    assert t.vp(C) == 3 + 2
    t.won(K, "senator", 2).patricians("senator", 0)
    assert t.vp(C) == 3 + 1 + 2
    t.won(K, "censor", 1).patricians("censor", 0)
    assert t.vp(C) == 3 + 1 + 2 + 1
    assert t.vp(K) == 3


def test_R11_majority_needs_complete_leaves_all_and_bonus_alone():
    t = Table(MNC).bonus(C, "praetor").bonus(K, "quaestor")
    t.won(C, "praetor", 4).patricians("praetor", 1)
    assert t.vp(C) == 4 + 2  # bonus, no majority yet
    t.won(C, "aedile", 3).patricians("aedile", 0)
    assert t.vp(C) == 4 + 2 + 3 + 1 + 1


def test_R11_default_majority_counts_before_completion():
    t = Table().bonus(C, "quaestor").won(C, "senator", 3).patricians("senator", 2)
    assert t.vp(C) == 4


# ------------------------------------------------------------ late_orgies_boxed
def test_R11_late_orgies_boxed_orgy_boxed_once_two_groups_are_out():
    t = Table(LOB).out_of_play("censor", "aedile").voc_deck(["orgy", "orgy"])
    t.voc_draw()
    assert t.events() == [Voc("orgy")]
    assert t.voc_boxed() == ["orgy"] and t.voc_discards() == []


def test_R11_late_orgies_boxed_orgy_discarded_with_one_group_out():
    t = Table(LOB).out_of_play("aedile").voc_deck(["orgy", "orgy"])
    t.voc_draw()
    assert t.voc_boxed() == [] and t.voc_discards() == ["orgy"]


def test_R11_late_orgies_boxed_counts_the_group_its_own_vote_closed():
    t = Table(LOB).out_of_play("aedile").patricians("censor", 1).voc_deck(["censor", "orgy"])
    t.side("censor", C, up=["2"])
    t.voc_draw()
    assert t.left("censor") == 0
    t.voc_draw()
    assert t.voc_boxed() == ["censor", "orgy"]


def test_R11_late_orgies_boxed_never_boxes_orgy_reshuffle():
    t = Table(LOB).out_of_play("censor", "aedile").voc_deck(["orgy_reshuffle", "senator"]).voc_discard(["orgy"])
    t.voc_box(["censor", "aedile"])
    t.voc_draw()
    assert t.voc_boxed() == ["censor", "aedile"]
    assert sorted(t.voc_deck_now()) == ["orgy", "orgy_reshuffle", "senator"]


def test_R11_without_late_orgies_boxed_orgy_is_discarded_late():
    t = Table().out_of_play("senator", "censor", "aedile").voc_deck(["orgy"])
    t.voc_draw()
    assert t.voc_boxed() == [] and t.voc_discards() == ["orgy"]


# ------------------------------------------------------------ two_orgies
def voc_setup(st):
    n = int(st[L.SETUP + L.S_VOC_LEN])
    return sorted(R.VOC_NAMES[int(v)] for v in st[L.SETUP + L.S_VOC:L.SETUP + L.S_VOC + n])


def test_R11_two_orgies_one_orgy_boxed_before_the_game():
    st = dealt_state(TWO)
    assert voc_setup(st) == sorted(list(R.GROUPS) + ["orgy", "orgy_reshuffle"])
    assert int(st[L.PUB_VOC_BOX + R.ORGY]) == 1 and int(st[L.PUB_VOC_DECKN]) == 7
    st = dealt_state()
    assert voc_setup(st) == sorted(list(R.GROUPS) + ["orgy", "orgy", "orgy_reshuffle"])
    assert int(st[L.PUB_VOC_BOX + R.ORGY]) == 0 and int(st[L.PUB_VOC_DECKN]) == 8


def test_R11_two_orgies_boxed_orgy_stays_out_of_reshuffles():
    t = Table(TWO).voc_deck(["orgy_reshuffle", "senator", "praetor", "quaestor", "censor"])
    t.voc_discard(["aedile", "orgy"])
    assert t.voc_boxed() == ["orgy"]
    t.voc_draw()
    assert sorted(t.voc_deck_now()) == sorted(list(R.GROUPS) + ["orgy", "orgy_reshuffle"])
    assert t.voc_boxed() == ["orgy"]


def test_R11_two_orgies_whole_game_setup_replays():
    run = Game(TWO, voc=["orgy", "senator", "orgy_reshuffle", "praetor", "quaestor", "censor", "aedile"]).run(
        Turn(C, 1, "passive"), Turn(K, 2, "passive"))
    assert run.ok and run.result["end"] == "stalemate"


# ------------------------------------------------------------ lone_player_no_draw
def test_R11_lone_player_no_draw_active_turn_has_no_refill():
    t = Table(LONE).out(K).hand(C, ["1", "2"]).influence_deck(C, ["3"])
    script = [Turn(C, 1, "active"), Place(C, "1", "senator", "up"), Place(C, "2", "senator", "up"), Voc("orgy")]
    t.script(*script)
    t.turn(C)
    assert t.error == "ok" and t.events() == script and t.hand_of(C) == []


def test_R11_lone_player_no_draw_passive_turn_has_no_refill():
    t = Table(LONE).out(K).hand(C, ["1", "2"]).influence_deck(C, ["3"])
    script = [Turn(C, 1, "passive"), Discard(C, ["1"])]
    t.script(*script)
    t.turn(C)
    assert t.error == "ok" and t.events() == script and t.hand_of(C) == ["2"]


def test_R11_without_lone_player_no_draw_the_lone_player_draws():
    t = Table().out(K).hand(C, ["1", "2"]).influence_deck(C, ["3"])
    script = [Turn(C, 1, "passive"), Discard(C, ["1"]), Draw(C, "influence", "3")]
    t.script(*script)
    t.turn(C)
    assert t.error == "ok" and t.events() == script


def test_R11_lone_player_no_draw_draws_go_on_while_nobody_is_out():
    t = Table(LONE).hand(C, ["1", "2"]).influence_deck(C, ["3"]).hand(K, ["4"])
    script = [Turn(C, 1, "passive"), Discard(C, ["1"]), Draw(C, "influence", "3")]
    t.script(*script)
    t.turn(C)
    assert t.error == "ok" and t.events() == script


def test_R11_lone_player_no_draw_out_player_still_makes_spy_replacement_draw():
    t = Table(LONE).out(K).hand(K, ["scout"]).action_deck(K, ["wrath"]).hand(C, ["1", "spy"])
    script = [Action(C, "spy", target="scout"), Draw(K, "action", "wrath")]
    t.script(*script)
    t.play(C, "spy")
    assert t.error == "ok" and t.events() == script


@pytest.mark.parametrize("who_has_none", [C, K])
def test_R11_lone_player_no_draw_end_when_the_other_has_no_influence_in_hand(who_has_none):
    other = K if who_has_none == C else C
    t = Table(LONE).hand(who_has_none, ["spy"]).hand(other, ["veto"]).influence_deck(other, ["3", "4"])
    assert t.end_of_turn() == "no_influence"
    t.hand(other, ["veto", "P"])
    assert t.end_of_turn() is None
    t2 = Table().hand(who_has_none, ["spy"]).hand(other, ["veto"]).influence_deck(other, ["3", "4"])
    assert t2.end_of_turn() is None  # default rules: she would still draw


def test_R11_lone_player_no_draw_whole_game():
    script = [Turn(C, 1, "passive"),
              Turn(K, 2, "passive"), Discard(K, ALL5),
              Turn(C, 3, "passive"), Discard(C, ALL5)]  # caesar is out: no refill
    run = Game(LONE, influence={C: ["2", "3"]}).run(*script)
    assert run.ok, (run.error, run.events)
    assert run.result["end"] == "no_influence" and run.result["turns"] == 3
    # the same game under default rules: she draws and goes on
    run = Game(influence={C: ["2", "3"]}).run(*script, Draw(C, "influence", "2"), Draw(C, "influence", "3"),
                                             Turn(C, 4, "passive"), Turn(C, 5, "passive"))
    assert run.ok, (run.error, run.events)
    assert run.result["end"] == "stalemate"


# ------------------------------------------------------------ together
def test_R11_variants_combine():
    t = Table(MNC, LOB, TWO, LONE).out_of_play("censor", "aedile").voc_deck(["orgy"])
    t.bonus(C, "quaestor").won(C, "senator", 3).patricians("senator", 2)
    assert t.vp(C) == 3
    t.voc_draw()
    assert t.voc_boxed() == ["orgy", "orgy"]

"""Rules parameters: the `rules` block of GAME_RECORD.md read, validated, written and replayed;
per-player action counts; orderings checked against a player's own cards."""
import json

import numpy as np
import pytest

from ccsim.kernel import rules as R
from ccsim.kernel import layout as L
from ccsim.cli import main
from conftest import run_cli
from ccsim.runner.config import ConfigError, RunConfig
from ccsim.kernel.engine.setup import reset_nb, deal_nb
from ccsim.runner.orderings import OrderingError, parse_ordering, without_card
from ccsim.play.record import RecordError, read_records, replay
from ccsim.kernel.rng import seed_game_nb
from ccsim.runner.ruleset import RulesError, rules_block, rules_vector, swap_players

# one change per rules parameter (GAME_RECORD.md's table), both forms of action_count
EVERY_PARAMETER = """
[[change]]
hand_size = 4
[[change]]
side_limit = 7
[[change]]
group_limit = 6
[[change]]
group_size = {senator = 3, aedile = 5}
[[change]]
deck_count = {"5" = 1, P = 5}
[[change]]
orgies = 4
[[change]]
vp_patrician = 2
[[change]]
vp_majority = 4
[[change]]
vp_all = 7
[[change]]
vp_bonus = 9
[[change]]
bonus_threshold = 1
[[change]]
max_turns = 15
[[change]]
action_count = {veto = 0, scout = 4}
[[change]]
action_count = {caesar = {wrath = 0}, cleopatra = {assassination = 6}}
"""


# ------------------------------------------------------------ reading blocks ----
@pytest.mark.parametrize("block, needle", [
    ({"hand_size": True}, "hand_size"),
    ({"hand_size": 4.0}, "hand_size"),
    ({"hand_size": "4"}, "hand_size"),
    ({"hand_size": 7}, "1..6"),
    ({"group_limit": 11}, "2 * side_limit"),
    ({"group_size": {"censor": 0}}, "group_size.censor"),
    ({"group_size": {"consul": 3}}, "unknown key 'consul'"),
    ({"deck_count": {"6": 1}}, "unknown key '6'"),
    ({"deck_count": {"P": 10}}, "deck_count.P"),
    ({"orgies": -1}, "orgies"),
    ({"vp_bonus": 101}, "vp_bonus"),
    ({"max_turns": 0}, "max_turns"),
    ({"action_count": {"veto": 10}}, "action_count.veto"),
    ({"action_count": {"caesar": {"veto": 0}, "spy": 1}}, "not both"),
    ({"action_count": {"caesar": {"dagger": 1}}}, "unknown action card"),
    ({"action_count": {"caesar": {a: 0 for a in R.ACTION_NAMES}}}, "1..32"),
    ({"action_count": {a: 6 for a in R.ACTION_NAMES}}, "1..32"),
    ({"variants": 3}, "unknown rule parameter 'variants'"),
    ({"turns": 3}, "unknown rule parameter"),
])
def test_bad_rules_are_refused_with_one_line(block, needle):
    with pytest.raises(RulesError) as e:
        rules_vector(block)
    assert needle in str(e.value) and "\n" not in str(e.value)


def test_two_orgies_needs_an_orgy():
    with pytest.raises(RulesError, match="orgies"):
        rules_vector({"orgies": 0}, ("two_orgies",))


def test_nested_and_dotted_names_give_the_same_vector():
    a = rules_vector({"group_size": {"censor": 5}, "action_count": {"caesar": {"wrath": 0}}})
    b = rules_vector({"group_size.censor": 5, "action_count.caesar.wrath": 0})
    np.testing.assert_array_equal(a, b)
    assert a[R.RP_GROUP_SIZE + 3] == 5 and a[R.RP_ACTION_COUNT_CAESAR + 4] == 0 and a[R.RP_ACTION_COUNT + 4] == 1


@pytest.mark.parametrize("block, written", [
    ({}, {}),
    ({"hand_size": 5, "group_size": {"censor": 3}}, {}),                       # RULES.md's own numbers
    ({"deck_count.P": 0, "hand_size": 4}, {"hand_size": 4, "deck_count": {"P": 0}}),
    ({"action_count": {"cleopatra": {"veto": 0}, "caesar": {"veto": 0}}}, {"action_count": {"veto": 0}}),
    ({"action_count": {"veto": 0, "spy": 2}}, {"action_count": {"veto": 0}}),
    ({"action_count": {"caesar": {"wrath": 0}}}, {"action_count": {"caesar": {"wrath": 0}}}),
    ({"action_count": {"cleopatra": {"veto": 0}, "caesar": {"veto": 0, "wrath": 0}}},
     {"action_count": {"cleopatra": {"veto": 0}, "caesar": {"veto": 0, "wrath": 0}}}),
])
def test_the_writer_writes_only_what_differs_in_the_record_form(block, written):
    vec = rules_vector(block)
    assert rules_block(vec) == written
    np.testing.assert_array_equal(rules_vector(written), vec)  # and reads back to the same rules


def test_swapping_the_seats_swaps_the_action_counts():
    vec = rules_vector({"action_count": {"caesar": {"wrath": 0}}})
    assert rules_block(swap_players(vec)) == {"action_count": {"cleopatra": {"wrath": 0}}}


# ------------------------------------------------------------ orderings -------
def test_orderings_must_hold_the_players_own_cards():
    twelve = dict(zip(R.ACTION_NAMES, (4, 2, 2, 2, 0, 2)))
    counts = tuple(twelve.values())
    assert parse_ordering("AAAASSCCRRVV", counts) == "AAAASSCCRRVV"
    with pytest.raises(OrderingError, match="needs 12"):
        parse_ordering("VAASRCAWSARCV", counts)
    with pytest.raises(OrderingError, match="W=0"):
        parse_ordering("veto-first", counts)  # a preset holds R1.4's thirteen cards
    with pytest.raises(ConfigError, match="--caesar-order"):
        RunConfig(caesar_order="VAASRCAWSARCV", rules={"action_count": {"caesar": {"wrath": 0}}}).validated()
    cfg = RunConfig(caesar_order="AAAASSCCRRVV", cleopatra_order="veto-first",
                    rules={"action_count": {"caesar": {"wrath": 0}}}).validated()
    _, _, _, codes, _ = cfg.seats(True)  # swapped: her 12 cards go with her to cleopatra's seat
    assert (codes[0, :12] >= 0).all() and codes[0, 12] == -1 and (codes[1, :13] >= 0).all()


def test_a_fixed_ordering_loses_its_topmost_copy():
    assert without_card("VAASRCAWSARCV", "A") == "VASRCAWSARCV"
    assert without_card("VAASRCAWSARCV", "W") == "VAASRCASARCV"
    assert without_card("shuffled", "W") == "shuffled"
    with pytest.raises(OrderingError):
        without_card("AAASSCCRRVV", "W")


def _dealt(rules, seed, game, orders=None):
    st = np.zeros(L.BASE_SIZE, np.int32)
    rng = np.zeros(L.N_RNG, np.uint64)
    reset_nb(st, rules, np.zeros(2, np.int64))
    seed_game_nb(rng, seed, game)
    deal_nb(st, np.full((2, R.MAX_ACTION_DECK), -1, np.int8) if orders is None else orders, rng)
    out = []
    for p in range(2):
        n = st[L.SETUP + L.S_ADECK_LEN + p]
        out.append(st[L.SETUP + L.S_ADECK + p * 32:L.SETUP + L.S_ADECK + p * 32 + n] - R.ACTION_BASE)
    other = st[L.SETUP:L.SETUP + L.S_ADECK].copy(), st[L.SETUP + L.S_VOC:L.SETUP + L.S_PLACEMENT].copy()
    return out, other


def test_a_shuffled_deck_loses_a_copy_and_keeps_the_order_of_the_others():
    """docs/metrics.md: R1.4's deck shuffled as always, a random copy out; the opponent's deck and
    every other card chance deals stay those of the base game (a paired ablation)."""
    base = R.DEFAULT_RULES
    less = rules_vector({"action_count": {"cleopatra": {"assassination": 3}}})
    more = rules_vector({"action_count": {"caesar": {"wrath": 3}}})
    removed_at = np.zeros(4, int)
    for g in range(400):
        (b0, b1), b_other = _dealt(base, 5, g)
        (l0, l1), l_other = _dealt(less, 5, g)
        (m0, m1), _ = _dealt(more, 5, g)
        np.testing.assert_array_equal(l1, b1)
        np.testing.assert_array_equal(m0, b0)
        for x, y in zip(b_other, l_other):
            np.testing.assert_array_equal(x, y)
        copies = np.flatnonzero(b0 == 0)
        for k, pos in enumerate(copies):  # which copy went: l0 is b0 without it
            if np.array_equal(np.delete(b0, pos), l0):
                removed_at[k] += 1
                break
        else:
            raise AssertionError(f"game {g}: {l0} is not {b0} without one assassination")
        assert len(m1) == 15 and (m1 == 4).sum() == 3
        np.testing.assert_array_equal(m1[m1 != 4], b1[b1 != 4])  # the extra wraths went in, the rest kept order
    assert removed_at.min() > 60  # each of the four copies is the one taken out about a quarter of the time


def test_a_shuffled_deck_of_other_counts_is_uniform():
    rules = rules_vector({"action_count": {"caesar": {"veto": 0, "wrath": 3}}})
    top = np.zeros(6, int)
    n = 3000
    for g in range(n):
        (_, d1), _ = _dealt(rules, 11, g)
        assert sorted(d1.tolist()) == sorted([0] * 4 + [1] * 2 + [2] * 2 + [3] * 2 + [4] * 3)
        top[d1[0]] += 1
    expect = n * np.array([4, 2, 2, 2, 3, 0]) / 13
    chi2 = (((top - expect) ** 2)[:5] / expect[:5]).sum()
    assert top[5] == 0 and chi2 < 20.5  # 4 degrees of freedom, p < 0.0004


# ------------------------------------------------------------ records ---------
@pytest.fixture(scope="module")
def whatif_records(tmp_path_factory, compiled):
    folder = tmp_path_factory.mktemp("records")
    (folder / "every.toml").write_text(EVERY_PARAMETER)
    path = folder / "w.jsonl"
    with pytest.raises(SystemExit) as exc:
        main(["whatif", "--strategy", "greedy", "--strategy", "random", "--games", "8", "--no-variants", "--rules",
              str(folder / "every.toml"), "--cards", "--record", str(path), "--record-games", "8", "--json",
              "--no-progress"])
    assert exc.value.code == 0
    return path


def test_whatif_records_replay_for_every_rules_parameter(capsys, whatif_records):
    recs = read_records(whatif_records)
    seen = set()
    for rec in recs:
        for key, value in rec.get("rules", {}).items():
            seen.add(key)
            if key == "action_count":
                seen.add("action_count by player" if set(value) <= set(R.PLAYERS) else "action_count by card")
    assert seen >= {"hand_size", "side_limit", "group_limit", "group_size", "deck_count", "orgies", "vp_patrician",
                    "vp_majority", "vp_all", "vp_bonus", "bonus_threshold", "max_turns", "action_count by player",
                    "action_count by card"}
    assert sum("rules" not in r for r in recs) == 16  # the base arm, at both strategies
    code, out, _ = run_cli(capsys, "replay", whatif_records, "--check")
    assert code == 0 and out.strip().endswith(f"{len(recs)} passed, 0 failed")


def test_a_record_replayed_without_its_rules_fails(whatif_records):
    """The replay really plays under the record's rules: without them every parameter's games
    break somewhere (a deck of other cards, a draw, a vote, the end, the score)."""
    by_change = {}
    for rec in read_records(whatif_records):
        if "rules" in rec:
            key = json.dumps(rec["rules"], sort_keys=True)
            stripped = dict(rec)
            del stripped["rules"]
            try:
                ok = replay(stripped).ok
            except RecordError:
                ok = False
            by_change.setdefault(key, []).append(ok)
    assert len(by_change) == 14 + 12  # every change and every card arm
    for key, oks in by_change.items():
        assert not all(oks), f"{key}: every record still replays under RULES.md"


@pytest.mark.parametrize("edit, needle", [
    (lambda r: r.update(rules={"hand_size": True}), "hand_size"),
    (lambda r: r.update(rules={"hand_size": 4.0}), "hand_size"),
    (lambda r: r.update(rules={"orgies": "2"}), "orgies"),
    (lambda r: r.update(rules={"colour": 1}), "unknown rule parameter"),
    (lambda r: r.update(rules={"max_turns": 9000}), "max_turns"),
    (lambda r: r.update(rules=[]), "rules: must be an object"),
    (lambda r: r.update(rules={"action_count": {"caesar": {"wrath": 0}}}), "players.caesar.ordering"),
    (lambda r: r.update(rules={"deck_count": {"P": 3}}), "setup.influence_deck"),
    (lambda r: r.update(rules={"orgies": 3}), "setup.voc_deck"),
])
def test_a_bad_rules_block_makes_the_record_invalid_with_one_line(capsys, tmp_path, compiled, edit, needle):
    path = tmp_path / "g.jsonl"
    code, _, _ = run_cli(capsys, "run", "--games", "2", "--caesar", "random", "--record", path, "--json")
    assert code == 0
    recs = read_records(path)
    edit(recs[0])
    path.write_text("\n".join(json.dumps(r) for r in recs) + "\n")
    code, out, _ = run_cli(capsys, "replay", path, "--check")
    assert code == 1
    lines = out.strip().splitlines()
    assert lines[0].startswith("record 0: malformed: ") and needle in lines[0]
    assert lines[-1] == "1 passed, 1 failed"


def test_run_records_carry_their_rules_table(capsys, tmp_path, compiled):
    cfg = tmp_path / "run.toml"
    cfg.write_text('games = 6\ncaesar = "random"\ncaesar_order = "AAAASSCCRRVV"\n[rules]\nhand_size = 4\n'
                   '[rules.action_count.caesar]\nwrath = 0\n')
    path = tmp_path / "r.jsonl"
    code, _, err = run_cli(capsys, "run", "--config", cfg, "--record", path, "--json")
    assert code == 0, err
    recs = read_records(path)
    assert all(r["rules"] == {"hand_size": 4, "action_count": {"caesar": {"wrath": 0}}} for r in recs)
    assert all(r["players"]["caesar"]["ordering"] == "AAAASSCCRRVV" for r in recs)
    code, out, _ = run_cli(capsys, "replay", path, "--check")
    assert code == 0 and "6 passed, 0 failed" in out


def test_default_rules_records_have_no_rules_block(capsys, tmp_path, compiled):
    path = tmp_path / "d.jsonl"
    code, _, _ = run_cli(capsys, "run", "--games", "3", "--caesar", "random", "--variant", "two_orgies",
                         "--record", path, "--json")
    assert code == 0
    assert all("rules" not in r for r in read_records(path))

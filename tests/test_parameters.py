"""The one table of rules parameters: every key a rules block has, in plain words,
its standard value read from the kernel's standard rules vector."""
import pytest

from ccsim.errors import InputError
from ccsim.kernel import rules as R
from ccsim.runner import ruleset
from ccsim.runner.parameters import (PARAMETERS, VARIANT_WORDS, change_words, parameter, setting_words)


def test_the_table_names_every_rules_parameter_once_with_its_standard_value():
    keys = [p.key for p in PARAMETERS]
    assert len(keys) == len(set(keys)) == len(R.RULE_PARAM_NAMES) - 1  # all but the variants' bit flags
    for p in PARAMETERS:
        assert p.standard == int(R.DEFAULT_RULES[R.RULE_PARAM_NAMES[p.key]])
        assert p.lo <= p.standard <= p.hi
        assert p.rule.startswith("R") and p.label and "{n}" in p.words


def test_each_range_is_the_one_ruleset_enforces():
    for p in PARAMETERS:
        if p.key.startswith("action_count"):
            continue  # bounded by the player's total too (1..32 action cards)
        # group_limit is at most 2 x side_limit (R4.2.2): the extremes are tried with a fitting partner
        partner = {"side_limit": {"group_limit": 2}, "group_limit": {"side_limit": 7}}.get(p.key, {})
        ruleset.rules_vector({p.key: p.lo, **partner}), ruleset.rules_vector({p.key: p.hi, **partner})
        with pytest.raises(InputError):
            ruleset.rules_vector({p.key: p.hi + 1})


def test_a_setting_reads_as_words_with_its_standard():
    assert setting_words("action_count.cleopatra.veto", 1) == "Cleopatra has 1 veto card (standard: 2)"
    assert setting_words("side_limit", 4) == "a side holds at most 4 cards (standard: 5)"
    assert setting_words("action_count.veto", 3) == "each player has 3 veto cards (standard: 2)"
    assert parameter("group_size.censor").label == "censors"


def test_a_change_reads_as_words_flat_or_nested():
    flat = change_words({"action_count.caesar.veto": 3, "hand_size": 4})
    nested = change_words({"action_count": {"caesar": {"veto": 3}}, "hand_size": 4})
    assert flat == nested == ("Caesar has 3 veto cards (standard: 2); "
                              "a hand refills to 4 cards (standard: 5)")
    assert change_words({}) == "the standard rules"
    assert change_words({}, ["two_orgies"]) == VARIANT_WORDS["two_orgies"]
    assert set(VARIANT_WORDS) == set(R.VARIANTS)


@pytest.mark.parametrize("key", ["hand", "group_size.consul", "action_count.pharaoh.veto", "deck_count.7"])
def test_an_unknown_key_is_one_line(key):
    with pytest.raises(InputError) as e:
        parameter(key)
    assert "\n" not in str(e.value)


def test_a_change_out_of_range_is_refused_before_it_is_worded():
    with pytest.raises(InputError, match="side_limit"):
        change_words({"side_limit": 0})

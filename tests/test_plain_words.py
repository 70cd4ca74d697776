"""Printed figures a designer reads: never "-0.0" (a value that rounds to zero has no sign to show), and a
table too wide for the terminal says plainly which columns it does not show."""
import re

from ccsim.present import whatif as W
from ccsim.present.table_width import Col, table

NEGATIVE_ZERO = re.compile(r"-0\.0+(?!\d*[1-9])")


def test_whatif_never_prints_minus_zero():
    for metric in ("seat_advantage", "draw_rate", "turns"):
        for x in (-0.0, -0.00001, -0.0004, -0.004 if metric == "turns" else -0.0004):
            for signed in (False, True):
                assert not NEGATIVE_ZERO.search(W._fmt(metric, x, signed)), (metric, x, signed, W._fmt(metric, x, signed))
    assert W._fmt("seat_advantage", -0.0004) == "+0.0" and W._fmt("seat_advantage", -0.0006) == "-0.1"
    assert W._fmt("turns", -0.001, True) == "+0.00" and W._fmt("turns", 12.5) == "12.50"


def test_whatif_card_worths_never_print_minus_zero():
    import pandas as pd
    rows = [dict(card=c, player=p, worth=-0.0001, ci_lo=-0.0004, ci_hi=0.0003, significant=False)
            for c in W.R.ACTION_NAMES for p in ("cleopatra", "caesar", "both")]
    text = " ".join(" ".join(r) for r in W._card_rows(pd.DataFrame(rows)))
    assert "+0.0 [+0.0, +0.0]" in text and not NEGATIVE_ZERO.search(text)


def test_a_narrow_terminal_says_which_columns_it_does_not_show():
    lines = table([Col("setting", wrap=True), Col("a long spare column", spare=1)], [["x" * 30, "y" * 30]], width=40)
    said = " ".join(line.strip() for line in lines[1:] if not line.startswith("x") and not line.startswith("setting"))
    assert said.endswith("(not shown, to fit in 40 columns: a long spare column; --wide shows them)"), lines


def test_whatif_names_an_arm_by_its_words_when_its_name_only_spells_its_keys():
    """balance's recommended.toml names a change by its dotted keys: the designer reads the words alone."""
    from ccsim.present.whatif import arm_words
    keyed = {"name": "action_count.cleopatra.veto 1, orgies 3", "kind": "change",
             "rules": "orgies 3, action_count.cleopatra.veto 1", "words": "Cleopatra has 1 veto card (standard: 2)"}
    assert arm_words(keyed) == "Cleopatra has 1 veto card (standard: 2)"
    named = {**keyed, "name": "fewer vetoes"}
    assert arm_words(named) == "fewer vetoes: Cleopatra has 1 veto card (standard: 2)"


def test_whatif_names_a_lopsided_level_as_lopsided():
    from ccsim.present.whatif import level_head
    assert "(neural; lopsided: it plays Cleopatra" in level_head("neural")
    assert "lopsided" not in level_head("learned") and "lopsided" not in level_head("tactician")

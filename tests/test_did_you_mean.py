"""A mistyped name gets the closest known ones: "did you mean `tactician`?" (difflib), at the command line
and on the explore page, for a strategy, a variant, a rules key, an ordering preset and an option."""
import subprocess
import sys

import pytest

from ccsim.errors import suggest

STRATEGY = ("unknown strategy 'tactican' (known: random, greedy, tactician, neural; "
            "or a path to a weighted .toml file)")


def test_a_close_name_is_suggested_after_the_name():
    assert suggest(STRATEGY).startswith("unknown strategy 'tactican': did you mean `tactician`? (known: random")


def test_no_close_name_leaves_the_message_alone():
    assert suggest(STRATEGY.replace("tactican", "zzzz")) == STRATEGY.replace("tactican", "zzzz")
    assert suggest("games must be > 0, got 0") == "games must be > 0, got 0"


def test_an_ordering_preset_is_suggested_at_the_end():
    msg = "ordering 'veto-frist': unknown letters 'E' (use A S C R W V); not 'shuffled' nor a preset (balanced, veto-first)"
    assert suggest(msg) == msg + "; did you mean `veto-first`?"


def test_a_message_that_already_suggests_is_kept():
    msg = "No such option '--gams'. (Did you mean one of: '--games', '--record-games'?)"
    assert suggest(msg) == msg


def _ccsim(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "ccsim.cli", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=120)


@pytest.mark.parametrize("args, guess", [
    (("run", "--cleopatra", "tactican", "--games", "10"), "`tactician`"),
    (("run", "--variant", "two_orgy", "--games", "10"), "`two_orgies`"),
    (("whatif", "--strategy", "greedyy", "--games", "10"), "`greedy`"),
    (("run", "--gams", "10"), "'--games'"),
])
def test_the_command_line_suggests(args, guess):
    p = _ccsim(*args)
    assert p.returncode == 2 and p.stderr.count("\n") == 1, p.stderr
    assert p.stderr.startswith("ccsim: error: ") and "did you mean" in p.stderr.lower() and guess in p.stderr


def test_a_rules_key_is_suggested(tmp_path):
    (tmp_path / "run.toml").write_text("[rules]\nhand_sise = 4\n")
    p = _ccsim("run", "--config", str(tmp_path / "run.toml"), "--games", "10")
    assert p.returncode == 2 and "'hand_sise': did you mean `hand_size`?" in p.stderr, p.stderr

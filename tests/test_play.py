"""`ccsim play`: scripted sessions (moves fed on standard input)."""
import json

from click.testing import CliRunner

from ccsim.cli import cli
from ccsim.record import replay


def _play(args, text):
    return CliRunner().invoke(cli, ["play", *args], input=text, catch_exceptions=False)


def _record(path):
    lines = path.read_text().splitlines()
    assert len(lines) == 1
    return json.loads(lines[0])


def test_a_whole_game_against_tactician_ends_with_a_valid_record(tmp_path, compiled):
    path = tmp_path / "game.jsonl"
    res = _play(["--against", "tactician", "--seed", "4", "--record", str(path)], "1\n" * 2000)
    assert res.exit_code == 0, res.output
    assert "End: " in res.output and "Traceback" not in res.output
    rec = _record(path)
    assert rec["players"]["cleopatra"]["strategy"] == "human"
    assert rec["players"]["caesar"]["strategy"] == "tactician"
    assert rec["result"] is not None and replay(rec).ok, replay(rec).message


def test_the_screen_shows_only_what_the_human_may_see(compiled):
    res = _play(["--as", "caesar", "--seed", "2"], "1\n1\nq\n")
    out = res.output
    assert res.exit_code == 0
    assert "you are caesar" in out and "your hand:" in out and "your next action cards:" in out
    assert "VoC discard:" in out and "cards in hand" in out
    # her initial placement is face-down: the screen counts her cards, never names them
    assert "+1 face-down" in out


def test_the_opponents_hidden_cards_stay_hidden_in_the_story(compiled):
    import re
    out = "".join(_play(["--as", "caesar", "--seed", str(s), "--against", "random"], "1\n" * 2000).output
                  for s in range(1, 4))
    hidden = re.findall(r"cleopatra places (.+?) on \S+ face-down", out)
    draws = re.findall(r"cleopatra draws (.+?) \(", out)
    assert hidden and draws and set(hidden) == {"a card"} and set(draws) == {"a card"}
    mine = re.findall(r"caesar draws (.+?) \(", out)
    assert mine and "a card" not in mine  # her own draws she sees


def test_garbage_input_is_asked_again_and_the_moves_so_far_are_recorded(tmp_path, compiled):
    path = tmp_path / "partial.jsonl"
    text = "abc\n\n0\n999\n-3\n1\n1\nxyz\n2\n"  # then end of input
    res = _play(["--seed", "5", "--record", str(path)], text)
    assert res.exit_code == 0, res.output
    assert "Traceback" not in res.output
    assert "not a number: 'abc'" in res.output and "please type the number" in res.output
    assert "999 is not between 1 and 120" in res.output and "0 is not between" in res.output
    assert "You left the game" in res.output
    rec = _record(path)
    assert rec["result"] is None and len(rec["events"]) > 0
    assert replay(rec).ok, replay(rec).message


def test_quitting_before_the_game_starts_writes_no_record_and_says_so(tmp_path, compiled):
    path = tmp_path / "none.jsonl"
    res = _play(["--seed", "5", "--record", str(path)], "q\n")
    assert res.exit_code == 0 and "no record written" in res.output


def test_bad_flags_are_one_line_usage_errors(compiled):
    from ccsim.cli import main
    import pytest
    for args, msg in ((["--against", "nobody"], "unknown strategy"), (["--cleopatra-order", "XYZ"], "ordering"),
                      (["--variant", "nope"], "unknown variant")):
        with pytest.raises(SystemExit) as e:
            main(["play", *args])
        assert e.value.code == 2

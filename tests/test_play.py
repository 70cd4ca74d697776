"""`ccsim play`: scripted sessions (moves fed on standard input)."""
import itertools
import json
import re
from pathlib import Path

from click.testing import CliRunner

from ccsim.cli import cli
from ccsim.play.record import replay

ROOT = Path(__file__).resolve().parents[1]

# Every key of every step, again and again: a key that is not a choice at a
# prompt gets one line and the same question, so this plays any game to its end.
KEYS = "a 1 2 3 4 5 p o d b c s r w e v n i 0".split()


def _keys(n=20000, keys=KEYS):
    return "\n".join(itertools.islice(itertools.cycle(keys), n)) + "\n"


def _play(args, text):
    return CliRunner().invoke(cli, ["play", *args], input=text, catch_exceptions=False)


def _record(path):
    lines = path.read_text().splitlines()
    assert len(lines) == 1
    return json.loads(lines[0])


_PROMPT = re.compile(r"(\d+) choices \(\? help, u undo, q quit\): ")


def _prompts(out):
    """[(number the prompt announces, [(key, label), ...] listed above it)] for every prompt."""
    found, cells = [], []
    for line in out.splitlines():
        m = _PROMPT.match(line)
        if m:
            found.append((int(m.group(1)), cells))
            cells = []
            continue
        parts = re.split(r"\s{3,}", line.strip())
        if line.startswith("  ") and all(re.fullmatch(r"\S\) \S.*", x) for x in parts):
            cells += [(x[0], x[3:]) for x in parts]
    return found


def test_a_whole_game_in_small_steps_fits_the_screen_with_stable_keys(tmp_path, compiled):
    path = tmp_path / "game.jsonl"
    res = _play(["--against", "tactician", "--seed", "4", "--record", str(path)], _keys())
    out = res.output
    assert res.exit_code == 0, out[-3000:]
    assert "End: " in out and "Traceback" not in out
    rec = _record(path)
    assert rec["players"]["cleopatra"]["strategy"] == "human"
    assert rec["players"]["caesar"]["strategy"] == "tactician"
    assert rec["result"] is not None and replay(rec).ok, replay(rec).message
    # no printed line is wider than 80 columns (no mid-word wrapping by the terminal)
    assert max(len(line) for line in out.splitlines() if str(path) not in line) <= 80
    prompts = _prompts(out)
    assert len(prompts) > 50
    for n, cells in prompts:
        assert n == len(cells) and 2 <= n <= 15, (n, cells)
    # the initial placement is asked group by group: 5 cards at most, never 120 placements
    assert "initial placement: which card on senator?" in out
    assert prompts[0][0] <= 5
    # the same move has the same key at every prompt
    keys = {}
    for _, cells in prompts:
        for k, label in cells:
            keys.setdefault(label, set()).add(k)
    assert {label: ks for label, ks in keys.items() if len(ks) > 1} == {}
    assert keys["senator"] == {"A"} and keys["place 3"] == {"3"} and keys["face-down"] == {"d"}
    assert len(keys) > 20


def test_the_board_is_redrawn_before_every_prompt_in_30_lines(compiled):
    res = _play(["--as", "caesar", "--seed", "2", "--against", "greedy"], _keys(400, ["e", *KEYS]))
    out = res.output.split("\n")
    sizes, n = [], 0
    for line in out:
        n += 1
        if _PROMPT.match(line):
            sizes.append(n)
            n = 0
    assert sizes and max(sizes[1:]) <= 30
    blocks = res.output.split("choices (? help")
    assert all("your hand:" in b or "your set-aside cards:" in b for b in blocks[:-1])


def test_the_screen_shows_only_what_the_human_may_see(compiled):
    res = _play(["--as", "caesar", "--seed", "2"], _keys(40) + "q\n")
    out = res.output
    assert res.exit_code == 0
    assert "you are caesar" in out and "your hand:" in out and "your next action cards:" in out
    assert "VoC discard:" in out and "cards in hand" in out
    # her initial placement is face-down: the screen counts her cards, never names them
    assert "+1 face-down" in out


def test_the_opponents_hidden_cards_stay_hidden_in_the_story(compiled):
    out = "".join(_play(["--as", "caesar", "--seed", str(s), "--against", "random"], _keys()).output
                  for s in range(1, 4))
    hidden = re.findall(r"cleopatra places (.+?) on \S+ face-down", out)
    draws = re.findall(r"cleopatra draws (.+?) \(", out)
    assert hidden and draws and set(hidden) == {"a card"} and set(draws) == {"a card"}
    mine = re.findall(r"caesar draws (.+?) \(", out)
    assert mine and "a card" not in mine  # her own draws she sees


def test_garbage_input_is_asked_again_and_the_moves_so_far_are_recorded(tmp_path, compiled):
    path = tmp_path / "partial.jsonl"
    text = "xyz\n\n999\n" + _keys(80)  # then end of input
    res = _play(["--seed", "5", "--record", str(path)], text)
    assert res.exit_code == 0, res.output
    assert "Traceback" not in res.output
    assert "'x' is not one of the keys here" in res.output and "please type the key" in res.output
    assert "'9' is not one of the keys here" in res.output
    assert "You left the game" in res.output
    rec = _record(path)
    assert rec["result"] is None and len(rec["events"]) > 0
    assert replay(rec).ok, replay(rec).message


def test_help_and_undo(tmp_path, compiled):
    path = tmp_path / "undone.jsonl"
    res = _play(["--seed", "5", "--record", str(path)], "?\n\n" + _keys(120) + "u\n" * 3 + _keys(60) + "q\n")
    out = res.output
    assert "Keys: each prompt lists its own, and on one prompt a key means one thing." in out
    assert "so far: " in out and "(u goes back)" in out
    assert "(your last move is taken back)" in out
    assert "You left the game" in out
    rec = _record(path)
    assert rec["result"] is None and replay(rec).ok, replay(rec).message


def test_quitting_before_the_game_starts_writes_no_record_and_says_so(tmp_path, compiled):
    path = tmp_path / "none.jsonl"
    res = _play(["--seed", "5", "--record", str(path)], "q\n")
    assert res.exit_code == 0 and "no record written" in res.output


def test_narration_tells_the_spy_and_the_orgy():
    from ccsim.play.narrate import event_text
    assert "no vote follows" in event_text({"e": "voc", "card": "orgy"})
    assert "no vote follows" in event_text({"e": "voc", "card": "orgy_reshuffle"})
    assert "no vote" not in event_text({"e": "voc", "card": "senator"})
    took = event_text({"e": "action", "p": "caesar", "card": "spy", "target": "3"})
    assert "cleopatra's hand" in took and "takes 3" in took
    assert "look at" in event_text({"e": "action", "p": "caesar", "card": "spy"})


def test_bad_flags_are_one_line_usage_errors(compiled):
    from ccsim.cli import main
    import pytest
    for args, msg in ((["--against", "nobody"], "unknown strategy"), (["--cleopatra-order", "XYZ"], "ordering"),
                      (["--variant", "nope"], "unknown variant")):
        with pytest.raises(SystemExit) as e:
            main(["play", *args])
        assert e.value.code == 2


def test_a_rules_change_is_played_to_the_end_shown_on_the_board_and_replayed(tmp_path, compiled):
    """A designer playtests a change; the board says which rules are in force, the
    record carries them, and `ccsim replay --check` replays it under them."""
    path = tmp_path / "game.jsonl"
    example = str(ROOT / "examples" / "playtest.toml")
    res = _play(["--rules", example, "--seed", "3", "--record", str(path)], _keys())
    out = res.output
    assert res.exit_code == 0 and "End: " in out, out[-3000:]
    assert "rules: Caesar's third veto: Caesar has 3 veto cards (standard: 2)" in out
    rec = _record(path)
    assert rec["rules"] == {"action_count": {"caesar": {"veto": 3}}}
    check = CliRunner().invoke(cli, ["replay", "--check", str(path)])
    assert check.exit_code == 0 and "1 passed, 0 failed" in check.output, check.output


def test_the_first_prompt_shows_the_set_aside_cards_not_an_empty_hand(compiled):
    out = _play(["--seed", "3"], "q\n").output
    assert "your hand: -" not in out
    assert "your set-aside cards: 1 2 3 4 5 (one goes on each group, R2.5)" in out


def test_a_rules_file_of_several_changes_plays_its_first_and_says_which(compiled):
    """designer.md's last step as written: a balance search's recommended.toml, its recommended change first."""
    from ccsim.runner.changes import load_changes
    path = ROOT / "results" / "balance" / "recommended.toml"
    changes, _ = load_changes(path)
    assert len(changes) > 1
    res = _play(["--rules", str(path), "--as", "caesar", "--seed", "3"], "q\n")
    assert res.exit_code == 0, res.output
    said = " ".join(res.output.split("Caesar & Cleopatra:")[0].split())  # the sentence, unwrapped
    assert said == (f"--rules {path} holds {len(changes)} changes: playing the first, {changes[0].name!r}; "
                    f"--change NAME plays another (its name = line in the file).")
    assert f"rules: {changes[0].name}:" in res.output
    other = _play(["--rules", str(path), "--change", changes[1].name, "--seed", "3"], "q\n")
    assert other.exit_code == 0 and "changes: playing" not in other.output
    assert f"rules: {changes[1].name}:" in other.output


def test_a_change_name_not_in_the_rules_file_is_one_line_and_exit_2(compiled, capsys):
    from conftest import run_cli
    code, out, err = run_cli(capsys, "play", "--rules", ROOT / "examples" / "changes.toml", "--change", "nope")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith("ccsim: error: --change 'nope': no such change in --rules ") and "it holds" in err


# --- a typed line is read whole or not at all (no game needed: the steps of Game.legal()'s options) -------

from ccsim.play.terminal import option_path, read_keys  # noqa: E402

PLACES = [dict(e="place", card=c, face=f, group=g) for c in ("3", "4") for f in ("up", "down")
          for g in ("senator", "praetor")] + [dict(e="end")]


def _read(line, legal=PLACES, chosen=()):
    return read_keys([option_path(d) for d in legal], list(chosen), line, len(legal))


def test_a_whole_move_in_one_line():
    steps, why = _read("4db")
    assert why is None and [label for _, label, _ in steps] == ["place 4", "face-down", "praetor"]


def test_a_key_that_means_nothing_refuses_the_whole_line():
    steps, why = _read("4dz")
    assert steps == [] and why == ("  '4dz' not read, nothing taken: 'z' is not one of the keys after place 4 > "
                                   "face-down (keys there: A B)")


def test_keys_after_a_complete_move_refuse_the_whole_line():
    steps, why = _read("4dbb")
    assert steps == [] and why == ("  '4dbb' not read, nothing taken: the move is complete at '4db'; 'b' means "
                                   "nothing more")


def test_a_step_with_one_way_on_may_be_typed_or_left_out():
    down = [d for d in PLACES if d.get("face") != "up"]
    assert [lbl for _, lbl, _ in _read("4b", down)[0]] == ["place 4", "face-down", "praetor"]
    assert [lbl for _, lbl, _ in _read("4db", down)[0]] == ["place 4", "face-down", "praetor"]


def _pair_second(card="4", face="up", groups=("senator", "praetor", "quaestor", "censor", "aedile")):
    """The options where the rules leave the card one face only (the second card of a face-up pair: up)."""
    return [dict(e="place", card=card, face=face, group=g) for g in groups] + [dict(e="end")]


def test_a_typed_face_is_read_as_the_face_even_where_the_rules_force_it():
    up, down = _pair_second(face="up"), _pair_second(face="down")
    # card, face, group as the help's '3db': with the face forced down, '4dd' is face-down on censor
    assert [lbl for _, lbl, _ in _read("4dd", down)[0]] == ["place 4", "face-down", "censor"]
    # with the face forced up, the 'd' after the card is still the face, refused with why; never censor
    for line in ("4dd", "4d"):
        steps, why = _read(line, up)
        assert steps == [] and why == (f"  {line!r} not read, nothing taken: 'd' (face-down) is not possible "
                                       f"after place 4: only o (face-up) is, typed or left out")
    assert [lbl for _, lbl, _ in _read("4od", up)[0]] == ["place 4", "face-up", "censor"]
    assert [lbl for _, lbl, _ in _read("4c", up)[0]] == ["place 4", "face-up", "quaestor"]


def test_a_group_the_rules_force_refuses_another_group_instead_of_skipping_it():
    only_praetor = _pair_second(face="down", groups=("praetor",))[:-1] + _pair_second("3", "down")
    steps, why = _read("4dd", only_praetor)
    assert steps == [] and "'d' (censor) is not possible after place 4 > face-down: only B (praetor) is" in why
    assert [lbl for _, lbl, _ in _read("4db", only_praetor)[0]] == ["place 4", "face-down", "praetor"]


def test_the_help_says_what_each_card_key_is():
    from ccsim.play.terminal import HELP
    assert "p (the philosopher, worth 0)" in HELP and "'3dd' is\nface-down on D (censor)" in HELP
    assert max(len(line) for line in HELP.splitlines()) <= 80

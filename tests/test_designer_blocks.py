"""designer.md shows what its commands print: each quick step's output block is the command's own output,
line for line, where "..." stands for lines left out and a line of timing may differ (the machine's, not the
game's). A change to a command's words or to a published figure fails here until the page is printed again."""
import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from ccsim.cli import cli

ROOT = Path(__file__).resolve().parents[1]
DESIGNER = ROOT / "docs" / "designer.md"
#: the steps quick enough to print again in a test (seconds each), by the start of their command
QUICK = ("ccsim run --cleopatra tactician", "ccsim whatif --no-variants --strategy tactician",
         "ccsim orderings compare --config")
#: lines that time the run: the machine's speed, not the game's
TIMING = re.compile(r"^(time: .* games/s\)|[\d,]+ games in [\d.]+ s \([\d,]+ games/s\))$")


def shown_blocks(text: str) -> dict[str, str]:
    """Each command of a ```bash block followed by an output block: the output block's text."""
    pairs = re.findall(r"```bash\n(ccsim [^\n]*)\n```\n\n(?:(?:(?!```).)*?\n)?```\n(.*?)```", text, re.S)
    return {cmd.split("#")[0].strip(): out for cmd, out in pairs}


def same(shown: str, printed: str) -> bool:
    """A shown line stands for a printed one: equal, or both lines of timing."""
    return shown == printed or bool(TIMING.match(shown) and TIMING.match(printed))


def matches(shown: str, printed: str) -> list[str]:
    """The shown lines that the printed output lacks, in order ("..." skips any lines; timing lines pass)."""
    out = printed.splitlines()
    i, missing, skip = 0, [], False
    for line in shown.splitlines():
        if line == "...":
            skip = True
            continue
        j = i
        while skip and j < len(out) and not same(line, out[j]):
            j += 1
        if j < len(out) and same(line, out[j]):
            i, skip = j + 1, False
        else:
            missing.append(line)
    return missing


def test_matching_skips_elided_lines_and_timing_but_not_a_changed_figure():
    printed = "a\nb\nc\ntime: 1.0 s   (9 games/s)\nd"
    assert matches("a\n...\nc\ntime: 3.7 s   (27,000 games/s)\nd", printed) == []
    assert matches("a\nc", printed) == ["c"]                      # no "...": a missing line is a difference
    assert matches("a\n...\nd\nc", printed) == ["c"]              # order holds
    assert matches("a\n...\n+10.3", printed) == ["+10.3"]


@pytest.mark.slow  # plays the steps' games (about 250,000)
@pytest.mark.parametrize("start", QUICK)
def test_each_quick_step_shows_what_its_command_prints(compiled, start, monkeypatch):
    monkeypatch.chdir(ROOT)  # the steps name their files from the repository's root, as a designer types them
    blocks = shown_blocks(DESIGNER.read_text(encoding="utf-8"))
    cmd = next(c for c in blocks if c.startswith(start))
    res = CliRunner().invoke(cli, shlex.split(cmd)[1:], env={"COLUMNS": "100"}, catch_exceptions=False)
    assert res.exit_code == 0
    assert matches(blocks[cmd], res.stdout) == [], f"docs/designer.md: print `{cmd}` again"

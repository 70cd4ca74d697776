"""What a designer reads: every summary of run, tournament, whatif, balance, orderings and
metrics fits 80 and 100 columns (``--wide`` prints every column), and no summary nor the report of an
example study names a rules parameter by its dotted key alone, nor the standard rules as RULES.md."""
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from ccsim.cli import cli
from ccsim.runner.parameters import PARAMETERS

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
#: a rules file with a change named by its keys alone: its name is dotted, its words must show
UNNAMED = '[[change]]\naction_count = {cleopatra = {veto = 1}}\nbonus_threshold = 2\n'


def _commands(tmp: Path) -> dict:
    (tmp / "unnamed.toml").write_text(UNNAMED)
    return {
        "run": ["run", "--config", str(EXAMPLES / "run.toml"), "--games", "400", "--metrics",
                "--out", str(tmp / "run")],
        "metrics": ["metrics", str(tmp / "run")],
        "tournament": ["tournament", "--strategies", "greedy,tactician,weighted-balanced,majority", "--games", "100",
                       "--nash", "--variant", "two_orgies"],
        "whatif": ["whatif", "--rules", str(EXAMPLES / "changes.toml"), "--strategy", "greedy", "--games", "300",
                   "--cards", "--variant", "two_orgies"],
        "whatif-unnamed": ["whatif", "--rules", str(tmp / "unnamed.toml"), "--strategy", "greedy", "--games", "300",
                           "--no-variants"],
        "balance": ["balance", str(EXAMPLES / "balance.toml"), "--budget", "20,000", "--remeasure-games", "500",
                    "--levels", "greedy,tactician", "--out", str(tmp / "balance")],
        "orderings-compare": ["orderings", "compare", "veto-first", "spy-first", "--games", "400"],
        "orderings-decided": ["orderings", "compare", "veto-first", "--games", "400", "--until-decided"],
        "orderings-positions": ["orderings", "positions", "--games", "4000", "--out", str(tmp / "positions"), "-q"],
    }


@pytest.fixture(scope="module")
def outputs(tmp_path_factory, compiled):
    """Every command's printed summary at 80 and 100 columns, and whatif's with --wide."""
    tmp = tmp_path_factory.mktemp("designer")
    out = {}
    for name, argv in _commands(tmp).items():
        for width in ("80", "100") + (("wide",) if name == "whatif" else ()):
            extra = ["--wide"] if width == "wide" else []
            res = CliRunner().invoke(cli, argv + extra, env={"COLUMNS": "200" if width == "wide" else width},
                                     catch_exceptions=False)
            assert res.exit_code == 0, (name, res.output[-2000:])
            out[name, width] = res.stdout
    return out


@pytest.mark.parametrize("width", [80, 100])
def test_every_summary_fits_the_terminal(outputs, width):
    over = {name: max(text.splitlines(), key=len) for (name, w), text in outputs.items()
            if w == str(width) and max(map(len, text.splitlines())) > width}
    assert over == {}


def test_wide_prints_what_a_narrow_terminal_leaves_out(outputs):
    assert max(map(len, outputs["whatif", "wide"].splitlines())) > 100
    assert "--wide shows them" in outputs["whatif", "80"] and "--wide shows them" not in outputs["whatif", "wide"]


_KEYS = sorted({p.key for p in PARAMETERS} | {"group_size", "deck_count", "action_count"}, key=len, reverse=True)
_DOTTED = re.compile(r"(?<![\w.])(" + "|".join(re.escape(k) for k in _KEYS) + r")(?![\w])")


def dotted_keys(text: str) -> list[str]:
    """Every rules parameter a text names by its key (``side_limit``, ``action_count.caesar.veto``)."""
    return _DOTTED.findall(text)


def test_the_key_finder_sees_a_dotted_key():
    assert dotted_keys("action_count.cleopatra.veto 1, side_limit 4; vp_patricians_caesar") == [
        "action_count.cleopatra.veto", "side_limit"]


def test_no_summary_names_a_parameter_by_its_key_or_the_rules_by_a_missing_file(outputs):
    for (name, width), text in outputs.items():
        assert dotted_keys(text) == [], (name, width)
        assert "RULES.md" not in text, (name, width)
    assert "Cleopatra has 1 veto card (standard: 2)" in " ".join(outputs["whatif-unnamed", "100"].split())
    assert "a hand refills to 4 cards (standard: 5)" in " ".join(outputs["run", "100"].split())


def test_the_report_of_an_example_study_speaks_plain_words(tmp_path, compiled):
    # the example study as written, with its game counts cut down (its words do not depend on them)
    study = re.sub(r"(?m)^games = [\d_]+", "games = 2_000", (EXAMPLES / "study.toml").read_text(encoding="utf-8"))
    (tmp_path / "study.toml").write_text(study, encoding="utf-8")
    res = CliRunner().invoke(cli, ["report", str(tmp_path / "study.toml"), "--out", str(tmp_path / "r"),
                                   "--no-progress"], catch_exceptions=False)
    assert res.exit_code == 0, res.output[-2000:]
    html = (tmp_path / "r" / "report.html").read_text(encoding="utf-8")
    text = re.sub(r"<[^>]+>", " ", re.sub(r"<(script|style).*?</\1>", " ", html, flags=re.S))
    assert dotted_keys(text) == [] and "RULES.md" not in text
    assert "a hand refills to 4 cards (standard: 5)" in text


def test_progress_in_a_log_is_a_line_every_few_seconds_however_long_a_task():
    """Under a non-terminal stderr a long task no longer leaves the log silent."""
    import io
    import time
    from ccsim.runner.driver import ProgressLines, progress_bar
    log = io.StringIO()
    bar = ProgressLines(1000, "round 2", log, every=0.05)
    time.sleep(0.2)  # a task still playing: no update yet
    bar.update(250)
    time.sleep(0.1)
    bar.close()
    lines = log.getvalue().splitlines()
    assert len(lines) >= 3 and lines[0].startswith("round 2: 0 of 1,000 games")
    assert "250 of 1,000 games (25%)" in lines[-1]
    other = progress_bar(10)
    other.close()
    assert isinstance(other, ProgressLines)  # pytest's stderr is no terminal


def test_a_figure_knows_its_precision():
    """Fair only inside the band; an interval wider than the band says how many games would do."""
    from ccsim.analyses.precision import games_needed, inside, precision_warning, too_wide
    # designer.md's old example: ±1.4 points from 5,000 deals against a ±1-point band
    assert too_wide(-0.031, -0.003, 0.01) and not inside(-0.031, -0.003, 0.01)
    assert games_needed(-0.031, -0.003, 5000, 0.01) == 40_000  # (1.4 / 0.5)^2 x 5,000 = 39,200, rounded up
    line = precision_warning("at tactician, 5,000 deals", -0.031, -0.003, 0.01, 5000, "deals")
    assert line.startswith("warning: ") and "±1.4 points" in line and "40,000 deals" in line
    assert precision_warning("x", 0.002, 0.009, 0.01, 100_000) is None and inside(0.002, 0.009, 0.01)

"""No figure a reader meets is typed by hand: every measured result in the prose of README.md, docs/*.md,
results/*/README.md, strategies/README.md and the comments of examples/ is written by a generator from the
result file it comes from (scripts/docs_figures.py's markers, or a file written whole from the results), or it
is not there. What counts as a figure is ``docs_figures.figures``."""
import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def figures():
    spec = importlib.util.spec_from_file_location("docs_figures", ROOT / "scripts" / "docs_figures.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_no_figure_is_typed_by_hand(figures):
    assert figures.unowned() == {}


@pytest.mark.parametrize("text, found", [
    ("Cleopatra's edge is +9.4 [+8.7, +10.0] points", ["+9.4", "[+8.7, +10.0]"]),
    ("a seat gap of −4.0, rated +247", ["−4.0", "+247"]),
    ("it scores 53.2% [52.2%, 54.2%]", ["53.2%", "[52.2%, 54.2%]"]),
    ("46,075 games/s, about 6 games a second", ["46,075 games/s", "6 games a second"]),
    ("41 s on 2 cores, then 54 minutes, 2 hours in all", ["41 s", "54 minutes", "2 hours"]),
    ("1.4× faster", ["1.4×"]),
    ("4.2 million games; a 10-million-game search; 4,221,992 games, 277,534 deals", [
        "4.2 million", "10-million", "4,221,992 games", "277,534 deals"]),
])
def test_a_measured_result_is_a_figure(figures, text, found):
    assert figures.figures(text) == found


@pytest.mark.parametrize("text", [
    "R4.2.3 and R10.4: Caesar has 2 veto cards, a hand of 5, 25 patricians in 5 groups",
    "on 2026-12-07 with numba 0.68.1 and Python 3.11.7",
    "fair: within ±1 point; 100,000 deals a setting; 20,000 games",
    "the winner (0, 1, −1 for a draw), clipped to [0, 1]",
    "a 2×5 array; the command ends after 30 s; a worker left for 30 s; within 30 minutes",
    "the target: ≥ 55% against it at ≥ 20 games/s, a cold start ≤ 30 s",
])
def test_rules_dates_versions_and_settings_are_not_figures(figures, text):
    assert figures.figures(text) == []


def test_a_figure_typed_into_a_document_is_counted_and_a_written_one_is_not(figures, tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "examples").mkdir()
    (tmp_path / "README.md").write_text(
        "Her edge is <!-- fig:balance-games -->+1.0<!-- /fig:balance-games -->; `ccsim run --games 100000`"
        " prints it:\n\n"
        "```\n+9.4 [+8.7, +10.0]  (a command's output)\n```\n", encoding="utf-8")
    assert figures.unowned(tmp_path) == {}
    doc = tmp_path / "docs" / "designer.md"
    doc.write_text("Step 1 finds +9.4 [+8.7, +10.0] in 41 s.\n", encoding="utf-8")
    (tmp_path / "examples" / "study.toml").write_text(
        "# a small study: 41 s on 2 cores\nseed = 1   # 20,000 games\ngames = 20_000\n", encoding="utf-8")
    assert figures.unowned(tmp_path) == {"docs/designer.md": ["+9.4", "[+8.7, +10.0]", "41 s"],
                                         "examples/study.toml": ["41 s"]}

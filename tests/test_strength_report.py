"""results/strength/README.md's judge section (scripts/strength_report.py): a fast player's mirror beside the
published judge's edge, and whether it lands within ±2 points."""
import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def report():
    spec = importlib.util.spec_from_file_location("strength_report", ROOT / "scripts" / "strength_report.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def judged(mirror: float, judge: float) -> dict:
    return {"player": "fast", "vs_tactician": {"score": 0.66, "ci95": [0.65, 0.67], "games": 20000, "seed": 9},
            "mirror_edge": {"points": mirror, "ci95": [mirror - 0.9, mirror + 0.9], "deals": 10000, "seed": 2},
            "judge_edge": {"level": "neural-search", "points": judge, "ci95": [judge - 0.9, judge + 0.9], "deals": 10000},
            "machine": "m", "command": "c"}


@pytest.mark.parametrize("mirror, judge, diff, within", [(18.1, 14.4, "+3.7 [+2.4, +5.0]", "no"),
                                                         (15.9, 14.4, "+1.5 [+0.2, +2.8]", "yes"),
                                                         (12.0, 14.4, "-2.4 [-3.7, -1.1]", "no")])
def test_a_mirror_within_two_points_of_the_judge_is_said_so(report, mirror, judge, diff, within):
    row = report.judge_section([judged(mirror, judge)])[-2]
    cells = [c.strip() for c in row.split("|")]
    assert cells[5] == diff and cells[6] == within


def test_the_published_judge_section_is_the_results(report, tmp_path):
    """The section is written from the folder's two-seats files, and only from them."""
    (tmp_path / "fast.json").write_text(json.dumps(judged(18.1, 14.4)))
    report.write_report(tmp_path)
    text = (tmp_path / "README.md").read_text()
    assert "## A fast player as a judge" in text and "| `fast` |" in text
    (tmp_path / "fast.json").unlink()
    report.write_report(tmp_path)
    assert "A fast player as a judge" not in (tmp_path / "README.md").read_text()


def test_frontier_png_names_each_search_clear_of_every_other_marker(report):
    """Drawn from the stored ladder (no game): no name runs into another player's marker or interval, nor into
    another name (expert-b256's ran into master's marker)."""
    from matplotlib.text import Text
    from ccsim.present.balance_plot import LABEL, label_overlaps
    d = json.loads((ROOT / "results" / "strength" / "ladder.json").read_text())
    fig = report.frontier_figure(d)
    assert label_overlaps(fig) == []
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    ax = fig.axes[0]
    names = {t.get_text(): t for t in ax.texts if t.get_gid() == LABEL}
    assert {"master", "neural-search", "expert-b256"} <= set(names)
    r = 4 * fig.dpi / 72  # a marker's radius, pixels
    for e in d["ratings"]:
        sp = d["speed_vs_tactician"].get(e["entrant"])
        if not sp or e["elo"] < report.FLOOR:
            continue
        x, y = ax.transData.transform((sp, e["elo"]))
        lo, hi = (ax.transData.transform((sp, v))[1] for v in e["ci95"])
        for name, t in names.items():
            if name == e["entrant"]:
                continue
            box = Text.get_window_extent(t, renderer)
            assert not (box.x0 - r < x < box.x1 + r and box.y0 - r < hi and lo < box.y1 + r), (name, e["entrant"])

"""The balance plots name their points where a reader can read them: every label beside its own point,
no two labels' boxes overlapping (after a draw), in balance.png and skill.png, drawn from the published
search's Parquet files (no game is played)."""
import json
from pathlib import Path

import pandas as pd
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")

from ccsim.analyses.balance import Balance  # noqa: E402
from ccsim.present.balance_plot import LABEL, balance_plot, label_overlaps, place_labels, skill_plot  # noqa: E402
from ccsim.analyses.balance.space import load_space  # noqa: E402

RESULTS = Path(__file__).resolve().parents[1] / "results" / "balance"


@pytest.fixture(scope="module")
def published() -> Balance:
    c = pd.read_parquet(RESULTS / "candidates.parquet")
    return Balance(space=load_space(RESULTS / "space.toml"), candidates=c, pareto=c[c["pareto"]],
                   recommended=pd.read_parquet(RESULTS / "recommended.parquet"),
                   remeasured=pd.read_parquet(RESULTS / "remeasured.parquet"),
                   skill=pd.read_parquet(RESULTS / "skill.parquet"),
                   info=json.loads((RESULTS / "summary.json").read_text(encoding="utf-8")))


def _labels(fig):
    return [t for ax in fig.axes for t in ax.texts if t.get_gid() == LABEL]


def test_balance_png_names_each_setting_on_its_own_star_at_the_judging_level(published):
    fig = balance_plot(published)
    labels = _labels(fig)
    first = published.space.levels[0].name
    fresh = published.remeasured[(published.remeasured["level"] == first) & (published.remeasured["candidate"] != 0)]
    assert sorted(t.get_text() for t in labels) == sorted(fresh["words"])
    for t in labels:
        row = fresh[fresh["words"] == t.get_text()].iloc[0]
        assert t.xy[1] == pytest.approx(100 * row["seat_advantage"])  # on its own star, at the judging level
    assert label_overlaps(fig) == []


def test_skill_png_names_every_level_without_overlap(published):
    fig = skill_plot(published.skill, published.space.tolerance)
    assert sorted(t.get_text() for t in _labels(fig)) == sorted(published.skill["level"].unique())
    assert label_overlaps(fig) == []


def _level_names_read_across_each_at_its_own_line(fig, levels):
    """The names of ``levels`` ({name: x}) as drawn: horizontal, none over another, none across another
    level's line, each at its own (centred on it, or an edge within 3 pixels of it), all below the title."""
    from matplotlib.text import Text
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    ax = fig.axes[0]
    labels = _labels(fig)
    assert sorted(t.get_text() for t in labels) == sorted(levels)
    assert label_overlaps(fig) == []
    px = {name: ax.transData.transform((x, 0))[0] for name, x in levels.items()}
    title = ax.title.get_window_extent(renderer)
    for t in labels:
        box = Text.get_window_extent(t, renderer)
        assert t.get_rotation() == 0, t.get_text()
        assert not box.overlaps(title), t.get_text()
        assert box.y0 >= ax.get_window_extent(renderer).y1, t.get_text()  # above the frame, off the curves
        crossed = [n for n, u in px.items() if n != t.get_text() and box.x0 < u < box.x1]
        assert crossed == [], (t.get_text(), crossed)
        own = px[t.get_text()]
        assert box.x0 - 3 <= own <= box.x1 + 3, t.get_text()


@pytest.mark.parametrize("curve", ["the search's (skill.parquet)", "the published answer's (summary.json)"])
def test_skill_png_names_each_level_across_at_its_line_master_and_neural_search_apart(published, curve):
    from ccsim.present.balance_plot import _curve_x
    from ccsim.analyses.balance.publish.answer import answer_curve_frame
    from ccsim.present.balance_plot import answer_skill_figure
    from ccsim.analyses.balance.publish.skill import level_elos
    if curve.startswith("the search's"):
        frame, fig = published.skill, skill_plot(published.skill, published.space.tolerance)
    else:
        rec, elos = published.info["recommendation"], level_elos()
        frame, fig = answer_curve_frame(rec, elos), answer_skill_figure(rec, elos, published.info["space"]["tolerance"])
    first = frame[frame["candidate"] == frame["candidate"].min()].sort_values("rank")
    levels = dict(zip(first["level"], _curve_x(first)))
    assert {"master", "neural-search"} <= set(levels)
    _level_names_read_across_each_at_its_own_line(fig, levels)


def test_two_labels_on_one_point_are_set_apart_and_an_overlap_is_caught():
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.plot([0, 1], [0, 1], "o")
    ax.annotate("the first long name", (0.5, 0.5), gid=LABEL)
    ax.annotate("the second long name", (0.5, 0.5), gid=LABEL)
    assert label_overlaps(fig) == [("the first long name", "the second long name")]
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.plot([0, 1], [0, 1], "o")
    place_labels(ax, [(0.5, 0.5, "the first long name"), (0.5, 0.5, "the second long name")])
    assert label_overlaps(fig) == []

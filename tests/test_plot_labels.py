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
from ccsim.analyses.balance.plot import LABEL, balance_plot, label_overlaps, place_labels, skill_plot  # noqa: E402
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

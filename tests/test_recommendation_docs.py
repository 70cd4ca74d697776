"""One recommendation for a designer: the fair-rules search's answer, said once in plain words, is
quoted with the same words and figures wherever a designer meets it: the README, the designer's guide, the
balance results' README and the report's summary (and the search's own pareto.md)."""
import json
import re
from pathlib import Path

import pytest

from ccsim.analyses.balance.verdict import recommendation_text

ROOT = Path(__file__).resolve().parents[1]
SUMMARY = ROOT / "results" / "balance" / "summary.json"
PLACES = ["README.md", "docs/designer.md", "results/balance/README.md", "results/balance-report/summary.md",
          "results/balance/pareto.md"]


def _flat(text: str) -> str:
    """Markdown as words: quote marks, emphasis and line breaks do not count."""
    text = re.sub(r"^\s*>\s?", "", text, flags=re.M)
    return " ".join(text.replace("**", "").split())


@pytest.fixture(scope="module")
def answer():
    rec = json.loads(SUMMARY.read_text(encoding="utf-8"))["recommendation"]
    assert rec, "results/balance/summary.json has no recommendation"
    return rec


def test_the_published_answer_is_its_own_data_said_in_words(answer):
    assert recommendation_text(answer) == answer["text"]


@pytest.mark.parametrize("place", PLACES)
def test_every_place_gives_the_same_recommendation_with_the_same_figures(answer, place):
    assert _flat(answer["text"]) in _flat((ROOT / place).read_text(encoding="utf-8")), \
        f"{place} does not quote the recommendation of results/balance/summary.json word for word"


def test_the_answer_rests_on_the_strongest_levels_at_scale(answer):
    assert answer["at_level"]["deals"] >= 100_000 and answer["level"] == "neural"
    assert answer["search"] is not None and answer["search"]["deals"] >= 10_000

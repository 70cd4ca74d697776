"""The figures scripts/docs_figures.py writes, each from the result file that backs it, by subject."""
from __future__ import annotations

from . import balance, orderings, pages, players
from .pages import FILES, WRITTEN_BLOCKS

__all__ = ["FIGURES", "FILES", "WRITTEN_BLOCKS", "TEST_COUNTS", "BLOCKS"]

FIGURES = {**balance.FIGURES, **orderings.FIGURES, **players.FIGURES, **pages.FIGURES}
#: figures that need the test suite collected (seconds, not milliseconds)
TEST_COUNTS = {"tests-fast", "tests-all"}
#: figures written as blocks (their own lines between the markers)
BLOCKS = {"answer", "ladder", "seat-table", "neural-generations", "remeasured-table", "search-table", "skill-table",
          "orderings-search-table", "orderings-judge-table", "judge-settings-table", "positions-table",
          "network-table", "retune-table", "judge-profile"}

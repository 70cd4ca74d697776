"""The resumable engine plays the very same games as the recursive engine it replaced.

``tests/data/reference_games.json`` holds, for 82 pairings (every registered
strategy at both seats against `random`, `greedy` and `tactician`, every R11
variant, fixed orderings; 3,000 games each), the SHA-256 of the per-game
result rows and of the events of the first 60 recorded games, as played by
commit 82d0697 (the last commit of the recursive engine).  See
``tests/reference_games.py``.
"""
import json
from pathlib import Path

import pytest

from reference_games import fingerprint, pairings

REFERENCE = json.loads((Path(__file__).parent / "data" / "reference_games.json").read_text())


def test_reference_file_is_of_the_recursive_engine():
    assert REFERENCE["commit"].startswith("82d0697") and len(REFERENCE["pairings"]) == len(pairings())


@pytest.mark.parametrize("label, kwargs, seed", pairings(), ids=[p[0] for p in pairings()])
def test_same_games_as_commit_82d0697(label, kwargs, seed, compiled):
    rows, events = fingerprint(kwargs, seed)
    want_rows, want_events = REFERENCE["pairings"][label]
    assert rows == want_rows, f"{label}: the result rows differ from commit 82d0697's"
    assert events == want_events, f"{label}: the recorded events differ from commit 82d0697's"

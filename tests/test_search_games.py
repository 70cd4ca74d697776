"""The search players play the same games from one commit to the next.

``tests/data/search_games.json`` holds, for four pairings of the searches (`master`, `neural-search`
in both seats and in its mirror, `expert`), the SHA-256 of six games' result rows and recorded events
as played by commit 4f101f0.  The reference games (tests/test_reference_games.py) hold every other
strategy's; a change to the search's code (its worlds, its halving, its leaf) must keep these unless
it means to change the searches' games, and then say so.
"""
import json
from pathlib import Path

import pytest

from reference_games import fingerprint

HELD = json.loads((Path(__file__).parent / "data" / "search_games.json").read_text())


@pytest.mark.parametrize("pairing", sorted(HELD["pairings"]))
def test_search_games_as_commit_4f101f0(pairing, compiled):
    cleopatra, caesar = pairing.split("|")
    rows, events = fingerprint(dict(cleopatra=cleopatra, caesar=caesar), HELD["seed"], games=HELD["games"])
    want_rows, want_events = HELD["pairings"][pairing]
    assert rows == want_rows, f"{pairing}: the result rows differ from commit {HELD['commit']}'s"
    assert events == want_events, f"{pairing}: the recorded events differ from commit {HELD['commit']}'s"

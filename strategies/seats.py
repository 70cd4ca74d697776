"""STUB of the seat-gain certificate's reader (branch balance4), standing in until the strength
certificate's own ``strategies/seats.py`` lands: the same interface, reading the same package data
(``strategies/seats.json``) when it is there, else the figures measured so far.

A player's *seat gap* is, in points of score, its gain over ``tactician``'s mirror as Cleopatra minus its
gain as Caesar (each seat played against ``tactician``).  A player whose gap is within ±3 points is
*balanced*: its mirror games measure the rules, not its own lopsidedness.
"""
from __future__ import annotations

import functools
import json
from pathlib import Path

__all__ = ["seat_gap", "is_balanced", "describe", "BALANCED_POINTS"]

#: the largest seat gap, in points, of a balanced player
BALANCED_POINTS = 3.0

# measured so far (results/strength/, the both-seats issue): the lead publishes them with intervals
_MEASURED = {"neural": 10.9, "master": -3.4, "neural-search": -0.1, "tactician": 0.0}


@functools.cache
def _gaps() -> dict[str, float]:
    path = Path(__file__).with_name("seats.json")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return dict(_MEASURED)
    rows = data.get("players", data) if isinstance(data, dict) else {}
    out = {}
    for name, row in rows.items():
        gap = row.get("gap", row.get("seat_gap")) if isinstance(row, dict) else row
        if isinstance(gap, (int, float)) and not isinstance(gap, bool):
            out[name] = float(gap)
    return out or dict(_MEASURED)


def seat_gap(name: str) -> float | None:
    """The Cleopatra-seat gain minus the Caesar-seat gain, in points (None: not measured)."""
    return _gaps().get(name)


def is_balanced(name: str) -> bool | None:
    """|seat gap| <= 3 points (None: not measured)."""
    gap = seat_gap(name)
    return None if gap is None else abs(gap) <= BALANCED_POINTS


def describe(name: str) -> str:
    gap = seat_gap(name)
    if gap is None:
        return f"{name}: its seat gains are not measured"
    how = "balanced" if abs(gap) <= BALANCED_POINTS else "lopsided"
    seat = "Cleopatra" if gap > 0 else "Caesar"
    return (f"{name} plays both seats alike (seat gap {gap:+.1f} points): balanced" if how == "balanced" else
            f"{name} gains {abs(gap):.1f} points more as {seat} than in the other seat: lopsided")

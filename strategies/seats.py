"""STUB of the seat-gain certificate's reader, kept on a helper branch until the real module lands in main
(the real one replaces this file whole; its interface is the same three functions).

A level of play can gain more in one seat than the other over ``tactician``'s mirror games; such a level
cannot judge the game's balance.  ``seats.json`` (package data beside this file) holds each level's gap
in points: Cleopatra-seat gain minus Caesar-seat gain.  When the file is absent this stub falls back to
the figures measured so far (results/strength/), so the page and the documents can say them.
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

__all__ = ["seat_gap", "is_balanced", "describe", "BALANCED_POINTS"]

#: a level plays both seats alike when its gap is at most this many points
BALANCED_POINTS = 3.0
#: the gaps measured so far (points); tactician is 0 by definition (the gains are over its mirror)
_MEASURED = {"neural": 10.9, "master": -3.4, "neural-search": -0.1, "tactician": 0.0}


@lru_cache(maxsize=1)
def _gaps() -> dict[str, float]:
    path = Path(__file__).with_name("seats.json")
    if not path.exists():
        return dict(_MEASURED)
    data = json.loads(path.read_text(encoding="utf-8"))
    rows = data.get("levels", data) if isinstance(data, dict) else {}
    out = {}
    for name, v in rows.items():
        gap = v.get("gap_points", v.get("gap")) if isinstance(v, dict) else v
        if isinstance(gap, (int, float)):
            out[name] = float(gap)
    return out


def seat_gap(name: str) -> float | None:
    """Cleopatra-seat gain minus Caesar-seat gain over ``tactician``'s mirror, in points; None: unmeasured."""
    return _gaps().get(name)


def is_balanced(name: str) -> bool | None:
    """True when the level plays both seats alike (gap within ``BALANCED_POINTS``); None: unmeasured."""
    gap = seat_gap(name)
    return None if gap is None else abs(gap) <= BALANCED_POINTS


def describe(name: str) -> str:
    """The gap in plain words: "plays Cleopatra 10.9 points better than Caesar"."""
    gap = seat_gap(name)
    if gap is None:
        return "seat gap not measured"
    if round(abs(gap), 1) == 0:
        return "plays both seats alike"
    better, worse = ("Cleopatra", "Caesar") if gap > 0 else ("Caesar", "Cleopatra")
    return f"plays {better} {abs(gap):.1f} points better than {worse}"

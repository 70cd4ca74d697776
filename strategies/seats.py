"""How each player plays each seat: its gains over `tactician`'s mirror as Cleopatra and as Caesar.

A balance figure is Cleopatra's edge when one player plays both seats; it speaks of the game only
if the player is as good with Caesar's cards as with Cleopatra's.  ``seats.json`` beside this file
(written by ``python scripts/strength.py seats``, its copy in ``results/strength/``) holds, for
every measured player, its score in each seat against `tactician`, its gain over the score that
seat gets in `tactician`'s mirror on the same deals, and the seat gap (the Cleopatra gain minus the
Caesar gain), each with its 95% interval.  A player whose gap is shown to be more than ``GAP_LIMIT``
points (its whole interval beyond them, on one side) is *lopsided*: its mirror adds its own lean to the
game's, so it cannot judge balance.  A gap whose interval reaches within the limit is not shown to
exceed it: the player counts as balanced, its interval beside it (the searches, measured on a few
hundred deals a seat, have intervals of about ±8 points).
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

SEATS_FILE = Path(__file__).resolve().parent / "seats.json"
GAP_LIMIT = 3.0     # points: a larger seat gap makes a player lopsided
REFERENCE = "tactician"


def lopsided(gap: float, ci95) -> bool:
    """Whether a seat gap (points) and its 95% interval show more than GAP_LIMIT points of lean."""
    lo, hi = ci95
    return (gap > GAP_LIMIT and lo > GAP_LIMIT) or (gap < -GAP_LIMIT and hi < -GAP_LIMIT)


@lru_cache(maxsize=1)
def certificate() -> dict:
    """The measured seat gains: {player name: its row of seats.json}, the reference's row added
    (a gap of 0 by definition); empty when the file is missing."""
    if not SEATS_FILE.is_file():
        return {}
    data = json.loads(SEATS_FILE.read_text(encoding="utf-8"))
    rows = {r["name"]: r | {"balanced": not lopsided(r["seat_gap"], r["seat_gap_ci95"])} for r in data["players"]}
    rows.setdefault(data["reference"], reference_row(data["reference"], data["mirror"]["deals"]))
    return rows


def reference_row(name: str, deals: int) -> dict:
    """The reference's own row: its gains over its own mirror are 0 by definition."""
    return {"name": name, "gain_cleopatra": 0.0, "gain_caesar": 0.0, "seat_gap": 0.0, "seat_gap_ci95": [0.0, 0.0],
            "balanced": True, "deals": deals, "reference": True}


def seat_row(name: str) -> dict | None:
    """``name``'s measured row (gains, gap, intervals, deals), or None if it was not measured."""
    return certificate().get(name)


def seat_gap(name: str) -> float | None:
    """Cleopatra-seat gain minus Caesar-seat gain, in points; None if not measured."""
    row = seat_row(name)
    return None if row is None else float(row["seat_gap"])


def is_balanced(name: str) -> bool | None:
    """True if ``name`` is not shown to lean more than GAP_LIMIT points to one seat, None if not measured."""
    row = seat_row(name)
    return None if row is None else bool(row["balanced"])


def kind(name: str) -> str:
    """``name``'s kind by the certificate (``kind_of``), "not measured" if it has no row."""
    row = seat_row(name)
    return "not measured" if row is None else kind_of(row)


def kind_of(row: dict) -> str:
    """"balanced", "lopsided" or "not shown lopsided" (a gap beyond GAP_LIMIT whose interval reaches within
    it: it may judge, its interval said beside it) of a certificate row."""
    if lopsided(row["seat_gap"], row["seat_gap_ci95"]):
        return "lopsided"
    return "balanced" if abs(float(row["seat_gap"])) <= GAP_LIMIT else "not shown lopsided"


def describe(name: str) -> str:
    """``name``'s seat gap in plain words, e.g. "plays Cleopatra 10.9 points better than Caesar"."""
    row = seat_row(name)
    if row is None:
        return "seat gap not measured"
    if row.get("reference"):
        return "plays both seats alike (the reference: its gains are 0 by definition)"
    gap = float(row["seat_gap"])
    if round(abs(gap), 1) == 0:
        return "plays both seats alike"
    better, worse = ("Cleopatra", "Caesar") if gap > 0 else ("Caesar", "Cleopatra")
    return f"plays {better} {abs(gap):.1f} points better than {worse}"

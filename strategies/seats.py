"""How each player plays each seat: its gains over `tactician`'s mirror as Cleopatra and as Caesar.

A balance figure is Cleopatra's edge when one player plays both seats; it speaks of the game only
if the player is as good with Caesar's cards as with Cleopatra's.  ``seats.json`` beside this file
(written by ``python scripts/strength.py seats``, its copy in ``results/strength/``) holds, for
every measured player, its score in each seat against `tactician`, its gain over the score that
seat gets in `tactician`'s mirror, and the seat gap (the Cleopatra gain minus the Caesar gain),
each with its 95% interval.

A gap is *known* once its interval reaches at most ``KNOWN_WITHIN`` points each way (the width of the
fair band: a level cannot judge the game to a point if its own lean is uncertain by more).  A known
gap within ``GAP_LIMIT`` points is *balanced*, beyond it *lopsided*; a gap whose whole interval lies
beyond the limit is lopsided whether known or not.  Anything else is *not yet known*: a level measured
on a few hundred deals a seat is not balanced by default, it is unmeasured.
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

SEATS_FILE = Path(__file__).resolve().parent / "seats.json"
GAP_LIMIT = 3.0      # points: a larger seat gap makes a player lopsided
KNOWN_WITHIN = 1.0   # points: a gap is known once its 95% interval is at most this wide each way
REFERENCE = "tactician"

BALANCED, LOPSIDED, NOT_YET_KNOWN, NOT_MEASURED = "balanced", "lopsided", "not yet known", "not measured"


def status_of(row: dict) -> str:
    """A certificate row's status: balanced, lopsided or not yet known (see the module's docstring)."""
    gap = float(row["seat_gap"])
    lo, hi = (float(c) for c in row["seat_gap_ci95"])
    if lo > GAP_LIMIT or hi < -GAP_LIMIT:
        return LOPSIDED                       # shown beyond the limit, however wide the interval
    if (hi - lo) / 2 > KNOWN_WITHIN + 1e-9:
        return NOT_YET_KNOWN
    return BALANCED if abs(gap) <= GAP_LIMIT else LOPSIDED


@lru_cache(maxsize=1)
def certificate() -> dict:
    """The measured seat gains: {player name: its row of seats.json with its ``status``}, the reference's
    row added (a gap of 0 by definition); empty when the file is missing."""
    if not SEATS_FILE.is_file():
        return {}
    data = json.loads(SEATS_FILE.read_text(encoding="utf-8"))
    rows = {r["name"]: r | {"status": status_of(r), "balanced": status_of(r) == BALANCED} for r in data["players"]}
    rows.setdefault(data["reference"], reference_row(data["reference"], data["mirror"]["deals"]))
    return rows


def reference_row(name: str, deals: int) -> dict:
    """The reference's own row: its gains over its own mirror are 0 by definition."""
    return {"name": name, "gain_cleopatra": 0.0, "gain_caesar": 0.0, "seat_gap": 0.0, "seat_gap_ci95": [0.0, 0.0],
            "status": BALANCED, "balanced": True, "deals": deals, "reference": True}


def seat_row(name: str) -> dict | None:
    """``name``'s measured row (gains, gap, intervals, deals, status), or None if it was not measured."""
    return certificate().get(name)


def seat_gap(name: str) -> float | None:
    """Cleopatra-seat gain minus Caesar-seat gain, in points; None if not measured."""
    row = seat_row(name)
    return None if row is None else float(row["seat_gap"])


def status(name: str) -> str:
    """``name``'s status: balanced, lopsided, not yet known, or not measured (no row)."""
    row = seat_row(name)
    return NOT_MEASURED if row is None else row["status"]


def is_balanced(name: str) -> bool:
    """True only if ``name``'s gap is known (to ``KNOWN_WITHIN``) and within ``GAP_LIMIT``."""
    return status(name) == BALANCED


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

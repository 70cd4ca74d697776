"""Figures that know their precision: a verdict of "fair" or "negligible" needs the whole
95% interval inside its band, and an interval wider than the band can never lie inside it, however
the estimate falls.  Then a reader is told so, with the number of games that would do.

An interval's half-width shrinks as one over the square root of the games, so ``games`` games
with half-width ``h`` become ``games * (h / target)**2`` games with half-width ``target``; the
target is half the band, so that an estimate within half the band can be called fair.
"""
from __future__ import annotations

import math

__all__ = ["inside", "too_wide", "games_needed", "precision_warning"]


def inside(lo: float, hi: float, band: float, null: float = 0.0) -> bool:
    """The whole interval [lo, hi] lies within null ± band (fair, negligible)."""
    return null - band <= lo and hi <= null + band


def too_wide(lo: float, hi: float, band: float) -> bool:
    """The interval is wider than the band: it cannot lie inside, whatever the estimate."""
    return (hi - lo) / 2 > band


def _round_up(n: float) -> int:
    """``n`` rounded up to two significant digits (12,345 -> 13,000): a count people can type."""
    if n <= 100:
        return max(1, math.ceil(n))
    step = 10 ** (int(math.log10(n)) - 1)
    return int(math.ceil(n / step) * step)


def games_needed(lo: float, hi: float, games: int, band: float) -> int:
    """Games for the interval to narrow to half the band (see the module's docstring)."""
    half = (hi - lo) / 2
    return _round_up(games * (half / (band / 2)) ** 2)


def precision_warning(what: str, lo: float, hi: float, band: float, games: int, noun: str = "games",
                      scale: float = 100, unit: str = "points") -> str | None:
    """One line when [lo, hi] is wider than ±band, else None: "warning: <what>'s 95% interval (±1.4
    points) is wider than the ±1-point band: about 8,000 games would narrow it to ±0.5"."""
    if not (math.isfinite(lo) and math.isfinite(hi)) or not too_wide(lo, hi, band):
        return None
    return (f"warning: {what}: the 95% interval (±{scale * (hi - lo) / 2:.1f} {unit}) is wider than the "
            f"±{scale * band:g}-{unit.rstrip('s')} band; about {games_needed(lo, hi, games, band):,} {noun} "
            f"would narrow it to ±{scale * band / 2:g}")

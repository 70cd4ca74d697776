"""How every number of a report prints: one unit on each, one sign format, the decimals its interval supports.

Units (``Claim.unit``, the units column of every table):

* ``points``: a difference of scores or shares, x 100 (Cleopatra's score - 50%, an ordering's worth,
  a change of draw rate); always signed;
* ``%``: a share or a score, x 100 (71.5%); unsigned;
* ``turns``, ``votes``, ``lead changes``, ``VP``, ``cards``: means per game, as they are; signed when the
  figure is a difference (a rules change's effect on the length);
* ``Elo``: a rating, signed, no decimals.

The sign format, everywhere (text, tables, the command line): a difference carries ``+`` or the
minus sign U+2212 (``−0.3 turns``), a level carries none (``32.04 turns``); a hyphen is never a
minus.
"""
from __future__ import annotations

import math

__all__ = ["MINUS", "SHARE_UNITS", "UNIT_WORDS", "digits", "fmt", "fmt_ci", "quote", "with_unit", "signed_default",
           "metric_unit", "diff_unit", "margin"]

MINUS = "\u2212"
#: units whose figures are shares or differences of shares, printed x 100
SHARE_UNITS = ("points", "%")
#: every unit a figure may carry, as printed after it (``%`` sticks to the number)
#: the level every Elo figure of a report is counted from (0 Elo), as results/strength/ counts them
ELO_ANCHOR = "tactician"
UNIT_WORDS = ("points", "%", "turns", "votes", "lead changes", "VP", "cards", "Elo")


def signed_default(unit: str) -> bool:
    """Points and ratings are differences by nature; other units are levels unless a claim says otherwise."""
    return unit in ("points", "Elo")


def digits(lo: float, hi: float, unit: str) -> int:
    """Decimals for a figure and its 95% interval [lo, hi]: to the first significant digit of the
    half-width (10.1 [10.0, 10.2]), one more where the middle would print as zero (−0.04 [−0.20, +0.17]).
    Points and shares count in points (x 100) with at least one decimal; a mean keeps at least two."""
    if unit == "Elo":
        return 0
    scale, least = (100.0, 1) if unit in SHARE_UNITS else (1.0, 2)
    hw = scale * (hi - lo) / 2
    if not math.isfinite(hw) or hw <= 0:
        return least
    d = max(least, -math.floor(math.log10(hw) + 1e-9))
    mid = scale * (lo + hi) / 2
    if mid != 0 and round(abs(mid), d) == 0:
        d += 1
    return int(min(d, 4))


def _number(x: float, d: int, signed: bool) -> str:
    text = f"{abs(x):.{d}f}"
    if float(text) == 0:  # no "−0.0" and no "+0.0": a zero that prints as zero has no sign
        return text
    if x < 0:
        return MINUS + text
    return ("+" if signed else "") + text


def fmt(x: float, unit: str, ci=None, signed: bool | None = None) -> str:
    """The number of a figure in ``unit``, without the unit's word (``+10.1``, ``71.5``, ``−0.33``), to
    the decimals its interval ``ci`` supports; ``signed`` (default: by unit) for a difference."""
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return "n/a"
    signed = signed_default(unit) if signed is None else signed
    d = digits(*ci, unit) if ci is not None else (digits(0, 0, unit) if unit != "Elo" else 0)
    scale = 100.0 if unit in SHARE_UNITS else 1.0
    return _number(scale * x, d, signed)


def _with_unit(number: str, unit: str) -> str:
    return number + "%" if unit == "%" else f"{number} {unit}"


def fmt_ci(lo: float, hi: float, unit: str, signed: bool | None = None, words: bool = False) -> str:
    """A 95% interval: ``[+10.0, +10.2]`` (``[71.4%, 71.6%]`` for shares); ``words``: ``+10.0 to +10.2 points``."""
    a, b = fmt(lo, unit, (lo, hi), signed), fmt(hi, unit, (lo, hi), signed)
    if words:
        return f"{a} to {_with_unit(b, unit)}" if unit != "%" else f"{a}% to {b}%"
    return f"[{a}%, {b}%]" if unit == "%" else f"[{a}, {b}]"


def quote(value: float, lo: float, hi: float, unit: str, signed: bool | None = None) -> str:
    """A figure with its unit and its 95% interval: ``+10.1 points [+10.0, +10.2]``, ``71.5% [71.4%, 71.6%]``."""
    return f"{_with_unit(fmt(value, unit, (lo, hi), signed), unit)} {fmt_ci(lo, hi, unit, signed)}"


def with_unit(value: float, unit: str, ci=None, signed: bool | None = None) -> str:
    """A figure with its unit and no interval: ``+10.1 points``, ``32.04 turns``."""
    return _with_unit(fmt(value, unit, ci, signed), unit)


_METRIC_UNITS = {"seat_advantage": "points", "turns": "turns", "lead_changes": "lead changes"}


def metric_unit(metric: str, kind: str = "") -> str:
    """The unit of one of ``ccsim.analyses.metrics``' metrics (``kind``: ``rate`` for a share)."""
    if metric in _METRIC_UNITS:
        return _METRIC_UNITS[metric]
    if kind == "rate" or metric.startswith("end_") or metric in ("draw_rate", "leader_at_half", "decisiveness"):
        return "%"
    if metric.startswith("vp_"):
        return "VP"
    if metric.startswith(("played_", "vetoed_")):
        return "cards"
    return "votes"   # votes, votes_<group>, ties, reversals, exceptional_votes


def margin(seoi: float, unit: str) -> str:
    """A band around a figure of ``unit`` in words: ``±1 point``, ``±0.5 turns`` (shares differ by points)."""
    unit = diff_unit(unit)
    x = 100 * seoi if unit in SHARE_UNITS else seoi
    word = unit[:-1] if unit in ("points", "turns", "votes") and x == 1 else unit
    return f"\u00b1{x:g} {word}"


def diff_unit(unit: str) -> str:
    """The unit of a difference of two figures in ``unit``: two shares differ by points."""
    return "points" if unit == "%" else unit

"""Headline claims: a figure, its interval, the players it rests on, the command that
reproduces it, and whether it survives the other levels of play.

A claim is stated at one *context* (a skill level, or an opponent) and checked
at every other context the study measured it at.  Its robustness verdict:

* ``holds at every level tested (a, b, c)``: every interval lies on the same
  side of the null as the stated figure;
* otherwise the contexts where it does not: ``reverses at X`` (the interval
  lies on the other side) and ``not significant at Y`` (it contains the null).

Descriptive figures (no null: turns per game) get the range across contexts.
Every sentence is made here from the numbers, so a change in the numbers
changes the words (tests/test_report.py).
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field

__all__ = ["Estimate", "Claim", "verdict", "fmt", "fmt_ci", "side"]


@dataclass(frozen=True)
class Estimate:
    """One measurement of a claim's figure: where (``context``), value and 95% interval."""
    context: str
    value: float
    lo: float
    hi: float
    games: int = 0


def side(e: Estimate, null: float) -> int:
    """+1 / -1 when the interval lies wholly above / below ``null``, 0 when it contains it."""
    if e.lo > null:
        return 1
    if e.hi < null:
        return -1
    return 0


def digits(lo: float, hi: float, unit: str) -> int:
    """Decimals for a figure and its 95% interval [lo, hi]: to the first significant digit of the
    half-width (10.1 [10.0, 10.2]), one more where the middle would print as zero (-0.04 [-0.20, +0.17]).
    Points and shares count in points (x 100); a mean keeps at least two decimals."""
    scale = 1.0 if unit == "mean" else 100.0
    least = 2 if unit == "mean" else 1
    hw = scale * (hi - lo) / 2
    if not math.isfinite(hw) or hw <= 0:
        return least
    d = max(least, -math.floor(math.log10(hw) + 1e-9))
    mid = scale * (lo + hi) / 2
    if mid != 0 and round(abs(mid), d) == 0:
        d += 1
    return int(min(d, 4))


def fmt(x: float, unit: str, ci=None) -> str:
    """A figure in its unit: ``points`` (score x 100, signed), ``%`` (a share), ``Elo`` or a plain mean;
    with ``ci`` (its interval) to the decimals the interval supports."""
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return "n/a"
    d = digits(*ci, unit) if ci is not None else (2 if unit == "mean" else 1)
    if unit == "points":
        return f"{100 * x:+.{d}f}"
    if unit == "%":
        return f"{100 * x:.{d}f}%"
    if unit == "Elo":
        return f"{x:+.0f}"
    return f"{x:.{d}f}"


def fmt_ci(lo: float, hi: float, unit: str) -> str:
    return f"[{fmt(lo, unit, (lo, hi))}, {fmt(hi, unit, (lo, hi))}]"


def verdict(stated: Estimate, others, null: float | None, noun: str = "level") -> str:
    """The robustness verdict of a figure stated at ``stated`` and measured at ``others`` too."""
    every = [stated] + [e for e in others if e.context != stated.context]
    names = ", ".join(e.context for e in every)
    if null is None:
        lo = min(every, key=lambda e: e.value)
        hi = max(every, key=lambda e: e.value)
        return f"ranges from {lo.value:.2f} ({lo.context}) to {hi.value:.2f} ({hi.context}) across the {noun}s tested"
    direction = side(stated, null) or (1 if stated.value >= null else -1)
    reverses = [e.context for e in every if side(e, null) == -direction]
    unsure = [e.context for e in every if side(e, null) == 0]
    if not reverses and not unsure:
        return (f"holds at every {noun} tested ({names})" if len(every) > 1
                else f"holds at the one {noun} tested ({names}); not tested elsewhere")
    parts = []
    if reverses:
        parts.append("reverses at " + ", ".join(reverses))
    if unsure:
        parts.append("not significant at " + ", ".join(unsure))
    return "; ".join(parts)


@dataclass
class Claim:
    """A headline claim as data (one entry of ``claims.json``).

    ``json_path`` locates the figure in the ``--json`` output of ``command``:
    keys, list indices, or ``key=value[&key=value...]`` to pick the one element of a
    list of objects that matches.
    """
    id: str
    section: str
    statement: str
    value: float
    lo: float
    hi: float
    unit: str
    level: str
    rests_on: str
    command: str
    json_path: list
    verdict: str
    games: int
    estimates: list = field(default_factory=list)

    def to_json(self) -> dict:
        d = asdict(self)
        d["estimates"] = [asdict(e) if isinstance(e, Estimate) else e for e in self.estimates]
        return d

    def sentence(self) -> str:
        return f"{self.statement} Robustness: {self.verdict}."


def lookup(obj, path):
    """The value at ``path`` (a claim's ``json_path``) in a command's JSON output."""
    for key in path:
        if key == "1-x":  # the figure is the other side's share: the command reports the first entrant's
            obj = 1 - obj
        elif isinstance(key, str) and "=" in key and isinstance(obj, list):
            want = dict(kv.split("=", 1) for kv in key.split("&"))
            hits = [x for x in obj if all(str(x.get(k)) == v for k, v in want.items())]
            if len(hits) != 1:
                raise KeyError(f"{key}: {len(hits)} matches")
            obj = hits[0]
        else:
            obj = obj[key]
    return obj

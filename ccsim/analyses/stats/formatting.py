"""Numbers for people and for JSON (``ccsim.analyses.stats``): percents a reader can trust,
and floats JSON can hold."""

from __future__ import annotations

import math

__all__ = ["json_number", "format_percent", "format_percent_ci", "format_points"]


def json_number(x):
    """A float for JSON: NaN and the infinities become None (null)."""
    x = float(x)
    return x if math.isfinite(x) else None


def format_percent(x, width: int = 0) -> str:
    """A share as a percent a reader can trust: one decimal between 1% and 99%, and near 0% or
    100% enough decimals for two significant digits of the distance, so 318 wins in 1,000,000
    read 0.032%, not 0.0%. Only an exact 0 or 1 prints as 0.0% or 100.0%; NaN prints as n/a."""
    x = float(x)
    if not math.isfinite(x):
        return f"{'n/a':>{width}}"
    p = 100 * x
    near = min(abs(p), abs(100 - p))
    decimals = 1 if near == 0 or near >= 1 else 1 + max(0, -math.floor(math.log10(near)))
    return f"{p:{width}.{decimals}f}%"


def format_percent_ci(rate, lo, hi) -> str:
    """'rate [lo, hi]' in percent, each as format_percent prints it."""
    return f"{format_percent(rate)} [{format_percent(lo)}, {format_percent(hi)}]"


def format_points(x: float) -> str:
    """A share as signed points, one decimal ("+0.9", "-1.2"), a figure of zero written 0.0, unsigned, as the
    published answer writes it."""
    v = round(100 * float(x), 1)
    return "0.0" if v == 0 else f"{v:+.1f}"

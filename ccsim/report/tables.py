"""How a section's tables show on the page: every figure in its unit, as in the text.

The Parquet tables keep the analyses' own scale (shares 0..1) for machines; the page shows
each quantity a section declares (``Show``) in its unit (``ccsim.report.units``): a seat
advantage of 0.1008 as ``+10.1`` under the header ``seat_advantage (points)``, with the
decimals its row's interval supports.  A table whose rows mix units (one metric a row)
carries a ``unit`` column, and its ``Show`` reads the unit from it.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ccsim.runner.changes import RESERVED as BASE
from ccsim.runner.parameters import STANDARD_RULES
from ccsim.report.units import MINUS, diff_unit, fmt

__all__ = ["Show", "shown", "matrix_shows", "MAX_ROWS"]

MAX_ROWS = 60  # a longer table is in its Parquet file, shown here in its first rows


@dataclass(frozen=True)
class Show:
    """A figure's column and its interval's (``cols``: value[, lo, hi]) in ``unit`` ("" for the row's
    ``unit`` column); ``difference``: the columns are differences of that unit (signed; shares in points)."""
    cols: tuple
    unit: str = ""
    difference: bool = False


def matrix_shows(df: pd.DataFrame, unit: str, first: str = "entrant") -> list:
    """Every column of a matrix (but its row labels) in ``unit``."""
    return [Show((c,), unit) for c in df.columns if c != first]


def _plain(x):
    """A cell with no declared unit: counts with thousands separators, other numbers to 4 digits; the
    standard rules' arm by name (its key in the Parquet files is a contract)."""
    if isinstance(x, str) and x == BASE:
        return STANDARD_RULES
    if isinstance(x, (float, np.floating)):
        if not np.isfinite(x):
            return ""
        if float(x).is_integer() and abs(x) >= 1000:  # a count stored as float (games, deals)
            return f"{int(x):,}"
        text = f"{x:.4g}" if abs(x) >= 1e-3 or x == 0 else f"{x:.2e}"
        return text.replace("-", MINUS, 1) if text.startswith("-") else text
    if isinstance(x, (int, np.integer)) and not isinstance(x, bool) and abs(x) >= 1000:
        return f"{int(x):,}"
    return x


def _row_unit(s: Show, row) -> str:
    unit = s.unit or row.get("unit", "")
    return diff_unit(unit) if s.difference else unit


def _format_row(row: pd.Series, s: Show) -> list:
    unit = _row_unit(s, row)
    vals = [row[c] for c in s.cols]
    if not unit or any(not isinstance(v, (int, float, np.number)) for v in vals):
        return [_plain(v) for v in vals]
    ci = (float(vals[1]), float(vals[2])) if len(vals) == 3 and np.isfinite(vals[1:]).all() else None
    signed = True if s.difference else None
    return ["" if not np.isfinite(v) else fmt(float(v), unit, ci, signed) for v in vals]


def shown(df: pd.DataFrame, shows: list) -> pd.DataFrame:
    """The first ``MAX_ROWS`` rows of ``df`` as text, the declared quantities in their units, their
    headers naming the unit (``value (points)``; ``value`` alone when the row's unit column says it)."""
    head = df.head(MAX_ROWS).reset_index(drop=True)
    out = head.astype(object).map(_plain)
    names = {}
    for s in shows:
        cols = [c for c in s.cols if c in head.columns]
        if len(cols) != len(s.cols):
            continue
        cells = [_format_row(r, s) for _, r in head.iterrows()]
        for j, c in enumerate(cols):
            out[c] = [row[j] for row in cells]
            if s.unit:
                names[c] = f"{c} ({diff_unit(s.unit) if s.difference else s.unit})"
    out.columns.name = None  # a matrix's column axis name would print as a stray header cell
    return out.rename(columns=names)

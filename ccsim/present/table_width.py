"""Tables and prose that fit a terminal: every summary a command prints fits its width (100 columns
at most unless ``--wide``), by wrapping the label column and leaving out the columns a reader can
spare, named under the table (``--wide``, ``--json`` and ``--out`` hold everything).

A table is a list of ``Col`` and rows of cells (strings); ``table`` lays it out two spaces apart.
``paragraph`` wraps prose.  ``width=None`` means no limit (``--wide``).
"""
from __future__ import annotations

import shutil
import textwrap
from dataclasses import dataclass

__all__ = ["Col", "table", "paragraph", "fit_lines", "terminal_width", "MAX_WIDTH"]

#: the widest a summary gets without --wide (a 100-column terminal)
MAX_WIDTH = 100
GAP = "  "


@dataclass(frozen=True)
class Col:
    """A column: its header, right-aligned or not, and whether it may go at a narrow width
    (``spare`` > 0: the highest level goes first) or wrap (the label column)."""
    header: str
    right: bool = False
    spare: int = 0
    wrap: bool = False


def terminal_width(wide: bool = False) -> int | None:
    """The width a summary must fit: the terminal's (COLUMNS, else 100 when not a terminal),
    at most 100; None (no limit) with ``--wide``."""
    return None if wide else min(MAX_WIDTH, shutil.get_terminal_size((MAX_WIDTH, 24)).columns)


def _natural(cols, rows) -> list[int]:
    return [max([len(c.header)] + [len(r[k]) for r in rows]) for k, c in enumerate(cols)]


def _total(widths, shown, indent: str, gap: str = GAP) -> int:
    return len(indent) + sum(widths[k] for k in shown) + len(gap) * (len(shown) - 1)


def _shown(cols, widths, width: int | None, indent: str, gap: str) -> list[int]:
    """The columns that stay: all without a limit, else the sparest leave first (columns of one
    ``spare`` level together) until it fits."""
    shown = list(range(len(cols)))
    for level in sorted({c.spare for c in cols if c.spare}, reverse=True):
        if width is None or _total(widths, shown, indent, gap) <= width:
            break
        shown = [k for k in shown if cols[k].spare != level]
    return shown


def _cell_lines(text: str, w: int, wrap: bool) -> list[str]:
    return (textwrap.wrap(text, w, break_on_hyphens=False) or [""]) if wrap and len(text) > w else [text]


def table(cols: list[Col], rows: list[list[str]], width: int | None = None, indent: str = "",
          gap: str = GAP) -> list[str]:
    """The table's lines, fitted to ``width``: spare columns left out (named in a last line), then
    the wrapping column wrapped onto more lines; columns ``gap`` apart."""
    widths = _natural(cols, rows)
    shown = _shown(cols, widths, width, indent, gap)
    over = 0 if width is None else _total(widths, shown, indent, gap) - width
    wraps = [k for k in shown if cols[k].wrap]
    while over > 0 and wraps:  # the widest wrapping column gives up a column at a time, down to 12
        k = max(wraps, key=lambda k: widths[k])
        if widths[k] <= 12:
            break
        widths[k] -= 1
        over -= 1
    out = []
    for cells in [[c.header for c in cols], *rows]:
        parts = {k: _cell_lines(cells[k], widths[k], cols[k].wrap) for k in shown}
        for j in range(max(len(p) for p in parts.values())):
            line = gap.join((p[j] if j < len(p) else "").rjust(widths[k]) if cols[k].right else
                            (p[j] if j < len(p) else "").ljust(widths[k]) for k, p in parts.items())
            out.append((indent + line).rstrip())
    left = list(dict.fromkeys(cols[k].header.strip() or "a column" for k in range(len(cols)) if k not in shown))
    if left:
        out += paragraph(f"(not shown, to fit in {width} columns: {', '.join(left)}; --wide shows them)", width,
                         indent)
    return out


def paragraph(text: str, width: int | None, indent: str = "") -> list[str]:
    """Prose wrapped to ``width`` (continued lines indented two more spaces); one line without a limit."""
    if width is None or len(indent) + len(text) <= width:
        return [indent + text]
    return textwrap.wrap(text, width, initial_indent=indent, subsequent_indent=indent + "  ",
                         break_on_hyphens=False, break_long_words=False)


def fit_lines(lines: list[str], width: int | None) -> str:
    """Lines joined, any still wider than ``width`` wrapped as prose (keeping its indent)."""
    out = []
    for line in lines:
        pad = line[:len(line) - len(line.lstrip())]
        out += paragraph(line.strip(), width, pad) if width is not None and len(line) > width else [line]
    return "\n".join(out)

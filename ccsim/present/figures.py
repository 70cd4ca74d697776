"""What the presentation room's figures share: a cell's text colour, a signed figure as printed, a PNG saved.

Imported by the drawing modules only (it loads matplotlib's Agg backend)."""
from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

__all__ = ["text_color", "signed", "save_png"]


def text_color(rgba, muted: bool = False) -> str:
    """Black on a light cell, white on a dark one, by the cell's relative luminance (WCAG): below 0.179
    white text has the better contrast.  ``muted`` (a figure not significant): a grey on the same side."""
    r, g, b = ((c / 12.92) if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgba[:3])
    dark = 0.2126 * r + 0.7152 * g + 0.0722 * b < 0.179
    if muted:
        return "0.8" if dark else "0.4"
    return "white" if dark else "black"


def signed(v: float, decimals: int = 1) -> str:
    """A signed figure with the minus sign U+2212, as the report prints it (``+1.2``, ``−0.4``)."""
    return f"{v:+.{decimals}f}".replace("-", "\u2212")


def save_png(fig, path):
    """Save ``fig`` as PNG at ``path`` and close it (returns the path); with no path, return the open figure."""
    if path is None:
        return fig
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120, bbox_inches="tight")
    plt.close(fig)
    return path

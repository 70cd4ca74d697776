"""The one score-matrix heatmap: row's score against column, %, bold where the 95% interval
excludes 50%, "—" on the diagonal, blank where a pairing was not played.  The tournament's figure
(``ccsim tournament --out``, the report's ladder) and the ordering meta-game's (the report) draw
their cells here."""
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from ccsim.present.figures import text_color  # noqa: E402


def draw_scores(ax, labels, score, lo, hi, vmin: float = 0, vmax: float = 100, cell=None, fontsize: float = 9,
                muted: bool = False, ticks: dict | None = None):
    """A score matrix's cells on ``ax``: ``score``, ``lo`` and ``hi`` in % (row against column); ``cell``
    formats a value (default: whole points away from 50, one decimal near it); ``muted`` greys the
    figures whose interval includes 50%.  Returns the image (for its colour bar)."""
    k = len(labels)
    cell = cell or (lambda x: f"{x:.0f}" if abs(x - 50) >= 10 else f"{x:.1f}")
    im = ax.imshow(np.where(np.eye(k, dtype=bool), np.nan, score), cmap="RdBu", vmin=vmin, vmax=vmax)
    for a in range(k):
        for b in range(k):
            if a == b:
                ax.text(b, a, "—", ha="center", va="center", color="0.5")
                continue
            if np.isnan(score[a, b]):
                continue
            sig = lo[a, b] > 50 or hi[a, b] < 50
            colour = im.cmap(im.norm(score[a, b]))
            ax.text(b, a, cell(score[a, b]), ha="center", va="center", fontsize=fontsize,
                    fontweight="bold" if sig else "normal",
                    color=text_color(colour, not sig) if muted else text_color(colour))
    ticks = ticks or {"fontsize": 9}
    ax.set_xticks(range(k))
    ax.set_yticks(range(k))
    ax.set_xticklabels(labels, rotation=45, ha="right", **ticks)
    ax.set_yticklabels(labels, **ticks)
    return im


def score_heatmap(labels, score, lo, hi, title: str, ylabel: str = "entrant (row), by Bradley-Terry rank"):
    """A score matrix (row's score against column, 0..1, with its interval ``lo``, ``hi``) as a heatmap:
    bold where the interval excludes 50%, "—" on the diagonal, a blank cell for a pairing not played (NaN)."""
    m = 100 * np.asarray(score, dtype=float)
    k = len(labels)
    fig, ax = plt.subplots(figsize=(3.4 + 0.72 * k, 2.4 + 0.62 * k))
    im = draw_scores(ax, labels, m, 100 * np.asarray(lo, dtype=float), 100 * np.asarray(hi, dtype=float),
                     fontsize=7.5 if k > 8 else 9)
    ax.set_xlabel("opponent (column)")
    ax.set_ylabel(ylabel)
    cb = fig.colorbar(im, ax=ax, fraction=0.046, pad=0.04)
    cb.set_label("row's score against column, %")
    ax.set_title(title, fontsize=9.5)
    fig.tight_layout()
    return fig


def tournament_heatmap(t, path=None, title: str | None = None):
    """A tournament's (``ccsim.analyses.tournament.Tournament``) score matrix as a heatmap (rows and
    columns by Bradley-Terry rank); returns the figure, saved as PNG at ``path`` if given."""
    order = list(t.ratings["entrant"])
    i = t.info
    fig = score_heatmap(order, t.score.loc[order, order].to_numpy(), t.score_lo.loc[order, order].to_numpy(),
                        t.score_hi.loc[order, order].to_numpy(),
                        title or f"Round robin: {i['deals']:,} deals per pairing"
                                 + (f" ({i['search_deals']:,} with a search player)" if i.get("search_deals") else "")
                                 + ", each played twice, seats swapped\n"
                                 f"seed {i['seed']}; rules: {i['rules']}; bold: 95% interval excludes 50%")
    if path is not None:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(path, dpi=120, bbox_inches="tight")
    return fig

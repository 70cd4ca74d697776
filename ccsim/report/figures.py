"""The report's plots: each returns an open matplotlib figure (the report embeds it as PNG).

Every plot has a title naming what it rests on, axis labels with units, 95%
interval bars where there is an interval, and one colour per level of play.
"""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.colors import to_rgba  # noqa: E402

from ccsim.present.figures import signed, text_color  # noqa: E402
from ccsim.present.heatmap import draw_scores  # noqa: E402

__all__ = ["level_forest", "stacked_shares", "payoff_heatmap", "ratings_plot", "length_boxes", "skill_panels"]

_COLORS = ["C0", "C1", "C2", "C3", "C4", "C5", "C6", "C7", "C8", "C9"]
_MARKERS = ["o", "s", "D"]


def level_forest(df: pd.DataFrame, item: str, level: str, title: str, xlabel: str, null: float | None = 0.0,
                 scale: float = 100.0, levels=None, legend: str = "level of play", band: float | None = None):
    """One row per ``item``, one marker per ``level`` (dodged), ``value`` with its [``lo``, ``hi``] bar;
    ``band``: a grey band of ±band around the null (the smallest effect of interest)."""
    items = list(dict.fromkeys(df[item]))
    levels = list(levels or dict.fromkeys(df[level]))
    n, k = len(items), len(levels)
    fig, ax = plt.subplots(figsize=(8.5, 1.3 + 0.34 * n * max(1, k) ** 0.6 + 0.2 * k))
    step = 0.7 / max(k, 1)
    for j, lv in enumerate(levels):
        d = df[df[level] == lv].set_index(item)
        ys, xs, lo, hi = [], [], [], []
        for i, it in enumerate(items):
            if it in d.index:
                r = d.loc[it]
                ys.append(i - 0.35 + step * (j + 0.5))
                xs.append(scale * r["value"])
                lo.append(scale * (r["value"] - r["lo"]))
                hi.append(scale * (r["hi"] - r["value"]))
        # past ten levels the colours come round again: a marker of its own tells the second round apart
        ax.errorbar(xs, ys, xerr=[lo, hi], fmt=_MARKERS[j // 10 % 3], ms=4, capsize=2.5, color=_COLORS[j % 10],
                    label=lv)
    if null is not None:
        ax.axvline(scale * null, color="0.4", lw=1, ls="--")
        if band:
            ax.axvspan(scale * (null - band), scale * (null + band), color="0.9", zorder=0, lw=0)
    ax.set_yticks(range(n))
    ax.set_yticklabels(items, fontsize=9)
    ax.set_ylim(n - 0.5, -0.5)
    ax.set_xlabel(xlabel)
    ax.set_title(title, fontsize=10)
    ax.grid(axis="x", color="0.9")
    if k > 1:
        ax.legend(title=legend, fontsize=8, title_fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.tight_layout()
    return fig


def stacked_shares(df: pd.DataFrame, title: str, xlabel: str):
    """One horizontal bar per row of ``df`` (index: level), its columns stacked (shares summing to 1 or
    means), labelled where wide enough."""
    fig, ax = plt.subplots(figsize=(8.5, 1.4 + 0.45 * len(df)))
    left = np.zeros(len(df))
    total = df.to_numpy().sum(axis=1).max() or 1.0
    for j, col in enumerate(df.columns):
        v = df[col].to_numpy(dtype=float)
        ax.barh(range(len(df)), v, left=left, color=_COLORS[j % 10], label=col, height=0.6)
        for i, (x, w) in enumerate(zip(left, v)):
            if w > 0.08 * total:
                ax.text(x + w / 2, i, f"{w:.2f}" if total > 1.5 else f"{100 * w:.0f}%", ha="center", va="center",
                        fontsize=8, color=text_color(to_rgba(_COLORS[j % 10])))
        left += v
    ax.set_yticks(range(len(df)))
    ax.set_yticklabels(df.index, fontsize=9)
    ax.invert_yaxis()
    ax.set_xlabel(xlabel)
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8, ncol=min(4, len(df.columns)), loc="upper center", bbox_to_anchor=(0.5, -0.25 - 0.02 * len(df)))
    fig.tight_layout()
    return fig


def payoff_heatmap(score: pd.DataFrame, lo: pd.DataFrame, hi: pd.DataFrame, mixture: pd.DataFrame, title: str):
    """The ordering meta-game: row's score against column (%), bold where the 95% interval excludes 50%,
    with the equilibrium mixture (``mixture``: ordering, weight, weight_lo, weight_hi) beside it."""
    labels = list(score.index)
    k = len(labels)
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(5.5 + 0.75 * k, 2.8 + 0.55 * k),
                                 gridspec_kw=dict(width_ratios=[k, 2.4], wspace=0.06))
    draw_scores(ax, labels, 100 * score.to_numpy(dtype=float), 100 * lo.to_numpy(dtype=float),
                100 * hi.to_numpy(dtype=float), vmin=35, vmax=65, cell=lambda x: f"{x:.1f}", fontsize=8, muted=True,
                ticks={"fontsize": 8, "family": "monospace"})
    ax.set_xlabel("opponent's ordering (column)")
    ax.set_ylabel("ordering (row); cells: row's score, %")
    mx = mixture.set_index("ordering").reindex(labels)
    w = 100 * mx["weight"].fillna(0).to_numpy()
    err = [w - 100 * mx["weight_lo"].fillna(0).to_numpy(), 100 * mx["weight_hi"].fillna(0).to_numpy() - w]
    bx.barh(range(k), w, color="C2", height=0.6, xerr=np.clip(err, 0, None), capsize=2,
            error_kw=dict(ecolor="0.3", lw=0.8))
    for i, x in enumerate(w):
        bx.text(106, i, f"{x:.0f}%", va="center", fontsize=8)
    bx.set_ylim(k - 0.5, -0.5)
    bx.set_yticks([])
    bx.set_xlim(0, 125)
    bx.set_xticks([0, 25, 50, 75, 100])
    bx.set_xlabel("equilibrium weight, % (bootstrap 95%)")
    fig.suptitle(title, fontsize=10)
    return fig


def length_boxes(lengths: pd.DataFrame, levels, title: str):
    """Turns and votes per game at each level: box p25–p75, whiskers p5–p95, median line, mean dot."""
    fig, axes = plt.subplots(1, 2, figsize=(10, 1.4 + 0.5 * len(levels)), sharey=True)
    for ax, measure in zip(axes, ("turns", "votes")):
        d = lengths[lengths["measure"] == measure].set_index("level").reindex(levels)
        for i, (lv, r) in enumerate(d.iterrows()):
            c = _COLORS[i % 10]
            ax.plot([r["p5"], r["p95"]], [i, i], color=c, lw=1)
            ax.add_patch(plt.Rectangle((r["p25"], i - 0.25), r["p75"] - r["p25"], 0.5, color=c, alpha=0.35))
            ax.plot([r["p50"], r["p50"]], [i - 0.25, i + 0.25], color=c, lw=2)
            ax.plot(r["mean"], i, "o", color="black", ms=3)
        ax.set_yticks(range(len(levels)))
        ax.set_yticklabels(levels, fontsize=9)
        ax.set_ylim(len(levels) - 0.5, -0.5)
        ax.set_xlabel(f"{measure} per game")
        ax.grid(axis="x", color="0.9")
    fig.suptitle(title + "\nbox: the middle half of games; whiskers: 5% to 95%; line: median; dot: mean", fontsize=10)
    fig.tight_layout()
    return fig


def ratings_plot(ratings: pd.DataFrame, title: str, zero: str = "the field's mean"):
    """Bradley–Terry ratings (Elo scale) with their 95% intervals, strongest on top."""
    r = ratings.sort_values("elo", ascending=True)
    fig, ax = plt.subplots(figsize=(8.5, 1.2 + 0.38 * len(r)))
    y = np.arange(len(r))
    ax.errorbar(r["elo"], y, xerr=[r["elo"] - r["elo_lo"], r["elo_hi"] - r["elo"]], fmt="o", capsize=3, color="C0")
    for yi, (e, hi) in enumerate(zip(r["elo"], r["elo_hi"])):
        ax.annotate(signed(e, 0), (hi, yi), xytext=(5, 0), textcoords="offset points", va="center", fontsize=8)
    ax.set_yticks(y)
    ax.set_yticklabels(r["entrant"], fontsize=9)
    ax.margins(x=0.1)
    ax.set_xlabel(f"rating, Elo points (0 = {zero}; 95% bootstrap interval)")
    ax.set_title(title, fontsize=10)
    ax.grid(axis="x", color="0.9")
    fig.tight_layout()
    return fig


def skill_panels(panels: list, levels: list, labels: list):
    """Convergence with skill: one small panel per kind of claim, each claim's figure (95% interval) at each
    level, weakest to strongest, evenly spaced (``labels``: each level's name and rating), a dashed null and a
    grey band of ± the smallest effect of interest.  ``panels``: dicts of title, unit, null, band and series
    [(label, estimates)]."""
    ncol = min(2, len(panels))
    nrow = -(-len(panels) // ncol)
    fig, axes = plt.subplots(nrow, ncol, figsize=(9.6, 2.5 * nrow), squeeze=False)
    at = {lv: i for i, lv in enumerate(levels)}
    for ax, p in zip(axes.ravel(), panels):
        scale = 100.0 if p["unit"] in ("points", "%") else 1.0
        k = len(p["series"])
        for j, (label, ests) in enumerate(p["series"]):
            dx = (j - (k - 1) / 2) * min(0.08, 0.5 / k)   # dodge: the intervals at one level do not hide each other
            ax.errorbar([at[e.context] + dx for e in ests], [scale * e.value for e in ests],
                        yerr=[[scale * (e.value - e.lo) for e in ests], [scale * (e.hi - e.value) for e in ests]],
                        fmt="o-", ms=3, lw=1, capsize=2, color=_COLORS[j % 10], label=label)
        if p["null"] is not None:
            ax.axhline(scale * p["null"], color="0.4", lw=0.8, ls="--")
            ax.axhspan(scale * (p["null"] - p["band"]), scale * (p["null"] + p["band"]), color="0.9", zorder=0, lw=0)
        ax.set_xticks(range(len(levels)))
        ax.set_xticklabels(labels, fontsize=7)
        ax.set_xlim(-0.5, len(levels) - 0.5)
        ax.set_title(p["title"], fontsize=8)
        ax.tick_params(axis="y", labelsize=7)
        ax.grid(axis="y", color="0.92")
        if k > 1:
            ax.legend(fontsize=6, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    for ax in axes.ravel()[len(panels):]:
        ax.axis("off")
    fig.suptitle("Every claim at each level of play, weakest to strongest (95% intervals; grey band: the smallest "
                 "effect of interest)", fontsize=9.5)
    fig.tight_layout()
    return fig

"""Plots of the ordering studies (ccsim.analyses.orderings.study draws nothing: these draw its tables),
PNG files via matplotlib's Agg backend.

* ``forest_plot(compare_df, path)``: each compared ordering's win rate and its
  difference to the baseline, with 95% interval bars.
* ``positions_heatmap(positions_df, path)``: effect of each card type at each
  depth (points of win rate), and the depth-region table.
* ``search_progress(search_df, path)``: the search's best and median scores
  stage by stage, and the confirmed top orderings against ``shuffled``.
"""
from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from ccsim.runner.orderings import LENGTH, LETTERS  # noqa: E402
from ccsim.kernel import rules as R  # noqa: E402
from ccsim.present.figures import save_png, signed, text_color  # noqa: E402

__all__ = ["forest_plot", "positions_heatmap", "search_progress"]


def _mono(ax, labels):
    ax.set_yticks(range(len(labels)))
    ax.set_yticklabels(labels, family="monospace", fontsize=9)
    ax.invert_yaxis()


def forest_plot(df: pd.DataFrame, path=None, title: str | None = None):
    """Win rate and paired difference to the baseline of a ``compare`` result, with intervals."""
    base = df.attrs.get("baseline", {})
    labels = [o if lab == o else f"{lab}  {o}" for o, lab in zip(df["ordering"], df["label"])]
    n = len(df)
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(11, 1.2 + 0.42 * n), sharey=True)
    y = np.arange(n)
    wr = 100 * df["win_rate"].to_numpy()
    a1.errorbar(wr, y, xerr=[wr - 100 * df["ci_lo"], 100 * df["ci_hi"] - wr], fmt="o", color="C0", capsize=3)
    if base:
        a1.axvspan(100 * base["ci_lo"], 100 * base["ci_hi"], color="0.85", zorder=0)
        a1.axvline(100 * base["win_rate"], color="0.4", lw=1, ls="--",
                   label=f"baseline {base.get('label', base['ordering'])}")
        a1.legend(loc="best", fontsize=8)
    a1.axvline(50, color="0.7", lw=0.8)
    a1.set_xlabel("win rate, % (95% interval)")
    _mono(a1, labels)
    d = 100 * df["diff"].to_numpy()
    lo = 100 * df["diff_lo"].to_numpy()
    hi = 100 * df["diff_hi"].to_numpy()
    colors = ["C2" if a > 0 else ("C3" if b < 0 else "0.4") for a, b in zip(lo, hi)]
    for i in range(n):
        a2.errorbar(d[i], y[i], xerr=[[d[i] - lo[i]], [hi[i] - d[i]]], fmt="s", color=colors[i], capsize=3)
    a2.axvline(0, color="0.4", lw=1, ls="--")
    a2.set_xlabel("difference to baseline, points (paired, 95% interval)")
    for i in range(n):
        g = int(df["games"].iloc[i])
        dec = df["decision"].iloc[i] if "decision" in df and df["decision"].iloc[i] else ""
        a2.annotate(f"{g:,} games {dec}", (1.01, y[i]), xycoords=("axes fraction", "data"), va="center",
                    fontsize=8, color="0.3")
    fig.suptitle(title or f"orderings vs baseline — {df.attrs.get('matchup', '')}", fontsize=10)
    return save_png(fig, path)


def positions_heatmap(df: pd.DataFrame, path=None, title: str | None = None):
    """Heatmap of effect(card, position) in points, with the region table beside it."""
    pos = df[df["kind"] == "position"]
    reg = df[df["kind"] == "region"]
    regions = list(dict.fromkeys(reg["region"]))
    mat = np.full((len(LETTERS), LENGTH), np.nan)
    sig = np.zeros((len(LETTERS), LENGTH), bool)
    for r in pos.itertuples():
        t = LETTERS.index(r.letter)
        mat[t, r.first - 1] = 100 * r.effect
        sig[t, r.first - 1] = r.lo > 0 or r.hi < 0
    rmat = np.full((len(LETTERS), len(regions)), np.nan)
    rtxt = [["" for _ in regions] for _ in LETTERS]
    for r in reg.itertuples():
        t = LETTERS.index(r.letter)
        j = regions.index(r.region)
        rmat[t, j] = 100 * r.effect
        rtxt[t][j] = f"{signed(100 * r.effect)}\n±{100 * (r.hi - r.effect):.2f}"
    lim = np.nanmax(np.abs(np.concatenate([mat.ravel(), rmat.ravel()])))
    lim = lim if np.isfinite(lim) and lim > 0 else 1.0
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(15, 4.6), gridspec_kw=dict(width_ratios=[LENGTH, len(regions) * 1.4]))
    im = a1.imshow(mat, cmap="RdBu", vmin=-lim, vmax=lim, aspect="auto")
    for t in range(len(LETTERS)):
        for q in range(LENGTH):
            v = mat[t, q]
            a1.text(q, t, signed(v), ha="center", va="center", fontsize=8,
                    color=text_color(im.cmap(im.norm(v)), muted=not sig[t, q]),
                    fontweight="bold" if sig[t, q] else "normal")
    ylabels = [f"{R.ACTION_NAMES[t]} ({ch})" for t, ch in enumerate(LETTERS)]
    a1.set_yticks(range(len(LETTERS)))
    a1.set_yticklabels(ylabels)
    a1.set_xticks(range(LENGTH))
    a1.set_xticklabels([str(q + 1) for q in range(LENGTH)])
    a1.set_xlabel("position in the action deck (1 = top, drawn first)")
    a1.set_title("E[score | card at position] − E[score], points (grey: 95% interval covers 0)", fontsize=9)
    im2 = a2.imshow(rmat, cmap="RdBu", vmin=-lim, vmax=lim, aspect="auto")
    for t in range(len(LETTERS)):
        for j in range(len(regions)):
            v = rmat[t, j]
            a2.text(j, t, rtxt[t][j], ha="center", va="center", fontsize=8, color=text_color(im2.cmap(im2.norm(v))))
    a2.set_xticks(range(len(regions)))
    a2.set_xticklabels(regions)
    a2.set_yticks(range(len(LETTERS)))
    a2.set_yticklabels([])
    a2.set_title("by depth region (mean of the positions, ±95%)", fontsize=9)
    fig.colorbar(im, ax=[a1, a2], shrink=0.8, label="points of win rate")
    a = df.attrs
    fig.suptitle(title or (f"value of a card by depth — {a.get('matchup', '')}; {a.get('orderings', 0):,} random "
                           f"orderings, {a.get('games', 0):,} games, R² {a.get('r2', float('nan')):.3f}"),
                 fontsize=10)
    return save_png(fig, path)


_STAGE_COLORS = {"halving": "C0", "local": "C1", "semifinal": "C4", "confirm": "C2"}


def search_progress(df: pd.DataFrame, path=None, title: str | None = None):
    """Search progress (best and median score per step against games used) and the confirmed top."""
    prog = pd.DataFrame(df.attrs.get("progress", []))
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(15, 5.4), gridspec_kw=dict(width_ratios=[1.1, 1], wspace=0.42))
    if len(prog):
        x = prog["games_used"] / 1e6
        a1.plot(x, 100 * prog["best_score"], color="0.6", lw=0.8, zorder=1)
        for stage, g in prog.groupby("stage", sort=False):
            c = _STAGE_COLORS.get(stage, "0.3")
            a1.scatter(g["games_used"] / 1e6, 100 * g["best_score"], color=c, s=22, label=f"{stage}: best", zorder=3)
            a1.scatter(g["games_used"] / 1e6, 100 * g["median_score"], color=c, s=14, marker="x",
                       label=f"{stage}: median", zorder=2)
    a1.axhline(50, color="0.4", lw=1, ls="--", label="shuffled (50%)")
    a1.set_xlabel("games used, millions")
    a1.set_ylabel("mean score of the stage's candidates, % (on that stage's deals)")
    a1.set_title("search progress (selection-biased until 'confirm')", fontsize=9)
    a1.legend(fontsize=7, ncol=2, loc="lower right")
    rows = [r for r in df.to_dict("records")]
    base = df.attrs.get("baseline")
    worst = df.attrs.get("worst")
    extra = [("shuffled", base)] if base else []
    if worst:
        extra.append(("worst", worst))
    labels = [f"#{r['rank']} {r['ordering']}" for r in rows] + [f"{n} {e['ordering'] if n != 'shuffled' else ''}"
                                                                 for n, e in extra]
    allr = rows + [e for _, e in extra]
    y = np.arange(len(allr))
    wr = np.array([100 * r["win_rate"] for r in allr])
    lo = np.array([100 * r["ci_lo"] for r in allr])
    hi = np.array([100 * r["ci_hi"] for r in allr])
    slo = np.array([100 * r.get("simul_lo", r["ci_lo"]) for r in allr])
    shi = np.array([100 * r.get("simul_hi", r["ci_hi"]) for r in allr])
    a2.hlines(y, slo, shi, color="0.75", lw=6, label="simultaneous (Bonferroni) interval")
    colors = ["C2"] * len(rows) + ["0.3", "C3"][:len(extra)]
    for i in range(len(allr)):
        a2.errorbar(wr[i], y[i], xerr=[[wr[i] - lo[i]], [hi[i] - wr[i]]], fmt="o", color=colors[i], capsize=3)
        a2.annotate(f"{wr[i]:.1f}% [{lo[i]:.1f}, {hi[i]:.1f}]", (shi[i], y[i]), xytext=(6, 0),
                    textcoords="offset points", va="center", fontsize=8, color="0.25")
    a2.axvline(50, color="0.4", lw=1, ls="--")
    if len(allr):
        span = max(shi.max(), 50) - min(slo.min(), 50)
        a2.set_xlim(min(slo.min(), 50) - 0.04 * span, max(shi.max(), 50) + 0.32 * span)
    _mono(a2, labels)
    g = int(rows[0]["games"]) if rows else 0
    a2.set_xlabel(f"win rate on fresh deals, % ({g:,} games each, 95% interval)")
    a2.set_title("confirmation on fresh deals (worst: the first round's lowest)", fontsize=9)
    a2.legend(fontsize=7, loc="upper left")
    a = df.attrs
    fig.suptitle(title or (f"ordering search — {a.get('matchup', '')}; {a.get('games_used', 0):,} games in "
                           f"{a.get('seconds', 0):.0f} s"), fontsize=10)
    return save_png(fig, path)

"""The figures of ``ccsim balance`` (the search returns their tables; these draw them). balance.png: seat advantage against size of change, one colour per level.

Left, every candidate as the race measured it (faint; the Pareto set with its 95% intervals);
right, zoomed on the tolerance band: the Pareto set near it and the recommended settings
re-measured on fresh deals (stars).  The grey band is ±tolerance around an even game; the marker's
shape is the number of parameters changed.
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ccsim.analyses.balance.publish.answer import answer_curve_frame

if TYPE_CHECKING:
    from ccsim.analyses.balance import Balance

__all__ = ["balance_plot", "skill_plot", "answer_skill_figure", "write_answer_skill"]

_SHAPES = {0: "D", 1: "o", 2: "s", 3: "^"}


def _shape(changes: int) -> str:
    return _SHAPES.get(int(changes), "v")


def _offsets(n_levels: int) -> np.ndarray:
    """Each level's x offset, so that the levels' markers at one size stand side by side."""
    return (np.arange(n_levels) - (n_levels - 1) / 2) * 0.12


def _spread(candidates: np.ndarray) -> np.ndarray:
    """A fixed horizontal spread in [-0.25, 0.25) by candidate, so that a column of hundreds of
    candidates of one size reads as a cloud (golden-ratio sequence: even, and the same every time)."""
    return (candidates * 0.6180339887 % 1.0 - 0.5) * 0.5


def _points(ax, df, x, colour, faint: bool, bars: bool) -> None:
    for changes, g in df.groupby("changes"):
        xs = g["size"].to_numpy() + x + (_spread(g["candidate"].to_numpy()) if faint else 0.0)
        y = 100 * g["seat_advantage"].to_numpy()
        if bars:
            err = [y - 100 * g["seat_advantage_lo"].to_numpy(), 100 * g["seat_advantage_hi"].to_numpy() - y]
            ax.errorbar(xs, y, yerr=err, fmt="none", ecolor=colour, elinewidth=1, capsize=2, alpha=0.8)
        ax.scatter(xs, y, marker=_shape(changes), s=14 if faint else 30, color=colour, alpha=0.3 if faint else 0.9,
                   edgecolor="none" if faint else "black", linewidth=0.4, zorder=2 if faint else 3)


def _band(ax, tol: float, sizes) -> None:
    from matplotlib.ticker import MaxNLocator
    ax.axhspan(-100 * tol, 100 * tol, color="0.85", zorder=0)
    ax.axhline(0, color="0.4", lw=0.8, ls="--", zorder=1)
    ax.set_xlabel("size of change (steps along the parameters' value lists)")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlim(-0.5, max(sizes, default=0) + 1.5)  # room for the names on the right
    ax.grid(axis="y", color="0.92", lw=0.6)


#: where a label may go around its point, in typographic points, nearest first: right, left, above, below,
#: the diagonals, then the same twice and three times as far
_AROUND = [(dx * r, dy * r) for r in (1, 2, 3, 4)
           for dx, dy in ((10, 0), (-10, 0), (0, 10), (0, -10), (10, 10), (10, -10), (-10, 10), (-10, -10))]
#: the gid of every placed label (a test finds them by it)
LABEL = "ccsim-label"


def _box_clear(box, taken, inside) -> bool:
    return (inside.x0 <= box.x0 and box.x1 <= inside.x1 and inside.y0 <= box.y0 and box.y1 <= inside.y1
            and not any(box.overlaps(t) for t in taken))


def place_labels(ax, items, offsets=None, fontsize: float = 7, avoid=(), rotation: float = 0) -> list:
    """Each (x, y, text) of ``items`` named beside its own point: the first offset of ``offsets`` (points;
    default ``_AROUND``) where the label's box stays inside the axes and overlaps no label placed before
    and no point of ``avoid`` ((x, y) data points, its own excepted); a thin line joins a label set apart
    from its point.  Returns the labels (matplotlib annotations)."""
    from matplotlib.text import Text
    fig = ax.figure
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    inside = ax.get_window_extent(renderer)
    dots = [ax.transData.transform(p) for p in avoid]
    taken, out = [], []
    for x, y, text in items:
        own = ax.transData.transform((x, y))
        best = None
        for dx, dy in offsets or _AROUND:
            ha = "left" if dx > 0 else "right" if dx < 0 else "center"
            va = "bottom" if dy > 0 else "top" if dy < 0 else "center"
            label = ax.annotate(text, (x, y), xytext=(dx, dy), textcoords="offset points", fontsize=fontsize,
                                ha=ha, va=va, color="0.2", gid=LABEL, annotation_clip=False, rotation=rotation)
            label.update_positions(renderer)
            box = Text.get_window_extent(label, renderer).expanded(1.04, 1.15)  # the words, not the line
            near = [b for b in (box.padded(1),) for d in dots if abs(d[0] - own[0]) + abs(d[1] - own[1]) > 1
                    and b.contains(*d)]
            if _box_clear(box, taken, inside) and not near:
                best = (label, box, dx, dy)
                break
            label.remove()
        if best is None:  # nowhere clear: the nearest place right of the point
            dx, dy = (offsets or _AROUND)[0]
            label = ax.annotate(text, (x, y), xytext=(dx, dy), textcoords="offset points", fontsize=fontsize,
                                ha="left" if dx >= 0 else "right", va="center", color="0.2", gid=LABEL,
                                rotation=rotation)
            label.update_positions(renderer)
            best = (label, Text.get_window_extent(label, renderer), dx, dy)
        label, box, dx, dy = best
        if abs(dx) + abs(dy) > 20:  # set apart: a line to its point
            label.remove()
            label = ax.annotate(text, (x, y), xytext=(dx, dy), textcoords="offset points", fontsize=fontsize,
                                ha=label.get_ha(), va=label.get_va(), color="0.2", gid=LABEL, rotation=rotation,
                                arrowprops=dict(arrowstyle="-", color="0.6", lw=0.5, shrinkA=0, shrinkB=3))
        taken.append(box)
        out.append(label)
    return out


def label_overlaps(fig) -> list[tuple[str, str]]:
    """Every pair of placed labels (``LABEL``) of ``fig`` whose boxes overlap, after a draw."""
    from matplotlib.text import Text
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    labels = [t for ax in fig.axes for t in ax.texts if t.get_gid() == LABEL]
    boxes = [(t.get_text(), Text.get_window_extent(t, renderer)) for t in labels]  # the words, not the line
    return [(a, b) for i, (a, ba) in enumerate(boxes) for b, bb in boxes[i + 1:] if ba.overlaps(bb)]


def _fresh(ax, b: "Balance", lv: str, x: float, colour) -> None:
    """The recommended settings at level ``lv``, re-measured on fresh deals: stars with 95% intervals."""
    rows = b.remeasured if not b.remeasured.empty else b.recommended
    f = rows[(rows["level"] == lv) & (rows["candidate"] != 0)]
    if f.empty:
        return
    y = 100 * f["seat_advantage"].to_numpy()
    err = [y - 100 * f["seat_advantage_lo"].to_numpy(), 100 * f["seat_advantage_hi"].to_numpy() - y]
    xs = f["size"].to_numpy() + x + 0.05
    ax.errorbar(xs, y, yerr=err, fmt="*", ms=11, color=colour, mec="black", mew=0.5, capsize=3, lw=1.4, zorder=4)


def _names(ax, b: "Balance", x: float) -> None:
    """Each re-measured setting's name once, on its own star at the first level (the level that judges;
    offset ``x``), placed where it overlaps no other name and no other star."""
    rows = b.remeasured if not b.remeasured.empty else b.recommended
    first = b.space.levels[0].name
    f = rows[(rows["level"] == first) & (rows["candidate"] != 0)]
    if f.empty:
        return
    stars = rows[rows["candidate"] != 0]
    offsets = _offsets(len(b.space.levels))
    dx = {lv.name: offsets[k] + 0.05 for k, lv in enumerate(b.space.levels)}
    avoid = [(s + dx.get(lv, 0.0), 100 * y) for s, lv, y in zip(stars["size"], stars["level"], stars["seat_advantage"])]
    items = [(xi, 100 * yi, name) for xi, yi, name in zip(f["size"] + x + 0.05, f["seat_advantage"], f["words"])]
    place_labels(ax, sorted(items, key=lambda it: -it[1]), avoid=avoid)


def _zoom(b: "Balance") -> float:
    """Half-height of the right panel, in points: the band and the fresh intervals, with room."""
    tol = 100 * b.space.tolerance
    rows = b.remeasured if not b.remeasured.empty else b.recommended
    fresh = rows[rows["candidate"] != 0]
    reach = 100 * np.abs(fresh[["seat_advantage_lo", "seat_advantage_hi"]].to_numpy(dtype=float)).max() \
        if not fresh.empty else 0.0
    return max(2.5 * tol, 1.3 * reach)


def balance_plot(b: "Balance"):
    """The figure (matplotlib, Agg)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D
    fig, (ax_all, ax_zoom) = plt.subplots(1, 2, figsize=(13, 5.2), gridspec_kw=dict(width_ratios=(1, 1.25)))
    levels = [lv.name for lv in b.space.levels]
    half = _zoom(b)
    for k, (lv, dx) in enumerate(zip(levels, _offsets(len(levels)))):
        colour = f"C{k}"
        rows = b.candidates[b.candidates["level"] == lv] if not b.candidates.empty else b.candidates
        if rows.empty:
            continue
        _points(ax_all, rows[~rows["pareto"]], dx, colour, faint=True, bars=False)
        _points(ax_all, rows[rows["pareto"]], dx, colour, faint=False, bars=True)
        _points(ax_zoom, rows[rows["pareto"]], dx, colour, faint=False, bars=True)
        _fresh(ax_zoom, b, lv, dx, colour)
    sizes = b.candidates["size"] if not b.candidates.empty else []
    for ax in (ax_all, ax_zoom):
        _band(ax, b.space.tolerance, sizes)
    ax_zoom.set_ylim(-half, half)
    ax_all.set_ylabel("seat advantage: Cleopatra's score − 50%, points")
    ax_all.set_title("every candidate as raced (Pareto set: with 95% intervals)", fontsize=10)
    ax_zoom.set_title(f"near the band: the Pareto set, and ★ re-measured on fresh deals (named at {levels[0]})",
                      fontsize=10)
    handles = [Line2D([], [], color=f"C{k}", lw=0, marker="o", label=lv) for k, lv in enumerate(levels)]
    handles += [Line2D([], [], color="0.3", lw=0, marker=_shape(c), label=f"{c} change{'s' if c != 1 else ''}")
                for c in sorted(b.candidates["changes"].unique())] if not b.candidates.empty else []
    handles.append(Line2D([], [], color="0.85", lw=6, label=f"±{100 * b.space.tolerance:g} point: fair"))
    ax_zoom.legend(handles=handles, fontsize=8, loc="upper right", framealpha=0.9)
    fig.suptitle(f"Fair rules: {b.space.source} — {b.info['candidates']:,} candidates, "
                 f"{b.info['games']:,} games of search, seed {b.space.seed}", fontsize=11)
    fig.tight_layout()
    _names(ax_zoom, b, _offsets(len(levels))[0])  # after the layout: the names are placed where they will be drawn
    return fig


def _curve_x(rows) -> np.ndarray:
    """Each level's x: its Elo where known, else its place (a level without an Elo after the others)."""
    elo = rows["elo"].to_numpy(dtype=float)
    known = np.isfinite(elo)
    step = (np.nanmax(elo) - np.nanmin(elo)) / max(known.sum() - 1, 1) if known.any() else 1.0
    top = np.nanmax(elo) if known.any() else 0.0
    return np.where(known, elo, top + step * (rows["rank"].to_numpy() - known.sum() + 1))


def skill_plot(skill, tolerance: float):
    """The skill curve: Cleopatra's edge (points, 95% intervals) under the standard rules and each final
    candidate at every level, placed at the level's Elo (results/strength/); the grey band is ±tolerance."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(10, 5.4))
    ax.axhspan(-100 * tolerance, 100 * tolerance, color="0.85", zorder=0, label=f"±{100 * tolerance:g} point: fair")
    ax.axhline(0, color="0.4", lw=0.8, ls="--", zorder=1)
    for k, (cand, g) in enumerate(skill.groupby("candidate", sort=True)):
        g = g.sort_values("rank")
        x, y = _curve_x(g), 100 * g["seat_advantage"].to_numpy()
        err = [y - 100 * g["seat_advantage_lo"].to_numpy(), 100 * g["seat_advantage_hi"].to_numpy() - y]
        label = "the standard rules" if cand == 0 else g["words"].iloc[0]
        ax.errorbar(x, y, yerr=err, fmt="o-", ms=4, lw=1.2, capsize=3, color=f"C{k}",
                    label=label if len(label) < 90 else label[:87] + "...", zorder=3)
    first = skill[skill["candidate"] == skill["candidate"].min()].sort_values("rank")
    for xi in _curve_x(first):
        ax.axvline(xi, color="0.9", lw=0.6, zorder=0)
    # a symmetric log axis: the baseline greedy, hundreds of Elo below, does not squeeze the strong levels
    ax.set_xscale("symlog", linthresh=100)
    ticks = [t for t in (-600, -300, -100, -50, 0, 50, 100, 200, 300) if ax.get_xlim()[0] <= t <= ax.get_xlim()[1]]
    ax.set_xticks(ticks, [f"{t:+d}" if t else "0" for t in ticks])
    lo, hi = ax.get_xlim()
    ax.set_xlim(lo - 0.04 * abs(lo), hi + 0.1 * abs(hi))
    ax.set_xlabel("level of play: Elo (results/strength/; tactician = 0; logarithmic beyond ±100)")
    ax.set_ylabel("Cleopatra's edge: her score − 50%, points")
    ax.set_title("Cleopatra's edge as the players get stronger: the standard rules and the final candidates", fontsize=10)
    ax.grid(color="0.93", lw=0.6)
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.13), ncol=2, frameon=False)
    fig.tight_layout()
    rows = name_levels(ax, list(zip(_curve_x(first), first["level"])))
    ax.set_title(ax.get_title(), fontsize=10, pad=_NAME_ROW * rows + 8)  # above the names (a caller's
    # set_title would put it back on them: publish sets the text alone)
    return fig


_NAME_ROW = 11  # points between two rows of level names


def name_levels(ax, levels, fontsize: float = 7, max_rows: int = 4) -> int:
    """Each level's name read across, just above the axes at the top of its own line (``levels``: (x, name),
    a thin tick joining the two): centred on the line, else ending at it, else starting at it, in the first
    row where it overlaps no other name and crosses no other level's line, so that two levels a few Elo apart
    (master, neural-search) are told apart; a row higher when none is clear.  Returns the rows used."""
    from matplotlib.text import Text
    fig = ax.figure
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    lines = [ax.transData.transform((x, 0))[0] for x, _ in levels]
    where = ("data", "axes fraction")
    taken, used = [], 0
    for k, (x, name) in enumerate(levels):
        others = [u for j, u in enumerate(lines) if j != k and abs(u - lines[k]) > 0.5]
        tries = [(row, dx) for row in range(max_rows) for dx in (0, -2, 2)]
        for n, (row, dx) in enumerate(tries + [(max_rows, 0)]):
            label = ax.annotate(name, (x, 1), xycoords=where, xytext=(dx, 4 + _NAME_ROW * row),
                                textcoords="offset points", fontsize=fontsize, color="0.2", gid=LABEL,
                                ha="center" if dx == 0 else "right" if dx < 0 else "left", va="bottom",
                                annotation_clip=False)
            label.update_positions(renderer)
            box = Text.get_window_extent(label, renderer).expanded(1.06, 1.0)
            last = n == len(tries)
            if last or not (any(box.overlaps(t) for t in taken) or any(box.x0 < u < box.x1 for u in others)):
                break
            label.remove()
        taken.append(box)
        used = max(used, row + 1)
        ax.annotate("", (x, 1), xycoords=where, xytext=(0, 3.5), textcoords="offset points", annotation_clip=False,
                    arrowprops=dict(arrowstyle="-", color="0.55", lw=0.6, shrinkA=0, shrinkB=0))
    return used


def write_answer_skill(folder, rec: dict, elos: dict, tol: float) -> None:
    """skill.png redrawn for the published answer: its curve beside the standard rules'."""
    import matplotlib.pyplot as plt
    fig = answer_skill_figure(rec, elos, tol)
    fig.savefig(Path(folder) / "skill.png", dpi=120, bbox_inches="tight")
    plt.close(fig)


def answer_skill_figure(rec: dict, elos: dict, tol: float):
    """The figure of skill.png: the published answer's curve beside the standard rules', every level named."""
    fig = skill_plot(answer_curve_frame(rec, elos), tol)
    ax = fig.axes[0]
    ax.title.set_text("Cleopatra's edge as the players get stronger: the standard rules and the published "
                      "answer")  # (its place and size are skill_plot's: above the levels' names)
    lopsided = [c["level"] for c in rec["curve"] if c.get("seats") == "lopsided"]
    if lopsided:  # named in words below the axis: a lopsided level is drawn, never decides
        ax.set_xlabel(ax.get_xlabel() + f"\nlopsided, so never the judge: {', '.join(lopsided)}")
        ax.get_legend().set_bbox_to_anchor((0.5, -0.19))  # below the second line
    return fig

"""The judge's map checked: results/calibration/README.md and calibration.png, from calibration.json
(``python scripts/calibrate.py fit``)."""
from __future__ import annotations

from pathlib import Path

from ccsim.analyses.stats import format_points as _pts

__all__ = ["calibration_markdown", "calibration_plot"]


def _ci(v, ci) -> str:
    return f"{_pts(v)} [{_pts(ci[0])}, {_pts(ci[1])}]"


def summary_sentence(s: dict, judge: str) -> str:
    """One level's check in plain words."""
    return (f"From `{s['level']}`: {s['coverage']:.0%} of the {s['settings']} predicted 95% intervals hold the "
            f"judge's measurement ({s['coverage_with_noise']:.0%} once the measurement's own noise on "
            f"{s['deals']:,} deals is allowed for); the RMS error is {100 * s['rms_error']:.1f} points, where the "
            f"measurements' own noise alone gives {100 * s['rms_noise']:.1f}; the mean error is "
            f"{_pts(s['mean_error'])} points, and the slope of the measured on the predicted edges "
            f"{s['slope']:.2f} (1 is a perfect map).")


def calibration_markdown(d: dict) -> str:
    """The check as a page: what was done, the summary of each fast level, the table of every setting."""
    judge, levels = d["judge"], list(d["maps"])
    lines = [f"# The map to {judge}'s figures, checked on settings it had not seen", "",
             f"Every door of ccsim shows {judge}'s figure (the strongest search on both sides: the judge when its "
             f"seat gap is shown balanced, docs/judge.md) beside the fast level's: "
             f"*measured with {judge}* where it played that setting (the published results and these "
             f"checks, shipped in `ccsim/analyses/judging/measured.json`), *predicted for {judge}* otherwise. A "
             f"prediction is the judge's edge under the standard rules plus the fast level's effect (its edge "
             f"under the change minus its edge under the standard rules, on the same deals) carried through a line "
             f"through the origin fitted on the {d['fitted_on']} settings the published results measured at both "
             f"levels; its interval adds the line's spread (how far a setting's effect strays from it), the "
             f"slope's uncertainty, the fast measurement's and the standard edge's.", "",
             f"Here that map meets {len(d['checks'])} settings it was not fitted on (changes to the hand, the "
             f"board, the vote deck, the scoring and the action cards, the four variants, and deck orders), each "
             f"measured with {judge} on {d['checks'][0]['deals']:,} fresh deals of seed {d['checks'][0]['seed']} "
             f"(`{d['judge_command']}`) and predicted from each fast level's effect on {d['fast_deals']:,} other "
             f"deals (`{d['command']}`, {d['date']}).", ""]
    for s in d["summaries"]:
        lines += [f"- {summary_sentence(s, judge)}"]
    lines += ["", "The maps (judge effect = slope × fast effect):", "",
              "| fast level | slope [95%] | spread, points | anchors | its standard edge |", "|---|---|---:|---:|---|"]
    for lv, m in d["maps"].items():
        lo, hi = m["slope"] - 1.96 * m["slope_se"], m["slope"] + 1.96 * m["slope_se"]
        lines.append(f"| `{lv}` | {m['slope']:.2f} [{lo:.2f}, {hi:.2f}] | {100 * m['model_sd']:.1f} | {m['anchors']} | "
                     f"{_ci(m['standard']['edge'], m['standard']['ci95'])} |")
    lines += ["", f"Each setting: Cleopatra's edge measured with {judge} [95%], and predicted for {judge} from each "
                  f"fast level (✓: the predicted interval holds the measurement; ~: it does once the measurement's "
                  f"own noise is allowed for; ✗: it does not).", "",
              f"| setting | measured with {judge} | " + " | ".join(f"predicted from `{lv}`" for lv in levels) + " |",
              "|---|---|" + "---|" * len(levels)]
    for c in d["checks"]:
        cells = []
        for lv in levels:
            p = c["predicted"][lv]
            mark = "✓" if p["holds"] else "~" if p["holds_with_noise"] else "✗"
            cells.append(f"{_ci(p['edge'], p['ci95'])} {mark}")
        lines.append(f"| {c['words']} | {_ci(c['measured']['edge'], c['measured']['ci95'])} | " + " | ".join(cells) + " |")
    lines += ["", "Points of Cleopatra's score (a draw half) minus 50%. Refit and recheck after a change to the judge "
                  "or a fast level: `python scripts/calibrate.py play`, then `python scripts/calibrate.py fit` "
                  "(docs/judge.md). The plot: calibration.png.", ""]
    return "\n".join(lines)


def calibration_plot(d: dict, path: Path) -> None:
    """Measured against predicted edge for every check setting, one panel per fast level, with both intervals
    and the diagonal."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    levels = list(d["maps"])
    fig, axes = plt.subplots(1, len(levels), figsize=(5.2 * len(levels), 5.0), squeeze=False)
    for ax, lv in zip(axes[0], levels):
        pred = [100 * c["predicted"][lv]["edge"] for c in d["checks"]]
        meas = [100 * c["measured"]["edge"] for c in d["checks"]]
        px = [[p - 100 * c["predicted"][lv]["ci95"][0], 100 * c["predicted"][lv]["ci95"][1] - p]
              for p, c in zip(pred, d["checks"])]
        my = [[m - 100 * c["measured"]["ci95"][0], 100 * c["measured"]["ci95"][1] - m] for m, c in zip(meas, d["checks"])]
        ax.errorbar(pred, meas, xerr=list(zip(*px)), yerr=list(zip(*my)), fmt="o", ms=4, color="#1f77b4",
                    ecolor="#9ecae1", elinewidth=1, capsize=0)
        lo, hi = min(pred + meas) - 4, max(pred + meas) + 4
        ax.plot([lo, hi], [lo, hi], color="#555", lw=1, ls="--", label="measured = predicted")
        ax.set_xlim(lo, hi)
        ax.set_ylim(lo, hi)
        ax.set_aspect("equal")
        s = next(x for x in d["summaries"] if x["level"] == lv)
        ax.set_title(f"predicted from {lv}: {s['coverage']:.0%} held, RMS {100 * s['rms_error']:.1f} pts", fontsize=10)
        ax.set_xlabel(f"predicted for {d['judge']}, points")
        ax.set_ylabel(f"measured with {d['judge']}, points")
        ax.grid(alpha=0.3)
        ax.legend(loc="upper left", fontsize=8)
    fig.suptitle(f"Cleopatra's edge with {d['judge']}: {len(d['checks'])} check settings, "
                 f"{d['checks'][0]['deals']:,} deals each", fontsize=11)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)

"""What ``ccsim metrics`` and ``ccsim run --metrics`` show: the designer metrics of a report
(``ccsim.analyses.metrics.report``) as a table by group, with 95% intervals, fitted to the terminal."""
from __future__ import annotations

from ccsim.analyses.metrics import METRICS
from ccsim.analyses.stats import format_percent_ci
from ccsim.present.table_width import Col, fit_lines, table

__all__ = ["format_metrics"]

_SHARES = {m.name for m in METRICS if m.kind == "rate"}


def _metric_cell(m: dict) -> str:
    v, (lo, hi) = m["value"], m["ci95"]
    if v is None:
        return "n/a"
    if m["metric"] == "seat_advantage":
        return f"{100 * v:+.1f} points [{100 * lo:+.1f}, {100 * hi:+.1f}]"
    if m["metric"] in _SHARES:
        return format_percent_ci(v, lo, hi)
    return f"{v:.2f} [{lo:.2f}, {hi:.2f}]"


def format_metrics(rep: dict, width: int | None = None) -> str:
    """The metrics of a report as a readable table, by group, with 95% intervals, fitted to
    ``width`` columns (None: no limit)."""
    lines = [f"designer metrics of {rep['games']:,} games (docs/metrics.md), 95% intervals"]
    groups: dict = {}
    for m in rep["metrics"]:
        extra = f" (of {int(m['units']):,} games with a leader)" if m["metric"] == "decisiveness" else ""
        groups.setdefault(m["group"], []).append([m["label"] + extra, _metric_cell(m)])
    cols = [Col("", wrap=True), Col("")]
    wide = max(len(r[0]) for rows in groups.values() for r in rows)
    for group, rows in groups.items():
        rows = [[r[0].ljust(wide), *r[1:]] for r in rows]  # one label width for every group
        lines += ["", f"{group}:"] + table(cols, rows, width, "  ")[1:]  # no header line: the group names it
    quantiles = ("p5", "p25", "p50", "p75", "p95", "min", "max")
    rows = [[r["measure"], f"{r['mean']:.2f}", f"{r['sd']:.2f}", *(f"{r[q]}" for q in quantiles)]
            for r in rep["lengths"] if r["games"]]
    lines += [""] + table([Col("length"), Col("mean", True), Col("sd", True)] + [Col(q, True) for q in quantiles],
                          rows, width, "  ")
    return fit_lines(lines, width)

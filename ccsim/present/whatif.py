"""What ``ccsim whatif`` shows: its tables (each metric of each arm beside the standard rules', with
intervals; what each action card is worth), its ``--json`` object and its two figures.  The study itself
(``ccsim.analyses.whatif``) returns data frames; the command line, the report and the Python API's
users draw them here."""
from __future__ import annotations

import math
import textwrap
from pathlib import Path

import numpy as np

from ccsim.kernel import rules as R
from ccsim.analyses.balance.judge import level_lean
from ccsim.analyses.levels import level_caveat, level_json, strong_caveat
from ccsim.analyses.question import BASE as BASE_ARM
from ccsim.analyses.metrics import HEADLINE, INDEX, METRICS
from ccsim.analyses.stats import format_percent, format_points as _pts, json_number as _num
from ccsim.present.table_width import Col, fit_lines, paragraph, table
from ccsim.analyses.whatif import WhatIf
from ccsim.runner.parameters import STANDARD_RULES as STANDARD
from strategies import seats

__all__ = ["format_whatif", "whatif_json", "whatif_plot", "cards_plot", "arm_words", "level_head", "PLOTTED"]

_POINTS = {"seat_advantage", "draw_rate", "leader_at_half", "decisiveness"} | {f"end_{e}" for e in R.END_NAMES[1:]}


def _signed(x: float, digits: int) -> str:
    """``x`` with its sign and ``digits`` decimals; a value that rounds to zero is "+0.0", never "-0.0"."""
    v = round(x, digits)
    return f"{v if v != 0 else 0.0:+.{digits}f}"


def _fmt(metric: str, x: float, signed: bool = False) -> str:
    """Shares as percent (differences in points), counts with two decimals."""
    if not math.isfinite(x):
        return "n/a"
    if metric in _POINTS:
        return _signed(100 * x, 1) if signed or metric == "seat_advantage" else format_percent(x + 0.0)  # no -0.0%
    return _signed(x, 2) if signed else f"{round(x, 2) or 0.0:.2f}"


def arm_words(a: dict) -> str:
    """An arm as a designer reads it: its name, and what it changes in plain words when the name
    does not say it already (a change without a name is named by its dotted keys)."""
    if a["kind"] == "base":
        return STANDARD
    if a["kind"] != "variant" and _parts(a["name"]) == _parts(a["rules"]):
        return a["words"]  # a name that only spells the rules' keys says nothing the words do not
    return f"{a['name']}: {a['words']}"


def _parts(keys: str) -> set[str]:
    return {p.strip() for p in keys.split(",")}


def level_head(name: str) -> str:
    """A level of play as a designer reads it, with how it plays the two seats where that is lopsided
    (its figures then lean its own way: ``strategies.seats``)."""
    return level_lean(name, seats.status(name), seats.describe(name), style="sentence")


def judge_words(r) -> str:
    """One judge's figure as a designer reads it: "+0.9 [0.0, +1.9] points, measured with neural-search on
    10,000 deals" or "… predicted for neural-search from learned's effect"."""
    fig = f"{_pts(r.edge)} [{_pts(r.lo)}, {_pts(r.hi)}] points"
    if r.how == "measured":
        return f"{fig}, measured with {r.judge} on {int(r.deals):,} deals"
    return f"{fig}, predicted for {r.judge} from {r.predicted_from}'s effect (results/calibration)"


def judge_line(w: WhatIf, strategy: str, arm: str) -> str | None:
    """The judge's Cleopatra's edge under the standard rules and under ``arm``, beside ``strategy``'s."""
    if w.judge is None or w.judge.empty:
        return None
    j = w.judge[w.judge["strategy"] == strategy].set_index("arm")
    if arm not in j.index:
        return None
    judge = j.loc[arm, "judge"]
    out = f"Cleopatra's edge with {judge}, the strongest search, on both sides: {judge_words(j.loc[arm])}"
    if BASE_ARM in j.index:
        out += f"; under {STANDARD}: {judge_words(j.loc[BASE_ARM])}"
    return out + "."


def _metric_rows(m, arm: str, names: list[str]) -> list[list[str]]:
    rows = []
    for n in names:
        r = m.loc[(arm, n)]
        diff = f"{_fmt(n, r['diff'], True)} [{_fmt(n, r['diff_lo'], True)}, {_fmt(n, r['diff_hi'], True)}]"
        rows.append([METRICS[INDEX[n]].label, _fmt(n, r["base"]), f"[{_fmt(n, r['base_lo'])}, {_fmt(n, r['base_hi'])}]",
                     _fmt(n, r["value"]), f"[{_fmt(n, r['ci_lo'])}, {_fmt(n, r['ci_hi'])}]",
                     diff + (" *" if r["significant"] else ""), f"{r['p_holm']:.2g}"])
    return rows


_METRIC_COLS = [Col("metric", wrap=True), Col("standard", True), Col("95% CI", spare=3), Col("changed", True),
                Col("95% CI", spare=2), Col("difference [95% CI]"), Col("p (Holm)", True, spare=1)]


def _card_rows(c) -> list[list[str]]:
    rows = []
    for card in R.ACTION_NAMES:
        cells = [card]
        for p in ("cleopatra", "caesar", "both"):
            r = c[(c["card"] == card) & (c["player"] == p)]
            cells.append("—" if r.empty else
                         f"{_signed(100 * r.iloc[0]['worth'], 1)} [{_signed(100 * r.iloc[0]['ci_lo'], 1)}, "
                         f"{_signed(100 * r.iloc[0]['ci_hi'], 1)}]" + ("*" if r.iloc[0]["significant"] else " "))
        rows.append(cells)
    return rows


def format_whatif(w: WhatIf, all_metrics: bool = False, width: int | None = None) -> str:
    """Readable tables: per strategy and arm, each metric under the standard rules and the arm with
    their 95% intervals, and the difference on the same deals with its interval; fitted to ``width``
    columns (``ccsim.present.table_width``), None: no limit."""
    i = w.info
    names = [m.name for m in METRICS] if all_metrics else list(HEADLINE)
    lines = [c for c in (level_caveat((s,)) for s in i["strategies"]) if c]
    if w.judge is not None and not w.judge.empty and strong_caveat(w.judge["judge"].iloc[0]):
        lines.append(f"Note: {strong_caveat(w.judge['judge'].iloc[0])}.")
    lines += [f"what-if: {i['deals']:,} deals per arm (the same deals for every arm: game 0..{i['deals'] - 1} of "
             f"seed {i['seed']}), mirror games at each strategy, orderings {i['orderings'][0]} / "
             f"{i['orderings'][1]}" + ("   (interrupted: partial result)" if i["interrupted"] else "")]
    if i["description"]:
        lines.append(i["description"])
    arms = [a for a in i["arms"] if a["kind"] not in ("base", "card")]
    if arms:
        lines.append(f"each arm's value and its difference to {STANDARD} on the same deals, with 95% intervals; "
                     f"shares in %, their differences in points; * = significant after Holm over all "
                     f"{i['comparisons']} differences")
    for s in i["strategies"]:
        m = w.metrics[w.metrics["strategy"] == s].set_index(["arm", "metric"])
        for a in arms:
            head = f"{level_head(s)} — {arm_words(a)}"
            if a["orderings"] != i["orderings"]:
                head += "; orderings " + ", ".join(a["orderings"])
            lines += ["", *paragraph(head, width)] + table(_METRIC_COLS, _metric_rows(m, a["name"], names), width)
            said = judge_line(w, s, a["name"])
            if said:
                lines += paragraph(said, width)
    if w.cards is not None:
        lines += ["", f"what each action card is worth: its owner's score under {STANDARD} minus with one copy "
                      f"fewer, points [95% CI], paired on the same deals; * = significant after Holm over "
                      f"{i['card_comparisons']}",
                  "(a shuffled deck loses a uniformly random copy; a fixed ordering its topmost)"]
        cols = [Col("card")] + [Col(p, True) for p in ("cleopatra", "caesar", "both")]
        for s in i["strategies"]:
            lines += ["", f"{s}:"] + table(cols, _card_rows(w.cards[w.cards["strategy"] == s]), width, "  ")
    if i.get("seconds"):
        lines += ["", f"{i['games']:,} games in {i['seconds']:.1f} s ({i['games_per_s']:,.0f} games/s)"]
    return fit_lines(lines, width)


def whatif_json(w: WhatIf) -> dict:
    """The study as one JSON-ready object: every metric of every arm, the card worths, what it rests on."""
    i = w.info
    out = {k: i[k] for k in ("strategies", "orderings", "seed", "deals", "games", "arms", "description",
                             "comparisons", "card_comparisons")}
    out["metrics"] = [{"strategy": r.strategy, "arm": r.arm, "metric": r.metric, "value": _num(r.value),
                       "ci95": [_num(r.ci_lo), _num(r.ci_hi)], "base": _num(r.base),
                       "base_ci95": [_num(r.base_lo), _num(r.base_hi)], "diff": _num(r.diff),
                       "diff_ci95": [_num(r.diff_lo), _num(r.diff_hi)], "p": _num(r.p), "p_holm": _num(r.p_holm),
                       "significant": bool(r.significant)} for r in w.metrics.itertuples()]
    out["lengths"] = [{k: (_num(v) if isinstance(v, float) else v) for k, v in r.items()}
                      for r in w.lengths.to_dict("records")]
    if w.cards is not None:
        out["cards"] = [{"strategy": r.strategy, "card": r.card, "player": r.player, "worth": _num(r.worth),
                         "ci95": [_num(r.ci_lo), _num(r.ci_hi)], "p_holm": _num(r.p_holm),
                         "significant": bool(r.significant)} for r in w.cards.itertuples()]
    out["levels"] = [level_json(s) for s in i["strategies"]]
    if w.judge is not None:
        out["judge"] = [{"strategy": r.strategy, "arm": r.arm, "judge": r.judge, "how": r.how,
                         "label": f"{r.how} with {r.judge}" if r.how == "measured" else f"predicted for {r.judge}",
                         "status": seats.status(r.judge),
                         "edge": _num(r.edge), "ci95": [_num(r.lo), _num(r.hi)],
                         "deals": None if r.how != "measured" else int(r.deals),
                         "predicted_from": None if r.how == "measured" else r.predicted_from}
                        for r in w.judge.itertuples()]
    out["seconds"] = round(i["seconds"], 3)
    out["games_per_s"] = round(i["games_per_s"], 1) if i["games_per_s"] else None
    if i["interrupted"]:
        out["interrupted"] = True
    return out


PLOTTED = (("seat_advantage", "seat advantage, points"), ("draw_rate", "draw rate, points"),
           ("decisiveness", "decisiveness, points"), ("lead_changes", "lead changes per game"),
           ("turns", "turns per game"), ("votes", "votes per game"))


def _save(fig, path):
    if path is not None:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(path, dpi=120, bbox_inches="tight")
    return fig


def whatif_plot(w: WhatIf, path=None):
    """Differences to the standard rules of six headline metrics, one panel each, every arm and strategy,
    with 95% intervals (filled: significant after Holm); returns the figure."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    shown = [a for a in w.info["arms"] if a["kind"] not in ("base", "card")]
    arms = [a["name"] for a in shown]
    strategies = w.info["strategies"]
    fig, axes = plt.subplots(2, 3, figsize=(13, 2.2 + 0.55 * len(arms) * 2), sharey=True)
    y = np.arange(len(arms))
    step = 0.6 / max(1, len(strategies))
    for ax, (metric, label) in zip(axes.ravel(), PLOTTED):
        scale = 100.0 if metric in _POINTS else 1.0
        for k, s in enumerate(strategies):
            d = w.metrics[(w.metrics["strategy"] == s) & (w.metrics["metric"] == metric)].set_index("arm").loc[arms]
            off = y - 0.3 + step * (k + 0.5)
            x = scale * d["diff"].to_numpy()
            err = [x - scale * d["diff_lo"].to_numpy(), scale * d["diff_hi"].to_numpy() - x]
            ax.errorbar(x, off, xerr=err, fmt="none", ecolor=f"C{k}", capsize=2, lw=1)
            sig = d["significant"].to_numpy()
            ax.scatter(x[sig], off[sig], color=f"C{k}", s=22, zorder=3, label=s if metric == PLOTTED[0][0] else None)
            ax.scatter(x[~sig], off[~sig], facecolor="white", edgecolor=f"C{k}", s=22, zorder=3)
        ax.axvline(0, color="0.4", lw=0.8, ls="--")
        ax.set_xlabel(f"difference: {label}", fontsize=9)
        ax.tick_params(labelsize=8)
    for ax in axes[:, 0]:
        ax.set_yticks(y)
        ax.set_yticklabels([textwrap.fill(arm_words(a), 40) for a in shown], fontsize=7)
    axes[0, 0].invert_yaxis()  # the axes share y: once for all
    i = w.info
    fig.suptitle(f"What-if rules against the standard rules: {i['deals']:,} common deals per arm, mirror games, seed "
                 f"{i['seed']} (95% intervals; filled: significant after Holm)", fontsize=10)
    fig.tight_layout(rect=(0, 0.05, 1, 1))
    fig.legend(*axes[0, 0].get_legend_handles_labels(), loc="lower center", ncol=len(strategies), fontsize=9,
               title="strategy (mirror games)", title_fontsize=8, frameon=False)
    return _save(fig, path)


def cards_plot(w: WhatIf, path=None):
    """What each action card is worth to its owner (points of score, 95% intervals), per player and
    strategy; returns the figure."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    strategies = w.info["strategies"]
    players = ("cleopatra", "caesar", "both")
    fig, axes = plt.subplots(1, len(strategies), figsize=(5.2 * len(strategies), 4.2), sharey=True, squeeze=False)
    y = np.arange(len(R.ACTION_NAMES))
    for ax, s in zip(axes[0], strategies):
        c = w.cards[w.cards["strategy"] == s]
        for k, p in enumerate(players):
            d = c[c["player"] == p].set_index("card").reindex(R.ACTION_NAMES)
            off = y - 0.25 + 0.25 * k
            x = 100 * d["worth"].to_numpy()
            ax.errorbar(x, off, xerr=[x - 100 * d["ci_lo"].to_numpy(), 100 * d["ci_hi"].to_numpy() - x], fmt="o",
                        color=f"C{k}", ms=4, capsize=2, lw=1, label=p)
        ax.axvline(0, color="0.4", lw=0.8, ls="--")
        ax.set_title(f"{s} vs {s}", fontsize=10)
        ax.set_xlabel("worth: owner's score lost without one copy, points")
        ax.set_yticks(y)
        ax.set_yticklabels(R.ACTION_NAMES)
    axes[0, 0].invert_yaxis()  # the axes share y: once for all
    axes[0, 0].legend(title="whose deck", fontsize=8, title_fontsize=8)
    fig.suptitle(f"Action cards by ablation: {w.info['deals']:,} common deals, seed {w.info['seed']} "
                 f"(95% intervals)", fontsize=10)
    fig.tight_layout()
    return _save(fig, path)

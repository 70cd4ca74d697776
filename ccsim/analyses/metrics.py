"""Designer metrics over any run, from its per-game result rows (docs/metrics.md defines each).

Every metric is a ratio of two per-game sums, ``sum(num) / sum(den)``: a
plain mean where the denominator is one per game (seat advantage, lead
changes, game length, VP by source, votes, action cards), a conditional rate
where it is not (decisiveness: among the games with a VP leader after the first
half of the votes).  So one accumulator serves them all — ``MetricSums``,
filled chunk by chunk in flat memory — and one delta-method formula gives the
interval of each metric and of each paired difference between two rules on
the same deals (``ccsim.analyses.stats.ratio_difference``).  Proportions get Wilson
intervals.

Inputs are int16 result rows (``ccsim.kernel.engine.episode.RESULT_COLUMNS``) or a
results frame (``ccsim.analyses.run.results_frame``, what ``games.parquet`` holds),
with the rules vector the games were played under (the VP values weigh the VP
by source).  The table a person reads is drawn in ``ccsim.present.metrics``.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ccsim.kernel import rules as R
from ccsim.kernel.engine.episode import (RESULT_COLUMNS, R_WINNER, R_END, R_TURNS, R_PAT, R_MAJ, R_ALL, R_BONUS_HIT,
                               R_PLAYED, R_VETOED, R_VOTES, R_TIES, R_REVERSALS, R_EXCEPTIONAL, R_LEAD_CHANGES,
                               R_LEADER_HALF, N_RESULT)
from ccsim.analyses.stats import Moments, ratio_interval, wilson_interval
from ccsim.analyses.stats import json_number as _num

__all__ = ["Metric", "METRICS", "HEADLINE", "game_values", "MetricSums", "Distribution", "metrics", "distribution",
           "frame_rows", "report", "metrics_report"]


@dataclass(frozen=True)
class Metric:
    name: str
    label: str
    group: str           # balance, drawishness, decisiveness, lead change, duration, end, VP, votes, actions
    kind: str            # "rate" (a share: Wilson interval) or "mean" (delta-method interval)
    offset: float = 0.0  # subtracted from the ratio (seat advantage: Cleopatra's score - 1/2)


def _popcount(x: np.ndarray) -> np.ndarray:
    x = x.astype(np.int64)
    return sum((x >> g) & 1 for g in range(R.N_GROUPS))


def _metric_list() -> list[Metric]:
    m = [Metric("seat_advantage", "seat advantage: Cleopatra's score - 50%", "balance", "rate", 0.5),
         Metric("draw_rate", "draw rate (R10.5)", "drawishness", "rate"),
         Metric("leader_at_half", "a VP leader after half the votes", "decisiveness", "rate"),
         Metric("decisiveness", "that leader wins", "decisiveness", "rate"),
         Metric("lead_changes", "lead changes per game", "lead change", "mean"),
         Metric("turns", "turns per game", "duration", "mean"),
         Metric("votes", "votes per game", "duration", "mean")]
    m += [Metric(f"end_{e}", f"ends by {e} (R9)", "end", "rate") for e in R.END_NAMES[1:]]
    for p in R.PLAYERS:
        m += [Metric(f"vp_{src}_{p}", f"{p}'s VP from {src} ({rule})", "VP", "mean")
              for src, rule in (("patricians", "R10.1"), ("majorities", "R10.2"), ("all", "R10.3"),
                                ("bonus", "R10.4"))]
    m += [Metric(f"votes_{g}", f"votes on {g}", "votes", "mean") for g in R.GROUPS]
    m += [Metric("ties", "tied votes (R6.4)", "votes", "mean"),
          Metric("reversals", "votes reversed by philosophers (R6.3)", "votes", "mean"),
          Metric("exceptional_votes", "exceptional votes (R4.3)", "votes", "mean")]
    m += [Metric(f"played_{a}", f"{a} cards played", "actions", "mean") for a in R.ACTION_NAMES]
    m += [Metric(f"vetoed_{a}", f"{a} cards vetoed", "actions", "mean") for a in R.ACTION_NAMES if a != "veto"]
    return m


METRICS = _metric_list()
INDEX = {m.name: i for i, m in enumerate(METRICS)}
#: the metrics printed by default (docs/metrics.md: Ludii's balance, drawishness, decisiveness,
#: lead change, duration, and the end reasons and votes)
HEADLINE = ("seat_advantage", "draw_rate", "leader_at_half", "decisiveness", "lead_changes", "turns", "votes",
            "end_all_patricians", "end_no_influence", "end_stalemate", "ties", "reversals", "exceptional_votes")


def game_values(rows: np.ndarray, rules: np.ndarray | None = None) -> np.ndarray:
    """Per-game (numerator, denominator) of every metric: float64 (games, len(METRICS), 2)."""
    rules = R.DEFAULT_RULES if rules is None else rules
    rows = np.asarray(rows)
    n = rows.shape[0]
    out = np.zeros((n, len(METRICS), 2))
    out[:, :, 1] = 1.0
    winner = rows[:, R_WINNER].astype(np.int64)
    leader = rows[:, R_LEADER_HALF].astype(np.int64)

    def put(name, num, den=None):
        out[:, INDEX[name], 0] = num
        if den is not None:
            out[:, INDEX[name], 1] = den

    put("seat_advantage", np.where(winner == 0, 1.0, np.where(winner < 0, 0.5, 0.0)))
    put("draw_rate", winner < 0)
    put("leader_at_half", leader >= 0)
    put("decisiveness", (leader >= 0) & (winner == leader), leader >= 0)
    put("lead_changes", rows[:, R_LEAD_CHANGES])
    put("turns", rows[:, R_TURNS])
    put("votes", rows[:, R_VOTES:R_VOTES + R.N_GROUPS].astype(np.int64).sum(axis=1))
    for k, e in enumerate(R.END_NAMES[1:], start=1):
        put(f"end_{e}", rows[:, R_END] == k)
    for p, name in enumerate(R.PLAYERS):
        pats = rows[:, R_PAT + 5 * p:R_PAT + 5 * p + 5].astype(np.int64).sum(axis=1)
        put(f"vp_patricians_{name}", pats * rules[R.RP_VP_PATRICIAN])
        put(f"vp_majorities_{name}", _popcount(rows[:, R_MAJ + p]) * rules[R.RP_VP_MAJORITY])
        put(f"vp_all_{name}", _popcount(rows[:, R_ALL + p]) * rules[R.RP_VP_ALL])
        put(f"vp_bonus_{name}", rows[:, R_BONUS_HIT + p] * rules[R.RP_VP_BONUS])
    for g, name in enumerate(R.GROUPS):
        put(f"votes_{name}", rows[:, R_VOTES + g])
    put("ties", rows[:, R_TIES])
    put("reversals", rows[:, R_REVERSALS])
    put("exceptional_votes", rows[:, R_EXCEPTIONAL])
    for a, name in enumerate(R.ACTION_NAMES):
        put(f"played_{name}", rows[:, R_PLAYED + a].astype(np.int64) + rows[:, R_PLAYED + 6 + a])
        if name != "veto":
            put(f"vetoed_{name}", rows[:, R_VETOED + a].astype(np.int64) + rows[:, R_VETOED + 6 + a])
    return out


class MetricSums:
    """The moments of every metric's per-game (numerator, denominator), chunk by chunk."""

    def __init__(self, repeats: float = 1.0):
        self.moments = Moments(2, batch=len(METRICS))  # [i]: metric i's (numerator, denominator)
        # games played per game distinct (a mirror's --swap-seats replays each game: Summary.repeat_factor);
        # the intervals rest on the distinct games, the figures and counts on every game played
        self.repeats = repeats

    def add_values(self, values: np.ndarray) -> "MetricSums":
        self.moments.update(values)
        return self

    def add_rows(self, rows: np.ndarray, rules: np.ndarray | None = None) -> "MetricSums":
        return self.add_values(game_values(rows, rules))

    def estimate(self, name: str, confidence: float = 0.95) -> dict:
        """value, lo, hi (and the games it rests on) of one metric."""
        met = METRICS[INDEX[name]]
        m = self.moments[INDEX[name]]
        num, den = m.sum
        k = self.repeats
        if met.kind == "rate":
            value = num / den if den else np.nan
            lo, hi = wilson_interval(num / k, den / k, confidence) if den else (np.nan, np.nan)
            est = dict(value=value, lo=lo, hi=hi)
        else:
            r = ratio_interval(m, 0, 1, confidence)
            half = np.sqrt(k) * (r["hi"] - r["lo"]) / 2
            est = dict(value=r["value"], lo=r["value"] - half, hi=r["value"] + half)
        return {k: float(v) - met.offset for k, v in est.items()} | {"games": int(m.n), "units": float(den)}

    def frame(self, confidence: float = 0.95) -> pd.DataFrame:
        """One row per metric: name, label, group, kind, value, ci_lo, ci_hi, games, units
        (the denominator: games, or the games with a leader for decisiveness)."""
        recs = []
        for met in METRICS:
            e = self.estimate(met.name, confidence)
            recs.append(dict(metric=met.name, label=met.label, group=met.group, kind=met.kind, value=e["value"],
                             ci_lo=e["lo"], ci_hi=e["hi"], games=e["games"], units=e["units"]))
        return pd.DataFrame(recs)


class Distribution:
    """Histograms of game length in turns and in votes, chunk by chunk."""

    QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)

    def __init__(self):
        self.counts = {"turns": np.zeros(1, np.int64), "votes": np.zeros(1, np.int64)}

    def add_rows(self, rows: np.ndarray) -> "Distribution":
        rows = np.asarray(rows)
        for name, x in (("turns", rows[:, R_TURNS]), ("votes", rows[:, R_VOTES:R_VOTES + 5].astype(np.int64).sum(1))):
            c = np.bincount(np.asarray(x, np.int64), minlength=self.counts[name].size)
            if c.size > self.counts[name].size:
                self.counts[name] = np.pad(self.counts[name], (0, c.size - self.counts[name].size))
            self.counts[name] += c
        return self

    def frame(self) -> pd.DataFrame:
        """One row per measure (turns, votes): games, mean, sd, the quantiles, min and max."""
        recs = []
        for name, c in self.counts.items():
            n = int(c.sum())
            x = np.arange(c.size)
            rec = dict(measure=name, games=n)
            if n:
                mean = float((x * c).sum() / n)
                rec.update(mean=mean, sd=float(np.sqrt(max((x * x * c).sum() / n - mean * mean, 0.0))))
                cum = np.cumsum(c)
                for q in self.QUANTILES:
                    rec[f"p{int(100 * q)}"] = int(np.searchsorted(cum, q * n, side="left"))
                rec.update(min=int(x[c > 0].min()), max=int(x[c > 0].max()))
            recs.append(rec)
        return pd.DataFrame(recs)


_WINNER = {"cleopatra": 0, "caesar": 1}


def frame_rows(df: pd.DataFrame) -> np.ndarray:
    """A results frame (``ccsim.analyses.run.results_frame``) back to the kernel's int16 rows."""
    out = np.zeros((len(df), N_RESULT), np.int16)
    for k, (col, _) in enumerate(RESULT_COLUMNS):
        if col == "winner":
            out[:, k] = df["winner"].map(_WINNER).fillna(-1).to_numpy()
        elif col == "end":
            out[:, k] = df["end"].astype(str).map({e: i for i, e in enumerate(R.END_NAMES)}).to_numpy()
        elif col.startswith("bonus_") and not col.startswith("bonus_hit"):
            out[:, k] = df[col].map({g: i for i, g in enumerate(R.GROUPS)}).to_numpy()
        else:
            out[:, k] = df[col].to_numpy()
    return out


def _rows(data) -> np.ndarray:
    return frame_rows(data) if isinstance(data, pd.DataFrame) else np.asarray(data)


def metrics(data, rules: np.ndarray | None = None, confidence: float = 0.95) -> pd.DataFrame:
    """The designer metrics of a run (result rows or a results frame) with their intervals.

    >>> import ccsim.analyses.run as cr                                         # doctest: +SKIP
    >>> metrics(cr.simulate("greedy", "greedy", games=2000))           # doctest: +SKIP
    """
    return MetricSums().add_rows(_rows(data), rules).frame(confidence)


def distribution(data) -> pd.DataFrame:
    """Game length in turns and in votes: mean, sd, quantiles, min, max."""
    return Distribution().add_rows(_rows(data)).frame()




def report(sums: MetricSums, lengths: Distribution) -> dict:
    """Metrics and length distributions as one JSON-ready object (``ccsim metrics``, ``run --metrics``)."""
    frame = sums.frame()
    return {"games": int(frame["games"].max()) if len(frame) else 0,
            "metrics": [{"metric": r.metric, "label": r.label, "group": r.group, "value": _num(r.value),
                         "ci95": [_num(r.ci_lo), _num(r.ci_hi)], "units": _num(r.units)}
                        for r in frame.itertuples()],
            "lengths": [{k: (_num(v) if isinstance(v, float) else v) for k, v in r.items()}
                        for r in lengths.frame().to_dict("records")]}


def metrics_report(data, rules: np.ndarray | None = None) -> dict:
    """``report`` of a run's rows or results frame."""
    rows = _rows(data)
    from ccsim.analyses.summary import swap_repeats_of
    k = swap_repeats_of(data) if isinstance(data, pd.DataFrame) else 1
    if k > 1:  # the games distinct: the larger arrangement's
        k = len(data) / max(data["swapped"].sum(), (~data["swapped"]).sum())
    return report(MetricSums(k).add_rows(rows, rules), Distribution().add_rows(rows))

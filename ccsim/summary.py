"""Run summaries: accumulated chunk by chunk (memory stays flat), or from a DataFrame.

Both paths give the same dictionary, so a summary read back from Parquet
equals the one printed at the end of the run.
"""
from __future__ import annotations

import numpy as np

from ccsim import rules as R
from ccsim.engine.game import R_WINNER, R_END, R_TURNS, R_VP
from ccsim.stats import wilson_interval, mean_ci

SEATS = R.PLAYERS


class Summary:
    """Sufficient statistics of a run's result rows."""

    def __init__(self):
        self.games = 0
        self.wins = np.zeros(2, np.int64)
        self.draws = 0
        self.ends = np.zeros(len(R.END_NAMES), np.int64)
        self.vp_sum = np.zeros(2, np.float64)
        self.vp_sq = np.zeros(2, np.float64)
        self.turn_sum = 0.0
        self.turn_sq = 0.0
        self.errors = 0
        self.seconds = 0.0

    def add(self, winner, end, turns, vp0, vp1, error=None):
        """Add a chunk given as column arrays."""
        winner = np.asarray(winner)
        self.games += len(winner)
        self.wins += np.array([(winner == 0).sum(), (winner == 1).sum()])
        self.draws += int((winner == -1).sum())
        self.ends += np.bincount(np.clip(np.asarray(end), 0, len(R.END_NAMES) - 1), minlength=len(R.END_NAMES))
        for p, vp in enumerate((vp0, vp1)):
            vp = np.asarray(vp, np.float64)
            self.vp_sum[p] += vp.sum()
            self.vp_sq[p] += (vp * vp).sum()
        t = np.asarray(turns, np.float64)
        self.turn_sum += t.sum()
        self.turn_sq += (t * t).sum()
        if error is not None:
            self.errors += int((np.asarray(error) != 0).sum())

    def add_rows(self, rows: np.ndarray):
        self.add(rows[:, R_WINNER], rows[:, R_END], rows[:, R_TURNS], rows[:, R_VP], rows[:, R_VP + 1],
                 rows[:, -1])

    def to_dict(self, config=None, interrupted=False) -> dict:
        n = self.games
        out = {
            "games": n,
            "wins": {s: int(self.wins[p]) for p, s in enumerate(SEATS)},
            "draws": int(self.draws),
            "truncated": int(self.ends[R.END_TRUNCATED]),
            "win_rate": {},
            "mean_vp": {},
            "mean_turns": None,
            "end_reasons": {R.END_NAMES[k]: int(self.ends[k]) for k in range(1, len(R.END_NAMES))},
            "engine_errors": int(self.errors),
        }
        for p, s in enumerate(SEATS):
            lo, hi = wilson_interval(int(self.wins[p]), n)
            out["win_rate"][s] = {"rate": float(self.wins[p] / n) if n else 0.0, "ci95": [float(lo), float(hi)]}
            m, lo, hi = mean_ci(self.vp_sum[p], self.vp_sq[p], n)
            out["mean_vp"][s] = {"mean": float(m), "ci95": [float(lo), float(hi)]} if n else None
        lo, hi = wilson_interval(int(self.draws), n)
        out["draw_rate"] = {"rate": float(self.draws / n) if n else 0.0, "ci95": [float(lo), float(hi)]}
        out["mean_turns"] = float(self.turn_sum / n) if n else None
        out["seconds"] = round(self.seconds, 3)
        out["games_per_s"] = round(n / self.seconds, 1) if self.seconds > 0 else None
        if interrupted:
            out["interrupted"] = True
        if config is not None:
            out["config"] = {"seed": config.seed, "cleopatra": config.cleopatra, "caesar": config.caesar,
                             "cleopatra_order": config.cleopatra_order, "caesar_order": config.caesar_order,
                             "variants": list(config.variants), "swap_seats": config.swap_seats}
        return out


def summarize_frame(df) -> dict:
    """The summary of a results DataFrame (``ccsim.run.results_frame``), as Summary.to_dict gives it."""
    s = Summary()
    winner = df["winner"].map({"cleopatra": 0, "caesar": 1}).fillna(-1).to_numpy()
    end = df["end"].map({name: k for k, name in enumerate(R.END_NAMES)}).to_numpy()
    s.add(winner, end, df["turns"].to_numpy(), df["vp_cleopatra"].to_numpy(), df["vp_caesar"].to_numpy(),
          df["error"].to_numpy())
    return s.to_dict()


def format_summary(d: dict) -> str:
    """A readable table of a summary dictionary."""
    n = d["games"]
    lines = []
    cfg = d.get("config")
    if cfg:
        lines.append(f"cleopatra: {cfg['cleopatra']} ({cfg['cleopatra_order']})   "
                     f"caesar: {cfg['caesar']} ({cfg['caesar_order']})")
        extra = []
        if cfg["variants"]:
            extra.append("variants: " + ", ".join(cfg["variants"]))
        if cfg["swap_seats"]:
            extra.append("seats swapped in every other game")
        extra.append(f"seed {cfg['seed']}")
        lines.append("   ".join(extra))
    lines.append(f"games: {n:,}" + ("   (interrupted: partial result)" if d.get("interrupted") else ""))
    lines.append("")
    lines.append(f"{'':12}{'wins':>10}{'win rate':>10}   {'95% CI':<17}{'mean VP':>9}")
    for s in SEATS:
        w = d["win_rate"][s]
        vp = d["mean_vp"][s]
        ci = f"[{w['ci95'][0]:.1%}, {w['ci95'][1]:.1%}]"
        lines.append(f"{s:12}{d['wins'][s]:>10,}{w['rate']:>10.1%}   {ci:<17}{vp['mean'] if vp else 0:>9.2f}")
    dr = d["draw_rate"]
    lines.append(f"{'draws':12}{d['draws']:>10,}{dr['rate']:>10.1%}   [{dr['ci95'][0]:.1%}, {dr['ci95'][1]:.1%}]")
    lines.append("")
    lines.append("end reasons: " + ", ".join(f"{k} {v:,} ({v / n:.1%})" for k, v in d["end_reasons"].items() if n))
    turns = f"{d['mean_turns']:.1f}" if n else "-"  # none when interrupted before the first chunk
    lines.append(f"truncated games: {d['truncated']:,}   mean turns: {turns}")
    if d.get("engine_errors"):
        lines.append(f"ENGINE ERRORS: {d['engine_errors']}")
    if d.get("games_per_s"):
        lines.append(f"time: {d['seconds']:.2f} s   ({d['games_per_s']:,.0f} games/s)")
    return "\n".join(lines)

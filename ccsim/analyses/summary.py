"""Run summaries: accumulated chunk by chunk (memory stays flat), or from a DataFrame.

Both paths give the same dictionary, so a summary read back from Parquet
equals the one printed at the end of the run.

Where two different sides (strategy, ordering) meet with the seats swapped,
the seats' shares mix both sides: the summary then leads with each side's own
result (``by_strategy``), both seats together and each seat apart, and the
seats' table comes second.  The tables a person reads are drawn in ``ccsim.present.summary``.
"""
from __future__ import annotations

import numpy as np

from ccsim.kernel import rules as R
from ccsim.kernel.engine.episode import R_WINNER, R_END, R_TURNS, R_VP, R_ERROR
from ccsim.analyses.stats import wilson_interval, mean_ci
from ccsim.runner.ruleset import rules_block

SEATS = R.PLAYERS


class Summary:
    """Sufficient statistics of a run's result rows."""

    def __init__(self, sides=None, repeats: int = 1):
        self.sides = sides  # ((strategy, ordering) of side A, of side B): who sits where when not swapped
        # how many times each game was played: 2 where --swap-seats replayed a mirror's games exactly
        # (RunConfig.swap_repeats); the intervals count each game once, the counts every game played
        self.repeats = repeats
        self.by_arrangement = np.zeros((2, 4), np.int64)  # [swapped] games, cleopatra wins, caesar wins, draws
        self.vp_by_arrangement = np.zeros((2, 2), np.float64)  # [swapped, seat] VP sums
        self.games = 0
        self.wins = np.zeros(2, np.int64)
        self.draws = 0
        self.ends = np.zeros(len(R.END_NAMES), np.int64)
        self.vp_sum = np.zeros(2, np.float64)
        self.vp_sq = np.zeros(2, np.float64)
        self.turn_sum = 0.0
        self.errors = 0
        self.seconds = 0.0

    def add(self, winner, end, turns, vp0, vp1, error=None, swapped=False):
        """Add a chunk given as column arrays (games with the seats swapped or not: a boolean or an array)."""
        winner = np.asarray(winner)
        sw = np.broadcast_to(np.asarray(swapped, bool), winner.shape)
        for a in (0, 1):
            w = winner[sw == bool(a)]
            self.by_arrangement[a] += (len(w), (w == 0).sum(), (w == 1).sum(), (w == -1).sum())
            for p, vp in enumerate((vp0, vp1)):
                self.vp_by_arrangement[a, p] += np.asarray(vp, np.float64)[sw == bool(a)].sum()
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
        if error is not None:
            self.errors += int((np.asarray(error) != 0).sum())

    def add_rows(self, rows: np.ndarray, swapped: bool = False):
        self.add(rows[:, R_WINNER], rows[:, R_END], rows[:, R_TURNS], rows[:, R_VP], rows[:, R_VP + 1],
                 rows[:, R_ERROR], swapped)

    def by_side(self) -> list[dict] | None:
        """Each side's result, both seats together and each apart; None unless two different
        sides played with the seats swapped."""
        if self.sides is None or self.sides[0] == self.sides[1] or self.by_arrangement[1, 0] == 0:
            return None
        out = []
        for k, (strategy, ordering) in enumerate(self.sides):
            seats = {}
            tot = np.zeros(4)
            vp = 0.0
            for a in (0, 1):
                p = k ^ a  # side k sits at seat k, and at the other seat when swapped
                g, w0, w1, d = self.by_arrangement[a]
                wins = (w0, w1)[p]
                seats[SEATS[p]] = _rates(g, wins, d)
                tot += (g, wins, d, g - wins - d)
                vp += self.vp_by_arrangement[a, p]
            g, wins, d, losses = (int(x) for x in tot)
            side = {"strategy": strategy, "ordering": ordering, **_rates(g, wins, d), "losses": losses,
                    "mean_vp": float(vp / g) if g else None}
            side.update({f"as_{s}": seats[s] for s in SEATS})
            out.append(side)
        return out

    def repeat_factor(self) -> float:
        """Games played per game distinct: 1, or with repeats the games over the larger arrangement's (an
        interrupted run may hold more first games than replays)."""
        if self.repeats == 1 or not self.games:
            return 1.0
        return self.games / max(self.by_arrangement[:, 0])

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
        k = self.repeat_factor()
        for p, s in enumerate(SEATS):
            lo, hi = wilson_interval(self.wins[p] / k, n / k)
            out["win_rate"][s] = {"rate": float(self.wins[p] / n) if n else 0.0, "ci95": [float(lo), float(hi)]}
            m, lo, hi = mean_ci(self.vp_sum[p] / k, self.vp_sq[p] / k, n / k)
            out["mean_vp"][s] = {"mean": float(m), "ci95": [float(lo), float(hi)]} if n else None
        lo, hi = wilson_interval(self.draws / k, n / k)
        out["draw_rate"] = {"rate": float(self.draws / n) if n else 0.0, "ci95": [float(lo), float(hi)]}
        out["mean_turns"] = float(self.turn_sum / n) if n else None
        out["seconds"] = round(self.seconds, 3)
        out["games_per_s"] = round(n / self.seconds, 1) if self.seconds > 0 else None
        if interrupted:
            out["interrupted"] = True
        if self.repeats > 1:
            out["repeats"] = self.repeats
        sides = self.by_side()
        if sides:
            out["by_strategy"] = sides
        if config is not None:
            out["config"] = {"seed": config.seed, "cleopatra": config.cleopatra, "caesar": config.caesar,
                             "cleopatra_order": config.cleopatra_order, "caesar_order": config.caesar_order,
                             "variants": list(config.variants), "swap_seats": config.swap_seats,
                             "rules": rules_block(config.rules_vector())}
        return out


def _rates(games, wins, draws) -> dict:
    """games, wins, draws, win rate and score (a draw counts half), each with its 95% Wilson interval."""
    g, w, d = int(games), int(wins), int(draws)
    lo, hi = wilson_interval(w, g)
    slo, shi = wilson_interval(w + 0.5 * d, g)
    return {"games": g, "wins": w, "draws": d,
            "win_rate": {"rate": w / g if g else 0.0, "ci95": [float(lo), float(hi)]},
            "score": {"rate": (w + 0.5 * d) / g if g else 0.0, "ci95": [float(slo), float(shi)]}}


def sides_of(df):
    """((strategy, ordering) of side A, of side B) of a results frame: A sits as cleopatra unswapped."""
    plain = df[~df["swapped"]] if "swapped" in df else df
    first = (plain if len(plain) else df).iloc[0]
    a = (first["strategy_cleopatra"], first["ordering_cleopatra"])
    b = (first["strategy_caesar"], first["ordering_caesar"])
    return (a, b) if len(plain) else (b, a)


def summarize_frame(df) -> dict:
    """The summary of a results DataFrame (``ccsim.analyses.run.results_frame``), as Summary.to_dict gives it."""
    s = Summary(sides_of(df) if len(df) else None, swap_repeats_of(df))
    winner = df["winner"].map({"cleopatra": 0, "caesar": 1}).fillna(-1).to_numpy()
    end = df["end"].map({name: k for k, name in enumerate(R.END_NAMES)}).to_numpy()
    s.add(winner, end, df["turns"].to_numpy(), df["vp_cleopatra"].to_numpy(), df["vp_caesar"].to_numpy(),
          df["error"].to_numpy(), df["swapped"].to_numpy() if "swapped" in df else False)
    return s.to_dict()


def swap_repeats_of(df) -> int:
    """2 where a results frame's swapped games are its first games again, game for game (a mirror played with
    --swap-seats: ``RunConfig.swap_repeats``), else 1: what its intervals divide the games by."""
    if "swapped" not in df or not df["swapped"].any() or df["swapped"].all():
        return 1
    first, again = (df[df["swapped"] == s].drop(columns="swapped").set_index("game") for s in (False, True))
    both = first.index.intersection(again.index)
    return 2 if len(both) and first.loc[both].equals(again.loc[both]) else 1

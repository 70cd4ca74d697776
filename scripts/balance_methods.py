"""Why ccsim balance races: three ways to spend one budget, on a landscape measured by a real search.

    python scripts/balance_methods.py results/balance/candidates.parquet [--budgets 1,2,4,6] [--repeats 40]

The seat advantages a real search measured (``candidates.parquet``: every candidate of the space,
at its first level) are taken as the truth, and games are drawn from it: each deal of a candidate
is a Cleopatra win, draw or loss with that candidate's probabilities (its measured draw rate,
wins set by its seat advantage), independently of every other candidate (no common random numbers,
which would only help the methods that compare candidates on the same deals).  Each method spends
the budget (millions of games) on the space through ``ccsim.analyses.balance.race.race``, then
recommends as ``ccsim balance`` does and re-measures the recommended on ``--fresh`` fresh deals:

* ``uniform``: every candidate gets the same deals (one round: an exhaustive grid);
* ``halving``: successive halving by Pareto layers, no interval elimination;
* ``race``: the default, halving and the elimination of the clearly unfair (99% interval).

For each it prints, over ``--repeats`` draws: how often a recommended setting is confirmed fair on
fresh deals (the issue's target), the true |seat advantage| of the best one confirmed, how often a
setting that is truly outside the tolerance is confirmed, and the deals the finalists got.
"""
from __future__ import annotations

import argparse
import os
import sys

import numpy as np
import pandas as pd

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from ccsim.analyses.balance.estimates import COLUMNS, ONE, SCORE  # noqa: E402
from ccsim.analyses.balance import recommend  # noqa: E402
from ccsim.analyses.balance.race import RacePlan, RoundResult, pareto_layers, race  # noqa: E402
from ccsim.analyses.stats import Moments, wilson_interval  # noqa: E402

TOLERANCE = 0.01


def score_moments(wins: np.ndarray, draws: np.ndarray, n: int) -> list[Moments]:
    """Moments of the per-deal columns the race reads (score and one) from counts: a score is
    1 (win), 1/2 (draw) or 0, so its sum is wins + draws/2 and its sum of squares wins + draws/4."""
    out = []
    for w, d in zip(wins, draws):
        m = Moments(len(COLUMNS), batch=1)
        m.n = n
        m.sum[0, SCORE], m.sum[0, ONE] = w + d / 2, n
        m.cross[0, SCORE, SCORE], m.cross[0, SCORE, ONE], m.cross[0, ONE, SCORE] = w + d / 4, w + d / 2, w + d / 2
        m.cross[0, ONE, ONE] = n
        out.append(m)
    return out


def draw_games(rng, truth: pd.DataFrame, members, deals: int):
    """Wins and draws of ``deals`` deals for each member: Cleopatra's score is 1/2 + its seat advantage."""
    adv, draw = truth["adv"].to_numpy()[list(members)], truth["draw"].to_numpy()[list(members)]
    p_win = np.clip(0.5 + adv - draw / 2, 0, 1 - draw)
    counts = np.array([rng.multinomial(deals, [w, d, 1 - w - d]) for w, d in zip(p_win, draw)])
    return counts[:, 0], counts[:, 1]


def simulated_measure(rng, truth):
    def measure(rnd):
        wins, draws = draw_games(rng, truth, rnd.members, rnd.deals)
        stats = dict(zip(rnd.members, score_moments(wins, draws, rnd.deals)))
        return RoundResult(stats, games=rnd.deals * len(rnd.members))
    return measure


def recommended(res, truth: pd.DataFrame, k: int = 3) -> list[int]:
    """ccsim balance's choice (``balance.recommend``) on the race's point estimates."""
    est = np.array([e.worst(1) if e.stats is not None and e.stats.n else np.nan for e in res.entries])
    frame = truth.assign(candidate=range(len(truth)), worst=est, keeps_bounds=True,
                         status=[e.status for e in res.entries])[np.isfinite(est)]
    frame["pareto"] = pareto_layers(frame["worst"], frame["changes"], frame["size"]) == 1
    return recommend(frame, TOLERANCE, k)


def fresh_fair(rng, truth, picks, deals: int) -> list[int]:
    """The picks whose fresh 95% interval lies within the tolerance."""
    if not picks:
        return []
    wins, draws = draw_games(rng, truth, picks, deals)
    score = wins + draws / 2
    lo, hi = wilson_interval(score, deals)
    return [i for i, a, b in zip(picks, lo, hi) if a - 0.5 >= -TOLERANCE and b - 0.5 <= TOLERANCE]


def one_draw(rng, truth, method: str, budget: int, fresh: int) -> dict:
    k = len(truth) - 1
    plan = dict(uniform=RacePlan(1, 1, budget, TOLERANCE, finalists=k),
                halving=RacePlan(1, 1, budget, TOLERANCE, confidence=1 - 1e-12),
                race=RacePlan(1, 1, budget, TOLERANCE))[method]
    res = race(list(zip(truth["changes"], truth["size"])), simulated_measure(rng, truth), plan)
    fair = fresh_fair(rng, truth, recommended(res, truth), fresh)
    true = truth["adv"].abs().to_numpy()
    best = min(true[i] for i in fair) if fair else np.nan
    finalist_deals = max(e.stats.n for e in res.entries[1:] if e.stats is not None)
    return dict(found=bool(fair), best_true=best, false_fair=any(true[i] > TOLERANCE for i in fair),
                finalist_deals=finalist_deals)


def landscape(path: str) -> pd.DataFrame:
    df = pd.read_parquet(path)
    first = df[df["level"] == df["level"].iloc[0]].sort_values("candidate")
    return pd.DataFrame(dict(adv=first["seat_advantage"].to_numpy(), draw=first["draw_rate"].to_numpy(),
                             changes=first["changes"].to_numpy(), size=first["size"].to_numpy()))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("candidates", help="candidates.parquet of a ccsim balance run (the truth)")
    ap.add_argument("--budgets", default="1,2,4,6", help="millions of games, comma-separated")
    ap.add_argument("--repeats", type=int, default=40)
    ap.add_argument("--fresh", type=int, default=100_000, help="fresh deals of the re-measure")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args(argv)
    truth = landscape(a.candidates)
    n_fair = int((truth["adv"].abs()[1:] <= TOLERANCE / 2).sum())
    print(f"{len(truth) - 1} candidates, {n_fair} of them within ±{50 * TOLERANCE:g} point of even (the truth)")
    print(f"{'budget':>8} {'method':<8} {'confirmed fair':>15} {'best |adv|, pts':>16} {'false fair':>11} "
          f"{'finalist deals':>15}")
    rng = np.random.default_rng(a.seed)
    for budget in (int(float(b) * 1e6) for b in a.budgets.split(",")):
        for method in ("uniform", "halving", "race"):
            rows = pd.DataFrame([one_draw(rng, truth, method, budget, a.fresh) for _ in range(a.repeats)])
            print(f"{budget / 1e6:>7g}M {method:<8} {rows['found'].mean():>14.0%} "
                  f"{100 * rows['best_true'].mean():>16.2f} {rows['false_fair'].mean():>11.0%} "
                  f"{rows['finalist_deals'].median():>15,.0f}")


if __name__ == "__main__":
    main()

"""``positions``, the third ordering study (``ccsim.analyses.orderings.study``): what each card
type is worth at each depth of the deck, by a linear regression of the score on
type-at-position indicators across many uniformly random orderings, with standard errors."""
from __future__ import annotations

import math
import time

import numpy as np
import pandas as pd

from ccsim.analyses.orderings.matchup import Matchup, OrderingStudyError, deal_values, positive_count
from ccsim.kernel import rules as R
from ccsim.analyses.orderings.space import random_orderings
from ccsim.runner.orderings import COUNTS, LENGTH, LETTERS, SHUFFLED

__all__ = ["positions", "positions_size", "PositionFit", "REGIONS"]

#: depth regions of the position table (1 = top of the deck)
REGIONS = (("top 3", 1, 3), ("4-6", 4, 6), ("7-10", 7, 10), ("bottom 3", 11, 13))

_N_FEAT = (len(LETTERS) - 1) * (LENGTH - 1)  # type x position, type A and position 13 as reference


def _features(codes: np.ndarray) -> np.ndarray:
    """Indicators of type t (S..V) at position p (1..12): (n, 60) float64."""
    x = np.zeros((codes.shape[0], len(LETTERS) - 1, LENGTH - 1))
    for t in range(1, len(LETTERS)):
        x[:, t - 1, :] = codes[:, :LENGTH - 1] == t
    return x.reshape(codes.shape[0], -1)


def _effect_map() -> np.ndarray:
    """Linear map from the 60 regression coefficients to the 78 effects E[y | t at p] - E[y].

    With f(t, p) the additive value of type t at position p (f = 0 for the
    reference type and position), h(t, p) = f(t, p) - sum_u w_u f(u, p)
    (w_u = count_u / 13) and e(t, p) = h(t, p) - mean_q h(t, q), a uniformly
    random ordering has E[y | t at p] - E[y] = 13/12 e(t, p).
    """
    w = np.array(COUNTS, float) / LENGTH
    cols = []
    for j in range(_N_FEAT):
        beta = np.zeros(_N_FEAT)
        beta[j] = 1.0
        f = np.zeros((len(LETTERS), LENGTH))
        f[1:, :LENGTH - 1] = beta.reshape(len(LETTERS) - 1, LENGTH - 1)
        h = f - (w[:, None] * f).sum(axis=0, keepdims=True)
        e = h - h.mean(axis=1, keepdims=True)
        cols.append(e.ravel() * LENGTH / (LENGTH - 1))
    return np.array(cols).T  # (78, 60)


class PositionFit:
    """OLS of a per-ordering outcome on type-at-position indicators, from sufficient statistics.

    ``add(codes, y)`` chunk by chunk (code rows of uniformly random orderings
    and their outcomes), then ``solve()`` gives the 78 effects
    E[y | t at p] - E[y] (row-major: type, then position) of the fitted
    additive model, their covariance, the model-free differences of means
    (``raw``) and fit statistics.
    """

    def __init__(self):
        p = _N_FEAT + 1
        self.xtx = np.zeros((p, p))
        self.xty = np.zeros(p)
        self.yty = 0.0
        self.n = 0
        self.raw_sum = np.zeros((len(LETTERS), LENGTH))
        self.raw_n = np.zeros((len(LETTERS), LENGTH))

    def add(self, codes, y) -> None:
        codes = np.asarray(codes)
        y = np.asarray(y, dtype=float)
        x = np.concatenate([np.ones((len(y), 1)), _features(codes)], axis=1)
        self.xtx += x.T @ x
        self.xty += x.T @ y
        self.yty += float(y @ y)
        self.n += len(y)
        for t in range(len(LETTERS)):
            at = codes == t
            self.raw_sum[t] += y @ at
            self.raw_n[t] += at.sum(axis=0)

    def solve(self):
        p = _N_FEAT + 1
        if self.n <= p:
            raise OrderingStudyError(f"the position regression needs more than {p} orderings, got {self.n}")
        beta = np.linalg.solve(self.xtx, self.xty)
        rss = max(self.yty - float(beta @ self.xty), 0.0)
        sigma2 = rss / (self.n - p)
        cov = sigma2 * np.linalg.inv(self.xtx)
        ybar = self.xty[0] / self.n
        tss = self.yty - self.n * ybar * ybar
        L = _effect_map()
        eff = L @ beta[1:]
        ecov = L @ cov[1:, 1:] @ L.T
        raw = (self.raw_sum / np.maximum(self.raw_n, 1) - ybar).ravel()
        info = dict(mean_score=float(ybar), resid_sd=math.sqrt(sigma2),
                    r2=float(1.0 - rss / tss) if tss > 0 else math.nan)
        return eff, ecov, raw, info


def positions_size(games, deals_per_ordering=1) -> tuple[int, int]:
    """(random orderings, deals each) of a positions study of ``games`` games; OrderingStudyError if too few."""
    games = positive_count(games, "--games", 2)
    per = positive_count(deals_per_ordering, "--deals-per-ordering")
    n_ord = games // (2 * per)
    if n_ord < 2 * (_N_FEAT + 1):
        raise OrderingStudyError(f"--games {games}: too few for the regression (needs at least "
                         f"{2 * per * 2 * (_N_FEAT + 1)} games)")
    return n_ord, per


def positions(strategy: str | None = None, opponent: str | None = None, opponent_order: str = SHUFFLED,
              games: int = 1_000_000, seed: int = 1, deals_per_ordering: int = 1, variants=(),
              confidence: float = 0.95, log=None, backend=None) -> pd.DataFrame:
    """What each card type is worth at each depth of the deck.

    ``games / (2 * deals_per_ordering)`` uniformly random orderings each play
    their own deals (each at both seats; no deal is shared, so orderings are
    independent observations).  The per-ordering mean score is regressed (OLS)
    on the 60 identifiable type-at-position indicators; the fitted additive
    model gives, for every card type t and position p (1 = top),

        effect(t, p) = E[score | t at p] - E[score]

    over uniformly random orderings: how much better (in score, 0..1; x100 for
    points of win rate) orderings with a t at p do than random ones.  Region
    rows average effect(t, p) over the positions of a depth region (REGIONS):
    "a veto in the top three is worth +x points".  ``raw`` is the model-free
    difference of means, a check.

    Returns one row per (card, position) (``kind`` = 'position') and per
    (card, region) (``kind`` = 'region'): card, letter, kind, region, first,
    last, effect, se, lo, hi, raw.  ``attrs`` holds the number of orderings,
    games, the mean score, the residual sd and R^2.
    """
    n_ord, per = positions_size(games, deals_per_ordering)
    log = log or (lambda msg: None)
    m = Matchup(strategy, opponent, opponent_order, seed, tuple(variants), backend=backend)
    rng = np.random.default_rng([seed, 0x9051])
    fit = PositionFit()
    t0 = time.perf_counter()
    chunk = max(1, 200_000 // (2 * per))
    done = 0
    while done < n_ord:
        k = min(chunk, n_ord - done)
        codes = random_orderings(rng, k)
        y = deal_values(m.play(codes, done * per, per, np.arange(k, dtype=np.int64) * per)).mean(axis=1)
        fit.add(codes, y)
        done += k
        log(f"positions: {done:,}/{n_ord:,} orderings [{m.games:,} games, {time.perf_counter() - t0:.0f} s]")
    eff, ecov, raw, info = fit.solve()
    df = pd.DataFrame(_effect_rows(eff, ecov, raw, confidence))
    df.attrs.update(orderings=int(n_ord), games=int(m.games), deals_per_ordering=per, **info,
                    matchup=m.describe(), seconds=time.perf_counter() - t0, confidence=confidence)
    return df


def _effect_rows(eff, ecov, raw, confidence: float) -> list[dict]:
    """The rows of ``positions``: every (card, position), then every (card, region), with intervals."""
    from scipy import stats as sps
    zq = float(sps.norm.ppf(0.5 + confidence / 2))
    recs = []
    raw = raw.reshape(len(LETTERS), LENGTH)
    for t, ch in enumerate(LETTERS):
        for q in range(LENGTH):
            i = t * LENGTH + q
            se = math.sqrt(max(ecov[i, i], 0.0))
            recs.append(dict(card=R.ACTION_NAMES[t], letter=ch, kind="position", region=str(q + 1), first=q + 1,
                             last=q + 1, effect=eff[i], se=se, lo=eff[i] - zq * se, hi=eff[i] + zq * se,
                             raw=raw[t, q]))
    for t, ch in enumerate(LETTERS):
        for name, a, b in REGIONS:
            v = np.zeros(len(LETTERS) * LENGTH)
            v[t * LENGTH + a - 1:t * LENGTH + b] = 1.0 / (b - a + 1)
            e = float(v @ eff)
            se = math.sqrt(max(float(v @ ecov @ v), 0.0))
            recs.append(dict(card=R.ACTION_NAMES[t], letter=ch, kind="region", region=name, first=a, last=b,
                             effect=e, se=se, lo=e - zq * se, hi=e + zq * se,
                             raw=float(raw[t, a - 1:b].mean())))
    return recs

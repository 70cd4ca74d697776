"""Statistics for win-rate analysis of self-play games.

Small, pure, documented helpers used to summarise millions of simulated
Caesar & Cleopatra games.  Everything here works from counts or from
*sufficient statistics* (``n``, ``sum``, ``sum of squares``), so results can
be accumulated chunk by chunk and merged across workers without keeping
per-game data in memory.

Contents
--------
Proportions
    :func:`wilson_interval`, :func:`score_rate`
Means
    :func:`mean_ci`
Paired comparisons (two alternatives played on the same seeds)
    :func:`paired_difference`, :class:`PairedStats`
Sequential testing (stop as soon as a comparison is decided)
    :class:`SPRT`, :func:`sprt_decide_difference`
Ratios of means and their paired differences (the designer metrics)
    :class:`Moments`, :func:`ratio_interval`, :func:`ratio_difference`
Multiple comparisons
    :func:`holm`
Ratings
    :func:`elo_from_score`, :func:`score_from_elo`, :func:`bradley_terry`,
    :func:`bradley_terry_se`, :func:`rating_intervals`, :func:`nash_average`

Only numpy and scipy are used.
"""

from __future__ import annotations

import math
from statistics import NormalDist
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = [
    "wilson_interval",
    "score_rate",
    "mean_ci",
    "paired_difference",
    "PairedStats",
    "SPRT",
    "sprt_decide_difference",
    "elo_from_score",
    "score_from_elo",
    "bradley_terry",
    "bradley_terry_se",
    "rating_intervals",
    "Moments",
    "ratio_interval",
    "ratio_difference",
    "holm",
    "nash_average",
    "json_number",
]

#: Elo points per natural-log unit of Bradley-Terry strength (400 / ln 10).
ELO_PER_NAT = 400.0 / math.log(10.0)


def _t_dist():
    """scipy's Student t, imported on first use: scipy.stats takes a second to import, and
    `ccsim run` (Wilson intervals: the normal quantile, from the standard library) needs none."""
    from scipy.stats import t
    return t


def _z(confidence: float) -> float:
    """Two-sided standard-normal quantile for ``confidence``."""
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be in (0, 1), got {confidence!r}")
    return NormalDist().inv_cdf(0.5 + confidence / 2.0)


def _out(x: np.ndarray) -> Any:
    """Return a Python float for 0-d results, the array otherwise."""
    return float(x) if np.ndim(x) == 0 else x


# ---------------------------------------------------------------------------
# Proportions
# ---------------------------------------------------------------------------


def wilson_interval(successes, n, confidence: float = 0.95):
    """Wilson score interval for a binomial proportion.

    ``successes`` and ``n`` may be scalars or numpy arrays (broadcast
    together); the result is a pair ``(lo, hi)`` of floats or arrays.  Where
    ``n == 0`` the interval is the uninformative ``(0.0, 1.0)``; ``lo`` is
    exactly 0 when ``successes == 0`` and ``hi`` exactly 1 when
    ``successes == n``.  Fractional
    successes (e.g. ``wins + draws / 2``) are accepted.

    With ``p = successes / n`` and ``z`` the normal quantile::

        centre = (p + z^2 / (2n)) / (1 + z^2 / n)
        half   = z * sqrt(p (1 - p) / n + z^2 / (4 n^2)) / (1 + z^2 / n)

    >>> lo, hi = wilson_interval(81, 263)
    >>> round(lo, 4), round(hi, 4)
    (0.2553, 0.3662)
    >>> wilson_interval(0, 0)
    (0.0, 1.0)
    >>> lo, hi = wilson_interval(np.array([0, 5, 0]), np.array([10, 10, 0]))
    >>> np.round(lo, 3), np.round(hi, 3)
    (array([0.   , 0.237, 0.   ]), array([0.278, 0.763, 1.   ]))
    """
    z = _z(confidence)
    s = np.asarray(successes, dtype=float)
    nn = np.asarray(n, dtype=float)
    s, nn = np.broadcast_arrays(s, nn)
    if np.any(nn < 0) or np.any(s < 0) or np.any(s > nn):
        raise ValueError("need 0 <= successes <= n")
    empty = nn == 0
    safe_n = np.where(empty, 1.0, nn)
    p = s / safe_n
    z2 = z * z
    denom = 1.0 + z2 / safe_n
    centre = (p + z2 / (2.0 * safe_n)) / denom
    half = z * np.sqrt(p * (1.0 - p) / safe_n + z2 / (4.0 * safe_n**2)) / denom
    # The bounds are exactly 0 at successes == 0 and 1 at successes == n.
    lo = np.where(empty | (s == 0), 0.0, np.clip(centre - half, 0.0, 1.0))
    hi = np.where(empty | (s == nn), 1.0, np.clip(centre + half, 0.0, 1.0))
    return _out(lo), _out(hi)


def score_rate(wins, draws, n):
    """Score rate ``(wins + draws / 2) / n`` (a draw is worth half a win).

    Vectorised; ``nan`` where ``n == 0``.

    >>> score_rate(6, 2, 10)
    0.7
    >>> score_rate(np.array([1, 0]), np.array([0, 0]), np.array([2, 0]))
    array([0.5, nan])
    """
    w = np.asarray(wins, dtype=float)
    d = np.asarray(draws, dtype=float)
    nn = np.asarray(n, dtype=float)
    pts = w + 0.5 * d
    with np.errstate(divide="ignore", invalid="ignore"):
        r = np.where(nn == 0, np.nan, pts / np.where(nn == 0, 1.0, nn))
    return _out(r)


# ---------------------------------------------------------------------------
# Means from sufficient statistics
# ---------------------------------------------------------------------------


def _mean_var(total, total_sq, n):
    """Mean and unbiased (ddof=1) variance from sufficient statistics.

    Variance is clamped at 0 (guards against tiny negative rounding) and is
    ``nan`` for ``n < 2``; mean is ``nan`` for ``n == 0``.  Vectorised.
    """
    s = np.asarray(total, dtype=float)
    ss = np.asarray(total_sq, dtype=float)
    nn = np.asarray(n, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        mean = np.where(nn > 0, s / np.where(nn > 0, nn, 1.0), np.nan)
        css = ss - s * mean  # centred sum of squares = sumsq - sum^2 / n
        var = np.where(nn > 1, np.maximum(css, 0.0) / np.where(nn > 1, nn - 1.0, 1.0), np.nan)
    return mean, var


def mean_ci(values_sum, values_sumsq, n, confidence: float = 0.95):
    """Normal-approximation interval for a mean from sufficient statistics.

    For summaries computed chunk by chunk (mean victory points, mean game
    length, ...): accumulate ``values_sum = sum(x)``,
    ``values_sumsq = sum(x**2)`` and ``n``, then call this.

    Returns ``(mean, lo, hi)`` with ``mean -/+ z * s / sqrt(n)`` where ``s``
    is the sample standard deviation (ddof=1).  For ``n < 2`` the interval
    is ``(-inf, inf)`` (mean is ``nan`` when ``n == 0``).  Vectorised.

    >>> x = np.array([3.0, 4.0, 5.0, 6.0])
    >>> m, lo, hi = mean_ci(x.sum(), (x**2).sum(), x.size)
    >>> m, round(lo, 3), round(hi, 3)
    (4.5, 3.235, 5.765)
    """
    z = _z(confidence)
    mean, var = _mean_var(values_sum, values_sumsq, n)
    nn = np.asarray(n, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        half = np.where(nn > 1, z * np.sqrt(var / np.where(nn > 1, nn, 1.0)), np.inf)
    return _out(mean), _out(mean - half), _out(mean + half)


# ---------------------------------------------------------------------------
# Paired comparisons
# ---------------------------------------------------------------------------


@dataclass
class PairedStats:
    """Accumulator of paired differences ``d = a - b``: ``n``, ``sum``, ``sumsq``.

    Feed it numpy chunks with :meth:`update` (either the two outcome arrays
    ``a, b`` or the differences directly), combine workers with
    :meth:`merge` or ``+``.  :meth:`summary` gives the same numbers as
    :func:`paired_difference` on the concatenated data.

    For game scores (multiples of 1/2) all three accumulators are exact in
    float64 as long as the totals stay below 2**52, so chunked and one-shot
    results agree bit for bit.

    >>> ps = PairedStats()
    >>> ps = ps.update(np.array([1, 0.5, 1]), np.array([0, 0.5, 0.5]))
    >>> ps = ps.update(np.array([0.5]))          # one more difference
    >>> ps.n, ps.sum, ps.sumsq, ps.mean
    (4, 2.0, 1.5, 0.5)
    >>> (ps + PairedStats(1, -1.0, 1.0)).n
    5
    """

    n: int = 0
    sum: float = 0.0
    sumsq: float = 0.0

    @classmethod
    def from_arrays(cls, a, b=None) -> "PairedStats":
        """New accumulator from one chunk (see :meth:`update`)."""
        return cls().update(a, b)

    def update(self, a, b=None) -> "PairedStats":
        """Add a chunk in place and return ``self``.

        With ``b`` given the differences are ``a - b`` (same shape);
        otherwise ``a`` already holds the differences.
        """
        a = np.asarray(a, dtype=float)
        if b is not None:
            b = np.asarray(b, dtype=float)
            if a.shape != b.shape:
                raise ValueError(f"shape mismatch: {a.shape} vs {b.shape}")
            d = a - b
        else:
            d = a
        d = d.ravel()
        self.n += int(d.size)
        self.sum += float(d.sum())
        self.sumsq += float(np.dot(d, d))
        return self

    def merge(self, other: "PairedStats") -> "PairedStats":
        """Return a new accumulator holding both sets of pairs."""
        return PairedStats(self.n + other.n, self.sum + other.sum, self.sumsq + other.sumsq)

    __add__ = merge

    @property
    def mean(self) -> float:
        """Mean difference (``nan`` when empty)."""
        return float(_mean_var(self.sum, self.sumsq, self.n)[0])

    @property
    def var(self) -> float:
        """Sample variance of the differences, ddof=1 (``nan`` if n < 2)."""
        return float(_mean_var(self.sum, self.sumsq, self.n)[1])

    @property
    def se(self) -> float:
        """Standard error of the mean difference (``nan`` if n < 2)."""
        return math.sqrt(self.var / self.n) if self.n > 1 else math.nan

    def interval(self, confidence: float = 0.95) -> tuple[float, float]:
        """Student-t interval for the mean difference (see :meth:`summary`)."""
        s = self.summary(confidence)
        return s["lo"], s["hi"]

    def summary(self, confidence: float = 0.95) -> dict:
        """``dict(diff, lo, hi, se, n)`` exactly as :func:`paired_difference`."""
        _z(confidence)  # validate
        mean, se, n = self.mean, self.se, self.n
        if n < 2:
            return dict(diff=mean, lo=-math.inf, hi=math.inf, se=math.nan, n=n)
        if se == 0.0:
            return dict(diff=mean, lo=mean, hi=mean, se=0.0, n=n)
        t = float(_t_dist().ppf(0.5 + confidence / 2.0, n - 1))
        return dict(diff=mean, lo=mean - t * se, hi=mean + t * se, se=se, n=n)


def paired_difference(a, b, confidence: float = 0.95) -> dict:
    """Mean paired difference ``a - b`` with a Student-t interval.

    ``a`` and ``b`` are per-pair outcomes of two alternatives played on the
    same seeds (e.g. scores 1 / 0.5 / 0).  Returns
    ``dict(diff, lo, hi, se, n)``: ``diff = mean(a - b)``,
    ``se = sd(a - b, ddof=1) / sqrt(n)`` and ``diff -/+ t_{n-1} * se``.

    When every difference is the same (in particular ``a == b``) the
    interval has zero width; with ``a == b`` it is exactly ``0``.
    With fewer than two pairs ``se`` is ``nan`` and the interval infinite.

    >>> r = paired_difference([1, 1, 0.5, 0], [0, 1, 0.5, 0])
    >>> r["diff"], r["n"], round(r["se"], 3), round(r["lo"], 3), round(r["hi"], 3)
    (0.25, 4, 0.25, -0.546, 1.046)
    >>> paired_difference([1, 0, 0.5], [1, 0, 0.5])
    {'diff': 0.0, 'lo': 0.0, 'hi': 0.0, 'se': 0.0, 'n': 3}
    """
    return PairedStats.from_arrays(a, b).summary(confidence)


# ---------------------------------------------------------------------------
# Sequential probability ratio test
# ---------------------------------------------------------------------------


def _stats_tuple(stats) -> tuple[int, float, float]:
    """``(n, sum, sumsq)`` from a PairedStats-like object or a 3-tuple."""
    if hasattr(stats, "sumsq"):
        return int(stats.n), float(stats.sum), float(stats.sumsq)
    n, s, ss = stats
    return int(n), float(s), float(ss)


class SPRT:
    """Wald SPRT / GSPRT on a mean difference, normal approximation.

    Tests ``H0: mean = d0`` against ``H1: mean = d1`` for i.i.d. paired
    differences, the way fishtest runs its trinomial/pentanomial GSPRT:
    the log-likelihood ratio of two normals with the *observed* (MLE)
    variance ``var = sumsq / n - mean**2`` is::

        LLR = n * (d1 - d0) * (2 * mean - d0 - d1) / (2 * var)

    Sampling stops at the first check where ``LLR <= lower`` (accept H0) or
    ``LLR >= upper`` (accept H1), with Wald's bounds::

        lower = log(beta / (1 - alpha)),   upper = log((1 - beta) / alpha)

    so ``P(accept H1 | H0) ~ alpha`` and ``P(accept H0 | H1) ~ beta``
    (checking after chunks rather than every game only makes it slightly
    more conservative).

    Details:

    * :meth:`update` and :meth:`update_from` *add* a chunk's totals to the
      running totals (they are increments, not cumulative values).
    * The decision is sticky: once ``state`` is ``"H0"`` or ``"H1"`` later
      updates still accumulate but do not change it; ``decided_n`` records
      the sample count at the decision.
    * No decision is made before ``min_n`` samples (default 30), because the
      variance estimate of a handful of games is unreliable.  With zero
      observed variance the LLR is ``+/-inf`` (the mean is taken as known);
      raise ``min_n`` when comparing alternatives that rarely differ.

    >>> t = SPRT(d0=0.0, d1=0.05)
    >>> round(t.lower, 4), round(t.upper, 4)
    (-2.9444, 2.9444)
    >>> t.update(1000, 100.0, 300.0)   # mean 0.1, var 0.29
    'H1'
    >>> round(t.llr, 3)
    12.931
    """

    def __init__(
        self,
        d0: float = 0.0,
        d1: float = 0.05,
        alpha: float = 0.05,
        beta: float = 0.05,
        min_n: int = 30,
    ):
        if d0 == d1:
            raise ValueError("d0 and d1 must differ")
        if not (0 < alpha < 1 and 0 < beta < 1 and alpha + beta < 1):
            raise ValueError("need 0 < alpha, beta and alpha + beta < 1")
        self.d0 = float(d0)
        self.d1 = float(d1)
        self.alpha = float(alpha)
        self.beta = float(beta)
        self.min_n = int(min_n)
        self.lower = math.log(self.beta / (1.0 - self.alpha))
        self.upper = math.log((1.0 - self.beta) / self.alpha)
        self.n = 0
        self.sum = 0.0
        self.sumsq = 0.0
        self.decided_n: int | None = None
        self._state = "continue"

    # -- accumulation -----------------------------------------------------
    def update(self, n: int, sum: float, sumsq: float) -> str:  # noqa: A002
        """Add ``n`` new differences with totals ``sum`` and ``sumsq``; return :attr:`state`."""
        self.n += int(n)
        self.sum += float(sum)
        self.sumsq += float(sumsq)
        if self._state == "continue" and self.n >= max(self.min_n, 1):
            llr = self.llr
            if llr >= self.upper:
                self._state, self.decided_n = "H1", self.n
            elif llr <= self.lower:
                self._state, self.decided_n = "H0", self.n
        return self._state

    def update_from(self, stats) -> str:
        """Add a chunk given as :class:`PairedStats` (or ``(n, sum, sumsq)``)."""
        return self.update(*_stats_tuple(stats))

    # -- derived quantities ----------------------------------------------
    @property
    def mean(self) -> float:
        return self.sum / self.n if self.n else math.nan

    @property
    def var(self) -> float:
        """MLE (ddof=0) variance of the differences, as used in the LLR."""
        if not self.n:
            return math.nan
        m = self.sum / self.n
        return max(self.sumsq / self.n - m * m, 0.0)

    @property
    def llr(self) -> float:
        """Current log-likelihood ratio of H1 against H0 (0 when empty)."""
        return _llr(self.n, self.sum, self.sumsq, self.d0, self.d1)

    @property
    def state(self) -> str:
        """``"continue"``, ``"H0"`` or ``"H1"``."""
        return self._state

    def __repr__(self) -> str:
        return (
            f"SPRT(d0={self.d0}, d1={self.d1}, alpha={self.alpha}, beta={self.beta}, "
            f"n={self.n}, llr={self.llr:.3f}, state={self._state!r})"
        )


def _llr(n: int, total: float, total_sq: float, d0: float, d1: float) -> float:
    """Normal-approximation LLR of ``mean = d1`` vs ``mean = d0``."""
    if n <= 0:
        return 0.0
    mean = total / n
    var = max(total_sq / n - mean * mean, 0.0)
    num = n * (d1 - d0) * (2.0 * mean - d0 - d1)
    if var == 0.0:
        return 0.0 if num == 0.0 else math.copysign(math.inf, num)
    return num / (2.0 * var)


def sprt_decide_difference(
    stats,
    delta: float = 0.05,
    alpha: float = 0.05,
    beta: float = 0.05,
    min_n: int = 30,
) -> str:
    """Two-sided sequential decision on a paired mean difference.

    Runs two one-sided :class:`SPRT` s on the *cumulative* statistics
    ``stats`` (a :class:`PairedStats` or ``(n, sum, sumsq)``):

    * "up":   H0 mean = 0  vs  H1 mean = +delta
    * "down": H0 mean = 0  vs  H1 mean = -delta

    and returns

    * ``"better"``        if "up" accepts H1   (mean is about +delta or more),
    * ``"worse"``         if "down" accepts H1 (mean is about -delta or less),
    * ``"no_difference"`` if both accept H0    (|mean| is well below delta),
    * ``"continue"``      otherwise.

    "better" and "worse" cannot both hold (they need the sample mean above
    +delta/2 and below -delta/2 respectively).  Each one-sided test has
    error rates ``alpha``/``beta``, so with a true difference of 0 the
    chance of wrongly declaring *some* difference is up to ``2 * alpha``;
    pass ``alpha / 2`` for a two-sided level ``alpha``.  Call it on the
    running totals after each chunk and stop at the first answer other than
    ``"continue"`` (the function itself is stateless).

    >>> sprt_decide_difference((5000, 500.0, 1500.0), delta=0.05)
    'better'
    >>> sprt_decide_difference((5000, -500.0, 1500.0), delta=0.05)
    'worse'
    >>> sprt_decide_difference((5000, 0.0, 1500.0), delta=0.05)
    'no_difference'
    >>> sprt_decide_difference((100, 1.0, 30.0), delta=0.05)
    'continue'
    """
    if delta <= 0:
        raise ValueError("delta must be positive")
    n, s, ss = _stats_tuple(stats)
    up = SPRT(0.0, delta, alpha, beta, min_n)
    down = SPRT(0.0, -delta, alpha, beta, min_n)
    su = up.update(n, s, ss)
    sd = down.update(n, s, ss)
    if su == "H1":
        return "better"
    if sd == "H1":
        return "worse"
    if su == "H0" and sd == "H0":
        return "no_difference"
    return "continue"


# ---------------------------------------------------------------------------
# Elo / Bradley-Terry ratings
# ---------------------------------------------------------------------------


def elo_from_score(p):
    """Elo difference implied by an expected score ``p``: ``400 log10(p / (1 - p))``.

    Vectorised; ``p = 0`` and ``p = 1`` give ``-inf`` and ``inf``.

    >>> round(elo_from_score(0.75), 2)
    190.85
    >>> elo_from_score(0.5)
    0.0
    """
    p = np.asarray(p, dtype=float)
    with np.errstate(divide="ignore"):
        return _out(400.0 * (np.log10(p) - np.log10(1.0 - p)))


def score_from_elo(d):
    """Expected score for an Elo difference ``d``: ``1 / (1 + 10**(-d / 400))``.

    Vectorised inverse of :func:`elo_from_score`.

    >>> round(score_from_elo(190.85), 4)
    0.75
    >>> score_from_elo(np.array([-400.0, 0.0]))
    array([0.09090909, 0.5       ])
    """
    d = np.asarray(d, dtype=float)
    return _out(1.0 / (1.0 + np.power(10.0, -d / 400.0)))


def _bt_inputs(score, games, prior: float):
    s = np.array(score, dtype=float)
    if s.ndim != 2 or s.shape[0] != s.shape[1]:
        raise ValueError("score must be a square matrix")
    g = s + s.T if games is None else np.array(games, dtype=float)
    if g.shape != s.shape:
        raise ValueError("games must have the same shape as score")
    if not np.allclose(g, g.T):
        raise ValueError("games must be symmetric")
    if np.any(s < 0) or np.any(g < 0):
        raise ValueError("score and games must be non-negative")
    np.fill_diagonal(s, 0.0)
    np.fill_diagonal(g, 0.0)
    if prior > 0:
        off = ~np.eye(s.shape[0], dtype=bool)
        s = s + 0.5 * prior * off
        g = g + prior * off
    return s, g


def _bt_fit(s, g, tol: float, max_iter: int) -> np.ndarray:
    """MM iterations on cleaned matrices; returns log-strengths (mean 0)."""
    k = s.shape[0]
    if k == 0:
        return np.zeros(0)
    w = s.sum(axis=1)
    # The MLE exists iff the "i took points from j" digraph is strongly
    # connected (Hunter 2004, assumption 1).
    from scipy.sparse.csgraph import connected_components
    ncomp, _ = connected_components(s > 0, directed=True, connection="strong")
    if ncomp > 1:
        raise ValueError(
            "Bradley-Terry MLE does not exist: the 'took points from' graph is not "
            "strongly connected (e.g. a player scored 0 or 100%); use prior > 0"
        )
    gamma = np.ones(k)
    for _ in range(max_iter):
        denom = (g / (gamma[:, None] + gamma[None, :])).sum(axis=1)
        new = w / denom
        new /= np.exp(np.mean(np.log(new)))  # geometric mean 1
        if np.max(np.abs(np.log(new) - np.log(gamma))) < tol:
            gamma = new
            break
        gamma = new
    theta = np.log(gamma)
    return theta - theta.mean()


def bradley_terry(
    score,
    games=None,
    prior: float = 0.0,
    tol: float = 1e-10,
    max_iter: int = 100_000,
) -> np.ndarray:
    """Bradley-Terry maximum-likelihood ratings on the Elo scale.

    ``score[i, j]`` is the number of points player ``i`` took from ``j``
    (win 1, draw 1/2); ``games[i, j]`` the number of games between them
    (symmetric; defaults to ``score + score.T``).  Fitted by Hunter's (2004)
    MM algorithm::

        gamma_i <- W_i / sum_j games[i, j] / (gamma_i + gamma_j),
        W_i = sum_j score[i, j]

    and returned as ``400 * log10(gamma)`` centred at mean 0, so that
    ``r_i - r_j`` is the Elo difference (``score_from_elo`` gives the
    expected score of ``i`` against ``j``).  Draws are treated as half a
    win and half a loss.

    The MLE exists only if every split of the players into two groups has
    each group taking points from the other; otherwise ``ValueError``.
    ``prior > 0`` adds that many virtual drawn games to every pair (a mild
    shrinkage towards equal strength that always makes the MLE exist).

    >>> score = np.array([[0, 75], [25, 0]])        # 75 % in 100 games
    >>> np.round(bradley_terry(score), 2)
    array([ 95.42, -95.42])
    """
    s, g = _bt_inputs(score, games, prior)
    return ELO_PER_NAT * _bt_fit(s, g, tol, max_iter)


def bradley_terry_se(score, games=None, prior: float = 0.0) -> np.ndarray:
    """Asymptotic standard errors (Elo points) of :func:`bradley_terry` ratings.

    From the observed Fisher information of the log-strengths, the
    weighted graph Laplacian ``L[i, j] = -games[i, j] p_ij p_ji``
    (``L[i, i] = -sum_j L[i, j]``); the covariance of the mean-zero
    ratings is its Moore-Penrose pseudo-inverse.  This treats every game
    as win/loss, so it slightly overstates uncertainty when there are many
    draws.

    >>> score = np.array([[0, 75], [25, 0]])
    >>> np.round(bradley_terry_se(score), 2)
    array([20.06, 20.06])
    """
    s, g = _bt_inputs(score, games, prior)
    theta = _bt_fit(s, g, 1e-10, 100_000)
    p = 1.0 / (1.0 + np.exp(theta[None, :] - theta[:, None]))  # P(i beats j)
    w = g * p * p.T
    lap = np.diag(w.sum(axis=1)) - w
    cov = np.linalg.pinv(lap)
    return ELO_PER_NAT * np.sqrt(np.clip(np.diag(cov), 0.0, None))


def rating_intervals(
    score,
    games=None,
    n_boot: int = 200,
    rng=None,
    confidence: float = 0.95,
    draws=None,
    prior: float = 0.0,
) -> tuple[np.ndarray, np.ndarray]:
    """Parametric-bootstrap percentile intervals for :func:`bradley_terry`.

    Each pair's games are resampled from the observed per-pair results and
    the ratings refitted ``n_boot`` times; returns ``(lo, hi)`` arrays of
    the ``(1 -/+ confidence) / 2`` percentiles per player.

    * Without ``draws``: ``score[i, j] ~ Binomial(games, score / games)``
      (exact with no draws, conservative with draws).
    * With ``draws[i, j]`` (symmetric draw counts): wins/draws/losses are
      resampled multinomially.

    ``rng`` is a ``numpy.random.Generator`` or seed.  Replicates in which the
    MLE does not exist raise ``ValueError`` (use ``prior > 0`` for tiny or
    lopsided tournaments).

    >>> score = np.array([[0, 300], [100, 0]])
    >>> lo, hi = rating_intervals(score, n_boot=100, rng=1)
    >>> bool(lo[0] < bradley_terry(score)[0] < hi[0])
    True
    """
    rng = np.random.default_rng(rng)
    _z(confidence)
    s, g = _bt_inputs(score, games, 0.0)
    k = s.shape[0]
    iu, ju = np.triu_indices(k, 1)
    n_pair = np.rint(g[iu, ju]).astype(np.int64)
    if not np.allclose(n_pair, g[iu, ju]):
        raise ValueError("games must be integer counts for the bootstrap")
    with np.errstate(divide="ignore", invalid="ignore"):
        if draws is None:
            p_win = np.where(n_pair > 0, s[iu, ju] / np.maximum(n_pair, 1), 0.0)
            p_draw = np.zeros_like(p_win)
        else:
            dr = np.asarray(draws, dtype=float)[iu, ju]
            wins = s[iu, ju] - 0.5 * dr
            p_win = np.where(n_pair > 0, wins / np.maximum(n_pair, 1), 0.0)
            p_draw = np.where(n_pair > 0, dr / np.maximum(n_pair, 1), 0.0)
    p_win = np.clip(p_win, 0.0, 1.0)
    p_draw = np.clip(p_draw, 0.0, 1.0 - p_win)
    reps = np.empty((n_boot, k))
    for b in range(n_boot):
        if draws is None:
            pts = rng.binomial(n_pair, p_win).astype(float)
        else:
            w_ = rng.binomial(n_pair, p_win)
            rest_p = np.where(p_win < 1, p_draw / np.where(p_win < 1, 1 - p_win, 1), 0.0)
            d_ = rng.binomial(n_pair - w_, np.clip(rest_p, 0.0, 1.0))
            pts = w_ + 0.5 * d_
        sb = np.zeros((k, k))
        sb[iu, ju] = pts
        sb[ju, iu] = n_pair - pts
        reps[b] = bradley_terry(sb, g, prior=prior)
    a = 100.0 * (1.0 - confidence) / 2.0
    lo, hi = np.percentile(reps, [a, 100.0 - a], axis=0)
    return lo, hi


# ---------------------------------------------------------------------------
# Ratios of means, paired differences of ratios (delta method)
# ---------------------------------------------------------------------------


class Moments:
    """First and second moments of k per-unit quantities, accumulated chunk by chunk.

    ``update(x)`` adds the rows of an ``(n, k)`` array (one row per unit: a
    game, a deal).  From ``n``, the column sums and the cross-product matrix,
    :func:`ratio_interval` and :func:`ratio_difference` give delta-method
    intervals for ratios of column means and their paired differences; with a
    denominator column of ones they are the plain mean and mean difference.

    With ``batch=m`` it holds m such accumulators at once, updated by one
    ``(n, m, k)`` array (many metrics of the same games); ``[i]`` is the i-th.

    >>> m = Moments(2).update(np.array([[1.0, 1.0], [3.0, 1.0]]))
    >>> m.n, m.mean.tolist()
    (2, [2.0, 1.0])
    >>> many = Moments(2, batch=3).update(np.ones((5, 3, 2)))
    >>> many[1].n, many[1].mean.tolist()
    (5, [1.0, 1.0])
    """

    def __init__(self, k: int, batch: int | None = None):
        self.k = int(k)
        self.batch = batch
        self.n = 0
        lead = () if batch is None else (int(batch),)
        self.sum = np.zeros(lead + (self.k,))
        self.cross = np.zeros(lead + (self.k, self.k))

    def update(self, x) -> "Moments":
        if self.batch is None:
            x = np.asarray(x, dtype=float).reshape(-1, self.k)
            self.cross += x.T @ x
        else:
            x = np.asarray(x, dtype=float).reshape(-1, self.batch, self.k)
            self.cross += np.einsum("nbi,nbj->bij", x, x, optimize=True)  # optimize: 5x faster here
        self.n += x.shape[0]
        self.sum += x.sum(axis=0)
        return self

    def __getitem__(self, i: int) -> "Moments":
        one = Moments(self.k)
        one.n, one.sum, one.cross = self.n, self.sum[i], self.cross[i]
        return one

    @property
    def mean(self) -> np.ndarray:
        return self.sum / self.n if self.n else np.full(self.k, np.nan)

    @property
    def cov(self) -> np.ndarray:
        """Sample covariance of the columns (ddof=1); NaN for n < 2."""
        if self.n < 2:
            return np.full((self.k, self.k), np.nan)
        m = self.mean
        return (self.cross - self.n * np.outer(m, m)) / (self.n - 1)


def _t(confidence: float, n: int) -> float:
    _z(confidence)
    return float(_t_dist().ppf(0.5 + confidence / 2.0, max(n - 1, 1)))


def _delta(m: Moments, grad: np.ndarray, value: float, confidence: float) -> dict:
    """value, se = sqrt(grad' cov grad / n), Student-t interval and two-sided p (H0: 0)."""
    if m.n < 2:
        return dict(value=value, lo=-math.inf, hi=math.inf, se=math.nan, p=math.nan, n=m.n)
    var = float(grad @ m.cov @ grad) / m.n
    se = math.sqrt(max(var, 0.0))
    if se == 0.0 or not math.isfinite(se):
        p = 1.0 if value == 0 else (0.0 if math.isfinite(value) else math.nan)
        return dict(value=value, lo=value, hi=value, se=0.0 if se == 0.0 else math.nan, p=p, n=m.n)
    t = _t(confidence, m.n)
    p = float(2.0 * _t_dist().sf(abs(value) / se, m.n - 1))
    return dict(value=value, lo=value - t * se, hi=value + t * se, se=se, p=p, n=m.n)


def ratio_interval(m: Moments, num: int, den: int, confidence: float = 0.95) -> dict:
    """``R = mean(x_num) / mean(x_den)`` with its delta-method interval
    (``var R ~ g' S g / n``, ``g = (1, -R) / mean(x_den)``); ``p`` tests R = 0.

    >>> m = Moments(2).update(np.array([[1, 1], [0, 1], [1, 1], [1, 1.0]]))
    >>> r = ratio_interval(m, 0, 1); r["value"], round(r["se"], 3)
    (0.75, 0.25)
    """
    mu = m.mean
    if not m.n or mu[den] == 0:
        return dict(value=math.nan, lo=math.nan, hi=math.nan, se=math.nan, p=math.nan, n=m.n)
    r = mu[num] / mu[den]
    g = np.zeros(m.k)
    g[num] += 1.0 / mu[den]
    g[den] -= r / mu[den]
    return _delta(m, g, float(r), confidence)


def ratio_difference(m: Moments, a: tuple[int, int], b: tuple[int, int], confidence: float = 0.95) -> dict:
    """``R_a - R_b`` of two ratios measured on the same units (paired: common random
    numbers), ``a`` and ``b`` each (numerator column, denominator column), with
    the delta-method interval and two-sided p-value of H0: no difference.

    With denominators of ones it is the paired mean difference of
    :func:`paired_difference` (same interval):

    >>> x = np.array([[1, 1, 0, 1], [0.5, 1, 0.5, 1], [1, 1, 0.5, 1], [0, 1, 0, 1.0]])
    >>> r = ratio_difference(Moments(4).update(x), (0, 1), (2, 3))
    >>> p = paired_difference(x[:, 0], x[:, 2])
    >>> bool(np.isclose(r["value"], p["diff"]) and np.isclose(r["lo"], p["lo"]))
    True
    """
    mu = m.mean
    if not m.n or mu[a[1]] == 0 or mu[b[1]] == 0:
        return dict(value=math.nan, lo=math.nan, hi=math.nan, se=math.nan, p=math.nan, n=m.n)
    ra, rb = mu[a[0]] / mu[a[1]], mu[b[0]] / mu[b[1]]
    g = np.zeros(m.k)
    g[a[0]] += 1.0 / mu[a[1]]
    g[a[1]] -= ra / mu[a[1]]
    g[b[0]] -= 1.0 / mu[b[1]]
    g[b[1]] += rb / mu[b[1]]
    return _delta(m, g, float(ra - rb), confidence)


def holm(pvalues) -> np.ndarray:
    """Holm's step-down adjusted p-values (family-wise error control over all of them).

    The i-th smallest p is multiplied by (m - i + 1), made monotone, capped at 1;
    NaN stays NaN and does not count in m.

    >>> holm([0.01, 0.04, 0.03, 0.2]).round(2).tolist()
    [0.04, 0.09, 0.09, 0.2]
    """
    p = np.asarray(pvalues, dtype=float)
    out = np.full(p.shape, np.nan)
    ok = np.flatnonzero(np.isfinite(p))
    if not ok.size:
        return out
    order = ok[np.argsort(p[ok], kind="stable")]
    m = order.size
    adj = np.maximum.accumulate(p[order] * (m - np.arange(m)))
    out[order] = np.minimum(adj, 1.0)
    return out


# ---------------------------------------------------------------------------
# Nash averaging (Balduzzi, Tuyls, Perolat, Graepel 2018)
# ---------------------------------------------------------------------------


def _nash_polytope_vertex(a: np.ndarray, c: np.ndarray, value: float, tol: float):
    from scipy.optimize import linprog
    k = a.shape[0]
    res = linprog(c, A_ub=-a.T, b_ub=-(value - tol) * np.ones(k), A_eq=np.ones((1, k)), b_eq=[1.0],
                  bounds=[(0, 1)] * k, method="highs")
    return res.x if res.status == 0 else None


def nash_average(a, tol: float = 1e-9):
    """Nash averaging of an antisymmetric evaluation matrix ``a`` (``a[i, j]``: how much
    i beats j, e.g. the logit of i's score against j).

    The meta-game where both players pick an agent and the row player gets
    ``a[i, j]`` is symmetric and zero-sum, with value 0.  Its Nash equilibria
    are the mixtures ``p`` with ``(a' p)_j >= 0`` for every j (a linear
    program); among them the maximum-entropy one ``p*`` is unique.  The Nash
    average of agent i is ``(a p*)_i``: her expected advantage against the
    equilibrium mixture, 0 for every agent in its support and below 0 for the
    others.  It does not reward an agent for beating copies of a weak agent
    (invariant to redundant agents), unlike averages over all opponents.

    Returns ``(p*, ratings)``.  The maximum-entropy point is found from the
    barycentre of the LP vertices maximising each ``p_i`` (inside the polytope)
    by SLSQP.

    >>> a = np.array([[0, 1, -1], [-1, 0, 1], [1, -1, 0.0]])   # rock, paper, scissors
    >>> p, r = nash_average(a); np.round(p, 3).tolist(), bool(np.allclose(r, 0))
    ([0.333, 0.333, 0.333], True)
    >>> p, r = nash_average(np.array([[0, 2, 1], [-2, 0, 1], [-1, -1, 0.0]]))  # a dominant agent
    >>> np.round(p, 6).tolist(), np.round(r, 6).tolist()
    ([1.0, 0.0, 0.0], [0.0, -2.0, -1.0])
    """
    from scipy.optimize import linprog, minimize
    a = np.asarray(a, dtype=float)
    k = a.shape[0]
    if a.shape != (k, k) or not np.allclose(a, -a.T):
        raise ValueError("the evaluation matrix must be square and antisymmetric")
    # the game's value (0 up to rounding): maximise v subject to a' p >= v
    res = linprog(np.r_[np.zeros(k), -1.0], A_ub=np.c_[-a.T, np.ones(k)], b_ub=np.zeros(k),
                  A_eq=np.r_[np.ones(k), 0.0].reshape(1, -1), b_eq=[1.0],
                  bounds=[(0, 1)] * k + [(None, None)], method="highs")
    value = float(res.x[-1])
    slack = tol * max(1.0, float(np.abs(a).max()))
    vertices = [v for v in (_nash_polytope_vertex(a, -np.eye(k)[i], value, slack) for i in range(k)) if v is not None]
    start = np.mean(vertices, axis=0) if vertices else res.x[:k]

    def neg_entropy(p):
        q = np.clip(p, 1e-300, None)
        return float(np.sum(q * np.log(q)))

    support = start > 1e-12
    if support.sum() > 1:
        opt = minimize(neg_entropy, start, method="SLSQP", bounds=[(0, 1)] * k,
                       constraints=[{"type": "eq", "fun": lambda p: p.sum() - 1.0},
                                    {"type": "ineq", "fun": lambda p: a.T @ p - value + slack}],
                       options={"ftol": 1e-12, "maxiter": 500})
        if opt.success and np.all(a.T @ opt.x >= value - 10 * slack):
            start = opt.x
    p = np.where(start > 1e-8, start, 0.0)  # below that: the LP's slack, not weight
    p /= p.sum()
    return p, a @ p


def json_number(x):
    """A float for JSON: NaN and the infinities become None (null)."""
    x = float(x)
    return x if math.isfinite(x) else None


def format_percent(x, width: int = 0) -> str:
    """A share as a percent a reader can trust: one decimal between 1% and 99%, and near 0% or
    100% enough decimals for two significant digits of the distance, so 318 wins in 1,000,000
    read 0.032%, not 0.0%. Only an exact 0 or 1 prints as 0.0% or 100.0%; NaN prints as n/a."""
    x = float(x)
    if not math.isfinite(x):
        return f"{'n/a':>{width}}"
    p = 100 * x
    near = min(abs(p), abs(100 - p))
    decimals = 1 if near == 0 or near >= 1 else 1 + max(0, -math.floor(math.log10(near)))
    return f"{p:{width}.{decimals}f}%"


def format_percent_ci(rate, lo, hi) -> str:
    """'rate [lo, hi]' in percent, each as format_percent prints it."""
    return f"{format_percent(rate)} [{format_percent(lo)}, {format_percent(hi)}]"

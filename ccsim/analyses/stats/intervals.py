"""Intervals for proportions, means and paired differences (``ccsim.analyses.stats``).

Everything works from counts or from *sufficient statistics* (``n``, ``sum``,
``sum of squares``), so results can be accumulated chunk by chunk and merged
across workers without keeping per-game data in memory.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

import numpy as np

__all__ = ["wilson_interval", "score_rate", "mean_ci", "paired_difference", "PairedStats",
           "z_quantile", "t_dist", "as_output"]  # the last three shared with ratios and ratings


def t_dist():
    """scipy's Student t, imported on first use: scipy.stats takes a second to import, and
    `ccsim run` (Wilson intervals: the normal quantile, from the standard library) needs none."""
    from scipy.stats import t
    return t


def z_quantile(confidence: float) -> float:
    """Two-sided standard-normal quantile for ``confidence``."""
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be in (0, 1), got {confidence!r}")
    return NormalDist().inv_cdf(0.5 + confidence / 2.0)


def as_output(x: np.ndarray) -> Any:
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
    z = z_quantile(confidence)
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
    return as_output(lo), as_output(hi)


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
    return as_output(r)


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
    z = z_quantile(confidence)
    mean, var = _mean_var(values_sum, values_sumsq, n)
    nn = np.asarray(n, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        half = np.where(nn > 1, z * np.sqrt(var / np.where(nn > 1, nn, 1.0)), np.inf)
    return as_output(mean), as_output(mean - half), as_output(mean + half)


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
        z_quantile(confidence)  # validate
        mean, se, n = self.mean, self.se, self.n
        if n < 2:
            return dict(diff=mean, lo=-math.inf, hi=math.inf, se=math.nan, n=n)
        if se == 0.0:
            return dict(diff=mean, lo=mean, hi=mean, se=0.0, n=n)
        t = float(t_dist().ppf(0.5 + confidence / 2.0, n - 1))
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

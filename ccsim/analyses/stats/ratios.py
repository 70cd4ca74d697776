"""Ratios of means and their paired differences by the delta method (the designer metrics),
and Holm's adjustment of many p-values (``ccsim.analyses.stats``)."""

from __future__ import annotations

import math

import numpy as np

from ccsim.analyses.stats.intervals import t_dist, z_quantile

__all__ = ["Moments", "ratio_interval", "ratio_difference", "holm"]


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

    def merge(self, other: "Moments") -> "Moments":
        """Add the units of ``other`` (an accumulator of the same shape) in place; returns ``self``.

        >>> a = Moments(2).update(np.array([[1.0, 1.0]]))
        >>> a.merge(Moments(2).update(np.array([[3.0, 1.0]]))).mean.tolist()
        [2.0, 1.0]
        """
        self.n += other.n
        self.sum = self.sum + other.sum
        self.cross = self.cross + other.cross
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
    z_quantile(confidence)
    return float(t_dist().ppf(0.5 + confidence / 2.0, max(n - 1, 1)))


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
    p = float(2.0 * t_dist().sf(abs(value) / se, m.n - 1))
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
    >>> from ccsim.analyses.stats.intervals import paired_difference
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

"""Sequential testing: stop a paired comparison as soon as it is decided (``ccsim.analyses.stats``)."""

from __future__ import annotations

import math

__all__ = ["SPRT", "sprt_decide_difference"]


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

    def __init__(self, d0: float = 0.0, d1: float = 0.05, alpha: float = 0.05, beta: float = 0.05,
                 min_n: int = 30):
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


def sprt_decide_difference(stats, delta: float = 0.05, alpha: float = 0.05, beta: float = 0.05,
                           min_n: int = 30) -> str:
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

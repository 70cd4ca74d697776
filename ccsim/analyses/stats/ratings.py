"""Ratings from a round robin's points (``ccsim.analyses.stats``): Elo and its expected
scores, Bradley-Terry by maximum likelihood with asymptotic and bootstrap intervals, and
Nash averaging (Balduzzi, Tuyls, Perolat, Graepel 2018)."""

from __future__ import annotations

import math

import numpy as np

from ccsim.analyses.stats.intervals import as_output, z_quantile

__all__ = ["ELO_PER_NAT", "elo_from_score", "score_from_elo", "bradley_terry", "bradley_terry_se",
           "rating_intervals", "nash_average"]

#: Elo points per natural-log unit of Bradley-Terry strength (400 / ln 10).
ELO_PER_NAT = 400.0 / math.log(10.0)


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
        return as_output(400.0 * (np.log10(p) - np.log10(1.0 - p)))


def score_from_elo(d):
    """Expected score for an Elo difference ``d``: ``1 / (1 + 10**(-d / 400))``.

    Vectorised inverse of :func:`elo_from_score`.

    >>> round(score_from_elo(190.85), 4)
    0.75
    >>> score_from_elo(np.array([-400.0, 0.0]))
    array([0.09090909, 0.5       ])
    """
    d = np.asarray(d, dtype=float)
    return as_output(1.0 / (1.0 + np.power(10.0, -d / 400.0)))


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
    z_quantile(confidence)
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

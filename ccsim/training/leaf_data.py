"""The leaf value's data and fit: positions of self-play games at every turn boundary, and who won.

A search cut off at a depth (``strategies.expert``, ``P_DEPTH``) judges the position it stops in by
``strategies.leaf``: ``P(win) = sigmoid(w . x)``.  Its weights are fitted here by maximum
likelihood (a logistic regression, a draw counting half) on the positions of self-play games:
at every turn boundary (R9.2) the features of both players, labelled with the game's result.
The games are the students' of ``ccsim train`` (game ``i`` of the seed, as everywhere), played on
the thread pool; the fit is deterministic.
"""
from __future__ import annotations

import numpy as np
from scipy.optimize import minimize

from ccsim.kernel.engine.episode import N_RESULT, R_WINNER, result_row_nb
from ccsim.kernel.engine.setup import deal_nb, reset_nb
from ccsim.kernel.engine.step import drive_turns_nb, start_game_nb
from ccsim.kernel.layout import BASE_SIZE, N_RNG, PUB_END
from ccsim.kernel.rng import seed_game_nb
from ccsim.kernel.simulate import run_blocks
from ccsim.toolchain.jit import njit
from strategies.search.leaf import LEAF_FEATURES, N_LEAF, leaf_features_nb

MAX_BOUNDARIES = 256  # turn boundaries a game may keep (R9.5's cap is far above real games)


@njit(nogil=True, cache=True, nrt=True)
def leaf_positions_block_nb(lo, hi, seed, first, rules, sids, sp, orders, X, kept, winners):
    """Games ``first + lo ..``: ``X[j, b, p]`` the features of player p at game j's b-th turn
    boundary, ``kept[j]`` how many boundaries, ``winners[j]`` its winner."""
    st = np.zeros(BASE_SIZE, np.int32)
    rng = np.zeros(N_RNG, np.uint64)
    row = np.zeros(N_RESULT, np.int16)
    for j in range(lo, hi):
        reset_nb(st, rules, sids)
        seed_game_nb(rng, seed, first + j)
        deal_nb(st, orders, rng)
        start_game_nb(st)
        b = 0
        drive_turns_nb(st, rng, sp, 1)
        while st[PUB_END] == 0 and b < X.shape[1]:
            for p in range(2):
                leaf_features_nb(st, p, X[j, b, p])
            b += 1
            drive_turns_nb(st, rng, sp, 2)  # (the first of the two steps past the boundary it stands on)
        kept[j] = b
        result_row_nb(st, row)
        winners[j] = row[R_WINNER]


def leaf_positions(seed: int, first: int, games: int, rules, sids, sp, orders):
    """(features (N, N_LEAF), targets (N,): 1 win, 0.5 draw, 0 loss, games (N,)) of every player at
    every turn boundary of the games."""
    X = np.zeros((games, MAX_BOUNDARIES, 2, N_LEAF))
    kept = np.zeros(games, np.int64)
    winners = np.zeros(games, np.int64)
    run_blocks(leaf_positions_block_nb, games, np.int64(seed), np.int64(first), rules, sids, sp, orders, X, kept,
               winners)
    feats, ys, gs = [], [], []
    for j in range(games):
        k = kept[j]
        for p in range(2):
            feats.append(X[j, :k, p])
            w = winners[j]
            ys.append(np.full(k, 0.5 if w < 0 else (1.0 if w == p else 0.0)))
            gs.append(np.full(k, first + j))
    return np.concatenate(feats), np.concatenate(ys), np.concatenate(gs)


def _loss(w, X, y, lam):
    z = X @ w
    # log(1 + e^z) - y z, stably
    ll = np.logaddexp(0.0, z) - y * z
    p = 1.0 / (1.0 + np.exp(-z))
    n = len(y)
    return ll.sum() / n + 0.5 * lam * (w[1:] @ w[1:]), X.T @ (p - y) / n + lam * np.r_[0.0, w[1:]]


def fit_leaf(X, y, lam: float = 1e-4) -> np.ndarray:
    """The leaf weights by maximum likelihood (L-BFGS; the bias is not penalised)."""
    res = minimize(_loss, np.zeros(X.shape[1]), args=(X, y, lam), jac=True, method="L-BFGS-B",
                   options={"maxiter": 1000, "gtol": 1e-10})
    return res.x


def leaf_table(w) -> dict:
    """The ``[leaf]`` table of an expert parameter file."""
    return {name: float(v) for (name, _), v in zip(LEAF_FEATURES, w)}

"""Fitting the learned player's weights: one multinomial logit per decision block.

A kept decision (``ccsim.training.selfplay``) is a small matrix ``X`` (one row per option, one
column per feature of its block) and the teacher's pick ``y``.  The policy plays the option of
the largest ``X @ theta``; it is fitted by maximum likelihood of the teacher's picks under the
softmax of those scores, with an L2 penalty towards a prior vector (the weights it starts from):

    loss(theta) = mean_d [ logsumexp(X_d theta) - (X_d theta)[y_d] ] + lam / 2 * |theta - prior|^2

Convex, so L-BFGS (scipy) finds the one optimum; the same data give the same weights.  All of
it is numpy over the stacked option rows (segment sums by ``np.add.reduceat``).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import minimize

from ccsim.kernel.decisions import MODE, STEP, VETO, SPY_PICK, DRAW, VETO_DRAW
from ccsim.training.selfplay import (D_KIND, D_LABEL, D_N, D_ROW, D_STUDENT, D_GAME, D_BASE, Q_COL, COUNT_COL,
                                    Labels)
from strategies.learned import BLOCKS

BLOCK_KINDS = {"step": (STEP,), "mode": (MODE,), "veto": (VETO,), "draw": (DRAW, VETO_DRAW), "spy": (SPY_PICK,)}


@dataclass
class Block:
    """The decisions of one block: stacked option rows ``X`` (R, k), each decision's first row
    ``starts`` (D,), its options ``n`` (D,), the teacher's pick as a row index ``picked`` (D,) and
    the student's pick ``student`` (D,), both as offsets within the decision."""
    X: np.ndarray
    starts: np.ndarray
    n: np.ndarray
    picked: np.ndarray
    student: np.ndarray
    games: np.ndarray
    q: np.ndarray        # (R,) the teacher's value of each option minus its baseline's (0 where not simulated)
    count: np.ndarray    # (R,) the worlds each option was simulated in
    base: np.ndarray     # (D,) the teacher's baseline option (its rollout policy's pick), an offset

    @property
    def decisions(self) -> int:
        return int(self.n.shape[0])


def block_data(labels: Labels, block: str, games=None) -> Block:
    """The decisions of ``block`` in ``labels`` (of the games in ``games`` if given)."""
    k = len(BLOCKS[block][1])
    m = labels.meta
    keep = np.isin(m[:, D_KIND], BLOCK_KINDS[block])
    if games is not None:
        keep &= np.isin(m[:, D_GAME], games)
    m = m[keep]
    n = m[:, D_N]
    rows = np.repeat(m[:, D_ROW], n) + (np.arange(int(n.sum())) - np.repeat(np.cumsum(n) - n, n))
    X = labels.rows[rows, :k].astype(np.float64)
    starts = np.cumsum(n) - n
    return Block(X, starts.astype(np.int64), n.astype(np.int64), m[:, D_LABEL].astype(np.int64),
                 m[:, D_STUDENT].astype(np.int64), m[:, D_GAME].astype(np.int64),
                 labels.rows[rows, Q_COL].astype(np.float64), labels.rows[rows, COUNT_COL].astype(np.float64),
                 m[:, D_BASE].astype(np.int64))


def soft_targets(b: Block, tau: float) -> np.ndarray:
    """(R,) each decision's target distribution over its options: softmax(q / tau) over the
    options the teacher simulated and its baseline (value 0 by definition), zero elsewhere."""
    is_base = np.zeros(b.X.shape[0], bool)
    is_base[b.starts + b.base] = True
    cand = (b.count > 0) | is_base
    z = np.where(cand, b.q / tau, -np.inf)
    top = np.maximum.reduceat(z, b.starts)
    e = np.where(cand, np.exp(z - np.repeat(top, b.n)), 0.0)
    return e / np.repeat(np.add.reduceat(e, b.starts), b.n)


def pick_targets(b: Block) -> np.ndarray:
    """(R,) one-hot on the teacher's pick."""
    t = np.zeros(b.X.shape[0])
    t[b.starts + b.picked] = 1.0
    return t


def _scores(b: Block, theta: np.ndarray):
    """(log-likelihood terms' parts) the option scores, each decision's log-sum-exp and the
    options' softmax probabilities."""
    z = b.X @ theta
    top = np.maximum.reduceat(z, b.starts)
    e = np.exp(z - np.repeat(top, b.n))
    total = np.add.reduceat(e, b.starts)
    return z, top + np.log(total), e / np.repeat(total, b.n)


def loss_and_grad(theta: np.ndarray, b: Block, target: np.ndarray, prior: np.ndarray, lam: float):
    """The penalised mean cross-entropy of the policy's softmax against ``target`` (per option
    row, summing to 1 per decision), and its gradient."""
    z, lse, p = _scores(b, theta)
    d = max(b.decisions, 1)
    ce = (lse.sum() - target @ z) / d
    grad = ((p - target) @ b.X) / d
    diff = theta - prior
    return ce + 0.5 * lam * diff @ diff, grad + lam * diff


def fit_block(b: Block, prior: np.ndarray, lam: float, target: np.ndarray | None = None) -> np.ndarray:
    """The weights of one block (L-BFGS from the prior) against ``target`` (default: the
    teacher's picks)."""
    if b.decisions == 0:
        return prior.copy()
    target = pick_targets(b) if target is None else target
    res = minimize(loss_and_grad, prior.copy(), args=(b, target, prior, lam), jac=True, method="L-BFGS-B",
                   options={"maxiter": 2000, "gtol": 1e-9, "ftol": 1e-13})
    return res.x


def picks(b: Block, theta: np.ndarray) -> np.ndarray:
    """The option (offset within its decision) the weights play at each decision: the first of
    the largest scores, as the compiled player picks."""
    z = b.X @ theta
    top = np.maximum.reduceat(z, b.starts)
    is_top = z >= np.repeat(top, b.n)
    idx = np.arange(z.shape[0]) - np.repeat(b.starts, b.n)
    first = np.where(is_top, idx, np.iinfo(np.int64).max)
    return np.minimum.reduceat(first, b.starts)


def agreement(b: Block, theta: np.ndarray) -> float:
    """The share of decisions where the weights play the teacher's pick."""
    return float((picks(b, theta) == b.picked).mean()) if b.decisions else float("nan")


def mean_nll(b: Block, theta: np.ndarray) -> float:
    if not b.decisions:
        return float("nan")
    z, lse, _ = _scores(b, theta)
    return float((lse - z[b.starts + b.picked]).mean())


def fit_advantages(b: Block, lam: float, free: np.ndarray) -> np.ndarray:
    """Weights whose score differences predict the teacher's advantages: a ridge regression of
    each simulated option's ``q`` on its features minus its baseline's, weighted by the worlds it
    was simulated in, over the features ``free`` (the others 0).  Deterministic."""
    dec = np.repeat(np.arange(b.decisions), b.n)
    sim = b.count > 0
    base = (b.starts + b.base)[dec[sim]]
    X = (b.X[sim] - b.X[base])[:, free]
    w = b.count[sim]
    theta = np.zeros(b.X.shape[1])
    if not sim.any():
        return theta
    A = (X * w[:, None]).T @ X / w.sum() + lam * np.eye(X.shape[1])
    theta[free] = np.linalg.solve(A, (X * w[:, None]).T @ b.q[sim] / w.sum())
    return theta

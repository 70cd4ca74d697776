"""Fitting the learned player's weights: one linear score per decision block.

A kept decision (``ccsim.training.selfplay``) is a small matrix ``X`` (one row per option, one
column per feature of its block), the teacher's pick, and for each option the teacher simulated its
advantage ``q`` (its value minus its baseline's, in the same sampled worlds) and the worlds it was
simulated in.  The policy plays the option of the largest ``X @ theta``; ``fit_advantages`` fits
``theta`` so that score differences predict the advantages, a weighted ridge regression:

    theta = argmin sum_c count_c (theta . (x_c - x_base) - q_c)^2 / sum count + lam |theta|^2

Deterministic: the same data give the same weights.  All of it is numpy over the stacked option
rows; ``agreement`` says how often the weights play the teacher's pick.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ccsim.kernel.decisions import MODE, STEP, VETO, SPY_PICK, DRAW, VETO_DRAW
from ccsim.training.selfplay import D_KIND, D_LABEL, D_N, D_ROW, D_GAME, D_BASE, Q_COL, COUNT_COL, Labels
from strategies.learned import BLOCKS

BLOCK_KINDS = {"step": (STEP,), "mode": (MODE,), "veto": (VETO,), "draw": (DRAW, VETO_DRAW), "spy": (SPY_PICK,)}


@dataclass
class Block:
    """The decisions of one block: stacked option rows ``X`` (R, k), each decision's first row
    ``starts`` (D,), its options ``n`` (D,) and the teacher's pick ``picked`` (D,), an offset within the
    decision."""
    X: np.ndarray
    starts: np.ndarray
    n: np.ndarray
    picked: np.ndarray
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
                 m[:, D_GAME].astype(np.int64),
                 labels.rows[rows, Q_COL].astype(np.float64), labels.rows[rows, COUNT_COL].astype(np.float64),
                 m[:, D_BASE].astype(np.int64))


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

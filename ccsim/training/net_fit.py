"""Fitting the value network to branched outcomes: minibatch Adam on a hand-written NumPy backward pass.

The network is small (``strategies.neural.model``: ~25,000 weights), so three matrix products a
layer on BLAS are all a step costs; no deep-learning library (and none of its gigabytes) is
needed.  Each kept decision (``ccsim.training.branches``) teaches two things: the difference of two
options' ratings, against the difference of the outcomes they led to in the same deal with the
same luck (squared error; the margin head alike, weighted ``margin_weight``), and the value of the
position itself (the ``state`` option) against the game's outcome (cross-entropy), which the
search reads at its leaves.  Everything random comes from ``seed``: the same data and seed give
the same weights, bit for bit.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ccsim.training.branches import V_ALT, V_ALT_MARGIN, V_OWN, V_OWN_MARGIN
from strategies.neural.inputs import N_OPT, OBS_SCALE, Y_KIND, STATE_KIND
from strategies.neural.model import N_WEIGHTS, flush_tiny, unpack


@dataclass(frozen=True)
class FitConfig:
    epochs: int = 3
    batch: int = 4096
    rate: float = 1e-3
    margin_weight: float = 1.0  # the VP margin's difference: a finer signal than the win's (corr 0.7)
    decay: float = 1e-5   # L2 on the weights (not the biases)
    final_share: float = 0.3  # the last epoch's rate, a share of ``rate``: it settles the noise of the steps
    seed: int = 0


def inputs(obs: np.ndarray, opt: np.ndarray) -> np.ndarray:
    """The network's input rows (float32): the scaled observation, then the option."""
    return np.concatenate([obs.astype(np.float32) * OBS_SCALE, opt], axis=1)


def state_option() -> np.ndarray:
    y = np.zeros(N_OPT, np.float32)
    y[Y_KIND + STATE_KIND] = 1.0
    return y


def forward(p: dict, x: np.ndarray):
    """(the two layers' pre-activations and outputs, the heads) of rows x."""
    a1 = x @ p["W1"] + p["B1"]
    h1 = np.maximum(a1, 0.0)
    a2 = h1 @ p["W2"] + p["B2"]
    h2 = np.maximum(a2, 0.0)
    return a1, h1, a2, h2, h2 @ p["W3"] + p["B3"]


def backward(w: np.ndarray, p: dict, x, a1, h1, a2, h2, do, decay: float) -> np.ndarray:
    """The gradient (flat) of the weights given the heads' gradient ``do``, plus the L2 term."""
    g = np.zeros_like(w)
    gp = unpack(g)
    gp["W3"][:] = h2.T @ do
    gp["B3"][:] = do.sum(0)
    d2 = (do @ p["W3"].T) * (a2 > 0)
    gp["W2"][:] = h1.T @ d2
    gp["B2"][:] = d2.sum(0)
    d1 = (d2 @ p["W2"].T) * (a1 > 0)
    gp["W1"][:] = x.T @ d1
    gp["B1"][:] = d1.sum(0)
    for k in ("W1", "W2", "W3"):
        gp[k] += decay * p[k]
    return g


def pair_loss_and_grad(w: np.ndarray, obs, opt, val, cfg: FitConfig):
    """(loss, gradient) of a batch of branched decisions: the drawn option's rating minus the
    policy's against the difference of their outcomes (squared error; the margin head likewise,
    weighted), and the position's own rating against the game's outcome (cross-entropy; the margin
    head's squared error)."""
    p = unpack(w)
    b = len(obs)
    x = np.concatenate([inputs(obs, opt[:, 0]), inputs(obs, opt[:, 1]),
                        inputs(obs, np.broadcast_to(state_option(), (b, N_OPT)))])
    a1, h1, a2, h2, o = forward(p, x)
    oa, ob, os_ = o[:b], o[b:2 * b], o[2 * b:]
    r_win = oa[:, 0] - ob[:, 0] - (val[:, V_ALT] - val[:, V_OWN])
    r_margin = oa[:, 1] - ob[:, 1] - (val[:, V_ALT_MARGIN] - val[:, V_OWN_MARGIN])
    z = val[:, V_OWN]
    s_margin = os_[:, 1] - val[:, V_OWN_MARGIN]
    cm = cfg.margin_weight
    loss = float(np.mean(r_win ** 2) + cm * np.mean(r_margin ** 2)
                 + np.mean(np.logaddexp(0.0, os_[:, 0]) - z * os_[:, 0]) + cm * np.mean(s_margin ** 2))
    do = np.empty_like(o)
    do[:b, 0], do[b:2 * b, 0] = 2 * r_win / b, -2 * r_win / b
    do[:b, 1], do[b:2 * b, 1] = 2 * cm * r_margin / b, -2 * cm * r_margin / b
    do[2 * b:, 0] = (1.0 / (1.0 + np.exp(-os_[:, 0])) - z) / b
    do[2 * b:, 1] = 2 * cm * s_margin / b
    return loss, backward(w, p, x, a1, h1, a2, h2, do, cfg.decay)


def held_out(w: np.ndarray, obs, opt, val, chunk: int = 65536) -> dict:
    """On held-out decisions: the squared error of the rated advantage, that of always rating it
    0 (the floor to beat), and how often the sign of a decided difference is right."""
    p = unpack(w)
    err = base = right = decided = 0.0
    for a in range(0, len(obs), chunk):
        o, v = opt[a:a + chunk], val[a:a + chunk]
        ga = forward(p, inputs(obs[a:a + chunk], o[:, 0]))[4][:, 0]
        gb = forward(p, inputs(obs[a:a + chunk], o[:, 1]))[4][:, 0]
        dz = v[:, V_ALT] - v[:, V_OWN]
        err += float(np.sum((ga - gb - dz) ** 2))
        base += float(np.sum(dz ** 2))
        nz = dz != 0
        right += float(np.sum(np.sign(ga - gb)[nz] == np.sign(dz[nz])))
        decided += float(nz.sum())
    n = max(len(obs), 1)
    return {"mse": err / n, "mse_zero": base / n, "sign_right": right / max(decided, 1.0)}


def fit(w0: np.ndarray, obs, opt, val, cfg: FitConfig, progress=None) -> tuple[np.ndarray, list]:
    """Weights fitted from ``w0`` to branched decisions (Adam); (weights, tiny ones flushed to zero,
    the mean loss of each epoch)."""
    assert w0.shape == (N_WEIGHTS,)
    rng = np.random.default_rng(cfg.seed)
    w = w0.astype(np.float32).copy()
    mom = np.zeros_like(w)
    vel = np.zeros_like(w)
    beta1, beta2, t = 0.9, 0.999, 0
    history = []
    for e in range(cfg.epochs):
        rate = cfg.rate * (cfg.final_share if e == cfg.epochs - 1 and cfg.epochs > 1 else 1.0)
        order = rng.permutation(len(obs))
        losses = []
        for a in range(0, len(order), cfg.batch):
            idx = np.sort(order[a:a + cfg.batch])
            loss, g = pair_loss_and_grad(w, obs[idx], opt[idx], val[idx], cfg)
            t += 1
            mom = beta1 * mom + (1 - beta1) * g
            vel = beta2 * vel + (1 - beta2) * g * g
            w -= (rate * (mom / (1 - beta1 ** t)) / (np.sqrt(vel / (1 - beta2 ** t)) + 1e-8)).astype(np.float32)
            losses.append(loss)
            if progress is not None:
                progress(len(idx))
        history.append(float(np.mean(losses)))
    return flush_tiny(w), history  # the next generation plays these weights: no subnormal products

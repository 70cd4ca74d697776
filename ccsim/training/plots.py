"""The learning curve of a training run (``ccsim train``)."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def learning_curve(result, path) -> None:
    """Score against `tactician` (95% interval) after each round; round -1 is the tactician's
    clone the training starts from; the dashed line is 50%."""
    rounds = result.rounds
    x = [r.round for r in rounds]
    y = [100 * r.score for r in rounds]
    lo = [100 * (r.score - r.ci95[0]) for r in rounds]
    hi = [100 * (r.ci95[1] - r.score) for r in rounds]
    fig, ax = plt.subplots(figsize=(6.4, 3.6), dpi=120)
    ax.errorbar(x, y, yerr=[lo, hi], marker="o", capsize=3, color="#1f5fa8")
    ax.axhline(50, ls="--", lw=0.8, color="#777777")
    ax.set_xticks(x, ["clone" if r < 0 else ("imitation" if r == 0 else f"ExIt {r}") for r in x])
    ax.set_ylabel("score against tactician (%)")
    c = result.config
    ax.set_title(f"ccsim train: seed {c.seed}, {c.games:,} games a round, teacher expert b{c.budget}, "
                 f"{c.eval_deals:,} deals x 2 each point", fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def generation_curve(gens, cfg, path) -> None:
    """Score against `tactician` (95% interval) of each generation of ``ccsim train-neural``."""
    x = [g.generation for g in gens]
    y = [100 * g.score for g in gens]
    lo = [100 * (g.score - g.ci95[0]) for g in gens]
    hi = [100 * (g.ci95[1] - g.score) for g in gens]
    fig, ax = plt.subplots(figsize=(6.4, 3.6), dpi=120)
    ax.errorbar(x, y, yerr=[lo, hi], marker="o", capsize=3, color="#1f5fa8")
    ax.axhline(50, ls="--", lw=0.8, color="#777777")
    ax.set_xticks(x, ["0 (heuristics' games)" if g == 0 else str(g) for g in x])
    ax.set_xlabel("generation")
    ax.set_ylabel("score against tactician (%)")
    ax.set_title(f"ccsim train-neural: seed {cfg.seed}, {cfg.games:,} branched games a generation, "
                 f"{cfg.eval_deals:,} deals x 2 each point", fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)

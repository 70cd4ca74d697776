"""The learning curve of a training run (``ccsim train``)."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def score_curve(x, scores, cis, ticks, title, path, xlabel=None) -> None:
    """Scores against `tactician` (95% intervals) at the points ``x``; the dashed line is 50%."""
    y = [100 * v for v in scores]
    lo = [100 * (v - c[0]) for v, c in zip(scores, cis)]
    hi = [100 * (c[1] - v) for v, c in zip(scores, cis)]
    fig, ax = plt.subplots(figsize=(6.4, 3.6), dpi=120)
    ax.errorbar(x, y, yerr=[lo, hi], marker="o", capsize=3, color="#1f5fa8")
    ax.axhline(50, ls="--", lw=0.8, color="#777777")
    ax.set_xticks(x, ticks)
    if xlabel:
        ax.set_xlabel(xlabel)
    ax.set_ylabel("score against tactician (%)")
    ax.set_title(title, fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def learning_curve(result, path) -> None:
    """Score against `tactician` after each round of ``ccsim train``; round -1 is the tactician's
    clone the training starts from."""
    rounds = result.rounds
    x = [r.round for r in rounds]
    c = result.config
    score_curve(x, [r.score for r in rounds], [r.ci95 for r in rounds],
                ["clone" if r < 0 else ("imitation" if r == 0 else f"ExIt {r}") for r in x],
                f"ccsim train: seed {c.seed}, {c.games:,} games a round, teacher expert b{c.budget}, "
                f"{c.eval_deals:,} deals x 2 each point", path)


def generation_curve(gens, cfg, path) -> None:
    """Score against `tactician` of each generation of ``ccsim train-neural`` (on its tuning deals)."""
    x = [g.generation for g in gens]
    score_curve(x, [g.score for g in gens], [g.ci95 for g in gens],
                ["0 (heuristics' games)" if g == 0 else str(g) for g in x],
                f"ccsim train-neural: seed {cfg.seed}, {cfg.games:,} branched games a generation, "
                f"{cfg.eval_deals:,} deals x 2 each point", path, xlabel="generation")

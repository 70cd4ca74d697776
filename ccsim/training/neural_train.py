"""Training the value network by generations of self-play (``ccsim train-neural``).

Generation 0 learns from games of `tactician` against itself and the other heuristics
(``ccsim.training.branches``: branched decisions, outcomes as labels); generation g from games of
generation g - 1 against itself and, in a share of its games, against the pool (the heuristics
and earlier generations), warm-started from g - 1's weights.  Each generation is scored against
`tactician` on deals of its own (seats swapped, a draw counting half) and the best becomes the
network's weights; training stops when a generation gains nothing measurable (its score below the
best's lower bound) or after ``generations``.

Everything is reproducible from ``seed``: the games of generation g are the deals ``g x STRIDE ..``
of the seed, the fit draws from ``seed + g``.  Each generation's data, weights and score are
written as it ends, so Ctrl-C keeps the finished generations and a rerun resumes after them.
"""
from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from ccsim.errors import UsageError
from ccsim.runner.backends import LocalBackend
from ccsim.runner.config import RunConfig
from ccsim.training.branches import BranchTask, Samples, play_task, scores
from ccsim.training.net_fit import FitConfig, fit, held_out
from ccsim.kernel.layout import MAX_PARAMS
from strategies.neural import read_weights, write_weights
from strategies.neural.model import N_WEIGHTS, initial_weights

STRIDE = 10_000_000          # games of one generation: deals g * STRIDE .. of the seed
EVAL_SALT = 0x0E7A1          # the evaluation's deals: a seed no training game uses
TASK_GAMES = 10_000          # games per task (progress, and what a Ctrl-C may lose)
HEURISTICS = ("majority", "trickster", "oracle", "counter", "defender", "greedy")
NEURAL = "neural"
MARGINS = (0.0, 0.02, 0.03, 0.05, 0.1, 0.2)  # the rating margins over the tactician's choice a generation may play with


class TrainNetworkError(UsageError):
    """A training configuration that cannot run (one line)."""


@dataclass(frozen=True)
class NetworkTrainConfig:
    seed: int = 1
    generations: int = 3
    games: int = 500_000      # branched games a generation
    keep: float = 0.06        # share of the network's decisions branched
    epochs: int = 4
    eval_deals: int = 2_000   # deals (each played twice, seats swapped) scoring a generation
    pool_share: float = 0.25  # share of a generation's games against the pool
    start: str = ""           # a weights file to start from: generation 0 then plays it, not the heuristics

    def validated(self) -> "NetworkTrainConfig":
        for name, lo in (("generations", 1), ("games", 1), ("epochs", 1), ("eval_deals", 1)):
            if getattr(self, name) < lo:
                raise TrainNetworkError(f"--{name.replace('_', '-')} must be at least {lo}, got {getattr(self, name)}")
        if not 0 < self.keep <= 1:
            raise TrainNetworkError(f"--keep must be in (0, 1], got {self.keep}")
        if not 0 <= self.pool_share <= 1:
            raise TrainNetworkError(f"--pool-share must be in [0, 1], got {self.pool_share}")
        return self


@dataclass
class Generation:
    generation: int
    games: int
    decisions: int
    seconds: float
    score: float
    ci95: tuple
    margin: float = 0.0
    fit: dict = field(default_factory=dict)
    seats: tuple = ()  # (its score as Cleopatra, as Caesar) against tactician at its margin, same deals
    mirror: float | None = None  # Cleopatra's score in tactician's own mirror on those deals: what the seats gain over


def game_setup():
    """(rules vector, orders) of the standard game with shuffled action decks."""
    run = RunConfig(games=1).validated()
    return run.rules_vector(), run.seats(False)[3]


def seat_pairs(cfg: NetworkTrainConfig, g: int, pool: list) -> list:
    """The pairings of generation g's games: (seat 0, seat 1, share); a player is a strategy name
    or an index into ``pool`` (the starting network if any, then earlier generations' weights, the
    newest last).  With an empty pool (generation 0 from scratch) the games are the heuristics'."""
    me = len(pool) - 1 if pool else "tactician"
    others = list(HEURISTICS) + (["tactician", *range(len(pool) - 1)] if pool else [])
    share = cfg.pool_share / (2 * len(others))
    pairs = [(me, me, 1.0 - cfg.pool_share)]
    for o in others:
        pairs += [(me, o, share), (o, me, share)]
    return pairs


def task_of(seed, first, games, pair, pool, rules, orders, keep) -> BranchTask:
    """A BranchTask of the pairing ``pair`` (names or pool indexes)."""
    from strategies.registry import resolve
    sids = np.zeros(2, np.int64)
    sp = np.zeros((2, MAX_PARAMS), np.float64)
    nets = np.zeros((2, N_WEIGHTS), np.float32)
    margins = np.zeros(2, np.float64)
    on = np.zeros(2, np.int64)
    for p, who in enumerate(pair):
        if isinstance(who, str):
            sids[p], sp[p] = resolve(who)
        else:
            sids[p], on[p] = resolve(NEURAL)[0], 1
            nets[p], margins[p] = pool[who]
    return BranchTask(seed, first, games, rules, sids, sp, nets, margins, on, keep, orders)


def generation_tasks(cfg: NetworkTrainConfig, g: int, pool: list) -> list[BranchTask]:
    """Generation g's branched games as tasks, pairing by pairing (deals ``g x STRIDE ..`` of the seed)."""
    rules, orders = game_setup()
    tasks = []
    first = g * STRIDE
    for pair, share in ((p[:2], p[2]) for p in seat_pairs(cfg, g, pool)):
        n = int(round(cfg.games * share))
        for a in range(0, n, TASK_GAMES):
            games = min(TASK_GAMES, n - a)
            tasks.append(task_of(cfg.seed, first, games, pair, pool, rules, orders, cfg.keep))
            first += games
    return tasks


def played(tasks: list, backend, progress=None) -> list:
    """Each task's Samples, in task order, from wherever ``backend`` plays them (the same on any)."""
    out = []
    for task, samples in (backend or LocalBackend()).map(play_task, tasks):
        out.append(samples)
        if progress is not None:
            progress(task.games)
    return out


def generation_data(cfg: NetworkTrainConfig, g: int, pool: list, progress=None, backend=None) -> Samples:
    """Generation g's branched games, task by task."""
    return Samples.concat(played(generation_tasks(cfg, g, pool), backend, progress))


def score_against_tactician(w: np.ndarray, margin: float, seed: int, deals: int,
                            backend=None) -> tuple[float, tuple, tuple]:
    """(score, 95% interval, (score as Cleopatra, as Caesar)) of the weights ``w`` with rating margin
    ``margin`` against `tactician` on ``deals`` deals of ``seed``, each played twice with the seats
    swapped (a draw counts half)."""
    rules, orders = game_setup()
    tasks = [task_of(seed, 0, deals, pair, [(w, margin)], rules, orders, 0.0) for pair in ((0, "tactician"),
                                                                                         ("tactician", 0))]
    per_game = [scores(s, np.full(deals, seat)) for seat, s in enumerate(played(tasks, backend))]
    x = np.concatenate(per_game)
    half = 1.96 * x.std(ddof=1) / np.sqrt(len(x))
    return float(x.mean()), (float(x.mean() - half), float(x.mean() + half)), tuple(float(p.mean()) for p in per_game)


def mirror_score(seed: int, deals: int, backend=None) -> float:
    """Cleopatra's score in `tactician`'s own mirror on ``deals`` deals of ``seed`` (a draw half): a
    generation's seat scores on the same deals are gains over it and over its complement."""
    rules, orders = game_setup()
    (s,) = played([task_of(seed, 0, deals, ("tactician", "tactician"), [], rules, orders, 0.0)], backend)
    return float(scores(s, np.zeros(deals, np.int64)).mean())


def tuned_margin(cfg: NetworkTrainConfig, g: int, w: np.ndarray, backend=None) -> tuple[float, float, tuple, tuple]:
    """(margin, score, interval, seat scores): the rating margin of MARGINS that scores best against
    `tactician` on generation g's evaluation deals (so the score is the tuned one: strength is
    measured elsewhere, on fresh deals)."""
    tried = [(m, *score_against_tactician(w, m, eval_seed(cfg, g), cfg.eval_deals, backend)) for m in MARGINS]
    return max(tried, key=lambda t: t[1])


def eval_seed(cfg: NetworkTrainConfig, g: int) -> int:
    return (cfg.seed * 7919 + EVAL_SALT + g) % (1 << 62)


def fit_generation(cfg: NetworkTrainConfig, g: int, data: Samples, w0: np.ndarray) -> tuple[np.ndarray, dict]:
    """Generation g's weights from ``w0`` on its data (a twentieth of its games held out)."""
    held = (data.game % 20) == 0
    w, losses = fit(w0, data.obs[~held], data.opt[~held], data.val[~held], FitConfig(epochs=cfg.epochs, seed=cfg.seed + g))
    return w, {"losses": losses, **held_out(w, data.obs[held], data.opt[held], data.val[held])}


def saved_generation(out: Path, g: int):
    """(weights, Generation) of a finished generation in ``out``, or None."""
    wpath, hpath = out / f"gen{g}.npz", out / f"gen{g}.json"
    if not (wpath.is_file() and hpath.is_file()):
        return None
    h = json.loads(hpath.read_text())
    return read_weights(wpath), Generation(**{**h, "ci95": tuple(h["ci95"]), "seats": tuple(h.get("seats", ()))})


def train_network(cfg: NetworkTrainConfig, out, log=lambda msg: None, progress=None, backend=None) -> list[Generation]:
    """Train (see the module docstring) into the folder ``out``; returns the generations.  The games
    are played on ``backend`` (local if None): the weights are the same on any backend."""
    cfg = cfg.validated()
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "config.json").write_text(json.dumps(asdict(cfg), indent=1))
    start = [read_weights(cfg.start)] if cfg.start else []
    pool, gens = list(start), []  # pool: (weights, margin) of the start, then of each generation
    w = start[0][0] if start else initial_weights(cfg.seed)
    for g in range(cfg.generations):
        done = saved_generation(out, g)
        if done is None:
            t0 = time.perf_counter()
            data = generation_data(cfg, g, pool, progress, backend)
            w, fitted = fit_generation(cfg, g, data, w)
            margin, score, ci, seats = tuned_margin(cfg, g, w, backend)
            mirror = mirror_score(eval_seed(cfg, g), cfg.eval_deals, backend)
            gen = Generation(g, cfg.games, len(data.seat), time.perf_counter() - t0, score, ci, margin, fitted, seats,
                             mirror)
            write_weights(out / f"gen{g}.npz", w, margin)
            (out / f"gen{g}.json").write_text(json.dumps(asdict(gen), indent=1))
        else:
            (w, margin), gen = done
        gens.append(gen)
        pool.append((w, margin))
        log(f"generation {g}: {gen.decisions:,} decisions, {gen.seconds:.0f} s, score vs tactician "
            f"{gen.score:.1%} [{gen.ci95[0]:.1%}, {gen.ci95[1]:.1%}]")
        best = max(gens, key=lambda x: x.score)
        if gen is not best and gen.score < best.ci95[0]:
            log(f"generation {g} gained nothing over generation {best.generation}: stopping")
            break
    best = max(gens, key=lambda x: x.score)
    write_weights(out / "neural.npz", *pool[len(start) + best.generation])
    return gens


def write_history(out: Path, cfg: NetworkTrainConfig, gens: list) -> None:
    """history.json (every generation) and learning-curve.png (score against tactician)."""
    out = Path(out)
    (out / "history.json").write_text(json.dumps({"config": asdict(cfg), "generations": [asdict(g) for g in gens]},
                                                 indent=1))
    if gens:
        from ccsim.training.plots import generation_curve
        generation_curve(gens, cfg, out / "learning-curve.png")

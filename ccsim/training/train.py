"""``ccsim train``: the learned player's weights, by imitation of the search and rounds of expert iteration.

Round 0 imitates: the students (both seats) play as the tactician does (``learned.tactician_clone``),
and a teacher, the `expert` search with the tactician's rollouts, labels a share of their
decisions (``ccsim.training.selfplay``).  Each later round is a step of expert iteration
(Anthony, Tian & Barber 2017): the weights fitted so far play, *and* are the teacher's rollout
policy, so a stronger search makes the new targets; the data of every round are kept (DAgger).

What is fitted is each searched option's *advantage*, the teacher's value of the option minus
its value of its baseline (its rollout policy's own pick), measured in the same sampled worlds:

    theta = argmin sum_c count_c (theta . (x_c - x_base) - q_c)^2 / sum count + lam |theta|^2

over the options the teacher simulated (``ccsim.training.fit``).  A single search's advantages are
mostly noise (a b64 search's: ~95% of their variance), the fit averages it out over all labels.
The weight of the `tactician` feature is not fitted: it is how far a predicted advantage must go
to leave the tactician's pick (``stick``), chosen each round among ``STICKS`` by the score against
`tactician` on that round's evaluation deals.

Everything is reproducible from the seed: the labelled games of round r are games
``r * ROUND_STRIDE ..`` of the seed, the evaluation deals of round r games ``EVAL_BASE + ..`` of it,
and the fits are deterministic.  Any backend plays the games (the tasks are
``selfplay.LabelTask``).  The output folder holds each round's weights (``round-<r>.toml``), the
chosen ones (``learned.toml``), ``history.json`` and the learning curve (``learning-curve.png``).
"""
from __future__ import annotations

import datetime as dt
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from ccsim.analyses.run import run
from ccsim.errors import UsageError
from ccsim.runner.backends import LocalBackend
from ccsim.runner.checks import check_count, check_seed
from ccsim.runner.config import RunConfig
from ccsim.runner.driver import drive
from ccsim.training import fit
from ccsim.training.selfplay import LabelTask, Labels, label_task
from strategies import learned
from strategies.search import expert
from strategies.registry import LEARNED

ROUND_STRIDE = 1 << 32     # round r labels games r * ROUND_STRIDE ... of the seed
EVAL_SALT = 0x5EED0        # ... and is evaluated with the run seed eval_seed(cfg, r)
STICKS = (0.0, 0.01, 0.02, 0.05)  # the tactician's pick's head start, in advantage units
TASK_GAMES = 16            # labelled games per task


class TrainError(UsageError):
    """An unusable training argument (one line; exit status 2 in the CLI)."""


@dataclass(frozen=True)
class TrainConfig:
    """A training run: ``rounds`` rounds after the imitation round 0, ``games`` labelled games a
    round (a share ``rate`` of the searched decisions labelled by a search of ``budget``
    simulations searching ``kinds``), each round's weights scored against `tactician` on
    ``eval_deals`` deals, seats swapped."""
    seed: int = 1
    rounds: int = 2
    games: int = 2000
    rate: float = 0.5
    budget: int = 64
    kinds: tuple = ("step",)
    lam: float = 1e-3
    eval_deals: int = 5000

    def validated(self) -> "TrainConfig":
        check_seed(self.seed, TrainError)
        check_count(self.rounds, TrainError, "--rounds", 0)
        check_count(self.games, TrainError, "--games", 1)
        check_count(self.budget, TrainError, "--budget", 2)
        check_count(self.eval_deals, TrainError, "--eval-deals", 1)
        if not 0.0 < self.rate <= 1.0:
            raise TrainError(f"--rate must be in (0, 1], got {self.rate!r}")
        bad = [k for k in self.kinds if k not in expert.KIND_NAMES or learned.block_of(expert.KIND_NAMES.index(k))[1] == 0]
        if bad or not self.kinds:
            raise TrainError(f"--kinds: {', '.join(bad) or 'none given'}: the learned model covers "
                             f"{', '.join(k for k in expert.KIND_NAMES if learned.block_of(expert.KIND_NAMES.index(k))[1])}")
        if self.lam < 0:
            raise TrainError(f"--lam must be >= 0, got {self.lam!r}")
        return self


@dataclass
class RoundResult:
    round: int
    labels: int
    games: int
    seconds: float
    stick: float
    score: float
    ci95: tuple
    agreement: float
    weights: str


@dataclass
class TrainResult:
    config: TrainConfig
    rounds: list = field(default_factory=list)
    best: int = 0
    interrupted: bool = False


def teacher_params(cfg: TrainConfig, theta: np.ndarray) -> np.ndarray:
    """The teacher: the expert search of ``cfg.budget`` over ``cfg.kinds``, the weights ``theta``
    as its rollout policy (both seats of every simulation) and its baseline."""
    kinds = sum(1 << expert.KIND_NAMES.index(k) for k in cfg.kinds)
    d = expert.DEFAULTS
    return expert.params_of(cfg.budget, LEARNED, d["width"], d["margin"], kinds, d["z"], theta)


def label_round(cfg: TrainConfig, r: int, theta: np.ndarray, backend, progress: bool):
    """Round r's labelled games, the students and the teacher's rollouts playing ``theta``:
    (Labels, Drive)."""
    run = RunConfig(games=1).validated()
    rules, orders = run.rules_vector(), run.seats(False)[3]
    sids = np.array([LEARNED, LEARNED], np.int64)
    sp = np.stack([theta, theta])
    tsp = teacher_params(cfg, theta)
    first = r * ROUND_STRIDE
    tasks = [LabelTask(cfg.seed, first + a, min(TASK_GAMES, cfg.games - a), rules, sids, sp, tsp, cfg.rate, orders)
             for a in range(0, cfg.games, TASK_GAMES)]
    parts = []

    def tally(task, result):
        parts.append(result)
        return task.games

    warm = LabelTask(cfg.seed, first, 1, rules, sids, sp, tsp, cfg.rate, orders)
    d = drive(backend, label_task, tasks, tally, warm=warm, total=cfg.games, progress=progress)
    return (Labels.concat(parts) if parts else None), d


def step_weights(data: Labels, lam: float, stick: float) -> np.ndarray:
    """The STEP block fitted to the advantages of ``data``, the tactician's pick given ``stick``."""
    first, feats = learned.BLOCKS["step"]
    b = fit.block_data(data, "step")
    free = np.ones(len(feats), bool)
    free[-1] = False  # the `tactician` feature: the head start, not fitted
    theta = fit.fit_advantages(b, lam, free)
    theta[-1] = stick
    return theta


def with_block(theta: np.ndarray, block: str, weights: np.ndarray) -> np.ndarray:
    out = theta.copy()
    first, feats = learned.BLOCKS[block]
    out[first:first + len(feats)] = weights
    return out


def score_against_tactician(theta: np.ndarray, seed: int, deals: int, backend, scratch: Path) -> tuple:
    """(score, its 95% interval) of the weights ``theta`` against `tactician` on ``deals`` deals of
    ``seed``, seats swapped (a draw counts half): a ``ccsim run`` of a weights file."""
    path = scratch / "candidate.toml"
    write_weights(path, theta, {"summary": "a candidate of a training round"})
    summary, _ = run(RunConfig(games=deals, seed=seed, cleopatra=str(path), caesar="tactician", swap_seats=True),
                     backend=backend)
    mine = next(s for s in summary["by_strategy"] if s["strategy"] == str(path))["score"]
    return mine["rate"], tuple(mine["ci95"])


def eval_seed(cfg: TrainConfig, r: int) -> int:
    """The run seed of round r's evaluation deals: seeds no labelled game uses."""
    return (cfg.seed * 7919 + EVAL_SALT + r) % (1 << 62)


def fit_round(cfg: TrainConfig, data: Labels, theta: np.ndarray, r: int, backend, scratch: Path):
    """The weights after round r's data: the STEP block's fit with the best head start on
    round r's evaluation deals; (weights, stick, score, ci)."""
    best = None
    for stick in STICKS:
        cand = with_block(theta, "step", step_weights(data, cfg.lam, stick))
        score, ci = score_against_tactician(cand, eval_seed(cfg, r), cfg.eval_deals, backend, scratch)
        if best is None or score > best[2]:
            best = (cand, stick, score, ci)
    return best


def write_weights(path: Path, theta: np.ndarray, provenance: dict) -> None:
    """A weights file of the ``learned`` family (``learned.model_vector`` reads it back)."""
    lines = ['family = "learned"',
             f'description = "learned: {provenance.get("summary", "trained weights")}"', "", "[training]"]
    lines += [f"{k} = {json.dumps(v)}" for k, v in provenance.items()]
    for block, weights in learned.model_tables(theta).items():
        lines += ["", f"[{block}]"] + [f"{k} = {v!r}" for k, v in weights.items()]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def train(cfg: TrainConfig, out, backend=None, progress: bool = False, log=lambda msg: None) -> TrainResult:
    """Train (see the module docstring), writing into the folder ``out``; Ctrl-C keeps the rounds
    finished (their weights and history are written as each ends)."""
    cfg = cfg.validated()
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    backend = backend or LocalBackend()
    result = TrainResult(cfg)
    theta = learned.tactician_clone()
    base_score, base_ci = score_against_tactician(theta, eval_seed(cfg, 0), cfg.eval_deals, backend, out)
    result.rounds.append(RoundResult(-1, 0, 0, 0.0, 0.0, base_score, base_ci, float("nan"), "tactician clone"))
    data = None
    for r in range(cfg.rounds + 1):
        log(f"round {r}: labelling {cfg.games:,} games (teacher: expert b{cfg.budget}, rollouts: "
            f"{'the tactician' if r == 0 else f'round {r - 1}'})")
        new, d = label_round(cfg, r, theta, backend, progress)
        if new is None or d.interrupted:
            result.interrupted = True
            break
        data = new if data is None else Labels.concat([data, new])
        theta, stick, score, ci = fit_round(cfg, data, theta, r, backend, out)
        name = f"round-{r}.toml"
        agree = fit.agreement(fit.block_data(new, "step"), theta[learned.M_STEP:learned.M_STEP + learned.N_STEP])
        result.rounds.append(RoundResult(r, len(data.meta), cfg.games * (r + 1), d.seconds, stick, score, ci,
                                         agree, name))
        write_weights(out / name, theta, provenance(cfg, r, score, ci))
        log(f"round {r}: {len(new.meta):,} labels in {d.seconds:.0f} s; score against tactician {score:.1%} "
            f"[{ci[0]:.1%}, {ci[1]:.1%}] (head start {stick})")
        write_history(out, result)
    finish(out, result)
    return result


def provenance(cfg: TrainConfig, r: int, score: float, ci) -> dict:
    cmd = (f"ccsim train --seed {cfg.seed} --rounds {cfg.rounds} --games {cfg.games} --rate {cfg.rate} "
           f"--budget {cfg.budget} --kinds {','.join(cfg.kinds)} --lam {cfg.lam} --eval-deals {cfg.eval_deals}")
    return {"summary": f"round {r} of `{cmd}`", "command": cmd, "round": r, "seed": cfg.seed,
            "score_vs_tactician": round(score, 4), "ci95": [round(ci[0], 4), round(ci[1], 4)],
            "date": dt.date.today().isoformat()}


def write_history(out: Path, result: TrainResult) -> None:
    rounds = [{**asdict(x), "ci95": list(x.ci95)} for x in result.rounds]
    (out / "history.json").write_text(json.dumps({"config": asdict(result.config), "rounds": rounds,
                                                  "interrupted": result.interrupted}, indent=1), encoding="utf-8")


def finish(out: Path, result: TrainResult) -> None:
    """The best round's weights as ``learned.toml`` and the learning curve."""
    done = [x for x in result.rounds if x.round >= 0]
    if not done:
        return
    best = max(done, key=lambda x: x.score)
    result.best = best.round
    (out / "learned.toml").write_text((out / best.weights).read_text(encoding="utf-8"), encoding="utf-8")
    write_history(out, result)
    from ccsim.training.plots import learning_curve
    learning_curve(result, out / "learning-curve.png")

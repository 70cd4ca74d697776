"""``ccsim train``: the learned player's weights by imitation of the search and expert iteration."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import click

from ccsim.cli.options import COUNT, backend_options, cli_backend, writable_folder


@click.command("train")
@click.option("--out", default="train-out", show_default=True, help="Folder for each round's weights, "
              "history.json, learned.toml (the best round) and learning-curve.png.")
@click.option("--seed", default=1, show_default=True, type=int, help="Run seed: the same seed, the same weights.")
@click.option("--rounds", default=2, show_default=True, type=int,
              help="Expert-iteration rounds after the imitation round 0.")
@click.option("--games", default=2000, show_default=True, type=COUNT, help="Labelled self-play games per round.")
@click.option("--rate", default=0.5, show_default=True, type=float,
              help="Share of the searched decisions the teacher labels.")
@click.option("--budget", default=64, show_default=True, type=COUNT, help="The teacher's simulations per decision.")
@click.option("--kinds", default="step", show_default=True,
              help="Decision kinds the teacher searches and the model learns (comma-separated).")
@click.option("--lam", default=1e-3, show_default=True, type=float, help="Ridge penalty of the fit.")
@click.option("--eval-deals", default=5000, show_default=True, type=COUNT,
              help="Deals (each played twice, seats swapped) scoring each round against tactician.")
@click.option("--install", is_flag=True, help="Copy the best round's weights to strategies/weights/learned.toml.")
@click.option("--json", "as_json", is_flag=True, help="Print the history as JSON.")
@click.option("--progress/--no-progress", default=True, help="A progress bar while labelling.")
@backend_options
def train_cmd(out, seed, rounds, games, rate, budget, kinds, lam, eval_deals, install, as_json, progress, backend,
              scheduler, workers, connect_timeout):
    """Train the learned player (strategies/learned/): imitation of the expert search, then rounds
    of expert iteration; every round scored against tactician with a 95% interval."""
    from ccsim.training.train import TrainConfig, train
    cfg = TrainConfig(seed=seed, rounds=rounds, games=games, rate=rate, budget=budget,
                      kinds=tuple(k.strip() for k in kinds.split(",") if k.strip()), lam=lam,
                      eval_deals=eval_deals).validated()
    folder = writable_folder(out)
    log = (lambda msg: None) if as_json else (lambda msg: click.echo(msg, err=True))
    with cli_backend(backend, scheduler, workers, connect_timeout) as be:
        result = train(cfg, folder, backend=be, progress=progress and not as_json, log=log)
    history = json.loads((folder / "history.json").read_text()) if (folder / "history.json").exists() else {}
    if install and (folder / "learned.toml").exists():
        from strategies.registry import weights_file
        shutil.copyfile(folder / "learned.toml", weights_file("learned"))
    if as_json:
        click.echo(json.dumps(history, indent=1))
        return
    click.echo(f"{'round':>9}  {'labels':>8}  {'score vs tactician [95%]':<26}  head start")
    for r in result.rounds:
        name = "clone" if r.round < 0 else str(r.round)
        click.echo(f"{name:>9}  {r.labels:>8,}  {r.score:6.1%} [{r.ci95[0]:.1%}, {r.ci95[1]:.1%}]{'':6}  {r.stick}")
    if result.interrupted:
        click.echo("interrupted: the rounds above are kept")
    click.echo(f"best: round {result.best} -> {Path(folder) / 'learned.toml'}"
               + (" (installed as strategies/weights/learned.toml)" if install else ""))


@click.command("train-neural")
@click.option("--out", default="train-neural-out", show_default=True, help="Folder for each generation's weights "
              "and score (gen<g>.npz, gen<g>.json), history.json, neural.npz (the best generation) and "
              "learning-curve.png; a rerun resumes after its finished generations.")
@click.option("--seed", default=1, show_default=True, type=int, help="Run seed: the same seed, the same weights.")
@click.option("--generations", default=3, show_default=True, type=int,
              help="Generations at most (0: games of the heuristics; then self-play); training stops earlier "
                   "when a generation gains nothing measurable.")
@click.option("--games", default=500_000, show_default=True, type=COUNT, help="Branched self-play games a generation.")
@click.option("--keep", default=0.06, show_default=True, type=float,
              help="Share of the network's decisions branched and kept as training data.")
@click.option("--epochs", default=4, show_default=True, type=int, help="Passes over a generation's data.")
@click.option("--eval-deals", default=2000, show_default=True, type=COUNT,
              help="Deals (each played twice, seats swapped) scoring each generation against tactician.")
@click.option("--start", type=click.Path(exists=True, dir_okay=False), default=None,
              help="A weights file to start from: generation 0 then plays that network (and the pool) "
                   "instead of the heuristics, warm-started from its weights.")
@click.option("--install", is_flag=True, help="Copy the best generation's weights to strategies/weights/neural.npz.")
@click.option("--json", "as_json", is_flag=True, help="Print the generations as JSON.")
@click.option("--progress/--no-progress", default=True, help="A progress bar while playing.")
@backend_options
def train_neural_cmd(out, seed, generations, games, keep, epochs, eval_deals, start, install, as_json, progress,
                     backend, scheduler, workers, connect_timeout):
    """Train the value network of the `neural` player (strategies/neural/) from the outcomes of
    self-play games: generation 0 from the heuristics' games, then generations of its own; each
    generation scored against tactician with a 95% interval (docs/learned.md)."""
    from ccsim.training.neural_train import NetworkTrainConfig, train_network, write_history
    cfg = NetworkTrainConfig(seed=seed, generations=generations, games=games, keep=keep, epochs=epochs,
                             eval_deals=eval_deals, start=start or "").validated()
    folder = writable_folder(out)
    log = (lambda msg: None) if as_json else (lambda msg: click.echo(msg, err=True))
    bar = None
    if progress and not as_json:
        from tqdm import tqdm
        bar = tqdm(total=games * generations, unit="game", file=click.get_text_stream("stderr"), mininterval=2.0)
    try:
        with cli_backend(backend, scheduler, workers, connect_timeout) as be:
            gens = train_network(cfg, folder, log=log, progress=bar.update if bar is not None else None, backend=be)
    finally:
        if bar is not None:
            bar.close()
    write_history(folder, cfg, gens)
    if install:
        from strategies.registry import weights_file
        shutil.copyfile(folder / "neural.npz", weights_file("neural"))
    if as_json:
        click.echo((folder / "history.json").read_text())
        return
    click.echo(f"{'generation':>10}  {'games':>9}  {'decisions':>10}  {'minutes':>7}  score vs tactician [95%]"
               f"  as Cleopatra  as Caesar")
    for g in gens:
        seats = "".join(f"  {s:>11.1%}" for s in g.seats)
        click.echo(f"{g.generation:>10}  {g.games:>9,}  {g.decisions:>10,}  {g.seconds / 60:>7.1f}  "
                   f"{g.score:6.1%} [{g.ci95[0]:.1%}, {g.ci95[1]:.1%}]{seats}")
    best = max(gens, key=lambda x: x.score)
    click.echo(f"best: generation {best.generation} -> {Path(folder) / 'neural.npz'}"
               + (" (installed as strategies/weights/neural.npz)" if install else ""))

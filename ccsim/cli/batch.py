"""The batch commands: ``run`` (a batch of games and its summary), ``replay`` (a recorded
game, or a check of a whole file), ``strategies`` and ``compile``."""
from __future__ import annotations

import json
import sys

import click

from ccsim.runner.config import ConfigError, RunConfig, load_toml
from ccsim.kernel import rules as R
from ccsim.cli.options import COUNT, backend_options, wide_option, width_of
from ccsim.analyses.levels import DEFAULT_HELP


def _fail(msg: str) -> None:
    raise click.UsageError(msg)


@click.command("run")
@click.option("--games", "-n", type=COUNT, default=None,
              help="Games to play [default: 100000]; with --swap-seats, deals (each played twice).")
@click.option("--seed", type=int, default=None, help="Run seed: game i of seed s is the same game everywhere [1].")
@click.option("--cleopatra", default=None, metavar="STRATEGY", help=f"Cleopatra's strategy [{DEFAULT_HELP}].")
@click.option("--caesar", default=None, metavar="STRATEGY", help=f"Caesar's strategy [{DEFAULT_HELP}].")
@click.option("--cleopatra-order", default=None, metavar="ORDER", help="13 letters top first, a preset, or shuffled.")
@click.option("--caesar-order", default=None, metavar="ORDER", help="13 letters top first, a preset, or shuffled.")
@click.option("--variant", "variants", multiple=True, metavar="NAME",
              help="Rule variant (R11), repeatable: " + ", ".join(R.VARIANTS))
@click.option("--swap-seats/--no-swap-seats", default=None, help="Play every seed twice, seats swapped.")
@click.option("--threads", type=int, default=None,
              help="Threads of the local backend (0: all cores); a Dask task uses one.")
@click.option("--chunk-size", type=COUNT, default=None,
              help="Games per task [50000; on Dask 10000-50000: ~50 per worker thread].")
@click.option("--record", default=None, metavar="FILE.jsonl", help="Write game records (ccsim-game/1).")
@click.option("--record-games", type=COUNT, default=None, metavar="K", help="Record only the first K games (with --swap-seats, each twice).")
@click.option("--out", default=None, metavar="DIR", help="Write games.parquet and summary.json under DIR.")
@backend_options
@click.option("--config", "config_path", default=None, metavar="FILE.toml", help="Run configuration (flags override).")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as one JSON object.")
@click.option("--metrics", "with_metrics", is_flag=True, help="Add the designer metrics (docs/metrics.md).")
@click.option("--progress/--no-progress", default=None, help="Progress on stderr: a bar on a terminal, else a line every 10 s [on].")
@wide_option
def run_cmd(games, seed, cleopatra, caesar, cleopatra_order, caesar_order, variants, swap_seats, threads, chunk_size,
            record, record_games, out, backend, scheduler, workers, connect_timeout, config_path, as_json, with_metrics,
            progress, wide):
    """Play a batch of games and print a summary."""
    from ccsim.runner.backends import make_backend

    flags = dict(games=games, seed=seed, cleopatra=cleopatra, caesar=caesar, cleopatra_order=cleopatra_order,
                 caesar_order=caesar_order, variants=tuple(variants) or None, swap_seats=swap_seats, threads=threads,
                 chunk_size=chunk_size, record=record, record_games=record_games, out=out, backend=backend,
                 scheduler=scheduler, workers=workers, connect_timeout=connect_timeout)
    from ccsim.analyses.levels import default_level
    seats = dict(cleopatra=default_level(), caesar=default_level())  # a seat nobody names: the balanced default
    if config_path:
        cfg = load_toml(config_path, defaults=seats, **flags)
    else:
        cfg = RunConfig(**(seats | {k: v for k, v in flags.items() if v is not None})).validated()
    if cfg.record:
        _check_writable(cfg.record)
    show = True if progress is None else progress  # a bar on a terminal, plain lines in a log
    # the backend before the rest of ccsim is imported: an unusable cluster fails within seconds
    with make_backend(cfg.backend, cfg.scheduler, cfg.workers, cfg.connect_timeout) as be:
        from ccsim.analyses.run import run, write_records
        summary, _ = run(cfg, progress=show, backend=be, metrics=with_metrics)
    if cfg.record and not summary.get("interrupted"):
        summary["recorded_games"] = write_records(cfg, cfg.record, cfg.record_games)
    if as_json:
        click.echo(json.dumps(summary))
    else:
        from ccsim.present.summary import format_summary
        click.echo(format_summary(summary, width_of(wide)))
        if with_metrics:
            from ccsim.present.metrics import format_metrics
            click.echo("\n" + format_metrics(summary["metrics"], width_of(wide)))
    if summary.get("interrupted"):
        sys.exit(130)


def _check_writable(path: str):
    try:
        with open(path, "a", encoding="utf-8"):
            pass
    except OSError as e:
        raise ConfigError(f"--record {path}: cannot write ({e.strerror})") from None


@click.command("replay")
@click.argument("path", metavar="FILE.jsonl")
@click.option("--game", "index", type=int, default=0, help="Which record of the file (0-based line) [0].")
@click.option("--check", is_flag=True, help="Only check every record of the file; print one line per failure.")
def replay_cmd(path, index, check):
    """Show a recorded game turn by turn (or --check a whole file)."""
    from ccsim.play.record import read_records, replay, RecordError
    from ccsim.play.narrate import narrate

    try:
        records = read_records(path)
    except OSError as e:
        _fail(f"cannot read {path}: {e.strerror}")
    except json.JSONDecodeError as e:
        _fail(f"{path}: not JSON Lines ({e.msg} at line {e.lineno})")
    if check:
        bad = 0
        for i, rec in enumerate(records):
            try:
                res = replay(rec)
            except (RecordError, KeyError, TypeError, ValueError) as e:
                click.echo(f"record {i}: malformed: {e}")
                bad += 1
                continue
            if not res.ok:
                bad += 1
                click.echo(f"record {i}: {res.message}")
        click.echo(f"{len(records) - bad} passed, {bad} failed")
        sys.exit(1 if bad else 0)
    if not 0 <= index < len(records):
        _fail(f"--game {index}: {path} holds {len(records)} records (0..{len(records) - 1})")
    try:
        click.echo(narrate(records[index]))
    except (RecordError, KeyError, TypeError, ValueError) as e:
        _fail(f"{path} record {index}: malformed: {e}")


@click.command("strategies")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list.")
def strategies_cmd(as_json):
    """List the registered strategies (with --json, each one's measured seat gains too)."""
    from strategies.registry import available
    from strategies.seats import seat_row

    items = available()
    if as_json:
        click.echo(json.dumps([s | {"seats": seat_json(seat_row(s["name"]))} for s in items]))
        return
    width = max(len(s["name"]) for s in items)
    fam = max(len(s["family"]) for s in items)
    for s in items:
        click.echo(f"{s['name']:<{width}}  {s['family']:<{fam}}  {s['description']}")


def seat_json(row: dict | None) -> dict | None:
    """A player's seat gains as ``strategies --json`` gives them (points over `tactician`'s mirror), its
    ``status`` (balanced, lopsided or not yet known: ``strategies.seats``) and ``balanced`` (its status is
    balanced), None where they were not measured."""
    if row is None:
        return None
    keys = ("gain_cleopatra", "gain_caesar", "seat_gap", "seat_gap_ci95", "balanced", "status", "deals")
    return {k: row[k] for k in keys if k in row}


@click.command("compile")
@click.argument("names", nargs=-1, metavar="[STRATEGY]...")
@click.option("--all", "every", is_flag=True, help="Every registered strategy.")
def compile_cmd(names, every):
    """Compile the kernel and the named strategies (or --all) ahead of time, into numba's cache."""
    from ccsim.toolchain.cache import engine_folder, strategies_folder
    from strategies.registry import lookup, available, resolve

    names = [s["name"] for s in available()] if every else list(dict.fromkeys(names))
    for name in names:  # every name checked before anything compiles
        try:
            lookup(name)
        except KeyError as e:
            _fail(e.args[0])
    from ccsim.runner.coldstart import compile_kernel, kernel_cached
    from ccsim.toolchain.notice import KERNEL_SECONDS, compiling
    with compiling("the kernel", KERNEL_SECONDS, cold=not kernel_cached()):
        compile_kernel()
    for name in names:
        resolve(name)
    click.echo(f"compiled: the kernel{''.join(', ' + n for n in names)}")
    click.echo(f"cache: {engine_folder()}")
    if names:
        click.echo(f"       {strategies_folder()}")

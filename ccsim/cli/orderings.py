"""`ccsim orderings ...`: the action-deck ordering toolkit (compare, search, positions).

Thin: parse, call ccsim.analyses.orderings.study, print (or ``--json``), save.  Every usage error
(an invalid ordering, strategy, count or folder) is one line and exit status 2.
"""
from __future__ import annotations

import json
from pathlib import Path

import click

from ccsim.kernel import rules as R
from ccsim.cli.options import COUNT, backend_options, cli_backend, wide_option, width_of, writable_folder as _writable
from ccsim.present.files import write_parquet
from ccsim.cli.orderings_text import compare_text, positions_text, search_text
from ccsim.analyses.stats import json_number as _num
from ccsim.analyses.levels import DEFAULT_HELP, default_level, level_caveat, level_json
from ccsim.analyses.orderings.judged import judge_columns, judge_json

_ORDER_HELP = "13 letters A S C R W V top first, a preset, or shuffled"


def _load_config(ctx, param, value):
    """``--config FILE``: a TOML table whose keys are the command's own flags
    (``opponent-order`` or ``opponent_order``; ``candidates`` for ``compare``'s
    ORDER...).  They become the defaults: flags given on the line still win, and
    every value is validated as if typed.  Unknown keys are errors."""
    if value is None:
        return None
    import tomllib
    try:
        data = tomllib.loads(Path(value).read_text(encoding="utf-8"))
    except OSError as e:
        raise click.UsageError(f"--config {value}: cannot read it ({e.strerror})") from None
    except tomllib.TOMLDecodeError as e:
        raise click.UsageError(f"--config {value}: not valid TOML ({e})") from None
    params = {p.name: p for p in ctx.command.params if p.expose_value}
    aliases = {"json": "as_json", "variant": "variants", "plot": "plot_path"}
    defaults = {}
    for key, v in data.items():
        name = aliases.get(key.replace("-", "_"), key.replace("-", "_"))
        if name not in params:
            known = ", ".join(sorted(k.replace("_", "-") for k in params))
            raise click.UsageError(f"--config {value}: unknown key {key!r} (known: {known})")
        defaults[name] = v
    ctx.default_map = {**(ctx.default_map or {}), **defaults}
    return value


def _matchup_options(fn):
    for opt in reversed([
        click.option("--config", type=click.Path(dir_okay=False), callback=_load_config, is_eager=True,
                     expose_value=False, metavar="FILE.toml",
                     help="Read the flags from a TOML file (keys as the flags; the line wins)."),
        click.option("--strategy", default=None, metavar="S",
                     help=f"Strategy playing the orderings studied [{DEFAULT_HELP}]."),
        click.option("--opponent", default=None, metavar="S", help="Opponent's strategy [same as --strategy]."),
        click.option("--opponent-order", default="shuffled", show_default=True, metavar="ORDER",
                     help="Opponent's ordering: " + _ORDER_HELP + "."),
        click.option("--seed", type=int, default=1, show_default=True, help="Run seed (the deals)."),
        click.option("--variant", "variants", multiple=True, metavar="NAME",
                     help="Rule variant (R11), repeatable: " + ", ".join(R.VARIANTS)),
        click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object."),
        wide_option,
    ]):
        fn = opt(fn)
    return backend_options(fn)


def _log(quiet: bool):
    return None if quiet else (lambda msg: click.echo(msg, err=True))


def _on_backend(study, flags: tuple, *args, **kwargs):
    """``study(*args, **kwargs)`` on the backend the flags (backend, scheduler, workers,
    connect_timeout) name, closed after it, whatever way it ends."""
    with cli_backend(*flags) as be:
        return study(*args, **kwargs, backend=be)


@click.group("orderings")
def orderings_group():
    """Compare, search and explain action-deck orderings (R2.2).

    An ordering is 13 letters, top first (A assassination x4, S spy x2,
    C castling x2, R scout x2, W wrath x1, V veto x2), a preset name or
    shuffled.  Every study plays each deal twice, seats swapped, and scores
    from the ordering's side: win 1, draw 1/2, loss 0.
    """


@orderings_group.command("presets")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON object name -> ordering.")
def presets_cmd(as_json):
    """List the named orderings."""
    from ccsim.runner.orderings import PRESETS, describe

    if as_json:
        click.echo(json.dumps({k: v for k, (v, _) in PRESETS.items()}))
        return
    width = max(map(len, PRESETS))
    for k, (v, text) in PRESETS.items():
        click.echo(f"{k:<{width}}  {v}  {text}")
    click.echo(f"{'shuffled':<{width}}  {'-' * 13}  {describe('shuffled').split(': ', 1)[1]}")


@orderings_group.command("compare")
@click.argument("candidates", nargs=-1, metavar="ORDER...")
@click.option("--baseline", default="shuffled", show_default=True, metavar="ORDER",
              help="Ordering every candidate is compared with.")
@_matchup_options
@click.option("--games", "-n", type=COUNT, default=20_000, show_default=True,
              help="Games per ordering (half as many deals, each at both seats); "
                   "with --until-decided the most a comparison may use.")
@click.option("--until-decided", is_flag=True,
              help="Stop each comparison as soon as a sequential test (SPRT) decides it.")
@click.option("--delta", type=float, default=0.02, show_default=True,
              help="SPRT: the difference in score (0.02 = 2 points) that counts as better or worse.")
@click.option("--alpha", type=float, default=0.05, show_default=True, help="SPRT: false-difference rate.")
@click.option("--beta", type=float, default=0.05, show_default=True, help="SPRT: missed-difference rate.")
@click.option("--plot", "plot_path", default=None, metavar="FILE.png", help="Save a forest plot.")
def compare_cmd(candidates, baseline, strategy, opponent, opponent_order, seed, variants, as_json, wide, backend,
                scheduler, workers, connect_timeout, games, until_decided, delta, alpha, beta, plot_path):
    """Compare orderings with a baseline on the same deals, seats swapped."""
    from ccsim.analyses.orderings import study
    from ccsim.analyses.orderings.study import compare

    if not candidates:
        raise click.UsageError("give at least one ORDER to compare")
    strategy = strategy or default_level()
    if not (0 < alpha < 0.5 and 0 < beta < 0.5):
        raise click.UsageError(f"--alpha and --beta must be in (0, 0.5), got {alpha}, {beta}")
    if not 0 < delta < 1:  # before anything compiles: the error is the only line on stderr
        raise click.UsageError(f"--delta must be in (0, 1), got {delta!r}")
    study.compare_args(list(candidates), baseline, games)  # before anything compiles: the error is the only line
    study.Matchup(strategy, opponent, opponent_order, seed, tuple(variants), warmed=False)  # refuse bad input before a cluster
    df = _on_backend(compare, (backend, scheduler, workers, connect_timeout), list(candidates), baseline=baseline,
                     strategy=strategy, opponent=opponent, opponent_order=opponent_order, games=games, seed=seed,
                     until_decided=until_decided, delta=delta, alpha=alpha, beta=beta, variants=variants)
    if plot_path:
        from ccsim.present.orderings import forest_plot
        forest_plot(df, plot_path)
    judged = judge_columns(df.to_dict("records"), strategy, opponent, opponent_order, baseline, variants)
    if as_json:
        recs = []
        for r in judged:
            rec = {"ordering": r["ordering"], "games": int(r["games"]), "win_rate": _num(r["win_rate"]),
                   "ci95": [_num(r["ci_lo"]), _num(r["ci_hi"])], "diff": _num(r["diff"]),
                   "diff_ci95": [_num(r["diff_lo"]), _num(r["diff_hi"])], "judge": judge_json(r)}
            if until_decided:
                rec["decision"] = r["decision"]
            recs.append(rec)
        click.echo(json.dumps({"level": level_json(strategy), "caveat": level_caveat((strategy, opponent or strategy)),
                               "orderings": recs}))
        return
    sprt = (delta, alpha, beta) if until_decided else None
    click.echo(compare_text(df, strategy, sprt, width_of(wide), judged, level_caveat((strategy, opponent or strategy))))
    if plot_path:
        click.echo(f"plot: {plot_path}")


@orderings_group.command("search")
@_matchup_options
@click.option("--budget", type=COUNT, default=1_000_000, show_default=True, metavar="GAMES",
              help="Games to spend, all stages together.")
@click.option("--top", type=COUNT, default=10, show_default=True, help="Orderings to confirm and print.")
@click.option("--out", default="results/orderings/search", show_default=True, metavar="DIR",
              help="Folder for search_top.parquet, search_progress.parquet, search_progress.png, search.json.")
@click.option("--quiet", "-q", is_flag=True, help="No progress lines on stderr.")
def search_cmd(strategy, opponent, opponent_order, seed, variants, as_json, wide, backend, scheduler, workers,
               connect_timeout, budget, top, out, quiet):
    """Find strong orderings among all 16,216,200 within a budget of games."""
    import pandas as pd
    strategy = strategy or default_level()
    from ccsim.present.orderings import search_progress
    from ccsim.analyses.orderings.study import search, search_args

    search_args(strategy, opponent, opponent_order, budget, seed, top, variants, warm=False)
    folder = _writable(out)  # before anything compiles: the error is the only line
    df = _on_backend(search, (backend, scheduler, workers, connect_timeout), strategy=strategy, opponent=opponent,
                     opponent_order=opponent_order, budget=budget, seed=seed, top=top, variants=variants,
                     log=_log(quiet))
    a = df.attrs
    roles = pd.concat([df.assign(role="top"),
                       pd.DataFrame([a["baseline"]]).assign(rank=0, role="baseline"),
                       pd.DataFrame([a["worst"]]).assign(rank=-1, role="worst of sample")], ignore_index=True)
    write_parquet(roles, folder / "search_top.parquet")
    write_parquet(pd.DataFrame(a["progress"]), folder / "search_progress.parquet")
    search_progress(df, folder / "search_progress.png")
    judged = judge_columns(df.to_dict("records"), strategy, opponent, opponent_order, "shuffled", variants)
    summary = {
        "matchup": a["matchup"], "level": level_json(strategy), "caveat": level_caveat((strategy, opponent or strategy)),
        "budget": a["budget"], "games_used": a["games_used"],
        "seconds": round(a["seconds"], 1), "cpu_seconds": round(a["cpu_seconds"], 1), "threads": a["threads"],
        "plan": a["plan"],
        "orderings": [_search_rec(r) | {"judge": judge_json(r)} for r in judged],
        "baseline": _search_rec(a["baseline"]), "worst": _search_rec(a["worst"]),
    }
    (folder / "search.json").write_text(json.dumps(summary, indent=2) + "\n")
    if as_json:
        click.echo(json.dumps(summary))
        return
    click.echo(search_text(df, strategy, width_of(wide), judged, level_caveat((strategy, opponent or strategy)))
               + f"\nsaved under {folder}/")


def _search_rec(r) -> dict:
    out = {"ordering": r["ordering"], "games": int(r["games"]), "win_rate": _num(r["win_rate"]),
           "ci95": [_num(r["ci_lo"]), _num(r["ci_hi"])], "simultaneous_ci": [_num(r["simul_lo"]), _num(r["simul_hi"])],
           "diff": _num(r["diff"]), "diff_ci95": [_num(r["diff_lo"]), _num(r["diff_hi"])]}
    if "rank" in r:
        out = {"rank": int(r["rank"]), **out}
    return out


@orderings_group.command("positions")
@_matchup_options
@click.option("--games", "-n", type=COUNT, default=1_000_000, show_default=True,
              help="Games in all (random orderings x deals per ordering x 2 seats).")
@click.option("--deals-per-ordering", type=COUNT, default=1, show_default=True,
              help="Deals each random ordering plays (each at both seats).")
@click.option("--out", default="results/orderings/positions", show_default=True, metavar="DIR",
              help="Folder for positions.parquet, positions_heatmap.png, positions.json.")
@click.option("--quiet", "-q", is_flag=True, help="No progress lines on stderr.")
def positions_cmd(strategy, opponent, opponent_order, seed, variants, as_json, wide, backend, scheduler, workers,
                  connect_timeout, games, deals_per_ordering, out, quiet):
    """What each card type is worth at each depth of the deck (regression over random orderings)."""
    from ccsim.present.orderings import positions_heatmap
    strategy = strategy or default_level()
    from ccsim.analyses.orderings.study import Matchup, positions, positions_size

    positions_size(games, deals_per_ordering)
    Matchup(strategy, opponent, opponent_order, seed, tuple(variants), warmed=False)
    folder = _writable(out)
    df = _on_backend(positions, (backend, scheduler, workers, connect_timeout), strategy=strategy, opponent=opponent,
                     opponent_order=opponent_order, games=games, seed=seed, deals_per_ordering=deals_per_ordering,
                     variants=variants, log=_log(quiet))
    a = df.attrs
    write_parquet(df, folder / "positions.parquet")
    positions_heatmap(df, folder / "positions_heatmap.png")
    recs = [{"card": r.card, "letter": r.letter, "kind": r.kind, "region": r.region, "effect": _num(r.effect),
             "se": _num(r.se), "ci95": [_num(r.lo), _num(r.hi)], "raw": _num(r.raw)} for r in df.itertuples()]
    summary = {"matchup": a["matchup"], "level": level_json(strategy),
               "caveat": level_caveat((strategy, opponent or strategy)), "orderings": a["orderings"], "games": a["games"],
               "mean_score": _num(a["mean_score"]), "r2": _num(a["r2"]), "seconds": round(a["seconds"], 1),
               "effects": recs}
    (folder / "positions.json").write_text(json.dumps(summary, indent=2) + "\n")
    if as_json:
        click.echo(json.dumps(summary))
        return
    click.echo(positions_text(df, width_of(wide), level_caveat((strategy, opponent or strategy)))
               + f"\nsaved under {folder}/")

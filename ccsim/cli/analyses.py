"""`ccsim tournament`, `ccsim whatif`, `ccsim balance`, `ccsim metrics`: balance analysis on the command line.

Thin: parse, validate (one line and exit status 2 before any game is played),
call ccsim.analyses.tournament / whatif / balance / metrics, print tables or
``--json``, save.  A run interrupted with Ctrl-C prints what it completed and
exits with status 130.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from ccsim.kernel import rules as R
from ccsim.analyses.levels import DEFAULT_HELP, level_caveat, level_json
from ccsim.cli.options import COUNT, backend_options, cli_backend, wide_option, width_of, writable_folder as _writable
from ccsim.present.files import write_parquet


def _threads(n):
    from ccsim.kernel.simulate import set_threads
    if n is not None:
        if not 0 <= n <= 256:
            raise click.UsageError(f"--threads must be 0 (all cores) .. 256, got {n}")
        set_threads(n)


def _show(progress):
    """Progress is on unless --no-progress: a bar on a terminal, plain lines in a log (never a silent half minute)."""
    return True if progress is None else progress


_COMMON = [
    click.option("--seed", type=int, default=1, show_default=True, help="Run seed: deal i is game i of this seed."),
    click.option("--threads", type=int, default=None, help="Threads (0: all cores)."),
    click.option("--out", default=None, metavar="DIR", help="Write the tables (Parquet), summary.json, the report "
                 "and the plots under DIR."),
    click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object."),
    click.option("--progress/--no-progress", default=None, help="Progress on stderr: a bar on a terminal, else a line every 10 s [on]."),
    wide_option,
]


def _common(fn):
    for opt in reversed(_COMMON):
        fn = opt(fn)
    return backend_options(fn)


@click.command("tournament")
@click.option("--strategies", default="heuristics", show_default=True, metavar="A,B,...|all|heuristics",
              help="Strategies (comma-separated); all: every registered one; heuristics: all but random and the search players.")
@click.option("--games", "-n", type=COUNT, default=10_000, show_default=True,
              help="Deals per pairing, each played twice with the seats swapped.")
@click.option("--orderings", default="shuffled", show_default=True, metavar="O1,O2,...",
              help="Orderings (13 letters, presets, shuffled): every strategy plays with each.")
@click.option("--variant", "variants", multiple=True, metavar="NAME",
              help="Rule variant (R11), repeatable: " + ", ".join(R.VARIANTS))
@click.option("--nash/--no-nash", default=None, help="Nash averaging beside Bradley-Terry [only if intransitive].")
@click.option("--search-games", type=COUNT, default=None, metavar="N",
              help="Deals of a pairing with a search player (expert), each played twice [--games].")
@_common
def tournament_cmd(strategies, games, orderings, variants, nash, search_games, seed, threads, out, as_json, progress,
                   wide, backend, scheduler, workers, connect_timeout):
    """Round robin: score matrix, Bradley-Terry ratings, seat advantage, transitivity."""
    from ccsim.analyses.question import ask_tournament
    from ccsim.analyses.tournament import answer_tournament
    from ccsim.present.tournament import format_tournament, tournament_json
    from ccsim.present.heatmap import tournament_heatmap

    q = ask_tournament(strategies, games=games, seed=seed, orderings=orderings, variants=variants, nash=nash,
                       search_games=search_games)  # every argument checked before a game
    folder = _writable(out)
    _threads(threads)
    be = cli_backend(backend, scheduler, workers, connect_timeout)
    try:
        t = answer_tournament(q, backend=be, progress=_show(progress))
    finally:
        be.close()
    d = tournament_json(t)
    text = format_tournament(t, width_of(wide))
    if folder:
        write_parquet(t.pairings, folder / "pairings.parquet")
        write_parquet(t.ratings, folder / "ratings.parquet")
        write_parquet(t.score.rename_axis("entrant").reset_index(), folder / "matrix.parquet")
        (folder / "summary.json").write_text(json.dumps(d, indent=2) + "\n")
        (folder / "tournament.txt").write_text(format_tournament(t) + "\n")
        tournament_heatmap(t, folder / "heatmap.png")
    click.echo(json.dumps(d) if as_json else text)
    if t.info["interrupted"]:
        sys.exit(130)


@click.command("whatif")
@click.option("--strategy", "strategies", multiple=True, metavar="S",
              help="Strategy playing mirror games, repeatable [" + DEFAULT_HELP + "].")
@click.option("--games", "-n", type=COUNT, default=20_000, show_default=True,
              help="Deals per arm (the same deals for every arm).")
@click.option("--variant", "variants", multiple=True, metavar="NAME",
              help="R11 variant to compare with the standard rules, repeatable [all four]: " + ", ".join(R.VARIANTS))
@click.option("--no-variants", is_flag=True, help="Compare no variant (only the rules file and --cards).")
@click.option("--rules", "rules_file", default=None, metavar="FILE.toml",
              help="Rules changes to compare, as [[change]] tables (see docs/metrics.md).")
@click.option("--cards", is_flag=True, help="Also ablate each action card from each player's deck.")
@click.option("--cleopatra-order", default="shuffled", show_default=True, metavar="ORDER")
@click.option("--caesar-order", default="shuffled", show_default=True, metavar="ORDER")
@click.option("--all-metrics", is_flag=True, help="Print every metric, not only the headline ones.")
@click.option("--record", default=None, metavar="FILE.jsonl",
              help="Write records (ccsim-game/1, with their rules) of the first deals of every arm.")
@click.option("--record-games", type=COUNT, default=10, show_default=True, metavar="K", help="Deals recorded per arm.")
@_common
def whatif_cmd(strategies, games, variants, no_variants, rules_file, cards, cleopatra_order, caesar_order,
               all_metrics, record, record_games, seed, threads, out, as_json, progress, wide, backend, scheduler,
               workers, connect_timeout):
    """Rules against the standard rules (docs/rules.md) on the same deals: every metric, its difference
    and interval (Holm)."""
    from ccsim.analyses.question import ask_whatif
    from ccsim.analyses.whatif import answer_whatif
    from ccsim.present.whatif import format_whatif, whatif_json, whatif_plot, cards_plot

    if no_variants and variants:
        raise click.UsageError("--no-variants and --variant contradict each other")
    chosen = () if no_variants else (tuple(variants) or None)
    q = ask_whatif(list(strategies) or None, games=games, seed=seed, variants=chosen, rules_file=rules_file,
                   cards=cards, cleopatra_order=cleopatra_order, caesar_order=caesar_order, record=record,
                   record_games=record_games)  # every argument checked before a game
    if record:
        from ccsim.analyses.run import open_records
        open_records(record).close()
    folder = _writable(out)
    _threads(threads)
    be = cli_backend(backend, scheduler, workers, connect_timeout)
    try:
        w = answer_whatif(q, backend=be, progress=_show(progress))
    finally:
        be.close()
    d = whatif_json(w)
    text = format_whatif(w, all_metrics, width_of(wide))
    if folder:
        write_parquet(w.metrics, folder / "metrics.parquet")
        write_parquet(w.lengths, folder / "lengths.parquet")
        (folder / "summary.json").write_text(json.dumps(d, indent=2) + "\n")
        (folder / "whatif.txt").write_text(format_whatif(w, True) + "\n")
        if (w.metrics["kind"] != "base").any():
            whatif_plot(w, folder / "whatif.png")
        if w.cards is not None:
            write_parquet(w.cards, folder / "cards.parquet")
            cards_plot(w, folder / "cards.png")
    click.echo(json.dumps(d) if as_json else text)
    if w.info["interrupted"]:
        sys.exit(130)


@click.command("balance")
@click.argument("space", required=False, metavar="[SPACE.toml]")
@click.option("--out", required=True, metavar="DIR",
              help="Output folder; a rerun with the same folder and space resumes where it stopped.")
@click.option("--levels", default=None, metavar="A,B+C,...",
              help="Levels of play: a strategy (mirror games) or a pair A+B (seats swapped) [the space's, else "
                   "every fast level shown balanced: learned, tactician].")
@click.option("--judge", default=None, metavar="balanced|LEVEL",
              help="The level whose figure decides \"fair\" for the answer: the strongest level that plays both "
                   "seats alike (strategies/seats.py), or a level's name; a lopsided level is refused [the space's, "
                   "else balanced]. (every/first, the older meaning, set --race.)")
@click.option("--race", type=click.Choice(["every", "first"]), default=None,
              help="The race: fair at every level (the worst decides) or at the first alone, the others measured "
                   "beside it [the space's; the default space: first].")
@click.option("--budget", type=COUNT, default=None, metavar="N", help="Games the search may play [the space's].")
@click.option("--seed", type=int, default=None, help="Run seed of the search's deals [the space's]; the fresh "
              "re-measure plays those of seed + 1.")
@click.option("--tolerance", type=float, default=None, metavar="POINTS",
              help="Fair: Cleopatra's score within 50% +- this many points, 1 = one point [the space's, else 1].")
@click.option("--remeasure-games", type=COUNT, default=None, metavar="N",
              help="Fresh deals per level re-measuring each setting the race kept [the space's, else 100,000].")
@click.option("--search-level", default=None, metavar="NAME|none",
              help="The search level the final candidates are measured at too [the space's; the default space: "
                   "neural-search].")
@click.option("--search-deals", type=COUNT, default=None, metavar="N",
              help="Fresh deals per arm at the search level [the space's, else 10,000].")
@click.option("--skill-levels", default=None, metavar="A,B,...|none",
              help="The skill curve's levels [the space's; the default space: the ladder].")
@click.option("--skill-deals", type=COUNT, default=None, metavar="N",
              help="Fresh deals per arm at a search level of the skill curve [the space's, else 1,000].")
@click.option("--ring/--no-ring", default=None,
              help="When nothing is fair at the judge, search the next ring around the closest setting (screened at "
                   "the other levels, raced and confirmed at the judge) and publish the answer with it [the space's, "
                   "else on].")
@click.option("--threads", type=int, default=None, help="Threads (0: all cores).")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as one JSON object.")
@click.option("--progress/--no-progress", default=None, help="Progress on stderr: a bar on a terminal, else a line every 10 s [on].")
@wide_option
@backend_options
def balance_cmd(space, out, levels, judge, race, budget, seed, tolerance, remeasure_games, search_level, search_deals, skill_levels,
                skill_deals, ring, threads, as_json, progress, wide, backend, scheduler, workers, connect_timeout):
    """Search a space of rules changes for the smallest that makes the game fair (docs/balance.md)."""
    from ccsim.analyses.balance import answer_balance
    from ccsim.present.balance import balance_json, format_balance, write_balance
    from ccsim.analyses.question import ask_balance

    sp = ask_balance(space, levels=levels, budget=budget, seed=seed, tolerance=tolerance,
                     remeasure_games=remeasure_games, search_level=search_level, search_deals=search_deals,
                     skill_levels=skill_levels, skill_deals=skill_deals, judge=judge,
                     race=race, ring=ring)  # every argument checked before a game
    _threads(threads)
    be = cli_backend(backend, scheduler, workers, connect_timeout)
    try:
        b = answer_balance(sp, out=out, backend=be, progress=_show(progress),
                           log=lambda msg: click.echo(msg, err=True))
    finally:
        be.close()
    write_balance(out, b)
    click.echo(json.dumps(balance_json(b)) if as_json else format_balance(b, width_of(wide)))
    if b.info["interrupted"]:
        sys.exit(130)


@click.command("metrics")
@click.argument("path", metavar="RUN_DIR|GAMES.parquet")
@click.option("--json", "as_json", is_flag=True, help="Print the metrics as one JSON object.")
@wide_option
def metrics_cmd(path, as_json, wide):
    """Designer metrics of a run written with `ccsim run --out DIR` (docs/metrics.md)."""
    import pandas as pd
    from ccsim.analyses.metrics import metrics_report
    from ccsim.present.metrics import format_metrics
    from ccsim.runner.ruleset import rules_vector

    p = Path(path)
    games = p / "games.parquet" if p.is_dir() else p
    try:
        df = pd.read_parquet(games)
    except (OSError, ValueError) as e:
        raise click.UsageError(f"{path}: cannot read a games.parquet there ({str(e).splitlines()[0]})") from None
    summary = games.parent / "summary.json"
    block, variants = {}, []
    if summary.is_file():
        cfg = json.loads(summary.read_text()).get("config", {})
        block, variants = cfg.get("rules", {}), cfg.get("variants", [])
    report = metrics_report(df, rules_vector(block, tuple(variants)))
    players = tuple(dict.fromkeys([*df["strategy_cleopatra"].unique(), *df["strategy_caesar"].unique()]))
    caveat = level_caveat(players)
    if as_json:
        click.echo(json.dumps(report | {"level": level_json(players[0]) if len(players) == 1 else None,
                                        "caveat": caveat}))
        return
    from ccsim.present.table_width import paragraph
    click.echo("\n".join((paragraph(caveat, width_of(wide)) if caveat else []) + [format_metrics(report, width_of(wide))]))

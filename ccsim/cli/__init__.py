"""The ``ccsim`` command line: thin — parse, call the API, print.

Usage errors print one line, ``ccsim: error: ...``, and exit with status 2;
never a traceback.
"""
from __future__ import annotations

import signal
import sys

import click

from ccsim.errors import CCSimError, suggest


class _Commands(click.Group):
    """The ccsim command group, and the one place that turns ccsim's own errors into usage
    errors: any ``CCSimError`` a command raises (a flag, name, value, file or record it
    cannot use) is its first line and exit status 2, never a traceback."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except CCSimError as e:
            raise click.UsageError(str(e).splitlines()[0] if str(e) else type(e).__name__) from None


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="ccsim")
def cli():
    """ccsim — simulate and analyse Caesar & Cleopatra."""


from ccsim.cli import analyses, batch, explore, orderings, report, train  # noqa: E402  (their commands join the group)
from ccsim.play import terminal  # noqa: E402

for _command in (batch.run_cmd, batch.replay_cmd, batch.strategies_cmd, batch.compile_cmd, orderings.orderings_group,
                 analyses.tournament_cmd, analyses.whatif_cmd, analyses.balance_cmd, analyses.metrics_cmd,
                 terminal.play_cmd, report.report_cmd, train.train_cmd, train.train_neural_cmd,
                 explore.explore_cmd):
    cli.add_command(_command)


def main(argv=None):
    """Entry point: one line and exit 2 for usage errors, never a traceback."""
    try:
        rv = cli.main(args=argv, prog_name="ccsim", standalone_mode=False)
    except click.UsageError as e:
        if type(e).__name__ == "NoArgsIsHelpError":  # bare `ccsim`: help, not an error
            click.echo(e.ctx.get_help())
            sys.exit(0)
        click.echo(f"ccsim: error: {suggest(e.format_message())}", err=True)
        sys.exit(2)
    except click.ClickException as e:
        click.echo(f"ccsim: error: {suggest(e.format_message())}", err=True)
        sys.exit(e.exit_code if e.exit_code else 1)
    except click.Abort:
        click.echo("ccsim: interrupted", err=True)
        sys.exit(130)
    sys.exit(rv or 0)


def _first_ctrl_c(signum, frame):
    """Ctrl-C in the ``ccsim`` process: the first raises KeyboardInterrupt, as Python's own
    handler does (the command then prints what it finished and exits 130); every later one
    is ignored, so a second Ctrl-C cannot cut the partial summary short, nor interrupt the
    interpreter's shutdown while it joins the worker threads ("Exception ignored in
    <module 'threading'>")."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    raise KeyboardInterrupt


def entry():
    """The ``ccsim`` console command: ``main`` with Ctrl-C handled as a terminal user expects
    (``main`` itself leaves the signal handlers alone: notebooks and tests call it)."""
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:  # not where SIGINT was ignored
        signal.signal(signal.SIGINT, _first_ctrl_c)
    main()


"""Click options shared by every command that plays games.

``backend_options`` adds ``--backend``, ``--scheduler``, ``--workers`` and
``--connect-timeout``; the command receives them as keyword arguments
``backend, scheduler, workers, connect_timeout`` (``None`` when not given) and
hands them, in that order, to ``ccsim.runner.backends.make_backend``::

    @cli.command("study")
    @backend_options
    def study_cmd(..., backend, scheduler, workers, connect_timeout):
        try:
            with make_backend(backend, scheduler, workers, connect_timeout) as be:
                tasks = plan(chunk_size or be.chunk_size(games))
                be.warm(fn, small_task)
                for task, result in be.map(fn, tasks):
                    ...
        except ConfigError as e:          # BackendError is one: exit 2, one line
            raise click.UsageError(str(e)) from None
"""
from __future__ import annotations

import re
from pathlib import Path

import click

from ccsim.runner.config import DEFAULT_CONNECT_TIMEOUT

BACKEND_OPTIONS = (
    click.option("--backend", type=click.Choice(["local", "dask"]), default=None,
                 help="Where chunks of games run [local]."),
    click.option("--scheduler", default=None, metavar="ADDRESS",
                 help="Dask scheduler to join, tcp://host:8786 (default: start a local cluster)."),
    click.option("--workers", type=int, default=None, help="Workers of a local Dask cluster [2]."),
    click.option("--connect-timeout", type=float, default=None, metavar="SECONDS",
                 help=f"Wait this long for the Dask scheduler and for a worker [{DEFAULT_CONNECT_TIMEOUT:g}]."),
)


class _Count(click.ParamType):
    """A count of games or deals as people write it: 100000, 100,000 or 100_000 (outputs print 100,000)."""
    name = "integer"
    _GROUPED = re.compile(r"[+-]?\d{1,3}(,\d{3})+|[+-]?\d+(_\d+)*")

    def convert(self, value, param, ctx):
        if isinstance(value, int):
            return value
        text = str(value).strip()
        if not self._GROUPED.fullmatch(text):
            self.fail(f"{value!r} is not a valid integer (100000, 100,000 and 100_000 are)", param, ctx)
        return int(text.replace(",", "").replace("_", ""))


#: the click type of every count option (--games, --budget, ...)
COUNT = _Count()


def backend_options(fn):
    """Decorate a click command with the backend flags."""
    for opt in reversed(BACKEND_OPTIONS):
        fn = opt(fn)
    return fn


def cli_backend(backend, scheduler, workers, connect_timeout):
    """The backend the flags name (``ccsim.runner.backends.make_backend``), for a ``with`` block;
    bad flags or an unusable cluster raise ``ConfigError`` (one line, exit 2 in the CLI)."""
    from ccsim.runner.backends import make_backend
    return make_backend(backend, scheduler, workers, connect_timeout)


def writable_folder(folder: str | None, flag: str = "--out") -> Path | None:
    """``folder`` made and checked writable before any game is played (one-line usage error)."""
    if folder is None:
        return None
    p = Path(folder)
    try:
        p.mkdir(parents=True, exist_ok=True)
        probe = p / ".ccsim-write-test"
        probe.write_text("")
        probe.unlink()
    except OSError as e:
        raise click.UsageError(f"{flag} {folder}: cannot write there ({e.strerror})") from None
    return p


wide_option = click.option("--wide", is_flag=True,
                           help="Print every column, however wide (the summary fits 100 columns otherwise).")


def width_of(wide: bool) -> int | None:
    """The columns a printed summary may take: the terminal's, at most 100; None with --wide."""
    from ccsim.present.table_width import terminal_width
    return terminal_width(wide)

"""Click options shared by every command that plays games.

``backend_options`` adds ``--backend``, ``--scheduler`` and ``--workers``;
the command receives them as keyword arguments of the same names and hands
them to ``ccsim.backends.make_backend``.
"""
from __future__ import annotations

import click

BACKEND_OPTIONS = (
    click.option("--backend", type=click.Choice(["local", "dask"]), default=None,
                 help="Where chunks of games run [local]."),
    click.option("--scheduler", default=None, metavar="ADDRESS",
                 help="Dask scheduler to join (default: start a local cluster)."),
    click.option("--workers", type=int, default=None, help="Workers of a local Dask cluster [2]."),
)


def backend_options(fn):
    """Decorate a click command with the backend flags."""
    for opt in reversed(BACKEND_OPTIONS):
        fn = opt(fn)
    return fn

"""`ccsim explore`: the designer's page in a browser (docs/designer.md).

Thin: check the flags, then hand over to ``ccsim.explore.serve``.  The page needs the optional
``explore`` extra (Starlette, uvicorn); without it the command says in one line how to install it.
"""
from __future__ import annotations

import click

INSTALL = "ccsim explore needs the explore extra: pip install 'ccsim[explore]' (Starlette and uvicorn)"


@click.command("explore")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; another than loopback only on purpose (the page has no login).")
@click.option("--port", type=int, default=0, show_default=True, help="Port to listen on (0: a free one).")
@click.option("--no-browser", is_flag=True, help="Print the address only; do not open a browser.")
def explore_cmd(host, port, no_browser):
    """A local web page: change a rule or a deck order, see the answer live."""
    try:
        from ccsim.explore.serve import serve
    except ImportError as e:
        if e.name in ("starlette", "uvicorn") or (e.name or "").startswith(("starlette.", "uvicorn.")):
            raise click.UsageError(INSTALL) from None
        raise
    serve(host, port, browser=not no_browser, say=lambda msg: click.echo(msg, err=True))

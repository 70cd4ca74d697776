"""Running the page: a uvicorn server on a socket of our own (a free port unless one is asked for),
the address printed, the browser opened, the kernel warmed, and Ctrl-C stopping it all cleanly."""
from __future__ import annotations

import socket
import threading
import webbrowser

import uvicorn

from ccsim.errors import UsageError
from ccsim.explore.compute import Plan, answer
from ccsim.explore.form import read_question
from ccsim.explore.server import create_app

__all__ = ["listen", "serve", "address_of", "serve_in_thread"]

LOOPBACK = "127.0.0.1"


def listen(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port`` (0: a free port); UsageError (one line) if it cannot be."""
    if not 0 <= port <= 65535:
        raise UsageError(f"--port must be 0 (a free port) .. 65535, got {port}")
    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(64)
    except (OSError, OverflowError) as e:
        raise UsageError(f"--host {host} --port {port}: cannot listen there ({getattr(e, 'strerror', None) or e})"
                         ) from None
    return sock


def address_of(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def _warm() -> None:
    """Load (or compile) the kernel and the default level before the first question: one chunk."""
    answer(read_question({}), lambda snap: None, plan=Plan(chunk=200, cap=200))


class _Server(uvicorn.Server):
    """uvicorn's server that, told to stop (Ctrl-C), first cancels every page's computation: their
    streams then end by themselves, before uvicorn's grace period runs out."""

    def __init__(self, config: uvicorn.Config, pages):
        super().__init__(config)
        self.pages = pages

    def handle_exit(self, sig, frame) -> None:
        self.pages.cancel_all()
        super().handle_exit(sig, frame)


def serve(host: str = LOOPBACK, port: int = 0, browser: bool = True, say=print) -> None:
    """Serve the page until Ctrl-C (uvicorn's own handler: open streams end, then the server); a
    Ctrl-C is how it is meant to stop, so it returns normally (exit status 0)."""
    sock = listen(host, port)
    url = address_of(sock)
    app = create_app()
    config = uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=5, lifespan="off")
    server = _Server(config, app.state.pages)
    threading.Thread(target=_warm, name="ccsim-explore-warm", daemon=True).start()
    say(f"ccsim explore: {url}  (Ctrl-C stops it)")
    if host not in (LOOPBACK, "localhost", "::1"):
        say(f"ccsim explore: listening on {host}, not only this machine: the page has no login")
    if browser:
        threading.Timer(0.5, webbrowser.open, args=(url,)).start()
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass  # uvicorn hands the Ctrl-C it stopped on back to the process's handler: stopping is the point
    finally:
        app.state.pages.cancel_all()
        sock.close()
    say("ccsim explore: stopped")


def serve_in_thread(app=None, host: str = LOOPBACK):
    """The page served from a thread of this process on a free port, for tests and scripts:
    (its address, a function that stops it)."""
    sock = listen(host, 0)
    app = app or create_app()
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off", timeout_graceful_shutdown=1))
    thread = threading.Thread(target=server.run, kwargs=dict(sockets=[sock]), name="ccsim-explore", daemon=True)
    thread.start()

    def stop():
        app.state.pages.cancel_all()
        server.should_exit = True
        thread.join(10)
        sock.close()
    return address_of(sock), stop

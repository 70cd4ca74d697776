"""The web application of ``ccsim explore``: the page, its assets, and a small JSON API (Starlette).

Routes (every ``/api`` route reads the form from its query string, ``ccsim.explore.form``):

* ``GET /`` the page; ``GET /static/<name>`` its assets, by name from a fixed list (no path is
  ever joined from a request, so no other file can be served);
* ``GET /api/form`` what the form offers (with ``judge``: its name or why there is none, and the
  published answer's figures as the judge's store holds them); ``GET /api/check`` a form checked: its plain words, the
  TOML and its query, or HTTP 400 with ``errors`` (field -> the CLI's one-line message);
* ``GET /api/answer?page=ID&…`` the answer as server-sent events, one JSON snapshot a chunk, the
  last with ``state`` ``target``, ``cap`` or ``cancelled``; a new answer for the same page cancels
  the running one (one computation per page) and at most ``MAX_PAGES`` pages compute at once;
* ``GET /api/confirm?page=ID&deals=N&…`` the form's question played by the judge itself on deals
  0 .. N - 1 of the seed (``ccsim.explore.confirm``; N 1,000 unless given, at most 10,000), as server-sent
  events like the answer's, each with ``confirm`` (the judge, the deals asked, the level); the last has
  ``state`` ``confirmed`` (the setting joined the judge's store: its figure is measured now) or
  ``cancelled``; it is the page's one computation too;
* ``GET /api/fair?page=ID&…`` a fair search around the form (``ccsim.explore.fair``) as server-sent
  events: its progress lines, then its recommended settings (each with the page's query); it is the
  page's one computation too;
* ``GET /api/sample?game=K&arm=changed|standard&…`` a sample game narrated turn by turn;
* ``GET /api/change.toml?…`` the change as a ``[[change]]`` file to download;
* ``GET /api/play/new?against=LEVEL&seat=SEAT&deal=N&…`` a game of the form's rules against a level
  (``ccsim.explore.play``): its board as the seat sees it; no ``deal``, a new one;
* ``GET /api/play/move?game=ID&at=K&option=I`` the human's option ``I`` of board ``K`` (none: only the
  opponent's moves), then the opponent's moves as server-sent events (``thinking`` before each decision
  of a search level, ``moved`` after each), the last ``yours`` or ``over`` with the board; a move on a stale
  board is refused (HTTP 409, one line and the board as it is); the game's work is one of the ``MAX_PAGES``
  computing at once, and stops when the page goes away;
* ``GET /api/play/record?game=ID`` the game as a ``ccsim-game/1`` record, to download.
"""
from __future__ import annotations

import asyncio
import json
import re
import threading
from importlib import resources
from typing import Callable

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route

from ccsim.explore.compute import Cancelled, answer, arms_of, plan_for
from ccsim.explore.confirm import DEALS, MAX_DEALS, check_confirm, confirm, read_deals
from ccsim.explore.fair import fair_search
from ccsim.errors import UsageError
from ccsim.explore.form import (FormError, Question, form_spec, gap_words, page_level, published_answer,
                                read_question)
from ccsim.explore.judged import no_judge_note, page_judge, published_figures
from ccsim.explore.keep import TOML_NAME, change_toml, query_of, whatif_line
from ccsim.explore.memory import Memory
from ccsim.explore.play import (PLAY_FIELDS, Stale, Tables, human_move, new_table, opponent_moves, read_play,
                                record_name, view)
from ccsim.explore.sample import MAX_GAME, sample_game
from strategies.registry import search_players

__all__ = ["create_app", "Pages", "ASSETS", "MAX_PAGES"]

#: the only files served: name -> media type (they ship in the package, ``ccsim/explore/static``)
ASSETS = {"index.html": "text/html; charset=utf-8", "explore.css": "text/css; charset=utf-8",
          "explore.js": "text/javascript; charset=utf-8", "play.js": "text/javascript; charset=utf-8"}
MAX_PAGES = 8                       # pages computing at once (their chunks take turns on the cores)
_PAGE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
_OWN_FIELDS = ("page", "game", "arm", "deals")  # a route's own query fields, not the form's
POLL_S = 0.25                       # how soon a cancelled stream ends while its chunk is still playing


class Pages:
    """The running computation of each page: starting one cancels the page's previous one."""

    def __init__(self, limit: int = MAX_PAGES):
        self._lock = threading.Lock()
        self._running: dict[str, threading.Event] = {}
        self.limit = limit

    def start(self, page: str) -> threading.Event | None:
        """The new computation's cancel flag, the page's previous one set; None when ``limit``
        other pages are computing."""
        with self._lock:
            old = self._running.pop(page, None)
            if old is not None:
                old.set()
            if len(self._running) >= self.limit:
                return None
            self._running[page] = flag = threading.Event()
            return flag

    def finish(self, page: str, flag: threading.Event) -> None:
        flag.set()
        with self._lock:
            if self._running.get(page) is flag:
                del self._running[page]

    def cancel_all(self) -> None:
        with self._lock:
            for flag in self._running.values():
                flag.set()
            self._running.clear()


def _asset(name: str) -> bytes:
    return resources.files("ccsim.explore").joinpath("static", name).read_bytes()


def _form_fields(request: Request, own=_OWN_FIELDS) -> dict[str, list[str]]:
    """The query's form fields (each with all its values), without the route's ``own``."""
    q = request.query_params
    return {k: q.getlist(k) for k in q.keys() if k not in own}


def _refused(e: FormError) -> JSONResponse:
    return JSONResponse({"errors": e.errors}, status_code=400)


def _kept(q: Question, deals: int | None = None) -> dict:
    return dict(words=q.words(), query=query_of(q), toml=change_toml(q) if q.changes_rules else None,
                command=whatif_line(q, deals) if deals else None)


async def page(request: Request) -> Response:
    return Response(_asset("index.html"), media_type=ASSETS["index.html"])


async def static(request: Request) -> Response:
    name = request.path_params["name"]
    if name not in ASSETS:
        return PlainTextResponse("not found", status_code=404)
    return Response(_asset(name), media_type=ASSETS[name])


async def form(request: Request) -> Response:
    spec = form_spec()
    judge = page_judge()
    spec["judge"] = dict(name=judge, gap=judge and gap_words(judge), note=None if judge else no_judge_note(),
                         deals=DEALS, max_deals=MAX_DEALS)
    if spec.get("published"):  # its interval and deals as the judge's store holds them
        spec["published"] = dict(spec["published"], figures=published_figures(published_answer()))
    return JSONResponse(spec)


async def check(request: Request) -> Response:
    try:
        q = read_question(_form_fields(request))
    except FormError as e:
        return _refused(e)
    return JSONResponse(_kept(q))


async def change_file(request: Request) -> Response:
    try:
        q = read_question(_form_fields(request))
    except FormError as e:
        return _refused(e)
    if not q.changes_rules:
        return _refused(FormError({"variant": "no rule changes: there is no [[change]] to keep"}))
    return PlainTextResponse(change_toml(q), media_type="application/toml",
                             headers={"Content-Disposition": f'attachment; filename="{TOML_NAME}"'})


def _sample_args(request: Request) -> tuple[int, str]:
    game, arm = request.query_params.get("game", "0"), request.query_params.get("arm", "changed")
    if not re.fullmatch(r"\d{1,3}", game) or int(game) > MAX_GAME:
        raise FormError({"game": f"game must be 0..{MAX_GAME}, got {game!r}"})
    if arm not in ("changed", "standard"):
        raise FormError({"arm": f"arm must be changed or standard, got {arm!r}"})
    return int(game), arm


async def sample(request: Request) -> Response:
    try:
        q = read_question(_form_fields(request))
        game, which = _sample_args(request)
    except FormError as e:
        return _refused(e)
    arms = arms_of(q)
    arm = arms[-1] if which == "changed" else arms[0]
    return JSONResponse(await asyncio.to_thread(sample_game, q, game, arm))


def _event(item: dict) -> str:
    return f"data: {json.dumps(item, separators=(',', ':'))}\n\n"


def _stream(app, page_id: str, flag: threading.Event, work: Callable[[Callable[[dict], None]], None]):
    """Server-sent events of what ``work(put)`` puts, ``work`` running in a thread of its own; its end
    is an event too (``cancelled``, ``refused`` with ``errors``, ``failed`` with a message).  The work
    stops when the page goes away or asks again (``flag``)."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue = asyncio.Queue()

    def put(item) -> None:
        try:
            loop.call_soon_threadsafe(queue.put_nowait, item)
        except RuntimeError:  # the server has stopped (its loop is closed): stop playing too
            flag.set()

    def run() -> None:
        try:
            work(put)
        except Cancelled:
            put({"state": "cancelled"})
        except FormError as e:
            put({"state": "refused", "errors": e.errors})
        except Exception as e:  # a kernel or backend failure: the page says it, the server goes on
            put({"state": "failed", "message": (str(e) or type(e).__name__).splitlines()[0]})
        finally:
            put(None)

    threading.Thread(target=run, name=f"ccsim-explore-{page_id}", daemon=True).start()

    async def events():
        last: dict = {}
        try:
            while True:
                try:
                    item = await asyncio.wait_for(queue.get(), POLL_S)
                except asyncio.TimeoutError:
                    if flag.is_set():  # a new question, or the server stopping: end now, not after the chunk
                        yield _event({**last, "state": "cancelled"})
                        return
                    continue
                if item is None:
                    return
                last = item
                yield _event(item)
        finally:
            app.state.pages.finish(page_id, flag)

    return StreamingResponse(events(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


def _start(request: Request, q: Question, work) -> Response:
    """One computation for the request's page (its previous one cancelled), streamed."""
    page_id = request.query_params.get("page", "")
    if not _PAGE_ID.fullmatch(page_id):
        return _refused(FormError({"page": "page must be 1..64 letters, digits, - or _"}))
    pages = request.app.state.pages
    flag = pages.start(page_id)
    if flag is None:
        return JSONResponse({"errors": {"page": f"{pages.limit} pages are computing: try again soon"}},
                            status_code=429)
    return _stream(request.app, page_id, flag, lambda put: work(put, flag))


async def answer_route(request: Request) -> Response:
    try:
        q = read_question(_form_fields(request))
    except FormError as e:
        return _refused(e)
    # a search level's games are the judge's kind: kept with the confirmations' (the same chunks of 2 deals)
    memory = request.app.state.judged if q.level in search_players() else request.app.state.memory

    def work(put, flag):
        answer(q, lambda snap: put({**snap, **_kept(q, snap["deals"])}), flag, plan_for(q.level), memory)
    return _start(request, q, work)


async def confirm_route(request: Request) -> Response:
    try:
        q = read_question(_form_fields(request))
        deals = read_deals(request.query_params.get("deals"))
        judge = check_confirm(q)
    except FormError as e:
        return _refused(e)
    memory = request.app.state.judged

    def work(put, flag):
        confirm(q, deals, lambda snap: put({**snap, **_kept(q)}), flag, memory, judge)
    return _start(request, q, work)


async def fair_route(request: Request) -> Response:
    try:
        q = read_question(_form_fields(request))
    except FormError as e:
        return _refused(e)

    def work(put, flag):  # (a form the search cannot start from is refused in the stream, at its field)
        found = fair_search(q, lambda line: put({"state": "running", "line": line}), flag)
        put({"state": "done", **found})
    return _start(request, q, work)


# --- play these rules ---------------------------------------------------------------------------

def _number(request: Request, name: str) -> int | None:
    """A whole-number field of a move (None when left out), or FormError (one line)."""
    text = request.query_params.get(name)
    if text is None:
        return None
    if not text.isdigit() or len(text) > 6:
        raise FormError({name: f"{name}: must be a whole number, got {text!r}"})
    return int(text)


async def play_new(request: Request) -> Response:
    errors = {}  # every bad field at once, the form's and the game's
    try:
        q = read_question(_form_fields(request, PLAY_FIELDS))
    except FormError as e:
        errors.update(e.errors)
    try:
        own = {k: request.query_params.getlist(k) for k in PLAY_FIELDS if k in request.query_params}
        against, seat, deal = read_play(own, page_level())
    except FormError as e:
        errors.update(e.errors)
    if errors:
        return _refused(FormError(errors))
    try:
        table = await asyncio.to_thread(new_table, q, query_of(q), against, seat, deal)
    except UsageError as e:  # a level the engine cannot load: one line
        return _refused(FormError({"against": str(e).splitlines()[0]}))
    board = await asyncio.to_thread(view, table)  # (before the game is the server's: no move can come yet)
    request.app.state.tables.add(table)
    return JSONResponse(board)


def _busy() -> JSONResponse:
    return JSONResponse({"errors": {"move": "The opponent is still moving in this game (another tab?): "
                                            "wait for its move there"}}, status_code=409)


async def play_move(request: Request) -> Response:
    try:
        table = request.app.state.tables.get(request.query_params.get("game", ""))
        at, option = _number(request, "at"), _number(request, "option")
        if at is None and option is not None:
            raise FormError({"at": "at: a move names the board it was chosen on"})
    except FormError as e:
        return _refused(e)
    if not table.lock.acquire(blocking=False):
        return _busy()
    pages, key = request.app.state.pages, f"play-{table.id}"
    flag = pages.start(key)
    if flag is None:
        table.lock.release()
        return JSONResponse({"errors": {"move": f"{pages.limit} pages are computing: try again soon"}},
                            status_code=429)
    try:
        if option is not None:
            human_move(table, at, option)
    except BaseException as e:  # refused or failed: the game is free again, and nothing computes for it
        pages.finish(key, flag)
        board = view(table) if isinstance(e, (Stale, FormError)) else None
        table.lock.release()
        if board is None:
            raise
        if isinstance(e, FormError):
            return JSONResponse({"errors": e.errors, "board": board}, status_code=400)
        return JSONResponse({"errors": {"move": str(e)}, "board": board}, status_code=409)

    def work(put):
        try:
            opponent_moves(table, put, flag)
            put({"state": "over" if table.game.over else "yours", **view(table)})
        finally:
            table.lock.release()
    return _stream(request.app, key, flag, work)


async def play_record(request: Request) -> Response:
    try:
        table = request.app.state.tables.get(request.query_params.get("game", ""))
    except FormError as e:
        return _refused(e)
    if not table.lock.acquire(blocking=False):
        return _busy()
    try:
        rec = table.game.record()
    except UsageError as e:  # before both initial placements (R2.5) there is no record
        return _refused(FormError({"game": str(e)}))
    finally:
        table.lock.release()
    return PlainTextResponse(json.dumps(rec, separators=(",", ":")) + "\n", media_type="application/jsonl",
                             headers={"Content-Disposition": f'attachment; filename="{record_name(table)}"'})


def create_app(pages: Pages | None = None) -> Starlette:
    """The application; ``pages`` (for tests) holds the running computations, its ``Memory`` the
    chunks played for any page (``judged``: the confirmations' games)."""
    pages = pages or Pages()
    app = Starlette(routes=[
        Route("/", page), Route("/static/{name}", static), Route("/api/form", form), Route("/api/check", check),
        Route("/api/answer", answer_route), Route("/api/confirm", confirm_route), Route("/api/fair", fair_route), Route("/api/sample", sample),
        Route("/api/change.toml", change_file), Route("/api/play/new", play_new), Route("/api/play/move", play_move),
        Route("/api/play/record", play_record),
    ])
    app.state.pages = pages
    app.state.memory = Memory()
    app.state.judged = Memory()  # the judge's games apart: the fast levels' many chunks must not push them out
    app.state.tables = Tables()  # the games played on the page
    return app

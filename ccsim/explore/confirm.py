"""Confirming a prediction: the form's question played by the judge itself on the same deals of its seed.

The answer's own machinery (``ccsim.explore.compute.answer``) with the level replaced by the judge and a
plan whose cap is the deals asked: chunks of ``CHUNK`` deals in deal order, each tallied whole, so the
figure narrows as the games come in and a cancel (a new question, the Cancel button, the stream closed)
stops it between two chunks.  The chunks played stay in the server's memory of judge games: a second
confirmation of the same setting, or of another setting on the same seed (the standard rules' games),
plays only what it has not played.  A confirmation that reaches its deals joins the judge's store
(``ccsim.analyses.judging.store``) for the life of the process, and the judge's figure becomes measured.
"""
from __future__ import annotations

import threading
from dataclasses import replace
from typing import Callable

from ccsim.analyses.judging.store import judge_store
from ccsim.explore.compute import SEARCH, Plan, answer, arms_of
from ccsim.explore.form import FormError, Question, gap_words
from ccsim.explore.judged import judge_of, no_judge_reason, page_judge, store_row
from ccsim.explore.memory import Memory

__all__ = ["confirm", "confirm_plan", "check_confirm", "DEALS", "MAX_DEALS", "CHUNK"]

DEALS = 1_000       # the deals a confirmation plays unless asked: about ±3 points at the judge
MAX_DEALS = 10_000  # the most one request may ask for (the published measurements rest on 10,000)
#: deals per chunk, the same for every confirmation and for an answer at a search level, so that the chunks of
#: one are the chunks of the next (kept games are found by their deals) and the figure moves every second or so
CHUNK = SEARCH.chunk


def confirm_plan(deals: int) -> Plan:
    """Every deal asked for, in chunks of ``CHUNK``: no early stop (the judge's interval is the point; a
    first chunk of equal outcomes has an interval of width 0, which a target of 0 would take as known)."""
    return Plan(chunk=min(CHUNK, deals), cap=deals, target=-1.0)


def read_deals(text: str | None) -> int:
    """The deals asked for, or FormError at the field (one line, the form's words)."""
    if text is None:
        return DEALS
    t = text.strip()
    if not t.isdigit() or len(t) > 9 or not 1 <= int(t) <= MAX_DEALS:
        said = (f"is empty: type a whole number from 1 to {MAX_DEALS:,}" if not t
                else f"must be a whole number from 1 to {MAX_DEALS:,}; you typed {text!r}")
        raise FormError({"deals": f"Deals to confirm: {said}"})
    return int(t)


def check_confirm(q: Question) -> str:
    """The judge to confirm with, or FormError (one line) when there is none."""
    judge = page_judge()
    if judge is None:
        raise FormError({"level": f"Nothing to confirm with: {no_judge_reason()}"})
    return judge


def confirm(q: Question, deals: int, emit: Callable[[dict], None], cancel: threading.Event | None = None,
            memory: Memory | None = None, judge: str | None = None) -> dict:
    """Play ``q`` at the judge on deals 0 .. ``deals`` - 1 of its seed, each chunk's snapshot to ``emit``
    (its ``judge`` the games' own figure, narrowing; ``confirm`` says how far it is); the last one's
    ``state`` is ``confirmed`` (the store holds it now, and its ``judge`` is the store's figure) or
    ``cancelled`` (nothing stored; the chunks played stay in ``memory``)."""
    judge = judge or check_confirm(q)
    jq = replace(q, level=judge)
    about = dict(judge=judge, gap=gap_words(judge), deals=deals, level=q.level)

    def out(snap: dict) -> dict:
        # the page draws its plots from the level's games, not these: the history would only grow the events
        return {k: v for k, v in snap.items() if k not in ("history", "margins")} | {"confirm": about}

    def running(snap: dict) -> None:
        if snap["state"] == "running":
            emit(out(snap))

    final = answer(jq, running, cancel, confirm_plan(deals), memory, own_first=True)
    if final["state"] != "cancelled" and final["deals"] == deals:
        arms = arms_of(jq)
        judge_store().add(store_row(q, arms, final, judge))
        final = dict(final, state="confirmed",
                     judge=judge_of(jq, arms, [a["figures"] for a in final["arms"]], final["diff"], final["deals"],
                                    judge))
    else:
        final = dict(final, state="cancelled")
    emit(out(final))
    return out(final)

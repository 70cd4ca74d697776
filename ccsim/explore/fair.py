"""A fair search from the page: ``ccsim balance`` on a small space around the form.

The space (docs/balance.md) moves each rule the form changes one step either way (and keeps its
standard value and the form's), adds the two changes that most often take away Cleopatra's edge —
one more veto, one more assassination for Caesar — and the form's variants as switches; at most two
changes at once, at the form's level, with a budget a page can wait for.  Its recommended settings
come back as forms: one click puts one in the page.
"""
from __future__ import annotations

import threading
from typing import Callable

from ccsim.runner.orderings import SHUFFLED
from ccsim.runner.parameters import change_words, parameter
from ccsim.runner.ruleset import flat_items
from ccsim.analyses.balance import answer_balance
from ccsim.present.balance import balance_json
from ccsim.analyses.balance.space import space_from_data
from ccsim.explore.compute import Cancelled, TakingTurns
from ccsim.explore.form import FormError, Question, read_question
from ccsim.explore.keep import query_of
from strategies.registry import search_players

__all__ = ["space_around", "check_fair", "fair_search", "BUDGET"]

BUDGET = 400_000          # games of the search (about half a minute at a fast level on two cores)
REMEASURE = 20_000        # fresh deals re-measuring each recommended setting
TOLERANCE = 0.02          # fair: Cleopatra's score within 50% ± 2 points (the page's budget is small)
#: Caesar's cards that answer Cleopatra's first move most directly (docs/balance.md), always offered
ALWAYS = {"action_count.caesar.veto": (2, 3), "action_count.caesar.assassination": (4, 5)}


def _around(key: str, value: int) -> list[int]:
    """The standard value, the form's, and one step either side of the form's, within the range."""
    p = parameter(key)
    return sorted({p.standard, value} | {v for v in (value - 1, value + 1) if p.lo <= v <= p.hi})


def space_around(q: Question) -> dict:
    """The balance space (TOML data) of the question: see the module's docstring."""
    params = {k: _around(k, v) for k, v in q.block.items()}
    for key, values in ALWAYS.items():
        params.setdefault(key, list(values))
    return dict(description=f"around the page's form: {q.words()}", levels=[q.level], budget=BUDGET,
                seed=q.seed, max_changes=2, recommend=3, remeasure_games=REMEASURE, variants=list(q.variants),
                objectives=dict(tolerance=TOLERANCE),
                param=[dict(name=k, values=v) for k, v in params.items()])


def _form_of(setting: dict, q: Question) -> str:
    """A recommended setting as the page's query: its rules and variants, the form's decks and level."""
    fields = {k: [str(v)] for k, v in flat_items(setting["rules"])}
    fields["variant"] = list(setting["variants"])
    fields.update(level=[q.level], seed=[str(q.seed)])
    fields.update({f: [o] for f, o in zip(("cleopatra_order", "caesar_order"), q.orders)})
    return query_of(read_question(fields))


def check_fair(q: Question) -> None:
    """FormError (one line at the field) for a form the search cannot start from."""
    if q.level in search_players():
        raise FormError({"level": f"the fair search plays {BUDGET:,} games: choose a fast level, not {q.level}"})
    for name, order in zip(("cleopatra_order", "caesar_order"), q.orders):
        if order != SHUFFLED:
            raise FormError({name: "the fair search plays shuffled decks (ccsim balance): set both decks to shuffled"})


def fair_search(q: Question, say: Callable[[str], None], cancel: threading.Event) -> dict:
    """Run the search, each step's line to ``say``; the recommended settings (each in plain words and
    as the page's query) and the search's figures.  ``Cancelled`` when the page asks something else."""
    check_fair(q)

    def log(line: str) -> None:
        if cancel.is_set():
            raise Cancelled
        say(line)

    b = answer_balance(space_from_data(space_around(q), "the page's space"), backend=TakingTurns(cancel), log=log)
    if b.info["interrupted"]:
        raise Cancelled
    out = balance_json(b)
    for r in out["recommended"]:
        r["query"] = _form_of(r, q)
        r["words"] = change_words(r["rules"], r["variants"])
    return dict(recommended=out["recommended"], games=out["games"], seconds=out["seconds"],
                candidates=out["candidates"], tolerance=TOLERANCE)

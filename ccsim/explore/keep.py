"""Keeping what the page found: the change as a ``[[change]]`` TOML file for ``ccsim whatif --rules``,
the command line that reproduces the figures, and the page's own address (the form in its query)."""
from __future__ import annotations

import shlex
from urllib.parse import urlencode

from ccsim.runner.orderings import SHUFFLED
from ccsim.explore.form import Question, nested_block

__all__ = ["change_toml", "whatif_line", "query_of", "TOML_NAME"]

TOML_NAME = "change.toml"


def _value(v) -> str:
    """A TOML value of a rules block: an integer, or an inline table of them (nested)."""
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k} = {_value(x)}" for k, x in v.items()) + "}"
    return str(int(v))


def change_toml(q: Question) -> str:
    """The question's change as a what-if rules file (docs/metrics.md): one ``[[change]]`` table in
    the record's nested form, its variants, and its plain words as a comment."""
    lines = ["# made with ccsim explore: ccsim whatif --no-variants --rules " + TOML_NAME,
             f"description = {_string(q.words())}", "", "[[change]]"]
    lines += [f"{k} = {_value(v)}" for k, v in nested_block(q).items()]
    if q.variants:
        lines.append("variants = [" + ", ".join(_string(v) for v in q.variants) + "]")
    return "\n".join(lines) + "\n"


def _string(text: str) -> str:
    """A TOML basic string (the words hold no control characters)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def whatif_line(q: Question, deals: int) -> str | None:
    """The ``ccsim whatif`` command line that plays the same deals and gives the same figures, with the
    TOML saved as ``change.toml``; None when no rule changes (whatif compares rules, not decks)."""
    if not q.changes_rules:
        return None
    argv = ["ccsim", "whatif", "--no-variants", "--rules", TOML_NAME, "--strategy", q.level,
            "--games", str(int(deals)), "--seed", str(q.seed)]
    for flag, order in zip(("--cleopatra-order", "--caesar-order"), q.orders):
        if order != SHUFFLED:
            argv += [flag, order]
    return shlex.join(argv)


def query_of(q: Question) -> str:
    """The query string of the page showing this question: only what differs from the form's defaults
    (the level always, so that a link keeps its level when the default one changes)."""
    pairs = list(q.block.items()) + [("variant", v) for v in q.variants]
    pairs += [(f, o) for f, o in zip(("cleopatra_order", "caesar_order"), q.orders) if o != SHUFFLED]
    pairs += [("level", q.level)] + ([("seed", q.seed)] if q.seed != 1 else [])
    return urlencode(pairs)

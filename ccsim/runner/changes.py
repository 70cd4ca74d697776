"""A rules-changes file: ``[[change]]`` tables, each a named rules block and its variants.

The one reader for every command that takes such a file — ``ccsim whatif --rules`` (each change
one arm against the standard rules), ``ccsim play --rules [--change NAME]`` (a person plays under
one change), a balance search's ``recommended.toml`` — and for a study's ``[[variants.change]]``::

    description = "three changes a designer asked about"   # optional
    [[change]]
    name = "hand of 4"                 # optional: a name (default: what it changes, dotted)
    hand_size = 4
    [[change]]
    name = "no wrath for caesar"
    action_count = {caesar = {wrath = 0}}
    variants = ["two_orgies"]          # optional: variants switched on with the change

Every other key of a change is a rules parameter exactly as a record's ``rules`` block
(docs/game-record.md) writes it, or its dotted name.
"""
from __future__ import annotations

from dataclasses import dataclass

from ccsim.errors import UsageError
from ccsim.runner.checks import read_toml
from ccsim.runner.parameters import change_words
from ccsim.runner.ruleset import RulesError, describe, rules_vector

__all__ = ["ChangesError", "Change", "load_changes", "load_changes_data", "pick_change", "auto_name", "change_phrase"]

#: the name the standard rules go by in a what-if study (its base arm): no change may take it
RESERVED = "RULES.md"


class ChangesError(UsageError):
    """An unusable rules-changes file (a usage error: exit status 2 in the CLI)."""


@dataclass(frozen=True)
class Change:
    name: str
    block: dict
    variants: tuple = ()


def auto_name(block: dict, variants=()) -> str:
    """The name a change without one goes by: what it changes, dotted (``hand_size 4, two_orgies``)."""
    return describe(rules_vector(block, tuple(variants))) + "".join(f", {v}" for v in variants)


def change_phrase(change: Change) -> str:
    """A change as a sentence names it, what it changes in plain words between dashes: "the change
    “hand of 4” — a hand refills to 4 cards (standard: 5) —" (no name when it has only the dotted one)."""
    words = change_words(change.block, change.variants)
    named = change.name != auto_name(change.block, change.variants)
    return f"the change “{change.name}” — {words} —" if named else f"the change — {words} —"


def load_changes(path, error=ChangesError, flag: str = "--rules") -> tuple[list[Change], str]:
    """The ``[[change]]`` tables of a rules-changes file, validated, and its description."""
    data, _ = read_toml(path, error, f"{flag} {path}")
    return load_changes_data(data, f"{flag} {path}", error)


def load_changes_data(data: dict, where: str, error=ChangesError) -> tuple[list[Change], str]:
    """``load_changes`` of parsed TOML; ``where`` names the source in errors, raised as ``error``."""
    stray = sorted(set(data) - {"description", "change"})
    if stray:
        raise error(f"{where}: unknown top-level key {stray[0]!r} (known: change, description; "
                    f"each change is a [[change]] table)")
    changes = data.get("change", [])
    if not isinstance(changes, list) or not changes or not all(isinstance(c, dict) for c in changes):
        raise error(f"{where}: needs at least one [[change]] table")
    out, names = [], set()
    for k, c in enumerate(changes, 1):
        c = dict(c)
        name = c.pop("name", None)
        variants = c.pop("variants", [])
        if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
            raise error(f"{where}: change {k}: variants must be a list of names")
        try:
            rules_vector(c, tuple(variants))
        except RulesError as e:
            raise error(f"{where}: change {k}: {e}") from None
        if name is None:
            name = auto_name(c, variants)
        if not isinstance(name, str) or not name.strip():
            raise error(f"{where}: change {k}: name must be a non-empty string")
        if name in names or name == RESERVED:
            raise error(f"{where}: change {k}: the name {name!r} is taken")
        if not c and not variants:
            raise error(f"{where}: change {k} ({name}) changes nothing")
        names.add(name)
        out.append(Change(name, c, tuple(variants)))
    desc = data.get("description", "")
    return out, desc if isinstance(desc, str) else ""


def pick_change(changes: list[Change], name: str | None, where: str, error=ChangesError) -> Change:
    """The change called ``name``, or the file's first change when no name is given (a balance search's
    recommended.toml lists the recommended one first); an unknown name is one line."""
    names = ", ".join(repr(c.name) for c in changes)
    if name is None:
        return changes[0]
    found = [c for c in changes if c.name == name]
    if not found:
        raise error(f"--change {name!r}: no such change in {where} (it holds {names})")
    return found[0]

"""One mechanism for every integer layout: a table of slots, and the plain definitions it places.

The state vector (``layout``), the rules vector (``rules``), the result row (``engine.episode``),
the heuristics' parameter vector, group table and memory (``strategies.heuristics.layouts``), the search's
parameters (``strategies.search.expert``) and the learned player's model and feature columns
(``strategies.learned``) are each one table of rows ``(name, shape, meaning)``.  ``place`` lays a table out, row after row; the module then
holds the offsets as plain module-level lines (``PUB_FU = 19``) that grep and editors find and
compiled code reads as constants, between two marker lines::

    # --- slots of pub: generated from its table (ccsim.kernel.slots), held by tests/test_slots.py ---
    PUB_TURN = 0
    ...
    # --- end of the slots of pub ---

An import refuses definitions that differ from their table (``hold``), and
``CCSIM_UPDATE_GOLDEN=1 python -m pytest tests/test_slots.py`` rewrites the blocks after a table
edit (``rewrite``).  No ``globals().update``: the names are written out.
"""
from __future__ import annotations

import math
import re
from pathlib import Path


def size_of(shape) -> int:
    """Entries of a slot of this shape: () is one."""
    return math.prod(shape)


def place(rows, prefix: str, base: int = 0) -> tuple[dict, int]:
    """({prefix + name: offset} in table order, the end offset) of ``rows`` laid out from ``base``."""
    offsets, at = {}, base
    for name, shape, _meaning in rows:
        offsets[f"{prefix}{name}"] = at
        at += size_of(shape)
    return offsets, at


def definitions(offsets: dict) -> str:
    """The block of plain definitions of ``offsets``, one line each."""
    return "\n".join(f"{name} = {at}" for name, at in offsets.items())


def begin_marker(table: str) -> str:
    return f"# --- slots of {table}: generated from its table (ccsim.kernel.slots), held by tests/test_slots.py ---"


def end_marker(table: str) -> str:
    return f"# --- end of the slots of {table} ---"


def hold(namespace: dict, offsets: dict, table: str) -> None:
    """Refuse (AssertionError, at import) definitions in ``namespace`` that differ from the table."""
    stale = sorted(k for k, v in offsets.items() if namespace.get(k) != v)
    assert not stale, (f"the slot definitions of {table} differ from its table at {stale[:3]}: "
                       f"regenerate them (CCSIM_UPDATE_GOLDEN=1 python -m pytest tests/test_slots.py)")


def _block(text: str, table: str):
    pattern = re.escape(begin_marker(table)) + r"\n(.*?)\n?" + re.escape(end_marker(table))
    return re.search(pattern, text, re.S)


def written(path, table: str) -> str | None:
    """The block of definitions of ``table`` as the file ``path`` holds it (None: no markers)."""
    m = _block(Path(path).read_text(encoding="utf-8"), table)
    return None if m is None else m.group(1)


def rewrite(path, table: str, offsets: dict) -> None:
    """Write ``table``'s definitions between its markers in the file ``path``."""
    path = Path(path)
    text = path.read_text(encoding="utf-8")
    m = _block(text, table)
    assert m is not None, f"{path}: no markers for the slots of {table}"
    path.write_text(text[:m.start(1)] + definitions(offsets) + "\n" + text[m.end(0) - len(end_marker(table)):],
                    encoding="utf-8")

"""Rule parameters as people write them: the ``rules`` block of GAME_RECORD.md.

One reader for every place rules are written — a record's ``rules`` object, a
run's ``[rules]`` table, a what-if file's ``[[change]]`` tables, the Python
API's keyword arguments — and one writer, for records.  The kernel's form is
the int64 vector of ``ccsim.kernel.rules`` (``RP_*``); this module turns one into the
other and checks every value against GAME_RECORD.md's ranges.

A block is nested as in a record::

    {"hand_size": 4, "group_size": {"censor": 5}, "deck_count": {"P": 0},
     "action_count": {"caesar": {"wrath": 0}}}

and may also use flat dotted names (``"group_size.censor": 5``,
``"action_count.veto": 0`` for both players, ``"action_count.caesar.wrath": 0``
for one).  Every value is an integer (``True``, ``4.0`` and ``"4"`` are
refused); an unknown key, a wrong type or a value out of range raises
``RulesError`` with one line naming it.
"""
from __future__ import annotations

import numpy as np

from ccsim.kernel import rules as R
from ccsim.errors import InputError

__all__ = ["RulesError", "SCALARS", "rules_vector", "rules_block", "validate", "swap_players", "action_counts",
           "describe", "flat_items", "slots_of"]


class RulesError(InputError):
    """A rules block or vector that GAME_RECORD.md does not allow (one line)."""


#: the scalar keys of a rules block: index in the rules vector, lowest and highest value
SCALARS = {
    "hand_size": (R.RP_HAND_SIZE, 1, 6),
    "side_limit": (R.RP_SIDE_LIMIT, 1, 7),
    "group_limit": (R.RP_GROUP_LIMIT, 2, 14),  # and at most 2 * side_limit
    "orgies": (R.RP_ORGIES, 0, 8),
    "vp_patrician": (R.RP_VP_PATRICIAN, 0, 100),
    "vp_majority": (R.RP_VP_MAJORITY, 0, 100),
    "vp_all": (R.RP_VP_ALL, 0, 100),
    "vp_bonus": (R.RP_VP_BONUS, 0, 100),
    "bonus_threshold": (R.RP_BONUS_THRESHOLD, 0, 100),
    "max_turns": (R.RP_MAX_TURNS, 1, 5000),
}
#: the keyed objects: their keys, first index in the vector, lowest and highest value
OBJECTS = {
    "group_size": (R.GROUPS, R.RP_GROUP_SIZE, 1, 9),
    "deck_count": (R.INFLUENCE_NAMES, R.RP_DECK_COUNT, 0, 9),
}
ACTION_MAX = 9
ACTION_TOTAL = (1, R.MAX_ACTION_DECK)
KEYS = (*SCALARS, *OBJECTS, "action_count")


def _int(value, where: str, lo: int, hi: int) -> int:
    """A JSON integer in [lo, hi]; bools, floats and strings are not integers here."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise RulesError(f"rules.{where}: must be an integer {lo}..{hi}, got {value!r}")
    if not lo <= int(value) <= hi:
        raise RulesError(f"rules.{where}: must be {lo}..{hi}, got {int(value)}")
    return int(value)


def _table(value, where: str) -> dict:
    if not isinstance(value, dict):
        raise RulesError(f"rules.{where}: must be an object, got {value!r}")
    return value


def _nest(block: dict) -> dict:
    """Flat dotted names folded into the nested form (``a.b.c = 1`` -> ``{a: {b: {c: 1}}}``)."""
    out: dict = {}
    for key, value in block.items():
        if not isinstance(key, str):
            raise RulesError(f"rules: key {key!r} is not a name")
        parts = key.split(".")
        at = out
        for p in parts[:-1]:
            at = at.setdefault(p, {})
            if not isinstance(at, dict):
                raise RulesError(f"rules.{key}: {p!r} is given twice")
        if parts[-1] in at and isinstance(at[parts[-1]], dict) and isinstance(value, dict):
            at[parts[-1]].update(value)
        elif parts[-1] in at:
            raise RulesError(f"rules.{key}: given twice")
        else:
            at[parts[-1]] = value
    return out


def _action_counts(value, vec: np.ndarray) -> None:
    """``action_count`` by action card (both players) or by player, never a mix (GAME_RECORD.md)."""
    value = _table(value, "action_count")
    by_player = [k for k in value if k in R.PLAYERS]
    by_card = [k for k in value if k in R.ACTION_NAMES]
    unknown = [k for k in value if k not in R.PLAYERS and k not in R.ACTION_NAMES]
    if unknown:
        raise RulesError(f"rules.action_count: unknown key {unknown[0]!r} "
                         f"(action cards {', '.join(R.ACTION_NAMES)}, or players {', '.join(R.PLAYERS)})")
    if by_player and by_card:
        raise RulesError("rules.action_count: by action card or by player, not both")
    tables = ({p: value for p in R.PLAYERS} if by_card else
              {p: _table(value[p], f"action_count.{p}") for p in by_player})
    for p, counts in tables.items():
        base = R.RP_PLAYER_ACTIONS[R.PLAYERS.index(p)]
        for card, n in counts.items():
            if card not in R.ACTION_NAMES:
                raise RulesError(f"rules.action_count.{p}: unknown action card {card!r} "
                                 f"(known: {', '.join(R.ACTION_NAMES)})")
            where = f"action_count.{card}" if by_card else f"action_count.{p}.{card}"
            vec[base + R.ACTION_NAMES.index(card)] = _int(n, where, 0, ACTION_MAX)


def rules_vector(block: dict | None = None, variants=(), base: np.ndarray | None = None) -> np.ndarray:
    """The kernel's rules vector of a rules block (nested or flat names) and R11 variants,
    starting from ``base`` (the standard rules' numbers by default); validated."""
    vec = (R.DEFAULT_RULES if base is None else base).copy()
    block = _nest(_table(block or {}, "(block)"))
    for key, value in block.items():
        if key in SCALARS:
            idx, lo, hi = SCALARS[key]
            vec[idx] = _int(value, key, lo, hi)
        elif key in OBJECTS:
            names, first, lo, hi = OBJECTS[key]
            for name, n in _table(value, key).items():
                if name not in names:
                    raise RulesError(f"rules.{key}: unknown key {name!r} (known: {', '.join(names)})")
                vec[first + names.index(name)] = _int(n, f"{key}.{name}", lo, hi)
        elif key == "action_count":
            _action_counts(value, vec)
        else:
            raise RulesError(f"rules: unknown rule parameter {key!r} (known: {', '.join(KEYS)})")
    for v in variants:
        if v not in R.VARIANTS:
            raise RulesError(f"unknown variant {v!r} (known: {', '.join(R.VARIANTS)})")
        vec[R.RP_VARIANTS] |= R.VARIANTS[v]
    validate(vec)
    return vec


def slots_of(name: str) -> tuple[int, ...]:
    """The indices of the rules vector that one dotted rules name sets: one, or both players'
    for ``action_count.<card>``; RulesError (one line) for a name a rules block does not have."""
    parts = name.split(".") if isinstance(name, str) else [name]
    head, rest = parts[0], parts[1:]
    if head in SCALARS and not rest:
        return (SCALARS[head][0],)
    if head in OBJECTS and len(rest) == 1 and rest[0] in OBJECTS[head][0]:
        names, first, _, _ = OBJECTS[head]
        return (first + names.index(rest[0]),)
    if head == "action_count" and rest and rest[-1] in R.ACTION_NAMES:
        if len(rest) == 1:
            players = R.PLAYERS  # by action card: both players alike
        elif len(rest) == 2 and rest[0] in R.PLAYERS:
            players = rest[:1]
        else:
            players = ()
        if players:
            return tuple(R.RP_PLAYER_ACTIONS[R.PLAYERS.index(p)] + R.ACTION_NAMES.index(rest[-1]) for p in players)
    raise RulesError(f"rules: unknown rule parameter {name!r} (known: {', '.join(KEYS)}, with "
                     f"group_size.<group>, deck_count.<card>, action_count.<card> or action_count.<player>.<card>)")


def action_counts(vec: np.ndarray, p: int) -> tuple[int, ...]:
    """Player p's six action-card counts (A S C R W V) in a rules vector."""
    b = R.RP_PLAYER_ACTIONS[p]
    return tuple(int(x) for x in vec[b:b + 6])


def validate(vec: np.ndarray) -> None:
    """Refuse a rules vector outside GAME_RECORD.md's ranges (the state's buffers are sized by them)."""
    for key, (idx, lo, hi) in SCALARS.items():
        _int(int(vec[idx]), key, lo, hi)
    if vec[R.RP_GROUP_LIMIT] > 2 * vec[R.RP_SIDE_LIMIT]:
        raise RulesError(f"rules.group_limit: must be 2..2 * side_limit = {2 * int(vec[R.RP_SIDE_LIMIT])}, "
                         f"got {int(vec[R.RP_GROUP_LIMIT])}")
    for key, (names, first, lo, hi) in OBJECTS.items():
        for i, name in enumerate(names):
            _int(int(vec[first + i]), f"{key}.{name}", lo, hi)
    for p, name in enumerate(R.PLAYERS):
        counts = action_counts(vec, p)
        for card, n in zip(R.ACTION_NAMES, counts):
            _int(n, f"action_count.{name}.{card}", 0, ACTION_MAX)
        lo, hi = ACTION_TOTAL
        if not lo <= sum(counts) <= hi:
            raise RulesError(f"rules.action_count.{name}: a player owns {lo}..{hi} action cards, got {sum(counts)}")
    if vec[R.RP_ORGIES] < 1 and vec[R.RP_VARIANTS] & R.V_TWO_ORGIES:
        raise RulesError("rules.orgies: two_orgies boxes a plain orgy, so it needs orgies >= 1")


def rules_block(vec: np.ndarray) -> dict:
    """The record's ``rules`` object of a rules vector: only what differs from the standard rules, action
    counts by action card when both players' changed entries are the same, else by player
    without a player who has R1.4's cards (GAME_RECORD.md); ``{}`` under the standard rules."""
    d = R.DEFAULT_RULES
    out: dict = {}
    for key, (idx, _, _) in SCALARS.items():
        if vec[idx] != d[idx]:
            out[key] = int(vec[idx])
    for key, (names, first, _, _) in OBJECTS.items():
        diff = {n: int(vec[first + i]) for i, n in enumerate(names) if vec[first + i] != d[first + i]}
        if diff:
            out[key] = diff
    per = {}
    for p, name in enumerate(R.PLAYERS):
        diff = {c: n for c, n, n0 in zip(R.ACTION_NAMES, action_counts(vec, p), R.ACTION_COUNTS) if n != n0}
        if diff:
            per[name] = diff
    if per:
        first, *rest = per.values()
        out["action_count"] = first if len(per) == 2 and rest[0] == first else per
    return dict(sorted(out.items(), key=lambda kv: KEYS.index(kv[0])))


def swap_players(vec: np.ndarray) -> np.ndarray:
    """The rules vector with the two players' action counts exchanged (the seats swapped)."""
    out = vec.copy()
    a, b = R.RP_PLAYER_ACTIONS
    out[a:a + 6], out[b:b + 6] = vec[b:b + 6], vec[a:a + 6]
    return out


def flat_items(block: dict) -> list[tuple[str, int]]:
    """A rules block as (dotted name, value) pairs, in the block's order."""
    out = []
    for key, value in block.items():
        if isinstance(value, dict):
            out += [(f"{key}.{k}", v) for k, v in flat_items(value)]
        else:
            out.append((key, value))
    return out


def describe(vec: np.ndarray) -> str:
    """What a rules vector changes, dotted, in one line (``"RULES.md"``, the what-if base arm's name, when
    nothing); people read ``ccsim.runner.parameters.vector_words``."""
    items = flat_items(rules_block(vec))
    return ", ".join(f"{k} {v}" for k, v in items) if items else "RULES.md"

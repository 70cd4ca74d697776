"""Action-deck orderings (rule R2.2).

An ordering is the order of a player's 13 action cards, top first, written as
13 letters from ``ccsim.kernel.rules.ACTION_LETTERS`` ("ASCRWV": assassination, spy,
castling, scout, wrath, veto) with the multiplicities of
``ccsim.kernel.rules.ACTION_COUNTS`` (4, 2, 2, 2, 1, 2).  Inside ccsim an ordering is
a canonical 13-letter uppercase string, or an int8 code row (action index 0..5
in letter order, top first) for the compiled code.  ``"shuffled"`` (a uniformly
random ordering per game) is an input too, but not an ordering.

The space of all orderings (counting, ranking, sampling, neighbours) is the ordering
studies' business: ``ccsim.analyses.orderings.space``.
"""
from __future__ import annotations

import numpy as np

from ccsim.kernel.rules import ACTION_COUNTS, ACTION_LETTERS
from ccsim.errors import UsageError

__all__ = [
    "OrderingError",
    "SHUFFLED",
    "PRESETS",
    "DEFAULT_PRESET",
    "LETTERS",
    "COUNTS",
    "LENGTH",
    "parse_ordering",
    "to_codes",
    "without_card",
    "from_codes",
    "counts_text",
    "describe",
]

LETTERS: str = ACTION_LETTERS
COUNTS: tuple[int, ...] = tuple(int(c) for c in ACTION_COUNTS)
LENGTH: int = sum(COUNTS)
SHUFFLED = "shuffled"

_INDEX = {ch: i for i, ch in enumerate(LETTERS)}
_SEPARATORS = set(" \t\r\n\f\v-_")


class OrderingError(UsageError):
    """An ordering (or ordering code row) that is not a valid action deck."""


# --- presets -------------------------------------------------------------------

PRESETS: dict[str, tuple[str, str]] = {
    "balanced": ("ASCAVRWASCVRA",
                 "each card type spread evenly through the deck"),
    "veto-first": ("VVASCRAWASCRA",
                   "both vetoes on top, the rest spread evenly"),
    "veto-last": ("ASCRAWSCARAVV",
                  "both vetoes at the bottom, the rest spread evenly"),
    "assassins-first": ("AAAASCRVWSCRV",
                        "all four assassinations on top, the rest spread evenly"),
    "spy-first": ("SSAACRVAWACRV",
                  "both spies on top, the rest spread evenly"),
    "wrath-last": ("ASCRVASCRVAAW",
                   "wrath at the bottom, the rest spread evenly"),
    "rules-example": ("VAASRCAWSARCV",
                      "the example ordering written in rule R2.2"),
}
DEFAULT_PRESET = "balanced"
PRESETS["default"] = (PRESETS[DEFAULT_PRESET][0],
                      f"the default ordering (same as '{DEFAULT_PRESET}')")


# --- parsing -------------------------------------------------------------------

def counts_text(counts) -> str:
    return " ".join(f"{ch}={int(c)}" for ch, c in zip(LETTERS, counts))


def _check_letters(letters: str, shown: str, counts=COUNTS) -> str:
    """Validate an uppercase separator-free string against a player's card counts; return it or raise."""
    where = f"ordering {shown!r}"
    bad = []
    for ch in letters:
        if ch not in _INDEX and ch not in bad:
            bad.append(ch)
    if bad:
        use = " ".join(LETTERS)
        if len(bad) == 1:
            raise OrderingError(f"{where}: unknown letter {bad[0]!r} (use {use})")
        names = ", ".join(sorted(PRESETS))
        listed = " ".join(repr(ch) for ch in bad)
        raise OrderingError(
            f"{where}: unknown letters {listed} (use {use}); "
            f"not '{SHUFFLED}' nor a preset ({names})")
    have = [0] * len(LETTERS)
    for ch in letters:
        have[_INDEX[ch]] += 1
    counts = tuple(int(c) for c in counts)
    if len(letters) != sum(counts):
        raise OrderingError(
            f"{where}: has {len(letters)} letters, needs {sum(counts)} "
            f"(has {counts_text(have)}, needs {counts_text(counts)})")
    if tuple(have) != counts:
        raise OrderingError(
            f"{where}: has {counts_text(have)}, needs {counts_text(counts)}")
    return letters


def _preset_key(text: str) -> str:
    return "-".join(text.strip().lower().replace("_", "-").split())


def parse_ordering(text: str, counts=COUNTS) -> str:
    """Canonical form of an ordering, ``"shuffled"`` or a preset name.

    Case is ignored; whitespace, '-' and '_' between letters are dropped.
    ``counts`` are the player's own action cards (A S C R W V; R1.4's by
    default, a rules parameter otherwise): the letters must be exactly those.

    >>> parse_ordering(" vaas-rcaw sarcv ")
    'VAASRCAWSARCV'
    >>> parse_ordering("Shuffled")
    'shuffled'
    >>> parse_ordering("veto_first")
    'VVASCRAWASCRA'
    """
    if not isinstance(text, str):
        raise OrderingError(
            f"ordering must be a string, got {type(text).__name__} {text!r}")
    if text.strip().lower() == SHUFFLED:
        return SHUFFLED
    key = _preset_key(text)
    if key in PRESETS:
        return _check_letters(PRESETS[key][0], text, counts)
    letters = "".join(ch for ch in text if ch not in _SEPARATORS).upper()
    if not letters:
        raise OrderingError(f"ordering {text!r}: is empty, needs {sum(counts)} letters")
    return _check_letters(letters, text, counts)


def _as_ordering(ordering: str, counts=COUNTS) -> str:
    """parse_ordering, refusing 'shuffled' (which is not one ordering)."""
    s = parse_ordering(ordering, counts)
    if s == SHUFFLED:
        raise OrderingError(
            f"ordering {ordering!r}: '{SHUFFLED}' is not one ordering here")
    return s


def to_codes(ordering: str, counts=COUNTS) -> np.ndarray:
    """int8 action indices (0..5 in letter order), top first.

    >>> to_codes("AAAASSCCRRWVV").tolist()
    [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 5, 5]
    """
    s = _as_ordering(ordering, counts)
    return np.array([_INDEX[ch] for ch in s], dtype=np.int8)


def without_card(ordering: str, card: str) -> str:
    """The ordering with one copy of ``card`` (a letter) taken out: the topmost, the one she
    would draw first; the cards below it move up one (docs/metrics.md, card ablation).

    >>> without_card("VAASRCAWSARCV", "V")
    'AASRCAWSARCV'
    >>> without_card("VAASRCAWSARCV", "A")
    'VASRCAWSARCV'
    """
    if ordering == SHUFFLED:
        return SHUFFLED
    i = ordering.find(card)
    if i < 0:
        raise OrderingError(f"ordering {ordering!r}: holds no {card!r} to take out")
    return ordering[:i] + ordering[i + 1:]


def from_codes(codes) -> str:
    """The ordering string of a code row (inverse of ``to_codes``).

    >>> from_codes([5, 5, 4, 3, 3, 2, 2, 1, 1, 0, 0, 0, 0])
    'VVWRRCCSSAAAA'
    """
    arr = np.asarray(codes)
    if arr.ndim != 1:
        raise OrderingError(f"codes: shape {arr.shape}, needs ({LENGTH},)")
    vals = [int(v) for v in arr]
    bad = [v for v in vals if not 0 <= v < len(LETTERS)]
    if bad:
        raise OrderingError(
            f"codes {vals}: unknown action code {bad[0]} (use 0..{len(LETTERS) - 1})")
    s = "".join(LETTERS[v] for v in vals)
    return _check_letters(s, s)


def describe(ordering: str) -> str:
    """Short description: positions (1 = top) of each card type, and the preset name.

    >>> describe("VAASRCAWSARCV")
    'VAASRCAWSARCV: A@2,3,7,10 S@4,9 C@6,12 R@5,11 W@8 V@1,13 (rules-example)'
    >>> describe("shuffled")
    'shuffled: a uniformly random ordering per game'
    """
    s = parse_ordering(ordering)
    if s == SHUFFLED:
        return f"{SHUFFLED}: a uniformly random ordering per game"
    parts = []
    for ch in LETTERS:
        pos = ",".join(str(i + 1) for i, x in enumerate(s) if x == ch)
        parts.append(f"{ch}@{pos}")
    names = [k for k, (v, _) in PRESETS.items() if v == s and k != "default"]
    tail = f" ({', '.join(names)})" if names else ""
    return f"{s}: {' '.join(parts)}{tail}"

"""Action-deck orderings (rule R2.2).

An ordering is the order of a player's 13 action cards, top first, written as
13 letters from ``ccsim.kernel.rules.ACTION_LETTERS`` ("ASCRWV": assassination, spy,
castling, scout, wrath, veto) with the multiplicities of
``ccsim.kernel.rules.ACTION_COUNTS`` (4, 2, 2, 2, 1, 2).  Inside ccsim an ordering is
a canonical 13-letter uppercase string, or an int8 code row (action index 0..5
in letter order, top first) for the compiled code.  ``"shuffled"`` (a uniformly
random ordering per game) is an input too, but not an ordering.

Orderings are numbered 0 .. count_orderings() - 1 in lexicographic order under
the letter order A < S < C < R < W < V:

>>> rank("AAAASSCCRRWVV"), unrank(0)
(0, 'AAAASSCCRRWVV')
>>> unrank(count_orderings() - 1)
'VVWRRCCSSAAAA'
"""
from __future__ import annotations

import math

from ccsim.toolchain.jit import njit
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
    "count_orderings",
    "rank",
    "unrank",
    "rank_many",
    "unrank_many",
    "random_orderings",
    "swap_neighbours",
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

def _counts_text(counts) -> str:
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
            f"(has {_counts_text(have)}, needs {_counts_text(counts)})")
    if tuple(have) != counts:
        raise OrderingError(
            f"{where}: has {_counts_text(have)}, needs {_counts_text(counts)}")
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


# --- counting, ranking ---------------------------------------------------------

def _radix(counts) -> np.ndarray:
    return np.array([int(c) + 1 for c in counts], dtype=np.int64)


def _build_table(counts) -> np.ndarray:
    """Arrangement counts of every sub-multiset of ``counts``.

    A remaining-count vector ``rem`` (0 <= rem[i] <= counts[i]) is stored at the
    mixed-radix index sum(rem[i] * prod(counts[j] + 1 for j < i)); its entry is
    the number of distinct sequences of that multiset, by the recurrence
    M(0) = 1, M(rem) = sum over i with rem[i] > 0 of M(rem - e_i).

    >>> t = _build_table((2, 1)); int(t[-1])   # AAS, ASA, SAA
    3
    """
    radix = [int(c) + 1 for c in counts]
    size = math.prod(radix)
    table = [0] * size
    table[0] = 1
    strides = [math.prod(radix[:i]) for i in range(len(radix))]
    for idx in range(1, size):  # idx - stride < idx: already filled
        total = 0
        for i, st in enumerate(strides):
            if (idx // st) % radix[i] > 0:
                total += table[idx - st]
        table[idx] = total
    if table[-1] >= 2**63:
        raise OverflowError("too many orderings for int64 ranks")
    return np.array(table, dtype=np.int64)


_RADIX = _radix(COUNTS)
_STRIDES = np.array([math.prod(int(r) for r in _RADIX[:i]) for i in range(len(COUNTS))],
                    dtype=np.int64)
_COUNTS_ARR = np.array(COUNTS, dtype=np.int64)
_TABLE = _build_table(COUNTS)
_FULL = int(sum(int(c) * int(s) for c, s in zip(COUNTS, _STRIDES)))


def count_orderings() -> int:
    """Number of distinct orderings: the multinomial 13!/(4!2!2!2!1!2!).

    >>> count_orderings()
    16216200
    """
    n = math.factorial(LENGTH)
    for c in COUNTS:
        n //= math.factorial(c)
    return n


def rank(ordering: str) -> int:
    """Lexicographic index (letter order A<S<C<R<W<V) of an ordering.

    >>> rank("AAAASSCCRRWVV"), rank("AAAASSCCRRVWV")
    (0, 1)
    """
    s = _as_ordering(ordering)
    state = _FULL
    r = 0
    for ch in s:
        k = _INDEX[ch]
        for i in range(k):
            if (state // int(_STRIDES[i])) % int(_RADIX[i]) > 0:
                r += int(_TABLE[state - int(_STRIDES[i])])
        state -= int(_STRIDES[k])
    return r


def unrank(r: int) -> str:
    """The ordering of lexicographic index ``r`` (inverse of ``rank``).

    >>> unrank(1)
    'AAAASSCCRRVWV'
    """
    n = count_orderings()
    if isinstance(r, bool) or not isinstance(r, (int, np.integer)):
        raise OrderingError(f"rank {r!r}: not an integer")
    r = int(r)
    if not 0 <= r < n:
        raise OrderingError(f"rank {r}: out of range 0..{n - 1}")
    state = _FULL
    out = []
    for _ in range(LENGTH):
        for i in range(len(LETTERS)):
            if (state // int(_STRIDES[i])) % int(_RADIX[i]) == 0:
                continue
            sub = int(_TABLE[state - int(_STRIDES[i])])
            if r < sub:
                out.append(LETTERS[i])
                state -= int(_STRIDES[i])
                break
            r -= sub
    return "".join(out)


@njit(cache=True, nrt=True)
def _strides_nb(counts):
    """(each letter's stride in the table's state index, the state of the full deck) of ``counts``:
    the state holds each letter's remaining count, letter i in radix counts[i] + 1."""
    k = counts.shape[0]
    full = 0
    stride = 1
    strides = np.empty(k, dtype=np.int64)
    for i in range(k):
        strides[i] = stride
        full += counts[i] * stride
        stride *= counts[i] + 1
    return strides, full


@njit(cache=True, nrt=True)
def _unrank_many_nb(ranks, counts, table):
    """Code rows (n, sum(counts)) of lexicographic ranks; ranks must be in range."""
    k = counts.shape[0]
    length = 0
    for i in range(k):
        length += counts[i]
    strides, full = _strides_nb(counts)
    n = ranks.shape[0]
    out = np.empty((n, length), dtype=np.int8)
    rem = np.empty(k, dtype=np.int64)
    for row in range(n):
        r = ranks[row]
        state = full
        for i in range(k):
            rem[i] = counts[i]
        for pos in range(length):
            for i in range(k):
                if rem[i] == 0:
                    continue
                sub = table[state - strides[i]]
                if r < sub:
                    out[row, pos] = i
                    rem[i] -= 1
                    state -= strides[i]
                    break
                r -= sub
    return out


@njit(cache=True, nrt=True)
def _rank_many_nb(codes, counts, table):
    """Lexicographic ranks of code rows; -1 for a row that is not a valid ordering."""
    k = counts.shape[0]
    strides, full = _strides_nb(counts)
    n = codes.shape[0]
    length = codes.shape[1]
    out = np.empty(n, dtype=np.int64)
    rem = np.empty(k, dtype=np.int64)
    for row in range(n):
        state = full
        for i in range(k):
            rem[i] = counts[i]
        r = 0
        ok = True
        for pos in range(length):
            c = codes[row, pos]
            if c < 0 or c >= k or rem[c] == 0:
                ok = False
                break
            for i in range(c):
                if rem[i] > 0:
                    r += table[state - strides[i]]
            rem[c] -= 1
            state -= strides[c]
        if ok and state == 0:
            out[row] = r
        else:
            out[row] = -1
    return out


def unrank_many(ranks) -> np.ndarray:
    """Vectorised ``unrank``: int8 code rows of shape (n, 13).

    >>> unrank_many(np.array([0, 1]))[:, -3:].tolist()
    [[4, 5, 5], [5, 4, 5]]
    """
    arr = np.ascontiguousarray(np.asarray(ranks, dtype=np.int64).reshape(-1))
    n = count_orderings()
    if arr.size and (arr.min() < 0 or arr.max() >= n):
        bad = arr[(arr < 0) | (arr >= n)][0]
        raise OrderingError(f"rank {int(bad)}: out of range 0..{n - 1}")
    return _unrank_many_nb(arr, _COUNTS_ARR, _TABLE)


def rank_many(codes) -> np.ndarray:
    """Vectorised ``rank`` of int code rows of shape (n, 13): int64 ranks.

    >>> rank_many(np.array([[0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 5, 4, 5]])).tolist()
    [1]
    """
    arr = np.asarray(codes)
    if arr.ndim != 2 or arr.shape[1] != LENGTH:
        raise OrderingError(f"codes: shape {arr.shape}, needs (n, {LENGTH})")
    if not np.issubdtype(arr.dtype, np.integer):
        raise OrderingError(f"codes: dtype {arr.dtype}, needs integers")
    # int8 rows (what unrank_many/random_orderings give) go in as they are
    arr = np.ascontiguousarray(arr, dtype=np.int8 if arr.dtype == np.int8 else np.int64)
    out = _rank_many_nb(arr, _COUNTS_ARR, _TABLE)
    bad = np.flatnonzero(out < 0)
    if bad.size:
        row = arr[bad[0]].tolist()
        raise OrderingError(
            f"codes row {int(bad[0])} {row}: not an ordering "
            f"(needs {_counts_text(COUNTS)} as codes 0..{len(LETTERS) - 1})")
    return out


# --- sampling, neighbourhoods, display -----------------------------------------

def random_orderings(rng: np.random.Generator, n: int) -> np.ndarray:
    """``n`` orderings uniform over all orderings, as int8 code rows (n, 13).

    A uniform permutation of the 13 cards makes every distinct ordering equally
    likely (each arises from the same number, prod(count!), of permutations).

    >>> random_orderings(np.random.default_rng(0), 2).shape
    (2, 13)
    """
    base = np.repeat(np.arange(len(LETTERS), dtype=np.int8), COUNTS)
    return rng.permuted(np.tile(base, (int(n), 1)), axis=1)


def swap_neighbours(ordering: str) -> list[str]:
    """All distinct orderings one swap of two different letters away, by rank.

    >>> len(swap_neighbours("AAAASSCCRRWVV"))
    68
    >>> swap_neighbours("AAAASSCCRRWVV")[0]
    'AAAASSCCRRVWV'
    """
    s = _as_ordering(ordering)
    out = set()
    for i in range(LENGTH):
        for j in range(i + 1, LENGTH):
            if s[i] != s[j]:
                t = list(s)
                t[i], t[j] = t[j], t[i]
                out.add("".join(t))
    return sorted(out, key=lambda x: [_INDEX[ch] for ch in x])


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

"""The space of all action-deck orderings (RULES.md R2.2) the ordering studies search:
counting, ranking and unranking (one at a time and vectorised), uniform sampling, swap
neighbours.  An ordering and its code row are ``ccsim.runner.orderings``'.

Orderings are numbered 0 .. count_orderings() - 1 in lexicographic order under
the letter order A < S < C < R < W < V:

>>> rank("AAAASSCCRRWVV"), unrank(0)
(0, 'AAAASSCCRRWVV')
>>> unrank(count_orderings() - 1)
'VVWRRCCSSAAAA'
"""
from __future__ import annotations

import math

import numpy as np

from ccsim.toolchain.jit import njit
from ccsim.runner.orderings import COUNTS, LENGTH, LETTERS, OrderingError, counts_text, from_codes, to_codes

__all__ = ["count_orderings", "rank", "unrank", "rank_many", "unrank_many", "random_orderings", "swap_neighbours"]

_INDEX = {ch: i for i, ch in enumerate(LETTERS)}


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
    state = _FULL
    r = 0
    for k in to_codes(ordering).tolist():  # refuses 'shuffled', which is not one ordering
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
            f"(needs {counts_text(COUNTS)} as codes 0..{len(LETTERS) - 1})")
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
    s = from_codes(to_codes(ordering))  # the canonical letters; 'shuffled' refused
    out = set()
    for i in range(LENGTH):
        for j in range(i + 1, LENGTH):
            if s[i] != s[j]:
                t = list(s)
                t[i], t[j] = t[j], t[i]
                out.add("".join(t))
    return sorted(out, key=lambda x: [_INDEX[ch] for ch in x])

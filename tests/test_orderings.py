"""Tests of ccsim.runner.orderings (action-deck orderings, RULES.md R2.2) and of the space of all
orderings the studies search (ccsim.analyses.orderings.space)."""
import itertools
import math
import time
from collections import Counter

import numpy as np
import pytest

from ccsim.analyses.orderings import space as sp
from ccsim.runner import orderings as o
from ccsim.kernel.rules import ACTION_COUNTS, ACTION_LETTERS

KEY = {ch: i for i, ch in enumerate(ACTION_LETTERS)}
SORTED = "".join(ch * c for ch, c in zip(ACTION_LETTERS, ACTION_COUNTS))
NEEDED = Counter(dict(zip(ACTION_LETTERS, ACTION_COUNTS)))


def lexkey(s):
    """Sort key of a string under the letter order A<S<C<R<W<V."""
    return [KEY[ch] for ch in s]


def is_valid(s):
    return isinstance(s, str) and Counter(s) == NEEDED


def independent_count():
    """13!/(4!2!2!2!1!2!) from math.factorial and the rules' counts."""
    n = math.factorial(sum(ACTION_COUNTS))
    for c in ACTION_COUNTS:
        n //= math.factorial(c)
    return n


# --- parsing -----------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "VAASRCAWSARCV",
    "vaasrcawsarcv",
    "  VaAs RcAw SaRcV \n",
    "V-A-A-S-R-C-A-W-S-A-R-C-V",
    "vaas_rcaw_sarcv",
    "VAAS\tRCAW - SARCV",
])
def test_parse_forgives_case_and_separators(text):
    assert o.parse_ordering(text) == "VAASRCAWSARCV"


@pytest.mark.parametrize("text", ["shuffled", "SHUFFLED", " Shuffled "])
def test_parse_shuffled(text):
    assert o.parse_ordering(text) == o.SHUFFLED == "shuffled"


def test_parse_preset_names():
    for name, (s, _) in o.PRESETS.items():
        assert o.parse_ordering(name) == s
        assert o.parse_ordering(name.upper().replace("-", "_")) == s


def one_line_error(text):
    with pytest.raises(o.OrderingError) as ei:
        o.parse_ordering(text)
    msg = str(ei.value)
    assert "\n" not in msg and msg.strip() == msg and msg
    assert isinstance(ei.value, ValueError)
    return msg


def test_error_unknown_letter():
    msg = one_line_error("AAXASSCCRRWVV")
    assert msg == "ordering 'AAXASSCCRRWVV': unknown letter 'X' (use A S C R W V)"


def test_error_unknown_letters_mentions_presets():
    msg = one_line_error("veto-frist")
    assert "unknown letters" in msg and "'E'" in msg and "veto-first" in msg


def test_error_wrong_counts():
    msg = one_line_error("AAAAASCCRRWVV")
    assert msg == ("ordering 'AAAAASCCRRWVV': has A=5 S=1 C=2 R=2 W=1 V=2, "
                   "needs A=4 S=2 C=2 R=2 W=1 V=2")


@pytest.mark.parametrize("text,n", [("AAAASSCCRRWV", 12), ("AAAASSCCRRWVVV", 14), ("A", 1)])
def test_error_wrong_length(text, n):
    msg = one_line_error(text)
    assert f"has {n} letters, needs 13" in msg
    assert "needs A=4 S=2 C=2 R=2 W=1 V=2" in msg


def test_error_empty_and_newline_input():
    assert "empty" in one_line_error("  - _ ")
    one_line_error("AAAA\nSSCC")  # the input is quoted with repr: still one line


def test_error_not_a_string():
    with pytest.raises(o.OrderingError, match="must be a string"):
        o.parse_ordering(12)


def test_shuffled_is_not_one_ordering():
    for f in (o.to_codes, sp.rank, sp.swap_neighbours):
        with pytest.raises(o.OrderingError, match="shuffled"):
            f("shuffled")


def test_codes_errors_one_line():
    bad = [
        lambda: o.from_codes([0] * 13),
        lambda: o.from_codes([0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 5, 9]),
        lambda: o.from_codes(np.zeros((2, 13), dtype=np.int8)),
        lambda: sp.unrank(sp.count_orderings()),
        lambda: sp.unrank(-1),
        lambda: sp.unrank_many(np.array([0, sp.count_orderings()])),
        lambda: sp.rank_many(np.zeros((3, 12), dtype=np.int8)),
        lambda: sp.rank_many(np.vstack([o.to_codes(SORTED), np.zeros(13, dtype=np.int8)])),
    ]
    for f in bad:
        with pytest.raises(o.OrderingError) as ei:
            f()
        assert "\n" not in str(ei.value)
    with pytest.raises(o.OrderingError, match="row 1"):
        bad[-1]()


# --- presets ------------------------------------------------------------------

def test_presets_valid():
    for name in ("veto-first", "assassins-first", "spy-first", "wrath-last",
                 "balanced", "default"):
        assert name in o.PRESETS
    for name, (s, desc) in o.PRESETS.items():
        assert is_valid(s), name
        assert o.parse_ordering(s) == s
        assert isinstance(desc, str) and desc and "\n" not in desc
    assert o.PRESETS["veto-first"][0].startswith("VV")
    assert o.PRESETS["assassins-first"][0].startswith("AAAA")
    assert o.PRESETS["spy-first"][0].startswith("SS")
    assert o.PRESETS["wrath-last"][0].endswith("W")
    assert o.PRESETS["default"][0] == o.PRESETS[o.DEFAULT_PRESET][0]


def test_constants_come_from_rules():
    assert o.LETTERS == ACTION_LETTERS
    assert o.COUNTS == tuple(ACTION_COUNTS)
    assert o.LENGTH == 13


# --- counting -----------------------------------------------------------------

@pytest.mark.parametrize("counts", [(2, 1, 2), (3, 1, 1, 2), (2, 2, 2, 1), (1, 1, 1, 1, 1)])
def test_multinomial_formula_brute_force(counts):
    """The multinomial formula equals the number of distinct permutations."""
    items = [i for i, c in enumerate(counts) for _ in range(c)]
    distinct = len(set(itertools.permutations(items)))
    formula = math.factorial(len(items))
    for c in counts:
        formula //= math.factorial(c)
    assert distinct == formula
    # and the recurrence table used by the ranker agrees too
    assert int(sp._build_table(counts)[-1]) == distinct


def test_count_orderings():
    n = independent_count()
    assert sp.count_orderings() == n
    assert int(sp._TABLE[-1]) == n  # the rank table, built by a recurrence
    # RULES.md R2.2 states this number; check the arithmetic once by hand
    assert n == math.factorial(13) // (24 * 2 * 2 * 2 * 1 * 2)


# --- ranking ------------------------------------------------------------------

def test_rank_ends():
    n = independent_count()
    assert sp.rank(SORTED) == 0 and sp.unrank(0) == SORTED
    assert sp.unrank(n - 1) == SORTED[::-1] == "VVWRRCCSSAAAA"
    assert sp.rank("VVWRRCCSSAAAA") == n - 1
    assert sp.unrank(1) == "AAAASSCCRRVWV"
    assert sp.unrank(n - 2) == "VVWRRCCSASAAA"
    for r in (0, 1, 2, n // 2, n - 2, n - 1):
        s = sp.unrank(r)
        assert is_valid(s) and sp.rank(s) == r
        assert sp.rank_many(sp.unrank_many([r]))[0] == r
        assert o.from_codes(sp.unrank_many([r])[0]) == s


@pytest.mark.parametrize("counts", [(2, 1, 2), (3, 1, 1, 2), (2, 2, 2, 1)])
def test_compiled_rank_is_lexicographic_bijection_small(counts):
    """Exhaustively, on small multisets: rank order = sorted distinct perms."""
    items = [i for i, c in enumerate(counts) for _ in range(c)]
    perms = sorted(set(itertools.permutations(items)))
    table = sp._build_table(counts)
    carr = np.array(counts, dtype=np.int64)
    rows = sp._unrank_many_nb(np.arange(len(perms), dtype=np.int64), carr, table)
    assert [tuple(r) for r in rows.tolist()] == perms
    back = sp._rank_many_nb(np.array(perms, dtype=np.int64), carr, table)
    assert back.tolist() == list(range(len(perms)))


def test_round_trip_large_sample():
    n = independent_count()
    rng = np.random.default_rng(12345)
    ranks = rng.integers(0, n, size=200_000, dtype=np.int64)
    codes = sp.unrank_many(ranks)
    assert codes.shape == (200_000, 13) and codes.dtype == np.int8
    assert np.array_equal(np.sort(codes, axis=1)[0], o.to_codes(SORTED))
    assert (np.sort(codes, axis=1) == o.to_codes(SORTED)).all()
    back = sp.rank_many(codes)
    assert back.dtype == np.int64
    assert np.array_equal(back, ranks)


def test_scalar_and_vectorised_agree():
    n = independent_count()
    rng = np.random.default_rng(7)
    ranks = np.concatenate([[0, 1, n - 2, n - 1], rng.integers(0, n, size=2_000)])
    codes = sp.unrank_many(ranks)
    for r, row in zip(ranks.tolist(), codes):
        s = sp.unrank(r)
        assert s == o.from_codes(row)
        assert np.array_equal(o.to_codes(s), row)
        assert sp.rank(s) == r
    assert sp.rank_many(codes).tolist() == [sp.rank(o.from_codes(c)) for c in codes]


def test_unrank_monotone_on_sample():
    n = independent_count()
    rng = np.random.default_rng(99)
    ranks = np.unique(rng.integers(0, n, size=20_000))
    strings = [sp.unrank(int(r)) for r in ranks]
    assert strings == sorted(strings, key=lexkey)
    assert len(set(strings)) == len(strings)
    # the vectorised version too, on runs of consecutive ranks
    for start in (0, n // 3, n - 5_000):
        rows = sp.unrank_many(np.arange(start, start + 5_000))
        assert [o.from_codes(r) for r in rows] == sorted(
            (o.from_codes(r) for r in rows), key=lexkey)


@pytest.mark.slow
def test_full_bijection():
    """All ranks: rows valid, strictly increasing lexicographically, rank back."""
    n = independent_count()
    target = o.to_codes(SORTED)
    prev = None
    chunk = 2_000_000
    for start in range(0, n, chunk):
        ranks = np.arange(start, min(n, start + chunk), dtype=np.int64)
        rows = sp.unrank_many(ranks)
        assert (np.sort(rows, axis=1) == target).all()
        if prev is not None:
            rows_c = np.vstack([prev[None, :], rows])
        else:
            rows_c = rows
        d = rows_c[1:].astype(np.int16) - rows_c[:-1].astype(np.int16)
        nz = d != 0
        assert nz.any(axis=1).all()
        first = d[np.arange(len(d)), nz.argmax(axis=1)]
        assert (first > 0).all()
        assert np.array_equal(sp.rank_many(rows), ranks)
        prev = rows[-1]


def test_vectorised_million():
    """A million ranks through unrank_many and back (timings are shown, never asserted)."""
    n = independent_count()
    sp.rank_many(sp.unrank_many(np.arange(10)))  # compile / load cache
    ranks = np.random.default_rng(1).integers(0, n, size=1_000_000, dtype=np.int64)
    t0 = time.perf_counter()
    codes = sp.unrank_many(ranks)
    t1 = time.perf_counter()
    back = sp.rank_many(codes)
    t2 = time.perf_counter()
    assert codes.shape == (1_000_000, o.LENGTH) and codes.dtype == np.int8
    assert np.array_equal(back, ranks)
    print(f"\nunrank_many {t1 - t0:.3f} s, rank_many {t2 - t1:.3f} s for 1,000,000 orderings")


def test_codes_round_trip():
    for name, (s, _) in o.PRESETS.items():
        c = o.to_codes(s)
        assert c.dtype == np.int8 and c.shape == (13,)
        assert o.from_codes(c) == s
        assert o.from_codes(c.tolist()) == s


# --- sampling -------------------------------------------------------------------

def test_random_orderings_multiset_and_spread():
    rng = np.random.default_rng(2024)
    codes = sp.random_orderings(rng, 50_000)
    assert codes.shape == (50_000, 13) and codes.dtype == np.int8
    assert (np.sort(codes, axis=1) == o.to_codes(SORTED)).all()
    # uniform over orderings: the top card is letter i with probability count_i / 13
    freq = np.bincount(codes[:, 0], minlength=6) / len(codes)
    expect = np.array(ACTION_COUNTS) / 13
    assert np.abs(freq - expect).max() < 0.01
    # ranks spread evenly over 0..count-1 (decile counts)
    r = sp.rank_many(codes)
    dec = np.bincount(r * 10 // independent_count(), minlength=10)
    assert dec.min() > 4_500 and dec.max() < 5_500
    assert len(sp.random_orderings(rng, 0)) == 0


def test_random_orderings_uniform_small_multiset_property():
    """Distinct orderings are equally likely: each appears with prob 1/count.

    With 13 cards this is checked through a pair statistic: P(top two are V V)
    = (2/13)*(1/12).
    """
    codes = sp.random_orderings(np.random.default_rng(5), 200_000)
    p = np.mean((codes[:, 0] == 5) & (codes[:, 1] == 5))
    assert abs(p - 2 / 13 / 12) < 0.002


# --- neighbourhoods, describe -----------------------------------------------------

@pytest.mark.parametrize("s", [SORTED, "VAASRCAWSARCV", "VVWRRCCSSAAAA"])
def test_swap_neighbours(s):
    nb = sp.swap_neighbours(s)
    assert len(nb) == len(set(nb))
    assert s not in nb
    for t in nb:
        assert is_valid(t)
        diff = [i for i in range(13) if s[i] != t[i]]
        assert len(diff) == 2
        i, j = diff
        assert s[i] == t[j] and s[j] == t[i]
    # every transposition of two different letters is there
    pairs = sum(1 for i in range(13) for j in range(i + 1, 13) if s[i] != s[j])
    assert len(nb) == pairs
    same = sum(math.comb(c, 2) for c in ACTION_COUNTS)
    assert len(nb) == math.comb(13, 2) - same
    assert nb == sorted(nb, key=lexkey)


def test_swap_neighbours_accepts_presets_and_loose_text():
    assert sp.swap_neighbours("veto-first") == sp.swap_neighbours(o.PRESETS["veto-first"][0])
    assert sp.swap_neighbours("vaas rcaw sarcv") == sp.swap_neighbours("VAASRCAWSARCV")


def test_describe():
    d = o.describe("vaasrcawsarcv")
    assert "\n" not in d
    assert d.startswith("VAASRCAWSARCV")
    assert "V@1,13" in d and "A@2,3,7,10" in d and "W@8" in d
    assert "balanced" in o.describe("balanced")
    assert "random" in o.describe("shuffled")
    with pytest.raises(o.OrderingError):
        o.describe("AAAA")


@pytest.mark.parametrize("module", [o, sp], ids=["runner", "space"])
def test_doctests(module):
    import doctest
    res = doctest.testmod(module)
    assert res.attempted > 5 and res.failed == 0

"""Known-answer tests for ccsim.analyses.stats."""

import doctest
import math

import numpy as np
import pytest
from scipy import stats as sps

import ccsim.analyses.stats as st
from ccsim.analyses.stats import (
    SPRT,
    PairedStats,
    bradley_terry,
    bradley_terry_se,
    elo_from_score,
    format_percent,
    format_percent_ci,
    mean_ci,
    paired_difference,
    rating_intervals,
    score_from_elo,
    score_rate,
    sprt_decide_difference,
    wilson_interval,
)


def test_doctests():
    res = doctest.testmod(st, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert res.attempted > 10
    assert res.failed == 0


# ---------------------------------------------------------------- Wilson


def test_wilson_published_value_and_scipy():
    lo, hi = wilson_interval(81, 263)
    assert (round(lo, 4), round(hi, 4)) == (0.2553, 0.3662)
    ci = sps.binomtest(81, 263).proportion_ci(confidence_level=0.95, method="wilson")
    assert lo == pytest.approx(ci.low, abs=1e-12)
    assert hi == pytest.approx(ci.high, abs=1e-12)


@pytest.mark.parametrize("k,n,conf", [(0, 10, 0.95), (10, 10, 0.95), (3, 7, 0.9), (500, 1000, 0.99), (1, 1, 0.5)])
def test_wilson_matches_scipy(k, n, conf):
    lo, hi = wilson_interval(k, n, conf)
    ci = sps.binomtest(k, n).proportion_ci(confidence_level=conf, method="wilson")
    assert lo == pytest.approx(ci.low, abs=1e-12)
    assert hi == pytest.approx(ci.high, abs=1e-12)
    assert 0.0 <= lo <= k / n <= hi <= 1.0


def test_wilson_vectorised_equals_scalar():
    rng = np.random.default_rng(0)
    n = rng.integers(0, 500, size=50)
    k = rng.binomial(n, 0.3)
    lo, hi = wilson_interval(k, n)
    assert lo.shape == hi.shape == (50,)
    for i in range(50):
        slo, shi = wilson_interval(int(k[i]), int(n[i]))
        assert isinstance(slo, float)
        assert lo[i] == slo and hi[i] == shi
    assert np.all(lo[n == 0] == 0.0) and np.all(hi[n == 0] == 1.0)


def test_wilson_empty_and_invalid():
    assert wilson_interval(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson_interval(5, 3)
    with pytest.raises(ValueError):
        wilson_interval(1, 3, confidence=1.0)


def test_score_rate():
    assert score_rate(6, 2, 10) == pytest.approx(0.7)
    r = score_rate(np.array([3, 0, 0]), np.array([2, 4, 0]), np.array([5, 4, 0]))
    assert r[0] == pytest.approx(0.8) and r[1] == 0.5 and math.isnan(r[2])


# ---------------------------------------------------------------- means


def test_mean_ci_matches_direct():
    rng = np.random.default_rng(1)
    x = rng.normal(10, 3, size=1000)
    m, lo, hi = mean_ci(x.sum(), (x**2).sum(), x.size, 0.95)
    se = x.std(ddof=1) / math.sqrt(x.size)
    z = sps.norm.ppf(0.975)
    assert m == pytest.approx(x.mean())
    assert lo == pytest.approx(x.mean() - z * se)
    assert hi == pytest.approx(x.mean() + z * se)


def test_mean_ci_chunked_and_edge_cases():
    rng = np.random.default_rng(2)
    x = rng.integers(0, 30, size=10_000).astype(float)  # e.g. victory points
    s = ss = 0.0
    for chunk in np.array_split(x, 7):
        s += chunk.sum()
        ss += (chunk**2).sum()
    assert mean_ci(s, ss, x.size) == mean_ci(x.sum(), (x**2).sum(), x.size)
    m, lo, hi = mean_ci(5.0, 25.0, 1)
    assert m == 5.0 and lo == -math.inf and hi == math.inf
    m, lo, hi = mean_ci(0.0, 0.0, 0)
    assert math.isnan(m)
    m, lo, hi = mean_ci(np.array([6.0, 4.0]), np.array([20.0, 8.0]), np.array([2, 2]))
    assert m.shape == (2,) and np.all(lo <= m) and np.all(m <= hi)


# ---------------------------------------------------------------- paired


def _scores(rng, p_win, p_draw, n):
    u = rng.random(n)
    return np.where(u < p_win, 1.0, np.where(u < p_win + p_draw, 0.5, 0.0))


def test_paired_identical_is_exactly_zero():
    rng = np.random.default_rng(3)
    a = _scores(rng, 0.45, 0.1, 10_001)
    r = paired_difference(a, a.copy())
    assert r == {"diff": 0.0, "lo": 0.0, "hi": 0.0, "se": 0.0, "n": 10_001}
    # constant non-zero difference: zero-width too
    r = paired_difference(np.ones(5), np.zeros(5))
    assert r["diff"] == r["lo"] == r["hi"] == 1.0 and r["se"] == 0.0


def test_paired_difference_matches_scipy_ttest():
    rng = np.random.default_rng(4)
    a = _scores(rng, 0.5, 0.1, 3000)
    b = _scores(rng, 0.45, 0.1, 3000)
    r = paired_difference(a, b, confidence=0.9)
    d = a - b
    assert r["n"] == 3000
    assert r["diff"] == pytest.approx(d.mean(), abs=1e-15)
    assert r["se"] == pytest.approx(sps.sem(d), rel=1e-12)
    ci = sps.ttest_rel(a, b).confidence_interval(confidence_level=0.9)
    assert r["lo"] == pytest.approx(ci.low, rel=1e-10)
    assert r["hi"] == pytest.approx(ci.high, rel=1e-10)


def test_paired_small_n():
    r = paired_difference([1.0], [0.0])
    assert r["n"] == 1 and r["diff"] == 1.0 and math.isnan(r["se"])
    assert r["lo"] == -math.inf and r["hi"] == math.inf
    with pytest.raises(ValueError):
        paired_difference([1.0, 0.0], [1.0])


def test_pairedstats_chunked_equals_one_shot():
    rng = np.random.default_rng(5)
    a = _scores(rng, 0.5, 0.2, 100_000)
    b = _scores(rng, 0.4, 0.2, 100_000)
    one = paired_difference(a, b)
    acc = PairedStats()
    for ca, cb in zip(np.array_split(a, 13), np.array_split(b, 13)):
        acc.update(ca, cb)
    assert acc.summary() == one  # half-integer scores: exact
    assert acc.interval() == (one["lo"], one["hi"])
    assert acc.se == one["se"] and acc.mean == one["diff"]
    # merge of independently built halves (as from two workers)
    left = PairedStats.from_arrays(a[:40_000], b[:40_000])
    right = PairedStats.from_arrays(a[40_000:] - b[40_000:])
    merged = left.merge(right)
    assert merged == acc and (left + right) == acc
    assert merged.summary() == one


# ---------------------------------------------------------------- SPRT


def _first_decision(d, sprt_kwargs, chunk=50):
    t = SPRT(**sprt_kwargs)
    for c in np.array_split(d, max(1, d.size // chunk)):
        if t.update_from(PairedStats.from_arrays(c)) != "continue":
            break
    return t


def test_sprt_bounds_and_formula():
    t = SPRT()
    assert (t.d0, t.d1, t.alpha, t.beta) == (0.0, 0.05, 0.05, 0.05)
    assert t.lower == pytest.approx(math.log(0.05 / 0.95))
    assert t.upper == pytest.approx(math.log(0.95 / 0.05))
    assert t.state == "continue" and t.llr == 0.0
    t.update(200, 20.0, 60.0)
    mean, var = 0.1, 60.0 / 200 - 0.01
    assert t.llr == pytest.approx(200 * 0.05 * (2 * mean - 0.05) / (2 * var))
    with pytest.raises(ValueError):
        SPRT(d0=0.1, d1=0.1)


def test_sprt_accepts_h1_with_large_difference():
    rng = np.random.default_rng(6)
    a = _scores(rng, 0.55, 0.1, 20_000)
    b = _scores(rng, 0.35, 0.1, 20_000)  # true mean diff 0.2
    t = _first_decision(a - b, dict(d0=0.0, d1=0.05))
    assert t.state == "H1" and t.llr >= t.upper and t.decided_n < 20_000


def test_sprt_accepts_h0_with_no_difference():
    rng = np.random.default_rng(7)
    a = _scores(rng, 0.45, 0.1, 50_000)
    b = _scores(rng, 0.45, 0.1, 50_000)  # true mean diff 0
    t = _first_decision(a - b, dict(d0=0.0, d1=0.05))
    assert t.state == "H0" and t.llr <= t.lower and t.decided_n < 50_000


def test_sprt_state_is_sticky():
    t = SPRT(min_n=1)
    assert t.update(1000, 100.0, 300.0) == "H1"
    n_dec = t.decided_n
    assert t.update(100_000, -10_000.0, 30_000.0) == "H1"  # strongly H0-ish data
    assert t.decided_n == n_dec and t.n == 101_000


def test_sprt_zero_variance_and_min_n():
    t = SPRT(min_n=30)
    assert t.update(10, 0.0, 0.0) == "continue"  # too few samples
    assert t.llr == -math.inf
    assert t.update(20, 0.0, 0.0) == "H0"
    assert SPRT().update(40, 40.0, 40.0) == "H1"  # always +1


def test_sprt_fewer_samples_for_larger_difference():
    rng = np.random.default_rng(8)
    means = {}
    for p_a in (0.55, 0.60, 0.70):  # true diffs 0.10, 0.15, 0.25 vs p_b = 0.45
        ns, h1 = [], 0
        for _ in range(20):
            d = _scores(rng, p_a, 0.1, 20_000) - _scores(rng, 0.45, 0.1, 20_000)
            t = _first_decision(d, dict(d0=0.0, d1=0.05), chunk=25)
            assert t.state != "continue"
            h1 += t.state == "H1"
            ns.append(t.decided_n)
        assert h1 >= 18
        means[p_a] = np.mean(ns)
    assert means[0.55] > means[0.60] > means[0.70]


def test_sprt_error_rates_roughly_alpha():
    """Operating characteristic: with per-game checks the error rates are ~alpha/beta."""
    rng = np.random.default_rng(9)
    reps, n, d1 = 300, 6000, 0.05

    def decisions(true_diff):
        p_a = 0.45 + true_diff
        d = _scores(rng, p_a, 0.1, (reps, n)) - _scores(rng, 0.45, 0.1, (reps, n))
        k = np.arange(1, n + 1)
        s = np.cumsum(d, axis=1)
        ss = np.cumsum(d * d, axis=1)
        m = s / k
        var = ss / k - m * m
        with np.errstate(divide="ignore", invalid="ignore"):
            llr = k * d1 * (2 * m - d1) / (2 * var)
        llr[:, :29] = 0.0  # min_n = 30
        t = SPRT()
        hit_hi = np.where((llr >= t.upper).any(1), (llr >= t.upper).argmax(1), n)
        hit_lo = np.where((llr <= t.lower).any(1), (llr <= t.lower).argmax(1), n)
        return hit_hi < hit_lo, hit_lo < hit_hi

    h1, _ = decisions(0.0)
    assert h1.mean() < 0.10  # nominal alpha = 0.05
    _, h0 = decisions(d1)
    assert h0.mean() < 0.10  # nominal beta = 0.05


def test_sprt_decide_difference():
    rng = np.random.default_rng(10)
    base = _scores(rng, 0.45, 0.1, 30_000)
    better = _scores(rng, 0.60, 0.1, 30_000)
    same = _scores(rng, 0.45, 0.1, 30_000)

    def run(a, b, delta=0.05):
        acc = PairedStats()
        for ca, cb in zip(np.array_split(a, 300), np.array_split(b, 300)):
            acc.update(ca, cb)
            r = sprt_decide_difference(acc, delta)
            if r != "continue":
                return r, acc.n
        return r, acc.n

    assert run(better, base)[0] == "better"
    assert run(base, better)[0] == "worse"
    assert run(same, base)[0] == "no_difference"
    assert sprt_decide_difference((10, 5.0, 5.0), 0.05) == "continue"  # below min_n
    assert sprt_decide_difference(PairedStats(), 0.05) == "continue"
    with pytest.raises(ValueError):
        sprt_decide_difference(PairedStats(), 0.0)


# ---------------------------------------------------------------- ratings


def test_elo_score_round_trip():
    d = np.linspace(-800, 800, 33)
    np.testing.assert_allclose(elo_from_score(score_from_elo(d)), d, atol=1e-9)
    p = np.linspace(0.01, 0.99, 50)
    np.testing.assert_allclose(score_from_elo(elo_from_score(p)), p, rtol=1e-12)
    assert score_from_elo(0.0) == 0.5 and elo_from_score(0.5) == 0.0
    assert score_from_elo(400.0) == pytest.approx(10 / 11)
    assert elo_from_score(0.0) == -math.inf and elo_from_score(1.0) == math.inf


TRUE = np.array([-300.0, -150.0, 0.0, 50.0, 150.0, 250.0])


def _tournament(true, games_per_pair, rng):
    """Round robin; each game: draw w.p. 0.4*min(E, 1-E), else win/loss with mean E."""
    k = len(true)
    score = np.zeros((k, k))
    draws = np.zeros((k, k))
    games = np.zeros((k, k))
    for i in range(k):
        for j in range(i + 1, k):
            e = score_from_elo(true[i] - true[j])
            p_d = 0.4 * min(e, 1 - e)
            w, dr, _ = rng.multinomial(games_per_pair, [e - p_d / 2, p_d, 1 - e - p_d / 2])
            score[i, j] = w + dr / 2
            score[j, i] = games_per_pair - score[i, j]
            draws[i, j] = draws[j, i] = dr
            games[i, j] = games[j, i] = games_per_pair
    return score, games, draws


def test_bradley_terry_recovers_strengths():
    rng = np.random.default_rng(11)
    score, games, _ = _tournament(TRUE, 4000, rng)
    r = bradley_terry(score, games)
    true_c = TRUE - TRUE.mean()
    assert r.mean() == pytest.approx(0.0, abs=1e-9)
    np.testing.assert_allclose(r, true_c, atol=15.0)
    se = bradley_terry_se(score, games)
    assert np.all(np.abs(r - true_c) < 4.5 * se)
    # default games = score + score.T
    np.testing.assert_allclose(bradley_terry(score), r, atol=1e-8)


def test_bradley_terry_mle_score_equations():
    """At the MLE each player's expected total score equals the actual one."""
    rng = np.random.default_rng(12)
    score, games, _ = _tournament(TRUE, 300, rng)
    r = bradley_terry(score, games)
    expected = (games * score_from_elo(r[:, None] - r[None, :])).sum(1)
    np.testing.assert_allclose(expected, score.sum(1), rtol=1e-8)


def test_bradley_terry_invariances():
    rng = np.random.default_rng(13)
    score, games, _ = _tournament(TRUE, 500, rng)
    r = bradley_terry(score, games)
    # shifting the true strengths changes nothing (same seed -> same games)
    s2, g2, _ = _tournament(TRUE + 1000.0, 500, np.random.default_rng(13))
    np.testing.assert_allclose(bradley_terry(s2, g2), r, atol=1e-6)
    # scaling all counts leaves the MLE unchanged
    np.testing.assert_allclose(bradley_terry(3 * score, 3 * games), r, atol=1e-6)
    # relabelling players permutes the ratings
    perm = rng.permutation(len(TRUE))
    np.testing.assert_allclose(bradley_terry(score[np.ix_(perm, perm)], games[np.ix_(perm, perm)]), r[perm], atol=1e-6)


def test_bradley_terry_two_players_closed_form():
    score = np.array([[0.0, 70.0], [30.0, 0.0]])
    r = bradley_terry(score)
    assert r[0] - r[1] == pytest.approx(elo_from_score(0.7), abs=1e-6)


def test_bradley_terry_nonexistent_mle_and_prior():
    score = np.array([[0.0, 10.0, 5.0], [0.0, 0.0, 6.0], [0.0, 4.0, 0.0]])  # player 0 never lost
    with pytest.raises(ValueError):
        bradley_terry(score)
    r = bradley_terry(score, prior=1.0)
    assert np.all(np.isfinite(r)) and r[0] == r.max()


def test_rating_intervals_bootstrap():
    rng = np.random.default_rng(14)
    score, games, draws = _tournament(TRUE, 2000, rng)
    r = bradley_terry(score, games)
    se = bradley_terry_se(score, games)
    lo, hi = rating_intervals(score, games, n_boot=200, rng=np.random.default_rng(0), draws=draws)
    assert np.all(lo < r) and np.all(r < hi)
    width = hi - lo
    # percentile width ~ 2 * 1.96 * se; SE ignores draws so is a bit larger
    assert np.all(width < 2 * 1.96 * se * 1.3) and np.all(width > 2 * 1.96 * se * 0.5)
    # binomial resampling (no draw info) agrees with the win/loss SE
    lo2, hi2 = rating_intervals(score, games, n_boot=200, rng=1)
    np.testing.assert_allclose(hi2 - lo2, 2 * 1.96 * se, rtol=0.3)
    # reproducible with a seed
    a = rating_intervals(score, games, n_boot=20, rng=5)
    b = rating_intervals(score, games, n_boot=20, rng=5)
    np.testing.assert_array_equal(a[0], b[0])


def test_rating_intervals_draws_narrow_the_interval():
    # 3 players, 60 % draws: knowing the draws roughly halves the score variance
    n = 1000
    wins = np.array([[0, 250, 200], [150, 0, 220], [200, 180, 0]], dtype=float)
    draws = np.full((3, 3), 0.6 * n)
    np.fill_diagonal(draws, 0.0)
    score = wins + draws / 2
    lo_d, hi_d = rating_intervals(score, n_boot=300, rng=2, draws=draws)
    lo_b, hi_b = rating_intervals(score, n_boot=300, rng=3)
    assert np.all(hi_d - lo_d < 0.85 * (hi_b - lo_b))


@pytest.mark.parametrize("x, text", [
    (0.0, "0.0%"), (1.0, "100.0%"), (0.582, "58.2%"), (0.01, "1.0%"), (0.99, "99.0%"),
    (318e-6, "0.032%"), (0.005, "0.50%"), (0.999682, "99.968%"), (3.8e-6, "0.00038%"), (float("nan"), "n/a")])
def test_format_percent_keeps_rare_rates_non_zero(x, text):
    # 318 wins of 1,000,000 printed as 0.0% [0.0%, 0.0%]
    assert format_percent(x) == text


def test_format_percent_ci_rare_rate_and_width():
    lo, hi = wilson_interval(318, 1_000_000)
    assert format_percent_ci(318e-6, lo, hi) == "0.032% [0.028%, 0.035%]"
    assert format_percent(0.582, 5) == " 58.2%"

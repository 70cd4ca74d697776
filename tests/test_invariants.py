"""Random-play property tests: many whole games with every state invariant
checked after every turn (ccsim.kernel.engine.invariants), and the checker itself.

The sweep plays random-random, random-greedy, greedy-random and greedy-greedy
under the default rules, each R11 variant on its own and all four together,
with `shuffled` action decks (R2.2) and with fixed orderings: 216,000 games,
half a minute on two idle cores once the kernel is compiled.  A game passes
when its result row has no error (that covers a broken invariant, a decision
with no legal option and a strategy choosing outside its options), it ended
for one of the four reasons of R9, and within the turn cap (R9.5).
"""
import time
import zlib
from collections import Counter

import numpy as np
import pytest

from ccsim.kernel import rules as R
from ccsim.kernel import layout as L
from ccsim.kernel.engine import invariants as I
from ccsim.kernel.engine.episode import (play_seeded_nb, R_END, R_TURNS, R_ERROR, R_PLAYED, R_VETOED)
from ccsim.kernel import simulate
from conftest import (SUMMARY, make_rules, make_orders, make_seats)

PAIRINGS = {
    "random-random": (0, 0),
    "random-greedy": (0, 1),
    "greedy-random": (1, 0),
    "greedy-greedy": (1, 1),
}
VARIANT_SETS = {"default": 0, **R.VARIANTS, "all_variants": sum(R.VARIANTS.values())}
ORDER_SETS = {
    "shuffled": ("shuffled", "shuffled"),
    "fixed": ("VAASRCAWSARCV", "AAAASSCCRRWVV"),
    "fixed-vs-shuffled": ("WVVSSCCRRAAAA", "shuffled"),
}
GAMES_PER_CONFIG = 3000
MAX_PLAUSIBLE_TURNS = 341  # R9.5: "a game cannot in fact last more than about 341 turns"


def _seed(*parts) -> int:
    """A stable run seed per configuration (str hashes are salted per process)."""
    return zlib.crc32("/".join(parts).encode())


def _first_bad(rows, broken, final, max_turns, limit=5):
    """(index, why) of the games that failed a check: all of them counted, the first ``limit`` explained."""
    err, end, turns = rows[:, R_ERROR], rows[:, R_END], rows[:, R_TURNS]
    mask = (err != 0) | (broken != 0) | (final != 0) | (end < 1) | (end > 4) | (turns > max_turns)
    bad = []
    for i in np.flatnonzero(mask):
        if len(bad) >= limit:
            bad.append((int(i), "..."))
            continue
        why = []
        if err[i] != 0:
            why.append(f"error {err[i]} ({L.ERROR_NAMES.get(int(err[i]))})")
        if broken[i] != 0:
            why.append(f"invariant {broken[i]} ({I.INVARIANT_NAMES.get(int(broken[i]))}) during play")
        if final[i] != 0:
            why.append(f"invariant {final[i]} ({I.INVARIANT_NAMES.get(int(final[i]))}) at the end")
        if not 1 <= end[i] <= 4:
            why.append(f"end reason {end[i]}")
        if turns[i] > max_turns:
            why.append(f"{turns[i]} turns > {max_turns}")
        bad.append((int(i), "; ".join(why)))
    return bad


@pytest.fixture(scope="module")
def sweep(checked):
    """Every configuration's games, played once for the module: {(pairing, variants, orders): summary}."""
    t0 = time.perf_counter()
    out = {}
    for pname, sids in PAIRINGS.items():
        for vname, bits in VARIANT_SETS.items():
            for oname, (o0, o1) in ORDER_SETS.items():
                seed = _seed(pname, vname, oname)
                rules = make_rules(bits)
                rows, broken, final = checked(seed, GAMES_PER_CONFIG, sids, rules, make_orders(o0, o1))
                out[pname, vname, oname] = {
                    "seed": seed,
                    "n": rows.shape[0],
                    "ends": Counter(int(e) for e in rows[:, R_END]),
                    "bad": _first_bad(rows, broken, final, int(rules[R.RP_MAX_TURNS])),
                    "max_turns": int(rows[:, R_TURNS].max()),
                }
    dt = time.perf_counter() - t0
    n = sum(v["n"] for v in out.values())
    SUMMARY.append(f"invariant sweep: {n} checked games in {dt:.1f} s")
    for pname in PAIRINGS:
        ends = Counter()
        for (p, _, _), v in out.items():
            if p == pname:
                ends.update(v["ends"])
        tot = sum(ends.values())
        parts = ", ".join(f"{R.END_NAMES[e]} {ends[e]} ({100 * ends[e] / tot:.1f}%)" for e in range(1, 5))
        mt = max(v["max_turns"] for (p, _, _), v in out.items() if p == pname)
        SUMMARY.append(f"  {pname:14s} {tot} games: {parts}; max turns {mt}")
    for pname in PAIRINGS:
        ends, tot = _ends(out, pname, "default")
        SUMMARY.append(f"  {pname:14s} default rules only, {tot} games: "
                       + ", ".join(f"{R.END_NAMES[e]} {100 * ends[e] / tot:.1f}%" for e in range(1, 5)))
    return out


def _ends(sweep, pairing, variants=None):
    ends = Counter()
    for (p, v, _), s in sweep.items():
        if p == pairing and (variants is None or v == variants):
            ends.update(s["ends"])
    return ends, sum(ends.values())


# ------------------------------------------------------------ the sweep -------
@pytest.mark.slow
@pytest.mark.parametrize("variants", list(VARIANT_SETS))
@pytest.mark.parametrize("pairing", list(PAIRINGS))
def test_random_play_keeps_invariants(sweep, pairing, variants):
    """R1–R11 over random play: no error, every game ends (R9), within the cap (R9.5)."""
    for oname in ORDER_SETS:
        s = sweep[pairing, variants, oname]
        assert s["n"] == GAMES_PER_CONFIG
        if s["bad"]:
            i, why = s["bad"][0]
            pytest.fail(f"{len(s['bad'])} bad games in {pairing}/{variants}/{oname}; first: run seed {s['seed']} "
                        f"game {i}: {why}")
        assert set(s["ends"]) <= {1, 2, 3, 4}
        assert s["ends"][R.END_TRUNCATED] == 0, "R9.5: no game should reach the 1,000-turn cap"
        assert s["max_turns"] <= MAX_PLAUSIBLE_TURNS


def test_sweep_size(sweep):
    assert sum(s["n"] for s in sweep.values()) >= 100_000


def test_random_random_mostly_ends_without_influence(sweep):
    ends, n = _ends(sweep, "random-random")
    assert ends[R.END_NO_INFLUENCE] / n > 0.6, ends
    assert ends.most_common(1)[0][0] == R.END_NO_INFLUENCE
    assert ends[R.END_ALL_PATRICIANS] / n < 0.05, ends


def test_greedy_greedy_mostly_takes_all_patricians(sweep):
    ends, n = _ends(sweep, "greedy-greedy", "default")
    assert ends[R.END_ALL_PATRICIANS] / n > 0.5, ends


def test_greedy_takes_all_patricians_far_more_often_than_random(sweep):
    gg, ng = _ends(sweep, "greedy-greedy")
    rr, nr = _ends(sweep, "random-random")
    assert gg[R.END_ALL_PATRICIANS] / ng > 0.2, gg
    assert gg[R.END_ALL_PATRICIANS] / ng > 10 * rr[R.END_ALL_PATRICIANS] / nr, (gg, rr)


# ------------------------------------------------------------ other rule vectors
@pytest.mark.parametrize("max_turns", [1, 2, 7, 25])
@pytest.mark.parametrize("pairing", ["random-random", "greedy-greedy"])
def test_turn_cap_truncates(checked, pairing, max_turns):
    """R9.5 with a low cap: never more turns than the cap, a truncated game stops exactly at it."""
    rules = make_rules(0, max_turns=max_turns)
    rows, broken, final = checked(_seed("cap", pairing, str(max_turns)), 2000, PAIRINGS[pairing], rules)
    assert _first_bad(rows, broken, final, max_turns) == []
    trunc = rows[:, R_END] == R.END_TRUNCATED
    assert trunc.any()
    assert (rows[trunc, R_TURNS] == max_turns).all()
    assert (rows[:, R_TURNS] <= max_turns).all()


@pytest.mark.parametrize("params", [
    {"hand_size": 6},
    {"hand_size": 3},
    {"side_limit": 4, "group_limit": 7},
    {"side_limit": 7, "group_limit": 10},
    {"orgies": 0},
    {"orgies": 5},
    {"deck_count.P": 6, "deck_count.5": 2},
    {"group_size.senator": 9, "group_size.aedile": 1},
], ids=lambda d: ",".join(f"{k}={v}" for k, v in d.items()))
def test_what_if_rules_keep_invariants(checked, params):
    """The invariants read every total from the rules vector, so what-if rules are checked too."""
    for pname in ("random-random", "greedy-greedy"):
        for bits in (0, sum(R.VARIANTS.values()) & ~(R.V_TWO_ORGIES if params.get("orgies") == 0 else 0)):
            rules = make_rules(bits, **params)
            rows, broken, final = checked(_seed("whatif", pname, str(sorted(params.items())), str(bits)), 1500,
                                          PAIRINGS[pname], rules)
            bad = _first_bad(rows, broken, final, int(rules[R.RP_MAX_TURNS]))
            assert bad == [], f"{pname} variants={bits}: {len(bad)} bad games, first {bad[0]}"


# ------------------------------------------------------------ result rows ----
def test_vetoes_played_match_cards_vetoed(checked):
    """Each veto a player plays cancels exactly one action card of her opponent (R7.6)."""
    rows, _, _ = checked(_seed("veto"), 4000, (1, 1))
    for p in range(2):
        played_veto = rows[:, R_PLAYED + p * 6 + (R.VETO - R.ACTION_BASE)].astype(int)
        opp_vetoed = rows[:, R_VETOED + (1 - p) * 6:R_VETOED + (1 - p) * 6 + 6].astype(int).sum(axis=1)
        assert opp_vetoed.sum() > 0
        np.testing.assert_array_equal(played_veto, opp_vetoed)


# ------------------------------------------------------------ determinism ----
def _simulate(seed, first, n, sids, rules=None, orders=None, blocks=None):
    """Rows from ccsim.kernel.simulate: its public runner, or its block kernel over explicit blocks."""
    rules = make_rules() if rules is None else rules
    orders = make_orders() if orders is None else orders
    s, sp = make_seats(*sids)
    return simulate.simulate_rows(seed, first, n, rules, s, sp, orders, n_blocks=blocks)


@pytest.mark.parametrize("pairing", list(PAIRINGS))
def test_same_seed_same_rows(checked, pairing):
    """Lesson 7: a game is a function of (run seed, game index) and the configuration."""
    sids = PAIRINGS[pairing]
    orders = make_orders("VAASRCAWSARCV", "shuffled")
    rules = make_rules(R.V_LATE_ORGIES_BOXED | R.V_TWO_ORGIES)
    a = _simulate(123, 0, 600, sids, rules, orders)
    b = _simulate(123, 0, 600, sids, rules, orders)
    np.testing.assert_array_equal(a, b)
    c = _simulate(124, 0, 600, sids, rules, orders)
    assert not np.array_equal(a, c)
    # the checked runs play the very same games (checking never changes a game)
    rows, _, _ = checked(123, 600, sids, rules, orders, n_blocks=3)
    np.testing.assert_array_equal(rows, a)


@pytest.mark.parametrize("pairing", ["random-random", "random-greedy", "greedy-greedy"])
def test_rows_independent_of_blocks_threads_and_offset(compiled, pairing):
    sids = PAIRINGS[pairing]
    ref = _simulate(99, 0, 700, sids, blocks=1)
    for blocks in (2, 7, 64, 700):
        np.testing.assert_array_equal(_simulate(99, 0, 700, sids, blocks=blocks), ref, err_msg=f"{blocks} blocks")
    threads = simulate.get_threads()
    try:
        for n_threads in (1, 2, 3):
            simulate.set_threads(n_threads)
            np.testing.assert_array_equal(_simulate(99, 0, 700, sids), ref, err_msg=f"{n_threads} threads")
    finally:
        simulate.set_threads(threads)
    # a game is the same game when it is played in a later chunk
    np.testing.assert_array_equal(_simulate(99, 200, 500, sids, blocks=5), ref[200:])


# ------------------------------------------------------------ the checker ----
def _midgame(seed=5, game=0, turns=14, sids=(0, 1), variants=0):
    """A consistent state after ``turns`` turns (the cap truncates the game there)."""
    rules = make_rules(variants, max_turns=turns)
    s, sp = make_seats(*sids)
    st = np.zeros(L.BASE_SIZE, np.int32)
    rng = np.zeros(L.N_RNG, np.uint64)
    play_seeded_nb(st, rng, sp, rules, s, np.int64(seed), np.int64(game), make_orders())
    return st


def _find_state(pred, sids=(0, 1), turns=14, variants=0):
    """The first mid-game state (over games, then random seats) with ``pred(st)`` true."""
    for seats in (sids, (0, 0)):
        for game in range(400):
            st = _midgame(3, game, turns, seats, variants)
            if st[L.PUB_END] == R.END_TRUNCATED and pred(st):
                return st
    raise AssertionError("no mid-game state fits the corruption's precondition")


def _pv(p):
    return L.PRIV + p * L.PRIV_SIZE


def _hand_n(st, p):
    return int(st[L.PUB_HANDN + p])


def _voc_deck(st):
    return list(st[L.H_VOC + st[L.H_VOC_TOP]:L.H_VOC + st[L.H_VOC_LEN]])


def _voc_remove_at(st, j):
    """Take the card at absolute index j out of the VoC deck, keeping the deck contiguous."""
    n = st[L.H_VOC_LEN]
    st[L.H_VOC + j:L.H_VOC + n - 1] = st[L.H_VOC + j + 1:L.H_VOC + n].copy()
    st[L.H_VOC_LEN] = n - 1
    st[L.PUB_VOC_DECKN] -= 1


def c_deck_bounds(st):
    st[L.H_IDECK_TOP + 1] = st[L.H_IDECK_LEN + 1] + 1


def c_negative(st):
    st[L.PUB_DISC + 0 * 12 + 2] = -1


def c_extra_card_in_hand(st):  # an influence card appears in a hand (hand not full)
    p = 0 if _hand_n(st, 0) < 5 else 1
    st[_pv(p) + L.PR_HAND + 3] += 1
    st[L.PUB_HANDN + p] += 1
    st[L.H_HAND_INF + p] += 1


def c_hand_count(st):
    st[L.PUB_HANDN + 1] += 1


def c_hand_influence_count(st):  # the cached count of influence cards in a hand
    st[L.H_HAND_INF + 0] -= 1


def c_fd_count(st):
    st[L.PUB_FDN + 2 * 2 + 0] += 1


def c_side_count(st):
    st[L.PUB_SIDEN + 3 * 2 + 1] += 1


def c_ideck_count(st):
    st[L.PUB_IDECKN + 0] -= 1


def c_adeck_count(st):
    st[L.PUB_ADECKN + 1] += 1


def c_voc_deck_count(st):
    st[L.PUB_VOC_DECKN] += 1


def _group_in_play(st):
    return next(g for g in range(5) if st[L.PUB_REMAIN + g] > 0)


def c_side_limit(st):
    g = _group_in_play(st)
    extra = 6 - st[L.PUB_SIDEN + g * 2]
    st[L.PUB_FU + (g * 2 + 0) * 6 + 4] += extra
    st[L.PUB_SIDEN + g * 2] += extra


def c_group_limit(st):
    g = _group_in_play(st)
    for p in range(2):  # sides of 5 and at least 4: nine cards, each side within its limit
        want = 5 if p == 0 else max(4, st[L.PUB_SIDEN + g * 2 + 1])
        extra = want - st[L.PUB_SIDEN + g * 2 + p]
        st[L.PUB_FU + (g * 2 + p) * 6 + 0] += extra
        st[L.PUB_SIDEN + g * 2 + p] += extra


def c_hand_limit(st):
    extra = 6 - _hand_n(st, 1)
    st[_pv(1) + L.PR_HAND + 1] += extra
    st[L.PUB_HANDN + 1] += extra
    st[L.H_HAND_INF + 1] += extra


def c_deck_codes(st):
    st[L.H_IDECK + 0 * 64 + st[L.H_IDECK_TOP]] = R.SPY  # an action card in the influence deck


def c_influence_cards(st):  # an extra card in the discard pile
    st[L.PUB_DISC + 1 * 12 + 0] += 1


def c_swap_action_for_influence_in_hand(st):  # same hand size, one card turned into another
    p = next(q for q in range(2) if st[_pv(q) + L.PR_HAND + 6:_pv(q) + L.PR_HAND + 12].sum() > 0)
    a = next(c for c in range(6, 12) if st[_pv(p) + L.PR_HAND + c] > 0)
    st[_pv(p) + L.PR_HAND + a] -= 1
    st[_pv(p) + L.PR_HAND + 2] += 1
    st[L.H_HAND_INF + p] += 1


def c_action_cards(st):
    st[L.PUB_DISC + 0 * 12 + R.SPY] += 1


def c_action_card_lost(st):  # an action card vanishes from the deck remainder
    b = _pv(0)
    st[b + L.PR_ADECK + st[b + L.PR_ADECK_TOP]] = st[b + L.PR_ADECK + st[b + L.PR_ADECK_TOP] + 1]


def c_voc_cards(st):
    st[L.PUB_VOC_DISC + R.ORGY] += 1


def c_out_of_play(st):
    g = _group_in_play(st)
    st[L.PUB_WON + 0 * 5 + g] += st[L.PUB_REMAIN + g]
    st[L.PUB_REMAIN + g] = 0


def c_patricians(st):
    st[L.PUB_WON + 1 * 5 + 0] += 1


def c_turns(st):
    st[L.PUB_TURN] = st[L.PUB_RULES + R.RP_MAX_TURNS] + 1


def c_bonus(st):
    st[L.H_BONUS + 1] = (st[_pv(1) + L.PR_BONUS] + 1) % 3


def c_voc_box(st):  # a group's VoC card boxed while the group is in play
    g = _group_in_play(st)
    if st[L.PUB_VOC_DISC + g] > 0:
        st[L.PUB_VOC_DISC + g] -= 1
    else:
        j = next(i for i in range(st[L.H_VOC_TOP], st[L.H_VOC_LEN]) if st[L.H_VOC + i] == g)
        _voc_remove_at(st, j)
    st[L.PUB_VOC_BOX + g] += 1


def c_voc_reshuffle(st):  # the reshuffle card put on the discard pile without reshuffling
    j = next(i for i in range(st[L.H_VOC_TOP], st[L.H_VOC_LEN]) if st[L.H_VOC + i] == R.ORGY_RESHUFFLE)
    _voc_remove_at(st, j)
    st[L.PUB_VOC_DISC + R.ORGY_RESHUFFLE] += 1


def c_end(st):
    st[L.PUB_END] = R.END_ALL_PATRICIANS


def c_out(st):
    st[L.PUB_OUT + 0] = 1


def c_played(st):
    st[L.PUB_NVETOED + 1 * 6 + 0] = st[L.PUB_NPLAYED + 1 * 6 + 0] + 1


def c_turn_state(st):
    st[L.PUB_CUR] = 2


def c_vp_lead(st):  # the kept lead out of step with the patricians won
    st[L.H_VP_LEAD] += 1


CORRUPTIONS = [
    (c_deck_bounds, I.INV_DECK_BOUNDS, None),
    (c_negative, I.INV_NEGATIVE, None),
    (c_hand_count, I.INV_HAND_COUNT, None),
    (c_hand_influence_count, I.INV_HAND_COUNT, None),
    (c_fd_count, I.INV_FD_COUNT, None),
    (c_side_count, I.INV_SIDE_COUNT, None),
    (c_ideck_count, I.INV_IDECK_COUNT, None),
    (c_adeck_count, I.INV_ADECK_COUNT, None),
    (c_voc_deck_count, I.INV_VOC_DECK_COUNT, None),
    (c_side_limit, I.INV_SIDE_LIMIT, None),
    (c_group_limit, I.INV_GROUP_LIMIT, None),
    (c_hand_limit, I.INV_HAND_LIMIT, None),
    (c_deck_codes, I.INV_DECK_CODES, None),
    (c_extra_card_in_hand, I.INV_INFLUENCE_CARDS, lambda st: min(_hand_n(st, 0), _hand_n(st, 1)) < 5),
    (c_influence_cards, I.INV_INFLUENCE_CARDS, None),
    (c_swap_action_for_influence_in_hand, I.INV_INFLUENCE_CARDS,
     lambda st: any(st[_pv(q) + L.PR_HAND + 6:_pv(q) + L.PR_HAND + 12].sum() > 0 for q in range(2))),
    (c_action_cards, I.INV_ACTION_CARDS, None),
    (c_action_card_lost, I.INV_ACTION_CARDS,
     lambda st: st[_pv(0) + L.PR_ADECK + st[_pv(0) + L.PR_ADECK_TOP]]
     != st[_pv(0) + L.PR_ADECK + st[_pv(0) + L.PR_ADECK_TOP] + 1] and st[L.PUB_ADECKN] >= 2),
    (c_voc_cards, I.INV_VOC_CARDS, None),
    (c_out_of_play, I.INV_OUT_OF_PLAY,
     lambda st: st[L.PUB_SIDEN + _group_in_play(st) * 2:L.PUB_SIDEN + _group_in_play(st) * 2 + 2].sum() > 0),
    (c_patricians, I.INV_PATRICIANS, None),
    (c_turns, I.INV_TURNS, None),
    (c_bonus, I.INV_BONUS, None),
    (c_voc_box, I.INV_VOC_BOX, None),
    (c_voc_reshuffle, I.INV_VOC_RESHUFFLE, None),
    (c_end, I.INV_END, None),
    (c_out, I.INV_OUT, lambda st: st[L.PUB_IDECKN] > 0),
    (c_played, I.INV_PLAYED, None),
    (c_turn_state, I.INV_TURN_STATE, None),
    (c_vp_lead, I.INV_VP_LEAD, None),
]


def test_every_invariant_code_has_a_corruption_test():
    codes = {code for _, code, _ in CORRUPTIONS}
    assert codes == set(I.INVARIANT_NAMES) - {0}
    assert len(I.INVARIANT_NAMES) == len(set(I.INVARIANT_NAMES.values()))  # names say which


@pytest.mark.parametrize("corrupt,code,pre", CORRUPTIONS, ids=[c.__name__[2:] for c, _, _ in CORRUPTIONS])
@pytest.mark.parametrize("sids", [(0, 1), (1, 1)], ids=["random-greedy", "greedy-greedy"])
def test_checker_catches_corruption(compiled, corrupt, code, pre, sids):
    st = _find_state(pre or (lambda st: True), sids)
    assert I.check_state_nb(st) == 0
    bad = st.copy()
    corrupt(bad)
    got = I.check_state_nb(bad)
    assert got == code, f"expected {I.INVARIANT_NAMES[code]}, got {got} ({I.INVARIANT_NAMES.get(got)})"
    # and a checked game stops on it with ERR_INVARIANT
    assert I.enforce_invariants_nb(bad) == code
    assert bad[L.H_ERROR] == L.ERR_INVARIANT and bad[L.PUB_END] == -1


def test_checker_accepts_states_of_every_variant(compiled):
    for bits in [0, *R.VARIANTS.values(), sum(R.VARIANTS.values())]:
        for turns in (1, 2, 9, 30):
            st = _midgame(8, turns, turns, (1, 0), bits)
            assert I.check_state_nb(st) == 0, (bits, turns)
            assert st[L.H_ERROR] == 0

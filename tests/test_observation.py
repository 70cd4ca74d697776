"""R8 hidden information: a player's observation, and so every strategy's
choice, depends on nothing hidden from her.

For random mid-game positions (a game cut off by a low turn cap, R9.5) we
perturb everything R8.2 hides from player p — the opponent's hand, the values
of her face-down cards, both influence-deck orders, the VoC deck order, the
opponent's bonus, the order of the rest of her action deck, her strategy
memory and what her spy saw — keeping the state consistent (the invariant
checker agrees), and assert that ``observation(st, p)`` is unchanged and that
every registered strategy picks the same option at the same decision from the
same random stream.  The converse tests show that the comparison has teeth.
"""
import numpy as np
from hypothesis import given, settings, HealthCheck, strategies as hs

from ccsim.kernel import rules as R
from ccsim.kernel import layout as L
from ccsim.kernel.observe import observation
from ccsim.kernel.decisions import (PLACEMENT, MODE, STEP, VETO, SPY_PICK, CASTLE, DRAW, VETO_DRAW, DISCARD, T_PLACE_UP,
                             step_type, KIND_NAMES)
from ccsim.kernel.engine.episode import play_seeded_nb
from ccsim.kernel.engine.invariants import check_state_nb, INVARIANT_NAMES
from ccsim.kernel.engine.score import vp_lead_nb
from ccsim.kernel.engine.turn import step_options_nb, can_be_active_nb, place_nb, discard_options_nb
from ccsim.kernel.engine.core import draw_options_nb
from strategies.registry import available, entry_slot
from ccsim.kernel.engine.dispatch import choose_nb
from conftest import make_rules, make_orders, make_seats

STRATEGY_IDS = list(dict.fromkeys(s["id"] for s in available()))
SEAT_PAIRS = [(a, b) for a in STRATEGY_IDS for b in STRATEGY_IDS]


def pv(p):
    return L.PRIV + p * L.PRIV_SIZE


# ------------------------------------------------------------ positions ------
def midgame(seed, game, turns, sids, variants, orders):
    """The state after ``turns`` turns of a game (None if it ended before)."""
    rules = make_rules(variants, max_turns=turns)
    s, sp = make_seats(*sids)
    st = np.zeros(L.BASE_SIZE, np.int32)
    rng = np.zeros(L.N_RNG, np.uint64)
    play_seeded_nb(st, rng, sp, rules, s, np.int64(seed), np.int64(game), orders)
    if st[L.PUB_END] != R.END_TRUNCATED or st[L.H_ERROR] != 0:
        return None
    st[L.PUB_END] = 0  # carry on from here as if the cap had not been hit
    return st


def decisions(st, p, gen):
    """(kind, options, state) of decisions p may face in this position.

    Options are computed on the unperturbed state with the engine's own
    option builders; the very same options are then offered in the perturbed
    state ("the same decision").
    """
    out = []
    st = st.copy()
    st[L.PUB_CUR] = p
    opts = [0, 1] if can_be_active_nb(st, p) else [0]
    out.append((MODE, opts, st.copy()))
    st[L.PUB_MODE] = 1
    st[L.PUB_NPLACED] = 0
    st[L.PUB_PLACED_UP] = 0
    st[L.PUB_ACTION] = -1
    n = step_options_nb(st, p)
    if n > 0:
        out.append((STEP, list(st[L.OPTS:L.OPTS + n]), st.copy()))
        ups = [c for c in st[L.OPTS:L.OPTS + n] if step_type(c) == T_PLACE_UP]
        if ups:  # the second decision of a two-card turn (R4.2)
            mid = st.copy()
            place_nb(mid, p, int(ups[gen.integers(len(ups))]))
            n2 = step_options_nb(mid, p)
            if n2 > 0:
                out.append((STEP, list(mid[L.OPTS:L.OPTS + n2]), mid.copy()))
    for kind, with_none in ((DRAW, False), (VETO_DRAW, True)):
        n = draw_options_nb(st, p, with_none)
        if n > 0:
            out.append((kind, list(st[L.OPTS:L.OPTS + n]), st.copy()))
    n = discard_options_nb(st, p)
    out.append((DISCARD, list(st[L.OPTS:L.OPTS + n]), st.copy()))
    out.append((VETO, [0, 1], st.copy()))
    seen = [c for c in range(12) if st[pv(1 - p) + L.PR_HAND + c] > 0]
    if seen:
        out.append((SPY_PICK, seen, st.copy()))
    cst = st.copy()  # a castling split in progress (R7.3): its context is public
    cst[L.PUB_CTX_CARD] = int(gen.integers(6))
    cst[L.PUB_CTX_G1] = 0
    cst[L.PUB_CTX_G2] = 3
    out.append((CASTLE, list(range(int(gen.integers(1, 4)))), cst))
    out.append((PLACEMENT, list(range(120)), st.copy()))
    return out


# ------------------------------------------------------------ perturbing -----
def _deck_slice(st, q):
    return L.H_IDECK + q * 64 + st[L.H_IDECK_TOP + q], L.H_IDECK + q * 64 + st[L.H_IDECK_LEN + q]


def _swap_with_deck(st, o, gen, region, n_codes, tries=6):
    """Swap cards of o's ``region`` (counts by code at st[region + c]) with cards
    of her influence-deck remainder: the counts change, the sizes do not."""
    lo, hi = _deck_slice(st, o)
    for _ in range(tries):
        have = [c for c in range(n_codes) if st[region + c] > 0]
        if not have or hi <= lo:
            return
        c = have[gen.integers(len(have))]
        j = int(gen.integers(lo, hi))
        d = int(st[j])
        if d == c:
            continue
        st[region + c] -= 1
        st[region + d] += 1
        st[j] = c


def perturb_hidden(st, p, gen):
    """A copy of ``st`` in which everything hidden from p (R8.2) is redealt at random."""
    o = 1 - p
    st = st.copy()
    b = pv(o)
    # the opponent's hand: influence cards against her influence deck ...
    _swap_with_deck(st, o, gen, b + L.PR_HAND, 6)
    # ... and action cards against the rest of her action deck
    atop, alen = st[b + L.PR_ADECK_TOP], st[b + L.PR_ADECK_LEN]
    for _ in range(4):
        acts = [c for c in range(6, 12) if st[b + L.PR_HAND + c] > 0]
        if not acts or alen <= atop:
            break
        c = acts[gen.integers(len(acts))]
        j = b + L.PR_ADECK + int(gen.integers(atop, alen))
        d = int(st[j])
        st[b + L.PR_HAND + c] -= 1
        st[b + L.PR_HAND + d] += 1
        st[j] = c
    # the values of her face-down cards (their number per group is public)
    for g in range(R.N_GROUPS):
        _swap_with_deck(st, o, gen, b + L.PR_FD + g * 6, 6, tries=2)
    # both influence-deck orders (hidden from both, R8.2), the VoC deck order
    for q in range(2):
        lo, hi = _deck_slice(st, q)
        st[lo:hi] = gen.permutation(st[lo:hi])
    lo, hi = L.H_VOC + st[L.H_VOC_TOP], L.H_VOC + st[L.H_VOC_LEN]
    st[lo:hi] = gen.permutation(st[lo:hi])
    # her bonus card (both copies) and the rest of her action deck
    bonus = int(gen.choice(R.BONUS_GROUPS))
    st[L.H_BONUS + o] = bonus
    st[b + L.PR_BONUS] = bonus
    st[L.H_VP_LEAD] = vp_lead_nb(st)  # the engine's kept lead follows her bonus (R10.4)
    st[b + L.PR_ADECK + atop:b + L.PR_ADECK + alen] = gen.permutation(st[b + L.PR_ADECK + atop:b + L.PR_ADECK + alen])
    # what her spy saw of p's hand, her strategy memory, and the setup block (chance's deal)
    st[b + L.PR_SPY_SEEN:b + L.PR_SPY_SEEN + 12] = gen.integers(0, 3, 12)
    st[b + L.PR_SPY_TURN] = gen.integers(-1, max(1, st[L.PUB_TURN]))
    st[L.MEM + o * L.MEM_SIZE:L.MEM + (o + 1) * L.MEM_SIZE] = gen.integers(-50, 50, L.MEM_SIZE)
    st[L.SETUP:L.SETUP + L.SETUP_SIZE] = gen.permutation(st[L.SETUP:L.SETUP + L.SETUP_SIZE])
    return st


def same_choice(base, pert, p, kind, opts, sp, rng):
    """Every registered strategy picks the same index, drawing the same random numbers."""
    n = len(opts)
    for st in (base, pert):
        st[L.OPTS:L.OPTS + n] = opts
    for sid in STRATEGY_IDS:
        base[L.H_SID + p] = sid
        pert[L.H_SID + p] = sid
        sp[:, L.P_ENTRY] = entry_slot(sid)
        r1, r2 = rng.copy(), rng.copy()
        i1 = choose_nb(base, r1, sp, p, kind, n)
        i2 = choose_nb(pert, r2, sp, p, kind, n)
        assert i1 == i2, f"strategy {sid} at a {KIND_NAMES[kind]} decision: {i1} vs {i2} after hidden changes"
        assert 0 <= i1 < n
        np.testing.assert_array_equal(r1, r2)


# ------------------------------------------------------------ tests ----------
@settings(max_examples=200, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(seed=hs.integers(0, 2 ** 31 - 1), game=hs.integers(0, 10 ** 6), turns=hs.integers(1, 36),
       seats=hs.sampled_from(SEAT_PAIRS), variants=hs.integers(0, 15),
       orders=hs.sampled_from([("shuffled", "shuffled"), ("VAASRCAWSARCV", "AAAASSCCRRWVV")]))
def test_hidden_information_never_reaches_a_player(compiled, seed, game, turns, seats, variants, orders):
    st = midgame(seed, game, turns, seats, variants, make_orders(*orders))
    if st is None:
        return  # the game ended before the cut: no decision left
    gen = np.random.default_rng(seed ^ game)
    _, sp = make_seats(*seats)
    sp[:] = gen.random(sp.shape)  # parameters are per seat; the same in both states
    for p in range(2):
        for kind, opts, base in decisions(st, p, gen):
            rng = np.array([gen.integers(2 ** 63) for _ in range(L.N_RNG)], np.uint64)
            for _ in range(2):
                pert = perturb_hidden(base, p, gen)
                code = check_state_nb(pert)
                assert code == 0, f"the perturbation broke {INVARIANT_NAMES[code]}"
                np.testing.assert_array_equal(observation(pert, p), observation(base, p))
                same_choice(base, pert, p, kind, opts, sp, rng)


def test_perturbation_changes_hidden_state(compiled):
    """The perturbation is not a no-op: hands, face-down values and decks do change."""
    changed = {"hand": 0, "fd": 0, "deck": 0, "voc": 0}
    has_fd = 0
    gen = np.random.default_rng(1)
    for game in range(40):
        st = midgame(11, game, 12, (0, 0), 0, make_orders())
        if st is None:
            continue
        pert = perturb_hidden(st, 0, gen)
        b = pv(1)
        has_fd += st[b + L.PR_FD:b + L.PR_FD + 30].sum() > 0
        changed["hand"] += not np.array_equal(st[b + L.PR_HAND:b + L.PR_HAND + 12], pert[b + L.PR_HAND:b + L.PR_HAND + 12])
        changed["fd"] += not np.array_equal(st[b + L.PR_FD:b + L.PR_FD + 30], pert[b + L.PR_FD:b + L.PR_FD + 30])
        changed["deck"] += not np.array_equal(st[L.H_IDECK:L.H_IDECK + 128], pert[L.H_IDECK:L.H_IDECK + 128])
        changed["voc"] += not np.array_equal(st[L.H_VOC:L.H_VOC + 16], pert[L.H_VOC:L.H_VOC + 16])
    assert has_fd >= 20
    assert changed["fd"] >= has_fd // 2, (changed, has_fd)
    assert all(v >= 20 for v in changed.values()), changed


def _some_states(n, sids=(1, 1), turns=10):
    out = []
    for game in range(200):
        st = midgame(21, game, turns, sids, 0, make_orders())
        if st is not None:
            out.append(st)
        if len(out) == n:
            break
    return out


def test_observation_changes_with_what_the_player_sees(compiled):
    """The converse (so the test above can fail): visible changes show in the observation."""
    for st in _some_states(20):
        p, o = 0, 1
        # her own hand is hers to see (R8.2) and hidden from the opponent
        own = st.copy()
        lo, hi = _deck_slice(own, p)
        c = next(c for c in range(6) if own[pv(p) + L.PR_HAND + c] > 0)
        d = next((int(x) for x in own[lo:hi] if x != c), None)
        if d is not None:
            j = lo + next(k for k in range(hi - lo) if own[lo + k] == d)
            own[pv(p) + L.PR_HAND + c] -= 1
            own[pv(p) + L.PR_HAND + d] += 1
            own[j] = c
            assert check_state_nb(own) == 0
            assert not np.array_equal(observation(own, p), observation(st, p))
            np.testing.assert_array_equal(observation(own, o), observation(st, o))
        # a scout turns the opponent's face-down cards up (R7.4): public to both
        g = next((g for g in range(5) if st[L.PUB_FDN + g * 2 + o] > 0), None)
        if g is not None:
            up = st.copy()
            for v in range(6):
                up[L.PUB_FU + (g * 2 + o) * 6 + v] += up[pv(o) + L.PR_FD + g * 6 + v]
                up[pv(o) + L.PR_FD + g * 6 + v] = 0
            up[L.PUB_FDN + g * 2 + o] = 0
            assert check_state_nb(up) == 0
            assert not np.array_equal(observation(up, p), observation(st, p))
        # a discard pile is public (R8.1)
        disc = st.copy()
        disc[L.PUB_DISC + o * 12 + 4] += 1
        assert not np.array_equal(observation(disc, p), observation(st, p))
        assert not np.array_equal(observation(disc, o), observation(st, o))


def test_greedy_choice_depends_on_what_it_sees(compiled):
    """The choice comparison has teeth too: revealing the opponent's face-down
    cards (public after a scout or a vote) changes greedy's step in some positions."""
    from strategies.heuristics.greedy import ID as GREEDY
    changed = 0
    tried = 0
    gen = np.random.default_rng(3)
    for st in _some_states(60, sids=(0, 0)):  # random players leave face-down cards about
        p = 0
        for kind, opts, base in decisions(st, p, gen):
            if kind != STEP or len(opts) < 3:
                continue
            vis = base.copy()  # her own face-down cards turned up on a group: public margins change
            for g in range(5):
                for v in range(6):
                    vis[L.PUB_FU + (g * 2 + 1) * 6 + v] += vis[pv(1) + L.PR_FD + g * 6 + v]
                    vis[pv(1) + L.PR_FD + g * 6 + v] = 0
                vis[L.PUB_FDN + g * 2 + 1] = 0
            n = len(opts)
            for s in (base, vis):
                s[L.OPTS:L.OPTS + n] = opts
                s[L.H_SID + p] = GREEDY
            rng = np.zeros(L.N_RNG, np.uint64)
            _, sp = make_seats(GREEDY, GREEDY)
            tried += 1
            changed += choose_nb(base, rng.copy(), sp, p, STEP, n) != choose_nb(vis, rng.copy(), sp, p, STEP, n)
            break
    assert tried >= 20
    assert changed >= 1, f"greedy ignored the revealed cards in all {tried} positions"

"""The heuristic strategies (strategies/): registry, strength, no stalling, hidden information.

* every registered strategy beats `random` in at least 90% of paired games (seats
  swapped), without an engine error, and no game is truncated (R9.5);
* between the heuristics no game ends in a stalemate (R9.4) — they never take a
  quiet turn after a quiet turn; against `random` and `greedy`, the quiet turn
  that ends a game in a stalemate is always the baseline's;
* the strongest heuristic beats `greedy` with the lower end of its 95% interval
  above 60%;
* a decision depends on nothing hidden from the player (R8), with the very
  parameter vectors the registry gives (tests/test_observation.py covers every
  registered id with random parameter vectors);
* the registry: names, families, parameter files by name and by path;
* the card counter's memory of what its spy saw.
"""
import numpy as np
import pytest

from ccsim.kernel import rules as R
from ccsim.kernel import layout as L
from ccsim.runner.config import RunConfig
from ccsim.kernel.decisions import SPY_PICK, KIND_NAMES
from ccsim.kernel.engine.episode import record_game_nb, N_RESULT, R_END, R_ERROR
from ccsim.kernel.engine.invariants import check_state_nb
from ccsim.kernel.observe import observation
from ccsim.analyses.run import simulate
from ccsim.analyses.stats import wilson_interval
from strategies import registry
from strategies.registry import available, search_players, resolve, load_params, ParamFileError, WEIGHTED
from ccsim.kernel.engine.dispatch import choose_nb
from strategies.heuristics.layouts import PARAM_NAMES, N_PARAMS, P_VERSION
from strategies.heuristics.twists import reweigh_groups  # a style's own change to the group tables (none: no-op)

# the search player plays in tests/test_expert.py: a thousand of its games would take minutes
NAMES = [s["name"] for s in available() if s["name"] not in search_players()]
HEURISTICS = [n for n in NAMES if n not in ("random", "greedy", "weighted")]
GAMES = 1500  # deals per pairing; each is played twice, seats swapped


def score(df, name):
    """Points of strategy ``name`` (a draw is half) and games, over both seats."""
    won = ((df["strategy_cleopatra"] == name) & (df["winner"] == "cleopatra")).sum() + \
          ((df["strategy_caesar"] == name) & (df["winner"] == "caesar")).sum()
    draws = df["winner"].isna().sum()
    return won + 0.5 * draws, len(df)


@pytest.fixture(scope="module")
def vs_random(compiled):
    return {n: simulate(cleopatra=n, caesar="random", games=GAMES, seed=31, swap_seats=True)
            for n in NAMES if n != "random"}


@pytest.fixture(scope="module")
def vs_balanced(compiled):
    return {n: simulate(cleopatra=n, caesar="weighted-balanced", games=GAMES // 3, seed=32, swap_seats=True)
            for n in HEURISTICS}


# ------------------------------------------------------------ strength -------
@pytest.mark.parametrize("name", [n for n in NAMES if n != "random"])
def test_beats_random(vs_random, name):
    df = vs_random[name]
    pts, n = score(df, name)
    assert n == 2 * GAMES
    assert pts / n >= 0.90, f"{name} scores only {pts / n:.1%} against random"
    assert (df["error"] == 0).all()
    assert (df["end"] != "truncated").all()


def test_strongest_heuristic_beats_greedy(compiled):
    """The issue's target: lower end of the 95% interval above 60% (the tournament has the full numbers)."""
    best = None
    for name in ("tactician", "weighted-balanced"):
        df = simulate(cleopatra=name, caesar="greedy", games=GAMES, seed=33, swap_seats=True)
        pts, n = score(df, name)
        lo, _ = wilson_interval(pts, n)
        best = max(best or 0.0, lo)
        assert (df["error"] == 0).all()
    assert best > 0.60, f"best lower bound against greedy {best:.1%}"


@pytest.mark.parametrize("name", HEURISTICS)
def test_no_stalemate_between_heuristics(vs_balanced, name):
    df = vs_balanced[name]
    assert (df["error"] == 0).all()
    ends = df["end"].value_counts()
    assert ends.get("stalemate", 0) + ends.get("truncated", 0) < max(1, 0.001 * len(df)), ends.to_dict()


def _last_turn_players(cleo, caes, seed, game):
    """Players of the last two turns of one game, replayed with its event log."""
    cfg = RunConfig(games=1, seed=seed, cleopatra=cleo, caesar=caes)
    rules = cfg.validated().rules_vector()
    _, sids, sp, codes, _ = cfg.seats(False)
    st = np.zeros(L.state_size(L.max_events(rules), 0), np.int32)
    setup = np.zeros(L.SETUP_SIZE, np.int32)
    row = np.zeros(N_RESULT, np.int16)
    k = record_game_nb(st, np.zeros(L.N_RNG, np.uint64), sp, rules, sids, np.int64(seed), np.int64(game), codes,
                       setup, row)
    log = st[L.LOG:L.LOG + k * L.EV_W].reshape(k, L.EV_W)
    turns = [int(e[1]) for e in log if e[0] == L.EV_TURN]
    return turns[-2:], int(row[R_END]), int(row[R_ERROR])


@pytest.mark.parametrize("baseline", ["random", "greedy"])
def test_stalemates_against_baselines_are_theirs(compiled, baseline):
    """R9.4 against a baseline: the heuristic never takes a quiet turn after a quiet turn, so the
    turn that ends a game in a stalemate is always the baseline's (the heuristic is out, or stuck
    with no room and no card to draw, and the baseline passes without discarding)."""
    checked = 0
    for name in ("weighted-balanced", "tactician", "defender", "oracle"):
        df = simulate(cleopatra=name, caesar=baseline, games=300, seed=34, swap_seats=False)
        for game in df.index[df["end"] == "stalemate"][:4]:
            last, end, err = _last_turn_players(name, baseline, 34, int(df.loc[game, "game"]))
            assert end == R.END_STALEMATE and err == 0
            assert last[-1] == 1, f"{name} took the second quiet turn of game {game}"
            checked += 1
    assert checked > 0  # the baselines do stall, so the check has teeth


# ------------------------------------------------------------ hidden info ----
def _positions(sids, n, turns=(3, 9, 17, 26)):
    from ccsim.kernel.engine.episode import play_seeded_nb
    from conftest import make_rules, make_orders
    out = []
    for game in range(200):
        rules = make_rules(0, max_turns=turns[game % len(turns)])
        sp = np.stack([resolve(NAMES[s] if isinstance(s, int) else s)[1] for s in sids])
        s = np.array([resolve(x)[0] for x in sids], np.int64)
        st = np.zeros(L.BASE_SIZE, np.int32)
        play_seeded_nb(st, np.zeros(L.N_RNG, np.uint64), sp, rules, s, np.int64(41), np.int64(game), make_orders())
        if st[L.PUB_END] == R.END_TRUNCATED and st[L.H_ERROR] == 0:
            st[L.PUB_END] = 0
            out.append(st)
        if len(out) == n:
            break
    return out


def _seated(name, n=12):
    """(state, seat) at each of n positions of ``name`` against `majority`, for both seats:
    a copy of the position with strategy ``name`` in that seat."""
    sid = resolve(name)[0]
    for st in _positions((name, "majority"), n):
        for p in (0, 1):
            st = st.copy()
            st[L.H_SID + p] = sid
            yield st, p


@pytest.mark.parametrize("name", HEURISTICS)
def test_decisions_ignore_hidden_information(compiled, name):
    """R8: perturbing all that is hidden from the player changes neither her observation nor her
    choice, at every kind of decision, with the strategy's own registered parameters."""
    from test_observation import decisions, perturb_hidden
    sid, params = resolve(name)
    sp = np.stack([params, params])
    gen = np.random.default_rng(7)
    kinds = set()
    for st in _positions((name, "tactician"), 12) + _positions(("random", "random"), 6):
        for p in range(2):
            for kind, opts, base in decisions(st, p, gen):
                n = len(opts)
                rng = np.array([gen.integers(2 ** 63) for _ in range(L.N_RNG)], np.uint64)
                for _ in range(2):
                    pert = perturb_hidden(base, p, gen)
                    assert check_state_nb(pert) == 0
                    np.testing.assert_array_equal(observation(pert, p), observation(base, p))
                    for s in (base, pert):
                        s[L.OPTS:L.OPTS + n] = opts
                        s[L.H_SID + p] = sid
                    i1 = choose_nb(base, rng.copy(), sp, p, kind, n)
                    i2 = choose_nb(pert, rng.copy(), sp, p, kind, n)
                    assert i1 == i2, f"{name} at a {KIND_NAMES[kind]} decision: {i1} vs {i2}"
                    assert 0 <= i1 < n
                kinds.add(kind)
    assert len(kinds) == 9  # every decision kind was asked


# ------------------------------------------------------------ registry -------
def test_registry_lists_every_strategy_with_family_and_description():
    items = available()
    names = [s["name"] for s in items]
    assert len(names) == len(set(names))
    assert {"random", "greedy", "weighted", "majority", "trickster", "tactician", "oracle", "counter",
            "defender", "weighted-balanced", "weighted-aggressive", "weighted-thrifty"} <= set(names)
    for s in items:
        assert s["family"] and s["description"]
        sid, params = resolve(s["name"])
        assert sid == s["id"] and params.shape == (L.MAX_PARAMS,)
    # the kernel ids are a contract (parameter vectors, dispatch): each module declares its own
    ids = {s["name"]: s["id"] for s in items}
    assert {n: ids[n] for n in ("random", "greedy", "weighted", "majority", "trickster", "tactician", "oracle",
                                "counter", "defender", "expert")} == dict(
        random=0, greedy=1, weighted=2, majority=3, trickster=4, tactician=5, oracle=6, counter=7, defender=8, expert=9)
    assert registry.RANDOM == 0 and registry.WEIGHTED == 2 and registry.EXPERT == 9
    assert len(HEURISTICS) >= 9  # six styles and three parameter sets


def test_parameter_sets_differ_and_files_resolve_by_path(tmp_path):
    sets = {n: resolve(n) for n in NAMES if n.startswith("weighted-")}
    assert all(sid == WEIGHTED for sid, _ in sets.values())
    vecs = [p for _, p in sets.values()]
    assert all(not np.array_equal(a, b) for i, a in enumerate(vecs) for b in vecs[i + 1:])
    f = tmp_path / "mine.toml"
    f.write_text('description = "test"\n[weights]\ncard_cost = 0.25\nspy = 1\n')
    sid, params = resolve(str(f))
    assert sid == WEIGHTED and params[P_VERSION] == 1.0
    assert params[PARAM_NAMES.index("card_cost")] == 0.25 and params[PARAM_NAMES.index("spy")] == 1.0
    assert np.array_equal(params[:N_PARAMS], np.where(np.arange(N_PARAMS) == PARAM_NAMES.index("card_cost"), 0.25,
                                                      np.where(np.arange(N_PARAMS) == PARAM_NAMES.index("spy"), 1.0,
                                                               resolve("weighted")[1][:N_PARAMS])))
    # a parameter file plays like the named set that holds the same weights
    same = tmp_path / "same.toml"
    same.write_text((registry.PARAMS_DIR / "thrifty.toml").read_text())
    assert np.array_equal(resolve(str(same))[1], resolve("weighted-thrifty")[1])


def test_bad_parameter_files_are_refused(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("[weights]\nnot_a_weight = 1.0\n")
    with pytest.raises(ParamFileError, match="unknown weight 'not_a_weight'"):
        load_params(bad)
    with pytest.raises(KeyError, match="unknown weight"):
        resolve(str(bad))
    with pytest.raises(KeyError, match="not found"):
        resolve(str(tmp_path / "missing.toml"))
    with pytest.raises(KeyError, match="unknown strategy 'nobody'"):
        resolve("nobody")
    bad.write_text('[weights]\nspy = "high"\n')
    with pytest.raises(ParamFileError, match="must be a number"):
        load_params(bad)


def test_a_parameter_file_runs(compiled, tmp_path):
    f = tmp_path / "greedyish.toml"
    f.write_text("[weights]\nsoon = 0.0\nlong = 0.0\nnext = 1.0\n")
    df = simulate(cleopatra=str(f), caesar="random", games=200, seed=5)
    assert (df["error"] == 0).all() and (df["winner"] == "cleopatra").mean() > 0.9


# ------------------------------------------------------------ memory ---------
def test_counter_remembers_what_its_spy_saw(compiled):
    """The counter's per-game memory: the action cards its spy saw (R8.3) stay known until discarded."""
    st = _positions(("counter", "tactician"), 1)[0]
    p, o = 0, 1
    sid = resolve("counter")[0]
    sp = np.stack([resolve("counter")[1]] * 2)
    b = L.PRIV + o * L.PRIV_SIZE
    st[b + L.PR_HAND:b + L.PR_HAND + 12] = 0
    st[b + L.PR_HAND + R.VETO] = 1
    st[b + L.PR_HAND + R.WRATH] = 1
    st[b + L.PR_HAND + 4] = 1
    mine = L.PRIV + p * L.PRIV_SIZE
    st[mine + L.PR_SPY_SEEN:mine + L.PR_SPY_SEEN + 12] = st[b + L.PR_HAND:b + L.PR_HAND + 12]
    opts = [4, R.WRATH, R.VETO]
    st[L.OPTS:L.OPTS + 3] = opts
    st[L.H_SID + p] = sid
    theirs = st[L.MEM + o * L.MEM_SIZE:L.MEM + (o + 1) * L.MEM_SIZE].copy()
    i = choose_nb(st, np.zeros(L.N_RNG, np.uint64), sp, p, SPY_PICK, 3)
    mem = st[L.MEM + p * L.MEM_SIZE:L.MEM + (p + 1) * L.MEM_SIZE]
    assert mem[0] == 1
    picked = opts[i]
    for card in (R.VETO, R.WRATH):
        a = card - R.ACTION_BASE
        assert mem[1 + a] == (0 if card == picked else 1)
    np.testing.assert_array_equal(st[L.MEM + o * L.MEM_SIZE:L.MEM + (o + 1) * L.MEM_SIZE], theirs)  # only its own memory


def test_results_are_reproducible(compiled):
    a = simulate(cleopatra="oracle", caesar="counter", games=200, seed=9, swap_seats=True)
    b = simulate(cleopatra="oracle", caesar="counter", games=200, seed=9, swap_seats=True)
    assert a["winner"].equals(b["winner"]) and a["turns"].equals(b["turns"])
    assert not (a[[c for c in a.columns if c.startswith("played_")]] == 0).all().all()


@pytest.mark.parametrize("name", ["weighted-balanced", "tactician", "defender"])
def test_a_veto_weighs_the_announced_target(compiled, name):
    """R7.6 with R7.0/R8.1: the same wrath is vetoed at the target where it would hurt and
    let through where it would not (at least once over these positions), and the
    decision reads the target the engine announced."""
    from ccsim.kernel.decisions import VETO
    from ccsim.kernel.rules import WRATH, VETO as VETO_CARD
    from strategies.heuristics.tables import fill_groups, new_tables
    from strategies.heuristics.scoring import damage_at
    _, w = resolve(name)
    sp = np.stack([w, w])
    flips = 0
    for st, p in _seated(name):
        st[L.PRIV + p * L.PRIV_SIZE + L.PR_HAND + VETO_CARD] = 1
        st[L.PUB_ACTION] = WRATH
        T = new_tables()
        fill_groups(w, st[L.PUB:L.PUB + L.PUB_SIZE], st[L.PRIV + p * L.PRIV_SIZE:L.PRIV + (p + 1) * L.PRIV_SIZE],
                    np.zeros(L.MEM_SIZE, np.int32), p, T)
        answers = {}
        for g in range(R.N_GROUPS):
            if st[L.PUB_REMAIN + g] <= 0:
                continue
            st[L.PUB_CTX_G1] = g
            st[L.OPTS:L.OPTS + 2] = (0, 1)
            answers[damage_at(w, T, st[L.PUB:L.PUB + L.PUB_SIZE], p, WRATH, g, 0)] = \
                choose_nb(st, np.zeros(L.N_RNG, np.uint64), sp, p, VETO, 2)
        ranked = [answers[d] for d in sorted(answers)]
        assert ranked == sorted(ranked)  # more damage, never less ready to veto
        flips += ranked[0] == 0 and ranked[-1] == 1
    assert flips >= 3


@pytest.mark.parametrize("name", ["defender", "oracle", "weighted-thrifty"])
def test_tables_kept_from_mode_are_those_of_the_first_step(compiled, name):
    """A MODE decision made with the group tables keeps them for the first STEP of the
    active turn (R3, R4: the same position): kept, they are bit for bit the tables a fresh
    computation gives there, and the first STEP uses them once, choosing as with an empty memory."""
    from ccsim.kernel.decisions import MODE, STEP
    from ccsim.kernel.engine.turn import step_options_nb
    from strategies.heuristics.layouts import M_TURN, M_TURN_T, M_KEPT_G, KEPT, KEPT_ROWS
    from strategies.heuristics.tables import fill_groups, fill_gains, new_tables
    _, w = resolve(name)
    sp = np.stack([w, w])
    kept = 0
    for st, p in _seated(name):
        mem = st[L.MEM + p * L.MEM_SIZE:L.MEM + (p + 1) * L.MEM_SIZE]
        pub = st[L.PUB:L.PUB + L.PUB_SIZE]
        own = st[L.PRIV + p * L.PRIV_SIZE:L.PRIV + (p + 1) * L.PRIV_SIZE]
        st[L.OPTS:L.OPTS + 2] = (0, 1)
        mem[M_TURN] = 0  # (what the last turn's last placement kept)
        choose_nb(st, np.zeros(L.N_RNG, np.uint64), sp, p, MODE, 2)
        if mem[M_TURN] == 0:
            continue  # decided without the tables (R9.4, R5.1: it must be active)
        assert mem[M_TURN] == st[L.PUB_TURN] + 1
        T = new_tables()
        fill_groups(w, pub, own, np.zeros(L.MEM_SIZE, np.int32), p, T)
        reweigh_groups(w, pub, own, mem, p, T, 0, R.N_GROUPS)
        fill_gains(w, pub, own, T)
        mine = mem[M_TURN_T:M_TURN_T + 2 * KEPT].view(np.float64).reshape(KEPT_ROWS, 6)
        np.testing.assert_array_equal(mine[:, :5].view(np.int64), T[:KEPT_ROWS, :5].view(np.int64))
        st[L.PUB_MODE], st[L.PUB_NPLACED], st[L.PUB_ACTION] = 1, 0, -1
        n = step_options_nb(st, p)
        if n < 2:
            continue
        fresh = st.copy()
        fresh[L.MEM + p * L.MEM_SIZE:L.MEM + (p + 1) * L.MEM_SIZE] = 0
        i = choose_nb(st, np.zeros(L.N_RNG, np.uint64), sp, p, STEP, n)
        assert mem[M_TURN] == 0 or mem[M_KEPT_G] >= 0  # used once (and kept again after a card placed)
        assert i == choose_nb(fresh, np.zeros(L.N_RNG, np.uint64), sp, p, STEP, n)
        kept += 1
    assert kept >= 6


@pytest.mark.parametrize("name", ["weighted", "weighted-thrifty", "majority", "trickster", "tactician", "oracle",
                                  "counter", "defender"])
def test_tables_kept_from_a_placement_are_those_of_the_next_step(compiled, name):
    """R4.2: a STEP that places a card keeps its tables for the turn's next STEP, where only
    that card's group has changed; the column of that group (and the scalars) are computed
    again, the others are kept.  Unless the card filled the group (its vote, R4.3, changes
    everything), those tables are bit for bit the ones a fresh computation gives, and the
    choice (and the random draws) are those of a memory without kept tables."""
    from ccsim.kernel.decisions import STEP
    from ccsim.play.game import Game
    from strategies.heuristics.layouts import M_TURN, M_KEPT_G, M_KEPT_NP, KEPT_ROWS, R_SC, S_STALE
    from strategies.heuristics.tables import fill_groups, fill_gains, gains_ready, kept_tables, refill_groups, new_tables
    _, w = resolve(name)
    refreshed = 0
    for game in range(3):
        g = Game(seed=5, game=game)
        while not g.over:
            kind, p, n = g._pending()
            st = g.st
            mem = st[L.MEM + p * L.MEM_SIZE:L.MEM + (p + 1) * L.MEM_SIZE]
            pub = st[L.PUB:L.PUB + L.PUB_SIZE]
            own = st[L.PRIV + p * L.PRIV_SIZE:L.PRIV + (p + 1) * L.PRIV_SIZE]
            if n < 2:
                g.step(0)
                continue
            if (kind == STEP and mem[M_TURN] == st[L.PUB_TURN] + 1 and mem[M_KEPT_G] >= 0
                    and mem[M_KEPT_NP] == st[L.PUB_NPLACED] and st[L.PUB_ACTION] < 0):
                T = new_tables()
                lo, hi = kept_tables(kind, pub, mem.copy(), p, T)
                if hi - lo == 1:
                    assert lo == mem[M_KEPT_G]
                    refill_groups(w, pub, own, mem.copy(), p, T, lo, hi)
                    reweigh_groups(w, pub, own, mem, p, T, lo, hi)
                    fresh = new_tables()
                    fill_groups(w, pub, own, np.zeros(L.MEM_SIZE, np.int32), p, fresh)
                    reweigh_groups(w, pub, own, mem, p, fresh, 0, R.N_GROUPS)
                    assert T[R_SC, S_STALE] == lo + 1  # the kept gains hold but for that column
                    gains_ready(w, pub, own, T)
                    fill_gains(w, pub, own, fresh)
                    np.testing.assert_array_equal(T[:KEPT_ROWS, :5].view(np.int64),
                                                  fresh[:KEPT_ROWS, :5].view(np.int64))
                    refreshed += 1
                else:
                    assert (lo, hi) == (0, R.N_GROUPS)  # the card filled its group: it voted at once
                other = g.copy()
                other.st[L.MEM + p * L.MEM_SIZE + M_TURN] = 0  # nothing kept: a fresh computation
                i = g.ask(name)
                assert other.ask(name) == i
                np.testing.assert_array_equal(other.rng, g.rng)
                g.step(i)
                continue
            g.step(g.ask(name))
    assert refreshed >= 50


def test_tables_kept_from_a_placement_hold_only_for_the_next_step_after_that_card(compiled):
    """R4.2, R4.3, R7: tables kept at a STEP that places a card hold at the next STEP of the
    same turn, with one more card placed, no action played and the card still at its group
    (only that group's column is computed again); not if the card filled the group (its vote
    took the cards away), nor at another decision, turn or count of cards placed."""
    from ccsim.kernel.decisions import STEP, MODE, T_PLACE_DOWN
    from strategies.heuristics.layouts import KEPT_ROWS, R_HID, R_SC, S_STALE
    from strategies.heuristics.tables import keep_step_tables, kept_tables, new_tables
    st = _positions(("defender", "majority"), 1)[0]
    pub = st[L.PUB:L.PUB + L.PUB_SIZE].copy()
    pub[L.PUB_NPLACED], pub[L.PUB_ACTION] = 0, -1
    p, g, c = 1, 3, 2
    T = np.random.default_rng(3).random((new_tables().shape))
    mem = np.zeros(L.MEM_SIZE, np.int32)
    keep_step_tables(STEP, pub, mem, p, T, T_PLACE_DOWN | (c << 4) | (g << 8))
    after = pub.copy()
    after[L.PUB_NPLACED] = 1
    after[L.siden_at(g, p)] += 1

    def kept(kind, pub_now):
        out = new_tables()
        return kept_tables(kind, pub_now, mem.copy(), p, out), out

    (lo, hi), out = kept(STEP, after)
    assert (lo, hi) == (g, g + 1)
    np.testing.assert_array_equal(out[:KEPT_ROWS, :R.N_GROUPS], T[:KEPT_ROWS, :R.N_GROUPS])
    assert out[R_HID, 5] == T[R_HID, 5] and out[R_SC, S_STALE] == T[R_SC, S_STALE]  # (written: kept too)
    voted = after.copy()
    voted[L.siden_at(g, p)] = 0  # R4.3: the group's vote came at once
    played = after.copy()
    played[L.PUB_ACTION] = R.SCOUT
    later = after.copy()
    later[L.PUB_TURN] += 1
    for kind, pub_now in ((STEP, voted), (STEP, played), (STEP, later), (STEP, pub), (MODE, after)):
        assert kept(kind, pub_now)[0] == (0, R.N_GROUPS)
    mem_after_use = mem.copy()
    kept_tables(STEP, after, mem_after_use, p, new_tables())
    assert kept_tables(STEP, after, mem_after_use, p, new_tables()) == (0, R.N_GROUPS)  # once


@pytest.mark.parametrize("name", ["weighted-balanced", "defender", "majority"])
def test_kept_stakes_give_the_tables_of_a_fresh_computation(compiled, name):
    """strategies.heuristics.features keeps the stakes in the player's memory between decisions:
    the tables made with a memory filled at other positions (stale entries), at this very
    position (entries reused) and with an empty memory are identical, bit for bit."""
    from strategies.heuristics.layouts import M_STAKE_CTX, M_END
    from strategies.heuristics.tables import fill_groups, new_tables
    _, w = resolve(name)
    positions = _positions(("defender", "majority"), 12)
    for p in (0, 1):
        warm = np.zeros(L.MEM_SIZE, np.int32)
        for st in positions:
            pub = st[L.PUB:L.PUB + L.PUB_SIZE]
            own = st[L.PRIV + p * L.PRIV_SIZE:L.PRIV + (p + 1) * L.PRIV_SIZE]
            tables = []
            for mem in (warm, warm, np.zeros(L.MEM_SIZE, np.int32)):
                T = new_tables()
                fill_groups(w, pub, own, mem, p, T)
                tables.append(T)
            assert warm[M_STAKE_CTX] == p + 1 and warm[M_END:].sum() == 0
            for T in tables[1:]:
                np.testing.assert_array_equal(T.view(np.int64), tables[0].view(np.int64))


def test_sig_is_the_clamped_cubic_bit_for_bit():
    """features.sig clamps without branches: at and beyond the clamps it gives exactly 0.0 and
    1.0, inside them the cubic, the very values of the branching form (the games stay the same)."""
    from strategies.heuristics.features import sig
    xs = np.concatenate([np.linspace(-6.0, 6.0, 4001), np.nextafter(2.5, [0.0, 9.0]),
                         np.nextafter(-2.5, [0.0, -9.0]), [2.5, -2.5, 0.0, -0.0, 1e300, -1e300]])
    for x in xs:
        y = x * 0.4
        want = 1.0 if y >= 1.0 else 0.0 if y <= -1.0 else 0.5 + y * (0.75 - 0.25 * y * y)
        assert np.float64(sig(x)).view(np.int64) == np.float64(want).view(np.int64), x

"""Shared fixtures: the compiled kernels, built once per test session.

numba compiles the game kernel on first use (about a minute on a 2-core
machine with a cold cache; ccsim keys its on-disk cache by the source of
``ccsim`` and ``strategies``, so after any edit there the first run is cold
again).  The session fixtures below pay that once, before any timed test, and
every test file shares them.

``play_checked_block_nb`` is the checked block loop of the random-play
property tests: it plays the game specs of ccsim.kernel.simulate's batch kernel (the
same tables, seats and block dispatch) with the state invariants enforced
after every turn (``play_seeded_nb(..., checked=1)``, ccsim.kernel.engine.invariants)
and also checks each final state, so an invariant, an empty option list or an
illegal strategy choice shows up as a non-zero ``error`` in the game's result
row.
"""
import time

import numpy as np
import pytest
from ccsim.toolchain.cache import engine_folder
from ccsim.toolchain.jit import njit

from ccsim.kernel import rules as R
from ccsim.kernel.layout import BASE_SIZE, N_RNG, H_BROKEN, MAX_PARAMS, P_ENTRY
from ccsim.kernel.engine.episode import play_seeded_nb, result_row_nb, N_RESULT, R_ERROR
from ccsim.kernel.engine.invariants import check_state_nb
from ccsim.runner.backends import LocalBackend
from ccsim.runner.orderings import to_codes
from ccsim.kernel.simulate import seat_config_nb, run_blocks, single_tables, game_specs
from strategies.registry import available, entry_slot

STRATEGY_IDS = tuple(dict.fromkeys(s["id"] for s in available()))
STRATEGY_NAMES = {s["id"]: s["name"] for s in reversed(available())}
ALL_VARIANTS = sum(R.VARIANTS.values())
SUMMARY = []  # lines the tests want shown at the end of the run (end-reason counts, timings)


# Two tiers (docs/tests.md): `pytest -m "not slow"` answers in minutes. A test that asks for the
# big kernels (``compiled``, and every fixture built on it), a Dask cluster or a whole study played
# (test_report_wording's ``tiny``, test_study's ``tiny_search``) is slow, whichever file it is in;
# the others that play many games or compile in a fresh cache say so themselves.
SLOW_FIXTURES = {"compiled", "cluster", "client", "tiny", "tiny_search"}


def pytest_collection_modifyitems(items):
    for item in items:
        if SLOW_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)


def pytest_terminal_summary(terminalreporter):
    if SUMMARY:
        terminalreporter.section("ccsim random-play summary")
        for line in SUMMARY:
            terminalreporter.write_line(line)


@njit(nogil=True, cache=True, nrt=True)
def play_checked_block_nb(lo, hi, seed, spec_cfg, spec_game, spec_swap, ent_sid, ent_sp, cfg_ent, cfg_codes,
                          cfg_rules, rules_tab, out, broken, final):
    """Game specs ``lo .. hi - 1`` as ccsim.kernel.simulate.play_specs_block_nb plays them, invariants
    checked after every turn.

    ``out[i]`` gets the result row, ``broken[i]`` the code the in-game check
    last returned (non-zero only for the turn that broke an invariant) and
    ``final[i]`` the check of the final state (end reason set).  Releases the
    GIL, like ccsim.kernel.simulate's block kernel, so blocks run on Python threads.
    """
    st = np.zeros(BASE_SIZE, np.int32)
    rng = np.zeros(N_RNG, np.uint64)
    sids = np.zeros(2, np.int64)
    sp = np.zeros((2, ent_sp.shape[1]), np.float64)
    orders = np.full((2, cfg_codes.shape[2]), -1, np.int8)
    for i in range(lo, hi):
        c = spec_cfg[i]
        s = spec_swap[i]
        seat_config_nb(c, s, ent_sid, ent_sp, cfg_ent, cfg_codes, sids, sp, orders)
        play_seeded_nb(st, rng, sp, rules_tab[cfg_rules[c], s], sids, seed, spec_game[i], orders, 1)
        result_row_nb(st, out[i])
        broken[i] = st[H_BROKEN]
        final[i] = check_state_nb(st)


def run_cli(capsys, *argv):
    """``ccsim`` as a shell runs it, in this process: (exit status, stdout, stderr); arguments may be paths or
    numbers."""
    from ccsim.cli import main
    with pytest.raises(SystemExit) as exc:
        main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return exc.value.code, out, err


class Counting(LocalBackend):
    """The local backend counting the tasks it plays, and stopping (Ctrl-C) after ``stop_after`` of them:
    what an interrupted run keeps, and what its rerun plays again."""

    def __init__(self, stop_after=None):
        super().__init__()
        self.played, self.stop_after = 0, stop_after

    def map(self, fn, tasks):
        for item in super().map(fn, tasks):
            if self.played == self.stop_after:
                raise KeyboardInterrupt
            self.played += 1
            yield item


def make_rules(variants=0, **params):
    """A rules vector: the defaults of RULES.md, R11 variant bits, named overrides."""
    rules = R.DEFAULT_RULES.copy()
    rules[R.RP_VARIANTS] = variants
    for name, value in params.items():
        rules[R.RULE_PARAM_NAMES[name]] = value
    return rules


def make_orders(cleopatra="shuffled", caesar="shuffled"):
    """The kernel's (2, 13) int8 action-deck orders; a row of -1 is `shuffled` (R2.2)."""
    codes = np.full((2, R.ACTION_DECK_SIZE), -1, np.int8)
    for p, o in enumerate((cleopatra, caesar)):
        if o != "shuffled":
            codes[p] = to_codes(o)
    return codes


def make_seats(s0, s1):
    """(sids, sp) of the same types as the run configuration's (one cached kernel): zero
    parameters, each seat's compiled strategy entry in ``P_ENTRY``."""
    sp = np.zeros((2, MAX_PARAMS), np.float64)
    sp[:, P_ENTRY] = entry_slot(s0), entry_slot(s1)
    return np.array([s0, s1], np.int64), sp


def run_checked(seed, n_games, sids, rules=None, orders=None, first_game=0, n_blocks=None):
    """(rows, broken, final) of n_games checked games."""
    rules = make_rules() if rules is None else rules
    orders = make_orders() if orders is None else orders
    sids, sp = make_seats(*sids)
    out = np.zeros((n_games, N_RESULT), np.int16)
    broken = np.zeros(n_games, np.int32)
    final = np.zeros(n_games, np.int32)
    run_blocks(play_checked_block_nb, n_games, np.int64(seed), *game_specs(first_game, n_games),
               *single_tables(rules, sids, sp, orders), out, broken, final, n_blocks=n_blocks)
    return out, broken, final


def _record_and_replay_one():
    """Compile the recording and replaying kernels (ccsim.kernel.engine.episode) with one game."""
    from ccsim.kernel.layout import state_size, max_events, SETUP_SIZE
    from ccsim.kernel.engine.episode import record_game_nb
    from ccsim.play.record import make_record, replay

    rules = make_rules()
    sids, sp = make_seats(0, 1)
    st = np.zeros(state_size(max_events(rules), 0), np.int32)
    setup = np.zeros(SETUP_SIZE, np.int32)
    row = np.zeros(N_RESULT, np.int16)
    k = record_game_nb(st, np.zeros(N_RNG, np.uint64), sp, rules, sids, np.int64(1), np.int64(0), make_orders(),
                       setup, row)
    from ccsim.kernel.layout import LOG, EV_W
    rec = make_record(0, "warm-up", [], ["random", "greedy"], setup, st[LOG:LOG + k * EV_W].reshape(k, EV_W), row)
    assert replay(rec).ok


@pytest.fixture(scope="session")
def compiled():
    """Compile (or load from numba's disk cache) every kernel the tests use, once.

    Returns the seconds it took, for the curious (-s shows it).
    """
    t0 = time.perf_counter()
    for s0 in STRATEGY_IDS:
        for s1 in STRATEGY_IDS:
            rows, broken, final = run_checked(1, 2, (s0, s1))
            assert (rows[:, R_ERROR] == 0).all()
    st = np.zeros(BASE_SIZE, np.int32)
    check_state_nb(st)
    _record_and_replay_one()
    from ccsim.kernel.simulate import simulate_rows  # the production batch kernel
    simulate_rows(1, 0, 2, make_rules(), *make_seats(1, 0), make_orders())
    dt = time.perf_counter() - t0
    print(f"\n[conftest] kernels ready in {dt:.1f} s (numba cache: {engine_folder()})")
    return dt


@pytest.fixture(scope="session")
def checked(compiled):
    """The checked batch runner ``run_checked(seed, n_games, sids, rules, orders, ...)``."""
    return run_checked


@pytest.fixture
def seat_gaps(monkeypatch):
    """Pin the seat certificate (strategies/seats.py) to the gaps given, in points: a test of what a
    lopsided or balanced level does must not move when the published certificate is re-measured.
    ``seat_gaps({"neural": 10.9, "master": -3.4})``; tactician stays the reference (0)."""
    from strategies import seats

    def pin(gaps: dict):
        rows = {name: {"name": name, "seat_gap": float(g), "seat_gap_ci95": [g - 0.1, g + 0.1],
                       "gain_cleopatra": max(g, 0.0), "gain_caesar": max(-g, 0.0),
                       "balanced": abs(g) <= seats.GAP_LIMIT, "status": seats.BALANCED if abs(g) <= seats.GAP_LIMIT
                       else seats.LOPSIDED, "deals": 1000} for name, g in gaps.items()}
        rows.setdefault(seats.REFERENCE, seats.reference_row(seats.REFERENCE, 1000))
        monkeypatch.setattr(seats, "certificate", lambda: rows)
    return pin

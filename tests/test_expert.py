"""The search player `expert` (strategies/search/expert.py): legal, reproducible, blind to what it may not see."""
import json

import numpy as np
import pytest

from ccsim.kernel import layout as L
from ccsim.runner.config import RunConfig
from ccsim.kernel.engine.dispatch import choose_with_nb
from ccsim.kernel.engine.episode import R_ERROR, R_WINNER
from ccsim.play.game import Game
from ccsim.play.record import replay
from ccsim.analyses.run import write_records
from ccsim.kernel.simulate import simulate_rows, set_threads, get_threads
from strategies.search import expert as E
from strategies.registry import resolve, available, load_params, ParamFileError
from test_observation import perturb_hidden


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    """An expert file with a small budget (the tests' games stay short)."""
    path = tmp_path_factory.mktemp("expert") / "expert-small.toml"
    path.write_text('family = "expert"\ndescription = "a small budget"\n[search]\nbudget = 12\nwidth = 3\n')
    return str(path)


def test_it_is_registered_with_its_parameter_files():
    names = {s["name"]: s for s in available()}
    assert names["expert"]["family"] == "search"
    assert {n for n in names if n.startswith("expert-")} >= {"expert-b256", "expert-greedy"}
    sid, params = resolve("expert")
    assert params[E.P_BUDGET] == 64 and params[E.P_ROLLOUT] == resolve("tactician")[0]
    assert params[E.P_ROLLOUT_ENTRY] != 0.0  # the rollout policy's compiled entry


@pytest.mark.parametrize("text, msg", [
    ('family = "expert"\n[search]\nbudget = 0\n', "budget"),
    ('family = "expert"\n[search]\nrollout = "expert"\n', "search player"),
    ('family = "expert"\n[search]\nrollout = "nobody"\n', "unknown strategy"),
    ('family = "expert"\n[search]\nkinds = ["step", "nap"]\n', "decision kind"),
    ('family = "expert"\n[search]\nbreadth = 3\n', "unknown search parameter"),
])
def test_bad_expert_files_name_the_problem(tmp_path, text, msg):
    f = tmp_path / "bad.toml"
    f.write_text(text)
    with pytest.raises(ParamFileError, match=msg):
        load_params(f)


def test_games_are_legal_and_replay(tmp_path, compiled, small):
    path = tmp_path / "g.jsonl"
    for variants in ((), ("two_orgies", "lone_player_no_draw")):
        cfg = RunConfig(games=3, seed=4, cleopatra=small, caesar="tactician", variants=variants)
        write_records(cfg, str(path), 3)
        for rec in map(json.loads, path.open()):
            assert replay(rec).ok, replay(rec).message


def test_a_seed_gives_the_same_games_whatever_the_threads(compiled, small):
    cfg = RunConfig(games=6, seed=9, cleopatra="greedy", caesar=small).validated()
    _, sids, sp, codes, _ = cfg.seats(False)
    before = get_threads()
    try:
        set_threads(1)
        a = simulate_rows(9, 0, 6, cfg.rules_vector(), sids, sp, codes)
        set_threads(2)
        b = simulate_rows(9, 0, 6, cfg.rules_vector(), sids, sp, codes)
    finally:
        set_threads(before)
    np.testing.assert_array_equal(a, b)
    assert (a[:, R_ERROR] == 0).all()


def test_ask_in_the_game_api_is_the_batch_choice(compiled, small):
    """The Game API's ask plays the batch kernel's games, the search player too."""
    recs = []
    import tempfile
    with tempfile.NamedTemporaryFile("r", suffix=".jsonl") as f:
        write_records(RunConfig(games=2, seed=3, cleopatra=small, caesar="oracle"), f.name, 2)
        recs = [json.loads(line) for line in f]
    for k, rec in enumerate(recs):
        g = Game(seed=3, game=k)
        while not g.over:
            g.step(g.ask(small if g.to_move == "cleopatra" else "oracle"))
        assert g.record()["events"] == rec["events"]


def _decisions_of_the_expert(n, params, sid):
    """(state, rng) at decisions of the expert (as cleopatra) in games against tactician."""
    out = []
    k = 0
    while len(out) < n:
        g = Game(seed=17, game=k)
        gen = np.random.default_rng(k)
        while not g.over:
            if g.to_move == "cleopatra" and g.decision in ("mode", "step", "draw", "veto") and gen.random() < 0.15:
                out.append((g.st.copy(), g.rng.copy()))
            g.step(g.ask("tactician"))
        k += 1
    return out[:n]


def test_changing_what_is_hidden_from_her_does_not_change_her_choice(compiled, small):
    """R8.4: everything hidden from the searching player is redealt (her observation kept);
    with the same random streams her choice is the same."""
    sid, params = resolve(small)
    gen = np.random.default_rng(2)
    changed = 0
    for st, rng in _decisions_of_the_expert(12, params, sid):
        kind, n = int(st[L.PUB_DEC_KIND]), int(st[L.PUB_DEC_N])
        other = perturb_hidden(st, 0, gen)
        changed += not np.array_equal(other, st)
        a = choose_with_nb(st.copy(), rng.copy(), sid, params, 0, kind, n)
        b = choose_with_nb(other, rng.copy(), sid, params, 0, kind, n)
        assert a == b
    assert changed >= 10


def test_the_search_sees_what_it_may_see(compiled, small):
    """The converse: a change she can see (her own hand) may change the choice, and the search
    is not the rollout policy's choice everywhere (it does search)."""
    sid, params = resolve(small)
    tsid, tparams = resolve("tactician")
    differs = 0
    for st, rng in _decisions_of_the_expert(30, params, sid):
        kind, n = int(st[L.PUB_DEC_KIND]), int(st[L.PUB_DEC_N])
        a = choose_with_nb(st.copy(), rng.copy(), sid, params, 0, kind, n)
        t = choose_with_nb(st.copy(), rng.copy(), tsid, tparams, 0, kind, n)
        assert 0 <= a < n
        differs += a != t
    assert differs > 0


def test_it_beats_random_and_greedy(compiled, small):
    for opp in ("random", "greedy"):
        cfg = RunConfig(games=6, seed=2, cleopatra=small, caesar=opp).validated()
        _, sids, sp, codes, _ = cfg.seats(False)
        rows = simulate_rows(2, 0, 6, cfg.rules_vector(), sids, sp, codes)
        assert (rows[:, R_WINNER] == 0).mean() >= 5 / 6, opp

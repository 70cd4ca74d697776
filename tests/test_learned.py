"""The learned player (strategies/learned/) and its training (ccsim.training).

The perturbation tests of every strategy (hidden information changes nothing) run on it in
tests/test_strategies.py, as on any registered strategy; here: its inference against a plain
numpy computation, its weights file, the tactician's clone it starts from, and training that
gives the same weights from the same seed.
"""
import numpy as np
import pytest

from ccsim.kernel import layout as L
from ccsim.kernel.decisions import MODE, STEP, VETO, SPY_PICK, DRAW, VETO_DRAW
from ccsim.kernel.engine.dispatch import choose_with_nb
from strategies import learned
from strategies.heuristics.scoring import must_be_active
from strategies.registry import LEARNED, ParamFileError, load_params, resolve

MODELLED = (MODE, STEP, VETO, SPY_PICK, DRAW, VETO_DRAW)


def _decisions(n_games=6):
    """(state, player, kind, n) at every decision of a few tactician games with two options or more."""
    from ccsim import Game
    out = []
    for game in range(n_games):
        g = Game(seed=17, game=game)
        while not g.over:
            kind, p, n = g._pending()
            out.append((g.st.copy(), g.rng.copy(), p, kind, n))
            g.step(g.ask("tactician"))
    return out


@pytest.fixture(scope="module")
def decisions(compiled):
    return _decisions()


def _numpy_pick(st, p, kind, n, theta):
    """The learned player's pick, the model computed in numpy from the compiled features."""
    opts, pub, own, mem = st[L.OPTS:L.OPTS + n], st[L.PUB:L.PUB + L.PUB_SIZE], \
        st[L.priv_at.py_func(p):L.priv_at.py_func(p) + L.PRIV_SIZE], st[L.mem_at.py_func(p):L.mem_at.py_func(p) + L.MEM_SIZE]
    T = np.zeros((34, 6))
    F = np.zeros((L.MAX_OPTIONS, learned.MAX_FEATURES))
    k = learned.decision_features_nb(kind, opts.copy(), n, pub.copy(), own.copy(), mem.copy(), p, T, F)
    first = learned.block_of(kind)[0]
    scores = F[:n, :k] @ theta[first:first + k]
    return int(np.argmax(scores))  # numpy's argmax: the first of equals, as the compiled player


def test_inference_is_the_dot_product_of_its_features(decisions):
    """At every modelled decision of real games, with random weights, the compiled player picks the
    option numpy's argmax of features @ weights picks."""
    gen = np.random.default_rng(3)
    checked = 0
    for st, rng, p, kind, n in decisions:
        if kind not in MODELLED or (kind == MODE and must_be_active(st[L.PUB:L.PUB + L.PUB_SIZE], p)):
            continue
        theta = learned.tactician_clone()
        theta[1:learned.N_PARAMS] = gen.normal(size=learned.N_PARAMS - 1)
        params = resolve("learned")[1]
        params[:learned.N_PARAMS] = theta[:learned.N_PARAMS]
        got = choose_with_nb(st.copy(), rng.copy(), np.int64(LEARNED), params, np.int64(p), np.int64(kind), np.int64(n))
        assert got == _numpy_pick(st, p, kind, n, theta), (kind, n)
        checked += 1
    assert checked > 300


def test_the_clone_plays_the_tacticians_moves(decisions):
    """The training's starting point plays exactly what the tactician plays (so round 0's students
    are the tactician, and the clone's score against it is 50%)."""
    params = resolve("learned")[1]
    params[:learned.N_PARAMS] = learned.tactician_clone()[:learned.N_PARAMS]
    tsid, tac = resolve("tactician")
    for st, rng, p, kind, n in decisions:
        a = choose_with_nb(st.copy(), rng.copy(), np.int64(LEARNED), params, np.int64(p), np.int64(kind), np.int64(n))
        b = choose_with_nb(st.copy(), rng.copy(), np.int64(tsid), tac, np.int64(p), np.int64(kind), np.int64(n))
        assert a == b, (kind, n)


def test_a_weights_file_round_trips(tmp_path):
    from ccsim.training.train import write_weights
    theta = learned.tactician_clone()
    theta[learned.M_STEP:learned.M_STEP + learned.N_STEP] = np.arange(learned.N_STEP) / 7.0
    path = tmp_path / "w.toml"
    write_weights(path, theta, {"summary": "a test"})
    got, data = load_params(path)
    np.testing.assert_array_equal(got[:learned.N_PARAMS], theta[:learned.N_PARAMS])
    assert resolve(str(path))[0] == LEARNED


@pytest.mark.parametrize("text, message", [
    ('family = "learned"\n[step]\nnonsense = 1.0\n', "no feature 'nonsense'"),
    ('family = "learned"\n[mode]\nbias = "high"\n', "must be a number"),
    ('family = "learned"\nweights = 1\n', "unknown top-level key"),
])
def test_a_bad_weights_file_is_refused_in_one_line(tmp_path, text, message):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(ParamFileError, match=message):
        load_params(path)


def test_training_twice_from_one_seed_gives_the_same_weights(compiled, tmp_path):
    """A tiny run (a few labelled games, a small teacher), twice: the same weights, byte for byte."""
    from ccsim.training.train import TrainConfig, train
    cfg = TrainConfig(seed=5, rounds=1, games=6, budget=8, rate=0.5, eval_deals=40)
    a = train(cfg, tmp_path / "a")
    b = train(cfg, tmp_path / "b")
    for name in ("round-0.toml", "round-1.toml"):
        wa = load_params(tmp_path / "a" / name)[0]
        wb = load_params(tmp_path / "b" / name)[0]
        np.testing.assert_array_equal(wa, wb)
    assert [r.labels for r in a.rounds] == [r.labels for r in b.rounds] and a.rounds[-1].labels > 0
    assert (tmp_path / "a" / "learning-curve.png").stat().st_size > 0


def test_records_of_the_new_players_replay(capsys, tmp_path, compiled):
    """Games of learned, master and the seer, recorded, pass `ccsim replay --check`: every event legal,
    every claim true (the seer sees more than it may, but plays only legal moves)."""
    from ccsim.cli import main
    for a, b in (("learned", "master"), ("expert-seer", "learned")):
        path = tmp_path / f"{a}-{b}.jsonl"
        for argv in (["run", "--games", "1", "--swap-seats", "--cleopatra", a, "--caesar", b, "--seed", "3",
                      "--record", str(path), "--no-progress"], ["replay", str(path), "--check"]):
            with pytest.raises(SystemExit) as exc:
                main(argv)
            out, _ = capsys.readouterr()
            assert exc.value.code == 0, out
        assert "2 passed, 0 failed" in out

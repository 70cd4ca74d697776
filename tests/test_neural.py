"""The value network (strategies/neural*.py), its training (ccsim.training.dmc, net_fit, neural_train)
and its players (`neural`, `neural-search`)."""
import numpy as np
import pytest

from ccsim.kernel import layout as L
from ccsim.kernel.decisions import STEP
from strategies import learned, neural
from strategies.neural.inputs import (N_OBS, N_OPT, N_OPTION_FEATURES, OBS_TABLE, OPT_TABLE, encode_obs_nb,
                                      Y_KIND, STATE_KIND)
from strategies.neural.model import (H1, H2, N_WEIGHTS, forward_numpy, initial_weights, obs_layer_nb,
                                   option_value_nb)


def test_the_option_features_are_the_learned_players():
    assert N_OPTION_FEATURES == learned.MAX_FEATURES


def test_every_input_column_is_named():
    assert sum(int(np.prod(s)) for _, s, _ in OBS_TABLE) == N_OBS
    assert sum(int(np.prod(s)) for _, s, _ in OPT_TABLE) == N_OPT


def compiled_heads(w, obs, opt):
    out = np.zeros((len(obs), 2), np.float32)
    for r in range(len(obs)):
        h0 = np.zeros(H1, np.float32)
        obs_layer_nb(w, obs[r], h0)
        option_value_nb(w, h0, opt[r], np.zeros(H1, np.float32), np.zeros(H2, np.float32), out[r])
    return out


def test_compiled_forward_equals_numpy_forward():
    gen = np.random.default_rng(7)
    w = initial_weights(3) + gen.normal(0, 0.05, N_WEIGHTS).astype(np.float32)  # biases too
    obs = gen.integers(0, 6, (200, N_OBS)).astype(np.uint8)
    obs[gen.random(obs.shape) < 0.6] = 0  # sparse, as observations are
    opt = gen.normal(0, 1, (200, N_OPT)).astype(np.float32)
    opt[gen.random(opt.shape) < 0.5] = 0.0
    np.testing.assert_allclose(compiled_heads(w, obs, opt), forward_numpy(w, obs, opt), atol=1e-5, rtol=1e-5)


def test_the_observation_encoding_reads_nothing_hidden(compiled):
    """R8: a state and its copy with everything hidden from the player redealt encode alike (the
    choices of every registered strategy, `neural` included, are held so by tests/test_observation.py)."""
    from ccsim.play.game import Game
    from test_observation import perturb_hidden
    gen = np.random.default_rng(11)
    g = Game(seed=5)
    checked = 0
    while not g.over and checked < 60:
        st = g.st
        me = int(st[L.PUB_DEC_P])
        twisted = perturb_hidden(st, me, gen)
        x, y = np.zeros(N_OBS, np.uint8), np.zeros(N_OBS, np.uint8)
        mb = L.priv_at(me)
        encode_obs_nb(st[L.PUB:L.PUB + L.PUB_SIZE], st[mb:mb + L.PRIV_SIZE], me, x)
        encode_obs_nb(twisted[L.PUB:L.PUB + L.PUB_SIZE], twisted[mb:mb + L.PRIV_SIZE], me, y)
        np.testing.assert_array_equal(x, y)
        checked += 1
        g.step(g.ask("tactician"))
    assert checked == 60


def test_candidates_are_the_tacticians_best_and_ending_the_turn():
    F = np.zeros((L.MAX_OPTIONS, learned.MAX_FEATURES))
    n = 12
    F[:n, neural.F_SCORE] = np.arange(n)           # option 11 scores best
    F[3, neural.F_END] = 1.0                        # option 3 ends the turn
    F[11, neural.F_BLOCKED] = 1.0                   # ... but 11 is ruled out
    alive = np.zeros(L.MAX_OPTIONS, np.int64)
    m = neural.candidates_nb(STEP, F, n, alive)
    assert list(alive[:m]) == [3, 10, 9, 8, 7, 6, 5]


def test_a_tiny_training_run_gives_the_same_weights_twice(compiled, tmp_path):
    from ccsim.training.neural_train import NetworkTrainConfig, train_network
    cfg = NetworkTrainConfig(seed=4, generations=2, games=60, keep=0.2, epochs=1, eval_deals=10)
    runs = []
    for k in range(2):
        train_network(cfg, tmp_path / str(k))
        runs.append([np.load(tmp_path / str(k) / f"gen{g}.npz")["weights"] for g in range(2)])
    for a, b in zip(*runs):
        np.testing.assert_array_equal(a, b)
    assert not np.array_equal(runs[0][0], runs[0][1])  # generation 1 learned something of its own


def test_training_resumes_after_its_finished_generations(compiled, tmp_path):
    from ccsim.training.neural_train import NetworkTrainConfig, train_network
    cfg = NetworkTrainConfig(seed=4, generations=1, games=40, keep=0.2, epochs=1, eval_deals=10)
    first = train_network(cfg, tmp_path)
    (tmp_path / "gen0.npz").touch()  # unchanged: a rerun must not redo generation 0
    again = train_network(cfg, tmp_path)
    assert again[0].seconds == first[0].seconds


def test_the_state_option_is_its_own_kind():
    from ccsim.training.net_fit import state_option
    y = state_option()
    assert y[Y_KIND + STATE_KIND] == 1.0 and y.sum() == 1.0


@pytest.mark.parametrize("name", ["neural", "neural-search"])
def test_records_of_the_network_players_replay(compiled, tmp_path, name):
    from click.testing import CliRunner
    from ccsim.cli import cli
    rec = tmp_path / "g.jsonl"
    r = CliRunner().invoke(cli, ["run", "--games", "2", "--cleopatra", name, "--caesar", "tactician",
                                 "--record", str(rec), "--record-games", "2", "--seed", "9"])
    assert r.exit_code == 0, r.output
    r = CliRunner().invoke(cli, ["replay", str(rec), "--check"])
    assert r.exit_code == 0, r.output

"""The value network (strategies/neural*.py), its training (ccsim.training.branches, net_fit, neural_train)
and its players (`neural`, `neural-search`)."""
import json

import numpy as np
import pytest

from ccsim.kernel import layout as L
from ccsim.runner.config import RunConfig
from ccsim.kernel.decisions import STEP
from strategies import learned, neural
from strategies.neural import choice as neural_choice
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
    F[:n, neural_choice.F_SCORE] = np.arange(n)           # option 11 scores best
    F[3, neural_choice.F_END] = 1.0                        # option 3 ends the turn
    F[11, neural_choice.F_BLOCKED] = 1.0                   # ... but 11 is ruled out
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
    assert again[0].mirror == first[0].mirror


def test_a_generation_keeps_tactician_s_mirror_on_its_tuning_deals(compiled, tmp_path):
    """The seat scores are gains only beside the mirror of the same deals: a generation records it,
    and it is Cleopatra's score in `tactician`'s own games of those deals."""
    from ccsim.analyses.run import run
    from ccsim.training.neural_train import NetworkTrainConfig, eval_seed, train_network
    cfg = NetworkTrainConfig(seed=4, generations=1, games=40, keep=0.2, epochs=1, eval_deals=30)
    (gen,) = train_network(cfg, tmp_path)
    summary, df = run(RunConfig(games=30, seed=eval_seed(cfg, 0), cleopatra="tactician", caesar="tactician"),
                      keep_frames=True)
    cleopatra = np.where(df["winner"].isna(), 0.5, (df["winner"] == "cleopatra").astype(float)).mean()
    assert gen.mirror == pytest.approx(cleopatra)
    assert json.loads((tmp_path / "gen0.json").read_text())["mirror"] == gen.mirror


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


def test_no_shipped_weight_is_subnormal_or_below_the_floor():
    """Subnormal weights made every product with them a slow microcode operation (8x slower games
    on an Intel Xeon): the shipped file holds none, nor any weight nearer zero than the floor."""
    from strategies.neural.model import WEIGHT_FLOOR
    with np.load(neural.WEIGHTS_FILE) as f:
        w = f["weights"]
    tiny = (w != 0) & (np.abs(w) < WEIGHT_FLOOR)
    assert WEIGHT_FLOOR > np.finfo(np.float32).tiny
    assert not tiny.any(), f"{int(tiny.sum())} weights below {WEIGHT_FLOOR}"


def test_the_loader_and_the_writer_flush_tiny_weights(tmp_path):
    from strategies.neural.model import WEIGHT_FLOOR
    w = initial_weights(2)
    w[:3] = (1e-42, -3e-30, 0.5 * WEIGHT_FLOOR)
    np.savez(tmp_path / "old.npz", weights=w, margin=0.03)  # a file written before the floor
    read, margin = neural.read_weights(tmp_path / "old.npz")
    assert list(read[:3]) == [0.0, 0.0, 0.0] and margin == 0.03
    np.testing.assert_array_equal(read[3:], w[3:])
    neural.write_weights(tmp_path / "new.npz", w, 0.03)
    with np.load(tmp_path / "new.npz") as f:
        assert list(f["weights"][:3]) == [0.0, 0.0, 0.0]


def float32_activations(w, obs, opt):
    """Every pre-activation and activation of the float32 forward (as the compiled player computes
    it), flattened."""
    from strategies.neural.model import unpack, SCALE
    p = unpack(w)
    x = np.concatenate([obs.astype(np.float32) * SCALE, opt], axis=1).astype(np.float32)
    a1 = x @ p["W1"] + p["B1"]
    h1 = np.maximum(a1, np.float32(0))
    a2 = h1 @ p["W2"] + p["B2"]
    h2 = np.maximum(a2, np.float32(0))
    out = h2 @ p["W3"] + p["B3"]
    return np.concatenate([a.ravel() for a in (a1, a2, out)])


def test_no_activation_is_subnormal_in_play(compiled):
    """The shipped network on the decisions of real games (the network's own mirror and against
    `tactician`, both options of every branched decision): no value of its forward is subnormal."""
    from ccsim.training.neural_train import task_of, game_setup
    from ccsim.training.branches import play_task
    rules, orders = game_setup()
    pool = [neural.shipped_weights()]
    rows = [play_task(task_of(31, 0, 40, pair, pool, rules, orders, 0.5)) for pair in ((0, 0), (0, "tactician"))]
    obs = np.concatenate([np.repeat(s.obs, 2, axis=0) for s in rows])
    opt = np.concatenate([s.opt.reshape(-1, N_OPT) for s in rows])
    assert len(obs) > 500
    act = float32_activations(neural.NET, obs, opt)
    sub = (act != 0) & (np.abs(act) < np.finfo(np.float32).tiny)
    assert not sub.any(), f"{int(sub.sum())} subnormal values of {act.size}"


def test_a_subnormal_activation_would_be_seen():
    """The count above can fail: a network whose first layer sums to a subnormal shows it."""
    w = np.zeros(N_WEIGHTS, np.float32)
    from strategies.neural.model import N_B1
    w[N_B1] = 1e-40
    act = float32_activations(w, np.zeros((1, N_OBS), np.uint8), np.zeros((1, N_OPT), np.float32))
    assert ((act != 0) & (np.abs(act) < np.finfo(np.float32).tiny)).any()

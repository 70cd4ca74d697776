"""ccsim.Game: one game driven one decision at a time, checked against the batch kernel and replay."""
import json

import numpy as np
import pytest

from ccsim.kernel import layout as L
from ccsim.kernel import rules as R
from ccsim.runner.config import RunConfig
from ccsim.play.game import Game, GameError
from ccsim.play.record import replay
from ccsim.analyses.run import write_records
from test_observation import perturb_hidden

VARIANT_SETS = [()] + [(v,) for v in R.VARIANTS] + [tuple(R.VARIANTS)]


def batch_records(tmp_path, n, **kw):
    cfg = RunConfig(games=n, **kw).validated()
    path = tmp_path / "batch.jsonl"
    write_records(cfg, str(path), n)
    return [json.loads(line) for line in path.open()]


def play_by_ask(seed, game, cleo, caesar, **kw):
    g = Game(seed=seed, game=game, **kw)
    while not g.over:
        g.step(g.ask(cleo if g.to_move == "cleopatra" else caesar))
    return g


@pytest.mark.parametrize("cleo, caesar, kw", [
    ("tactician", "greedy", {}),
    ("random", "trickster", {"cleopatra_order": "veto-first", "caesar_order": "VAASRCAWSARCV"}),
    ("weighted-thrifty", "counter", {"variants": ("two_orgies", "late_orgies_boxed")}),
    ("oracle", "defender", {"variants": ("lone_player_no_draw", "majority_needs_complete")}),
])
def test_games_driven_by_ask_equal_the_batch_kernels_event_for_event(tmp_path, compiled, cleo, caesar, kw):
    recs = batch_records(tmp_path, 12, seed=5, cleopatra=cleo, caesar=caesar, **kw)
    for k, rec in enumerate(recs):
        g = play_by_ask(5, k, cleo, caesar, **kw)
        got = g.record()
        assert got["setup"] == rec["setup"] and got["events"] == rec["events"], f"game {k}"
        assert got["result"] == rec["result"] == g.result
        assert got["players"] == rec["players"]


@pytest.mark.parametrize("variants", VARIANT_SETS, ids=lambda v: "+".join(v) or "default")
def test_random_legal_games_make_records_that_replay(compiled, variants):
    gen = np.random.default_rng(len(variants))
    for k in range(25):
        g = Game(seed=9, game=k, variants=variants)
        while not g.over:
            options = g.legal()
            assert len(options) >= 2 and g.to_move in R.PLAYERS and g.decision
            g.step(int(gen.integers(len(options))))
        rec = g.record()
        assert replay(rec).ok, replay(rec).message
        assert rec["result"] == g.result and g.legal() == []


def test_legal_options_are_the_events_they_produce(compiled):
    """An option that produces a record event is described as exactly that event."""
    gen = np.random.default_rng(3)
    checked = {}
    for k in range(20):
        g = Game(seed=2, game=k)
        while not g.over:
            options = g.legal()
            i = int(gen.integers(len(options)))
            d = options[i]
            n0 = int(g.st[L.H_NLOG])
            g.step(i)
            new = g.record()["events"][n0:] if g.decision != "placement" else []
            if d["e"] in ("place", "turn", "veto") or (d["e"] == "action" and d["card"] not in ("spy", "castling")):
                assert new[0] == d, (d, new[:2])
                checked[d["e"]] = checked.get(d["e"], 0) + 1
            elif d["e"] == "draw":  # names the deck, not the unseen card
                assert {k: v for k, v in new[0].items() if k != "card"} == d
                checked["draw"] = checked.get("draw", 0) + 1
            elif d["e"] == "discard" and d["cards"]:
                assert new[0] == d
                checked["discard"] = checked.get("discard", 0) + 1
    assert set(checked) >= {"place", "turn", "action", "draw", "discard"}


def _midgame(seed, game, turns):
    g = Game(seed=seed, game=game)
    gen = np.random.default_rng(game)
    while not g.over and (g.turn < turns or g.decision not in ("mode", "step", "draw", "discard")):
        g.step(int(gen.integers(len(g.legal()))))
    return None if g.over else g


def test_observation_does_not_change_when_anything_hidden_from_her_does(compiled):
    gen = np.random.default_rng(11)
    seen_changes = 0
    n = 0
    for k in range(40):
        g = _midgame(4, k, 8 + k % 20)
        if g is None:
            continue
        for p in range(2):
            h = g.copy()
            h.st[:] = perturb_hidden(g.st, p, gen)
            assert h.observation(p) == g.observation(p)
            seen_changes += h.observation(1 - p) != g.observation(1 - p)  # the perturbation has teeth
            n += 1
    assert n > 40 and seen_changes > n // 2


@pytest.mark.parametrize("variants", VARIANT_SETS, ids=lambda v: "+".join(v) or "default")
def test_a_fork_continues_exactly_like_the_original(compiled, variants):
    """A copy at any decision, given the same choices, plays the same game; and it is independent."""
    gen = np.random.default_rng(7)
    for k in range(8):
        g = Game(seed=21, game=k, variants=variants)
        at = int(gen.integers(5, 120))
        choices = []
        fork = None
        while not g.over:
            if len(choices) == at:
                fork = g.copy()
            i = g.ask("tactician") if len(choices) % 3 else int(gen.integers(len(g.legal())))
            choices.append(i)
            g.step(i)
        if fork is None:
            continue
        for j, i in enumerate(choices[at:], at):
            if j % 3:  # where the original asked, the fork asks too: from the copied memory and streams
                assert fork.ask("tactician") == i
            fork.step(i)
        assert fork.over and fork.record() == g.record()
        np.testing.assert_array_equal(fork.st, g.st)  # strategy memory and all


def test_a_fork_played_differently_leaves_the_original_alone(compiled):
    g = _midgame(6, 3, 10)
    before = g.st.copy(), g.rng.copy()
    f = g.copy()
    while not f.over:
        f.step(len(f.legal()) - 1)
    np.testing.assert_array_equal(g.st, before[0])
    np.testing.assert_array_equal(g.rng, before[1])


def test_bad_calls_are_clear_errors(compiled):
    g = Game(seed=1)
    with pytest.raises(GameError, match="not one of the 120"):
        g.step(120)
    with pytest.raises(GameError):
        g.step(-1)
    with pytest.raises(GameError, match="unknown strategy"):
        g.ask("nobody")
    with pytest.raises(GameError, match="placements"):
        g.record()
    with pytest.raises(Exception, match="unknown variant"):
        Game(variants=("nope",))
    while not g.over:
        g.step(0)
    with pytest.raises(GameError, match="over"):
        g.step(0)
    assert g.to_move is None and g.decision is None and g.result["end"] in R.END_NAMES


def test_a_game_so_far_replays_as_far_as_it_goes(compiled):
    g = _midgame(8, 1, 12)
    rec = g.record()
    assert rec["result"] is None
    res = replay(rec)
    assert res.ok and "so far" in res.message
    rec["events"][-1] = dict(rec["events"][-1], e="veto")
    assert not replay(rec).ok


def test_the_game_is_importable_from_the_package():
    import ccsim
    assert ccsim.Game is Game


def test_prepare_resolves_a_strategy_before_the_game_starts():
    g = Game(seed=3)
    assert g.prepare("random") is g and g.ask("random") in range(len(g.legal()))
    with pytest.raises(GameError, match="unknown strategy 'nobody'"):
        g.prepare("nobody")

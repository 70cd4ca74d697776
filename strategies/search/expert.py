"""`expert`: determinized Monte Carlo search on the compiled engine (PIMC with paired worlds).

At each decision it searches (MODE, STEP, VETO, SPY_PICK, DRAW, VETO_DRAW by
default), the player samples worlds consistent with what she has seen
(``ccsim.kernel.engine.determinize.sample_hidden_nb``: her opponent's hand,
face-down cards and decks, all deck orders, the opponent's bonus), and in
each world plays every candidate option and then the rest of the game with a
rollout policy for both seats (any registered strategy; default
`tactician`).  A candidate's value is the mean result of its simulations
(win 1, draw 1/2, loss 0, plus a small share of the final VP margin, which
separates options that win or lose by different amounts).

* **Paired worlds.**  Every candidate is played in the same worlds with the
  same random streams, so two options are compared on the same hidden cards:
  their difference has far less noise than their values.
* **Sequential halving** (Karnin et al. 2013) spends the budget in rounds;
  after each the better half of the candidates plays on.  The budget is a
  number of simulations per decision (one candidate in one world), never a
  time, so a seed always gives the same game.
* **A prior for STEP.**  A turn offers up to 60 placements and actions; the
  candidates are the ``width`` best by the tactician's own scores
  (``weighted.step_scores`` with `tactician`'s weights), ending the turn included when it is legal.
* The initial placement (R2.5), the castling split and the passive discard
  are left to the rollout policy: measured, searching them changed little for
  their cost (see strategies/README.md).

Everything it reads is the player's observation (``pub``, ``own``, ``mem``,
the options): the worlds are built from it alone.  Parameters (a TOML file
with ``family = "expert"`` sets them; ``strategies/params/expert-*.toml``):
``budget``, ``rollout`` (a strategy name), ``width``, ``margin``, ``kinds``.
"""
import math

import numpy as np

from ccsim.toolchain.jit import njit, stack_array
from ccsim.kernel import slots
from ccsim.kernel.decisions import MODE, STEP, VETO, SPY_PICK, DRAW, VETO_DRAW, T_END, step_type
from ccsim.kernel.layout import (BASE_SIZE, PUB, PUB_SIZE, PRIV_SIZE, MEM_SIZE, OPTS, MAX_OPTIONS, MAX_PARAMS, P_ENTRY,
                          N_RNG, PUB_END, H_SID, H_ACTION_EV, H_BONUS, H_NLOG, H_LOG_CAP, H_REPLAY,
                          priv_at, mem_at)
from ccsim.kernel.rng import next_u64_nb, seed_game_nb
from ccsim.kernel.engine.determinize import sample_hidden_nb
from ccsim.kernel.engine.dispatch import choose_with_nb
from ccsim.kernel.engine.step import drive_nb, drive_turns_nb, resolve_nb
from ccsim.kernel.engine.score import winner_nb, vp_nb
from strategies.heuristics.layouts import N_ROWS, PARAM_NAMES
from strategies.search.leaf import N_LEAF, leaf_value_nb, leaf_weights
from strategies.learned import MAX_FEATURES
from strategies.neural import NET, position_value_nb, rate_options_nb
from strategies.neural.inputs import kind_column
from strategies.family import Family, Player
from strategies.param_files import PARAMS_DIR, ParamFileError, read_toml, refuse_stray_keys, table
from strategies.heuristics.styles import style_id, style_vector
from strategies.heuristics.weighted import step_scores

NAME = "expert"
ID = 9  # its kernel id: stable (parameter vectors and dispatch hold it); unique among the strategies
FAMILY = "search"
DESCRIPTION = "search: determinized Monte Carlo on the engine, paired worlds, tactician rollouts (budget 64)"

# the parameter vector (float64[MAX_PARAMS]); P_ENTRY, the last slot, is the engine's
SEARCH_SCALARS = (
    ("BUDGET", (), "simulations per decision"),
    ("ROLLOUT", (), "the rollout policy's strategy id (both seats of every simulation)"),
    ("ROLLOUT_ENTRY", (), "its compiled entry's address, bit for bit (registry.resolve fills it)"),
    ("WIDTH", (), "STEP candidates kept from the prior"),
    ("MARGIN", (), "weight of the final VP margin (per 10 VP, clipped to +-1) in a simulation's value"),
    ("KINDS", (), "bit k set: decision kind k is searched"),
    ("Z", (), "standard errors by which an option must beat the policy's choice to replace it"),
    ("DEPTH", (), "turns a simulation plays before the leaf value judges it (strategies.search.leaf); 0: to the end"),
    ("OPPONENT", (), "1 + the strategy id the simulations play the opponent's seat with (a model of her); 0: the rollout's"),
    ("OPPONENT_ENTRY", (), "that strategy's compiled entry (registry.localized)"),
    ("SEER", (), "1: the search sees the hidden cards (the headroom's measuring device, strategies.search.seer); 0: it samples them"),
    ("PRIOR", (), "0: the tactician's scores pick the STEP candidates; 1: the value network's ratings pick every kind's"),
    ("LEAF_NET", (), "1: the value network's rating of the position judges a cut-off simulation; 0: the logistic leaf"),
)
# the slots left after the scalars and the leaf's weights hold two policies' vectors
N_ROLLOUT_PARAMS = (P_ENTRY - len(SEARCH_SCALARS) - N_LEAF) // 2
SEARCH_TABLE = SEARCH_SCALARS + (
    ("LEAF", (N_LEAF,), "the leaf value's weights (strategies.search.leaf.LEAF_FEATURES)"),
    ("ROLLOUT_PARAMS", (N_ROLLOUT_PARAMS,), "the rollout policy's own parameter vector (expert_params)"),
    ("OPPONENT_PARAMS", (N_ROLLOUT_PARAMS,), "the opponent model's parameter vector"),
)
SEARCH_SLOTS, _end = slots.place(SEARCH_TABLE, "P_")
N_PARAMS = SEARCH_SLOTS["P_ROLLOUT_PARAMS"]  # the search's own slots
# --- slots of search: generated from its table (ccsim.kernel.slots), held by tests/test_slots.py ---
P_BUDGET = 0
P_ROLLOUT = 1
P_ROLLOUT_ENTRY = 2
P_WIDTH = 3
P_MARGIN = 4
P_KINDS = 5
P_Z = 6
P_DEPTH = 7
P_OPPONENT = 8
P_OPPONENT_ENTRY = 9
P_SEER = 10
P_PRIOR = 11
P_LEAF_NET = 12
P_LEAF = 13
P_ROLLOUT_PARAMS = 25
P_OPPONENT_PARAMS = 140
# --- end of the slots of search ---
slots.hold(globals(), SEARCH_SLOTS, "search")
assert _end <= P_ENTRY

# the prior's weights: `tactician`'s (strategies/params/tactician.toml; frozen into the compiled search)
PRIOR = style_vector("tactician")

SEARCHED = (1 << MODE) | (1 << STEP) | (1 << VETO) | (1 << SPY_PICK) | (1 << DRAW) | (1 << VETO_DRAW)
KIND_NAMES = ("placement", "mode", "step", "veto", "spy_pick", "castle", "draw", "veto_draw", "discard")

PRIORS = ("tactician", "neural")          # what picks the candidates (P_PRIOR)
LEAF_VALUES = ("logistic", "neural")     # what judges a cut-off simulation (P_LEAF_NET)
DEFAULTS = {"budget": 64, "rollout": "tactician", "width": 6, "margin": 0.1, "z": 1.0, "depth": 0, "opponent": "",
            "prior": "tactician", "leaf_value": "logistic",
            "kinds": ["mode", "step", "veto", "spy_pick", "draw", "veto_draw"]}
# the default rollout policy's kernel id (its style file's `id`)
DEFAULT_ROLLOUT_ID = style_id(PARAMS_DIR / f"{DEFAULTS['rollout']}.toml",
                              read_toml(PARAMS_DIR / f"{DEFAULTS['rollout']}.toml"))

_state_nb = stack_array(np.int32, (BASE_SIZE,), zeroed=False)
_seats_nb = stack_array(np.float64, (2, MAX_PARAMS))
_streams_nb = stack_array(np.uint64, (N_RNG,))
_scores_nb = stack_array(np.float64, (MAX_OPTIONS,), zeroed=False)
_values_nb = stack_array(np.float64, (MAX_OPTIONS,))
_values2_nb = stack_array(np.float64, (MAX_OPTIONS,))
_counts_nb = stack_array(np.int64, (MAX_OPTIONS,))
_alive_nb = stack_array(np.int64, (MAX_OPTIONS,), zeroed=False)
_policy_params_nb = stack_array(np.float64, (MAX_PARAMS,))
_leaf_x_nb = stack_array(np.float64, (N_LEAF,))
_mem_nb = stack_array(np.int32, (MEM_SIZE,), zeroed=False)
_ratings_nb = stack_array(np.float32, (MAX_OPTIONS,), zeroed=False)
_tables_nb = stack_array(np.float64, (N_ROWS, 6), zeroed=False)
_features_nb = stack_array(np.float64, (MAX_OPTIONS, MAX_FEATURES), zeroed=False)


def search_settings(search: dict, where: str) -> dict:
    """The settings of a ``[search]`` table (keys of DEFAULTS; the rest keep their defaults), each
    checked, with ``kinds`` as its bit mask; ParamFileError names a bad key or value.  The rollout
    and opponent are names for the registry to look up."""
    cfg = dict(DEFAULTS)
    for k, v in search.items():
        if k not in cfg:
            raise ParamFileError(f"{where}: unknown search parameter {k!r} (known: {', '.join(cfg)})")
        cfg[k] = v
    for k, lo in (("budget", 1), ("width", 1), ("depth", 0)):
        if isinstance(cfg[k], bool) or not isinstance(cfg[k], int) or not lo <= cfg[k] <= (1 << 20):
            raise ParamFileError(f"{where}: {k} must be an integer {lo} .. {1 << 20}, got {cfg[k]!r}")
    for k, hi in (("margin", 1), ("z", 10)):
        if isinstance(cfg[k], bool) or not isinstance(cfg[k], (int, float)) or not 0 <= cfg[k] <= hi:
            raise ParamFileError(f"{where}: {k} must be a number in 0 .. {hi}, got {cfg[k]!r}")
    for k, known in (("prior", PRIORS), ("leaf_value", LEAF_VALUES)):
        if cfg[k] not in known:
            raise ParamFileError(f"{where}: {k} must be one of {', '.join(known)}, got {cfg[k]!r}")
    cfg["kinds"] = _kinds_mask(cfg["kinds"], where)
    return cfg


def _kinds_mask(names, where: str) -> int:
    kinds = 0
    for name in names:
        if name not in KIND_NAMES:
            raise ParamFileError(f"{where}: unknown decision kind {name!r} (known: {', '.join(KIND_NAMES)})")
        kinds |= 1 << KIND_NAMES.index(name)
    return kinds


assert _kinds_mask(DEFAULTS["kinds"], "DEFAULTS") == SEARCHED


def params_of(budget=DEFAULTS["budget"], rollout_id=DEFAULT_ROLLOUT_ID, width=DEFAULTS["width"],
              margin=DEFAULTS["margin"], kinds=SEARCHED, z=DEFAULTS["z"], rollout_params=None, depth=DEFAULTS["depth"],
              leaf=None, opponent_id=None, opponent_params=None, network=(False, False)) -> np.ndarray:
    """The search's parameter vector; ``rollout_params``: the rollout policy's own vector (its
    entry slot aside), which every simulation's seats play with; ``depth`` and ``leaf``: turns a
    simulation plays before the leaf value with those weights judges it (0: to the end);
    ``opponent_id``/``opponent_params``: the strategy the simulations play her seat with;
    ``network``: (the value network picks the candidates, the value network judges the leaves)."""
    v = np.zeros(MAX_PARAMS, np.float64)
    v[P_BUDGET], v[P_ROLLOUT], v[P_WIDTH], v[P_MARGIN], v[P_KINDS], v[P_Z] = budget, rollout_id, width, margin, kinds, z
    v[P_DEPTH] = depth
    v[P_PRIOR], v[P_LEAF_NET] = (1.0 if x else 0.0 for x in network)
    if leaf is not None:
        v[P_LEAF:P_LEAF + N_LEAF] = leaf
    _put_vector(v, P_ROLLOUT_PARAMS, rollout_params)
    if opponent_id is not None:
        v[P_OPPONENT] = opponent_id + 1
        _put_vector(v, P_OPPONENT_PARAMS, opponent_params)
    return v


def _put_vector(v, at, params) -> None:
    """A policy's parameter vector (its entry slot aside) into the block at ``at``."""
    if params is None:
        return
    p = np.asarray(params, np.float64)[:P_ENTRY]
    assert not p[N_ROLLOUT_PARAMS:].any(), "a policy's parameters do not fit the search's vector"
    v[at:at + N_ROLLOUT_PARAMS] = p[:N_ROLLOUT_PARAMS]


@njit(cache=True)
def rollout_seat_nb(params, seat):
    """A simulation seat: the rollout policy's parameters and entry, from the search's vector."""
    for j in range(N_ROLLOUT_PARAMS):
        seat[j] = params[P_ROLLOUT_PARAMS + j]
    seat[P_ENTRY] = params[P_ROLLOUT_ENTRY]


@njit(cache=True)
def simulation_seats_nb(params, me, seats, root):
    """Both seats of the simulations: ``me`` plays the rollout policy, her seat the opponent model
    if the search has one (``P_OPPONENT``), else the rollout policy too; their ids into ``root``."""
    sid = int(params[P_ROLLOUT])
    rollout_seat_nb(params, seats[me])
    root[H_SID + me] = sid
    o = 1 - me
    if params[P_OPPONENT] > 0:
        for j in range(N_ROLLOUT_PARAMS):
            seats[o, j] = params[P_OPPONENT_PARAMS + j]
        seats[o, P_ENTRY] = params[P_OPPONENT_ENTRY]
        root[H_SID + o] = int(params[P_OPPONENT]) - 1
    else:
        rollout_seat_nb(params, seats[o])
        root[H_SID + o] = sid


@njit(cache=True)
def observed_state_nb(pub, own, mem, opts, n, me, root):
    """A state holding exactly what player ``me`` sees (the rest zero), at this decision."""
    for i in range(BASE_SIZE):
        root[i] = 0
    for i in range(PUB_SIZE):
        root[PUB + i] = pub[i]
    b = priv_at(me)
    for i in range(PRIV_SIZE):
        root[b + i] = own[i]
    m = mem_at(me)
    for i in range(MEM_SIZE):
        root[m + i] = mem[i]
    for i in range(n):
        root[OPTS + i] = opts[i]
    root[H_ACTION_EV] = -1  # no event log in a simulation


@njit(cache=True)
def simulate_nb(root, sim, streams, seats, me, code, world_seed, world, params, x):
    """One simulation: world ``world`` sampled for ``me``, option ``code`` taken, then the rollout
    policy to the end (or ``P_DEPTH`` turns, then the leaf value); its value for ``me``: the result
    (win 1, draw 1/2) plus ``P_MARGIN`` x her VP margin (per 10 VP, clipped to +-1)."""
    for i in range(BASE_SIZE):
        sim[i] = root[i]
    seed_game_nb(streams, world_seed, world)
    if params[P_SEER] == 0.0:
        sample_hidden_nb(sim, me, streams, 0)
    resolve_nb(sim, streams, code)
    depth = int(params[P_DEPTH])
    if depth > 0:
        drive_turns_nb(sim, streams, seats, depth)
    else:
        drive_nb(sim, streams, seats)
    if sim[PUB_END] < 0:
        return 0.5  # (an engine error: never expected; counted neutral)
    if sim[PUB_END] == 0 and params[P_LEAF_NET] != 0.0:  # cut off: the network's value of the position
        b = priv_at(me)
        v = 1.0 / (1.0 + math.exp(-position_value_nb(NET, sim[PUB:PUB + PUB_SIZE], sim[b:b + PRIV_SIZE], me)))
    elif sim[PUB_END] == 0:  # cut off: the leaf value
        v = leaf_value_nb(sim, me, params, P_LEAF, x)
    else:
        w = winner_nb(sim)
        v = 0.5 if w < 0 else (1.0 if w == me else 0.0)
    d = (vp_nb(sim, sim[H_BONUS + me], me) - vp_nb(sim, sim[H_BONUS + 1 - me], 1 - me)) / 10.0
    if d > 1.0:
        d = 1.0
    elif d < -1.0:
        d = -1.0
    return v + params[P_MARGIN] * d


@njit(cache=True)
def candidates_nb(params, kind, opts, n, pub, own, mem, me, alive):
    """The options worth a simulation: all of them, or for STEP the ``width`` best by the
    tactician's scores (ending the turn included where legal).  Returns how many."""
    width = int(params[P_WIDTH])
    network = params[P_PRIOR] != 0.0 and kind_column(kind) >= 0
    if n <= width or (kind != STEP and not network):
        for i in range(n):
            alive[i] = i
        return n
    scores = _scores_nb()
    if network:
        network_scores_nb(kind, opts, n, pub, own, mem, me, scores)
    else:
        step_scores(PRIOR, pub, own, mem, me, opts, n, scores)
        for i in range(n):
            if step_type(opts[i]) == T_END:
                scores[i] = 1e17  # always weighed: stopping is often right
    k = 0
    for _ in range(width):  # a partial selection sort: the best first, ties by index
        best = -1
        for i in range(n):
            if scores[i] > -1e18 and (best < 0 or scores[i] > scores[best]):
                best = i
        if best < 0:
            break
        alive[k] = best
        scores[best] = -1e19
        k += 1
    return k


@njit(cache=True)
def network_scores_nb(kind, opts, n, pub, own, mem, me, scores):
    """The value network's rating of its candidates into ``scores``, the other options ruled out
    (on a copy of her memory: the prior must not change what the player keeps)."""
    mem_copy = _mem_nb()
    for j in range(MEM_SIZE):
        mem_copy[j] = mem[j]
    q = _ratings_nb()
    alive = _alive_nb()
    m = rate_options_nb(NET, kind, opts, n, pub, own, mem_copy, me, _tables_nb(), _features_nb(), q, alive)
    for i in range(n):
        scores[i] = -1e19
    for j in range(m):
        scores[alive[j]] = q[alive[j]]


@njit(cache=True)
def search_nb(params, kind, opts, n, pub, own, mem, me, rng):
    """Sequential halving over the candidates, every one in the same sampled worlds as the
    rollout policy's own choice, which stays in to the end: an option replaces it only if
    it beats it, world by world, by ``P_Z`` standard errors."""
    diff = _values_nb()      # per option: sum of (its value - the policy's) over shared worlds
    diff2 = _values2_nb()    # ... and of its square
    counts = _counts_nb()
    return search_stats_nb(params, kind, opts, n, pub, own, mem, me, rng, diff, diff2, counts)


@njit(cache=True)
def search_stats_nb(params, kind, opts, n, pub, own, mem, me, rng, diff, diff2, counts):
    """``search_nb``'s choice, leaving its statistics in the zeroed arrays ``diff``, ``diff2`` and
    ``counts`` (per option: the sum of its value minus the policy's choice's over the worlds it
    was played in, of its square, and the worlds; the policy's choice and the options never
    simulated have count 0).  The training reads them (``ccsim.training.selfplay``)."""
    root = _state_nb()
    observed_state_nb(pub, own, mem, opts, n, me, root)
    return search_root_nb(params, kind, opts, n, pub, own, mem, me, rng, diff, diff2, counts, root)


@njit(cache=True)
def search_root_nb(params, kind, opts, n, pub, own, mem, me, rng, diff, diff2, counts, root):
    """``search_stats_nb`` from the state ``root`` its worlds start from (what the player sees, or
    for the seer the whole state)."""
    sim = _state_nb()
    streams = _streams_nb()
    seats = _seats_nb()
    alive = _alive_nb()
    simulation_seats_nb(params, me, seats, root)
    pol = policy_choice_nb(params, kind, n, pub, own, mem, me, opts, rng, False)
    m = candidates_nb(params, kind, opts, n, pub, own, mem, me, alive)
    # the candidates other than the policy's choice
    k = 0
    for j in range(m):
        if alive[j] != pol:
            alive[k] = alive[j]
            k += 1
    m = k
    if m == 0:
        return pol
    world_seed = np.int64(next_u64_nb(rng, 0) >> np.uint64(1))
    m = halving_nb(params, root, sim, streams, seats, me, opts, pol, alive, m, world_seed, diff, diff2, counts)
    return significant_best_nb(params, pol, alive, m, diff, diff2, counts)


@njit(cache=True)
def halving_nb(params, root, sim, streams, seats, me, opts, pol, alive, m, world_seed, diff, diff2, counts):
    """Sequential halving (Karnin et al. 2013) of the ``m`` candidates ``alive`` against the
    policy's choice ``pol``, all in the same worlds; returns the candidates left (the first ones
    of ``alive``)."""
    budget = int(params[P_BUDGET])
    x = _leaf_x_nb()
    rounds = 1
    k = 1
    while k < m:
        rounds += 1
        k *= 2
    world = 0
    used = 0
    while used < budget:
        per = (budget // rounds) // (m + 1)
        if per < 1:
            per = 1
        for _ in range(per):
            base = simulate_nb(root, sim, streams, seats, me, opts[pol], world_seed, world, params, x)
            used += 1
            for j in range(m):
                i = alive[j]
                d = simulate_nb(root, sim, streams, seats, me, opts[i], world_seed, world, params, x) - base
                diff[i] += d
                diff2[i] += d * d
                counts[i] += 1
                used += 1
            world += 1
        if m == 1:
            continue
        keep = (m + 1) // 2  # the better half by mean difference (ties: the prior's order)
        for a in range(keep):
            best = a
            for b in range(a + 1, m):
                if diff[alive[b]] * counts[alive[best]] > diff[alive[best]] * counts[alive[b]]:
                    best = b
            t = alive[a]
            alive[a] = alive[best]
            alive[best] = t
        m = keep
    return m


@njit(cache=True)
def significant_best_nb(params, pol, alive, m, diff, diff2, counts):
    """The best of the ``m`` candidates left if it beats the policy's choice by ``P_Z`` standard
    errors, else the policy's choice."""
    best = alive[0]
    for j in range(1, m):
        if diff[alive[j]] * counts[best] > diff[best] * counts[alive[j]]:
            best = alive[j]
    c = counts[best]
    if c < 2:
        return pol
    mean = diff[best] / c
    var = (diff2[best] - c * mean * mean) / (c - 1)
    if mean > 0.0 and mean * mean * c > params[P_Z] * params[P_Z] * (var if var > 1e-12 else 1e-12):
        return best
    return pol


@njit(cache=True)
def policy_choice_nb(params, kind, n, pub, own, mem, me, opts, rng, keep):
    """The rollout policy's choice here, from a state of what the player sees; with ``keep``
    (a decision the search leaves to it) her memory and stream come back as the policy left
    them."""
    root = _state_nb()
    observed_state_nb(pub, own, mem, opts, n, me, root)
    streams = _streams_nb()
    streams[1 + me] = rng[0]  # her own stream, as the policy would use it
    seat = _policy_params_nb()
    rollout_seat_nb(params, seat)
    i = choose_with_nb(root, streams, np.int64(params[P_ROLLOUT]), seat, me, kind, n)
    if keep:
        rng[0] = streams[1 + me]
        m = mem_at(me)
        for j in range(MEM_SIZE):
            mem[j] = root[m + j]
    return i


@njit(cache=True)
def choose_expert_nb(params, kind, opts, n, pub, own, mem, me, rng):
    kinds = int(params[P_KINDS])
    if (kinds >> kind) & 1 == 0 or params[P_BUDGET] < 2:
        return policy_choice_nb(params, kind, n, pub, own, mem, me, opts, rng, True)
    return search_nb(params, kind, opts, n, pub, own, mem, me, rng)


@njit(cache=True)
def choose_seer_nb(params, kind, opts, n, pub, st, mem, me, rng):
    """The search that sees the hidden cards (``strategies.search.seer``): handed the whole state ``st``
    in place of her private block, it plays its worlds from the real position."""
    own = st[priv_at(me):priv_at(me) + PRIV_SIZE]
    kinds = int(params[P_KINDS])
    if (kinds >> kind) & 1 == 0 or params[P_BUDGET] < 2:
        return policy_choice_nb(params, kind, n, pub, own, mem, me, opts, rng, True)
    root = _state_nb()
    for i in range(BASE_SIZE):
        root[i] = st[i]
    root[H_ACTION_EV] = -1  # no event log in a simulation
    root[H_NLOG] = 0        # nor the recording's log and record: a world of a recorded game must not
    root[H_LOG_CAP] = 0     # write its events past its end (it hung `ccsim run --record` with the seer)
    root[H_REPLAY] = 0
    diff = _values_nb()
    diff2 = _values2_nb()
    counts = _counts_nb()
    return search_root_nb(params, kind, opts, n, pub, own, mem, me, rng, diff, diff2, counts, root)


CHOOSE = choose_expert_nb  # what the registry compiles into this strategy's entry


def expert_params(socket, search: dict, where: str = "expert", leaf: dict | None = None) -> np.ndarray:
    """The `expert` parameter vector of a ``[search]`` table (``search_settings``) and a ``[leaf]``
    table (the leaf value's weights by feature name, ``strategies.search.leaf.leaf_weights``), the
    players it names found through ``socket`` (strategies.registry); ParamFileError names a bad
    key or value, or a rollout or opponent that is no plain player."""
    cfg = search_settings(search, where)
    rollout, rollout_params = _plain_player(socket, cfg["rollout"], where, "rollout", "the rollout policy")
    opponent = opponent_params = None
    if cfg["opponent"]:
        opponent, opponent_params = _plain_player(socket, cfg["opponent"], where, "opponent", "the opponent model")
    network = (cfg["prior"] == "neural", cfg["leaf_value"] == "neural")
    return params_of(cfg["budget"], rollout, cfg["width"], float(cfg["margin"]), cfg["kinds"], float(cfg["z"]),
                     rollout_params, cfg["depth"], leaf_weights(leaf or {}, where), opponent,
                     opponent_params, network)


def _plain_player(socket, name, where: str, key: str, role: str):
    """(id, parameters) of the player ``name`` a search plays inside its simulations: not a search."""
    try:
        sid, params = socket.lookup(name)
    except KeyError as e:
        raise ParamFileError(f"{where}: {key}: {e.args[0]}") from None
    if socket.searches(sid):
        raise ParamFileError(f"{where}: {role} cannot be a search player")
    return sid, params


def entries_called(params) -> tuple:
    """(slot, id) of the players whose entries the search calls: its rollout policy and its opponent model."""
    called = ((P_ROLLOUT_ENTRY, int(params[P_ROLLOUT])),)
    if params[P_OPPONENT] > 0:
        called += ((P_OPPONENT_ENTRY, int(params[P_OPPONENT]) - 1),)
    return called


FILE_KEYS = {"description", "family", "search", "leaf"}


def _load(path, data: dict, socket) -> np.ndarray:
    refuse_stray_keys(path, data, FILE_KEYS, PARAM_NAMES)
    where = f"parameter file {path}"
    return expert_params(socket, table(path, data, "search"), where, table(path, data, "leaf"))


def _file_player(path, data: dict, params) -> Player:
    """A search file of strategies/params: ``<stem>``, the expert's id and search."""
    return Player(path.stem, ID, data.get("description", f"expert with {path.name}"), CHOOSE, params, path=str(path))


# the players its parameters name (the rollout policy, the opponent model): registered before it
NEEDS = ("baseline", "weighted", "heuristic", "learned")
FAMILIES = (Family(FAMILY, (Player(NAME, ID, DESCRIPTION, CHOOSE, lambda socket: expert_params(socket, {})),),
                   files="expert", load=_load,
                   file_player=_file_player, file_id=ID, needs=NEEDS, searches=True, calls=entries_called),)

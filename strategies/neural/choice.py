"""The neural player's choice: the candidates rated by the value network, the best played where it is rated
clearly above the tactician's, and the position's value the search reads."""
import numpy as np

from ccsim.kernel.decisions import MODE, STEP, VETO, SPY_PICK
from ccsim.kernel.layout import MAX_OPTIONS
from ccsim.toolchain.jit import njit, stack_array
from strategies.learned import (BASE, MAX_FEATURES, STEP_FEATURES, MODE_FEATURES, VETO_FEATURES, DRAW_FEATURES,
                               SPY_FEATURES, decision_features_nb)
from strategies.heuristics.layouts import N_ROWS
from strategies.neural.inputs import N_OBS, N_OPT, encode_obs_nb, encode_option_nb, kind_column
from strategies.neural.model import (H1, H2, N_HEADS, WIN, MARGIN as MARGIN_HEAD, obs_layer_nb,
                                     option_value_nb, state_value_nb)
from strategies.heuristics.scoring import must_be_active
from strategies.heuristics.tables import keep_step_tables
from strategies.heuristics.weighted import policy_nb
from strategies.neural.weights import shipped_weights

STEP_NAMES = tuple(f for f, _ in STEP_FEATURES)
WIDTH = 6  # STEP options the network chooses among: the tactician's best and ending the turn
F_SCORE, F_BLOCKED, F_END = (STEP_NAMES.index(f) for f in ("score", "blocked", "end"))
# the `tactician` column of each kind's features: 1 on the tactician's choice (MODE: on passive, VETO: on veto)
STEP_TACTICIAN, MODE_TACTICIAN, VETO_TACTICIAN, DRAW_TACTICIAN, SPY_TACTICIAN = (
    [f for f, _ in table].index("tactician")
    for table in (STEP_FEATURES, MODE_FEATURES, VETO_FEATURES, DRAW_FEATURES, SPY_FEATURES))

NET, MARGIN = shipped_weights()

_tables_nb = stack_array(np.float64, (N_ROWS, 6), zeroed=False)
_features_nb = stack_array(np.float64, (MAX_OPTIONS, MAX_FEATURES), zeroed=False)
_obs_nb = stack_array(np.uint8, (N_OBS,), zeroed=False)
_opt_nb = stack_array(np.float32, (N_OPT,), zeroed=False)
_h0_nb = stack_array(np.float32, (H1,), zeroed=False)
_h1_nb = stack_array(np.float32, (H1,), zeroed=False)
_h2_nb = stack_array(np.float32, (H2,), zeroed=False)
_out_nb = stack_array(np.float32, (N_HEADS,), zeroed=False)
_q_nb = stack_array(np.float32, (MAX_OPTIONS,), zeroed=False)
_alive_nb = stack_array(np.int64, (MAX_OPTIONS,), zeroed=False)


@njit(cache=True)
def rate_options_nb(net, kind, opts, n, pub, own, mem, me, T, F, q, alive):
    """The candidates (``candidates_nb``) into ``alive`` and their ratings (win + margin heads) into
    ``q`` (by option index), the tables into ``T`` and the option features into ``F``; returns how
    many candidates.  Writes the player's memory as her tables keep it."""
    k = decision_features_nb(kind, opts, n, pub, own, mem, me, T, F)
    m = candidates_nb(kind, F, n, alive)
    obs = _obs_nb()
    encode_obs_nb(pub, own, me, obs)
    h0 = _h0_nb()
    y = _opt_nb()
    h1 = _h1_nb()
    h2 = _h2_nb()
    out = _out_nb()
    obs_layer_nb(net, obs, h0)
    for j in range(m):
        i = alive[j]
        encode_option_nb(kind, opts[i], F, i, k, y)
        option_value_nb(net, h0, y, h1, h2, out)
        q[i] = out[WIN] + out[MARGIN_HEAD]  # the advantage in win chance plus in VP / 10: both learned
    return m


@njit(cache=True)
def candidates_nb(kind, F, n, alive):
    """The options the network chooses among, into ``alive``; returns how many.  Every option,
    but at a STEP only the ``WIDTH`` best by the tactician's score and ending the turn: the network
    rates options well where its data are (its games' choices and their near rivals), and a
    maximum over 40 noisy ratings picks the noise (as the search's prior does, strategies.search.expert)."""
    if kind != STEP or n <= WIDTH:
        for i in range(n):
            alive[i] = i
        return n
    m = 0
    for i in range(n):
        if F[i, F_END] > 0.0:
            alive[m] = i
            m += 1
    for _ in range(WIDTH):  # a partial selection sort by score, ties by index; ruled-out options never
        best = -1
        for i in range(n):
            if F[i, F_BLOCKED] == 0.0 and F[i, F_END] == 0.0 and not taken(alive, m, i):
                if best < 0 or F[i, F_SCORE] > F[best, F_SCORE]:
                    best = i
        if best < 0:
            break
        alive[m] = best
        m += 1
    return m


@njit(cache=True)
def taken(alive, m, i):
    for j in range(m):
        if alive[j] == i:
            return True
    return False


@njit(cache=True)
def best_of(q, alive, m, anchor, margin):
    """The candidate of the highest rating (the first of equals) if it is rated ``margin`` above the
    tactician's choice ``anchor``, else the anchor: a rating learned from noisy outcomes errs by a
    little everywhere, and a move away from a good heuristic must be worth its risk."""
    best = alive[0]
    for j in range(1, m):
        if q[alive[j]] > q[best]:
            best = alive[j]
    if anchor >= 0 and not q[best] - q[anchor] > margin:
        return anchor
    return best


@njit(cache=True)
def tactician_pick(kind, F, n):
    """The tactician's choice, read off the learned features' `tactician` columns (-1: none)."""
    if n < 2:  # (never asked in a game: a single option is taken without asking)
        return 0
    if kind == MODE:
        return 0 if F[0, MODE_TACTICIAN] > 0.0 else 1
    if kind == VETO:
        return 1 if F[1, VETO_TACTICIAN] > 0.0 else 0
    col = STEP_TACTICIAN if kind == STEP else (SPY_TACTICIAN if kind == SPY_PICK else DRAW_TACTICIAN)
    for i in range(n):
        if F[i, col] > 0.0:
            return i
    return -1


@njit(cache=True)
def position_value_nb(net, pub, own, me):
    """The network's win logit of the position itself, for player ``me`` (a search's leaf value)."""
    obs = _obs_nb()
    h0 = _h0_nb()
    h1 = _h1_nb()
    h2 = _h2_nb()
    out = _out_nb()
    encode_obs_nb(pub, own, me, obs)
    obs_layer_nb(net, obs, h0)
    return state_value_nb(net, h0, h1, h2, out)


@njit(cache=True)
def network_choice_nb(net, margin, kind, opts, n, pub, own, mem, me, rng):
    """The policy of any weights ``net`` and rating ``margin``: the network where it decides, the
    tactician elsewhere."""
    if kind_column(kind) < 0:
        return policy_nb(BASE, kind, opts, n, pub, own, mem, me, rng)
    if kind == MODE and must_be_active(pub, me):  # a passive turn would stall the game (R9.4) or draw nothing
        return n - 1
    T = _tables_nb()
    F = _features_nb()
    q = _q_nb()
    alive = _alive_nb()
    m = rate_options_nb(net, kind, opts, n, pub, own, mem, me, T, F, q, alive)
    i = best_of(q, alive, m, tactician_pick(kind, F, n), margin)
    keep_step_tables(kind, pub, mem, me, T, opts[i])
    return i


@njit(cache=True)
def choose_neural_nb(params, kind, opts, n, pub, own, mem, me, rng):
    return network_choice_nb(NET, MARGIN, kind, opts, n, pub, own, mem, me, rng)

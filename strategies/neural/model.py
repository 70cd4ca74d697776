"""The value network: a small MLP, one flat float32 vector of weights, and its compiled forward.

``Q(observation, option) -> (win logit, VP margin)``: two hidden layers of rectified units over
the inputs of ``strategies.neural.inputs``.  The first layer is split the way a decision uses it:
the observation's part is computed once per decision (``obs_layer_nb``), each option then adds
its own columns (``option_value_nb``), so a decision of 30 options costs one observation and 30
small option passes.  Both parts skip zero inputs (most of them: counts of cards that are not
there, one-hots).

The weights are one flat vector laid out by ``NET_TABLE`` (``W1`` rows are inputs: a row is added
whole, which the compiler vectorises), so the same compiled functions serve the shipped player
(its weights frozen into the code) and the training (any weights, as an argument).
"""
import numpy as np

from ccsim.kernel import slots
from ccsim.toolchain.jit import njit, stack_array
from strategies.neural.inputs import N_OBS, N_OPT, N_INPUTS, OBS_SCALE, Y_KIND, STATE_KIND

H1 = 64  # hidden units of the first layer
H2 = 32  # ... and of the second
N_HEADS = 2  # the win logit (P(win), a draw counting half) and the VP margin / 10
WIN, MARGIN = 0, 1

NET_TABLE = (
    ("W1", (N_INPUTS, H1), "[input, unit] first layer (observation rows, then option rows)"),
    ("B1", (H1,), "first layer's biases"),
    ("W2", (H1, H2), "[unit, unit] second layer"),
    ("B2", (H2,), "second layer's biases"),
    ("W3", (H2, N_HEADS), "[unit, head] the heads"),
    ("B3", (N_HEADS,), "the heads' biases"),
)
NET_SLOTS, N_WEIGHTS = slots.place(NET_TABLE, "N_")
# --- slots of net: generated from its table (ccsim.kernel.slots), held by tests/test_slots.py ---
N_W1 = 0
N_B1 = 22400
N_W2 = 22464
N_B2 = 24512
N_W3 = 24544
N_B3 = 24608
# --- end of the slots of net ---
slots.hold(globals(), NET_SLOTS, "net")
SCALE = OBS_SCALE  # frozen into the compiled code

# Weights nearer zero than this are zero.  Weight decay drives the weights of inputs that training
# never moves toward zero, down into float32's subnormal range (below 1.2e-38), and a product with a
# subnormal runs through a slow microcode path on many processors (about 8x slower a game on an Intel
# Xeon).  Such a weight times any input (at most a few hundred, scaled) is far below a bias's float32
# resolution, so flushing changes no rating that decides a move (the shipped player's games are held
# identical by tests/test_neural.py).
WEIGHT_FLOOR = 1e-20


def initial_weights(seed: int) -> np.ndarray:
    """He-initialised weights (zero biases) from ``seed``: the training's starting point."""
    rng = np.random.default_rng(seed)
    w = np.zeros(N_WEIGHTS, np.float32)
    for name, shape, _ in NET_TABLE:
        if name.startswith("W"):
            at = NET_SLOTS["N_" + name]
            w[at:at + shape[0] * shape[1]] = (rng.standard_normal(shape) * np.sqrt(2.0 / shape[0])).ravel()
    return w


def flush_tiny(w: np.ndarray) -> np.ndarray:
    """``w`` as float32 with every weight of magnitude below ``WEIGHT_FLOOR`` set to zero (a copy)."""
    w = np.array(w, np.float32)
    w[np.abs(w) < WEIGHT_FLOOR] = 0.0
    return w


def unpack(w: np.ndarray) -> dict:
    """{name: array of its shape} views of a flat weight vector."""
    return {name: w[NET_SLOTS["N_" + name]:NET_SLOTS["N_" + name] + slots.size_of(shape)].reshape(shape)
            for name, shape, _ in NET_TABLE}


def forward_numpy(w: np.ndarray, obs: np.ndarray, opt: np.ndarray) -> np.ndarray:
    """The plain NumPy forward (float64) of rows ``obs`` (uint8, N_OBS) and ``opt`` (N_OPT): the
    heads, one row each.  The reference the compiled forward is held to (tests/test_neural.py)."""
    p = {k: v.astype(np.float64) for k, v in unpack(w).items()}
    x = np.concatenate([obs.astype(np.float64) * SCALE, opt.astype(np.float64)], axis=1)
    h1 = np.maximum(x @ p["W1"] + p["B1"], 0.0)
    h2 = np.maximum(h1 @ p["W2"] + p["B2"], 0.0)
    return h2 @ p["W3"] + p["B3"]


# the sums of a layer run in a scratch array of the function's own (on its stack), copied out at the end: the
# compiler keeps it in registers across the rows, where it stored and reloaded a caller's array at every row
# (the same float32 sums in the same order)
_acc1_nb = stack_array(np.float32, (H1,), zeroed=False)
_acc2_nb = stack_array(np.float32, (H2,), zeroed=False)


@njit(cache=True)
def obs_layer_nb(net, obs, h0):
    """The first layer's pre-activation of the observation alone (biases included) into ``h0``."""
    acc = _acc1_nb()
    for j in range(H1):
        acc[j] = net[N_B1 + j]
    for i in range(N_OBS):
        if obs[i] != 0:
            v = np.float32(obs[i]) * SCALE[i]
            row = N_W1 + i * H1
            for j in range(H1):
                acc[j] += v * net[row + j]
    for j in range(H1):
        h0[j] = acc[j]


@njit(cache=True)
def heads_nb(net, h1, h2, out):
    """The second layer and the heads from the first layer's pre-activation ``h1``: ``out[WIN]``,
    ``out[MARGIN]``; returns the win logit."""
    acc = _acc2_nb()
    for k in range(H2):
        acc[k] = net[N_B2 + k]
    for j in range(H1):
        a = h1[j]
        if a > 0.0:
            row = N_W2 + j * H2
            for k in range(H2):
                acc[k] += a * net[row + k]
    for k in range(H2):
        h2[k] = acc[k]
    for m in range(N_HEADS):
        out[m] = net[N_B3 + m]
    for k in range(H2):
        a = h2[k]
        if a > 0.0:
            for m in range(N_HEADS):
                out[m] += a * net[N_W3 + k * N_HEADS + m]
    return out[WIN]


@njit(cache=True)
def option_value_nb(net, h0, y, h1, h2, out):
    """The heads for one option ``y`` (float32, N_OPT) given the observation's ``h0``: ``out[WIN]``,
    ``out[MARGIN]``; returns the win logit."""
    for j in range(H1):
        h1[j] = h0[j]
    for i in range(N_OPT):
        if y[i] != 0.0:
            v = y[i]
            row = N_W1 + (N_OBS + i) * H1
            for j in range(H1):
                h1[j] += v * net[row + j]
    return heads_nb(net, h1, h2, out)


@njit(cache=True)
def state_value_nb(net, h0, h1, h2, out):
    """``option_value_nb`` of the zero option of the ``state`` kind (``inputs.encode_state_option_nb``:
    a single input, 1.0, whose row is added as it is): the network's value of the position."""
    row = N_W1 + (N_OBS + Y_KIND + STATE_KIND) * H1
    for j in range(H1):
        h1[j] = h0[j] + net[row + j]
    return heads_nb(net, h1, h2, out)

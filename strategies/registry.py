"""The strategy registry: names to integer ids, and the compiled dispatch.

Adding a strategy is a new file under ``strategies/`` plus one line in
``_ENTRIES``; the engine never changes.

Every strategy has the signature
``choose(params, kind, opts, n, pub, own, mem, me, rng) -> index`` and sees
only its player's observation (``pub``, ``own``: views of the state's public
block and her private block), its own memory, its seat's parameters and its
own random stream (``rng[0]``).  See strategies/README.md.

How the engine reaches a strategy: each strategy is compiled on its own, on
first use, into a C-callable *entry* (a numba ``cfunc``, cached on disk), and
``resolve`` stores the entry's address in the last slot of the seat's
parameter vector (``P_ENTRY``).  ``choose_nb`` calls through that address.
So the engine is compiled once whatever the strategies, and a run compiles
only the strategies it plays: a cold ``ccsim run`` no longer compiles all of
them into every kernel.  (Passing the functions to the kernel as arguments
would miss numba's disk cache in every new process; DESIGN lesson 6.)

A *data-only* strategy is a TOML file of weights for the ``weighted`` family:
the files in ``strategies/params/`` are registered as ``weighted-<stem>``, and
``resolve`` accepts the path of any such file.
"""
import tomllib
import types as pytypes
from pathlib import Path
from types import SimpleNamespace

import numba
import numpy as np
from llvmlite import ir
from numba import cfunc, types
from numba.extending import intrinsic
from ccsim.jit import njit, pointer_array, whole_program

from ccsim.layout import PUB, PUB_SIZE, PRIV, PRIV_SIZE, OPTS, MEM, MEM_SIZE, H_SID, MAX_PARAMS, P_ENTRY, N_RNG
from ccsim.rng import below_nb
from strategies import greedy, random_play, weighted, majority, trickster, tactician, oracle, counter, defender
from strategies.features import PARAM_NAMES, N_PARAMS, P_VERSION
from strategies.random_play import choose_random_nb
from strategies.greedy import choose_greedy_nb
from strategies.weighted import choose_weighted_nb
from strategies.majority import choose_majority_nb
from strategies.trickster import choose_trickster_nb
from strategies.tactician import choose_tactician_nb
from strategies.oracle import choose_oracle_nb
from strategies.counter import choose_counter_nb
from strategies.defender import choose_defender_nb

RANDOM = 0
GREEDY = 1
WEIGHTED = 2
MAJORITY = 3
TRICKSTER = 4
TACTICIAN = 5
ORACLE = 6
COUNTER = 7
DEFENDER = 8

PARAMS_DIR = Path(__file__).resolve().parent / "params"


class ParamFileError(ValueError):
    """A parameter file that cannot be used (one line naming the problem)."""


PARAM_FILE_KEYS = {"description", "weights"}  # a weight outside [weights] would be silently ignored


def load_params(path) -> tuple[np.ndarray, dict]:
    """(parameter vector of MAX_PARAMS floats, the file's table) of a `weighted` TOML file.

    Weights not in the file keep their `balanced` value; an unknown weight name
    is an error.
    """
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise ParamFileError(f"cannot read parameter file {path}: {e.strerror}") from None
    except tomllib.TOMLDecodeError as e:
        raise ParamFileError(f"parameter file {path} is not valid TOML: {e}") from None
    stray = sorted(set(data) - PARAM_FILE_KEYS)
    if stray:
        hint = " (weights go in the [weights] table)" if stray[0] in PARAM_NAMES else ""
        raise ParamFileError(f"parameter file {path}: unknown top-level key {stray[0]!r}{hint}; "
                             f"top-level keys: {', '.join(sorted(PARAM_FILE_KEYS))}")
    weights = data.get("weights", {})
    if not isinstance(weights, dict):
        raise ParamFileError(f"parameter file {path}: [weights] must be a table")
    params = np.zeros(MAX_PARAMS, np.float64)
    params[:N_PARAMS] = weighted.BALANCED
    for k, v in weights.items():
        if k not in PARAM_NAMES or k == "version":
            raise ParamFileError(f"parameter file {path}: unknown weight {k!r} (known: {', '.join(PARAM_NAMES[1:])})")
        if not isinstance(v, (int, float)) or isinstance(v, bool):
            raise ParamFileError(f"parameter file {path}: weight {k!r} must be a number, got {v!r}")
        params[PARAM_NAMES.index(k)] = float(v)
    params[P_VERSION] = 1.0
    return params, data


def _param_entries():
    out = []
    for f in sorted(PARAMS_DIR.glob("*.toml")):
        params, data = load_params(f)
        out.append(SimpleNamespace(NAME=f"weighted-{f.stem}", FAMILY=weighted.FAMILY, PATH=str(f),
                                   DESCRIPTION=data.get("description", f"weighted with {f.name}"),
                                   DEFAULT_PARAMS=params))
    return tuple(out)


# (module or named parameter set, id, choose function): ids are stable; they are
# what the kernel sees.  Named parameter sets of a family share the family's id
# and function: their parameters differ.
_ENTRIES = (
    (random_play, RANDOM, choose_random_nb),
    (greedy, GREEDY, choose_greedy_nb),
    (weighted, WEIGHTED, choose_weighted_nb),
    (majority, MAJORITY, choose_majority_nb),
    (trickster, TRICKSTER, choose_trickster_nb),
    (tactician, TACTICIAN, choose_tactician_nb),
    (oracle, ORACLE, choose_oracle_nb),
    (counter, COUNTER, choose_counter_nb),
    (defender, DEFENDER, choose_defender_nb),
    *((e, WEIGHTED, choose_weighted_nb) for e in _param_entries()),
)
_CHOOSE = {sid: fn for _, sid, fn in _ENTRIES}
assert N_PARAMS <= P_ENTRY, "the parameter vector's last slot is the strategy entry"

NO_ENTRY = -2  # choose_nb's answer for a seat whose parameters carry no entry address


def observation_views(st, me, n):
    """(opts, pub, own, mem): views of what seat ``me`` may see at a decision of ``n`` options (R8.4).
    Interpreted dispatch only: compiled entries make the same slices in ``_entry_template``, where
    returning views would need numba's reference-counting runtime."""
    return (st[OPTS:OPTS + n], st[PUB:PUB + PUB_SIZE], st[PRIV + me * PRIV_SIZE:PRIV + (me + 1) * PRIV_SIZE],
            st[MEM + me * MEM_SIZE:MEM + (me + 1) * MEM_SIZE])


# The C signature of every strategy entry: (state, state length, streams, the
# seat's parameters, seat, decision kind, number of options) -> option index.
ENTRY_SIG = types.int64(types.CPointer(types.int32), types.int64, types.CPointer(types.uint64),
                        types.CPointer(types.float64), types.int64, types.int64, types.int64)


def _entry_template(st_p, n_st, rng_p, params_p, me, kind, n):
    # `choose` is bound per strategy by _compile_entry: a global, called directly
    # (numba caches neither closures nor code that holds a function as a value).
    # observation_views' slices, made here: the entry runs without NRT.
    st = pointer_array(st_p, n_st)
    return choose(pointer_array(params_p, MAX_PARAMS), kind, st[OPTS:OPTS + n], n,  # noqa: F821
                  st[PUB:PUB + PUB_SIZE], st[PRIV + me * PRIV_SIZE:PRIV + (me + 1) * PRIV_SIZE],
                  st[MEM + me * MEM_SIZE:MEM + (me + 1) * MEM_SIZE], me, pointer_array(rng_p, N_RNG)[1 + me:2 + me])


_ENTRY_ADDRESS: dict[int, int] = {}


def _compile_entry(sid: int) -> int:
    """The address of strategy ``sid``'s entry, compiled (or loaded from the cache) once per process."""
    if sid not in _ENTRY_ADDRESS:
        name = f"entry_{sid}"
        fn = pytypes.FunctionType(_entry_template.__code__, dict(globals(), choose=_CHOOSE[sid]), name)
        fn.__qualname__ = name  # one cache file per strategy
        with whole_program(name):
            _ENTRY_ADDRESS[sid] = cfunc(ENTRY_SIG, cache=True, _nrt=False)(fn).address
    return _ENTRY_ADDRESS[sid]


def entry_slot(sid: int) -> float:
    """The ``P_ENTRY`` value for strategy ``sid`` in this process: its entry's
    address, bit for bit (0 for `random`, which the kernel plays inline, and
    when numba's JIT is disabled)."""
    if sid == RANDOM or numba.config.DISABLE_JIT:
        return 0.0
    return float(np.int64(_compile_entry(sid)).view(np.float64))


@intrinsic
def _entry_address(typingctx, slot):
    """The address stored bit for bit in a float64 ``P_ENTRY`` slot."""
    def codegen(context, builder, sig, args):
        return builder.bitcast(args[0], ir.IntType(64))
    return types.int64(types.float64), codegen


@intrinsic
def _call_entry(typingctx, address, st, rng, params, me, kind, n):
    """Call the strategy entry at ``address`` (ENTRY_SIG) on these arrays."""
    def codegen(context, builder, sig, args):
        i64 = ir.IntType(64)
        arrays = [context.make_array(t)(context, builder, v) for t, v in zip(sig.args[1:4], args[1:4])]
        st_a, rng_a, params_a = arrays
        ints = [context.cast(builder, v, t, types.int64) for t, v in zip(sig.args[4:], args[4:])]
        fnty = ir.FunctionType(i64, [st_a.data.type, i64, rng_a.data.type, params_a.data.type, i64, i64, i64])
        fn = builder.inttoptr(args[0], fnty.as_pointer())
        n_st = builder.extract_value(st_a.shape, 0)
        return builder.call(fn, [st_a.data, n_st, rng_a.data, params_a.data, *ints])
    return types.int64(address, st, rng, params, me, kind, n), codegen


if numba.config.DISABLE_JIT:
    def choose_nb(st, rng, sp, me, kind, n):
        """Hand the decision to seat ``me``'s strategy (interpreted: no entries)."""
        sid = st[H_SID + me]
        if sid == RANDOM:
            return below_nb(rng, 1 + me, n)
        opts, pub, own, mem = observation_views(st, me, n)
        return _CHOOSE[sid](sp[me], kind, opts, n, pub, own, mem, me, rng[1 + me:2 + me])
else:
    @njit(cache=True)
    def choose_nb(st, rng, sp, me, kind, n):
        """Hand the decision to seat ``me``'s strategy, through its compiled entry."""
        if st[H_SID + me] == RANDOM:  # needs no view of the state: the fast path of random play
            return below_nb(rng, 1 + me, n)
        address = _entry_address(sp[me, P_ENTRY])
        if address == 0:
            return NO_ENTRY
        return _call_entry(address, st, rng, sp[me], me, kind, n)


def available() -> list[dict]:
    """Every registered strategy: name, id, family and one-line description."""
    return [{"name": m.NAME, "id": sid, "family": m.FAMILY, "description": m.DESCRIPTION} for m, sid, _ in _ENTRIES]


def strategy_id(name: str) -> int:
    """The kernel id of a strategy name; KeyError lists the known names."""
    return _lookup(name)[0]


def resolve(name: str):
    """(kernel id, parameter vector of MAX_PARAMS floats) for a strategy name,
    or for the path of a `weighted` parameter file (``*.toml``), ready for the
    kernel: its ``P_ENTRY`` slot holds the strategy's compiled entry in this
    process (compiled or loaded from numba's cache here, on first use).

    KeyError (with a one-line message listing the known names) if unknown.
    """
    sid, params = _lookup(name)
    params[P_ENTRY] = entry_slot(sid)
    return sid, params


def _lookup(name):
    for m, sid, _ in _ENTRIES:
        if m.NAME == name:
            params = np.zeros(MAX_PARAMS, np.float64)
            default = getattr(m, "DEFAULT_PARAMS", None)
            if default is not None:
                params[:len(default)] = default
            return sid, params
    if isinstance(name, (str, Path)) and str(name).endswith(".toml"):
        if not Path(name).is_file():
            raise KeyError(f"parameter file {name!r} not found")
        try:
            params, _ = load_params(name)
        except ParamFileError as e:
            raise KeyError(str(e)) from None
        return WEIGHTED, params
    known = ", ".join(m.NAME for m, _, _ in _ENTRIES)
    raise KeyError(f"unknown strategy {name!r} (known: {known}; or a path to a weighted .toml file)")

"""The strategy registry: names to integer ids, and the compiled dispatch.

Adding a strategy is a new file under ``strategies/`` plus one entry in
``_ENTRIES`` and one branch in ``choose_nb``; the engine never changes.
Dispatch is by integer id inside a cached compiled function: a kernel that
received strategy functions as arguments would miss numba's on-disk cache in
every new process (DESIGN lesson 6).

Every strategy has the signature
``choose(params, kind, opts, n, pub, own, mem, me, rng) -> index`` and sees
only its player's observation (``pub``, ``own``: views of the state's public
block and her private block), its own memory, its seat's parameters and its
own random stream (``rng[0]``).  See strategies/README.md.

A *data-only* strategy is a TOML file of weights for the ``weighted`` family:
the files in ``strategies/params/`` are registered as ``weighted-<stem>``, and
``resolve`` accepts the path of any such file.
"""
import tomllib
from pathlib import Path
from types import SimpleNamespace

import numpy as np
from numba import njit

from ccsim.layout import PUB, PUB_SIZE, PRIV, PRIV_SIZE, OPTS, MEM, MEM_SIZE, H_SID, MAX_PARAMS
from ccsim.rng import below_nb
from strategies import greedy, random_play, weighted, majority, trickster, tactician, oracle, counter, defender
from strategies.features import PARAM_NAMES, N_PARAMS, P_VERSION
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


# (module or named parameter set, id): ids are stable; they are what the kernel sees.
# Named parameter sets of a family share the family's id: their parameters differ.
_ENTRIES = (
    (random_play, RANDOM),
    (greedy, GREEDY),
    (weighted, WEIGHTED),
    (majority, MAJORITY),
    (trickster, TRICKSTER),
    (tactician, TACTICIAN),
    (oracle, ORACLE),
    (counter, COUNTER),
    (defender, DEFENDER),
    *((e, WEIGHTED) for e in _param_entries()),
)


@njit(cache=True)
def choose_nb(st, rng, sp, me, kind, n):
    """Hand the decision to seat ``me``'s strategy, with views of what she may see."""
    sid = st[H_SID + me]
    if sid == RANDOM:  # needs no view of the state: the fast path of random play
        return below_nb(rng, 1 + me, n)
    pub = st[PUB:PUB + PUB_SIZE]
    own = st[PRIV + me * PRIV_SIZE:PRIV + (me + 1) * PRIV_SIZE]
    mem = st[MEM + me * MEM_SIZE:MEM + (me + 1) * MEM_SIZE]
    opts = st[OPTS:OPTS + n]
    params = sp[me]
    mine = rng[1 + me:2 + me]
    if sid == GREEDY:
        return choose_greedy_nb(params, kind, opts, n, pub, own, mem, me, mine)
    if sid == WEIGHTED:
        return choose_weighted_nb(params, kind, opts, n, pub, own, mem, me, mine)
    if sid == MAJORITY:
        return choose_majority_nb(params, kind, opts, n, pub, own, mem, me, mine)
    if sid == TRICKSTER:
        return choose_trickster_nb(params, kind, opts, n, pub, own, mem, me, mine)
    if sid == TACTICIAN:
        return choose_tactician_nb(params, kind, opts, n, pub, own, mem, me, mine)
    if sid == ORACLE:
        return choose_oracle_nb(params, kind, opts, n, pub, own, mem, me, mine)
    if sid == COUNTER:
        return choose_counter_nb(params, kind, opts, n, pub, own, mem, me, mine)
    if sid == DEFENDER:
        return choose_defender_nb(params, kind, opts, n, pub, own, mem, me, mine)
    return below_nb(rng, 1 + me, n)  # an unknown id plays at random (never registered)


def available() -> list[dict]:
    """Every registered strategy: name, id, family and one-line description."""
    return [{"name": m.NAME, "id": sid, "family": m.FAMILY, "description": m.DESCRIPTION} for m, sid in _ENTRIES]


def strategy_id(name: str) -> int:
    """The kernel id of a strategy name; KeyError lists the known names."""
    return resolve(name)[0]


def resolve(name: str):
    """(kernel id, parameter vector of MAX_PARAMS floats) for a strategy name,
    or for the path of a `weighted` parameter file (``*.toml``).

    KeyError (with a one-line message listing the known names) if unknown.
    """
    for m, sid in _ENTRIES:
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
    known = ", ".join(m.NAME for m, _ in _ENTRIES)
    raise KeyError(f"unknown strategy {name!r} (known: {known}; or a path to a weighted .toml file)")

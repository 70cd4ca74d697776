"""The heuristic's parameter files: weights of the `weighted` family and *styles*.

A ``family = "weighted"`` file (the default) holds ``[weights]`` (``layouts.PARAM_NAMES``) and, if
it likes, ``[switches]``: registered as ``weighted-<stem>``, it plays the `weighted` id.  A
``family = "heuristic"`` file is a style: an ``id``, ``[weights]`` and ``[switches]``
(``layouts.SWITCH_NAMES``, values ``twists.SWITCH_VALUES``), registered as ``<stem>`` with its own
id and the one heuristic policy.  Weights a file does not name keep their `balanced` value
(``weighted.BALANCED``).
"""
import numpy as np

from ccsim.kernel.layout import MAX_PARAMS
from strategies.family import Family, Player
from strategies.param_files import PARAMS_DIR, ParamFileError, read_toml, refuse_stray_keys, table
from strategies.heuristics.layouts import PARAM_NAMES, SWITCH_NAMES, P_SWITCH, P_VERSION
from strategies.heuristics.twists import SWITCH_VALUES
from strategies.heuristics import weighted
from strategies.heuristics.weighted import BALANCED


def weights_vector(path, data: dict) -> np.ndarray:
    """The parameter vector (MAX_PARAMS floats) of a weighted or heuristic file's tables."""
    params = np.zeros(MAX_PARAMS, np.float64)
    params[:len(BALANCED)] = BALANCED
    for k, v in table(path, data, "weights").items():
        if k not in PARAM_NAMES or k == "version":
            raise ParamFileError(f"parameter file {path}: unknown weight {k!r} (known: {', '.join(PARAM_NAMES[1:])})")
        if not isinstance(v, (int, float)) or isinstance(v, bool):
            raise ParamFileError(f"parameter file {path}: weight {k!r} must be a number, got {v!r}")
        params[PARAM_NAMES.index(k)] = float(v)
    for k, v in table(path, data, "switches").items():
        if k not in SWITCH_NAMES:
            raise ParamFileError(f"parameter file {path}: unknown switch {k!r} (known: {', '.join(SWITCH_NAMES)})")
        if v not in SWITCH_VALUES[k]:
            raise ParamFileError(f"parameter file {path}: switch {k!r} is one of {', '.join(SWITCH_VALUES[k])}, "
                                 f"got {v!r}")
        params[P_SWITCH + SWITCH_NAMES.index(k)] = SWITCH_VALUES[k].index(v)
    params[P_VERSION] = 1.0
    return params


def style_id(path, data: dict) -> int:
    """A style's kernel id (``id = N``): a whole number a strategy file does not use."""
    sid = data.get("id")
    if isinstance(sid, bool) or not isinstance(sid, int) or not 0 <= sid < 1 << 20:
        raise ParamFileError(f"parameter file {path}: a heuristic style needs `id = N`, a whole number, got {sid!r}")
    return sid


def style_vector(name: str) -> np.ndarray:
    """The parameter vector of the shipped style ``name`` (``strategies/params/<name>.toml``)."""
    path = PARAMS_DIR / f"{name}.toml"
    return weights_vector(path, read_toml(path))


def _loader(keys: set):
    def load(path, data: dict, socket) -> np.ndarray:
        refuse_stray_keys(path, data, keys, PARAM_NAMES)
        return weights_vector(path, data)
    return load


def _weights_player(path, data: dict, params) -> Player:
    """A weights file of strategies/params: ``weighted-<stem>``, the `weighted` id and policy."""
    return Player(f"weighted-{path.stem}", weighted.ID, data.get("description", f"weighted with {path.name}"),
                  weighted.policy_nb, params, path=str(path))


def _style_player(path, data: dict, params) -> Player:
    """A style of strategies/params: ``<stem>``, its own id, the one heuristic policy."""
    return Player(path.stem, style_id(path, data), data.get("description", f"heuristic with {path.name}"),
                  weighted.policy_nb, params, path=str(path))


_WEIGHTS_KEYS = {"description", "weights", "family", "switches"}
FAMILIES = (
    Family("weighted", (Player(weighted.NAME, weighted.ID, weighted.DESCRIPTION, weighted.policy_nb,
                               weighted.DEFAULT_PARAMS),),
           files="weighted", load=_loader(_WEIGHTS_KEYS), file_player=_weights_player, file_id=weighted.ID),
    Family("heuristic", files="heuristic", load=_loader(_WEIGHTS_KEYS | {"id"}), file_player=_style_player,
           file_id=weighted.ID),  # a style given by path plays the weighted id with its weights
)

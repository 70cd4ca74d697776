"""Parameter files: the TOML files that make a strategy out of data.

``strategies/params/*.toml`` (and any path given as a strategy name) hold one of four families:

* ``family = "weighted"`` (the default): ``[weights]`` of the weighted family
  (``layouts.PARAM_NAMES``) and, if it likes, ``[switches]``; registered as ``weighted-<stem>``;
* ``family = "heuristic"``: a *style*: an ``id``, ``[weights]`` and ``[switches]``
  (``layouts.SWITCH_NAMES``, values ``twists.SWITCH_VALUES``); registered as ``<stem>``;
* ``family = "expert"``: ``[search]`` parameters of the search player (``registry.expert_params``);
* ``family = "learned"``: the weights of the learned player, a table per decision kind
  (``learned.model_vector``; ``strategies/weights/learned.toml`` is the shipped one).

Weights a file does not name keep their `balanced` value (``weighted.BALANCED``); a name
that is not a weight, a switch or a key of the file's family is refused, in one line.
"""
import tomllib
from pathlib import Path

import numpy as np

from ccsim.errors import InputError
from ccsim.kernel.layout import MAX_PARAMS
from strategies.layouts import PARAM_NAMES, SWITCH_NAMES, P_SWITCH, P_VERSION
from strategies.twists import SWITCH_VALUES
from strategies.weighted import BALANCED

PARAMS_DIR = Path(__file__).resolve().parent / "params"

FAMILY_KEYS = {
    "weighted": {"description", "weights", "family", "switches"},
    "heuristic": {"description", "weights", "family", "id", "switches"},
    "expert": {"description", "family", "search", "leaf"},
    "learned": {"description", "family", "training", "step", "mode", "veto", "draw", "spy"},
}


class ParamFileError(InputError):
    """A parameter file that cannot be used (one line naming the problem)."""


def read_toml(path: Path) -> dict:
    try:
        return tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as e:
        raise ParamFileError(f"cannot read parameter file {path}: {e.strerror}") from None
    except tomllib.TOMLDecodeError as e:
        raise ParamFileError(f"parameter file {path} is not valid TOML: {e}") from None


def file_family(path) -> str:
    """The family a parameter file is for (weighted unless it says ``family = ...``)."""
    return family_of(Path(path), read_toml(Path(path)))


def family_of(path, data: dict) -> str:
    family = data.get("family", "weighted")
    if family not in FAMILY_KEYS:
        raise ParamFileError(f"parameter file {path}: unknown family {family!r} (known: {', '.join(FAMILY_KEYS)})")
    return family


def refuse_stray_keys(path, data: dict) -> None:
    """A key outside the file's tables would be silently ignored: refuse it."""
    known = FAMILY_KEYS[family_of(path, data)]
    stray = sorted(set(data) - known)
    if stray:
        hint = " (weights go in the [weights] table)" if stray[0] in PARAM_NAMES else ""
        raise ParamFileError(f"parameter file {path}: unknown top-level key {stray[0]!r}{hint}; "
                             f"top-level keys: {', '.join(sorted(known))}")


def table(path, data: dict, key: str) -> dict:
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise ParamFileError(f"parameter file {path}: [{key}] must be a table")
    return value


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

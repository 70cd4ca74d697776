"""The learned player's weights: a weights file's tables (weights by feature name) <-> the parameter vector,
the shipped file, and the tactician's clone the training starts from."""
import tomllib
from pathlib import Path

import numpy as np

from ccsim.kernel.layout import MAX_PARAMS
from strategies.heuristics.layouts import PARAM_NAMES
from strategies.param_files import ParamFileError, refuse_stray_keys
from strategies.learned.features import BLOCKS, M_VERSION, tactician_clone


# ---- the weights file (family "learned"): one table per block, weights by feature name ------------
WEIGHTS_FILE = Path(__file__).resolve().parents[1] / "weights" / "learned.toml"
FILE_KEYS = {"description", "family", "training", *BLOCKS}


def model_vector(tables: dict, where: str) -> np.ndarray:
    """The parameter vector of a weights file's tables (``[step]``, ``[mode]``, ...: weights by
    feature name; a weight not named is 0).  ValueError names an unknown table, weight or a value
    that is not a number."""
    v = np.zeros(MAX_PARAMS, np.float64)
    v[M_VERSION] = 1.0
    for block, weights in tables.items():
        if block not in BLOCKS:
            continue
        first, features = BLOCKS[block]
        names = [f for f, _ in features]
        if not isinstance(weights, dict):
            raise ValueError(f"{where}: [{block}] must be a table")
        for name, x in weights.items():
            if name not in names:
                raise ValueError(f"{where}: [{block}] has no feature {name!r} (known: {', '.join(names)})")
            if isinstance(x, bool) or not isinstance(x, (int, float)):
                raise ValueError(f"{where}: [{block}] {name} must be a number, got {x!r}")
            v[first + names.index(name)] = float(x)
    return v


def model_tables(v: np.ndarray) -> dict:
    """The inverse of ``model_vector``: {block: {feature: weight}}."""
    return {block: {name: float(v[first + j]) for j, (name, _) in enumerate(features)}
            for block, (first, features) in BLOCKS.items()}


def shipped_weights() -> np.ndarray:
    """The trained weights shipped with ccsim, or the tactician's clone before any training."""
    if not WEIGHTS_FILE.is_file():
        return tactician_clone()
    return model_vector(tomllib.loads(WEIGHTS_FILE.read_text(encoding="utf-8")), str(WEIGHTS_FILE))


def load_weights_file(path, data: dict, socket) -> np.ndarray:
    """A weights file's parameter vector (the family's loader): ParamFileError names what is wrong."""
    refuse_stray_keys(path, data, FILE_KEYS, PARAM_NAMES)
    try:
        return model_vector(data, f"parameter file {path}")
    except ValueError as e:
        raise ParamFileError(str(e)) from None

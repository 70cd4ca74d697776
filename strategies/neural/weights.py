"""The value network's weights file: read, written (tiny weights flushed), and the shipped one."""
from pathlib import Path

import numpy as np

from strategies.neural.model import N_WEIGHTS, flush_tiny

WEIGHTS_FILE = Path(__file__).resolve().parents[1] / "weights" / "neural.npz"


def read_weights(path) -> tuple[np.ndarray, float]:
    """(the flat float32 weight vector, the rating margin) of a weights file (arrays ``weights`` of
    N_WEIGHTS and ``margin``), tiny weights flushed to zero (``model.flush_tiny``: a file written
    before the floor existed plays at full speed too); ValueError names a file of another shape."""
    with np.load(path) as f:
        w = flush_tiny(f["weights"])
        margin = float(f["margin"]) if "margin" in f else 0.0
    if w.shape != (N_WEIGHTS,):
        raise ValueError(f"{path}: {w.shape[0]} weights, the network has {N_WEIGHTS}")
    return w, margin


def write_weights(path, w: np.ndarray, margin: float) -> None:
    """Write a weights file, tiny weights flushed to zero (``model.WEIGHT_FLOOR``)."""
    np.savez(path, weights=flush_tiny(w), margin=np.float64(margin))


def shipped_weights() -> tuple[np.ndarray, float]:
    """The trained weights shipped with ccsim; before any training, zeros and an infinite margin:
    the tactician's choices."""
    return read_weights(WEIGHTS_FILE) if WEIGHTS_FILE.is_file() else (np.zeros(N_WEIGHTS, np.float32), np.inf)

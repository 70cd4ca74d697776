"""The argument checks every analysis makes the same way: a seed, a count of games, a TOML file."""
from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import numpy as np

SEED_LIMIT = 2**63  # the kernel's streams take 63-bit seeds (ccsim.kernel.rng)


def check_seed(seed: Any, error: type[Exception], flag: str = "--seed") -> int:
    """``seed`` as an int in 0 .. 2**63-1, or ``error`` naming the flag."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed < SEED_LIMIT:
        raise error(f"{flag} must be an integer in 0 .. 2**63-1, got {seed!r}")
    return int(seed)


def check_count(value: Any, error: type[Exception], flag: str, minimum: int = 1) -> int:
    """``value`` as an int >= ``minimum`` (games, deals, budgets), or ``error`` naming the flag."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
        kind = "a positive integer" if minimum == 1 else f"an integer >= {minimum}"
        raise error(f"{flag} must be {kind}, got {value!r}")
    return int(value)


def read_toml(path, error: type[Exception], where: str | None = None) -> tuple[dict, str]:
    """A TOML file's data and its text, or ``error`` with one line that names ``where`` (default:
    the path): it cannot be read, or it is not TOML."""
    where = str(path) if where is None else where
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise error(f"{where}: cannot read it ({e.strerror})") from None
    try:
        return tomllib.loads(text), text
    except tomllib.TOMLDecodeError as e:
        raise error(f"{where}: not valid TOML ({e})") from None

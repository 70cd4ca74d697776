"""The output folder of ``ccsim balance``: what makes a search resumable.

The folder belongs to one search: ``balance.json`` holds the identity of its space (the hash of
everything that decides the games and the choices: parameters, levels, budget, seed, tolerance,
bounds; ``Space.identity``), and a rerun with another space or seed is refused with one line.
Every finished task of games (a block of deals of every candidate of a round) is kept under
``tasks/`` as the moments it came to, written atomically as it finishes, named by the round,
the candidates it played (a digest of their settings) and its deals.  The race is decided by
these numbers alone, so a rerun replays the race from them without playing a finished task
again, and plays only what Ctrl-C left undone.  A task file that cannot be read back (a disk
error, a partial copy) is set aside as ``.damaged`` and its task played again (``TaskStore.get``).
"""
from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Callable

import numpy as np

from ccsim.analyses.balance.space import BalanceError, Space
from ccsim.runner.damaged import read_errors, reason, set_aside

__all__ = ["TaskStore", "open_folder", "members_digest", "read_task", "TASK_ARRAYS"]

MANIFEST = "balance.json"
#: the arrays of a task file: its deals and the moments of its columns (``ccsim.analyses.balance.search.play``)
TASK_ARRAYS = ("n", "sum", "cross")


def members_digest(keys) -> str:
    """A short name for a list of candidates (their settings, in order)."""
    return hashlib.sha256("\n".join(keys).encode()).hexdigest()[:10]


class TaskStore:
    """Finished tasks' arrays by name: under ``root`` (a folder), or in memory without one.

    A task file that cannot be read back (truncated, empty, garbage, without its arrays) is set aside
    as ``<name>.npz.damaged`` and named in one line to ``warn``; ``get`` then answers None, so the task
    is played again like one never finished."""

    def __init__(self, root: Path | None = None, warn: Callable[[str], None] | None = None,
                 arrays: tuple = None):
        self.root = root
        self.arrays = TASK_ARRAYS if arrays is None else arrays
        self.warn = warn or (lambda msg: None)
        self._memory: dict = {}
        if root is not None:
            root.mkdir(parents=True, exist_ok=True)

    def get(self, name: str) -> dict | None:
        if self.root is None:
            return self._memory.get(name)
        path = self.root / f"{name}.npz"
        if not path.is_file():
            return None
        try:
            return read_task(path, self.arrays)
        except read_errors() as e:
            aside = set_aside(path)
            self.warn(f"balance: {self.root.name}/{path.name} cannot be read ({reason(e)}): set aside as "
                      f"{aside.name}, played again")
            return None

    def put(self, name: str, arrays: dict) -> None:
        if self.root is None:
            self._memory[name] = arrays
            return
        tmp = self.root / f"{name}.tmp.npz"
        np.savez(tmp, **arrays)
        os.replace(tmp, self.root / f"{name}.npz")  # whole or absent, whenever Ctrl-C comes


def read_task(path: Path, arrays: tuple = None) -> dict:
    """A task file's arrays; ValueError when it is not an npz archive holding every one of ``arrays``
    (``TASK_ARRAYS`` by default: a file that loads but is not a whole task must not enter the race as one)."""
    f = np.load(path)
    if not isinstance(f, np.lib.npyio.NpzFile):  # a lone .npy array under the task's name
        raise ValueError("not an npz archive")
    with f:
        missing = [k for k in (TASK_ARRAYS if arrays is None else arrays) if k not in f.files]
        if missing:
            raise ValueError(f"no {', '.join(missing)} array")
        return {k: f[k] for k in f.files}


def open_folder(out, space: Space) -> Path | None:
    """The output folder, made and claimed for ``space`` (its manifest and a copy of its TOML), or
    checked to be this space's own; BalanceError (one line) if it holds another search."""
    if out is None:
        return None
    folder = Path(out)
    manifest = folder / MANIFEST
    mine = dict(identity=space.identity(), space=space.source, seed=space.seed)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if manifest.is_file():
            theirs = json.loads(manifest.read_text())
            if theirs.get("identity") != mine["identity"]:
                raise BalanceError(f"--out {out}: holds another search (space {theirs.get('space')!r}, seed "
                                   f"{theirs.get('seed')}; this one: {mine['space']!r}, seed {mine['seed']}): "
                                   f"give another folder, or delete it to start again")
        else:
            manifest.write_text(json.dumps(mine, indent=1) + "\n")
        (folder / "space.toml").write_text(space.to_toml(), encoding="utf-8")
    except OSError as e:
        raise BalanceError(f"--out {out}: cannot write there ({e.strerror})") from None
    except json.JSONDecodeError:
        raise BalanceError(f"--out {out}: its {MANIFEST} is not a ccsim balance manifest") from None
    return folder

"""The parts of a study and their store: what makes a report resumable.

A *part* is one measurement (the mirror games of one level, one tournament,
one ordering search ...): a name, the settings it depends on, the games it
plans to play, and a function that plays them and returns tables.  Its key is a
hash of its settings, the keys of the parts it builds on, and the version of
ccsim's game engine and part code: a finished part is written under
``DIR/parts/<name>-<key>/`` (its tables as Parquet, its info as JSON) in one
atomic rename, so an interrupted report keeps every finished part, and a rerun
of an unchanged study finds them all and plays no game.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import pandas as pd

__all__ = ["Part", "PartStore", "PART_VERSION"]

#: bump when a part's games or tables change (the engine's games are pinned by tests/test_reference_games.py)
PART_VERSION = 1


@dataclass
class Part:
    name: str
    settings: dict
    games: int
    compute: Callable  # (upstream results by name, progress, backend) -> (tables by name, info dict)
    needs: tuple = ()
    key: str = field(default="", init=False)

    def keyed(self, upstream_keys: dict) -> "Part":
        blob = json.dumps(dict(name=self.name, settings=self.settings, needs={n: upstream_keys[n] for n in self.needs},
                               version=PART_VERSION), sort_keys=True, default=str)
        self.key = hashlib.sha256(blob.encode()).hexdigest()[:16]
        return self


@dataclass
class Result:
    tables: dict
    info: dict
    cached: bool = False


class PartStore:
    """Finished parts under ``root`` (``DIR/parts``)."""

    def __init__(self, root):
        self.root = Path(root)

    def _dir(self, part: Part) -> Path:
        return self.root / f"{part.name.replace(':', '_').replace('/', '_')}-{part.key}"

    def has(self, part: Part) -> bool:
        return (self._dir(part) / "info.json").is_file()

    def load(self, part: Part) -> Result:
        d = self._dir(part)
        info = json.loads((d / "info.json").read_text())
        tables = {t: pd.read_parquet(d / f"{t}.parquet") for t in info.pop("_tables")}
        return Result(tables, info, cached=True)

    def save(self, part: Part, res: Result) -> None:
        d = self._dir(part)
        tmp = d.with_name(d.name + ".tmp")
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        for t, df in res.tables.items():
            df.to_parquet(tmp / f"{t}.parquet", index=False)
        info = dict(res.info, _tables=list(res.tables), _part=part.name, _settings=part.settings)
        (tmp / "info.json").write_text(json.dumps(info, indent=1, default=str))
        shutil.rmtree(d, ignore_errors=True)
        os.replace(tmp, d)

    def stale(self, keep) -> list[Path]:
        """Part folders of no part in ``keep`` (an earlier study's): listed, never deleted."""
        names = {self._dir(p).name for p in keep}
        return sorted(p for p in self.root.glob("*-*") if p.is_dir() and p.name not in names)

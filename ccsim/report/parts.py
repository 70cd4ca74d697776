"""The parts of a study and their store: what makes a report resumable.

A *part* is one measurement (the mirror games of one level, one tournament,
one ordering search ...): a name, the settings it depends on, the games it
plans to play, and a function that plays them and returns tables.  Its key is a
hash of its settings, the keys of the parts it builds on, and the version of
ccsim's game engine and part code: a finished part is written under
``DIR/parts/<name>-<key>/`` (its tables as Parquet, its info as JSON) in one
atomic rename, so an interrupted report keeps every finished part, and a rerun
of an unchanged study finds them all and plays no game.  A part folder that
cannot be read back is set aside as ``.damaged`` and the part played again
(``PartStore.load``).
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

from ccsim.runner.damaged import SUFFIX, read_errors, reason, set_aside

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


class PartStore:
    """Finished parts under ``root`` (``DIR/parts``).

    A part folder that cannot be read back (a truncated or missing table, an unreadable info.json:
    a disk error, a partial copy) is set aside whole as ``<folder>.damaged`` and named in one line to
    ``warn``; ``load`` then answers None, so the part is played again like one never finished."""

    def __init__(self, root, warn: Callable[[str], None] | None = None):
        self.root = Path(root)
        self.warn = warn or (lambda msg: None)

    def _dir(self, part: Part) -> Path:
        return self.root / f"{part.name.replace(':', '_').replace('/', '_')}-{part.key}"

    def load(self, part: Part) -> Result | None:
        """The finished ``part`` from its folder; None when it has none, or when its folder is damaged
        (then set aside, and named to ``warn``)."""
        d = self._dir(part)
        if not d.exists():
            return None
        where = d / "info.json"  # missing from a folder: damaged too (save() renames whole folders into place)
        try:
            info = _read_info(where)
            tables = {}
            for t in info.pop("_tables"):
                where = d / f"{t}.parquet"
                tables[t] = pd.read_parquet(where)
        except read_errors() as e:
            aside = set_aside(d)
            self.warn(f"report: {self.root.name}/{d.name}/{where.name} cannot be read ({reason(e)}): part set "
                      f"aside as {aside.name}, played again")
            return None
        return Result(tables, info)

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
        """Part folders of no part in ``keep`` (an earlier study's): listed, never deleted.  Damaged
        folders set aside are not an earlier study's (each was named when it was set aside)."""
        names = {self._dir(p).name for p in keep}
        return sorted(p for p in self.root.glob("*-*") if p.is_dir() and p.name not in names
                      and SUFFIX not in p.name)


def _read_info(path: Path) -> dict:
    """A part's info.json; ValueError when it is JSON but not a part's info (its tables' names)."""
    info = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(info, dict) or not isinstance(info.get("_tables"), list) \
            or not all(isinstance(t, str) for t in info["_tables"]):
        raise ValueError("not a part's info (no list of _tables)")
    return info

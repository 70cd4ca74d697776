"""The judge's store: every setting the published results measured with the judge, and the fitted map.

``measured.json`` beside this module (written by ``python scripts/calibrate.py fit``) holds one row per
setting, looked up by ``setting_key`` (its rules block, variants and deck orders, whatever names they were
written with): Cleopatra's edge with the judge on both sides, its 95% interval, the deals and seed it rests
on, its effect (the edge minus the standard rules' edge on the same deals) where it was paired, and where it
came from.  ``map.json`` holds the map fitted on the store (``ccsim.analyses.judging.effect_map``), one line
per fast balanced level, with that level's own edge under the standard rules.

A running page adds the settings it confirms (``JudgeStore.add``); they live as long as the process.
"""
from __future__ import annotations

import json
import threading
from functools import lru_cache
from pathlib import Path

import numpy as np

from ccsim.kernel import rules as R
from ccsim.runner.orderings import SHUFFLED
from ccsim.runner.ruleset import rules_block

__all__ = ["setting_key", "JudgeStore", "judge_store", "fitted_maps", "effect_map_of", "STORE_FILE", "MAP_FILE",
           "STANDARD_KEY"]

STORE_FILE = Path(__file__).resolve().parent / "measured.json"
MAP_FILE = Path(__file__).resolve().parent / "map.json"


def setting_key(vec: np.ndarray, orders=(SHUFFLED, SHUFFLED)) -> str:
    """A setting's key: its rules block, variants and, when not both shuffled, its canonical deck orders
    (the balance search's ``Candidate.key`` for shuffled decks)."""
    variants = [v for v, bit in R.VARIANTS.items() if int(vec[R.RP_VARIANTS]) & bit]
    d = dict(rules=rules_block(vec), variants=variants)
    if tuple(orders) != (SHUFFLED, SHUFFLED):
        d["orders"] = list(orders)
    return json.dumps(d, sort_keys=True, separators=(",", ":"))


STANDARD_KEY = json.dumps(dict(rules={}, variants=[]), sort_keys=True, separators=(",", ":"))


class JudgeStore:
    """The judge's measurements by setting key (rows of ``measured.json``), and those added while running."""

    def __init__(self, judge: str | None, rows):
        self.judge = judge
        self._rows = {r["key"]: r for r in rows}
        self._lock = threading.Lock()

    def get(self, key: str) -> dict | None:
        with self._lock:
            return self._rows.get(key)

    def add(self, row: dict) -> None:
        """A setting measured now (a page's confirmation): it replaces a stored row only on more deals."""
        with self._lock:
            old = self._rows.get(row["key"])
            if old is None or row["deals"] > old["deals"]:
                self._rows[row["key"]] = row

    @property
    def standard(self) -> dict | None:
        return self.get(STANDARD_KEY)

    def rows(self) -> list[dict]:
        with self._lock:
            return list(self._rows.values())


@lru_cache(maxsize=1)
def judge_store() -> JudgeStore:
    """The packaged store (one per process: what a page confirms joins it); empty without the file."""
    if not STORE_FILE.is_file():
        return JudgeStore(None, [])
    data = json.loads(STORE_FILE.read_text(encoding="utf-8"))
    return JudgeStore(data["judge"], data["settings"])


@lru_cache(maxsize=1)
def fitted_maps() -> dict:
    """``map.json``: {"judge", "levels": {fast level: {slope, slope_se, model_sd, anchors, standard}}}; empty
    without the file."""
    if not MAP_FILE.is_file():
        return {}
    return json.loads(MAP_FILE.read_text(encoding="utf-8"))


def effect_map_of(level: str | None):
    """``level``'s fitted map (``ccsim.analyses.judging.effect_map.EffectMap``) and its own standard edge (its
    ``map.json`` entry's ``standard``: edge and ci95), or None for a level without a map."""
    from ccsim.analyses.judging.effect_map import EffectMap
    line = fitted_maps().get("levels", {}).get(level)
    if line is None:
        return None
    return EffectMap(level, line["slope"], line["slope_se"], line["model_sd"], line["anchors"]), line["standard"]

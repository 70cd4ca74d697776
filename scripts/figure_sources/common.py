"""What every figure reads: the repository's root, its result files and the common formats."""
from __future__ import annotations

import json
import sys
from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # run as a script from anywhere: the repository's package first
    sys.path.insert(0, str(ROOT))

from ccsim.analyses.balance.search.verdict import points  # noqa: E402

WIDTH = 110


def read_json(rel: str) -> dict:
    return json.loads((ROOT / rel).read_text(encoding="utf-8"))


@lru_cache(maxsize=None)
def summary() -> dict:
    """The published result of ``ccsim balance``: results/balance/summary.json."""
    return read_json("results/balance/summary.json")


def recommendation() -> dict:
    """The published answer: summary.json's ``recommendation``."""
    return summary()["recommendation"]


def edge(value: float, lo: float, hi: float) -> str:
    """An edge with its interval, in points: "+10.2 [+9.9, +10.5]"."""
    return f"{points(value)} [{points(lo)}, {points(hi)}]"


def gap_interval(r: dict) -> str:
    """A certificate row's seat gap with its 95% interval, in points: "−2.9 [−7.5, +1.7]"."""
    lo, hi = r["seat_gap_ci95"]
    return f"{points(r['seat_gap'] / 100)} [{points(lo / 100)}, {points(hi / 100)}]"


def strong_speed(a: str, b: str) -> float:
    """games/s of a matchup on 2 threads, timed in one process (results/bench/strong.json)."""
    rows = read_json("results/bench/strong.json")["rows"]
    return next(r["games_per_s"] for r in rows
                if (r["cleopatra"], r["caesar"], r["threads"], r["how"]) == (a, b, 2, "in one process"))


@lru_cache(maxsize=None)
def parquet(rel: str):
    import pandas as pd
    return pd.read_parquet(ROOT / rel)

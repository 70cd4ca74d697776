"""The skill curve of ``ccsim balance``: Cleopatra's edge under the standard rules and under each
final candidate at every level of the ladder, each level placed at its Elo.

The Elo of a level comes from the strength certificate (``results/strength/``): the ladder's ratings
(``ladder.json``, anchored at ``tactician`` = 0) and, for a player the ladder does not hold, its
head-to-head score against one it does (``network.json``: ``neural`` against ``tactician``,
``neural-search`` against ``master``) turned into an Elo difference, 400·log10(s / (1 − s)); the
interval is the score's interval carried through (the anchor's own uncertainty is not added).  A level
that has no Elo goes after those that have one, in the space's order of levels, without a number.
"""
from __future__ import annotations

import json
import math
from pathlib import Path

import pandas as pd

__all__ = ["STRENGTH_DIR", "level_elos", "with_elo", "interval_verdict", "FAIR", "UNCLEAR", "NOT_FAIR"]

#: the strength certificate of the repository (absent from an installed package: no Elo then)
STRENGTH_DIR = Path(__file__).resolve().parents[4] / "results" / "strength"

FAIR, UNCLEAR, NOT_FAIR = "fair", "unclear", "not fair"


def _elo(score: float) -> float:
    s = min(max(score, 1e-6), 1 - 1e-6)
    return 400 * math.log10(s / (1 - s))


def _read(path: Path) -> dict:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def level_elos(strength_dir=None) -> dict[str, tuple[float, float, float, str]]:
    """{level: (elo, lo, hi, source)} from the strength certificate; {} when there is none."""
    folder = Path(strength_dir) if strength_dir is not None else STRENGTH_DIR
    out = {r["entrant"]: (float(r["elo"]), float(r["ci95"][0]), float(r["ci95"][1]), "ladder")
           for r in _read(folder / "ladder.json").get("ratings", [])}
    rows = sorted(_read(folder / "network.json").get("rows", []), key=lambda r: -int(r.get("games", 0)))
    for r in rows:
        a, b = r.get("a"), r.get("b")
        if a in out or b not in out:
            continue
        base = out[b][0]
        lo, hi = r["ci95"]
        out[a] = (base + _elo(r["score"]), base + _elo(lo), base + _elo(hi),
                  f"{r['score']:.1%} against {b} ({int(r['games']):,} games)")
    return out


def interval_verdict(lo: float, hi: float, tolerance: float) -> str:
    """One level's seat-advantage interval judged against the band: fair when it lies within ±tolerance,
    not fair when wholly outside it, else unclear."""
    if -tolerance <= lo and hi <= tolerance:
        return FAIR
    if lo > tolerance or hi < -tolerance:
        return NOT_FAIR
    return UNCLEAR


def with_elo(rows: pd.DataFrame, order: list[str], elos: dict, tolerance: float) -> pd.DataFrame:
    """The curve's rows with each level's Elo (NaN when unknown), its place (``rank``: by Elo where
    known, else the given ``order``, weakest first) and each row's verdict."""
    def elo(name, k):
        return elos.get(name, (math.nan, math.nan, math.nan, ""))[k]
    place = sorted(range(len(order)), key=lambda k: (elo(order[k], 0) if order[k] in elos else math.inf, k))
    rank = {order[k]: r for r, k in enumerate(place)}
    return rows.assign(elo=rows["level"].map(lambda n: elo(n, 0)), elo_lo=rows["level"].map(lambda n: elo(n, 1)),
                       elo_hi=rows["level"].map(lambda n: elo(n, 2)), elo_source=rows["level"].map(lambda n: elo(n, 3)),
                       rank=rows["level"].map(rank),
                       verdict=[interval_verdict(lo, hi, tolerance) for lo, hi in
                                zip(rows["seat_advantage_lo"], rows["seat_advantage_hi"])]
                       ).sort_values(["candidate", "rank"], kind="stable").reset_index(drop=True)

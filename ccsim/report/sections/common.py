"""What every section shares: the built Section, its title, command lines, the estimates of a claim."""
from __future__ import annotations

import shlex
from dataclasses import dataclass, field

import pandas as pd

from ccsim.report.claims import Estimate

__all__ = ["Section", "SECTION_TITLES", "command_line", "rests_on", "estimates_of", "stated_estimate"]

SECTION_TITLES = {"seat": "Seat advantage", "ladder": "The strategy ladder", "orderings": "Orderings",
                  "variants": "Variants and what-ifs", "balance": "Fair rules", "cards": "Cards", "game": "The game",
                  "convergence": "Convergence with skill"}


@dataclass
class Section:
    """A built section: its tables (DataFrames), figures (matplotlib), claims and plain-words text;
    ``shows``: per table, the quantities the page shows in their units (``ccsim.report.tables``)."""
    name: str
    title: str
    tables: dict = field(default_factory=dict)
    figures: dict = field(default_factory=dict)
    claims: list = field(default_factory=list)
    conclusions: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    games: int = 0
    shows: dict = field(default_factory=dict)


def command_line(*args) -> str:
    return "ccsim " + " ".join(shlex.quote(str(a)) for a in args)


def rests_on(level: str, games: int, seed: int, extra: str = "") -> str:
    return f"{level}{extra}, {games:,} games, seed {seed}, the standard rules"


def estimates_of(df: pd.DataFrame, key: str, where: dict) -> list[Estimate]:
    d = df
    for k, v in where.items():
        d = d[d[k] == v]
    return [Estimate(r[key], float(r["value"]), float(r["lo"]), float(r["hi"]), int(r.get("games", 0) or 0))
            for r in d.to_dict("records")]


def stated_estimate(ests: list[Estimate], context: str) -> Estimate:
    return next((e for e in ests if e.context == context), ests[-1])

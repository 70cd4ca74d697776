"""What a fair-rules search (``ccsim balance``) leaves in its results folder, read for a
study's ``[balance]`` section (docs/report.md, "The fair-rules section").

The folder's contract:

* ``recommended.toml`` (required): the recommended settings as ``[[change]]`` tables, a
  ``ccsim whatif --rules`` file, best first (the smallest change that balances the game first);
* ``summary.json`` (optional): ``tolerance``, the half-width of "fair" as a share of score
  (0.01: within ±1 point of 50%, the default), ``command``, the command line that ran the
  search, and ``recommendation`` (the search's one answer for a designer, its ``text`` quoted in the
  report's summary word for word); other keys are ignored;
* ``pareto.parquet`` (optional): the search's Pareto set, shown as a table as it is;
* ``skill.parquet`` (optional): the skill curve (``ccsim.analyses.balance.publish.skill``), drawn in the report.

A folder that does not exist is no error: the section waits (``found`` false) until the search
has run, and the report says so.
"""
from __future__ import annotations

import json
import tomllib
from pathlib import Path

from ccsim.analyses.question import WhatIfError, load_changes_data

__all__ = ["BalanceResultsError", "read_balance_results", "DEFAULT_TOLERANCE"]

DEFAULT_TOLERANCE = 0.01


class BalanceResultsError(ValueError):
    """A results folder that exists but cannot be used (one line naming the file)."""


def _summary(path: Path) -> dict:
    if not path.is_file():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise BalanceResultsError(f"{path}: not readable JSON ({e})") from None
    tol = data.get("tolerance", DEFAULT_TOLERANCE)
    if isinstance(tol, bool) or not isinstance(tol, (int, float)) or not 0 < tol < 0.5:
        raise BalanceResultsError(f"{path}: tolerance must be a share in (0, 0.5), got {tol!r}")
    rec = data.get("recommendation") or {}
    return dict(tolerance=float(tol), command=str(data.get("command", "")),
                recommendation=rec.get("text", "") if isinstance(rec, dict) else "")


def read_balance_results(folder, top: int) -> dict:
    """The section's settings from ``folder``: ``found``; the first ``top`` recommended changes
    (``change``, ``ccsim.analyses.question.Change``s); ``tolerance``; ``command``; ``pareto`` (the Parquet
    file's path, or None)."""
    folder = Path(folder)
    none = dict(found=False, change=(), tolerance=DEFAULT_TOLERANCE, command="", pareto=None, skill=None,
                recommendation="")
    if not folder.is_dir():
        return none
    rec = folder / "recommended.toml"
    try:
        text = rec.read_text(encoding="utf-8")
        changes, _ = load_changes_data(tomllib.loads(text), str(rec))
    except OSError as e:
        raise BalanceResultsError(f"{rec}: cannot read it ({e.strerror})") from None
    except tomllib.TOMLDecodeError as e:
        raise BalanceResultsError(f"{rec}: not valid TOML ({e})") from None
    except WhatIfError as e:
        raise BalanceResultsError(str(e)) from None
    pareto, skill = folder / "pareto.parquet", folder / "skill.parquet"
    return dict(none, found=True, change=tuple(changes[:top]), pareto=str(pareto) if pareto.is_file() else None,
                skill=str(skill) if skill.is_file() else None, **_summary(folder / "summary.json"))

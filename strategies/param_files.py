"""Parameter files: the TOML files that make a strategy out of data (the socket's half).

``strategies/params/*.toml`` (and any path given as a strategy name) hold one family's parameters,
named by ``family = "..."`` (``weighted`` when a file names none).  The families declare which
files are theirs, their top-level keys and how they load (``strategies.family.Family``); the shipped
ones:

* ``family = "weighted"``: ``[weights]`` of the weighted family (``heuristics.layouts.PARAM_NAMES``)
  and, if it likes, ``[switches]``; registered as ``weighted-<stem>`` (strategies.heuristics.styles);
* ``family = "heuristic"``: a *style*: an ``id``, ``[weights]`` and ``[switches]``; registered as
  ``<stem>`` (strategies.heuristics.styles);
* ``family = "expert"``: ``[search]`` parameters of the search player (``search.expert.expert_params``);
* ``family = "learned"``: the weights of the learned player, a table per decision kind
  (``learned.model_vector``; ``strategies/weights/learned.toml`` is the shipped one).

A name that is not a key of the file's family is refused, in one line.
"""
import tomllib
from pathlib import Path

from ccsim.errors import InputError

PARAMS_DIR = Path(__file__).resolve().parent / "params"
DEFAULT_FAMILY = "weighted"  # the family of a file that names none


class ParamFileError(InputError):
    """A parameter file that cannot be used (one line naming the problem)."""


def read_toml(path: Path) -> dict:
    try:
        return tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as e:
        raise ParamFileError(f"cannot read parameter file {path}: {e.strerror}") from None
    except tomllib.TOMLDecodeError as e:
        raise ParamFileError(f"parameter file {path} is not valid TOML: {e}") from None


def family_of(path, data: dict, known) -> str:
    """The family a parameter file is for (``known``: the families that read files)."""
    family = data.get("family", DEFAULT_FAMILY)
    if family not in known:
        raise ParamFileError(f"parameter file {path}: unknown family {family!r} (known: {', '.join(known)})")
    return family


def refuse_stray_keys(path, data: dict, known: set, hint_names=()) -> None:
    """A key outside the file's tables would be silently ignored: refuse it."""
    stray = sorted(set(data) - known)
    if stray:
        hint = " (weights go in the [weights] table)" if stray[0] in hint_names else ""
        raise ParamFileError(f"parameter file {path}: unknown top-level key {stray[0]!r}{hint}; "
                             f"top-level keys: {', '.join(sorted(known))}")


def table(path, data: dict, key: str) -> dict:
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise ParamFileError(f"parameter file {path}: [{key}] must be a table")
    return value

"""Finished work that cannot be read back: named, set aside, played again.

A long run keeps what it finished in files (``ccsim balance``'s tasks, ``ccsim report``'s parts) and a
rerun loads them instead of playing them again.  A file that a disk error or a partial copy left
truncated, empty or garbled must not stop the rerun with a traceback, nor be deleted (it is the user's
data, and may be wanted to find out what happened): the stores rename it with a ``.damaged`` suffix
(``set_aside``), say so in one line (``reason``) and play its games again, so the run ends with the
result an undamaged run gives.
"""
from __future__ import annotations

import os
from pathlib import Path

__all__ = ["SUFFIX", "set_aside", "reason", "read_errors"]

SUFFIX = ".damaged"


def read_errors() -> tuple[type[BaseException], ...]:
    """The exceptions reading a damaged file raises (and no others: a bug in ccsim must still show).

    zipfile's BadZipFile (an npz cut short or garbled), EOFError (an empty npz), ValueError (garbage,
    unreadable JSON: JSONDecodeError and UnicodeDecodeError are ValueErrors; pyarrow's ArrowInvalid),
    KeyError (an array or table missing), OSError (a disk error, a missing file, pyarrow's IO errors)
    and pyarrow's other errors, imported here only when pyarrow is there (balance needs none of it).
    """
    from zipfile import BadZipFile
    errors: tuple = (BadZipFile, EOFError, ValueError, KeyError, OSError)
    try:
        from pyarrow import ArrowException
    except ImportError:  # pragma: no cover - pandas' Parquet needs pyarrow, which ccsim installs
        return errors
    return errors + (ArrowException,)


def reason(e: BaseException) -> str:
    """An exception as one line: its class and message (pyarrow's may span lines)."""
    text = " ".join(str(e).split())
    return f"{type(e).__name__}: {text}" if text else type(e).__name__


def set_aside(path: Path) -> Path:
    """Rename ``path`` (a file or a folder) to ``<path>.damaged``, or ``.damaged.2``, ``.3`` ... when
    that name is taken (by an earlier damage): never over anything.  Returns the new path."""
    path = Path(path)
    target, n = path.with_name(path.name + SUFFIX), 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}{SUFFIX}.{n}")
    os.rename(path, target)
    return target

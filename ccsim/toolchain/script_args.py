"""The scripts' argument parser: a usage error is one line on stderr and exit status 2, as at ``ccsim``'s door.

argparse prints the whole usage before its error; a person who typed a wrong flag needs the error, and
``--help`` has the usage.
"""
from __future__ import annotations

import argparse
import sys

__all__ = ["ScriptParser"]


class ScriptParser(argparse.ArgumentParser):
    """``argparse.ArgumentParser`` whose errors are one line (``prog: error: message``) and exit 2."""

    def error(self, message: str):
        print(f"{self.prog}: error: {message} (--help shows the usage)", file=sys.stderr)
        raise SystemExit(2)

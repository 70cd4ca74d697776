"""ccsim — reference simulator and analysis workbench for Caesar & Cleopatra."""
from ccsim.toolchain.cache import configure as _configure_cache

NUMBA_CACHE = _configure_cache()  # before any compiled function is defined

__version__ = "0.1.0"


def __getattr__(name):
    if name == "Game":  # imported on first use: the edge modules do not pay for it
        from ccsim.play.game import Game
        return Game
    raise AttributeError(f"module 'ccsim' has no attribute {name!r}")

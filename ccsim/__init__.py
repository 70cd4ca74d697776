"""ccsim — reference simulator and analysis workbench for Caesar & Cleopatra.

Importing ccsim leaves numba's own settings alone: ccsim's compiled functions cache in ccsim's
folders (``ccsim.toolchain.cache``), every other library's where numba puts them."""
__version__ = "0.1.0"


def __getattr__(name):
    if name == "Game":  # imported on first use: the edge modules do not pay for it
        from ccsim.play.game import Game
        return Game
    raise AttributeError(f"module 'ccsim' has no attribute {name!r}")

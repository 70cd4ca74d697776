"""ccsim — reference simulator and analysis workbench for Caesar & Cleopatra."""
from ccsim._cache import configure as _configure_cache

NUMBA_CACHE = _configure_cache()  # before any compiled function is defined

__version__ = "0.1.0"

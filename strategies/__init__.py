"""ccsim's plug-in strategies: the socket (``registry``, ``family``, ``param_files``) and the
families in wings (``heuristics``, ``learned``, ``neural``, ``search``), each declaring itself
(strategies/README.md), found by ``strategies.registry``.  Folders named in ``CCSIM_STRATEGY_PATH``
(os.pathsep-separated) join the package, so a strategy of one's own can live outside the repository."""
import os as _os

__path__ += [p for p in _os.environ.get("CCSIM_STRATEGY_PATH", "").split(_os.pathsep) if p]  # noqa: F821

"""Point numba's on-disk cache at folders keyed by the sources compiled code can reach.

numba invalidates a cached function only when its own file changes, not when a
function it calls (in another file) does: after an edit to a rule, a cached
kernel would silently keep the old code.  So every compiled function is
cached in a folder keyed by a hash of the sources it can reach:

* the **engine** (everything in ``ccsim/``): ``<base>/engine-<hash of ccsim>``;
* the **strategies** (``strategies/``, which call into ``ccsim``'s helpers):
  ``<base>/strategies-<hash of ccsim and strategies>``.

The engine imports no strategy (it calls them through their compiled entries,
``ccsim.kernel.engine.dispatch``), so adding or editing a strategy starts a fresh
strategies folder and leaves the engine's cache as it is.  ``ccsim.toolchain.jit.njit``
picks the folder when it decorates a function (``cache_dir_for``); numba fixes a function's
cache path at that moment, so numba's own setting is restored at once and other libraries'
functions cache where numba puts them.  ``<base>`` is ``$CCSIM_CACHE_DIR``, or
``$NUMBA_CACHE_DIR/ccsim`` (numba's folder, when one is set), or ``$XDG_CACHE_HOME/ccsim/numba``,
or ``~/.cache/ccsim/numba``.
"""
import contextlib
import hashlib
import os
import shutil
from pathlib import Path

_KEEP = 3  # cache folders of other source versions kept (per kind) before pruning

# modules without compiled functions whose constants compiled code freezes in
_CONSTANT_MODULES = {"rules.py", "layout.py"}

_HERE = Path(__file__).resolve().parents[1]  # ccsim/
ENGINE_ROOTS = (_HERE,)
STRATEGIES = "strategies"  # the package of the plug-in strategies (compiled code outside ccsim)


def strategy_roots() -> tuple:
    """ccsim and the folders of the strategies package as it says them itself (its ``__path__``:
    its own folder and the plug-in folders of CCSIM_STRATEGY_PATH, strategies/__init__.py)."""
    import importlib
    return (_HERE, *map(Path, importlib.import_module(STRATEGIES).__path__))

_FOLDERS: dict[str, str] = {}


def _reaches_kernel(path: Path, text: bytes) -> bool:
    if path.suffix == ".npz":  # a network's weights, frozen into its compiled player (strategies/neural)
        return True
    if path.suffix == ".toml":  # a style compiled code freezes (the search's prior, the learned player's
        # tables: tactician.toml); weight, search and learned files are run-time parameters
        return b'family = "heuristic"' in text
    return b"njit" in text or b"cfunc" in text or path.name in _CONSTANT_MODULES


def source_hash(roots) -> str:
    """Hash of every source file compiled code can reach under ``roots`` (pure-Python edge
    modules excluded, so editing the CLI or the reports keeps the cache), and of the parameter
    files (``params/*.toml``)."""
    h = hashlib.sha256()
    for root in roots:
        root = Path(root)
        if not root.is_dir():
            continue
        for path in sorted([*root.rglob("*.py"), *root.rglob("*.toml"), *root.rglob("*.npz")]):
            text = path.read_bytes()
            if _reaches_kernel(path, text):
                h.update(f"{root.name}/{path.relative_to(root)}".encode())
                h.update(text)
    return h.hexdigest()[:16]


# numba releases (major.minor) whose internals ccsim.toolchain.jit's replacements were tested on (CI).
# Under any other release, or with CCSIM_PLAIN_NUMBA=1, ccsim runs plain numba: the same
# games, slower, compiled into cache folders of their own (``plain-engine-…``).
TESTED_NUMBA = ("0.68",)


def plain_numba() -> bool:
    """Whether ccsim.toolchain.jit leaves numba as it is (see TESTED_NUMBA)."""
    if os.environ.get("CCSIM_PLAIN_NUMBA", "") not in ("", "0"):
        return True
    import numba
    return ".".join(numba.__version__.split(".")[:2]) not in TESTED_NUMBA


def cache_base() -> Path:
    """The folder that holds ccsim's cache folders (the module's docstring: which variable sets it)."""
    env = os.environ.get("CCSIM_CACHE_DIR")
    if env:
        return Path(env)
    if os.environ.get("NUMBA_CACHE_DIR"):  # the user's folder for numba's caches: ccsim's go in it too
        return Path(os.environ["NUMBA_CACHE_DIR"]) / "ccsim"
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "ccsim" / "numba"


def _prune(base: Path, current: Path, kind: str) -> None:
    others = sorted((p for p in base.iterdir() if p.is_dir() and p != current and p.name.startswith(kind + "-")),
                    key=lambda p: p.stat().st_mtime)
    for old in others[:-_KEEP] if len(others) > _KEEP else []:
        shutil.rmtree(old, ignore_errors=True)


def _folder(kind: str, roots) -> str:
    if kind not in _FOLDERS:
        prefix = "plain-" if plain_numba() else ""  # plain numba cannot load the patched code, nor it plain code
        folder = cache_base() / f"{prefix}{kind}-{source_hash(roots)}"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            _prune(folder.parent, folder, prefix + kind)
        except OSError:
            import numba
            folder = Path(numba.config.CACHE_DIR or "")  # read-only home: numba's default applies
        _FOLDERS[kind] = str(folder)
    return _FOLDERS[kind]


def engine_folder() -> str:
    return _folder("engine", ENGINE_ROOTS)


def strategies_folder() -> str:
    return _folder("strategies", strategy_roots())


# ccsim rooms whose kernels compile strategies' code into their own (the training plays the players it
# trains inside its branched self-play and its teacher's search): keyed by the strategies' sources too,
# or an edit to a player's network inputs would leave a training kernel cached with the old ones
STRATEGY_READERS = ("ccsim.training",)


def folder_for(module: str) -> str:
    """The cache folder of a compiled function defined in ``module``."""
    reads_strategies = module.split(".")[0] == STRATEGIES or any(
        module == r or module.startswith(r + ".") for r in STRATEGY_READERS)
    return strategies_folder() if reads_strategies else engine_folder()


@contextlib.contextmanager
def cache_dir_for(module: str):
    """numba's cache folder set for functions of ``module`` while they are decorated."""
    import numba
    before = numba.config.CACHE_DIR
    numba.config.CACHE_DIR = folder_for(module)
    try:
        yield
    finally:
        numba.config.CACHE_DIR = before


def on_disk(dispatcher) -> bool:
    """Whether numba's on-disk cache holds compiled code for ``dispatcher`` (its index lists
    an entry): loading it then takes a second, where compiling takes many.  The one place
    that reads numba's cache index (a private of numba's, hence here)."""
    try:
        return bool(dispatcher._cache._cache_file._load_index())
    except Exception:  # no disk cache (NUMBA_DISABLE_JIT, a plain function): a compile is ahead
        return False


def cfunc_on_disk(module: str, qualname: str) -> bool:
    """Whether numba's cache holds a ``cfunc`` ``qualname`` of ``module`` (its index files
    are ``<module's file stem>.<qualname>-<line>.py<version>.nbi`` in the module's folder)."""
    try:
        return any(Path(folder_for(module)).glob(f"{module.rsplit('.', 1)[-1]}.{qualname}-*.nbi"))
    except OSError:
        return False

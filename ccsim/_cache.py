"""Point numba's on-disk cache at a folder keyed by the source of ccsim and strategies.

numba invalidates a cached function only when its own file changes, not when a
function it calls does: after an edit to a strategy or a rule, a cached kernel
would silently keep the old code.  Keying the cache folder by a hash of every
source file that compiled code can reach makes any edit start a fresh cache
(a cold start), and an unchanged tree reuse it across processes.
"""
import hashlib
import os
import shutil
from pathlib import Path

_KEEP = 3  # cache folders of other source versions kept before pruning


# modules without compiled functions whose constants compiled code freezes in
_CONSTANT_MODULES = {"rules.py", "layout.py"}


def _reaches_kernel(path: Path, text: bytes) -> bool:
    return b"njit" in text or path.name in _CONSTANT_MODULES


def source_hash(roots) -> str:
    """Hash of every source file compiled code can reach (pure-Python edge modules excluded,
    so editing the CLI or the reports keeps the cache)."""
    h = hashlib.sha256()
    for root in roots:
        for path in sorted(Path(root).rglob("*.py")):
            text = path.read_bytes()
            if _reaches_kernel(path, text):
                h.update(str(path.relative_to(root)).encode())
                h.update(text)
    return h.hexdigest()[:16]


def cache_base() -> Path:
    env = os.environ.get("CCSIM_CACHE_DIR")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "ccsim" / "numba"


def _prune(base: Path, current: Path) -> None:
    others = sorted((p for p in base.iterdir() if p.is_dir() and p != current), key=lambda p: p.stat().st_mtime)
    for old in others[:-_KEEP] if len(others) > _KEEP else []:
        shutil.rmtree(old, ignore_errors=True)


def configure() -> Path:
    """Set numba's cache folder for this source tree; returns it."""
    import numba

    here = Path(__file__).resolve().parent
    roots = [here, here.parent / "strategies"]
    folder = cache_base() / source_hash([r for r in roots if r.is_dir()])
    try:
        folder.mkdir(parents=True, exist_ok=True)
        _prune(folder.parent, folder)
    except OSError:
        return Path(numba.config.CACHE_DIR or "")  # read-only home: numba's default applies
    numba.config.CACHE_DIR = str(folder)
    return folder

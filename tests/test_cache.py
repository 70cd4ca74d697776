"""numba's on-disk cache: the engine's folder does not depend on the strategies, and ccsim's folders hold
ccsim's functions only (ccsim.toolchain.cache)."""
import importlib
import json
import os
import pkgutil
import shutil
import subprocess
import sys
from pathlib import Path

from numba.core.dispatcher import Dispatcher

import ccsim
from ccsim.toolchain import cache as _cache

ROOT = Path(ccsim.__file__).resolve().parent.parent


def _copy_tree(tmp_path):
    for name in ("ccsim", "strategies"):
        shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path / "ccsim", tmp_path / "strategies"


def _keys(c, s):
    return _cache.source_hash([c]), _cache.source_hash([c, s])


def test_editing_or_adding_a_strategy_keeps_the_engine_key(tmp_path):
    c, s = _copy_tree(tmp_path)
    engine, strategies = _keys(c, s)
    assert (engine, strategies) == (_cache.source_hash(_cache.ENGINE_ROOTS), _cache.source_hash(_cache.strategy_roots()))
    with open(s / "greedy.py", "a") as f:
        f.write("\n\n@njit(cache=True)\ndef edited_nb(x):\n    return x\n")
    assert _keys(c, s)[0] == engine and _keys(c, s)[1] != strategies
    (s / "mine.py").write_text("from ccsim.toolchain.jit import njit\n\n\n@njit(cache=True)\ndef choose_mine_nb(x):\n    return 0\n")
    assert _keys(c, s)[0] == engine


def test_editing_a_rule_changes_both_keys(tmp_path):
    c, s = _copy_tree(tmp_path)
    engine, strategies = _keys(c, s)
    with open(c / "kernel" / "engine" / "vote.py", "a") as f:
        f.write("\n# R6: an edit\n")
    assert _keys(c, s)[0] != engine and _keys(c, s)[1] != strategies


def test_edge_modules_do_not_reach_the_kernel(tmp_path):
    c, s = _copy_tree(tmp_path)
    engine, _ = _keys(c, s)
    with open(c / "cli" / "batch.py", "a") as f:
        f.write("\n# a comment\n")
    assert _keys(c, s)[0] == engine


def _dispatchers(package):
    mod = importlib.import_module(package)
    names = [package] + [m.name for m in pkgutil.walk_packages(mod.__path__, prefix=package + ".")
                         if not m.name.endswith("__main__")]  # (importing it runs the command)
    for name in names:
        for obj in vars(importlib.import_module(name)).values():
            if isinstance(obj, Dispatcher) and obj.__module__ == name and obj._cache is not None:
                yield name, obj


def test_every_compiled_function_caches_in_its_own_kind_of_folder():
    engine = _cache.engine_folder()
    strategies = _cache.strategies_folder()
    assert engine != strategies
    seen = {"ccsim": 0, "strategies": 0, "training": 0}
    for package, folder in (("ccsim", engine), ("strategies", strategies)):
        for name, disp in _dispatchers(package):
            training = name.startswith("ccsim.training")  # its kernels inline strategies' code
            want = strategies if training else folder
            assert disp._cache._cache_path.startswith(want), f"{name}.{disp.__name__}"
            seen["training" if training else package] += 1
    assert seen["ccsim"] > 20 and seen["strategies"] > 20 and seen["training"] >= 3


def test_a_training_kernel_is_keyed_by_the_players_it_inlines(tmp_path):
    """The branched self-play compiles the network player into its own kernel: editing the
    network's inputs must not leave that kernel cached with the old ones."""
    assert _cache.folder_for("ccsim.training.branches") == _cache.strategies_folder()
    assert _cache.folder_for("ccsim.kernel.simulate") == _cache.engine_folder()


_THEIRS = "import numba\n\n\n@numba.njit(cache=True)\ndef theirs(x):\n    return x + 1\n"
_WHERE = """
import json, sys, numba
before = numba.config.CACHE_DIR
import ccsim.kernel.simulate, strategies.registry  # decorates ccsim's compiled functions
from ccsim.toolchain.cache import engine_folder
sys.path.insert(0, sys.argv[1])
import theirs
print(json.dumps([before, numba.config.CACHE_DIR, engine_folder(), theirs.theirs._cache._cache_path]))
"""


def test_ccsims_folder_is_for_ccsims_functions_only(tmp_path):
    # importing ccsim once set numba's process-wide folder, so other libraries'
    # functions cached in ccsim's; NUMBA_CACHE_DIR (numba's own variable) holds ccsim's folders too
    (tmp_path / "theirs.py").write_text(_THEIRS)
    env = {k: v for k, v in os.environ.items() if k != "CCSIM_CACHE_DIR"}
    env.update(NUMBA_CACHE_DIR=str(tmp_path / "numba"),
               PYTHONPATH=os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]))
    done = subprocess.run([sys.executable, "-c", _WHERE, str(tmp_path)], env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    before, after, engine, theirs = json.loads(done.stdout.strip().splitlines()[-1])
    assert after == before == str(tmp_path / "numba")
    assert Path(engine).parent == tmp_path / "numba" / "ccsim"
    assert Path(theirs).is_relative_to(tmp_path / "numba") and not Path(theirs).is_relative_to(Path(engine).parent)


def test_which_variable_sets_ccsims_folder(monkeypatch, tmp_path):
    monkeypatch.setenv("CCSIM_CACHE_DIR", str(tmp_path / "mine"))
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "numba"))
    assert _cache.cache_base() == tmp_path / "mine"
    monkeypatch.delenv("CCSIM_CACHE_DIR")
    assert _cache.cache_base() == tmp_path / "numba" / "ccsim"
    monkeypatch.delenv("NUMBA_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert _cache.cache_base() == tmp_path / "xdg" / "ccsim" / "numba"

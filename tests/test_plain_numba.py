"""CCSIM_PLAIN_NUMBA=1: numba as it is, without ccsim.toolchain.jit's replacements of its internals,
plays the same games (the way out when a numba release breaks them; ccsim.toolchain.cache.TESTED_NUMBA).

The plain process compiles from an empty cache of its own (about 1-2 minutes here)."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import ccsim.toolchain.jit
import ccsim.analyses.run as cr

ROOT = str(Path(__file__).resolve().parents[1])
PAIRINGS = [("random", "random"), ("greedy", "tactician"), ("tactician", "defender")]
GAMES = 300

_PLAY = f"""
import json, sys
import ccsim.toolchain.jit, ccsim.analyses.run as cr
rows = [cr.simulate(a, b, games={GAMES}, seed=5).to_dict("list") for a, b in {PAIRINGS!r}]
print(json.dumps({{"plain": ccsim.toolchain.jit.PLAIN, "rows": rows}}))
"""


def _frames_as_json(frames):
    return json.loads(json.dumps([f.to_dict("list") for f in frames]))


@pytest.mark.slow
def test_plain_numba_plays_the_same_games(compiled, tmp_path):
    env = dict(os.environ, CCSIM_PLAIN_NUMBA="1", CCSIM_CACHE_DIR=str(tmp_path / "cache"),
               PYTHONPATH=os.pathsep.join([ROOT, os.environ.get("PYTHONPATH", "")]))
    done = subprocess.run([sys.executable, "-c", _PLAY], env=env, capture_output=True, text=True, timeout=1200)
    assert done.returncode == 0, done.stderr[-2000:]
    plain = json.loads(done.stdout.strip().splitlines()[-1])
    assert plain["plain"] is True
    here = _frames_as_json(cr.simulate(a, b, games=GAMES, seed=5) for a, b in PAIRINGS)
    assert plain["rows"] == here
    assert any(len(set(f["winner"])) > 1 for f in here)  # real games, not empty frames
    assert all(len(next(iter(f.values()))) == GAMES for f in here)


def test_the_switch_and_the_version_gate(monkeypatch):
    from ccsim.toolchain import cache as _cache
    monkeypatch.setenv("CCSIM_PLAIN_NUMBA", "1")
    assert _cache.plain_numba()
    monkeypatch.setenv("CCSIM_PLAIN_NUMBA", "0")
    import numba
    monkeypatch.setattr(numba, "__version__", "9.99.0")
    assert _cache.plain_numba()  # an untested release: numba as it is
    monkeypatch.setattr(numba, "__version__", _cache.TESTED_NUMBA[-1] + ".1")
    assert not _cache.plain_numba()


def test_this_process_runs_the_tested_numba_patched():
    import numba
    from ccsim.toolchain.cache import TESTED_NUMBA
    tested = ".".join(numba.__version__.split(".")[:2]) in TESTED_NUMBA
    assert ccsim.toolchain.jit.PLAIN == (not tested or os.environ.get("CCSIM_PLAIN_NUMBA", "") not in ("", "0"))


def test_the_pin_is_the_tested_release():
    # pyproject admits only the release the replacements are tested on: a new numba is a
    # deliberate bump (TESTED_NUMBA and the pin together), never a silent switch to plain numba in CI
    import tomllib
    from ccsim.toolchain.cache import TESTED_NUMBA
    deps = tomllib.loads((Path(ROOT) / "pyproject.toml").read_text())["project"]["dependencies"]
    pins = [d.split("#")[0].strip() for d in deps if d.startswith("numba")]
    assert pins == [f"numba=={TESTED_NUMBA[-1]}.*"] and len(TESTED_NUMBA) == 1

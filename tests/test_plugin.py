"""A strategy is one file, a family one file or folder: the worked example of strategies/README.md, `hoarder`,
kept outside the repository and named by CCSIM_STRATEGY_PATH, is listed, played and
replayed with no edit to the registry or the engine."""
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _hoarder_source() -> str:
    text = (ROOT / "strategies" / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## Worked example: a new strategy"):]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def _ccsim(args, env):
    return subprocess.run([sys.executable, "-m", "ccsim.cli", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=900)


@pytest.fixture(scope="module")
def plugin_env(tmp_path_factory):
    folder = tmp_path_factory.mktemp("plugins")
    (folder / "hoarder.py").write_text(_hoarder_source(), encoding="utf-8")
    return dict(os.environ, CCSIM_STRATEGY_PATH=str(folder),
                PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))


def test_the_readme_example_is_a_whole_strategy():
    source = _hoarder_source()
    assert 'NAME = "hoarder"' in source and "ID = 20" in source and "CHOOSE = choose_hoarder_nb" in source


@pytest.mark.slow  # compiles the plug-in and its kernels in a fresh cache
def test_a_plugin_file_is_listed_and_plays_legal_games(plugin_env, tmp_path):
    listed = _ccsim(["strategies", "--json"], plugin_env)
    assert listed.returncode == 0, listed.stderr
    names = [s["name"] for s in json.loads(listed.stdout)]
    assert "hoarder" in names and names.index("hoarder") < names.index("expert")
    record = tmp_path / "g.jsonl"
    run = _ccsim(["run", "--games", "200", "--cleopatra", "hoarder", "--caesar", "greedy", "--swap-seats",
                  "--record", str(record), "--record-games", "5", "--json"], plugin_env)
    assert run.returncode == 0, run.stderr[-2000:]
    summary = json.loads(run.stdout)
    assert summary["games"] == 400 and summary["engine_errors"] == 0
    check = _ccsim(["replay", str(record), "--check"], plugin_env)
    assert check.returncode == 0 and "10 passed, 0 failed" in check.stdout, check.stdout


def test_two_strategies_with_one_id_are_refused(plugin_env, tmp_path):
    clash = tmp_path / "clash"
    clash.mkdir()
    (clash / "twin.py").write_text(_hoarder_source().replace('NAME = "hoarder"', 'NAME = "twin"')
                                   .replace("ID = 20", "ID = 1"), encoding="utf-8")
    env = dict(plugin_env, CCSIM_STRATEGY_PATH=str(clash))
    out = _ccsim(["strategies"], env)
    assert out.returncode != 0 and "share the ID 1" in out.stderr


_FAMILY = '''"""`lefty`: a family of two players, declared by one descriptor (strategies.family)."""
import numpy as np

from ccsim.toolchain.jit import njit
from strategies.family import Family, Player


@njit(cache=True)
def choose_lefty_nb(params, kind, opts, n, pub, own, mem, me, rng):
    k = int(params[0])  # the option it always plays, when there are that many
    return k if k < n else n - 1


FAMILIES = (Family("lefty", (Player("lefty-first", 30, "always the first option", choose_lefty_nb, np.array([0.0])),
                             Player("lefty-second", 31, "always the second option", choose_lefty_nb,
                                    np.array([1.0])))),)
'''


@pytest.fixture
def family_env(tmp_path):
    """A new family, a folder of its own named by CCSIM_STRATEGY_PATH, with nothing edited outside it."""
    (tmp_path / "lefty").mkdir()
    (tmp_path / "lefty" / "__init__.py").write_text(_FAMILY, encoding="utf-8")
    return dict(os.environ, CCSIM_STRATEGY_PATH=str(tmp_path),
                PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))


def test_a_family_folder_is_registered(family_env):
    listed = _ccsim(["strategies", "--json"], family_env)
    assert listed.returncode == 0, listed.stderr
    mine = [(s["name"], s["id"], s["family"]) for s in json.loads(listed.stdout) if s["family"] == "lefty"]
    assert mine == [("lefty-first", 30, "lefty"), ("lefty-second", 31, "lefty")]


def test_a_family_folder_plays(family_env, compiled):
    # the engine compiled in this session first: the run loads it from the cache and compiles the family
    run = _ccsim(["run", "--games", "40", "--cleopatra", "lefty-first", "--caesar", "lefty-second", "--json"],
                 family_env)
    assert run.returncode == 0, run.stderr[-2000:]
    summary = json.loads(run.stdout)
    assert summary["games"] == 40 and summary["engine_errors"] == 0

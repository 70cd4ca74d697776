"""ccsim.coldstart: a cold kernel compiled in a helper process while the run resolves its seats."""
import os
import subprocess
import sys

import pytest

from ccsim import coldstart


class _Helper:
    def __init__(self):
        self.waited = self.killed = False

    def wait(self):
        self.waited = True

    def kill(self):
        self.killed = True


@pytest.fixture
def helpers(monkeypatch):
    started = []
    monkeypatch.setattr(coldstart, "_wanted", lambda: True)
    monkeypatch.setattr(coldstart, "_start_helper", lambda: started.append(_Helper()) or started[-1])
    return started


def test_a_helper_starts_only_for_a_kernel_not_cached_and_is_waited_for(helpers, monkeypatch):
    monkeypatch.setattr(coldstart, "kernel_cached", lambda: True)
    with coldstart.kernel_beside():
        pass
    assert helpers == []
    monkeypatch.setattr(coldstart, "kernel_cached", lambda: False)
    with coldstart.kernel_beside():
        assert not helpers[0].waited  # it runs beside the block
    assert helpers[0].waited and not helpers[0].killed


def test_leaving_by_an_exception_stops_the_helper(helpers, monkeypatch):
    monkeypatch.setattr(coldstart, "kernel_cached", lambda: False)
    with pytest.raises(KeyboardInterrupt):
        with coldstart.kernel_beside():
            raise KeyboardInterrupt
    assert helpers[0].killed


def test_the_switch_turns_the_helper_off(monkeypatch):
    monkeypatch.setenv("CCSIM_COMPILE_BESIDE", "0")
    assert not coldstart._wanted()


def test_the_helper_compiles_the_one_kernel_the_batch_calls_use(compiled):
    """Its game compiles no second signature of the kernel: what it caches is what runs load."""
    from ccsim.simulate import play_specs_block_nb
    before = list(play_specs_block_nb.signatures)
    coldstart.compile_kernel()
    assert play_specs_block_nb.signatures == before and len(before) == 1
    assert coldstart.kernel_cached()


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="the helper needs a second core")
def test_a_cold_run_loads_the_kernel_the_helper_compiled(tmp_path):
    """End to end, with an empty numba cache: `ccsim run` starts the helper, waits for it and
    loads the kernel from the cache (numba's cache log) instead of compiling it."""
    env = dict(os.environ, CCSIM_CACHE_DIR=str(tmp_path / "cache"), NUMBA_DEBUG_CACHE="1")
    env.pop("CCSIM_COMPILE_BESIDE", None)
    done = subprocess.run([sys.executable, "-m", "ccsim.cli", "run", "--games", "200", "--cleopatra", "random",
                           "--caesar", "random"], env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    loaded = [line for line in done.stdout.splitlines() if "data loaded" in line]
    assert any("play_specs_block_nb" in line for line in loaded), done.stdout[-2000:]
    assert "end reasons" in done.stdout

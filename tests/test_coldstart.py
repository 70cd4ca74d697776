"""ccsim.runner.coldstart: a cold kernel compiled in a helper process while the run resolves its seats."""
import os
import subprocess
import sys
from types import SimpleNamespace

import pytest

from ccsim.runner import coldstart


class _Helper:
    def __init__(self, polls_left):
        self.waited = self.killed = False
        self.polls_left = polls_left

    def poll(self):  # None while running
        self.polls_left -= 1
        return 0 if self.polls_left < 0 else None

    def wait(self):
        self.waited = True

    def kill(self):
        self.killed = True


@pytest.fixture
def helpers(monkeypatch):
    """Fake helpers that finish after their third poll; the late parts only counted."""
    started = []
    monkeypatch.setattr(coldstart, "_wanted", lambda: True)
    monkeypatch.setattr(coldstart, "_start_helper", lambda: started.append(_Helper(3)) or started[-1])
    compiled = []
    monkeypatch.setattr(coldstart, "_late_parts", lambda: [(_Part(compiled, k), ()) for k in range(10)])
    return SimpleNamespace(started=started, late=compiled)


class _Part:
    def __init__(self, log, k):
        self.log, self.k = log, k

    def get_call_template(self, args, kws):
        self.log.append(self.k)


def test_a_helper_starts_only_for_a_kernel_not_cached_and_is_waited_for(helpers, monkeypatch):
    monkeypatch.setattr(coldstart, "kernel_cached", lambda: True)
    with coldstart.kernel_beside():
        pass
    assert helpers.started == []
    monkeypatch.setattr(coldstart, "kernel_cached", lambda: False)
    with coldstart.kernel_beside():
        assert not helpers.started[0].waited  # it runs beside the block
    assert helpers.started[0].waited and not helpers.started[0].killed
    assert helpers.late == [0, 1, 2]  # late parts compiled here until the helper was done


def test_leaving_by_an_exception_stops_the_helper(helpers, monkeypatch):
    monkeypatch.setattr(coldstart, "kernel_cached", lambda: False)
    with pytest.raises(KeyboardInterrupt):
        with coldstart.kernel_beside():
            raise KeyboardInterrupt
    assert helpers.started[0].killed and helpers.late == []


def test_the_switch_turns_the_helper_off(monkeypatch):
    monkeypatch.setenv("CCSIM_COMPILE_BESIDE", "0")
    assert not coldstart._wanted()


def test_no_helper_without_a_cache_it_can_write(monkeypatch):
    """A helper's compile would be lost: this process would only wait for it."""
    monkeypatch.delenv("CCSIM_COMPILE_BESIDE", raising=False)
    monkeypatch.setattr(coldstart.os, "cpu_count", lambda: 2)
    monkeypatch.setattr(coldstart, "_jit_disabled", lambda: False)
    monkeypatch.setattr(coldstart.os, "access", lambda path, mode: True)
    assert coldstart._wanted()
    monkeypatch.setattr(coldstart.os, "access", lambda path, mode: False)
    assert not coldstart._wanted()


def test_the_helper_compiles_the_one_kernel_the_batch_calls_use(compiled):
    """Its game compiles no second signature of the kernel: what it caches is what runs load."""
    from ccsim.kernel.simulate import play_specs_block_nb
    before = list(play_specs_block_nb.signatures)
    coldstart.compile_kernel()
    assert play_specs_block_nb.signatures == before and len(before) == 1
    assert coldstart.kernel_cached()


@pytest.mark.slow
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


_LATE_PARTS = "from ccsim.runner.coldstart import compile_late_parts; compile_late_parts()"
_KERNEL = "from ccsim.runner.coldstart import compile_kernel; compile_kernel()"


@pytest.mark.slow
def test_the_late_parts_are_those_the_kernel_compile_finds_in_the_cache(tmp_path):
    """Each late part compiled by one process, with the argument types the kernel calls it
    with, is loaded from the disk cache (as LLVM IR) by the kernel's compile in another."""
    env = dict(os.environ, CCSIM_CACHE_DIR=str(tmp_path / "cache"), NUMBA_DEBUG_CACHE="1")
    subprocess.run([sys.executable, "-c", _LATE_PARTS], env=env, check=True, capture_output=True, timeout=600)
    done = subprocess.run([sys.executable, "-c", _KERNEL], env=env, check=True, capture_output=True, text=True,
                          timeout=600)
    loaded = "\n".join(line for line in done.stdout.splitlines() if "data loaded" in line)
    for fn, _ in coldstart._late_parts():
        assert f".{fn.py_func.__name__}-" in loaded, fn.py_func.__name__

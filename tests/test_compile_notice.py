"""Never silent: the compile notice, ``ccsim compile``, and times that count games only."""
import io
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from ccsim.cli import cli
from ccsim.toolchain import notice
from ccsim.toolchain.notice import compiling, label

ROOT = Path(__file__).resolve().parent.parent


class FakeTTY(io.StringIO):
    def isatty(self):
        return True


@pytest.fixture(autouse=True)
def _fresh_process():
    """Each test as a command of its own: nothing announced yet."""
    notice._said.clear()


def test_notice_prints_on_a_terminal():
    out = FakeTTY()
    with compiling("tactician", 20, stream=out, delay=0):
        pass
    text = out.getvalue()
    assert "compiling tactician (first use, ~20 s)…" in text
    assert "done in" in text and text.endswith("\n")


def test_notice_says_loading_when_cached():
    out = FakeTTY()
    with compiling("the kernel", 30, cold=False, stream=out, delay=0):
        pass
    assert "loading the kernel from the cache" in out.getvalue()
    assert label("greedy", 10) == "compiling greedy (first use, ~10 s)…"


def test_off_a_terminal_a_long_compile_is_one_plain_line_written_while_it_runs():
    """A log (``2>err``) is told as soon as the step is slow, not only when it ends: one line, no \\r or
    escape codes to redraw it."""
    log = io.StringIO()
    with compiling("the kernel", 30, stream=log, delay=0.05):
        deadline = time.perf_counter() + 10
        while not log.getvalue() and time.perf_counter() < deadline:
            time.sleep(0.02)
        during = log.getvalue()
        time.sleep(0.2)  # longer than a tick: a terminal's line would be redrawn by now
    assert during == "compiling the kernel (first use, ~30 s)…\n"
    assert log.getvalue() == during


def test_off_a_terminal_a_step_over_before_the_notice_woke_is_still_one_line():
    log = io.StringIO()
    with compiling("the kernel", 30, stream=log, delay=0):
        pass
    text = log.getvalue()
    assert text.startswith("compiling the kernel (first use, ~30 s)…") and text.count("\n") == 1
    assert "\r" not in text and "\033" not in text


def test_notice_silent_when_quick_on_a_terminal_or_off_it():
    for out in (FakeTTY(), io.StringIO()):
        with compiling("the kernel", 30, stream=out, delay=3600):  # a quick load: nothing
            pass
        assert out.getvalue() == ""


def test_a_command_announces_each_step_once():
    """The kernel compiled by the cold-start helper, then loaded from the cache, is one message."""
    out = FakeTTY()
    with compiling("the kernel", 30, stream=out, delay=0):
        pass
    with compiling("the kernel", 30, cold=False, stream=out, delay=0):
        pass
    assert out.getvalue().count("done in") == 1 and "loading" not in out.getvalue()


def test_notice_inside_a_notice_says_nothing():
    out, inner = FakeTTY(), FakeTTY()
    with compiling("the kernel", 30, stream=out, delay=0):
        with compiling("greedy", 10, stream=inner, delay=0):
            pass
    assert inner.getvalue() == "" and "the kernel" in out.getvalue()


def test_compile_command():
    r = CliRunner().invoke(cli, ["compile", "greedy"])
    assert r.exit_code == 0, r.output
    assert "compiled: the kernel, greedy" in r.output and "cache:" in r.output


def test_compile_unknown_strategy_is_one_line():
    p = subprocess.run([sys.executable, "-m", "ccsim.cli", "compile", "nosuch"], cwd=ROOT,
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 2
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("ccsim: error: ") and "nosuch" in lines[0]


@pytest.mark.slow
def test_tournament_time_excludes_compiling_on_a_cold_cache(tmp_path):
    env = dict(os.environ, CCSIM_CACHE_DIR=str(tmp_path / "numba"))
    t0 = time.perf_counter()
    p = subprocess.run([sys.executable, "-m", "ccsim.cli", "tournament", "--strategies", "greedy,random",
                        "--games", "200", "--json"], cwd=ROOT, env=env, capture_output=True, text=True,
                       timeout=900)
    wall = time.perf_counter() - t0
    assert p.returncode == 0, p.stderr
    # stderr is a pipe here, as in a batch job's log: the compile is still said, in plain lines
    assert "compiling the kernel (first use" in p.stderr and "\r" not in p.stderr and "\033" not in p.stderr
    seconds = json.loads(p.stdout)["seconds"]
    assert seconds < 0.5 * wall, (seconds, wall)  # a cold start compiles for tens of seconds

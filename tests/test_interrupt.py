"""Ctrl-C at the terminal, once or twice: the partial summary, exit status 130, no traceback
(the ``ccsim`` command's own SIGINT handler, ``ccsim.cli.entry``)."""
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = str(Path(__file__).resolve().parents[1])


def _interrupted_run(tmp_path, signals: int):
    cmd = [sys.executable, "-m", "ccsim.cli", "run", "--games", "50000000", "--chunk-size", "20000",
           "--no-progress", "--threads", "1", "--out", str(tmp_path)]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([ROOT, os.environ.get("PYTHONPATH", "")]))
    # started as a shell starts a command: Ctrl-C at its default (an ignored SIGINT would be inherited)
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + 600  # a cold cache compiles first
        while not (tmp_path / "games.parquet").exists() and time.monotonic() < deadline and p.poll() is None:
            time.sleep(0.2)
        assert (tmp_path / "games.parquet").exists(), "no chunk finished"
        for k in range(signals):
            if k:
                time.sleep(0.1)
            p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=120)
    finally:
        if p.poll() is None:
            p.kill()
    return p.returncode, out, err


@pytest.mark.parametrize("signals", [1, 2, 3])
def test_ctrl_c_prints_the_partial_summary_and_exits_130(compiled, tmp_path, signals):
    code, out, err = _interrupted_run(tmp_path, signals)
    assert code == 130, err[-2000:]
    assert "interrupted: partial result" in out and "games:" in out
    assert "Traceback" not in err and "Exception ignored" not in err, err[-2000:]

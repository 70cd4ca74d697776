"""Ctrl-C once or twice during `ccsim run` (issue 28): partial summary, exit 130, no traceback."""
import signal
import subprocess
import sys
import time

import pytest

CMD = [sys.executable, "-m", "ccsim.cli", "run", "--games", "5000000", "--seed", "1"]


@pytest.fixture(scope="module", autouse=True)
def warm():
    subprocess.run(CMD[:-4] + ["--games", "1000", "--seed", "1"], capture_output=True, timeout=600)


@pytest.mark.parametrize("signals", [1, 2])
def test_ctrl_c(signals):
    p = subprocess.Popen(CMD, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(8)  # warm cache: playing by now
    for _ in range(signals):
        p.send_signal(signal.SIGINT)
        time.sleep(0.1)
    out, err = p.communicate(timeout=300)
    assert p.returncode == 130, err
    assert "interrupted" in out
    assert "Traceback" not in err and "Exception ignored" not in err

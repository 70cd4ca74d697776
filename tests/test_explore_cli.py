"""``ccsim explore`` on the command line: one line and exit 2 without the extra or with a
port it cannot use; the address printed, the page served on loopback, Ctrl-C stopping it cleanly."""
import json
import os
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from ccsim.cli import main

ROOT = Path(__file__).resolve().parents[1]


def test_without_the_extra_one_line_says_how_to_install(monkeypatch, capsys):
    for name in [m for m in sys.modules if m.split(".")[0] in ("starlette", "uvicorn")
                 or m in ("ccsim.explore.serve", "ccsim.explore.server")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "starlette", None)  # as if they were not installed
    monkeypatch.setitem(sys.modules, "uvicorn", None)
    with pytest.raises(SystemExit) as e:
        main(["explore", "--no-browser"])
    assert e.value.code == 2
    assert capsys.readouterr().err == ("ccsim: error: ccsim explore needs the explore extra: "
                                       "pip install 'ccsim[explore]' (Starlette and uvicorn)\n")


@pytest.mark.parametrize("argv, message", [
    (["--port", "70000"], "--port must be 0 (a free port) .. 65535, got 70000"),
    (["--host", "203.0.113.300"], "--host 203.0.113.300 --port 0: cannot listen there"),
])
def test_a_place_it_cannot_listen_is_one_line(capsys, argv, message):
    pytest.importorskip("uvicorn")
    with pytest.raises(SystemExit) as e:
        main(["explore", "--no-browser", *argv])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(f"ccsim: error: {message}") and err.count("\n") == 1


def test_it_serves_on_loopback_and_ctrl_c_stops_it_cleanly():
    pytest.importorskip("uvicorn")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "ccsim.cli", "explore", "--no-browser"], cwd=ROOT, env=env,
                            stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stderr.readline()
        assert line.startswith("ccsim explore: http://127.0.0.1:"), line
        url = line.split()[2]
        with urllib.request.urlopen(url, timeout=30) as r:
            assert b"ccsim explore" in r.read()
        # at the default level, which the server loads as it starts
        with urllib.request.urlopen(url + "api/answer?page=t&hand_size=4", timeout=120) as stream:
            assert stream.readline().startswith(b"data: ")  # a computation is streaming when Ctrl-C comes
            proc.send_signal(signal.SIGINT)
            last = [line for line in stream.read().decode().splitlines() if line.startswith("data: ")][-1]
        rest = proc.communicate(timeout=30)[1]
    finally:
        if proc.poll() is None:
            proc.kill()
    assert json.loads(last[6:])["state"] == "cancelled"  # the stream ended, not cut
    assert proc.returncode == 0 and rest.strip().endswith("ccsim explore: stopped")
    assert "Traceback" not in rest and "ERROR" not in rest

"""Every tool in scripts/ answers a wrong flag as ``ccsim`` does: one line on stderr and exit status 2."""
import re
from pathlib import Path

import pytest

from ccsim.toolchain.script_args import ScriptParser

ROOT = Path(__file__).resolve().parents[1]


def test_a_wrong_flag_is_one_line_and_exit_2(capsys):
    ap = ScriptParser(prog="tool.py")
    sub = ap.add_subparsers(dest="part", required=True)
    sub.add_parser("run").add_argument("--games", type=int)
    for argv in (["--bogus"], [], ["run", "--games", "many"]):
        with pytest.raises(SystemExit) as e:
            ap.parse_args(argv)
        assert e.value.code == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and ": error: " in err, err


def test_every_script_parses_its_flags_with_the_one_line_parser():
    raw = [p.name for p in sorted((ROOT / "scripts").glob("*.py"))
           if re.search(r"argparse\.ArgumentParser\(", p.read_text(encoding="utf-8"))]
    assert raw == []

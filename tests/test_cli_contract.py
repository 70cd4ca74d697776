"""The command line is a contract (README: public interfaces): every command's ``--help``
text and the shape of every ``--json`` answer are held to golden files under
``tests/data/cli/``, so a refactor cannot change them by accident.

A deliberate change regenerates them: ``CCSIM_UPDATE_GOLDEN=1 python -m pytest
tests/test_cli_contract.py``, and the diff of ``tests/data/cli/`` is reviewed with the
change (JSON keys are only ever added, never renamed or removed)."""
import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from ccsim.cli import cli

GOLDEN = Path(__file__).parent / "data" / "cli"
UPDATE = os.environ.get("CCSIM_UPDATE_GOLDEN") == "1"
ROOT = Path(__file__).resolve().parents[1]

COMMANDS = ["", "run", "replay", "strategies", "compile", "play", "metrics", "tournament", "whatif", "balance", "report",
            "train", "train-neural", "explore",
            "orderings", "orderings compare", "orderings search", "orderings positions", "orderings presets"]

# cheap runs of every command that answers in JSON
JSON_RUNS = {
    "run": ["run", "--games", "20", "--json"],
    "run-metrics": ["run", "--games", "20", "--swap-seats", "--metrics", "--json"],
    "strategies": ["strategies", "--json"],
    "tournament": ["tournament", "--strategies", "greedy,random", "--games", "10", "--json"],
    "whatif": ["whatif", "--no-variants", "--strategy", "greedy", "--games", "20", "--rules",
               str(ROOT / "examples" / "changes.toml"), "--json"],
    "balance": ["balance", str(ROOT / "examples" / "balance.toml"), "--budget", "30000", "--remeasure-games", "500",
                "--out", "{tmp}", "--json"],
    "orderings-compare": ["orderings", "compare", "veto-first", "--games", "20", "--json"],
    "orderings-presets": ["orderings", "presets", "--json"],
}


def _check(path: Path, text: str):
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.is_file(), f"no golden file {path.name}: run with CCSIM_UPDATE_GOLDEN=1 once"
    assert text == path.read_text(encoding="utf-8"), (
        f"{path.name} changed: if on purpose, regenerate with CCSIM_UPDATE_GOLDEN=1 and document it")


def shape(x, at: str = "$") -> list[str]:
    """Every key path of a JSON value with its type, lists folded to [*] (values vary; keys must not).
    A ``rules`` object is a rules block (docs/game-record.md): its keys are what it changes, data."""
    if isinstance(x, dict) and at.endswith(".rules"):
        return [f"{at} object"]
    if isinstance(x, dict):
        return [f"{at} object"] + [p for k, v in x.items() for p in shape(v, f"{at}.{k}")]
    if isinstance(x, list):
        return [f"{at} array"] + sorted(set(p for v in x for p in shape(v, f"{at}[*]")))
    kind = "number" if isinstance(x, (int, float)) and not isinstance(x, bool) else type(x).__name__
    return [f"{at} {'null' if x is None else kind}"]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c.replace(" ", "-") or "ccsim")
def test_help_text_is_the_golden_one(command):
    res = CliRunner().invoke(cli, [*command.split(), "--help"], terminal_width=80, prog_name="ccsim")
    assert res.exit_code == 0, res.output
    _check(GOLDEN / "help" / f"{command.replace(' ', '-') or 'ccsim'}.txt", res.output)


@pytest.mark.parametrize("name", JSON_RUNS)
def test_json_answer_keeps_its_keys(name, compiled, tmp_path):
    argv = [a.replace("{tmp}", str(tmp_path / "out")) for a in JSON_RUNS[name]]  # an output folder of its own
    res = CliRunner().invoke(cli, argv, prog_name="ccsim", catch_exceptions=False)
    assert res.exit_code == 0, res.output
    answer = json.loads(res.stdout.strip().splitlines()[-1])
    # a null where a number may stand (an interval with no games) is the same key
    lines = sorted(set(line.replace(" null", " number") for line in shape(answer)))
    _check(GOLDEN / "json" / f"{name}.txt", "\n".join(lines) + "\n")


def test_shape_sees_a_renamed_key():
    assert shape({"a": [{"b": 1}], "c": None}) == ["$ object", "$.a array", "$.a[*] object", "$.a[*].b number",
                                                   "$.c null"]
    assert shape({"rules": {"hand_size": 4}}) == ["$ object", "$.rules object"]
    assert shape({"a": 1}) != shape({"b": 1})

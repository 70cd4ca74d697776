"""Long runs that survive damage: a finished file a rerun cannot read back.

A task file of ``ccsim balance`` or a part of ``ccsim report`` that a disk error or a partial copy left
truncated, empty or garbled is named in one line, set aside as ``.damaged`` (never deleted) and played
again, and the run ends with the result of an undamaged run.  The stores are checked on their own first
(fast: no game), then a small balance search and a small report end to end (they play games).
"""
from __future__ import annotations

import json
import shutil

import numpy as np
import pandas as pd
import pytest

from conftest import Counting

from ccsim.analyses.balance import balance
from ccsim.analyses.balance.publish.folder import TaskStore
from ccsim.cli import main
from ccsim.report import run_study
from ccsim.report.parts import Part, PartStore
from ccsim.report.study_run import run_parts
from ccsim.runner.damaged import set_aside


def _truncate(path):
    """A partial copy: the first half of the file's bytes."""
    data = path.read_bytes()
    path.write_bytes(data[:len(data) // 2])


def _one_line(lines, needle):
    """The one message that names ``needle``: one line, saying what happened."""
    said = [x for x in lines if needle in x]
    assert len(said) == 1, lines
    assert "\n" not in said[0] and "cannot be read" in said[0] and "played again" in said[0], said[0]
    return said[0]


# --- the task store of `ccsim balance` (no game) ---------------------------------------------------------

def _task():
    return dict(n=np.array(4), sum=np.arange(14.0).reshape(2, 1, 7), cross=np.ones((2, 1, 7, 7)))


DAMAGE = {
    "empty": lambda p: p.write_bytes(b""),
    "garbage": lambda p: p.write_bytes(b"not a task at all " * 20),
    "truncated": _truncate,
    "without its arrays": lambda p: np.savez(p, n=np.array(4)),
    "a lone array": lambda p: p.write_bytes(_npy_bytes(p)),
}


def _npy_bytes(p):
    np.save(p.with_suffix(".npy"), np.arange(3))
    return p.with_suffix(".npy").read_bytes()


@pytest.mark.parametrize("damage", DAMAGE)
def test_a_damaged_task_file_is_named_set_aside_and_played_again(tmp_path, damage):
    lines = []
    store = TaskStore(tmp_path / "tasks", warn=lines.append)
    store.put("r01-abc-0-500", _task())
    path = tmp_path / "tasks" / "r01-abc-0-500.npz"
    DAMAGE[damage](path)
    kept = path.read_bytes()
    assert store.get("r01-abc-0-500") is None  # played again, like a task never finished
    said = _one_line(lines, "tasks/r01-abc-0-500.npz")
    assert said.startswith("balance: ") and "set aside as r01-abc-0-500.npz.damaged" in said
    assert not path.exists() and (tmp_path / "tasks" / "r01-abc-0-500.npz.damaged").read_bytes() == kept
    store.put("r01-abc-0-500", _task())  # the task played again is kept as any other
    got = store.get("r01-abc-0-500")
    assert {k: v.tolist() for k, v in got.items()} == {k: v.tolist() for k, v in _task().items()}
    assert len(lines) == 1


def test_a_second_damage_keeps_the_first(tmp_path):
    lines = []
    store = TaskStore(tmp_path, warn=lines.append)
    for junk in (b"", b"junk"):
        (tmp_path / "t.npz").write_bytes(junk)
        assert store.get("t") is None
    assert (tmp_path / "t.npz.damaged").read_bytes() == b"" and (tmp_path / "t.npz.damaged.2").read_bytes() == b"junk"
    assert "set aside as t.npz.damaged.2" in lines[1]


def test_a_whole_task_file_and_a_missing_one_say_nothing(tmp_path):
    lines = []
    store = TaskStore(tmp_path, warn=lines.append)
    store.put("t", _task())
    assert store.get("t")["n"] == 4 and store.get("never") is None and lines == []


def test_set_aside_renames_a_folder_too(tmp_path):
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "x").write_text("kept")
    assert set_aside(tmp_path / "p") == tmp_path / "p.damaged"
    assert (tmp_path / "p.damaged" / "x").read_text() == "kept"


# --- the part store of `ccsim report` (no game) ------------------------------------------------------------

def _part(calls):
    def compute(upstream, progress, backend):
        calls.append(1)
        return dict(metrics=pd.DataFrame(dict(metric=["seat_advantage"], value=[0.05])),
                    lengths=pd.DataFrame(dict(turns=[30, 41, 52]))), dict(games=3)
    return Part("mirror:greedy", dict(games=3), 3, compute).keyed({})


def _table_of(name):
    def damage(d):
        _truncate(d / f"{name}.parquet")
    return damage


PART_DAMAGE = {
    "truncated table": ("lengths.parquet", _table_of("lengths")),
    "empty table": ("metrics.parquet", lambda d: (d / "metrics.parquet").write_bytes(b"")),
    "missing table": ("lengths.parquet", lambda d: (d / "lengths.parquet").unlink()),
    "garbage info.json": ("info.json", lambda d: (d / "info.json").write_text("{\"_tables\": [\"metr")),
    "info.json of no part": ("info.json", lambda d: (d / "info.json").write_text("[1, 2]")),
    "missing info.json": ("info.json", lambda d: (d / "info.json").unlink()),
}


@pytest.mark.parametrize("damage", PART_DAMAGE)
def test_a_damaged_part_is_named_set_aside_and_played_again(tmp_path, damage):
    calls, lines = [], []
    part, store = _part(calls), PartStore(tmp_path / "parts", warn=lines.append)
    first, _ = run_parts([part], store)
    folder = next((tmp_path / "parts").iterdir())
    file, hurt = PART_DAMAGE[damage]
    hurt(folder)
    again, counts = run_parts([part], store)
    assert calls == [1, 1] and counts["parts_played"] == 1 and counts["parts_loaded"] == 0
    said = _one_line(lines, f"parts/{folder.name}/{file}")
    assert said.startswith("report: ") and f"set aside as {folder.name}.damaged" in said
    assert (tmp_path / "parts" / f"{folder.name}.damaged").is_dir()
    for name, df in first["mirror:greedy"].tables.items():
        pd.testing.assert_frame_equal(again["mirror:greedy"].tables[name], df)
    third, counts = run_parts([part], store)  # the part played again was kept: loaded, no game
    assert calls == [1, 1] and counts["parts_loaded"] == 1 and len(lines) == 1
    assert store.stale([part]) == []  # a folder set aside is no earlier study's


# --- end to end: a small search and a small report, damaged between two runs (they play games) ---------------

SPACE = """
levels = ["greedy"]
budget = 6_000
seed = 3
remeasure_games = 1_000
[objectives]
tolerance = 0.04
[[param]]
name = "hand_size"
values = [5, 6]
"""


@pytest.mark.slow
def test_a_search_resumes_past_a_truncated_task_file(tmp_path, monkeypatch):
    monkeypatch.setattr("ccsim.analyses.balance.search.play.TASK_GAMES", 1_000)  # six tasks a round
    (tmp_path / "space.toml").write_text(SPACE)
    out = tmp_path / "out"
    ref = balance(tmp_path / "space.toml", out=out, log=None)
    tasks = sorted((out / "tasks").glob("r01-*.npz"))
    assert len(tasks) > 2
    hurt = tasks[1]
    with np.load(hurt) as f:
        whole = {k: f[k].tolist() for k in f.files}
    _truncate(hurt)
    lines, again = [], Counting()
    b = balance(tmp_path / "space.toml", out=out, log=lines.append, backend=again)
    said = _one_line(lines, f"tasks/{hurt.name}")
    assert said.startswith("balance: ") and "BadZipFile" in said and f"set aside as {hurt.name}.damaged" in said
    assert again.played == 1 and hurt.with_name(hurt.name + ".damaged").is_file()
    with np.load(hurt) as f:  # the task played again, written again: the same numbers
        assert {k: f[k].tolist() for k in f.files} == whole
    assert not b.info["interrupted"]
    pd.testing.assert_frame_equal(b.candidates, ref.candidates)
    pd.testing.assert_frame_equal(b.recommended, ref.recommended)


STUDY = "seed = 9\nlevels = ['greedy', 'random']\n[seat]\ngames = 300\n[game]\ngames = 300\n"


@pytest.mark.slow
def test_a_report_resumes_past_a_truncated_part(tmp_path, capsys):
    (tmp_path / "s.toml").write_text(STUDY)
    out = tmp_path / "out"
    ref = run_study(tmp_path / "s.toml", out, warn=None)
    claims = json.loads(json.dumps([c.to_json() for c in ref.claims], default=float))
    written = {p.name: pd.read_parquet(p) for p in (out / "tables").glob("*.parquet")}
    claims_json = (out / "claims.json").read_text()
    folder = sorted(p for p in (out / "parts").iterdir() if p.name.startswith("mirror_greedy"))[0]
    hurt = sorted(folder.glob("*.parquet"))[0]
    _truncate(hurt)
    shutil.rmtree(out / "tables")  # the rerun writes the report's tables again, from the parts
    capsys.readouterr()
    with pytest.raises(SystemExit) as exc:  # as a shell runs it: the line goes to stderr
        main(["report", str(tmp_path / "s.toml"), "--out", str(out), "--json", "--no-progress"])
    text, err = capsys.readouterr()
    assert exc.value.code == 0, err
    said = _one_line(err.splitlines(), f"parts/{folder.name}/{hurt.name}")
    assert said.startswith("report: ") and f"part set aside as {folder.name}.damaged" in said
    assert (out / "parts" / f"{folder.name}.damaged" / hurt.name).is_file()
    d = json.loads(text)
    assert d["parts_played"] == 1 and d["parts_loaded"] == d["parts"] - 1
    assert d["claims"] == claims and (out / "claims.json").read_text() == claims_json
    assert sorted(p.name for p in (out / "tables").glob("*.parquet")) == sorted(written)
    for name, df in written.items():
        pd.testing.assert_frame_equal(pd.read_parquet(out / "tables" / name), df)

"""Every command of README.md's and docs/*.md's ```bash blocks runs as written from the
repository's root, with its game counts cut down so the whole file stays quick.

Each document's commands run in order in one fresh copy of the root (so a command may
read what an earlier one of the same document wrote, as `ccsim replay games.jsonl` after
`ccsim run --record games.jsonl`), with the installed `ccsim` entry (which imports the
package from its install, not from the copy).  Left out: lines with a placeholder
(`[--json]`, `…`), cluster lines (`--backend dask`, `tcp://`), `ccsim play`
(interactive) and `ccsim explore` (a server, until Ctrl-C: tests/test_explore_cli.py runs it).
"""
from __future__ import annotations

import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
PLACEHOLDER = re.compile(r"\b(FIGURES|TODO|TBD|FIXME|XXX)\b")

# commands that take --games (a line that names none gets one: their defaults are large)
GAMES_DEFAULT = ("run", "whatif", "tournament", "orderings compare", "orderings positions")
SKIP = ("[", "…", "...", "--backend dask", "tcp://",
        # the published balance study: its kept parts render it in a minute, but a change to a part's code
        # replays that part (hours of the judge's games on 2 cores): docs/report.md says how it is rerun
        "results/balance-report/study.toml")


def bash_lines(path: Path) -> list[str]:
    """The `ccsim ` lines of a file's ```bash blocks, trailing comments stripped."""
    out, inside = [], False
    for line in path.read_text(encoding="utf-8").splitlines():
        s = line.strip()
        if s.startswith("```"):
            inside = s == "```bash"
            continue
        if inside and s.startswith("ccsim "):
            out.append(re.sub(r"\s+#\s.*$", "", s).strip())
    return out


def _sub(cmd: str) -> str:
    words = shlex.split(cmd)
    return " ".join(words[1:3]) if len(words) > 2 and words[1] == "orderings" else words[1]


def shrink(cmd: str) -> str:
    """The same command with small game counts (the search player's tiny)."""
    expert = "expert" in cmd or "master" in cmd or "--strategies all" in cmd
    games = 8 if expert and "--search-games" not in cmd else 200
    if _sub(cmd) == "orderings positions":
        games = 488                              # the smallest positions study (2 x 2 x 61 x 2)
    elif _sub(cmd) == "tournament":
        games = 50
    cmd = re.sub(r"--games [\d,_]+", f"--games {games}", cmd)  # 100,000 as people write it, too
    cmd = re.sub(r"--budget \d+", "--budget 10000", cmd)
    cmd = re.sub(r"--search-games \d+", "--search-games 1", cmd)
    cmd = re.sub(r"--record-games \d+", "--record-games 4", cmd)
    sub = _sub(cmd)
    if sub in GAMES_DEFAULT and "--games" not in cmd:
        cmd += f" --games {games}"
    if sub == "train":  # labelled games with a search: a handful, a tiny teacher, one round
        cmd = re.sub(r"--games \d+", "--games 4", cmd)
        cmd = re.sub(r"--budget \d+", "--budget 8", cmd)
        cmd = re.sub(r"--rounds \d+", "--rounds 0", cmd)
        cmd = re.sub(r"--eval-deals \d+", "--eval-deals 40", cmd)
        cmd += "" if "--eval-deals" in cmd else " --eval-deals 40"
    if sub == "train-neural":  # branched self-play: a few dozen games, one generation, a small evaluation
        cmd = re.sub(r"--(games|generations|eval-deals) [\d,_]+", "", cmd)
        cmd += " --games 40 --generations 1 --eval-deals 20"
    if sub == "balance":  # a search: a budget of seconds (100 deals a candidate) and a small fresh re-measure
        cmd = re.sub(r"--budget \d+", "--budget 20000", cmd)
        cmd = re.sub(r"--remeasure-games \d+", "--remeasure-games 2000", cmd)
        cmd += "" if "--budget" in cmd else " --budget 20000"
        cmd += "" if "--remeasure-games" in cmd else " --remeasure-games 2000"
        # the default space's search level and skill curve are the strong searches: hours, not a test
        cmd += "" if "--search-level" in cmd else " --search-level none"
        cmd += "" if "--skill-levels" in cmd else " --skill-levels none"
    return cmd


def runnable(path: Path) -> list[str]:
    """The commands a document's test runs; a docs/ line that README.md already has runs once, there."""
    seen = set(bash_lines(ROOT / "README.md")) if path.name != "README.md" else set()
    cmds = []
    for line in bash_lines(path):
        if any(s in line for s in SKIP) or line.startswith(("ccsim play", "ccsim explore")) or line in seen:
            continue
        for part in line.split("&&"):
            cmds.append(shrink(part.strip()))
    return cmds


def test_the_documents_have_commands():
    assert runnable(ROOT / "README.md") == [], "the README keeps its quick start only; commands live in docs/"
    assert len(runnable(ROOT / "docs" / "usage.md")) >= 20
    assert runnable(ROOT / "docs" / "designer.md")


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.name)
def test_no_placeholder(path):
    bad = [f"{path.name}:{i}: {line}" for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
           if PLACEHOLDER.search(line)]
    assert not bad, "\n".join(bad)


@pytest.fixture(scope="module")
def ccsim_exe():
    exe = shutil.which("ccsim")
    if exe is None:
        pytest.skip("the ccsim entry is not installed (pip install -e .)")
    return exe


@pytest.mark.slow
@pytest.mark.parametrize("path", [p for p in DOCS if runnable(p)], ids=lambda p: p.name)
def test_commands_run_as_written(path, tmp_path, ccsim_exe):
    work = tmp_path / "repo"
    work.mkdir()
    for name in ("examples", "strategies", "results", "docs"):
        shutil.copytree(ROOT / name, work / name, ignore=shutil.ignore_patterns("__pycache__", "*.parquet"))
    shutil.copytree(ROOT / "results" / "balance-report", work / "results" / "balance-report",
                    dirs_exist_ok=True)   # its parts, so `ccsim report` of the published study resumes
    failures = []
    for cmd in runnable(path):
        argv = [ccsim_exe, *shlex.split(cmd)[1:]]
        p = subprocess.run(argv, cwd=work, capture_output=True, text=True, timeout=600)
        if p.returncode != 0:
            failures.append(f"{cmd}\n  exit {p.returncode}: {(p.stderr or p.stdout).strip()[-400:]}")
    assert not failures, "\n".join(failures)

"""Every result-backed figure of the documents is written by scripts/docs_figures.py from the results
files; its check mode fails on a figure that has drifted from them."""
import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "docs_figures.py"


@pytest.fixture(scope="module")
def figures():
    spec = importlib.util.spec_from_file_location("docs_figures", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_every_figure_in_the_documents_is_the_results(figures):
    assert figures.run(check=True, skip=frozenset(figures.TEST_COUNTS)) == []


@pytest.mark.slow
def test_the_test_counts_are_the_suites():
    p = subprocess.run([sys.executable, str(SCRIPT), "--check"], capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 0, p.stdout + p.stderr


def test_the_documents_carry_the_figures_the_script_writes(figures):
    text = "".join(p.read_text(encoding="utf-8") for p in figures.documents())
    for name in ("answer", "ladder", "balance-games", "report-games", "tests-fast", "tests-all", "answer-change"):
        assert f"<!-- fig:{name} -->" in text, name


def test_a_drifted_figure_fails_the_check(figures, tmp_path):
    root = tmp_path / "repo"
    (root / "docs").mkdir(parents=True)
    shutil.copy(ROOT / "README.md", root / "README.md")
    shutil.copy(ROOT / "docs" / "results.md", root / "docs" / "results.md")
    assert figures.run(check=True, skip=frozenset(figures.TEST_COUNTS), root=root) == []
    readme = root / "README.md"
    first = figures.FIGURES["answer"]().splitlines()[0]             # a line of the answer, one word changed
    text = readme.read_text(encoding="utf-8")
    assert first in text
    readme.write_text(text.replace(first, first.replace(" ", "  ", 1)[:-1] + "!", 1), encoding="utf-8")
    res = root / "docs" / "results.md"
    res.write_text(res.read_text(encoding="utf-8").replace(figures.FIGURES["report-games"](), "22,000,000"), encoding="utf-8")
    assert figures.run(check=True, skip=frozenset(figures.TEST_COUNTS), root=root) == [
        "README.md: answer", "docs/results.md: report-games"]
    assert figures.run(check=False, skip=frozenset(figures.TEST_COUNTS), root=root)   # writes them back
    assert figures.run(check=True, skip=frozenset(figures.TEST_COUNTS), root=root) == []


def test_the_check_exits_1_naming_the_figure(tmp_path, figures, capsys):
    root = tmp_path / "repo"
    (root / "docs").mkdir(parents=True)
    (root / "README.md").write_text("a <!-- fig:balance-games -->1<!-- /fig:balance-games --> game study\n")
    assert figures.main(["--check", "--no-test-counts"], root=root) == 1
    assert "README.md: balance-games" in capsys.readouterr().out


def test_an_unknown_figure_is_refused(figures):
    with pytest.raises(SystemExit, match="unknown figure 'answr'"):
        figures.fill("<!-- fig:answr -->x<!-- /fig:answr -->")


def test_the_answer_is_the_balance_commands_own_paragraph(figures):
    import json
    from ccsim.analyses.balance.search.verdict import answer_paragraph
    summary = json.loads((ROOT / "results" / "balance" / "summary.json").read_text(encoding="utf-8"))
    flat = " ".join(line[2:] for line in figures.FIGURES["answer"]().splitlines())
    assert flat == answer_paragraph(summary)


def _script(name):
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        return mod
    finally:
        sys.path.remove(str(ROOT / "scripts"))


def test_the_benchmarks_table_is_its_json_files_and_links_the_history():
    table = _script("bench_table")
    assert table.main(["--check"]) == 0
    text = (ROOT / "results" / "BENCHMARKS.md").read_text(encoding="utf-8")
    assert "(BENCHMARKS-history.md)" in text and (ROOT / "results" / "BENCHMARKS-history.md").is_file()


def test_the_judges_row_is_renewed_by_writing_strong_json(tmp_path):
    """bench_strong.py --json replaces the rows it timed and keeps the others; the table shows the new figure."""
    import json
    table, strong = _script("bench_table"), _script("bench_strong")
    shutil.copytree(ROOT / "results" / "bench", tmp_path / "results" / "bench")
    path = tmp_path / "results" / "bench" / "strong.json"
    before = json.loads(path.read_text(encoding="utf-8"))["rows"]
    meta = {"date": "2027-01-02", "machine": "a new processor", "command": "python scripts/bench_strong.py --only x"}
    strong.write_json(str(path), strong.json_rows([("neural-search", "neural-search", 80, 2, 55.64)], [], meta))
    after = json.loads(path.read_text(encoding="utf-8"))["rows"]
    assert len(after) == len(before)
    changed = [r for r in after if r not in before]
    assert [(r["cleopatra"], r["caesar"], r["how"], r["games_per_s"]) for r in changed] == [
        ("neural-search", "neural-search", "in one process", 55.6)]
    text = table.render(tmp_path)
    row = "| `neural-search` | `neural-search` | 2 | 80 | 55.6 | in one process | 2027-01-02 | a new processor |"
    assert row in text

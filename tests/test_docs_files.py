"""The documents name only files the repository holds, and the standard rules by that name
(docs/rules.md), never a RULES.md or DESIGN.md that no reader can open."""
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = sorted([ROOT / "README.md", ROOT / "strategies" / "README.md", *(ROOT / "docs").glob("*.md"),
               *(ROOT / "examples").glob("*.toml")])
#: where a named path must exist: the repository's own folders (an `out/...` or `DIR/...` is a command's output)
TOP = {p.name for p in ROOT.iterdir() if p.is_dir() and not p.name.startswith(".")}
#: files a tutorial asks its reader to write (strategies/README.md), not files the repository ships
TO_WRITE = {"strategies/hoarder.py", "strategies/params/warden.toml"}
LINK = re.compile(r"\]\(([^)\s#]+)(?:#[^)]*)?\)")
PATH = re.compile(r"(?<![\w./-])((?:[\w.-]+/)*[\w.-]+\.(?:md|toml|py|json|jsonl|parquet|png|txt|yml|yaml|j2))\b")


def named_paths(text: str) -> set[str]:
    """Every repository path a text names: in links, in backticks or bare, under a folder of the repository."""
    out = set()
    for m in PATH.finditer(text):
        path = m.group(1)
        first = path.split("/", 1)[0]
        if "/" in path and first in TOP:
            out.add(path)
    return out


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_document_names_a_file_the_repository_lacks(doc):
    text = doc.read_text(encoding="utf-8")
    assert "RULES.md" not in text and "DESIGN.md" not in text, "name the standard rules: docs/rules.md"
    bare = {n for n in re.findall(r"\b[A-Z][A-Z_]*\.md\b", text) if not any(ROOT.rglob(n))}
    assert bare == set(), "a file named by its bare name is nowhere in the repository"
    missing = sorted(p for p in named_paths(text) - TO_WRITE if not (ROOT / p).exists() and not any(ROOT.glob(p)))
    links = [t for t in LINK.findall(text) if "://" not in t and not t.startswith("mailto:")]
    missing += sorted(t for t in links if not (doc.parent / t).exists())
    assert missing == []


def test_the_path_finder_sees_a_missing_file():
    assert named_paths("see [the rules](docs/rules.md) and `examples/none.toml`, out/x.toml") == {
        "docs/rules.md", "examples/none.toml"}

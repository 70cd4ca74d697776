"""The README a designer opens: short, the answer first, every word of the glossary linked or explained
at its first use, and the rest of the documents reachable from one table of contents (docs/index.md)."""
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
GLOSSARY = ROOT / "docs" / "glossary.md"
#: how a glossary term shows in running text, when not its own words (plural, the rule numbers' R1…R11)
SPELLED = {"deal": r"deals?", "rule numbers": r"rule numbers|\bR\d+", "interval": r"intervals?",
           "level of play": r"levels? of play", "seat gap": r"seat gaps?", "ordering": r"orderings?",
           "variant": r"variants?"}


def glossary_terms() -> list[str]:
    return re.findall(r"^### (.+)$", GLOSSARY.read_text(encoding="utf-8"), flags=re.M)


def _prose(text: str) -> str:
    """The text a reader reads as words: headings, code blocks, inline code and the generated figures left out."""
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    text = re.sub(r"^#.*$", "", text, flags=re.M)
    text = re.sub(r"<!-- fig:([\w-]+) -->.*?<!-- /fig:\1 -->", "", text, flags=re.S)
    return re.sub(r"`[^`]*`", "", text)


def unexplained_first_uses(text: str, terms: list[str]) -> list[str]:
    """The glossary terms whose first use in ``text`` is not inside a link to the glossary."""
    text, bad = _prose(text), []
    for term in terms:
        m = re.search(rf"\b(?:{SPELLED.get(term, re.escape(term))})\b", text, flags=re.I)
        if m is None:
            continue
        links = [(x.start(), x.end()) for x in re.finditer(r"\[[^\]]*\]\([^)]*glossary\.md[^)]*\)", text)]
        if not any(a <= m.start() < b for a, b in links):
            bad.append(term)
    return bad


def test_the_readme_is_short_and_starts_with_what_ccsim_is():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 250
    body = [line for line in lines[1:] if line.strip()]
    first_sentence = []
    for line in body:
        first_sentence.append(line)
        if re.search(r"\.\s*$|\.\s", line):
            break
    assert len(first_sentence) <= 2, first_sentence
    assert lines.index("## Quick start") < 12


def test_the_quick_start_is_the_two_commands():
    text = README.read_text(encoding="utf-8")
    block = text.split("## Quick start", 1)[1].split("```bash", 1)[1].split("```", 1)[0]
    commands = [re.sub(r"\s+#.*$", "", line).strip() for line in block.strip().splitlines()]
    assert commands == ['pip install . && ccsim run', 'pip install ".[test]" && python -m pytest -q']


def test_the_quick_start_says_how_long_the_tests_take_and_names_the_fast_tier():
    """A new user runs the second command: told beforehand that it takes minutes (the measured figure of
    results/bench/tests.json, which docs/tests.md quotes too, not another) and where the quick tier is."""
    text = README.read_text(encoding="utf-8")
    quick = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    low, high = json.loads((ROOT / "results" / "bench" / "tests.json").read_text(encoding="utf-8"))["all"]["minutes"]
    full = f"{low}–{high} minutes"
    test_line = next(line for line in quick.splitlines() if line.startswith('pip install ".[test]"'))
    assert full in test_line.split("#", 1)[1], test_line
    assert '`python -m pytest -q -m "not slow"`' in quick and "(docs/tests.md)" in quick


def test_the_answer_comes_within_the_first_60_lines():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert any(line.startswith("## Is Caesar & Cleopatra fair?") for line in lines[:25])
    start = lines.index("<!-- fig:answer -->")
    assert start < 60 and lines[start + 1].startswith("> ")


def test_the_glossary_has_the_words_a_designer_meets():
    terms = set(glossary_terms())
    assert {"deal", "paired", "level of play", "seat gap", "lopsided", "balanced", "interval", "Holm",
            "Pareto", "rule numbers", "edge"} <= terms


def test_every_glossary_term_in_the_readme_is_linked_at_its_first_use():
    text = README.read_text(encoding="utf-8")
    assert unexplained_first_uses(text, glossary_terms()) == []


def test_an_unlinked_first_use_is_caught():
    text = "Every deal is paired. Later: [deal](docs/glossary.md#deal), [paired](docs/glossary.md#paired)."
    assert unexplained_first_uses(text, ["deal", "paired", "Holm"]) == ["deal", "paired"]
    assert unexplained_first_uses("Variant R11 [rules](docs/glossary.md#rule-numbers)", ["rule numbers"]) == [
        "rule numbers"]


def test_every_glossary_anchor_the_documents_link_exists():
    anchors = {t.lower().replace(" ", "-") for t in glossary_terms()}
    for doc in [README, *(ROOT / "docs").glob("*.md")]:
        for a in re.findall(r"glossary\.md#([\w-]+)", doc.read_text(encoding="utf-8")):
            assert a in anchors, f"{doc.name} links glossary.md#{a}, which the glossary lacks"


@pytest.mark.parametrize("page", sorted(p.name for p in (ROOT / "docs").glob("*.md") if p.name != "index.md"))
def test_the_table_of_contents_lists_every_page(page):
    assert f"]({page})" in (ROOT / "docs" / "index.md").read_text(encoding="utf-8")

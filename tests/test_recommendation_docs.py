"""One recommendation for a designer: the fair-rules search's answer, said once in plain words
(``ccsim.analyses.balance.search.verdict.answer_paragraph``), is quoted wherever a designer meets it -- the README, the
designer's guide, the balance results' README and pareto.md, the report's summary -- exactly once, whole, as a
paragraph of its own: never duplicated, never cut, never glued to another sentence."""
import json
import re
from pathlib import Path

import pytest

from ccsim.analyses.balance.search.verdict import answer_paragraph

ROOT = Path(__file__).resolve().parents[1]
SUMMARY = ROOT / "results" / "balance" / "summary.json"
PLACES = ["README.md", "docs/designer.md", "results/balance/README.md", "results/balance-report/summary.md",
          "results/balance/pareto.md"]
#: words at either end of the paragraph that must not recur elsewhere in a document (a cut copy)
END_WORDS = 8


def _flat(text: str) -> str:
    """Markdown as words: quote marks, emphasis, line breaks and HTML comments (a generator's markers, unseen
    on the page) do not count."""
    text = re.sub(r"<!--.*?-->", "", text, flags=re.S)
    text = re.sub(r"^\s*>\s?", "", text, flags=re.M)
    return " ".join(text.replace("**", "").replace("*", "").split())


def _blocks(doc: str) -> list[str]:
    """The document's paragraphs (blocks between blank lines, a quote's ">" lines one block), flattened;
    a list item is a paragraph of its own."""
    out = []
    for block in re.split(r"\n\s*(?:>\s*)?\n", doc):
        for item in re.split(r"\n(?=\s*[*-] )", block):
            out.append(_flat(re.sub(r"^\s*[*-] ", "", item)))
    return out


def quote_problems(doc: str, paragraph: str) -> list[str]:
    """What is wrong with ``doc``'s quote of ``paragraph``: missing, duplicated, a cut copy of its first or last
    words elsewhere, or glued to other words in its paragraph. A fenced block is a command's printed output
    (designer.md's small search prints its own answer, in the same words around another setting): not a quote."""
    doc = re.sub(r"^```.*?^```[ \t]*$", "", doc, flags=re.S | re.M)
    p, flat = _flat(paragraph), _flat(doc)
    words = p.split()
    head, tail = " ".join(words[:END_WORDS]), " ".join(words[-END_WORDS:])
    problems = []
    if flat.count(p) == 0:
        problems.append("missing")
    elif flat.count(p) > 1:
        problems.append("duplicated")
    if flat.count(head) > max(flat.count(p), 1) or flat.count(tail) > max(flat.count(p), 1):
        problems.append("a cut copy")
    holding = [b for b in _blocks(doc) if p in b or head in b or tail in b]
    if any(b != p for b in holding):
        problems.append("glued to other words")
    return problems


@pytest.fixture(scope="module")
def summary():
    data = json.loads(SUMMARY.read_text(encoding="utf-8"))
    assert data.get("recommendation"), "results/balance/summary.json has no recommendation"
    return data


def test_the_published_answer_is_its_own_data_said_in_words(summary):
    assert answer_paragraph(summary) == summary["recommendation"]["text"]
    assert "\n" not in summary["recommendation"]["text"]


@pytest.mark.parametrize("place", PLACES)
def test_every_place_quotes_the_answer_once_whole_and_alone(summary, place):
    problems = quote_problems((ROOT / place).read_text(encoding="utf-8"), summary["recommendation"]["text"])
    assert not problems, f"{place}: the answer of results/balance/summary.json is {', '.join(problems)}"


PARA = ("For players who play both seats alike the fewest-change setting is: A. Cleopatra's edge goes from +14.4 "
        "points to +0.2 points. It stops being fair below the judge: with B it is −3.0 points.")


@pytest.mark.parametrize("doc,problem", [
    (f"# Title\n\n{PARA}\n\nMore.\n", None),
    (f"# Title\n\n> {PARA[:PARA.index(' ', 80)]}\n>{PARA[PARA.index(' ', 80):]}\n\nMore.\n", None),  # a quote: whole
    (f"* *{PARA}*\n* another item\n", None),                                     # a list item of its own
    (f"Intro.\n\n{PARA}\n\nMore.\n\n{PARA}\n", "duplicated"),
    (f"{PARA}\n\nAgain: {PARA[:60]}\n", "a cut copy"),                                  # a copy cut short
    (f"{PARA[:-30]} and so on.\n", "missing"),                                    # cut: its end is gone
    (f"Before the answer −4.4). {PARA}\n", "glued to other words"),              # glued after a fragment
    (f"{PARA} that makes the game fair for good players, as\n", "glued to other words"),
    (f"{PARA}\n\n```\nThe answer:\n{PARA[:70]} C instead.\n```\n", None),       # a command's output: no quote
])
def test_the_check_catches_a_duplicated_cut_or_glued_paragraph(doc, problem):
    found = quote_problems(doc, PARA)
    assert (problem in found) if problem else not found, found

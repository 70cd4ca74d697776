"""Every result-backed figure of the documents (README.md, docs/*.md, results/*/README.md, strategies/README.md),
written from the results files.

A figure in a document sits between two markers, inline or as a block:

    a <!-- fig:report-games -->23,086,996<!-- /fig:report-games -->-game study

and this script fills each one from the file that backs it (``FIGURES`` says which), so that no figure a
reader meets is typed by hand.

    python scripts/docs_figures.py            # rewrite every figure from the results
    python scripts/docs_figures.py --check    # exit 1, naming each figure that differs from its results
    python scripts/docs_figures.py --check --no-test-counts   # the same, without collecting the test suite

An unknown marker name is an error (a typo would otherwise leave a figure typed by hand). Whole files written
from the results (``FILES``: the benchmarks' tables, the strength and calibration pages) and the blocks that
``ccsim balance`` writes into results/balance/README.md are checked the same way. ``unowned`` lists the figures
of the documents' prose, and of the comments of examples/, that nothing writes: ``figures`` says what a figure is.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script from anywhere: the repository's package first
    sys.path.insert(0, str(ROOT))

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the figures' sources, beside this script

from figure_sources import BLOCKS, FIGURES, FILES, TEST_COUNTS, WRITTEN_BLOCKS  # noqa: E402

MARKER = re.compile(r"<!-- fig:(?P<name>[\w-]+) -->(?P<body>.*?)<!-- /fig:(?P=name) -->", re.S)
#: the documents whose figures this script fills between markers, and whose prose holds no other figure
DOCUMENTS = ("README.md", "docs/*.md", "results/*/README.md", "strategies/README.md")
#: the examples: their comments are prose a designer reads (their settings are the designer's to change)
EXAMPLES = ("examples/*.toml", "examples/*.py")


def documents(root: Path = ROOT) -> list[Path]:
    return sorted({p for pattern in DOCUMENTS for p in root.glob(pattern)})


# --- the figures nothing writes ------------------------------------------------------------------------

_N = r"\d[\d,]*(?:\.\d+)?"
_BOUND = rf"[+−]?{_N}%?"
_FIGURE = re.compile("|".join((
    rf"(?<![\w.±+−]){'[+−]'}{_N}",                                    # signed: +0.9, −2.9, +247 (Elo)
    r"(?<![\w.])\d+\.\d+%",                                          # a percentage with decimals: 53.2%
    rf"\[\s*{_BOUND}\s*,\s*{_BOUND}\s*\]",                             # an interval: [+9.9, +10.5]
    rf"(?<![\w.]){_N}k?\s+(?:games/s|games a second|games per (?:CPU-)?second|evaluations a second)",  # a speed
    rf"(?<![\w.])(?<!after )(?<!for )(?<!within )(?<!every ){_N}\s*(?:s|min|minutes?|hours?)\b",  # a run's time
    r"(?<![\w.×])\d+(?:\.\d+)?×(?!\d)",                                # a ratio: 1.4× (not a shape, 2×5)
    r"(?<![\w.])\d+(?:\.\d+)?[- ]million",                              # a study's size: 4.2 million games
    r"(?<![\w.,])\d{1,3}(?:,\d{3})*,(?!000\b)\d{3}\s+(?:games|deals)\b",  # a count played: 4,221,992 games
)))
#: what a reader does not read as prose: code blocks, code spans, and what a generator writes between markers
_NOT_PROSE = (re.compile(r"^\s*```.*?^\s*```[ \t]*$", re.S | re.M), re.compile(r"`[^`\n]*`"), MARKER)


def figures(text: str) -> list[str]:
    """Every figure of a text: a measured result a reader might copy, that drifts when the results change.

    A figure is a signed number (a seat edge or gap +0.9 or −2.9, an effect, an Elo rating +247; "−1", the
    rules' code for none, is not one), a percentage with decimals (53.2%), an interval of such numbers
    ([+9.9, +10.5], [52.2%, 54.2%]; one without a sign or a decimal point, [0, 1], is a range of values), a
    speed (46,075 games/s, games a second), a run's time (41 s, 54 minutes, 2 hours; not a waiting time
    "after 30 s", "for 30 s", "within 30 minutes", "every 5 s", which is a setting), a ratio (1.4×; not a
    shape, 2×5), a study's size in millions (4.2 million, a 10-million-game search) or a count of games or deals
    that is not a round thousand (4,221,992 games: 100,000 deals is a number a command was asked for).
    Not figures: rule numbers, the rules' card counts, dates, versions, round inputs of commands, targets
    (≥ 55%, ≤ 30 s: a bound asked for, not a result). The text is prose already (``prose``): what a generator
    writes is left out before, and so are code blocks and spans, a command (the documents' tests run them) or a
    command's printed output quoted as an example of what it prints (no test reprints those yet)."""
    found = (m.group(0) for m in _FIGURE.finditer(text) if not text[:m.start()].rstrip(" ").endswith(("≥", "≤")))
    return [f for f in found if f != "−1" and not (f.startswith("[") and not re.search(r"[+−.]", f))]


def prose(text: str, comments: bool = False) -> str:
    """What a reader reads as prose in a document: its text without code blocks, code spans, figures between
    markers and the blocks a command writes (``WRITTEN_BLOCKS``); with ``comments``, a file's comments only
    (an example's ``# ...``: its settings are the designer's to change, not figures)."""
    if comments:
        text = "\n".join(line.split("#", 1)[1] for line in text.splitlines() if "#" in line)
    for marks in (m for _, blocks in WRITTEN_BLOCKS.values() for m in blocks):
        text = re.sub(re.escape(marks[0]) + ".*?" + re.escape(marks[1]), " ", text, flags=re.S)
    for pattern in _NOT_PROSE:
        text = pattern.sub(" ", text)
    return text


def unowned(root: Path = ROOT) -> dict[str, list[str]]:
    """The figures nothing writes, by file: in the prose of the documents and the comments of the examples.
    A file written whole from the results (``FILES``) is owned throughout."""
    out = {}
    examples = {p for pattern in EXAMPLES for p in root.glob(pattern)}
    for path in sorted(set(documents(root)) | examples):
        rel = str(path.relative_to(root))
        if rel in FILES:
            continue
        found = figures(prose(path.read_text(encoding="utf-8"), comments=path in examples))
        if found:
            out[rel] = found
    return out


def fill(text: str, skip: frozenset = frozenset()) -> tuple[str, list[str]]:
    """The text with every figure filled, and the names of the figures that changed."""
    changed = []

    def one(m: re.Match) -> str:
        name, body = m.group("name"), m.group("body")
        if name not in FIGURES:
            raise SystemExit(f"docs_figures: unknown figure '{name}' (known: {', '.join(sorted(FIGURES))})")
        if name in skip:
            return m.group(0)
        value = FIGURES[name]()
        new = f"\n{value}\n" if name in BLOCKS else value
        if new != body:
            changed.append(name)
        return f"<!-- fig:{name} -->{new}<!-- /fig:{name} -->"

    return MARKER.sub(one, text), changed


def run(check: bool, skip: frozenset = frozenset(), root: Path = ROOT) -> list[str]:
    """Fill (or check) every document and generated file; the list of "file: figure" that were (or would
    be) changed."""
    drift = []
    for rel, make in FILES.items():
        path = root / rel
        if not path.parent.exists():
            continue
        new = make()
        if not path.exists() or path.read_text(encoding="utf-8") != new:
            drift.append(f"{rel}: the whole file")
            if not check:
                path.write_text(new, encoding="utf-8")
    for path in documents(root):
        text = path.read_text(encoding="utf-8")
        new, changed = fill(text, skip)
        rel = str(path.relative_to(root))
        if rel in WRITTEN_BLOCKS:
            written = WRITTEN_BLOCKS[rel][0](new)
            changed += ["its written blocks"] if written != new else []
            new = written
        drift += [f"{rel}: {name}" for name in changed]
        if changed and not check:
            path.write_text(new, encoding="utf-8")
    return drift


def main(argv: list[str] | None = None, root: Path = ROOT) -> int:
    from ccsim.toolchain.script_args import ScriptParser
    ap = ScriptParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="change nothing; exit 1 if a figure differs")
    ap.add_argument("--no-test-counts", action="store_true", help="leave the test counts alone (no collection)")
    args = ap.parse_args(argv)
    skip = frozenset(TEST_COUNTS) if args.no_test_counts else frozenset()
    drift = run(args.check, skip, root)
    for d in drift:
        print(("differs from the results: " if args.check else "written: ") + d)
    if args.check and drift:
        print("run `python scripts/docs_figures.py` to write them from the results", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The test suite's times, and the files and blocks written whole from the results (benchmarks, strength,
calibration, the page's copy of the answer, results/balance/README.md's blocks)."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from functools import lru_cache
from typing import Callable

from ccsim.analyses.balance.search.verdict import answer_paragraph, points
from ccsim.analyses.levels import level_words

from .common import ROOT, read_json, recommendation, summary


def warm_start() -> str:
    """Seconds of a warm start, `ccsim run --games 1000` with the cache filled (results/bench/engine.json)."""
    return f"{read_json('results/bench/engine.json')['warm_start_s']:.1f}"


def _tests_time(tier: str, field: str) -> Callable[[], str]:
    """A test tier's time as results/bench/tests.json holds it: a range as "13–20", one figure as "55"."""
    def figure() -> str:
        v = read_json("results/bench/tests.json")[tier][field]
        low, high = v if isinstance(v, list) else (v, v)
        return f"{low:g}" if low == high else f"{low:g}–{high:g}"
    return figure


@lru_cache(maxsize=None)
def _test_counts() -> tuple[int, int]:
    """(fast tier, all) as pytest collects them, rounded to 50 so one new test does not move the figure."""
    def count(*extra: str) -> int:
        p = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *extra],
                           cwd=ROOT, capture_output=True, text=True)
        m = re.search(r"(\d+)(?:/(\d+))? tests? collected", p.stdout)
        if not m:
            raise SystemExit(f"docs_figures: could not count the tests: {p.stdout[-300:]}{p.stderr[-300:]}")
        return int(m.group(1)), int(m.group(2) or m.group(1))
    fast, total = count("-m", "not slow")
    return 50 * round(fast / 50), 50 * round(total / 50)


def tests_fast() -> str:
    return f"{_test_counts()[0]:,}"


def tests_all() -> str:
    return f"{_test_counts()[1]:,}"


def _flat_rules(block: dict, prefix: str = "") -> dict:
    """A nested rules block as the form's dotted keys: {"action_count.caesar.veto": 4}."""
    out = {}
    for k, v in block.items():
        out |= _flat_rules(v, f"{prefix}{k}.") if isinstance(v, dict) else {f"{prefix}{k}": v}
    return out


def published_json() -> str:
    """The page's copy of the published answer (ccsim/explore/static/answer.json): the change in words, the
    level that judged it, the form query that loads it, and the paragraph."""
    rec = recommendation()
    query = [[k, str(v)] for k, v in _flat_rules(rec.get("rules") or {}).items()]
    query += [["variant", v] for v in rec.get("variants") or []]
    at = rec.get("at_judge") or {}
    judged = (f"judged with {level_words(rec['judge'])} on both sides: Cleopatra's edge "
              f"{points(rec['standard']['seat_advantage'])} points under the standard rules, "
              f"{points(at['seat_advantage'])} with the change" if at else "")
    data = dict(words=rec.get("words"), level=rec.get("judge"), judged=judged, query=query,
                text=answer_paragraph(summary()), source="results/balance/summary.json")
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def _script(name: str):
    """A module of scripts/ (this folder is no package)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def benchmarks() -> str:
    """results/BENCHMARKS.md from results/bench/*.json (scripts/bench_table.py)."""
    return _script("bench_table").render(ROOT)


def strength_page() -> str:
    """results/strength/README.md from its parts' JSON files (scripts/strength_report.py, no plot drawn)."""
    return _script("strength_report").report_text(ROOT / "results" / "strength")


def calibration_page() -> str:
    """results/calibration/README.md from calibration.json (scripts/calibrate.py report)."""
    from ccsim.present.calibration import calibration_markdown
    return calibration_markdown(read_json("results/calibration/calibration.json"))


#: files written whole from the results (the explore page's copy of the answer ships with the package)
FILES: dict[str, Callable[[], str]] = {
    "ccsim/explore/static/answer.json": published_json, "results/BENCHMARKS.md": benchmarks,
    "results/strength/README.md": strength_page, "results/calibration/README.md": calibration_page}


def balance_page(text: str) -> str:
    """results/balance/README.md with the blocks ``ccsim balance`` writes from summary.json and ring/ring.json
    (the answer, the next ring) written again; the rest of the page is prose."""
    from ccsim.analyses.balance.publish.answer import with_blocks
    return with_blocks(text, answer_paragraph(summary()), read_json("results/balance/ring/ring.json"))


#: documents with blocks a command writes between its own markers, each the command's way of writing them
WRITTEN_BLOCKS: dict[str, tuple[Callable[[str], str], tuple[tuple[str, str], ...]]] = {
    "results/balance/README.md": (balance_page, (("<!-- answer -->", "<!-- /answer -->"),
                                                 ("<!-- ring -->", "<!-- /ring -->")))}


FIGURES: dict[str, Callable[[], str]] = {
    "warm-start": warm_start, "tests-fast": tests_fast, "tests-all": tests_all,
    **{f"tests-{tier}-{name}": _tests_time(tier, field) for tier, name, field in (
        ("all", "minutes", "minutes"), ("fast", "minutes", "minutes"), ("fast", "cpu", "cpu_s"),
        ("fast", "busy", "busy_minutes"), ("plain", "cpu", "cpu_s"))},
}

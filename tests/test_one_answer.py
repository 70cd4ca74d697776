"""One answer on every path a designer takes: the README's answer, docs/designer.md's last step, the
published result of `ccsim balance` (results/balance/summary.json and recommended.toml), the explore page's
default page and the balance report's summary all give one and the same recommended change.  They are held
to each other and to summary.json, never to a typed string: when the search's answer changes, each place
must follow."""
import json
import re
import tomllib
from pathlib import Path

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

from ccsim.explore.form import read_question  # noqa: E402
from ccsim.explore.server import create_app  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def published() -> dict:
    rec = json.loads((ROOT / "results" / "balance" / "summary.json").read_text(encoding="utf-8"))["recommendation"]
    assert rec and rec["words"], "results/balance/summary.json recommends nothing"
    return rec


def _flat(text: str) -> str:
    return " ".join(re.sub(r"^\s*>\s?", "", text, flags=re.M).replace("**", "").split())


def _figure(text: str, name: str) -> str:
    m = re.search(rf"<!-- fig:{name} -->(.*?)<!-- /fig:{name} -->", text, flags=re.S)
    assert m, f"no {name} figure"
    return _flat(m.group(1))


def readme_change(rec) -> str:
    answer = _figure((ROOT / "README.md").read_text(encoding="utf-8"), "answer")
    return rec["words"] if rec["words"] in answer else answer


def designer_last_step(rec) -> str:
    text = (ROOT / "docs" / "designer.md").read_text(encoding="utf-8")
    last = re.split(r"^## ", text, flags=re.M)[-1]
    assert "results/balance/recommended.toml" in last, "the last step plays the published recommended file"
    return _figure(last, "answer-change")


def explore_default_page() -> dict:
    with TestClient(create_app()) as c:
        page = c.get("/")
        spec = c.get("/api/form").json()
    assert page.status_code == 200 and 'id="published-words"' in page.text
    return spec["published"]


def report_summary(rec) -> str:
    text = _flat((ROOT / "results" / "balance-report" / "summary.md").read_text(encoding="utf-8"))
    return rec["words"] if _flat(rec["text"]) in text else text


def recommended_file() -> dict:
    changes = tomllib.loads((ROOT / "results" / "balance" / "recommended.toml").read_text(encoding="utf-8"))["change"]
    return {k: v for k, v in changes[0].items() if k not in ("name", "description")}


def test_every_path_gives_the_same_recommended_change(published):
    page = explore_default_page()
    said = {"README answer": readme_change(published), "docs/designer.md last step": designer_last_step(published),
            "explore default page": page["words"]}
    assert said == dict.fromkeys(said, published["words"])


def test_the_report_summary_gives_the_same_recommended_change(published):
    assert report_summary(published) == published["words"]


def test_the_page_loads_the_published_change_itself(published):
    page = explore_default_page()
    fields = {}
    for k, v in page["query"]:
        fields.setdefault(k, []).append(v)
    clauses = lambda words: sorted(words.split("; "))  # noqa: E731 (the form lists them in its own order)
    assert clauses(read_question(fields).words()) == clauses(published["words"])
    assert page["text"] == published["text"]


def test_the_recommended_file_is_the_published_change(published):
    assert recommended_file() == published["rules"]

"""A study may read a published ordering search (``[orderings] search = DIR``) rather than search again."""
import json
import shutil
from pathlib import Path

import pytest

from ccsim.report.sections.orderings import published_search_part
from ccsim.report.spec import StudyError, parse_study

PUBLISHED = Path(__file__).resolve().parents[1] / "results" / "orderings" / "search"


def test_the_published_search_is_read_as_the_search_part_keyed_by_its_file(tmp_path):
    part = published_search_part("learned", str(PUBLISHED), 5)
    tables, info = part.compute({}, False)
    meta = json.loads((PUBLISHED / "search.json").read_text())
    assert list(tables["top"]["ordering"]) == [o["ordering"] for o in meta["orderings"][:5]]
    assert set(tables["extra"]["role"]) == {"shuffled", "worst"} and "role" not in tables["top"]
    assert info["games"] == 0 and info["searched_games"] == meta["games_used"]
    copy = tmp_path / "search"
    shutil.copytree(PUBLISHED, copy)
    assert published_search_part("learned", str(copy), 5).keyed({}).key == part.keyed({}).key
    (copy / "search.json").write_text(json.dumps(dict(meta, seconds=1.0)))      # published again: a new key
    assert published_search_part("learned", str(copy), 5).keyed({}).key != part.keyed({}).key


@pytest.mark.parametrize("level, top, folder, says", [
    ("tactician", 5, None, "searched at learned, the section's level is tactician"),
    ("learned", 11, None, "kept 10 orderings, the section asks for top = 11"),
    ("learned", 5, "nowhere", "is no `ccsim orderings search` folder")])
def test_a_search_folder_that_does_not_fit_the_section_is_refused_in_one_line(level, top, folder, says):
    with pytest.raises(StudyError, match=says.replace("(", r"\(").replace(")", r"\)")) as e:
        published_search_part(level, folder or str(PUBLISHED), top)
    assert "\n" not in str(e.value)


def test_the_folder_lies_beside_the_study_file(tmp_path):
    st = parse_study({"levels": ["greedy", "learned"], "orderings": {"level": "learned", "search": "../o/search"}},
                     path=str(tmp_path / "study" / "study.toml"))
    assert st.sections["orderings"]["search"] == str(tmp_path / "study" / ".." / "o" / "search")

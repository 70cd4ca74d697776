"""One table mechanism for every integer layout (ccsim.kernel.slots): every module's plain
slot definitions are its table's placement, written out (so grep finds `PUB_FU = `,
`RP_HAND_SIZE = `, `R_WINNER = `, `P_BUDGET = `; no globals().update).

A deliberate table edit: ``CCSIM_UPDATE_GOLDEN=1 python -m pytest tests/test_slots.py``
rewrites the definition blocks, then the import-time checks hold them."""
import os
import re
from pathlib import Path

import pytest

from ccsim.kernel import slots
from ccsim.kernel import layout, rules
from ccsim.kernel.engine import episode
from strategies.learned import features as learned_features
from strategies.heuristics import layouts
from strategies.search import expert
from strategies.neural import inputs, model

LAYOUTS = [  # (module, table name, {name: offset})
    *((layout, t, offsets) for t, offsets in layout.SLOT_TABLES.items()),
    (rules, "rules", rules.RULES_SLOTS),
    (episode, "result", episode.RESULT_SLOTS),
    (layouts, "params", layouts.PARAM_SLOTS),
    (layouts, "rows", layouts.ROW_SLOTS),
    (layouts, "scalars", layouts.SCALAR_SLOTS),
    (layouts, "memory", layouts.MEMORY_SLOTS),
    (expert, "search", expert.SEARCH_SLOTS),
    (learned_features, "model", learned_features.MODEL_SLOTS),
    *((learned_features, f"{kind} features", getattr(learned_features, f"{kind.upper()}_COLUMNS"))
      for kind in ("step", "mode", "veto", "draw")),
    (inputs, "obs", inputs.OBS_SLOTS),
    (inputs, "option", inputs.OPT_SLOTS),
    (model, "net", model.NET_SLOTS),
]


@pytest.mark.parametrize("module, table, offsets", LAYOUTS, ids=[f"{m.__name__}:{t}" for m, t, _ in LAYOUTS])
def test_the_definitions_are_the_tables_placement(module, table, offsets):
    path = Path(module.__file__)
    if os.environ.get("CCSIM_UPDATE_GOLDEN") == "1":
        slots.rewrite(path, table, offsets)
    assert slots.written(path, table) == slots.definitions(offsets), f"{path.name}: regenerate the slots of {table}"
    text = path.read_text(encoding="utf-8")
    assert "globals().update" not in text
    first = next(iter(offsets))
    assert re.search(rf"^{first} = \d+$", text, re.M), "a plain definition grep finds"


def test_a_table_places_its_rows_back_to_back():
    rows = (("A", (), ""), ("B", (2, 3), ""), ("C", (4,), ""))
    assert slots.place(rows, "X_", 10) == ({"X_A": 10, "X_B": 11, "X_C": 17}, 21)


def test_stale_definitions_are_refused_at_import():
    with pytest.raises(AssertionError, match="differ from its table at \\['X_B'\\]"):
        slots.hold({"X_A": 0, "X_B": 2}, {"X_A": 0, "X_B": 1}, "demo")


def test_rewrite_replaces_only_the_block(tmp_path):
    f = tmp_path / "m.py"
    f.write_text(f"a = 1\n{slots.begin_marker('t')}\nX_A = 5\n{slots.end_marker('t')}\nb = 2\n")
    slots.rewrite(f, "t", {"X_A": 0, "X_B": 1})
    assert f.read_text() == f"a = 1\n{slots.begin_marker('t')}\nX_A = 0\nX_B = 1\n{slots.end_marker('t')}\nb = 2\n"

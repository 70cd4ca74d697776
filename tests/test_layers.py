"""The house along the data flow (docs/architecture.md "Layers"): imports run one way, numba's
internals stay in the toolchain, and files and functions stay a size a newcomer can read."""
import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# lowest first: a module may import its own layer and the layers below it, never above
LAYERS = ["ccsim.errors", "ccsim.toolchain", "ccsim.kernel", "strategies", "ccsim.runner", "ccsim.play",
          "ccsim.analyses", "ccsim.training", "ccsim.present", "ccsim.report", "ccsim.explore", "ccsim.cli"]
# the doors: where a person or a file meets an analysis; only they use the presentation room
DOORS = ("ccsim.cli", "ccsim.report", "ccsim.explore", "ccsim.present")
# the strategies' socket: what other rooms may import of strategies/ (a family is reached through it)
SOCKET = ("strategies.registry", "strategies.family", "strategies.param_files",
          "strategies.seats")  # (what each player's seats measured: data about players, no family)
# ccsim.training trains the learned players: it plays their compiled policies in its own kernels
# (the branched self-play, the teacher's search) and fits their features and network, so it reads
# the families it trains, as their own tests do
FAMILY_READERS = ("ccsim.training",)


def _modules():
    for top in ("ccsim", "strategies"):
        for path in sorted((ROOT / top).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            yield ".".join(parts[:-1] if parts[-1] == "__init__" else parts), path


def _command(module: str) -> bool:
    """A package's ``__main__`` (``python -m ccsim.analyses.balance.publish``): a command line, so a door
    standing with ccsim.cli, whichever folder holds it."""
    return module.endswith(".__main__")


def _layer(module: str):
    if _command(module):
        module = "ccsim.cli"
    found = [i for i, lay in enumerate(LAYERS) if module == lay or module.startswith(lay + ".")]
    return found[0] if found else None


def _imports(path: Path):
    """(line, module) of every ccsim or strategies import, at any depth of the file."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from ((node.lineno, a.name) for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.lineno, node.module
            # `from ccsim.kernel import rules`: the module imported is ccsim.kernel.rules
            yield from ((node.lineno, f"{node.module}.{a.name}") for a in node.names
                        if (ROOT / node.module.replace(".", "/") / f"{a.name}.py").is_file())


def test_every_module_has_a_layer():
    homeless = [m for m, _ in _modules() if _layer(m) is None and m != "ccsim"]
    assert homeless == []  # ccsim/__init__ is the package's door (Game, the cache) and stands above all


def test_every_module_imports():
    # the fast tier (`pytest -m "not slow"`) reaches every module at least this far: no compile
    # happens at import, so a module that no longer imports shows here in seconds
    import importlib
    failed = {}
    for module, _ in _modules():
        if not module.endswith("__main__"):  # (importing it runs the command line)
            try:
                importlib.import_module(module)
            except Exception as e:  # noqa: BLE001 - every failure is listed, not just the first
                failed[module] = repr(e)
    assert failed == {}


def test_imports_run_one_way_down_the_layers():
    upward = []
    for module, path in _modules():
        mine = _layer(module)
        if mine is None:
            continue
        for line, target in _imports(path):
            theirs = _layer(target)
            if theirs is not None and theirs > mine:
                upward.append(f"{path.relative_to(ROOT)}:{line} {module} -> {target}")
    assert upward == []


def test_the_layer_check_sees_an_upward_import():
    assert _layer("ccsim.kernel.engine.step") < _layer("ccsim.runner.config") < _layer("ccsim.cli.batch")
    assert _layer("strategies.heuristics.greedy") < _layer("ccsim.runner.backends")


def test_numba_internals_only_in_the_toolchain():
    # numba's private attributes (the cache index, the dispatcher's cache) and numba.core are
    # the toolchain's business: a numba release that moves them breaks one folder
    needles = ("numba.core", "._cache.", "_load_index", "_cache_file")
    found = []
    for module, path in _modules():
        if module.startswith("ccsim.toolchain"):
            continue
        text = path.read_text(encoding="utf-8")
        found += [f"{path.relative_to(ROOT)}: {n}" for n in needles if n in text]
    assert found == []


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _private_uses(path: Path):
    """(line, text) of every use of another module's private name: ``from x import _y``, or
    ``m._y`` where ``m`` was imported from ccsim or strategies (a module or a name in one)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    bound = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0 \
                and node.module.split(".")[0] in ("ccsim", "strategies"):
            for a in node.names:
                if _private(a.name):
                    yield node.lineno, f"from {node.module} import {a.name}"
                bound.add(a.asname or a.name)
        elif isinstance(node, ast.Import):
            bound.update(a.asname or a.name.split(".")[0] for a in node.names
                         if a.name.split(".")[0] in ("ccsim", "strategies"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr):
            root = node.value
            while isinstance(root, ast.Attribute):
                root = root.value
            if isinstance(root, ast.Name) and root.id in bound:
                yield node.lineno, ast.unparse(node)


def test_no_import_of_another_modules_private_name():
    # what the modules of a sub-package share is public inside it: a leading
    # underscore means "this module's own", so no other module may lean on it
    found = [f"{p.relative_to(ROOT)}:{line} {text}" for p in _sources() for line, text in _private_uses(p)]
    assert found == []


def test_the_private_check_sees_a_private_import(tmp_path):
    p = tmp_path / "m.py"
    p.write_text("from ccsim.x import _y, z\nimport strategies.registry as reg\nreg._lookup(1)\nz._w\nself._own = 1\n")
    assert sorted(line for line, _ in _private_uses(p)) == [1, 3, 4]


# numba's own decorators: a keyword of theirs with a leading underscore (cfunc(..., _nrt=False))
# is a private argument, which a numba release may drop without notice
NUMBA_CALLS = {"cfunc", "njit", "jit", "vectorize", "guvectorize", "stencil", "intrinsic", "overload",
               "overload_method", "generated_jit"}


def _toolchain_business(path: Path):
    """(line, what) of each llvmlite import and each private argument to a numba decorator."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                 else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
        if any(n.split(".")[0] == "llvmlite" for n in names):
            yield node.lineno, "llvmlite"
        if isinstance(node, ast.Call):
            func = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if func in NUMBA_CALLS:
                yield from ((node.lineno, f"{func}({k.arg}=...)") for k in node.keywords if k.arg and k.arg[0] == "_")


def test_llvmlite_and_private_numba_arguments_only_in_the_toolchain():
    found = [f"{p.relative_to(ROOT)}:{line} {what}" for p in _sources()
             if not p.relative_to(ROOT).as_posix().startswith("ccsim/toolchain/")
             for line, what in _toolchain_business(p)]
    assert found == []


def test_the_toolchain_check_sees_llvmlite_and_a_private_argument(tmp_path):
    p = tmp_path / "m.py"
    p.write_text("from llvmlite import ir\nimport numba\nf = numba.cfunc('i8()', _nrt=False)(g)\nnjit(cache=True)\n")
    assert [line for line, _ in _toolchain_business(p)] == [1, 3]


def _import_graph() -> dict:
    """Module -> the ccsim and strategies modules it imports (at any depth of the file; not the
    imports a type checker alone reads, under ``if TYPE_CHECKING:``)."""
    modules = dict(_modules())
    graph = {}
    for module, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        typing_only = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If)
                       and "TYPE_CHECKING" in ast.unparse(node.test) for b in node.body for n in ast.walk(b)}
        graph[module] = {target for node in ast.walk(tree) if id(node) not in typing_only
                         for target in _imported(node, modules) if target != module}
    return graph


def _imported(node, modules):
    if isinstance(node, ast.Import):
        return [a.name for a in node.names if a.name in modules]
    if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
        subs = [f"{node.module}.{a.name}" for a in node.names if f"{node.module}.{a.name}" in modules]
        return subs + ([node.module] if len(subs) < len(node.names) and node.module in modules else [])
    return []


def _a_circle(graph: dict) -> list:
    """One circle of imports (its modules, the first repeated at the end), or []."""
    state, path = {}, []

    def visit(m):
        state[m] = "open"
        path.append(m)
        for t in sorted(graph.get(m, ())):
            if state.get(t) == "open":
                return path[path.index(t):] + [t]
            if t not in state and (found := visit(t)):
                return found
        state[m] = "done"
        path.pop()
        return []
    return next((c for m in sorted(graph) if m not in state and (c := visit(m))), [])


def test_no_circle_of_imports():
    assert _a_circle(_import_graph()) == []


def test_the_circle_check_sees_a_circle():
    assert _a_circle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    assert _a_circle({"a": {"b"}, "b": set()}) == []


# no folder a newcomer cannot take in at a glance (rooms by seam, not by line count)
MAX_FOLDER_MODULES = 15


def test_no_folder_of_more_than_15_modules():
    folders = {}
    for top in ("ccsim", "strategies"):
        for p in (ROOT / top).rglob("*.py"):
            if p.name != "__init__.py":
                folders.setdefault(str(p.parent.relative_to(ROOT)), []).append(p.name)
    assert {f: len(m) for f, m in folders.items() if len(m) > MAX_FOLDER_MODULES} == {}


# a package's face says what the package is and what it offers; its body lives in its modules
MAX_FACE_LINES = 100


def _long_faces(paths) -> dict:
    return {str(p): n for p in paths if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_FACE_LINES}


def test_no_package_face_over_100_lines():
    assert _long_faces(p for top in ("ccsim", "strategies") for p in (ROOT / top).rglob("__init__.py")) == {}


def test_the_face_check_sees_a_long_face(tmp_path):
    face = tmp_path / "__init__.py"
    face.write_text("x = 1\n" * (MAX_FACE_LINES + 1))
    assert list(_long_faces([face]).values()) == [MAX_FACE_LINES + 1]


# No file or function too long to read at once, outside tests/.
MAX_FILE_LINES = 600
MAX_FUNCTION_LINES = 80


def _sources():
    """Every Python file of the package, the strategies and the scripts."""
    for top in ("ccsim", "strategies", "scripts"):
        yield from sorted((ROOT / top).rglob("*.py"))


def _functions(path: Path):
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node.name, node.end_lineno - node.lineno + 1


def test_no_file_over_600_lines():
    over = {str(p.relative_to(ROOT)): n for p in _sources()
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_FILE_LINES}
    assert over == {}


def test_no_function_over_80_lines():
    over = {f"{p.relative_to(ROOT)}:{name}": n for p in _sources() for name, n in _functions(p)
            if n > MAX_FUNCTION_LINES}
    assert over == {}


@pytest.mark.parametrize("limit", [MAX_FILE_LINES])
def test_the_size_check_sees_a_long_file(tmp_path, limit):
    p = tmp_path / "long.py"
    p.write_text("def f():\n" + "    x = 1\n" * (limit + 1))
    assert dict(_functions(p))["f"] == limit + 2


def test_every_package_folder_is_installed():
    # `pip install .` (the README's quick start) installs only the packages pyproject.toml lists
    import tomllib
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(ROOT).parts) for top in ("ccsim", "strategies")
             for p in (ROOT / top).rglob("__init__.py")}
    assert found == listed


def _in(module: str, rooms) -> bool:
    return any(module == r or module.startswith(r + ".") for r in rooms)


def _presentation_users(graph: dict) -> list:
    return sorted(f"{m} -> {t}" for m, targets in graph.items() for t in targets
                  if _in(t, ("ccsim.present",)) and not _in(m, DOORS) and not _command(m))


def test_presentation_is_imported_by_the_doors_only():
    assert _presentation_users(_import_graph()) == []


def test_the_presentation_check_sees_an_analysis_drawing():
    graph = {"ccsim.analyses.tournament": {"ccsim.present.heatmap"}, "ccsim.cli.analyses": {"ccsim.present.files"},
             "ccsim.analyses.balance.publish.__main__": {"ccsim.present.balance_plot"}}
    assert _presentation_users(graph) == ["ccsim.analyses.tournament -> ccsim.present.heatmap"]


# where figures are drawn: the presentation room draws what the commands show; the report's figures and the
# page's plots keep their own rooms (they draw nothing a command draws: docs/architecture.md); the training's
# learning curves are still drawn inside its loop, as each generation ends (the one exception left)
DRAWING_ROOMS = ("ccsim.present", "ccsim.report", "ccsim.training.plots")


def _drawers(sources: dict) -> list:
    """The modules that import matplotlib (``sources``: module -> its text) outside the drawing rooms."""
    return sorted(m for m, text in sources.items()
                  if not _in(m, DRAWING_ROOMS) and any(_imports_matplotlib(n) for n in ast.walk(ast.parse(text))))


def _imports_matplotlib(node) -> bool:
    if isinstance(node, ast.Import):
        return any(a.name.split(".")[0] == "matplotlib" for a in node.names)
    return isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "matplotlib"


def test_no_matplotlib_outside_the_drawing_rooms():
    assert _drawers({m: p.read_text(encoding="utf-8") for m, p in _modules()}) == []


def test_the_drawing_check_sees_an_analysis_that_draws():
    sources = {"ccsim.analyses.whatif": "def f():\n    import matplotlib.pyplot as plt\n",
               "ccsim.present.whatif": "import matplotlib\n", "ccsim.analyses.run": "x = 'matplotlib'\n"}
    assert _drawers(sources) == ["ccsim.analyses.whatif"]


def _family_imports(graph: dict) -> list:
    return sorted(f"{m} -> {t}" for m, targets in graph.items() for t in targets
                  if t.startswith("strategies.") and not _in(t, SOCKET)
                  and not m.startswith("strategies") and not _in(m, FAMILY_READERS))


def test_no_module_outside_strategies_imports_a_family_by_name():
    # the registry is the socket: the rest of the house names a strategy, never its module
    assert _family_imports(_import_graph()) == []


def test_the_family_check_sees_a_family_import():
    graph = {"ccsim.runner.config": {"strategies.registry", "strategies.search.expert"},
             "strategies.registry": {"strategies.heuristics.weighted"}, "ccsim.training.branches": {"strategies.learned"}}
    assert _family_imports(graph) == ["ccsim.runner.config -> strategies.search.expert"]


_MUTATORS = {"update", "append", "extend", "add", "setdefault", "insert", "clear", "pop", "remove"}


def _top_level(tree):
    """The statements that run when the module is imported: its body, into ifs, loops, withs and
    trys, not into functions or classes."""
    todo = list(tree.body)
    while todo:
        node = todo.pop(0)
        yield node
        if isinstance(node, (ast.If, ast.For, ast.While, ast.With, ast.Try)):
            todo += [n for part in ("body", "orelse", "finalbody", "handlers") for n in getattr(node, part, [])]
        elif isinstance(node, ast.ExceptHandler):
            todo += node.body


def _root(node):
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _foreign_assignments(path: Path):
    """(line, text) of each statement run at import that assigns to, or mutates, a name imported from
    ccsim or strategies: ``expert.DEFAULT_PARAMS = ...``, ``TABLE[k] = ...``, ``TABLE.update(...)``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0 \
                and node.module.split(".")[0] in ("ccsim", "strategies"):
            imported |= {a.asname or a.name for a in node.names}
        elif isinstance(node, ast.Import):
            imported |= {a.asname or a.name.split(".")[0] for a in node.names
                         if a.name.split(".")[0] in ("ccsim", "strategies")}
    for node in _top_level(tree):
        targets = (node.targets if isinstance(node, ast.Assign) else
                   [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else [])
        for t in targets:
            if isinstance(t, (ast.Attribute, ast.Subscript)) and _root(t) in imported:
                yield node.lineno, ast.unparse(t)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) \
                and isinstance(node.value.func, ast.Attribute) and node.value.func.attr in _MUTATORS \
                and _root(node.value.func.value) in imported:
            yield node.lineno, ast.unparse(node.value.func)


def test_no_import_time_assignment_to_another_modules_globals():
    found = [f"{p.relative_to(ROOT)}:{line} {text}" for p in _sources() for line, text in _foreign_assignments(p)]
    assert found == []


def test_the_assignment_check_sees_a_module_mutated_at_import(tmp_path):
    p = tmp_path / "m.py"
    p.write_text("from strategies import expert\nfrom ccsim.kernel.engine.dispatch import PY_STRATEGIES\n"
                 "import numpy as np\nexpert.DEFAULT_PARAMS = 1\nPY_STRATEGIES.update({})\n"
                 "for k in (1, 2):\n    PY_STRATEGIES[k] = 0\nnp.x = 1\n\n\ndef f():\n    expert.X = 2\n")
    assert [line for line, _ in _foreign_assignments(p)] == [4, 5, 7]

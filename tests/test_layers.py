"""The house along the data flow (issue 24, README "Layers"): imports run one way, numba's
internals stay in the toolchain, and files and functions stay a size a newcomer can read."""
import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# lowest first: a module may import its own layer and the layers below it, never above
LAYERS = ["ccsim.errors", "ccsim.toolchain", "ccsim.kernel", "strategies", "ccsim.runner", "ccsim.play",
          "ccsim.analyses", "ccsim.training", "ccsim.report", "ccsim.explore", "ccsim.cli"]


def _modules():
    for top in ("ccsim", "strategies"):
        for path in sorted((ROOT / top).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            yield ".".join(parts[:-1] if parts[-1] == "__init__" else parts), path


def _layer(module: str):
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
    assert _layer("strategies.greedy") < _layer("ccsim.runner.backends")


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


# No file or function too long to read at once, outside tests/ (issue 24: the last ones were split).
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

"""docs/architecture.md is what the imports say (scripts/architecture.py writes it): it cannot drift."""
import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("architecture", ROOT / "scripts" / "architecture.py")
arch = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(arch)


def test_the_house_guide_is_what_the_imports_say():
    assert arch.main(["--check"]) == 0, "docs/architecture.md is out of date: run python scripts/architecture.py"


def test_the_check_sees_a_guide_that_drifted(tmp_path, monkeypatch, capsys):
    out = tmp_path / "architecture.md"
    monkeypatch.setattr(arch, "OUT", out)
    out.write_text("# Architecture\n\nWritten by hand.\n")
    assert arch.main(["--check"]) == 1  # no guide yet
    assert arch.main([]) == 0 and arch.main(["--check"]) == 0
    assert out.read_text().endswith("Written by hand.\n")  # the hand-written rest is kept
    out.write_text(out.read_text().replace("ccsim.present", "ccsim.presents"))
    assert arch.main(["--check"]) == 1 and "out of date" in capsys.readouterr().err


def test_the_floors_are_the_layer_tests():
    from test_layers import LAYERS
    assert arch.FLOORS == LAYERS


def test_the_walk_reaches_the_kernel_from_the_door():
    text = arch.render()
    walk = text[text.index("## A walk"):]
    assert "`ccsim.cli.analyses`" in walk and "`ccsim.kernel.simulate`" in walk


def _unnamed_scripts(page: str, scripts) -> list[str]:
    """The scripts the page's table of scripts does not name with its command."""
    return sorted(s for s in scripts if f"`python scripts/{s}" not in page)


def test_every_script_is_named_with_its_command():
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    scripts = [p.name for p in (ROOT / "scripts").glob("*.py") if p.name != "strength_report.py"]  # (strength's page)
    assert "strength_report.py" in page and _unnamed_scripts(page, scripts) == []


def test_the_script_check_sees_an_unnamed_script():
    assert _unnamed_scripts("`python scripts/bench.py`", ["bench.py", "bench_ab.py"]) == ["bench_ab.py"]

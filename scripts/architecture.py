"""The house guide at the top of docs/architecture.md, written from the imports so it cannot drift.

    python scripts/architecture.py           # (re)write it, between its markers in docs/architecture.md
    python scripts/architecture.py --check   # exit 1, one line, if it is not what the imports say

The rest of docs/architecture.md (the data flow, the layers' prose) is written by hand.

The rooms are the floors of tests/test_layers.py (``LAYERS``) and the wings of ``strategies/``;
each room's line is the first sentence of its package's docstring; the picture is the room-to-room
imports; the walk of ``ccsim balance`` follows the imports of the module that defines the command
down to the kernel, floor by floor, and back up the same floors.
"""
import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "architecture.md"
BEGIN = "<!-- the house, from its imports: written by scripts/architecture.py, do not edit by hand -->"
END = "<!-- end of the house, from its imports -->"
# lowest first, as tests/test_layers.py has them; the strategies' wings are rooms of their own
FLOORS = ["ccsim.errors", "ccsim.toolchain", "ccsim.kernel", "strategies", "ccsim.runner", "ccsim.play",
          "ccsim.analyses", "ccsim.training", "ccsim.present", "ccsim.report", "ccsim.explore", "ccsim.cli"]
WINGS = ["strategies.heuristics", "strategies.learned", "strategies.neural", "strategies.search"]
COMMAND = ("balance", "ccsim.analyses.balance", "ccsim.kernel.simulate")  # the walk: command, its analysis, the kernel
# a room whose package has no docstring (not this script's to write): its line here
NO_DOCSTRING = {"ccsim.training": "ccsim train and train-neural: self-play labelled by the search or by paired "
                                  "branches, and the fits of the learned players."}


def modules() -> dict:
    """Module name -> path, for ccsim and strategies."""
    found = {}
    for top in ("ccsim", "strategies"):
        for path in sorted((ROOT / top).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def import_graph(mods: dict) -> dict:
    """Module -> the ccsim and strategies modules it imports (anywhere in the file)."""
    graph = {}
    for module, path in mods.items():
        targets = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets |= {a.name for a in node.names if a.name in mods}
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                subs = {f"{node.module}.{a.name}" for a in node.names} & set(mods)
                targets |= subs | ({node.module} if node.module in mods and len(subs) < len(node.names) else set())
        graph[module] = targets - {module}
    return graph


def room_of(module: str) -> str | None:
    if module.endswith(".__main__"):  # ``python -m PACKAGE``: a command line, a door of the cli's room
        return "ccsim.cli"
    rooms = [r for r in WINGS + FLOORS if module == r or module.startswith(r + ".")]
    return rooms[0] if rooms else None


def room_line(room: str, mods: dict) -> str:
    """The first sentence of the room's package docstring (its module's, for a one-file room)."""
    doc = ast.get_docstring(ast.parse(mods[room].read_text(encoding="utf-8"))) if room in mods else None
    if not doc:
        return NO_DOCSTRING.get(room, "")
    para = " ".join(doc.split("\n\n")[0].split())
    end = para.find(". ")
    return para if end < 0 else para[:end + 1]


def room_edges(graph: dict) -> dict:
    """Room -> the rooms it imports."""
    edges = {}
    for m, targets in graph.items():
        a = room_of(m)
        for t in targets:
            b = room_of(t)
            if a and b and a != b:
                edges.setdefault(a, set()).add(b)
    return edges


def reach(graph: dict, start: str) -> set:
    seen, todo = set(), [start]
    while todo:
        m = todo.pop()
        if m not in seen:
            seen.add(m)
            todo += sorted(graph.get(m, ()))
    return seen


def command_module(mods: dict, name: str) -> str:
    """The module of ccsim/cli that defines the command ``name`` (``@click.command("name")``)."""
    for m, path in mods.items():
        if m.startswith("ccsim.cli") and f'@click.command("{name}")' in path.read_text(encoding="utf-8"):
            return m
    raise SystemExit(f"no module of ccsim/cli defines the command {name!r}")


def path_to(graph: dict, start: str, goal: str) -> list:
    """The shortest chain of imports from ``start`` to ``goal`` (modules in sorted order on a tie)."""
    prev, todo = {start: None}, [start]
    while todo:
        nxt = []
        for m in todo:
            for t in sorted(graph.get(m, ())):
                if t not in prev:
                    prev[t] = m
                    nxt.append(t)
        todo = nxt
    chain, m = [], goal
    while m is not None:
        chain.append(m)
        m = prev.get(m)
    return chain[::-1] if chain[-1] == start else []


def _walk(graph: dict, mods: dict) -> list:
    name, analysis, kernel = COMMAND
    door = command_module(mods, name)
    chain = path_to(graph, door, analysis)[:-1] + path_to(graph, analysis, kernel)
    reached = reach(graph, door)
    lines = [f"`ccsim {name}` is defined in `{door}`. The chain of imports from the door to the kernel:", ""]
    lines += [f"{i}. `{m}`: {room_line(m, mods) or '(no docstring)'}" for i, m in enumerate(chain, 1)]
    lines += ["", f"Every floor the command reaches (its imports, transitively: {len(reached)} modules), "
                  "down from the door:", ""]
    for room in [r for r in reversed(FLOORS) if any(room_of(m) in (r, *[w for w in WINGS if w.startswith(r)])
                                                       for m in reached)]:
        here = sorted(m for m in reached if room_of(m) == room or (room == "strategies" and room_of(m) in WINGS))
        lines.append(f"- **{room}** ({len(here)}): " + ", ".join(f"`{m}`" for m in here))
    up = " → ".join(f"`{m}`" for m in reversed(chain))
    lines += ["", "And back: the kernel's result rows go up the same chain as return values, " + up +
              "; the door prints the summary and writes `--out`."]
    return lines


def render() -> str:
    mods = modules()
    graph = import_graph(mods)
    edges = room_edges(graph)
    rooms = [r for r in FLOORS if r in mods or any(m.startswith(r + ".") for m in mods)] + [w for w in WINGS if w in mods]
    lines = [BEGIN, "## The house, from its imports", "",
             "Written by `python scripts/architecture.py` from the imports (`tests/test_architecture.py` "
             "fails when it drifts). Floors lowest first: a room imports only its own floor and the floors "
             "below (`tests/test_layers.py`).", "", "### The rooms", "",
             "| room | modules | what it holds |", "|---|---:|---|"]
    for r in rooms:
        n = sum(1 for m in mods if room_of(m) == r)
        lines.append(f"| `{r}` | {n} | {room_line(r, mods)} |")
    lines += ["", "### The imports between rooms", "", "```mermaid", "graph TD"]
    ids = {r: r.replace(".", "_") for r in rooms}
    for a in rooms:
        for b in sorted(edges.get(a, ()), key=rooms.index):
            lines.append(f"  {ids[a]}[{a}] --> {ids[b]}[{b}]")
    lines += ["```", "", "The same, as text (each room and the rooms it imports):", "", "```"]
    width = max(map(len, rooms))
    for a in reversed(rooms):
        lines.append(f"{a:<{width}}  -> {', '.join(sorted(edges.get(a, ()), key=rooms.index)) or '(nothing)'}")
    lines += ["```", "", f"### A walk: `ccsim {COMMAND[0]}` from the door to the kernel and back", ""]
    lines += _walk(graph, mods) + [END]
    return "\n".join(lines) + "\n"


def spliced(text: str, block: str) -> str:
    """``text`` (docs/architecture.md) with ``block`` between its markers, or after its title."""
    if BEGIN in text and END in text:
        return text[:text.index(BEGIN)] + block + text[text.index(END) + len(END) + 1:]
    title, _, rest = text.partition("\n")
    return f"{title}\n\n{block}\n{rest.lstrip(chr(10))}"


def main(argv=None) -> int:
    from ccsim.toolchain.script_args import ScriptParser
    parser = ScriptParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if docs/architecture.md is out of date")
    args = parser.parse_args(argv)
    old = OUT.read_text(encoding="utf-8") if OUT.is_file() else "# Architecture\n"
    text = spliced(old, render())
    if args.check:
        if text != old:
            where = OUT.relative_to(ROOT) if OUT.is_relative_to(ROOT) else OUT
            print(f"{where} is out of date: run python scripts/architecture.py", file=sys.stderr)
            return 1
        return 0
    OUT.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

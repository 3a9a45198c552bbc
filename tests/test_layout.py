"""The package layout is the architecture: stages in folders, imports only downward, no circles.

`LAYERS` lists ir_trace's packages from the bottom up; a module may import its own package and the
ones below it, never one above (lazy imports inside functions count too: they are the same arrow).
"""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "ir_trace"

LAYERS = (
    ("errors",),  # the one domain error type
    ("syntax",),  # the shape of printed IR, no I/O
    ("noise",),  # the ignore modes
    ("options",),  # what one run is asked to do, parsed once (RunOptions)
    ("diffcore",),  # matching, line diff, intra-line: pure
    ("inputs",),  # what a PATH holds: dumps, programs, MLIR trees and streams
    ("runsafety",),  # writes that never clobber, output paths, signals, streams
    ("report",),  # payload, run-against-run model, page
    ("summaries",),  # --json and the summary line, typed
    ("cache",),  # fingerprints, the result cache, report records
    ("sweep",),  # sweeps without Luigi
    ("pipeline", "tasks"),  # Luigi tasks only (`tasks`: the same classes under the design card's module name)
    ("api",),  # the public Python API
    ("app",),  # the command
)
RANK = {name: level for level, names in enumerate(LAYERS) for name in names}
ROOT_NAMES = {"__version__"}  # what any module may take from ir_trace/__init__.py


def modules() -> dict[str, Path]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def imported(path: Path, known: dict[str, Path]) -> set[str]:
    """The ir_trace modules (dotted below the package) that `path` imports anywhere in it."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            targets = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        else:
            continue
        for target in targets:
            if target.startswith("ir_trace."):
                name = target.removeprefix("ir_trace.")
                if name in known:
                    names.add(name)
    return names


def stage(module: str) -> str:
    return module.split(".")[0]


def test_every_package_and_top_level_module_has_a_layer():
    stages = {stage(name) for name in modules() if name and name != "__main__"}
    assert stages <= set(RANK), f"give these a place in LAYERS: {sorted(stages - set(RANK))}"


def test_imports_only_run_downward():
    known = modules()
    upward = []
    for name, path in known.items():
        if not name or name == "__main__":
            continue
        for target in imported(path, known):
            if target and RANK[stage(target)] > RANK[stage(name)]:
                upward.append(f"{name} -> {target}")
    assert not upward, "imports that run upward:\n" + "\n".join(sorted(upward))


def test_no_import_circles():
    known = modules()
    graph = {name: imported(path, known) - {name} for name, path in known.items()}
    state: dict[str, int] = {}
    circles = []

    def visit(name: str, trail: list[str]) -> None:
        state[name] = 1
        for target in sorted(graph.get(name, ())):
            if target == "" or (name.startswith(target + ".")):
                continue  # a package's own __init__ is not a dependency of its modules' order
            if state.get(target) == 1:
                circles.append(" -> ".join(trail[trail.index(target) :] + [target]) if target in trail else target)
            elif target not in state:
                visit(target, [*trail, target])
        state[name] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])
    assert not circles, "import circles:\n" + "\n".join(circles)


def test_no_two_modules_share_a_name():
    names = Counter(path.stem for path in PACKAGE.rglob("*.py") if path.stem != "__init__")
    assert [name for name, count in names.items() if count > 1] == []


def test_each_javascript_twin_names_its_python_original():
    """The page's ports of Python algorithms carry the name of the module they port."""
    assets = PACKAGE / "report" / "assets"
    twins = {"linediff.js": "diffcore/linediff.py", "intraline.js": "diffcore/intraline.py"}
    twins["normalize.js"] = "noise/normalize.py"
    for script, original in twins.items():
        assert (PACKAGE / original).is_file(), original
        head = (assets / script).read_text(encoding="utf-8")[:600]
        assert f"ir_trace/{original}" in head, f"{script} does not name {original} in its header"

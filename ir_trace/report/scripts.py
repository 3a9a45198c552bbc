"""The manifest of a page's scripts: each script's first line names the scripts it needs.

A page's scripts run as plain scripts in one element, so each one's namespace (`const IRTraceModel`)
must be defined before a script that uses it runs. Every script in assets/ starts with

    // needs: viewer_dom.js, viewer_model.js      (or `// needs: nothing`)

(a need may be a pattern: `control_*.js` names every control, in the order of their names, so a
new control is one new script and its markup), and a page inlines its entry script's needs, theirs,
and so on, each after all it needs: the depth-first order from the entry, needs visited as listed.
tests/test_script_manifest.py holds the manifest to the code: the files exist, no cycle, and each
script uses only the namespaces of the scripts it names.
"""

from __future__ import annotations

from pathlib import Path

NEEDS = "// needs:"
NOTHING = "nothing"


class ManifestError(ValueError):
    """A script without its `// needs:` line, a need that is no script, or a cycle."""


def declared_needs(folder: Path, script: str) -> tuple[str, ...]:
    """The scripts `script`'s first line names."""
    path = folder / script
    if not path.is_file():
        raise ManifestError(f"no script {script} in {folder}")
    with path.open(encoding="utf-8") as file:
        first = file.readline().strip()
    if not first.startswith(NEEDS):
        raise ManifestError(f"{script} does not start with a '{NEEDS}' line")
    listed = first[len(NEEDS) :].strip()
    if listed == NOTHING:
        return ()
    return tuple(need for name in listed.split(",") for need in _expanded(folder, name.strip()))


def _expanded(folder: Path, name: str) -> tuple[str, ...]:
    """A need, or the scripts a pattern names (`control_*.js`: every control, by name; none is no error)."""
    if "*" not in name:
        return (name,)
    return tuple(sorted(path.name for path in folder.glob(name)))


def script_order(folder: Path, entry: str) -> tuple[str, ...]:
    """`entry` and every script it needs, each after the scripts it needs."""
    order: list[str] = []
    visiting: list[str] = []  # the path of needs being followed, to name a cycle

    def visit(script: str) -> None:
        if script in order:
            return
        if script in visiting:
            cycle = " -> ".join([*visiting[visiting.index(script) :], script])
            raise ManifestError(f"the scripts' needs go round in a circle: {cycle}")
        visiting.append(script)
        for need in declared_needs(folder, script):
            visit(need)
        visiting.pop()
        order.append(script)

    visit(entry)
    return tuple(order)

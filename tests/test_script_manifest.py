"""The page's script manifest (ir_trace/report/scripts.py): each script's `// needs:` line against its code."""

import re
from pathlib import Path

import pytest

from ir_trace.report.render import REPORT_SCRIPTS, templates_dir
from ir_trace.report.scripts import ManifestError, declared_needs, script_order

ASSETS = templates_dir()
SCRIPTS = sorted(path.name for path in ASSETS.glob("*.js"))
PAGES = {"viewer.js": "the report", "index.js": "the sweep index"}  # entry scripts
_NAMESPACE = re.compile(r"^const (IRTrace\w+) =", re.M)  # a script's global: a top-level const
_USE = re.compile(r"\bIRTrace\w+\b")
CONTROLS = sorted(name for name in SCRIPTS if name.startswith("control_"))  # each registers itself (viewer_controls.js)


def _code(text: str) -> str:
    """The text without its comments (they name other scripts' namespaces freely)."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"(^|\s)//[^\n]*", " ", text)


def _namespaces() -> dict[str, str]:
    """Global namespace -> the script defining it."""
    found = {}
    for script in SCRIPTS:
        for name in _NAMESPACE.findall((ASSETS / script).read_text(encoding="utf-8")):
            assert name not in found, f"{name} is defined by {found[name]} and {script}"
            found[name] = script
    return found


def test_every_script_declares_what_it_needs_and_every_need_is_a_script():
    for script in SCRIPTS:
        for need in declared_needs(ASSETS, script):
            assert need in SCRIPTS, f"{script} needs {need}, which is no script in {ASSETS}"
            assert need != script


def test_each_script_uses_exactly_the_namespaces_of_the_scripts_it_needs():
    owners = _namespaces()
    for script in SCRIPTS:
        code = _code((ASSETS / script).read_text(encoding="utf-8"))
        used = {owners[name] for name in _USE.findall(code) if name in owners} - {script}
        declared = set(declared_needs(ASSETS, script)) - set(CONTROLS)  # a control is run, not used by name
        assert used <= declared, f"{script} uses {sorted(used - declared)} without naming them in its needs"
        assert declared <= used, f"{script} needs {sorted(declared - used)} but uses nothing of them"


def test_the_needs_have_no_cycle_and_each_page_orders_every_script_after_its_needs():
    for entry in PAGES:
        order = script_order(ASSETS, entry)
        assert order[-1] == entry
        for position, script in enumerate(order):
            assert set(declared_needs(ASSETS, script)) <= set(order[:position]), f"{script} runs before a need"


def test_the_report_inlines_every_script_but_the_sweep_index_s():
    assert REPORT_SCRIPTS == script_order(ASSETS, "viewer.js")
    assert sorted(REPORT_SCRIPTS) == sorted(set(SCRIPTS) - {"index.js"})


def _write_scripts(folder: Path, needs: dict[str, str]) -> None:
    for script, line in needs.items():
        (folder / script).write_text(f"{line}\nconst x = 1;\n", encoding="utf-8")


def test_a_cycle_a_missing_script_and_a_missing_needs_line_are_refused(tmp_path):
    _write_scripts(tmp_path, {"a.js": "// needs: b.js", "b.js": "// needs: c.js", "c.js": "// needs: a.js"})
    with pytest.raises(ManifestError, match="a.js -> b.js -> c.js -> a.js"):
        script_order(tmp_path, "a.js")
    _write_scripts(tmp_path, {"a.js": "// needs: gone.js"})
    with pytest.raises(ManifestError, match="no script gone.js"):
        script_order(tmp_path, "a.js")
    _write_scripts(tmp_path, {"a.js": "/* no manifest line */"})
    with pytest.raises(ManifestError, match="does not start with"):
        script_order(tmp_path, "a.js")


def test_the_order_is_depth_first_with_needs_visited_as_listed(tmp_path):
    _write_scripts(
        tmp_path,
        {
            "main.js": "// needs: b.js, a.js",
            "a.js": "// needs: shared.js",
            "b.js": "// needs: shared.js, c.js",
            "c.js": "// needs: nothing",
            "shared.js": "// needs: nothing",
        },
    )
    assert script_order(tmp_path, "main.js") == ("shared.js", "c.js", "b.js", "a.js", "main.js")


def test_every_control_registers_itself_defines_no_namespace_and_the_report_runs_it_before_the_viewer():
    assert CONTROLS, "the report has registered controls (control_*.js)"
    order = script_order(ASSETS, "viewer.js")
    for control in CONTROLS:
        text = (ASSETS / control).read_text(encoding="utf-8")
        assert not _NAMESPACE.search(text), f"{control} defines a namespace: a control only registers itself"
        assert _code(text).count("IRTraceControls.register(") == 1, control
        assert "viewer_controls.js" in declared_needs(ASSETS, control)
        assert order.index("viewer_controls.js") < order.index(control) < order.index("viewer.js")


def test_a_new_control_is_one_new_script_the_entry_s_needs_pattern_picks_up(tmp_path):
    """A control touches two files, its markup in report.html.j2 and its control_<name>.js: no needs
    line of another script names it."""
    _write_scripts(
        tmp_path,
        {"entry.js": "// needs: registry.js, control_*.js", "registry.js": "// needs: nothing"},
    )
    assert script_order(tmp_path, "entry.js") == ("registry.js", "entry.js")
    _write_scripts(tmp_path, {"control_zoom.js": "// needs: registry.js", "control_copy.js": "// needs: registry.js"})
    assert script_order(tmp_path, "entry.js") == ("registry.js", "control_copy.js", "control_zoom.js", "entry.js")

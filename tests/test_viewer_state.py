"""The viewer's state is owned by one module (report/assets/viewer_state.js): the others read it."""

import re

import pytest
from test_viewer_model import REPO, page_of_scripts

ASSETS = REPO / "ir_trace" / "report" / "assets"
STATE_JS = ASSETS / "viewer_state.js"
# An assignment to a field of the state, or a change of one of its sets, written outside its owner.
_WRITE = re.compile(
    r"\bstate\.\w+\s*(?:[-+*/]?=(?!=)|\+\+|--)|\bstate\.\w+\.(?:add|delete|clear)\(|Object\.assign\(state\b"
)


def test_no_page_script_but_the_state_s_owner_writes_the_state():
    for path in sorted(ASSETS.glob("*.js")):
        if path.name in ("viewer_state.js", "index.js"):  # index.js: the sweep index, its own page and state
            continue
        writes = _WRITE.findall(path.read_text(encoding="utf-8"))
        assert not writes, f"{path.name} writes the viewer's state: {writes} (use viewer_state.js's set and actions)"


def test_the_write_pattern_finds_the_writes_it_forbids():
    for line in ("state.sel = 3;", "state.query += 'x'", "state.expanded.add(4)", "Object.assign(state, {})"):
        assert _WRITE.search(line), line
    for line in ("if (state.sel === 3)", "state.sel >= first", "state.expanded.has(4)", "set({ sel: 3 })"):
        assert not _WRITE.search(line), line


@pytest.fixture
def state_page(page):
    return page_of_scripts(page, STATE_JS, title="state")


def test_the_state_is_read_only_and_set_changes_only_its_own_fields(state_page):
    result = state_page.evaluate(
        """() => {
          const owner = IRTraceState.createState({ layout: 'unified' });
          const { state, set, openFold, closeFolds, pressBehaviour, setBehaviours } = owner;
          const refused = (change) => { try { change(); return false; } catch (e) { return e instanceof TypeError; } };
          const before = { layout: state.layout, sel: state.sel };
          const assignRefused = refused(() => { 'use strict'; state.sel = 4; });
          const unknownRefused = refused(() => set({ sell: 4 }));
          set({ sel: 4, fn: 'Program.kernel' });
          openFold(7); openFold(9); const opened = [...state.expanded]; closeFolds();
          pressBehaviour('same', true); pressBehaviour('different', true); pressBehaviour('same', false);
          const pressed = [...state.behaviours]; setBehaviours(['only']);
          return { before, assignRefused, unknownRefused, sel: state.sel, fn: state.fn, opened,
                   closed: state.expanded.size, pressed, behaviours: [...state.behaviours] };
        }"""
    )
    assert result == {
        "before": {"layout": "unified", "sel": -1},
        "assignRefused": True,
        "unknownRefused": True,
        "sel": 4,
        "fn": "Program.kernel",
        "opened": [7, 9],
        "closed": 0,
        "pressed": ["different"],
        "behaviours": ["only"],
    }

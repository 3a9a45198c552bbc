"""Constants the Python diff shares with report/assets/linediff.js and normalize.js: written into
the page from Python, and the files' own copies (used when a test loads a file alone) kept equal."""

from __future__ import annotations

import pytest
from conftest import REPO

from ir_trace.diffcore import intraline, matching
from ir_trace.diffcore import linediff as diff
from ir_trace.noise import normalize
from ir_trace.report.render import render_page
from ir_trace.report.shared_constants import constants_block, declared_block, shared_constants, with_shared_constants


@pytest.mark.parametrize("script", sorted(shared_constants()))
def test_each_script_declares_exactly_the_python_values(script):
    source = (REPO / "ir_trace" / "report" / "assets" / script).read_text(encoding="utf-8")
    where = declared_block(source)
    assert where is not None, f"report/assets/{script} has no block of shared constants"
    assert source[where[0] : where[1]] == constants_block(script), (
        f"report/assets/{script} differs from report/shared_constants.py; paste in:\n{constants_block(script)}"
    )


def test_the_values_are_the_python_modules_own():
    values = shared_constants()
    assert values["linediff.js"]["SIMILAR"] == diff.SIMILAR and values["linediff.js"]["RENAMED"] == diff.RENAMED
    assert values["intraline.js"]["MAX_TOKEN_EDITS"] == intraline.MAX_TOKEN_EDITS
    assert values["intraline.js"]["QUICK_EDITS"] == matching.QUICK_EDITS
    assert values["normalize.js"]["MODES"] == list(normalize.MODES)
    assert values["normalize.js"]["LABELS"] == normalize.MODE_LABELS


def test_the_page_gets_the_python_values_whatever_the_file_says(monkeypatch):
    monkeypatch.setattr(matching, "QUICK_EDITS", 99)
    page = render_page("report.html.j2", ("intraline.js",), "viewer.css", title="t", payload_data="")
    assert "const QUICK_EDITS = 99;" in page and "const QUICK_EDITS = 16;" not in page


def test_a_script_that_lost_its_markers_is_refused():
    with pytest.raises(ValueError, match="shared constants"):
        with_shared_constants("linediff.js", "const IRTraceDiff = 1;")
    assert with_shared_constants("viewer.js", "unchanged") == "unchanged"

"""Bidi controls in names (a snapshot file `2_\u202ecse.mlir`, a pass name or symbol in a header)
are shown inert wherever a name appears, as code rows box them: as their code point `[U+202E]`,
in the pane headers, the sidebar and the window's title (real Chromium)."""

from __future__ import annotations

import re

from browser_support import REPO, build_report, nav, viewing
from multi_trace_support import MODULE, UNITS, mlir_header, mlir_module

from ir_trace.report.render import _CONTROLS, inert_text

RLO = "\u202e"


def bidi_tree(root):
    """A one-op module tree whose second dump's file name, pass name and folder hold an override."""
    tree = root / f"tree{RLO}evil"
    (tree / MODULE).mkdir(parents=True)
    for k, (name, header, body) in enumerate(UNITS["kernel_a"]):
        if k == 1:
            name, header = f"1_{RLO}cse.mlir", f"After CSE (c{RLO}se)"
        text = f"{mlir_header(*header.split(' ', 1))}\n{mlir_module(body)}\n\n\n"
        (tree / MODULE / name).write_text(text, "utf-8")
    return tree


def test_bidi_controls_in_names_are_shown_as_their_code_points(page, tmp_path):
    report = build_report(bidi_tree(tmp_path), tmp_path / "r.html", "--no-cache")
    with viewing(page, report):
        sidebar = nav(page).inner_text()
        header = page.locator(".pane-head").all_inner_texts()
        title = page.title()
        assert RLO not in sidebar and RLO not in "".join(header) and RLO not in title
        assert "[U+202E]" in sidebar and "[U+202E]" in title
        nav(page).locator("button[data-k='1']").click()
        assert any("1_[U+202E]cse.mlir" in text for text in page.locator(".pane-head").all_inner_texts())


def test_the_title_escapes_the_characters_the_page_boxes():
    assert inert_text(f"a{RLO}b\u2066c\u200bd") == "a[U+202E]b[U+2066]c[U+200B]d"
    assert inert_text("kernel_a · cse") == "kernel_a · cse"


def test_the_title_and_the_page_escape_the_same_characters():
    source = (REPO / "ir_trace" / "report" / "assets" / "viewer_fold.js").read_text(encoding="utf-8")
    listed = re.search(r"const CONTROL_CHARS = '([^']*)';", source).group(1)
    page_ranges = listed.replace("\\\\", "\\").encode("ascii").decode("unicode_escape")
    assert _CONTROLS.pattern == f"[{page_ranges}]"

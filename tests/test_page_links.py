"""Links and Find on the page (issue 26 item 5), in real headless Chromium: the trace a link names
(PyPTO's by its program), a link naming a pass its own filters would hide, whole-word Find and its
wrap cue, the ignore note of a selected function, whole pass names in the title and Compare with."""

from __future__ import annotations

import re

import pytest
from browser_support import REPO, build_report, current, expect, function_select, nav, open_report, viewing
from conftest import FRONTEND, write_dump
from multi_trace_support import (
    CONST,
    DEAD,
    LOAD,
    MODULE,
    TWIN,
    build_program_report,
    mlir_header,
    mlir_module,
    pypto_passes,
)

ASSETS = REPO / "ir_trace" / "report" / "assets"


@pytest.fixture(scope="module")
def program_report(tmp_path_factory):
    root = tmp_path_factory.mktemp("links")
    return build_program_report(root)


def shown_pass(page):
    return page.locator("#pass-title .pass-name")


def test_the_pypto_trace_is_linked_by_its_program_and_the_link_reloads_where_it_was(page, program_report):
    with viewing(page, program_report):
        nav(page).get_by_role("button", name="Simplify").click()
        link = page.evaluate("location.hash")
        assert "trace=prog&pass=2" in link  # the README's #trace=<program>, not #trace=
    log = open_report(page, program_report, link)
    expect(current(page)).to_contain_text("Simplify")
    expect(page.get_by_label("Trace", exact=True)).to_have_value("0")
    expect(page.locator("#link-note")).to_be_hidden()
    page.keyboard.press("j")  # a step's fragment is written once its pass is painted, naming its trace
    page.wait_for_function("() => location.hash.startsWith('#trace=kernel_a&pass=0&')")
    log.assert_clean()


@pytest.mark.parametrize("fragment", ["#trace=prog&pass=1", "#trace=pypto:prog&pass=1", "#trace=&pass=1"])
def test_the_readme_form_and_the_old_empty_form_both_open_the_pypto_pass(page, program_report, fragment):
    log = open_report(page, program_report, fragment)
    expect(current(page)).to_contain_text("OutlineKernels")
    expect(page.locator("#link-note")).to_be_hidden()
    assert "trace=prog&pass=1" in page.evaluate("location.hash")  # rewritten in the form the page writes
    log.assert_clean()


def test_a_link_to_a_no_op_with_noop_0_opens_that_pass_and_says_the_filter_was_lifted(page, program_report):
    log = open_report(page, program_report, "#pass=2&noop=0")  # PyPTO's pass 2, Simplify, is a no-op
    expect(current(page)).to_contain_text("Simplify")
    expect(page.get_by_label("Trace", exact=True)).to_have_value("0")
    note = page.get_by_role("status").filter(has_text="no-op")
    expect(note).to_contain_text("names pass 2, a no-op, with noop=0: showing it, with no-op passes listed")
    expect(page.get_by_label("No-op", exact=True)).to_be_checked()
    assert "noop=0" not in page.evaluate("location.hash")
    log.assert_clean()


def test_a_program_named_like_a_unit_is_linked_with_its_stage(page):
    page.set_content(f"<script>{(ASSETS / 'viewer_traces.js').read_text('utf-8')}</script>")
    names = page.evaluate(
        """() => {
          const payload = { traces: [{ stage: 'pypto', unit: '', title: 'main' }, { stage: 'ptoas', unit: 'main' },
                                     { stage: 'ptoas', unit: 'aux' }] };
          const T = IRTraceTraces;
          return { links: [0, 1, 2].map((r) => T.linkName(payload, r)),
                   runs: ['pypto:main', 'ptoas:main', '', 'main', 'aux'].map((n) => T.runOfUnit(payload, n)) };
        }"""
    )
    assert names == {"links": ["pypto:main", "ptoas:main", "aux"], "runs": [0, 1, 0, None, 2]}


KERNEL_RETURN = "        return pl.store(t1, [0, 0], a)"
MAIN_RETURN = "        return self.kernel(a)"


def find_passes() -> list[tuple[str, str] | str]:
    """scf.for comes, then scf.forall, then scf.for again; then a pass renames kernel's t1 (an SSA
    version, nothing under `Ignore SSA versions`) and adds a real line to main."""
    add = lambda text, line: text.replace(KERNEL_RETURN, f"        # {line}\n{KERNEL_RETURN}")  # noqa: E731
    one = add(FRONTEND, "scf.for %i")
    two = add(one, "scf.forall %j")
    three = add(two, "scf.for %k")
    renamed = three.replace("t1", "t1__ssa_v0").replace(MAIN_RETURN, f"        marker = 1\n{MAIN_RETURN}")
    return [FRONTEND, ("AddFor", one), ("AddForall", two), ("AddForAgain", three), ("Rename", renamed)]


@pytest.fixture(scope="module")
def find_report(tmp_path_factory):
    root = tmp_path_factory.mktemp("find")
    dump = write_dump(root / "passes_dump", find_passes())
    return build_report(dump, root / "report.html", "--cache-dir", str(root / "cache"))


def test_whole_word_find_leaves_out_a_longer_name_and_alt_w_toggles_it(page, find_report):
    with viewing(page, find_report):
        page.get_by_label("Find", exact=True).fill("scf.for")
        status = page.locator("#find-status")
        expect(status).to_contain_text("count changes at 3 passes")  # scf.forall counts too
        word = page.get_by_role("checkbox", name="Whole word")
        word.check()
        expect(status).to_contain_text("count changes at 2 passes")  # AddFor, AddForAgain
        expect(nav(page).get_by_role("button", name="AddForall")).not_to_contain_text("introduced")
        assert "word=1" in page.evaluate("location.hash")
        page.get_by_label("Find", exact=True).press("Alt+w")  # from the Find box too
        expect(word).not_to_be_checked()
        expect(status).to_contain_text("count changes at 3 passes")
        page.keyboard.press("Alt+w")
        expect(word).to_be_checked()
        link = page.evaluate("location.hash")
    log = open_report(page, find_report, link)
    expect(page.get_by_role("checkbox", name="Whole word")).to_be_checked()
    expect(page.locator("#find-status")).to_contain_text("count changes at 2 passes")
    log.assert_clean()


def test_enter_past_the_last_find_change_wraps_to_the_first_and_says_so(page, find_report):
    with viewing(page, find_report):
        box = page.get_by_label("Find", exact=True)
        box.fill("scf.for")
        page.get_by_role("checkbox", name="Whole word").check()
        expect(shown_pass(page)).to_have_text("AddFor")  # the report opens on its first change
        box.press("Enter")
        expect(shown_pass(page)).to_have_text("AddForAgain")
        status = page.locator("#find-status")
        expect(status).not_to_contain_text("Wrapped")
        box.press("Enter")  # past the last: back to the first, and the (live) status says it wrapped
        expect(shown_pass(page)).to_have_text("AddFor")
        expect(status).to_contain_text("Wrapped to the first pass where the count changes.")
        expect(status).to_have_attribute("aria-live", "polite")
        page.screenshot(path="/tmp/pl/wrapped.png")
        box.press("Shift+Enter")  # before the first: to the last
        expect(shown_pass(page)).to_have_text("AddForAgain")
        expect(status).to_contain_text("Wrapped to the last pass")
        page.keyboard.press("k")  # a step that is not Find's: the notice goes
        expect(status).not_to_contain_text("Wrapped")


def test_the_ignore_note_counts_the_selected_function_as_the_title_does(page, find_report):
    log = open_report(page, find_report, "#pass=4&ignore=ssa")
    note = page.locator("#ignore-note")
    expect(note).to_contain_text("Ignoring SSA versions: +1 \u22120 lines (as printed +3 \u22122)")
    function_select(page).select_option(value="Demo.kernel")
    expect(page.get_by_role("heading", name="4 Rename +0 \u22120 in kernel")).to_be_visible()
    expect(note).to_have_text(
        "No-op in kernel when ignoring SSA versions: every line it changed is equal after ignoring"
        " (as printed +2 \u22122)."
    )
    function_select(page).select_option(value="Demo.main")
    expect(note).to_have_text("Ignoring SSA versions: +1 \u22120 lines in main (as printed +1 \u22120).")
    log.assert_clean()


LONG_PASS = "iree-llvmcpu-tile-and-fuse-producers-into-consumers-then-distribute-to-workgroups-and-lower-to-vectors"
LONG_OPTIONS = "{tiling-level=0 fuse-pad-producers=true distribute-to-workgroups=true vector-size=16 unroll=false}"


@pytest.fixture(scope="module")
def long_name_report(tmp_path_factory):
    """A program whose ptoas unit runs a pass with an IREE-long name and options, then cse."""
    root = tmp_path_factory.mktemp("long")
    program = root / "prog"
    write_dump(program / "passes_dump", pypto_passes())
    folder = program / "ptoas_passes" / "kernel" / MODULE
    folder.mkdir(parents=True)
    steps = [
        ("0_canonicalize.mlir", "After Canonicalizer (canonicalize)", [CONST, TWIN, DEAD, LOAD]),
        ("1_long.mlir", f"After TileAndFuse: {LONG_PASS}{LONG_OPTIONS}", [CONST, DEAD, LOAD]),
        ("2_cse.mlir", "After CSE (cse)", [CONST, LOAD]),
    ]
    for name, header, body in steps:
        (folder / name).write_text(f"{mlir_header(*header.split(' ', 1))}\n{mlir_module(body)}\n\n\n", "utf-8")
    return build_report(program, root / "report.html", "--cache-dir", str(root / "cache"))


def cut(locator) -> bool:
    return locator.evaluate("(node) => node.scrollWidth > node.clientWidth + 1")


def test_a_long_pass_name_wraps_in_the_title_and_compare_with_shows_it_whole(page, long_name_report):
    page.set_viewport_size({"width": 1280, "height": 800})
    log = open_report(page, long_name_report, "#trace=kernel&pass=2")
    expect(current(page)).to_contain_text("cse")
    compare = page.get_by_label("Compare with")
    compare.select_option(index=1)  # the long pass, not the previous one
    expect(compare).to_have_value("1")
    name = page.locator("#pass-title .pass-name")
    expect(name).to_have_text("cse")
    nav(page).get_by_role("button", name=LONG_PASS[:30]).click()
    expect(name).to_have_text(LONG_PASS)
    assert not cut(name) and not cut(page.locator("#pass-title .pass-options"))  # wrapped, nothing hidden
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    page.screenshot(path="/tmp/pl/long_title.png")
    page.keyboard.press("j")  # cse: Compare with's previous snapshot is the long pass
    expect(name).to_have_text("cse")
    expect(compare).to_have_attribute("title", re.compile(f"^Compare with 01 {LONG_PASS} \\(previous\\)"))
    assert compare.locator("option").nth(1).get_attribute("title") == f"01 {LONG_PASS} (previous)"
    whole = page.locator("#from-whole")
    compare.focus()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")  # a keyboard focus: the whole choice shows under the select
    expect(whole).to_be_visible()
    expect(whole).to_have_text(f"01 {LONG_PASS} (previous)")
    assert not cut(whole)
    page.screenshot(path="/tmp/pl/long_compare.png")
    log.assert_clean()

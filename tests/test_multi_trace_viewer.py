"""The page of a report of several traces (issue 17), in real headless Chromium driven by clicks and
keys: the Trace select and headings, #trace= links, Find across traces, MLIR pass headers."""

from __future__ import annotations

import re

import pytest
from browser_support import REPO, current, expect, nav, open_report, viewing
from multi_trace_support import build_program_report


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    root = tmp_path_factory.mktemp("multi")
    return build_program_report(root)


def test_the_trace_select_jumps_between_traces_under_their_headings(page, report, tmp_path):
    with viewing(page, report):
        headings = nav(page).get_by_role("heading")
        expect(headings).to_have_text(["PyPTO · prog", "ptoas · kernel_a", "ptoas · kernel_b"])
        trace = page.get_by_label("Trace", exact=True)
        expect(trace).to_have_value("0")
        expect(current(page)).to_contain_text("OutlineKernels")
        trace.select_option(label="ptoas · kernel_a (2)")
        expect(current(page)).to_contain_text("cse")  # the trace's first pass that changed something
        assert "trace=kernel_a&pass=1" in page.evaluate("location.hash")
        expect(page.locator("#pass-title")).to_contain_text("ptoas · kernel_a")
        expect(page.locator("#report-sub")).to_have_text("3 traces · 6 passes · 5 changed · 1 no-op")
        # Compare with offers this trace's earlier snapshots only: no diff crosses into PyPTO's.
        expect(page.get_by_label("Compare with").locator("option")).to_have_count(1)
        # ... named as the sidebar names them: the pass argument, not the header's class name.
        expect(page.get_by_label("Compare with")).to_contain_text(" canonicalize (previous)")
        expect(page.get_by_label("Compare with")).not_to_contain_text("Canonicalizer")
        page.screenshot(path=tmp_path / "traces.png")
        # The trace's first snapshot is a pass too: listed, shown whole against nothing.
        page.keyboard.press("k")
        expect(current(page)).to_contain_text("canonicalize")
        expect(current(page).locator(".badge.start")).to_have_text("first")
        expect(page.locator("#file-before")).to_contain_text("nothing before")


def test_j_and_k_walk_on_across_a_trace_boundary(page, report):
    with viewing(page, report):
        nav(page).get_by_role("button", name="Simplify").click()
        page.keyboard.press("j")
        expect(current(page)).to_contain_text("canonicalize")
        expect(page.get_by_label("Trace", exact=True)).to_have_value("1")
        page.keyboard.press("k")
        expect(current(page)).to_contain_text("Simplify")
        expect(page.get_by_label("Trace", exact=True)).to_have_value("0")


def test_a_heading_goes_when_the_filters_hide_all_of_its_passes(page, report):
    with viewing(page, report):
        page.get_by_label("Filter passes").fill("canonicalize")
        expect(nav(page).get_by_role("heading")).to_have_text(["ptoas · kernel_a", "ptoas · kernel_b"])
        page.get_by_label("Filter passes").fill("")
        expect(nav(page).get_by_role("heading")).to_have_count(3)


def test_a_link_names_the_trace_and_a_failed_pass_is_marked(page, report):
    log = open_report(page, report, "#trace=kernel_b&pass=2")
    button = current(page)
    expect(button).to_contain_text("test-pass-failure")
    expect(button.locator(".badge.failed")).to_have_text("failed")
    badge = button.locator(".badge.failed")
    expect(badge).to_have_attribute("title", "TestFailurePass failed: the pipeline stopped here")
    assert "Failed (test-pass-failure)" in page.locator("#pass-title").get_attribute("title")
    expect(page.locator("#pass-title .badge.failed")).to_have_text("failed")  # the pass header says so too
    page.evaluate("location.hash = '#trace=nope&pass=1'")
    expect(page.locator("#link-note")).to_contain_text("names trace nope, which this report does not have")
    expect(current(page)).to_contain_text("test-pass-failure")  # stays where it was
    page.evaluate("location.hash = '#trace=kernel_a'")  # a trace alone: its first pass that changed
    expect(current(page)).to_contain_text("cse")
    log.assert_clean()


def test_a_failed_pass_keeps_its_badge_under_the_ignore_modes(page, report):
    """The modes recount a pass; what its header says (failed) is no count and stays."""
    with viewing(page, report):
        page.evaluate("location.hash = '#trace=kernel_b&pass=2'")
        expect(current(page)).to_contain_text("test-pass-failure")
        page.get_by_label("Ignore whitespace", exact=True).check()
        page.wait_for_function("() => document.getElementById('pass-nav').dataset.ignoring === 'done'")
        expect(current(page).locator(".badge")).to_have_text(["failed"])
        page.get_by_label("Ignore whitespace", exact=True).uncheck()
        expect(current(page).locator(".badge.failed")).to_have_text("failed")


def test_a_long_snapshot_path_loses_its_start_not_its_file_name(page, report):
    page.set_viewport_size({"width": 760, "height": 700})  # panes too narrow for the whole path
    log = open_report(page, report, "#trace=kernel_a&pass=2")
    name = page.locator("#file-after")
    expect(name).to_have_attribute("title", re.compile(r"builtin_module_no-symbol-name/2_symbol-dce\.mlir$"))
    box, text = name.bounding_box(), name.locator("bdi").bounding_box()
    assert text["width"] > box["width"]  # it does overflow ...
    assert abs((text["x"] + text["width"]) - (box["x"] + box["width"])) <= 2  # ... to the left: its end in sight
    log.assert_clean()


def test_a_before_dump_and_its_after_read_as_one_pass_with_its_options(page, report):
    with viewing(page, report):
        page.get_by_label("Trace", exact=True).select_option(label="ptoas · kernel_b (2)")
        entry = current(page)
        expect(entry).to_contain_text("canonicalize")
        # Before → After: the pass deleted one line (and the header line changes, where the reader keeps it)
        expect(entry).to_contain_text(re.compile(r"\+[01] −[12]$"))
        assert "options: {max-iterations=10 top-down=true}" in entry.get_attribute("title")
        assert "Before → After" in entry.get_attribute("title")
        expect(page.locator("#pass-title .pass-options")).to_have_text("{max-iterations=10 top-down=true}")
        assert nav(page).locator(".badge.before").count() == 0  # the Before is no entry of its own


def test_find_marks_passes_in_every_trace_and_n_walks_across_them(page, report):
    with viewing(page, report):
        page.keyboard.press("f")
        page.keyboard.type("arith.constant")
        page.keyboard.press("Enter")  # the first pass after the selection where the count changes
        expect(current(page)).to_contain_text("canonicalize")
        expect(page.get_by_label("Trace", exact=True)).to_have_value("1")
        marks = nav(page).locator(".find-mark:not(:empty)")
        expect(marks).to_have_text(["introduced (3)", "count 3 → 2", "count 2 → 1", "count 2 → 1", "removed (1)"])
        page.locator("#find-text").blur()
        for expected in ("cse", "symbol-dce", "canonicalize", "test-pass-failure"):
            page.keyboard.press("n")
            expect(current(page)).to_contain_text(expected)
        expect(page.get_by_label("Trace", exact=True)).to_have_value("2")
        page.keyboard.press("N")
        page.keyboard.press("N")
        expect(current(page)).to_contain_text("symbol-dce")
        link = page.evaluate("location.hash")
        assert "trace=kernel_a" in link and "find=arith.constant" in link


def test_a_unit_name_two_traces_share_is_linked_with_its_stage(page):
    page.set_content(
        f"<script>{(REPO / 'ir_trace' / 'report' / 'assets' / 'viewer_traces.js').read_text('utf-8')}</script>"
    )
    names = page.evaluate(
        """() => {
          const payload = { traces: [{ stage: 'pypto', unit: 'main' }, { stage: 'ptoas', unit: 'main' },
                                     { stage: 'ptoas', unit: 'aux' }] };
          const T = IRTraceTraces;
          return { links: [0, 1, 2].map((r) => T.linkName(payload, r)),
                   runs: ['ptoas:main', 'aux', 'ptoas:aux', 'main', 'nope'].map((n) => T.runOfUnit(payload, n)) };
        }"""
    )
    assert names == {"links": ["pypto:main", "ptoas:main", "aux"], "runs": [1, 2, 2, None, None]}


def test_a_before_dump_is_merged_only_into_the_after_of_the_same_pass_on_the_same_op(page):
    assets = REPO / "ir_trace" / "report" / "assets"
    scripts = ("viewer_fold.js", "viewer_traces.js")  # names are shown inert by viewer_fold.js's inertText
    page.set_content("".join(f"<script>{(assets / name).read_text('utf-8')}</script>" for name in scripts))
    entries = page.evaluate(
        """() => {
          const h = (kind, argument, symbol) => ({ kind, pass_name: argument.toUpperCase(), argument, options: '',
                                                   op: 'func.func', symbol, failed: false });
          const pass = (index, header, changed) => ({ index, name: header.argument, file: `${index}.mlir`, header,
                                                      changed, inserted: 1, deleted: 1 });
          const passes = [pass(0, h('before', 'cse', '@f'), true), pass(1, h('after', 'cse', '@f'), true),
                          pass(2, h('before', 'cse', '@g'), false), pass(3, h('after', 'canonicalize', '@g'), true),
                          pass(4, h('before', 'licm', '@g'), false), pass(5, h('after', 'licm', '@g'), false)];
          const payload = { passes };
          return IRTraceTraces.buildEntries(payload, [{ passes, file: (k) => passes[k].file }], () => null)
            .map((e) => [e.pos, e.name, e.badges.map((b) => b[1]).join(','), e.title.includes('Before \u2192 After')]);
        }"""
    )
    assert entries == [
        [1, "cse · func.func @f", "", True],  # the trace starts with a Before: the pair is its first pass
        [2, "before cse · func.func @g", "before,no-op", False],  # no After of its own follows: listed alone
        [3, "canonicalize · func.func @g", "", False],
        [5, "licm · func.func @g", "no-op", True],
    ]


def test_the_concise_notice_shows_only_while_a_pypto_trace_is_open(page, report):
    """The dump level is PyPTO's: the notice names PyPTO's passes, and it and the CONCISE tag go while an
    MLIR trace (which prints everything) is open; dismissing it is remembered across traces and reloads."""
    banner, tag = page.locator("#level-banner"), page.locator("#level-tag")
    trace = page.get_by_label("Trace", exact=True)
    with viewing(page, report):
        expect(banner).to_be_visible()
        expect(banner).to_contain_text("PyPTO's passes are a CONCISE dump")
        trace.select_option(label="ptoas · kernel_a (2)")
        expect(banner).to_be_hidden()
        expect(tag).to_be_hidden()
        trace.select_option(label="PyPTO · prog (2)")
        expect(banner).to_be_visible()
        page.get_by_role("button", name="Dismiss the CONCISE notice").click()
        expect(banner).to_be_hidden()
        expect(tag).to_be_visible()
        nav(page).get_by_role("button", name="Simplify").click()
        page.keyboard.press("j")  # into the first MLIR trace
        expect(trace).to_have_value("1")
        expect(tag).to_be_hidden()
        expect(banner).to_be_hidden()
        page.keyboard.press("k")
        expect(tag).to_be_visible()
        page.reload()
        expect(nav(page).locator('button[aria-current="true"]')).to_contain_text("Simplify")
        expect(tag).to_be_visible()
        expect(banner).to_be_hidden()
        tag.click()  # brings it back, for good
        expect(banner).to_be_visible()
        trace.select_option(label="ptoas · kernel_b (2)")
        expect(banner).to_be_hidden()
        expect(tag).to_be_hidden()

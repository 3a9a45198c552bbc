"""Links and Find on the page (issue 26 item 5), in real headless Chromium: the trace a link names
(PyPTO's by its program), a link naming a pass its own filters would hide, whole-word Find and its
wrap cue, the ignore note of a selected function, whole pass names in the title and Compare with."""

from __future__ import annotations

import pytest
from browser_support import REPO, build_report, expect, nav, open_report, viewing
from multi_trace_support import write_program

ASSETS = REPO / "ir_trace" / "report" / "assets"


@pytest.fixture(scope="module")
def program_report(tmp_path_factory):
    root = tmp_path_factory.mktemp("links")
    return build_report(write_program(root), root / "report.html", "--cache-dir", str(root / "cache"))


def current(page):
    return nav(page).locator('button[aria-current="true"]')


def test_the_pypto_trace_is_linked_by_its_program_and_the_link_reloads_where_it_was(page, program_report):
    with viewing(page, program_report):
        nav(page).get_by_role("button", name="Simplify").click()
        link = page.evaluate("location.hash")
        assert "trace=prog&pass=2" in link  # the README's #trace=<program>, not #trace=
    log = open_report(page, program_report, link)
    expect(current(page)).to_contain_text("Simplify")
    expect(page.get_by_label("Trace", exact=True)).to_have_value("0")
    expect(page.locator("#link-note")).to_be_hidden()
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

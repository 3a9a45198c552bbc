"""A long pipeline in the viewer (issue 26): the overview chart fits its pane at any pass count and
is driven by the mouse and the keys; the sidebar still fits its longest pass name."""

from __future__ import annotations

from pathlib import Path

import pytest
from browser_support import build_report, expect, open_report, overview, pass_button, write_dump

PASSES = 800  # the overview strip was 2 px a pass: 2,400 px wide here, so the page scrolled sideways
LONG_NAME = "iree-llvmcpu-lower-executable-target"


def tiny(step: int) -> str:
    """A three-line program after `step` passes; every third pass prints what the one before did."""
    edits = step - step // 3
    return f"import pypto.language as pl\nx = {edits}\ny = x + 1\n"


@pytest.fixture(scope="module")
def long_report(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("long")
    names = [f"Pass{k}" if k != PASSES - 7 else LONG_NAME for k in range(1, PASSES + 1)]
    dump = write_dump(
        root / "passes_dump", [("frontend", tiny(0)), *((name, tiny(k)) for k, name in enumerate(names, 1))]
    )
    return build_report(dump, root / "long.html", "--no-cache", "-q")


def test_overview_chart_never_widens_the_page_and_selects_by_click_and_keys(page, long_report):
    log = open_report(page, long_report, "#pass=10")
    assert page.evaluate("document.scrollingElement.scrollWidth") <= page.viewport_size["width"]
    chart = overview(page)
    box = chart.bounding_box()
    assert box["x"] + box["width"] <= page.viewport_size["width"]
    chart.click(position={"x": box["width"] - 1, "y": 12})  # the right edge: the last column's tallest pass
    per_column = PASSES / int(box["width"])
    picked = int(page.locator("#pass-list [aria-current]").get_attribute("data-k"))
    assert PASSES - per_column - 1 <= picked <= PASSES and chart.get_attribute("aria-valuenow") == str(picked)
    expect(chart).to_be_focused()
    page.keyboard.press("Home")
    expect(pass_button(page, 1)).to_have_attribute("aria-current", "true")
    page.keyboard.press("ArrowRight")
    expect(pass_button(page, 2)).to_have_attribute("aria-current", "true")
    page.keyboard.press("PageDown")  # a tenth of the pipeline
    expect(pass_button(page, 82)).to_have_attribute("aria-current", "true")
    page.keyboard.press("End")
    expect(pass_button(page, PASSES)).to_have_attribute("aria-current", "true")
    expect(chart).to_have_attribute("aria-valuetext", f"{PASSES} Pass{PASSES}: +1 \u22121")
    page.keyboard.press("ArrowLeft")
    expect(pass_button(page, PASSES - 1)).to_have_attribute("aria-current", "true")
    log.assert_clean()


def test_sidebar_fits_the_longest_name_far_down_a_long_list(page, long_report):
    log = open_report(page, long_report)
    button = pass_button(page, PASSES - 7)
    wheel_until_drawn(page, button)
    name = button.locator(".name")
    assert page.evaluate("(n) => n.scrollWidth <= n.clientWidth", name.element_handle())  # not cut
    log.assert_clean()


def wheel_until_drawn(page, button, step: int = 1500) -> None:
    """Scroll the pass list with the mouse wheel until `button` (a row the windowed list has not drawn) is in sight."""
    box = page.locator("#pass-nav").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    for _ in range(200):
        if button.count() and button.is_visible():
            return
        page.mouse.wheel(0, step)
        page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    raise AssertionError("the wheel never brought the row into the list")


def test_presses_that_arrive_before_a_pass_is_drawn_draw_only_the_latest(page, long_report):
    log = open_report(page, long_report, "#pass=10")
    page.locator("body").click(position={"x": 2, "y": 2})
    drawn = page.evaluate("window.__irTrace.switches.length")
    page.keyboard.press("j")  # one press: one pass further, one drawing
    expect(pass_button(page, 11)).to_have_attribute("aria-current", "true")
    page.wait_for_function("(n) => window.__irTrace.switches.length === n + 1", arg=drawn)
    # Five presses in one task, as a held key's repeats queue up behind a large pass: the
    # selection lands five passes on and the panes are drawn once, not five times in a row.
    page.evaluate(
        """() => { const target = document.activeElement || document.body;
                   for (let i = 0; i < 5; i++) {
                     target.dispatchEvent(new KeyboardEvent('keydown', { key: 'j', bubbles: true }));
                   } }"""
    )
    expect(pass_button(page, 16)).to_have_attribute("aria-current", "true")
    expect(page.locator("#pass-title")).to_contain_text("Pass16")
    # Two frames later any drawing still queued would have landed: none may.
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    assert page.evaluate("window.__irTrace.switches.length") == drawn + 2
    log.assert_clean()

# ruff: noqa: F811  (tests take the imported fixtures as parameters)
"""Browser tests of reading long IR in the report: scrolling with Chromium's default smooth
scrolling, changes kept on screen, hunk headers, wrapping and the Unified layout.

The dump imitates an EXPLICIT one: hundreds of lines of several hundred characters, where a
pass changes a token far to the right.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from browser_support import (
    build_report,
    open_report,
    pane,
    pass_button,
    write_dump,
)
from playwright.sync_api import expect

TILE = (
    "pl.Tile[[64, 128], pl.BF16, pl.MemRef(pl.MemorySpace.Vec, {offset}, 32768), pl.Mem.Vec, "
    "pl.TileView(valid_shape=[64, 128], stride=[128, 1], start_offset=0, blayout=pl.TileLayout.row_major, "
    "slayout=pl.TileLayout.none_box, fractal=512, pad=pl.TilePad.null)]"
)
FUNCTIONS = 12
BODY = 60


def statement(fn: int, i: int, op: str = "pl.add") -> str:
    """One long SSA statement; the op sits far right, past a 1280-px window's first screen."""
    return f"        t{i}: {TILE.format(offset=i * 32768)} = {op}(t{i - 1}, t{i - 1}, tag='f{fn}_{i}')"


def explicit_like(changed: set[tuple[int, int]]) -> str:
    """A program of FUNCTIONS kernels; statements in `changed` use pl.mul instead of pl.add."""
    lines = ["# pypto.program: Program", "import pypto.language as pl", "", "@pl.program", "class Program:"]
    for fn in range(FUNCTIONS):
        lines.append("    @pl.function(type=pl.FunctionType.InCore)")
        lines.append(f"    def kernel_{fn}(a: pl.Tensor[[64, 128], pl.BF16]) -> pl.Tensor[[64, 128], pl.BF16]:")
        lines.append("        t0: pl.Tile[[64, 128], pl.BF16] = pl.load(a, [0, 0], [64, 128])")
        for i in range(1, BODY):
            lines.append(statement(fn, i, "pl.mul" if (fn, i) in changed else "pl.add"))
        lines.append(f"        return t{BODY - 1}")
    return "\n".join(lines) + "\n"


# Pass 1 changes statements in kernel_3, kernel_7 and kernel_10; pass 2 one more in kernel_5.
PASS1 = {(3, 20), (3, 21), (7, 40), (10, 5)}
PASS2 = PASS1 | {(5, 30)}


@pytest.fixture(scope="module")
def long_report(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("long") / "Program"
    snapshots = [("frontend", explicit_like(set())), ("Mul", explicit_like(PASS1)), ("MulMore", explicit_like(PASS2))]
    dump = write_dump(root, snapshots)
    return build_report(dump, root / "report.html", "--no-cache", "-q")


@pytest.fixture
def long_page(page, long_report):
    log = open_report(page, long_report)
    yield page
    log.assert_clean()


def positions(page) -> dict:
    return page.evaluate(
        """() => Object.fromEntries(['before', 'after'].map((id) => {
             const s = document.getElementById('scroll-' + id);
             return [id, { top: s.scrollTop, left: s.scrollLeft, max: s.scrollHeight - s.clientHeight,
                           height: s.clientHeight, width: s.clientWidth }];
           }))"""
    )


def wait_scrolled(page, which: str, condition: str) -> dict:
    """Wait until pane `which` meets `condition` (JS over top, max, height) and both panes agree."""
    other = "before" if which == "after" else "after"
    page.wait_for_function(
        f"""() => {{
             const s = document.getElementById('scroll-{which}'), o = document.getElementById('scroll-{other}');
             const top = s.scrollTop, max = s.scrollHeight - s.clientHeight, height = s.clientHeight;
             return ({condition}) && Math.abs(o.scrollTop - top) < 1 && Math.abs(o.scrollLeft - s.scrollLeft) < 1;
           }}"""
    )
    return positions(page)


def press_and_settle(page, which: str, key: str) -> dict:
    """Press `key` and wait for the pane's `scrollend` event: the smooth scroll has finished."""
    page.evaluate(
        """(id) => { window.__settled = false;
             const settle = () => { window.__settled = true; };
             document.getElementById(id).addEventListener('scrollend', settle, { once: true }); }""",
        f"scroll-{which}",
    )
    page.keyboard.press(key)
    page.wait_for_function("() => window.__settled")
    return wait_scrolled(page, which, "true")[which]


# ---------- item 2: scrolling with smooth scrolling on ----------


@pytest.mark.parametrize("which", ["after", "before"])
def test_end_home_and_page_keys_reach_their_target_in_either_pane(long_page, which):
    page = long_page
    page.get_by_role("button", name="Expand all").click()
    pane(page, "After" if which == "after" else "Before").focus()
    end = press_and_settle(page, which, "End")
    assert end["max"] > 10_000  # a long pass: a stop a few screens in would fail this
    assert end["top"] >= end["max"] - 1
    assert press_and_settle(page, which, "Home")["top"] == 0
    down = press_and_settle(page, which, "PageDown")
    assert down["top"] >= 0.8 * down["height"]
    twice = press_and_settle(page, which, "PageDown")
    assert twice["top"] >= down["top"] + 0.8 * down["height"]
    assert abs(press_and_settle(page, which, "PageUp")["top"] - down["top"]) <= 1


def test_wheel_and_smooth_scroll_by_reach_their_target_and_keep_rows_aligned(long_page):
    page = long_page
    page.get_by_role("button", name="Expand all").click()
    box = pane(page, "Before").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    start = positions(page)["before"]["top"]
    for _ in range(5):
        page.mouse.wheel(0, 1000)
    wait_scrolled(page, "before", f"top >= {start} + 4900")
    page.evaluate("() => document.getElementById('scroll-after').scrollBy({ top: 5000, behavior: 'smooth' })")
    moved = wait_scrolled(page, "after", f"top >= {start} + 9900")
    # The rows on screen are the same rows in both panes, at the same height.
    rows = page.evaluate(
        """() => ['before', 'after'].map((id) => {
             const s = document.getElementById('scroll-' + id), r = s.getBoundingClientRect();
             const row = [...s.querySelectorAll('.row')].find((x) => x.getBoundingClientRect().top >= r.top + 40);
             return [row.getBoundingClientRect().top, row.querySelector('.ln').textContent];
           })"""
    )
    assert rows[0] == rows[1]
    assert moved["before"]["top"] == moved["after"]["top"]


def test_arrow_keys_scroll_a_focused_pane_and_j_k_still_switch_passes(long_page):
    page = long_page
    expect(pass_button(page, 1)).to_have_attribute("aria-current", "true")
    page.get_by_role("button", name="Expand all").click()
    pane(page, "After").focus()
    start = positions(page)["after"]["top"]
    assert press_and_settle(page, "after", "ArrowDown")["top"] >= start + 20
    expect(pass_button(page, 1)).to_have_attribute("aria-current", "true")  # scrolled, did not switch
    page.keyboard.press("j")
    expect(pass_button(page, 2)).to_have_attribute("aria-current", "true")
    page.keyboard.press("k")
    expect(pass_button(page, 1)).to_have_attribute("aria-current", "true")


def test_help_says_which_keys_scroll_and_which_switch(long_page):
    page = long_page
    page.keyboard.press("?")
    dialog = page.get_by_role("dialog", name="Keyboard shortcuts")
    expect(dialog).to_contain_text("scroll the focused code pane")
    expect(dialog).to_contain_text("switch passes even inside a code pane")

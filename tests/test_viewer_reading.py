"""Browser tests of reading long IR in the report: scrolling with Chromium's default smooth
scrolling, changes kept on screen, hunk headers, wrapping and the Unified layout.

The dump imitates an EXPLICIT one: hundreds of lines of several hundred characters, where a
pass changes a token far to the right.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from browser_support import (
    PAINTED,
    build_report,
    expect,
    function_select,
    open_report,
    pane,
    pass_button,
    viewing,
    write_dump,
)

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
    dump = write_dump(root / "passes_dump", snapshots)
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


def wait_scrolled(page, which: str, condition: str, agree: bool = True) -> dict:
    """Wait until pane `which` meets `condition` (JS over top, max, height) and, with `agree`,
    the other pane sits at the same position."""
    other = "before" if which == "after" else "after"
    page.wait_for_function(
        f"""() => {{
             const s = document.getElementById('scroll-{which}'), o = document.getElementById('scroll-{other}');
             const top = s.scrollTop, max = s.scrollHeight - s.clientHeight, height = s.clientHeight;
             return ({condition}) && ({"false" if agree else "true"}
                 || (Math.abs(o.scrollTop - top) < 1 && Math.abs(o.scrollLeft - s.scrollLeft) < 1));
           }}"""
    )
    return positions(page)


def press_and_settle(page, which: str, key: str, agree: bool = True) -> dict:
    """Press `key`, then wait until the pane's smooth scroll has finished (see settle_after)."""
    return settle_after(page, which, lambda: page.keyboard.press(key), agree)


def wheel_and_settle(page, which: str, delta: int, agree: bool = True) -> dict:
    """Turn the mouse wheel over pane `which` by `delta` px, then wait until its scroll has finished."""
    box = page.locator(f"#scroll-{which}").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    return settle_after(page, which, lambda: page.mouse.wheel(0, delta), agree)


def settle_after(page, which: str, act, agree: bool) -> dict:
    """Do `act`, then wait until the pane has moved and held still for ten frames: its smooth
    scroll has finished. (A `scrollend` left over from an earlier programmatic scroll could end
    the wait too soon; stillness after a move cannot.)"""
    start = positions(page)[which]["top"]
    act()
    page.wait_for_function(
        """([id, start]) => {
             const top = document.getElementById(id).scrollTop;
             if (window.__settle === undefined || window.__settle.top !== top) window.__settle = { top, frames: 0 };
             else window.__settle.frames++;
             return top !== start && window.__settle.frames >= 10;
           }""",
        arg=[f"scroll-{which}", start],
        polling="raf",
    )
    page.evaluate("() => { window.__settle = undefined; }")
    return wait_scrolled(page, which, "true", agree)[which]


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


def test_help_opens_at_its_title_and_first_keys_in_a_short_window(long_page):
    page = long_page
    page.keyboard.press("?")
    dialog = page.get_by_role("dialog", name="Keyboard shortcuts")
    expect(dialog.get_by_role("button", name="Close")).to_be_focused()
    # The box is taller than a 720-px window: focusing Close must not scroll its top away.
    expect(dialog.get_by_role("heading", name="Keyboard shortcuts")).to_be_in_viewport()
    expect(dialog.get_by_text("switch passes even inside a code pane")).to_be_in_viewport()


def test_unified_pane_scrolls_to_its_end_alone(long_page):
    page = long_page
    page.get_by_role("button", name="Unified").click()
    page.get_by_role("button", name="Expand all").click()
    unified = page.get_by_role("region", name="Unified diff").locator(".scroller")
    unified.focus()
    end = press_and_settle(page, "after", "End", agree=False)  # the Before pane is hidden
    assert end["top"] >= end["max"] - 1 > 10_000


# ---------- item 3: changes on screen ----------


def visible_in_pane(page, which: str, selector: str) -> list[bool]:
    """For each element matching `selector` in a pane: is it inside the pane's visible code area?"""
    return page.evaluate(
        """([id, selector]) => {
             const s = document.getElementById(id), box = s.getBoundingClientRect();
             const gutter = s.querySelector('.row:not(.fold) .code').getBoundingClientRect().left
                          - s.querySelector('.row:not(.fold)').getBoundingClientRect().left + s.scrollLeft;
             return [...s.querySelectorAll(selector)].map((e) => {
               const r = e.getBoundingClientRect();
               return r.top >= box.top && r.bottom <= box.top + s.clientHeight
                   && r.left >= box.left + gutter - s.scrollLeft - 1 && r.right <= box.left + s.clientWidth + 1;
             });
           }""",
        [f"scroll-{which}", selector],
    )


def test_opening_a_pass_shows_its_first_change_at_column_0(long_page):
    """The change sits far right in these lines: the pass opens scrolled fully left, the long
    unchanged run before it folded into a chip."""
    page = long_page
    after = pane(page, "After")
    expect(page.get_by_role("group", name="Changes in this pass")).to_contain_text("change 1 of 3")
    assert positions(page)["after"]["left"] == 0
    expect(after.locator(".row.ins .chip.fold").first).to_be_visible()
    first = visible_in_pane(page, "after", ".row.ins .em")
    assert first and first[0], "the first emphasised change is on screen"
    assert visible_in_pane(page, "before", ".row.del .em")[0]
    pass_button(page, 2).click()
    expect(page.get_by_role("group", name="Changes in this pass")).to_contain_text("change 1 of 1")
    expect(after.locator(".row.ins .em").first).to_have_text("mul")
    assert visible_in_pane(page, "after", ".row.ins .em")[0]


def test_bracket_keys_and_buttons_walk_the_changes_of_a_pass(long_page):
    page = long_page
    page.get_by_role("button", name="Expand all").click()
    group = page.get_by_role("group", name="Changes in this pass")
    after = pane(page, "After")
    page.locator("body").click(position={"x": 5, "y": 700})
    page.keyboard.press("]")
    expect(group).to_contain_text("change 2 of 3")
    row = after.locator(".row.ins", has_text="tag='f7_40'")
    expect(row).to_be_in_viewport()
    page.keyboard.press("]")
    expect(group).to_contain_text("change 3 of 3")
    expect(after.locator(".row.ins", has_text="tag='f10_5'")).to_be_in_viewport()
    page.keyboard.press("]")  # the last change: nothing further
    expect(group).to_contain_text("change 3 of 3")
    page.keyboard.press("[")
    expect(group).to_contain_text("change 2 of 3")
    group.get_by_role("button", name="Previous change").click()
    expect(group).to_contain_text("change 1 of 3")
    expect(after.locator(".row.ins", has_text="tag='f3_20'")).to_be_in_viewport()
    group.get_by_role("button", name="Next change").click()
    expect(group).to_contain_text("change 2 of 3")
    expect(pass_button(page, 1)).to_have_attribute("aria-current", "true")  # walking changes never switches pass


def test_edge_markers_point_at_changes_out_of_sight_and_bring_them_back(long_page):
    """With Expand all (lines whole, no chips) a change far right is out of sight: a marker in the
    strip at the pane's right edge says so, beside the code, never over it."""
    page = long_page
    after = page.get_by_role("region", name="After snapshot")
    expect(after.locator(".edge")).to_have_count(0)  # folded lines: the changes are on screen
    page.get_by_role("button", name="Expand all").click()
    wait_scrolled(page, "after", "s.scrollLeft === 0")
    markers = after.locator(".edge.right")
    expect(markers).to_have_count(2)  # rows 217 and 218 change out of sight on the right
    expect(page.get_by_role("region", name="Before snapshot").locator(".edge.right")).to_have_count(2)
    strip = page.evaluate(
        """() => { const s = document.getElementById('scroll-after'), box = s.getBoundingClientRect();
                   const code = s.querySelector('.row.ins .code').getBoundingClientRect();
                   const mark = document.querySelector('#pane-after .edge').getBoundingClientRect();
                   const slot = getComputedStyle(s.querySelector('.row'), '::after');
                   return [mark.left, box.left + s.clientWidth - parseFloat(slot.width), slot.position]; }"""
    )
    assert strip[2] == "sticky" and strip[0] >= strip[1] - 1  # the marker sits in the reserved strip
    markers.first.click()
    wait_scrolled(page, "after", "s.scrollLeft > 500")
    expect(after.locator(".edge")).to_have_count(0)
    assert visible_in_pane(page, "after", ".row.ins .em")[0]


def test_lines_inserted_beside_a_far_right_change_point_left_at_their_text(page, tmp_path):
    """With Expand all and the pane scrolled to a change far right on a long line, the short lines
    inserted just below are out of sight to the left: each says so, and a click brings them back."""
    inserted = [f"        mem_vec_{i}: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, {4096 * (i + 1)})" for i in range(5)]
    before = explicit_like(set())
    marker = statement(0, 1)
    after = before.replace(marker, "\n".join([statement(0, 1, "pl.mul"), *inserted]), 1)
    report = build_report(
        write_dump(tmp_path / "Program" / "passes_dump", [("frontend", before), ("Alloc", after)]),
        tmp_path / "r.html",
        "--no-cache",
        "-q",
    )
    with viewing(page, report):
        page.get_by_role("button", name="Expand all").click()
        page.get_by_role("region", name="After snapshot").locator(".edge.right").first.click()
        wait_scrolled(page, "after", "s.scrollLeft > 500")  # on the pl.mul far right
        after_pane = page.get_by_role("region", name="After snapshot")
        marks = after_pane.locator(".edge.left.ins")
        expect(marks).to_have_count(len(inserted))
        marks.first.click()
        wait_scrolled(page, "after", "s.scrollLeft === 0")
        expect(after_pane.locator(".edge.left")).to_have_count(0)
        expect(after_pane.get_by_text(inserted[0].strip())).to_be_visible()


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_code_scrolled_sideways_never_shows_through_the_line_numbers(long_page, theme):
    """The gutter stays put while the code scrolls under it: every changed row's gutter must be
    opaque (the dark theme tints it with a translucent colour)."""
    page = long_page
    if page.locator("html").get_attribute("data-theme") != theme:
        page.get_by_role("button", name="Theme").click()
    expect(page.locator("html")).to_have_attribute("data-theme", theme)
    page.get_by_role("button", name="Expand all").click()  # lines whole: they scroll sideways
    page.get_by_role("region", name="After snapshot").locator(".edge.right").first.click()
    wait_scrolled(page, "after", "s.scrollLeft > 500")  # on a change far right
    colours = page.evaluate(
        """() => [...document.querySelectorAll('.row.ins .ln, .row.del .ln')]
                 .map((ln) => getComputedStyle(ln).backgroundColor)"""
    )
    assert colours and all(colour.startswith("rgb(") for colour in colours), colours  # rgba(...) lets code through


def gutters_off_their_pane(page) -> list:
    """The drawn rows whose line number (or fold bar) does not sit at its pane's left edge, and how
    many were checked: a gutter that scrolled away with the code is listed."""
    return page.evaluate(
        """() => { const off = []; let seen = 0;
             for (const id of ['before', 'after']) {
               const s = document.getElementById('scroll-' + id), left = s.getBoundingClientRect().left;
               for (const cell of s.querySelectorAll('.row > .ln, .row > .fold-bar')) {
                 seen++;
                 const at = cell.getBoundingClientRect().left;
                 if (Math.abs(at - left) > 1) off.push([id, cell.textContent.slice(0, 30), at - left]);
               }
             }
             return [seen, off]; }"""
    )


def wheel_sideways_and_settle(page, which: str, delta: int) -> int:
    """Turn the wheel sideways over pane `which`; wait until its scroll has held still for ten frames."""
    box = page.locator(f"#scroll-{which}").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.wheel(delta, 0)
    return page.wait_for_function(
        """(id) => {
             const left = document.getElementById(id).scrollLeft;
             if (window.__settle === undefined || window.__settle.left !== left) window.__settle = { left, frames: 0 };
             else window.__settle.frames++;
             return left > 0 && window.__settle.frames >= 10 && (window.__settle = undefined, left);
           }""",
        arg=f"scroll-{which}",
        polling="raf",
    ).json_value()


@pytest.mark.parametrize("size", [(1280, 800), (2560, 1440)])
def test_the_gutter_stays_put_when_the_wheel_scrolls_code_sideways_across_a_pass_switch(long_page, size):
    """Line numbers and fold bars are sticky only while a pane is scrolled sideways (a sticky box is
    a compositor layer: a pass switch, at column 0, drew a screenful of them anew). Scrolled by the
    wheel, the gutters stay at the panes' left edge; `j` opens the next pass at column 0 with its
    rows drawn and its gutters in place, and the wheel scrolls its code under them again."""
    page = long_page
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.get_by_role("button", name="Expand all").click()  # lines whole: they scroll sideways
    assert wheel_sideways_and_settle(page, "after", 600) > 0
    assert positions(page)["before"]["left"] == positions(page)["after"]["left"]
    seen, off = gutters_off_their_pane(page)
    assert seen > 20 and not off, off
    page.locator("body").click(position={"x": 2, "y": 2})
    page.keyboard.press("j")
    expect(page.locator(".pass-btn[aria-current='true']")).to_contain_text("MulMore")
    expect(pane(page, "After").locator(".row.ins").first).to_be_visible()
    assert positions(page)["after"]["left"] == 0
    seen, off = gutters_off_their_pane(page)
    assert seen > 20 and not off, off
    assert wheel_sideways_and_settle(page, "before", 600) > 0
    seen, off = gutters_off_their_pane(page)
    assert seen > 20 and not off, off


# ---------- item 4: hunk headers ----------


def hunk_header(page, region: str, name: str):
    """The hunk header of the fold leading into function `name`'s change."""
    return page.get_by_role("region", name=region).locator(".row.fold .hunk-head", has_text=name)


@pytest.mark.parametrize("layout", ["Side by side", "Unified"])
def test_a_change_is_shown_with_the_hunk_header_above_it(long_page, layout):
    page = long_page
    page.set_viewport_size({"width": 1280, "height": 420})  # the folded pass no longer fits
    page.get_by_role("button", name=layout).click()
    region = "Unified diff" if layout == "Unified" else "After snapshot"
    pass_button(page, 2).click()
    pass_button(page, 1).click()  # opening a pass shows its first change: kernel_3's
    expect(page.get_by_role("group", name="Changes in this pass")).to_contain_text("change 1 of 3")
    expect(hunk_header(page, region, "Program.kernel_3")).to_be_in_viewport()
    for name in ("Program.kernel_7", "Program.kernel_10"):
        page.keyboard.press("]")
        expect(hunk_header(page, region, name)).to_be_in_viewport()
    page.keyboard.press("[")
    expect(page.get_by_role("group", name="Changes in this pass")).to_contain_text("change 2 of 3")
    expect(hunk_header(page, region, "Program.kernel_7")).to_be_in_viewport()


@pytest.mark.parametrize("layout", ["Side by side", "Stacked", "Unified"])
def test_folds_name_the_function_of_the_hunk_they_lead_into(long_page, layout):
    page = long_page
    page.get_by_role("button", name=layout).click()
    region = page.get_by_role("region", name="Unified diff" if layout == "Unified" else "After snapshot")
    folds = region.locator(".row.fold")
    expect(folds.nth(0)).to_contain_text("213 unchanged lines")
    expect(folds.nth(0)).to_contain_text("@@ \u2212214,8 +214,8 @@ Program.kernel_3")
    expect(folds.nth(1)).to_contain_text("@@ \u2212486,7 +486,7 @@ Program.kernel_7")
    expect(folds.nth(2)).to_contain_text("Program.kernel_10")
    expect(folds.nth(3)).not_to_contain_text("@@")  # the last fold leads into no hunk
    if layout != "Unified":
        before_folds = page.get_by_role("region", name="Before snapshot").locator(".row.fold")
        expect(before_folds.nth(1)).to_contain_text("Program.kernel_7")


# ---------- item 6: wrapping ----------


def test_wrap_breaks_between_tokens_with_a_hanging_indent_and_a_mark(long_page):
    page = long_page
    page.get_by_role("button", name="Expand all").click()  # whole lines, no chips: they wrap
    page.get_by_role("button", name="Wrap lines").click()
    info = page.evaluate(
        """() => ['before', 'after'].map((id) => {
             const s = document.getElementById('scroll-' + id);
             const rows = [...s.querySelectorAll('.row:not(.fold):not(.fill)')];
             return {
               overflow: s.scrollWidth - s.clientWidth,
               geometry: [...s.querySelectorAll('.row')].map((r) => [r.offsetTop, r.offsetHeight]),
               lines: rows.map((r) => {
                 const code = r.querySelector('.code');
                 const marks = [...code.querySelectorAll('.cont')];
                 if (marks.some((m) => getComputedStyle(m, '::before').content !== '"\u21aa"')) return null;
                 return { text: code.textContent, marks: marks.map((m) => m.getBoundingClientRect().width),
                          segments: code.innerText.split('\\n'), height: r.offsetHeight };
               }),
             };
           })"""
    )
    before, after = info
    assert before["geometry"] == after["geometry"]  # the panes stay row-aligned
    assert after["overflow"] <= 0  # nothing sticks out sideways
    assert None not in after["lines"], "every continuation mark draws a ↪"
    wrapped = [line for line in after["lines"] if len(line["segments"]) > 2]
    assert wrapped, "the long statements wrap onto several lines"
    for line in wrapped:
        assert line["height"] == 20 * len(line["segments"])
        segments = line["segments"]
        for previous, following in zip(segments, segments[1:]):
            joined = previous[-1:] + following[:1]
            assert not (joined[:1].isalnum() and joined[1:].isalnum()), (
                f"a token was split: {previous!r} | {following!r}"
            )
        # One `↪` per continuation line, drawn by CSS: the line's text runs on across the breaks.
        assert len(line["marks"]) == len(segments) - 1 and "".join(segments) == line["text"]
        indent = len(segments[0]) - len(segments[0].lstrip())
        # The mark is as wide as the hanging indent: the line's own indent plus four columns.
        assert all(width > (indent + 3) * 7 for width in line["marks"])


# ---------- item 9: the Unified layout ----------


def test_unified_layout_interleaves_removed_and_added_rows_and_round_trips(long_page):
    page = long_page
    unified = page.get_by_role("button", name="Unified")
    unified.click()
    expect(unified).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_role("button", name="Side by side")).to_have_attribute("aria-pressed", "false")
    expect(page.get_by_role("region", name="Before snapshot")).to_be_hidden()
    region = page.get_by_role("region", name="Unified diff")
    expect(region).to_contain_text("00_frontend.py")
    expect(region).to_contain_text("01_after_Mul.py")
    rows = region.locator(".row:not(.fold)")
    expect(rows.first).to_be_visible()
    shown = [
        (cls.split()[1] if " " in cls else "", ln.split())
        for cls, ln in page.evaluate(
            """() => [...document.querySelectorAll('#scroll-after .row:not(.fold)')]
                 .map((r) => [r.className, r.querySelector('.ln').textContent])"""
        )
    ][:8]
    # Three equal rows carry both line numbers; the edited pair reads − 217, − 218, then + 217, + 218.
    assert shown == [
        ("", ["214", "214"]),
        ("", ["215", "215"]),
        ("", ["216", "216"]),
        ("del", ["217"]),
        ("del", ["218"]),
        ("ins", ["217"]),
        ("ins", ["218"]),
        ("", ["219", "219"]),
    ]
    expect(region.locator(".row.del .em").first).to_have_text("add")
    expect(region.locator(".row.ins .em").first).to_have_text("mul")
    assert page.url.endswith("layout=unified")
    page.goto("about:blank")
    page.go_back()
    page.wait_for_function(PAINTED)
    expect(page.get_by_role("button", name="Unified")).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_role("region", name="Unified diff").locator(".row.ins").first).to_be_visible()
    page.get_by_role("button", name="Side by side").click()
    expect(page.get_by_role("region", name="Before snapshot")).to_be_visible()
    expect(page.get_by_role("region", name="After snapshot")).to_be_visible()


def test_wrapped_lines_rewrap_when_the_window_narrows(long_page):
    page = long_page
    # Whole lines: folded ones may fold further rather than wrap more in a narrower pane.
    page.get_by_role("button", name="Expand all").click()
    page.get_by_role("button", name="Wrap lines").click()
    tallest = "() => Math.max(...[...document.querySelectorAll('#scroll-after .row')].map((r) => r.offsetHeight))"
    wide = page.evaluate(tallest)
    page.set_viewport_size({"width": 900, "height": 720})
    page.wait_for_function(f"() => ({tallest})() > {wide}")  # narrower panes: more continuation lines
    overflow = page.evaluate(
        """() => ['before', 'after'].map((id) => {
             const s = document.getElementById('scroll-' + id);
             return s.scrollWidth - s.clientWidth;
           })"""
    )
    assert max(overflow) <= 0  # nothing sticks out sideways, fold bars included
    geometry = page.evaluate(
        """() => ['before', 'after'].map((id) => [...document.querySelectorAll('#scroll-' + id + ' .row')]
                 .map((r) => [r.offsetTop, r.offsetHeight]))"""
    )
    assert geometry[0] == geometry[1]


# ---------- the context line: the enclosing function stays named (sticky scroll) ----------

HEADER = 5  # module-level lines before the first kernel (explicit_like)
SPAN = BODY + 3  # a kernel's lines: decorator, def, the t0 load, BODY - 1 statements, return


def kernel_of(line: int) -> int:
    """The kernel whose body holds 1-based `line` of explicit_like; fails on a decorator, a def or
    a module-level line, where the context line names nothing."""
    n, offset = divmod(line - 1 - HEADER, SPAN)
    assert line - 1 >= HEADER and offset >= 2, f"line {line} is outside every kernel's body"
    return n


def def_line(n: int) -> int:
    """1-based number of kernel n's def line."""
    return HEADER + n * SPAN + 2


def context_line(page, region: str):
    return page.get_by_role("region", name=region).get_by_role("button", name="Enclosing function")


def top_line(page, which: str) -> int:
    """The line number of the row at the top edge of a pane (the row the context line lies over)."""
    numbers = page.evaluate(
        """(id) => { const s = document.getElementById(id), y = s.getBoundingClientRect().top + 1;
             const row = [...s.querySelectorAll('.row:not(.fold)')].find((r) => {
               const b = r.getBoundingClientRect(); return b.top <= y && b.bottom > y; });
             return row.querySelector('.ln').textContent.trim().split(/\\s+/); }""",
        f"scroll-{which}",
    )
    return int(numbers[-1])  # Unified rows carry both numbers: equal in this dump


def expect_names(page, region: str, n: int) -> None:
    context = context_line(page, region)
    expect(context).to_contain_text(f"{def_line(n)}    def kernel_{n}(a: pl.Tensor")
    expect(context).to_have_accessible_name(f"Enclosing function Program.kernel_{n}, line {def_line(n)}")


@pytest.mark.parametrize("layout", ["Side by side", "Stacked"])
def test_the_context_line_names_the_function_scrolled_into_on_both_panes(long_page, layout):
    page = long_page
    page.get_by_role("button", name=layout).click()
    page.get_by_role("button", name="Expand all").click()  # no fold, so no hunk header, is left
    wheel_and_settle(page, "after", 1500)
    n = kernel_of(top_line(page, "after"))
    for region in ("Before snapshot", "After snapshot"):
        expect_names(page, region, n)
    wheel_and_settle(page, "after", -50_000)  # back to the module's first lines
    assert top_line(page, "after") == 1
    for region in ("Before snapshot", "After snapshot"):
        expect(context_line(page, region)).to_be_hidden()


def test_clicking_the_context_line_brings_the_def_line_to_the_top(long_page):
    page = long_page
    page.get_by_role("button", name="Expand all").click()
    wheel_and_settle(page, "before", 1000)
    n = kernel_of(top_line(page, "before"))
    context_line(page, "Before snapshot").click()
    wait_scrolled(page, "before", f"top === {(def_line(n) - 1) * 20}")  # both panes
    assert top_line(page, "after") == def_line(n)
    for region in ("Before snapshot", "After snapshot"):
        expect(context_line(page, region)).to_be_hidden()  # the def line itself is on top
    expect(pane(page, "Before")).to_be_focused()  # keys go on scrolling the pane


def test_the_context_line_opens_the_fold_that_hides_the_def_line(long_page):
    page = long_page
    page.set_viewport_size({"width": 1280, "height": 420})  # the folded pass no longer fits
    wheel_and_settle(page, "after", 60)  # from kernel_3's hunk header to its first rows
    expect_names(page, "After snapshot", 3)
    context_line(page, "After snapshot").click()
    wait_scrolled(page, "after", f"top === {(def_line(3) - 1) * 20}")  # its fold is open
    assert top_line(page, "after") == def_line(3)


@pytest.mark.parametrize(
    "buttons", [["Unified"], ["Wrap lines"], ["Unified", "Wrap lines"]], ids=["unified", "wrap", "unified-wrap"]
)
def test_the_context_line_follows_the_row_shown_in_unified_and_wrapped_views(long_page, buttons):
    page = long_page
    for name in [*buttons, "Expand all"]:
        page.get_by_role("button", name=name).click()
    region = "Unified diff" if "Unified" in buttons else "After snapshot"
    for delta in (1500, 2500):  # wrapped rows are several lines tall: the second turn crosses kernels
        wheel_and_settle(page, "after", delta, agree="Unified" not in buttons)
        expect_names(page, region, kernel_of(top_line(page, "after")))


def test_the_context_line_names_the_selected_function(long_page):
    page = long_page
    function_select(page).select_option(label="kernel_7")
    page.get_by_role("button", name="Expand all").click()
    wheel_and_settle(page, "after", -300)  # it opened on its change, at the end of the function
    assert kernel_of(top_line(page, "after")) == 7
    expect_names(page, "After snapshot", 7)
    expect_names(page, "Before snapshot", 7)

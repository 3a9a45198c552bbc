"""Browser tests of the report viewer: real headless Chromium, driven like a person would.

Reports are built with the project's CLI from small PyPTO-like dumps written here; every test
also checks that the page logged no error and requested nothing outside the file.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from browser_support import (
    PAINTED,
    SAMPLES,
    build_report,
    click_overview_bar,
    expect,
    function_select,
    nav,
    open_report,
    overview,
    overview_bar,
    pane,
    pass_button,
    render_payload,
    viewing,
    write_dump,
)
from conftest import FRONTEND

LONG_TYPE = (
    "pl.Tile[[64, 128], pl.FP32, pl.MemRef(pl.MemorySpace.Vec, 0, 32768), pl.Mem.Vec, "
    "pl.Shape(valid=[64, 128], stride=[128, 1], start_offset=0, pad=pl.PadValue.zero)]"
)


def function(name: str, body_lines: int, op: str = "pl.add", decorator: str = "InCore") -> list[str]:
    """One @pl.function method of `body_lines` long SSA-style statements."""
    lines = [
        f"    @pl.function(type=pl.FunctionType.{decorator})",
        f"    def {name}(a: pl.Tensor[[64, 128], pl.FP32]) -> pl.Tensor[[64, 128], pl.FP32]:",
        "        t0: pl.Tile[[64, 128], pl.FP32] = pl.load(a, [0, 0], [64, 128])  # first tile",
    ]
    lines += [f"        t{i}: {LONG_TYPE} = {op}(t{i - 1}, t{i - 1})" for i in range(1, body_lines)]
    lines.append(f"        return t{body_lines - 1}")
    return lines


def program(functions: dict[str, list[str]], aux_kernel: list[str]) -> str:
    lines = ["# pypto.program: Program", "import pypto.language as pl", "", "@pl.program", "class Program:"]
    for body in functions.values():
        lines += body
    lines += ["@pl.program", "class Aux:"] + aux_kernel
    return "\n".join(lines) + "\n"


def demo_snapshots() -> tuple[list[tuple[str, str]], dict[int, str]]:
    """Frontend, then: no-op, SSA renames, inserted lines (+log), no-op, outline/delete, edits."""
    kernel, helper, main = (
        function("kernel", 40),
        function("helper", 30, "pl.mul"),
        function("main", 30, "pl.sub", "Orchestration"),
    )
    aux = function("kernel", 12, "pl.exp")
    frontend = program({"kernel": kernel, "helper": helper, "main": main}, aux)

    kernel_ssa = [re.sub(r"\bt5\b", "t5__ssa_v0", line) for line in kernel]
    ssa = program({"kernel": kernel_ssa, "helper": helper, "main": main}, aux)

    main_mem = (
        main[:10]
        + [
            "        mem_0: pl.MemRef = pl.alloc(pl.MemorySpace.Vec, 0, 32768)",
            "        mem_1: pl.MemRef = pl.alloc(pl.MemorySpace.Vec, 32768, 32768)",
        ]
        + main[10:]
    )
    memref = program({"kernel": kernel_ssa, "helper": helper, "main": main_mem}, aux)

    outlined = function("kernel_outlined", 8, "pl.max")
    outline = program({"kernel": kernel_ssa, "kernel_outlined": outlined, "main": main_mem}, aux)

    kernel_final = [line.replace("pl.add(t30,", "pl.mul(t30,") for line in kernel_ssa]
    aux_final = [line.replace("pl.exp(t3,", "pl.log(t3,") for line in aux]
    final = program({"kernel": kernel_final, "kernel_outlined": outlined, "main": main_mem}, aux_final)

    snapshots = [
        ("frontend", frontend),
        ("Simplify", frontend),
        ("ConvertToSSA", ssa),
        ("InitMemRef", memref),
        ("Cleanup", memref),
        ("OutlineIncoreScopes", outline),
        ("Canonicalize", final),
    ]
    logs = {3: "passes_dump/03_after_InitMemRef.py:12:9: warning: Unused variable 'mem_1' [UnusedVariableCheck]\n"}
    return snapshots, logs


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> tuple[Path, Path]:
    """(report, dump) of the demo pipeline, built once by the CLI."""
    root = tmp_path_factory.mktemp("demo") / "Program"
    snapshots, logs = demo_snapshots()
    dump = write_dump(root / "passes_dump", snapshots, logs)
    return build_report(dump, root / "report.html", "--no-cache", "-q"), dump


@pytest.fixture
def demo_page(page, demo):
    with viewing(page, demo[0]) as opened:
        yield opened


def visible_pass_names(page) -> list[str]:
    return [b.locator(".name").inner_text() for b in nav(page).get_by_role("button").all() if b.is_visible()]


# ---------- sidebar ----------


def test_sidebar_lists_passes_in_order_with_stats_and_badges(demo_page):
    buttons = nav(demo_page).get_by_role("button")
    expect(buttons).to_have_count(6)  # passes 1..6; the frontend is the starting point, not a pass
    assert visible_pass_names(demo_page) == [
        "Simplify",
        "ConvertToSSA",
        "InitMemRef",
        "Cleanup",
        "OutlineIncoreScopes",
        "Canonicalize",
    ]
    ssa = pass_button(demo_page, 2)
    expect(ssa).to_contain_text("2")
    expect(ssa).to_contain_text("+2 \u22122")
    expect(pass_button(demo_page, 3)).to_contain_text("warning")
    expect(pass_button(demo_page, 3)).to_contain_text("+2 \u22120")
    for k in (1, 4):
        expect(pass_button(demo_page, k)).to_contain_text("no-op")
    for k in (2, 3, 5, 6):
        expect(pass_button(demo_page, k)).not_to_contain_text("no-op")
    expect(pass_button(demo_page, 2)).not_to_contain_text("warning")


def test_initial_selection_is_first_changed_pass(demo_page):
    # Pass 1 is a no-op, so the first changed pass (2) is selected.
    expect(pass_button(demo_page, 2)).to_have_attribute("aria-current", "true")
    expect(nav(demo_page).locator('[aria-current="true"]')).to_have_count(1)
    expect(demo_page.locator("#pass-title")).to_contain_text("ConvertToSSA")


def test_clicking_a_pass_selects_it(demo_page):
    pass_button(demo_page, 5).click()
    expect(pass_button(demo_page, 5)).to_have_attribute("aria-current", "true")
    expect(pass_button(demo_page, 2)).not_to_have_attribute("aria-current", "true")
    expect(demo_page.get_by_role("region", name="After snapshot")).to_contain_text("05_after_OutlineIncoreScopes.py")


def test_changed_and_noop_filters(demo_page):
    noop, changed = demo_page.get_by_label("No-op"), demo_page.get_by_label("Changed")
    expect(noop).to_be_checked()
    expect(changed).to_be_checked()
    pass_button(demo_page, 4).click()
    noop.uncheck()
    assert visible_pass_names(demo_page) == ["ConvertToSSA", "InitMemRef", "OutlineIncoreScopes", "Canonicalize"]
    # The selected no-op pass was filtered out: the nearest visible pass is selected instead.
    expect(pass_button(demo_page, 3)).to_have_attribute("aria-current", "true")
    noop.check()
    changed.uncheck()
    assert visible_pass_names(demo_page) == ["Simplify", "Cleanup"]
    expect(pass_button(demo_page, 4)).to_have_attribute("aria-current", "true")
    noop.uncheck()
    assert visible_pass_names(demo_page) == []
    expect(nav(demo_page).get_by_text("No pass matches the filters.")).to_be_visible()
    changed.check()
    expect(nav(demo_page).get_by_text("No pass matches the filters.")).to_be_hidden()


def test_filter_box_matches_pass_names_case_insensitively(demo_page):
    box = demo_page.get_by_role("searchbox", name="Filter passes")
    box.fill("SSA")
    assert visible_pass_names(demo_page) == ["ConvertToSSA"]
    box.fill("c")
    assert visible_pass_names(demo_page) == ["ConvertToSSA", "Cleanup", "OutlineIncoreScopes", "Canonicalize"]
    demo_page.get_by_label("Changed").uncheck()  # combined with the checkboxes
    assert visible_pass_names(demo_page) == ["Cleanup"]
    expect(pass_button(demo_page, 4)).to_have_attribute("aria-current", "true")
    box.fill("zzz")
    expect(nav(demo_page).get_by_text("No pass matches the filters.")).to_be_visible()


# ---------- keyboard ----------


def test_keys_move_between_visible_passes(demo_page):
    page = demo_page
    page.locator("body").click(position={"x": 5, "y": 700})
    page.keyboard.press("j")
    expect(pass_button(page, 3)).to_have_attribute("aria-current", "true")
    page.keyboard.press("ArrowDown")
    expect(pass_button(page, 4)).to_have_attribute("aria-current", "true")
    page.keyboard.press("k")
    expect(pass_button(page, 3)).to_have_attribute("aria-current", "true")
    page.keyboard.press("ArrowUp")
    expect(pass_button(page, 2)).to_have_attribute("aria-current", "true")
    page.get_by_label("No-op").uncheck()
    page.locator("body").click(position={"x": 5, "y": 700})
    page.keyboard.press("j")
    page.keyboard.press("j")
    expect(pass_button(page, 5)).to_have_attribute("aria-current", "true")  # skipped the hidden no-op pass 4


def test_keys_are_ignored_while_typing_in_the_filter_box(demo_page):
    box = demo_page.get_by_role("searchbox", name="Filter passes")
    box.click()
    box.press_sequentially("jk")
    box.press("ArrowDown")
    expect(box).to_have_value("jk")
    box.fill("")  # "jk" hides every row (the list draws none): the selection shows once they are back
    expect(pass_button(demo_page, 2)).to_have_attribute("aria-current", "true")


def test_j_and_k_switch_passes_from_a_focused_select_whose_arrow_keys_change_its_option(demo_page):
    """A select keeps focus after a pick: it is no text field, so j / k must not be lost in it."""
    page = demo_page
    select = function_select(page)
    select.focus()
    page.keyboard.press("ArrowDown")
    expect(select).to_have_value("Program.kernel")
    expect(pass_button(page, 2)).to_have_attribute("aria-current", "true")
    page.keyboard.press("j")
    expect(pass_button(page, 3)).to_have_attribute("aria-current", "true")
    page.keyboard.press("k")
    expect(pass_button(page, 2)).to_have_attribute("aria-current", "true")
    expect(select).to_have_value("Program.kernel")


def test_question_mark_opens_the_key_overlay_and_escape_closes_it(demo_page):
    dialog = demo_page.get_by_role("dialog", name="Keyboard shortcuts")
    expect(dialog).to_be_hidden()
    demo_page.keyboard.press("?")
    expect(dialog).to_be_visible()
    for key in ("j", "k", "Esc"):
        expect(dialog.locator("kbd", has_text=re.compile(f"^{key}$"))).to_have_count(1)
    demo_page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    demo_page.get_by_role("button", name="Keyboard shortcuts").click()
    expect(dialog).to_be_visible()
    dialog.get_by_role("button", name="Close").click()
    expect(dialog).to_be_hidden()


# ---------- panes ----------


def scroll_positions(page) -> dict:
    return page.evaluate(
        """() => Object.fromEntries(['before', 'after'].map((id) => {
             const s = document.getElementById('scroll-' + id);
             return [id, [s.scrollTop, s.scrollLeft]];
           }))"""
    )


def wheel_over(page, which: str, dx: int, dy: int) -> None:
    box = pane(page, which).bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.wheel(dx, dy)


def wait_synced(page, top_min: int, left_min: int) -> dict:
    page.wait_for_function(
        """([top, left]) => {
             const a = document.getElementById('scroll-before'), b = document.getElementById('scroll-after');
             return a.scrollTop >= top && a.scrollLeft >= left
                 && a.scrollTop === b.scrollTop && a.scrollLeft === b.scrollLeft;
           }""",
        arg=[top_min, left_min],
    )
    return scroll_positions(page)


def test_side_by_side_and_stacked_layouts_scroll_in_sync(demo_page):
    page = demo_page
    side, stacked = page.get_by_role("button", name="Side by side"), page.get_by_role("button", name="Stacked")
    expect(side).to_have_attribute("aria-pressed", "true")
    expect(stacked).to_have_attribute("aria-pressed", "false")
    page.get_by_role("button", name="Expand all").click()
    before_box, after_box = pane(page, "Before").bounding_box(), pane(page, "After").bounding_box()
    assert before_box["x"] + before_box["width"] <= after_box["x"] + 1  # Before on the left

    wheel_over(page, "Before", 0, 400)
    wheel_over(page, "Before", 300, 0)
    positions = wait_synced(page, 100, 100)
    assert positions["before"] == positions["after"]

    stacked.click()
    expect(stacked).to_have_attribute("aria-pressed", "true")
    expect(side).to_have_attribute("aria-pressed", "false")
    before_box, after_box = pane(page, "Before").bounding_box(), pane(page, "After").bounding_box()
    assert before_box["y"] + before_box["height"] <= after_box["y"] + 1  # Before above After
    start = scroll_positions(page)["after"]
    wheel_over(page, "After", 0, 300)
    wheel_over(page, "After", 200, 0)
    positions = wait_synced(page, start[0] + 100, start[1] + 100)
    assert positions["before"] == positions["after"]


def test_rows_are_aligned_with_fillers_and_intraline_emphasis(demo_page):
    page = demo_page
    # ConvertToSSA: t5 -> t5__ssa_v0 edits lines in place; the new name is emphasised on the After side.
    after_em = pane(page, "After").locator(".row.ins .em")
    expect(after_em.first).to_be_visible()
    assert any("__ssa_v0" in text for text in after_em.all_inner_texts())
    before_em = pane(page, "Before").locator(".row.del .em")
    assert before_em.count() > 0 and all("__ssa_v0" not in t for t in before_em.all_inner_texts())
    # InitMemRef inserts two lines: After shows them, Before shows filler rows on the same rows.
    pass_button(page, 3).click()
    layout = page.evaluate(
        """() => ['before', 'after'].map((id) => [...document.querySelectorAll('#scroll-' + id + ' .row')]
                 .map((r) => [r.className, r.getBoundingClientRect().top]))"""
    )
    before_rows, after_rows = layout
    assert len(before_rows) == len(after_rows)
    inserted = [i for i, (cls, _) in enumerate(after_rows) if "ins" in cls]
    assert len(inserted) == 2
    for i in inserted:
        assert "fill" in before_rows[i][0]
        assert before_rows[i][1] == after_rows[i][1]
    expect(pane(page, "After").locator(".row.ins")).to_contain_text(["mem_0: pl.MemRef", "mem_1: pl.MemRef"])


def test_changed_line_background_spans_the_scrolled_width(demo_page):
    page = demo_page
    page.get_by_role("button", name="Expand all").click()  # whole lines: the pane scrolls sideways
    wheel_over(page, "After", 2000, 0)
    wait_synced(page, 0, 500)
    widths = page.evaluate(
        """() => {
             const s = document.getElementById('scroll-after');
             const row = s.querySelector('.row.ins');
             return [row.getBoundingClientRect().right, s.getBoundingClientRect().right, s.scrollLeft];
           }"""
    )
    row_right, pane_right, scroll_left = widths
    assert scroll_left > 500
    assert row_right >= pane_right - 20  # the highlighted row still reaches the right edge


def test_syntax_colouring_uses_spans(demo_page):
    demo_page.get_by_role("button", name="Expand all").click()
    code = pane(demo_page, "After").locator(".row").filter(has_text="def kernel").first
    expect(code.locator(".t-k", has_text="def")).to_have_count(1)
    expect(code.locator(".t-f", has_text="kernel")).to_have_count(1)
    expect(pane(demo_page, "After").locator(".t-p", has_text="pl.add").first).to_be_visible()
    expect(pane(demo_page, "After").locator(".t-c", has_text="# first tile").first).to_be_attached()


def test_wrap_lines_toggle_keeps_rows_aligned(demo_page):
    page = demo_page
    toggle = page.get_by_role("button", name="Wrap lines")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    page.get_by_role("button", name="Expand all").click()  # whole lines, no chips: they wrap
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    rows = page.evaluate(
        """() => ['before', 'after'].map((id) => [...document.querySelectorAll('#scroll-' + id + ' .row')]
                 .map((r) => [r.offsetTop, r.offsetHeight]))"""
    )
    assert rows[0] == rows[1]
    assert max(h for _, h in rows[1]) > 30  # long lines wrap onto several visual lines
    assert page.evaluate(
        "document.getElementById('scroll-after').scrollWidth <= document.getElementById('scroll-after').clientWidth"
    )
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "false")


# ---------- function select ----------


def test_function_select_lists_restricts_keeps_and_falls_back(demo_page):
    page = demo_page
    select = function_select(page)
    options = select.locator("option").all_inner_texts()
    assert options == ["Whole file", "Program.kernel", "helper", "main", "Aux.kernel"]
    select.select_option(label="helper")
    after = pane(page, "After")
    expect(after.get_by_role("button", name=re.compile(r"\d+ unchanged lines"))).to_have_count(1)
    page.get_by_role("button", name="Expand all").click()
    expect(after).to_contain_text("def helper")
    expect(after).not_to_contain_text("def kernel")
    expect(after).not_to_contain_text("def main")
    # Kept while the function exists on both sides ...
    page.locator("body").click(position={"x": 5, "y": 700})
    page.keyboard.press("j")
    expect(pass_button(page, 3)).to_have_attribute("aria-current", "true")
    expect(select).to_have_value("Program.helper")
    # ... and at the pass that deletes it, shown removed (Before side only).
    pass_button(page, 5).click()
    expect(select).to_have_value("Program.helper")
    expect(select.locator("option:checked")).to_have_text("helper (removed)")
    expect(pane(page, "After").locator(".row:not(.fill)")).to_have_count(0)
    options = select.locator("option").all_inner_texts()
    assert "kernel_outlined (created)" in options and "helper (removed)" in options
    select.select_option(label="kernel_outlined (created)")
    expect(pane(page, "After")).to_contain_text("def kernel_outlined")
    expect(pane(page, "After").locator(".row:not(.ins)")).to_have_count(0)
    expect(pane(page, "Before").locator(".row:not(.fill)")).to_have_count(0)
    assert "#pass=5&fn=Program.kernel_outlined" in page.url


def test_function_select_disabled_with_reason_when_a_snapshot_cannot_be_sliced(page, tmp_path):
    good = "\n".join(["import pypto.language as pl", "@pl.program", "class P:"] + function("kernel", 6)) + "\n"
    broken = good.replace("pl.load(a, [0, 0], [64, 128])", "pl.load(a, [0, 0], [64, 128]")
    dump = write_dump(tmp_path / "broken" / "passes_dump", [("frontend", good), ("Break", broken), ("Fix", good)])
    log = open_report(page, build_report(dump, tmp_path / "r.html", "--no-cache", "-q"))
    select = function_select(page)
    expect(pass_button(page, 1)).to_have_attribute("aria-current", "true")
    expect(select).to_be_disabled()
    note = page.locator("#fn-note")
    expect(note).to_be_visible()
    expect(note).to_contain_text("after snapshot")
    expect(select).to_have_accessible_description(re.compile("after snapshot cannot be sliced"))
    expect(select).to_have_attribute("title", re.compile("after snapshot cannot be sliced"))
    page.get_by_role("button", name="Expand all").click()  # long lines whole, no chips
    expect(pane(page, "After")).to_contain_text("pl.load(a, [0, 0], [64, 128]")  # whole file shown
    page.keyboard.press("j")
    expect(select).to_be_disabled()  # the before side of pass 2 is the broken one
    expect(note).to_contain_text("before snapshot")
    log.assert_clean()


# ---------- copy, folding, warnings, theme ----------


def test_copy_full_source_copies_each_snapshot_exactly(browser, demo):
    report, dump = demo
    context = browser.new_context(
        viewport={"width": 1280, "height": 720}, permissions=["clipboard-read", "clipboard-write"]
    )
    page = context.new_page()
    try:
        log = open_report(page, report)
        function_select(page).select_option(label="main")  # copies are whole files even so
        pass_button(page, 3).click()
        for which, name in (("Before", "02_after_ConvertToSSA.py"), ("After", "03_after_InitMemRef.py")):
            region = page.get_by_role("region", name=f"{which} snapshot")
            region.get_by_role("button", name="Copy full source").click()
            expect(region.get_by_text("Copied")).to_be_visible()
            copied = page.evaluate("navigator.clipboard.readText()")
            assert copied == (dump / name).read_text(encoding="utf-8")
        log.assert_clean()
    finally:
        context.close()


def test_folding_expand_and_collapse(demo_page):
    page = demo_page
    after = pane(page, "After")
    folds = after.get_by_role("button", name=re.compile(r"^\W*\d+ unchanged lines$"))
    count = folds.count()
    assert count >= 2
    first_label = folds.first.inner_text()
    hidden = int(re.search(r"(\d+) unchanged", first_label).group(1))
    rows_before = after.locator(".row").count()
    folds.first.click()
    expect(folds).to_have_count(count - 1)
    assert after.locator(".row").count() >= min(rows_before - 1 + hidden, 60)
    page.get_by_role("button", name="Collapse all").click()
    expect(folds).to_have_count(count)
    page.get_by_role("button", name="Expand all").click()
    expect(folds).to_have_count(0)
    expect(after).to_contain_text("# pypto.program: Program")
    page.get_by_role("button", name="Collapse all").click()
    expect(folds).to_have_count(count)


def test_pass_warnings_region_shows_the_log(demo_page):
    page = demo_page
    region = page.get_by_role("region", name="Pass warnings")
    expect(region).to_be_hidden()
    pass_button(page, 3).click()
    expect(region).to_be_visible()
    expect(region).to_contain_text("warning: Unused variable 'mem_1' [UnusedVariableCheck]")
    expect(region).to_contain_text("03_after_InitMemRef.log")
    pass_button(page, 5).click()
    expect(region).to_be_hidden()


def test_a_blank_log_gives_no_warning_badge_and_no_panel(page, tmp_path):
    """Empty or whitespace-only: the pass emitted no warning, so nothing may claim it did."""
    snapshots = [("frontend", FRONTEND), ("Empty", FRONTEND), ("Blank", FRONTEND), ("Warns", FRONTEND)]
    dump = write_dump(tmp_path / "blank" / "passes_dump", snapshots, logs={1: "", 2: " \n\n", 3: "warning: real\n"})
    log = open_report(page, build_report(dump, tmp_path / "r.html", "--no-cache", "-q"))
    expect(pass_button(page, 3)).to_contain_text("warning")
    for k in (1, 2):
        expect(pass_button(page, k)).not_to_contain_text("warning")
    pass_button(page, 2).click()
    expect(pass_button(page, 2)).to_have_attribute("aria-current", "true")
    expect(page.get_by_role("region", name="Pass warnings")).to_be_hidden()
    log.assert_clean()


def test_theme_toggle_and_initial_preference(demo_page, browser, demo):
    page = demo_page
    background = "getComputedStyle(document.body).backgroundColor"
    assert page.evaluate("document.documentElement.dataset.theme") == "light"
    light = page.evaluate(background)
    page.get_by_role("button", name="Theme").click()
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    assert page.evaluate(background) != light
    page.get_by_role("button", name="Theme").click()
    assert page.evaluate(background) == light
    dark_context = browser.new_context(color_scheme="dark")
    try:
        dark_page = dark_context.new_page()
        open_report(dark_page, demo[0])
        assert dark_page.evaluate("document.documentElement.dataset.theme") == "dark"
    finally:
        dark_context.close()


def test_level_banner_for_concise_dumps(demo_page):
    banner = demo_page.locator("#level-banner")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("PassDumpLevel.EXPLICIT")
    expect(banner).to_contain_text("layout")


# ---------- deep links and overview ----------


def test_deep_link_round_trip(page, demo):
    report = demo[0]
    log = open_report(page, report, "#pass=6&fn=Program.kernel&layout=stacked")
    expect(pass_button(page, 6)).to_have_attribute("aria-current", "true")
    expect(function_select(page)).to_have_value("Program.kernel")
    expect(page.get_by_role("button", name="Stacked")).to_have_attribute("aria-pressed", "true")
    expect(pane(page, "After")).not_to_contain_text("def main")
    page.locator("body").click(position={"x": 5, "y": 700})
    page.keyboard.press("k")
    expect(pass_button(page, 5)).to_have_attribute("aria-current", "true")
    page.get_by_role("button", name="Side by side").click()
    assert page.url.endswith("#pass=5&fn=Program.kernel&layout=side")
    url = page.url
    log.assert_clean()

    page.goto("about:blank")
    page.goto(url)
    page.wait_for_function(PAINTED)
    expect(pass_button(page, 5)).to_have_attribute("aria-current", "true")
    expect(function_select(page)).to_have_value("Program.kernel")
    expect(page.get_by_role("button", name="Side by side")).to_have_attribute("aria-pressed", "true")
    # Following a link inside the open report (hashchange) navigates too.
    page.evaluate("location.hash = '#pass=3&layout=stacked'")
    expect(pass_button(page, 3)).to_have_attribute("aria-current", "true")
    expect(function_select(page)).to_have_value("")
    expect(page.get_by_role("button", name="Stacked")).to_have_attribute("aria-pressed", "true")


def test_overview_chart_bars_select_passes(demo_page):
    page = demo_page
    title, _ = overview_bar(page, 3)
    assert title == "3 InitMemRef: +2 \u22120, warning"
    click_overview_bar(page, 3)
    expect(pass_button(page, 3)).to_have_attribute("aria-current", "true")
    expect(overview(page)).to_have_attribute("aria-valuetext", re.compile("^3 InitMemRef"))
    assert overview_bar(page, 4)[1] == overview_bar(page, 1)[1] == 2  # a no-op bar is flat
    assert overview_bar(page, 2)[1] > 2


# ---------- special dumps ----------


def test_dump_with_only_the_frontend_says_so(page, tmp_path):
    dump = write_dump(tmp_path / "only" / "passes_dump", [("frontend", "import pypto.language as pl\n")])
    log = open_report(page, build_report(dump, tmp_path / "r.html", "--no-cache", "-q"))
    expect(page.get_by_text("No pass snapshot exists")).to_have_count(2)
    expect(page.locator("#only-frontend")).to_contain_text("every pass would read as a no-op")
    expect(page.get_by_role("checkbox", name="Changed")).to_be_hidden()
    page.keyboard.press("?")
    expect(page.get_by_role("dialog", name="Keyboard shortcuts")).to_be_visible()
    log.assert_clean()


XSS = '</script><img src=x onerror="window.__pwned=1">'


def test_snapshot_text_pass_name_and_log_are_inert(page, tmp_path):
    front = f"import pypto.language as pl\n# {XSS}\nx = 1\n"
    after = f"import pypto.language as pl\n# {XSS}\nx = '{XSS}'\n"
    name = "<img src=x onerror=window.__pwned=1>"
    dump = write_dump(tmp_path / "xss" / "passes_dump", [("frontend", front), (name, after)], logs={1: XSS + "\n"})
    log = open_report(page, build_report(dump, tmp_path / "r.html", "--no-cache", "-q"))
    assert page.locator("img").count() == 0  # no element whose onerror could still fire later
    assert page.evaluate("window.__pwned") is None
    expect(pane(page, "After")).to_contain_text(f"x = '{XSS}'")
    expect(pane(page, "Before")).to_contain_text(f"# {XSS}")
    expect(pass_button(page, 1)).to_contain_text(name)
    expect(page.get_by_role("region", name="Pass warnings")).to_contain_text(XSS)
    log.assert_clean()


def test_hand_built_payload_with_functions_null_disables_select(page, tmp_path):
    payload = {
        "schema": 1,
        "generator": "test",
        "title": "hand",
        "dump": "/x",
        "context": 3,
        "level": "UNKNOWN",
        "passes": [
            {
                "index": 0,
                "name": "frontend",
                "file": "00_frontend.py",
                "sha256": "",
                "eol": True,
                "lines": ["def f():", "    return 1"],
                "changed": False,
                "inserted": 0,
                "deleted": 0,
                "log": None,
                "log_file": None,
                "functions": [["f", 0, 2]],
            },
            {
                "index": 1,
                "name": "P",
                "file": "01_after_P.py",
                "sha256": "",
                "eol": False,
                "hunks": [[1, 2, 1, 2, ["    return (2"], [[1, 1, [[11, 12]], [[11, 13]]]]]],
                "changed": True,
                "inserted": 1,
                "deleted": 1,
                "log": None,
                "log_file": None,
                "functions": None,
                "parse_error": "line 2: '(' is never closed",
            },
        ],
    }
    log = open_report(page, render_payload(payload, tmp_path / "r.html"))
    expect(function_select(page)).to_be_disabled()
    expect(page.locator("#fn-note")).to_contain_text("line 2: '(' is never closed")
    expect(page.locator("#level-banner")).to_be_hidden()
    assert "".join(pane(page, "After").locator(".row.ins .em").all_inner_texts()) == "(2"
    log.assert_clean()


FOCUS_INFO = """() => { const e = document.activeElement; const s = getComputedStyle(e);
                 const name = e.getAttribute('aria-label') || e.id || e.textContent.trim().slice(0, 40);
                 const inToolbar = e.matches('[role="toolbar"] :is(button, input[type="checkbox"])');
                 return [name, s.outlineStyle, s.outlineWidth, e.tagName, inToolbar]; }"""


def test_controls_are_keyboard_reachable_with_visible_focus(demo_page):
    """Every control by Tab, or inside a toolbar (one Tab stop) by the arrow keys, with a visible focus."""
    page = demo_page

    def visit() -> list:
        info = page.evaluate(FOCUS_INFO)
        seen.add(info[0])
        assert info[3] == "BODY" or (info[1] != "none" and info[2] != "0px"), f"no visible focus on {info}"
        return info

    seen = set()
    for _ in range(40):
        page.keyboard.press("Tab")
        info = visit()
        if info[3] == "BODY":
            break
        if info[4]:  # walk the toolbar from its first item to its last, then Tab leaves it
            page.keyboard.press("Home")
            last = visit()
            while True:
                page.keyboard.press("ArrowRight")
                now = visit()
                if now[0] == last[0]:
                    break
                last = now
    for name in (
        "filter-changed",
        "filter-noop",
        "Filter passes",
        "Find",
        "find-regex",
        "find-case",
        "fn-select",
        "from-select",
        "layout-side",
        "layout-stacked",
        "wrap-toggle",
        "expand-all",
        "collapse-all",
        "theme-toggle",
        "Keyboard shortcuts",
        "copy-before",
    ):
        assert name in seen, f"{name} not reachable by Tab"


def real_dumps() -> list[Path]:
    return sorted(SAMPLES.glob("real*/*/passes_dump"))


@pytest.mark.samples
def test_every_real_sample_renders_a_diff(page, tmp_path):
    for dump in real_dumps():
        report = build_report(dump, tmp_path / f"{dump.parent.parent.name}_{dump.parent.name}.html", "--no-cache", "-q")
        log = open_report(page, report)
        expect(page.locator(".scroller .row.ins, .scroller .row.del").first).to_be_visible()
        concise = page.evaluate("() => window.__irTrace.payload.level") == "CONCISE"
        expect(page.locator("#level-banner")).to_be_visible(visible=concise)
        # Every pass has a row, or is counted in the closed run of no-op passes that holds it.
        listed = page.evaluate(
            """() => [...document.querySelectorAll('#pass-list button')].reduce((n, b) => n +
                 (b.dataset.k !== undefined ? 1
                  : b.getAttribute('aria-expanded') === 'false' ? Number(b.dataset.count) : 0), 0)"""
        )
        assert listed == 49
        page.keyboard.press("j")
        log.assert_clean()
        page.goto("about:blank")

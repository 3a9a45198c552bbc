"""Browser tests of reading real EXPLICIT IR: long lines fold their unchanged runs inline, passes
open at column 0, rewrites share side-by-side rows, indentation changes are a mark, invisible
characters show, and a huge line stays cheap (ir_trace/report/assets/viewer_fold.js and its painters)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from browser_support import SAMPLES, build_report, expect, open_report, pane, pass_button, program, viewing, write_dump

# The share of changed lines on a pass's first screen whose first change starts in sight.
FIRST_CHANGE_IN_SIGHT = """() => {
  let lines = 0, shown = 0, left = 0;
  for (const s of document.querySelectorAll('.scroller')) {
    if (!s.offsetParent) continue;
    const box = s.getBoundingClientRect(), code = s.querySelector('.row:not(.fold) .code');
    const from = code.getBoundingClientRect().left - 1, to = box.left + s.clientWidth + 1;
    left = Math.max(left, s.scrollLeft);
    for (const row of s.querySelectorAll('.row')) {
      const r = row.getBoundingClientRect(), em = row.querySelector('.em');
      if (!em || r.top < box.top || r.bottom > box.top + s.clientHeight) continue;
      lines++;
      const e = em.getBoundingClientRect();
      if (e.left >= from && e.left + 8 <= to) shown++;
    }
  }
  return { lines, shown, left };
}"""

# Each painted row is as tall as its content (wrapped heights are computed, not measured).
ROWS_FIT = """() => [...document.querySelectorAll('#scroll-after .row')]
  .every((row) => row.scrollHeight <= row.clientHeight + 1)"""


# What a selection of a code cell holds (what Ctrl+C copies), and how wide its text is drawn.
SELECTED_TEXT = """(code) => { const range = document.createRange(); range.selectNodeContents(code);
  const selection = getSelection(); selection.removeAllRanges(); selection.addRange(range);
  const text = selection.toString(); selection.removeAllRanges(); return text; }"""
TEXT_WIDTH = """(code) => { const range = document.createRange(); range.selectNodeContents(code);
  return range.getBoundingClientRect().width; }"""


def scroll_left(page, which: str = "after") -> float:
    return page.evaluate(f"() => document.getElementById('scroll-{which}').scrollLeft")


@pytest.fixture(scope="module")
def qwen_report(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("qwen") / "qwen3.html"
    return build_report(SAMPLES / "real" / "qwen3_decode_explicit" / "passes_dump", out, "--no-cache", "-q")


@pytest.mark.samples
def test_real_explicit_passes_open_at_column_0_with_their_changes_in_sight(browser, qwen_report):
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    try:
        lines = shown = 0
        for index in (46, 38, 45, 11):
            log = open_report(page, qwen_report, f"#pass={index}")
            seen = page.evaluate(FIRST_CHANGE_IN_SIGHT)
            assert seen["left"] == 0, f"pass {index} opened scrolled sideways"
            lines, shown = lines + seen["lines"], shown + seen["shown"]
            log.assert_clean()
        assert lines > 20 and shown >= 0.95 * lines, f"{shown} of {lines} changed lines show their change"
        # #pass=46: the inserted `with pl.scope():` lines and the changed decorator are all on screen.
        page.goto(qwen_report.resolve().as_uri() + "#pass=46")
        after = page.locator("#scroll-after")  # the After pane, named `Unified diff` in that layout
        expect(after.locator(".row.ins .em").first).to_be_in_viewport()
        assert page.evaluate(FIRST_CHANGE_IN_SIGHT)["shown"] >= 1
        # A Find match inside a folded run marks its chip.
        page.get_by_placeholder("Find in snapshots").fill("col_major")
        expect(after.locator(".chip.fold.hit").first).to_be_visible()
        page.get_by_placeholder("Find in snapshots").fill("")
        # `]` walks down without moving sideways, in every layout.
        for layout in ("Side by side", "Stacked", "Unified"):
            page.get_by_role("button", name=layout, exact=True).click()
            assert scroll_left(page) == 0, layout
            after.focus()
            page.keyboard.press("]")
            assert scroll_left(page) == 0, layout
        page.get_by_role("button", name="Side by side", exact=True).click()
        # A chip is a button: it opens its line whole, Collapse all folds it again.
        chip = after.locator(".row .chip.fold").first
        number = chip.evaluate("(c) => c.closest('.row').querySelector('.ln').textContent")
        row = after.locator(".row").filter(has=page.locator(".ln", has_text=re.compile(f"^{number}$")))
        dump = SAMPLES / "real" / "qwen3_decode_explicit" / "passes_dump"
        line = next(dump.glob("46_*.py")).read_text(encoding="utf-8").split("\n")[int(number) - 1]
        assert row.locator(".code").evaluate(SELECTED_TEXT) == line  # a selection copies the folded text too
        folded = row.locator(".code").evaluate(TEXT_WIDTH)
        chip.focus()
        page.keyboard.press("Enter")
        expect(row.locator(".chip")).to_have_count(0)
        assert row.locator(".code").evaluate(TEXT_WIDTH) > folded
        page.get_by_role("button", name="Expand all").click()
        expect(page.locator(".scroller .chip")).to_have_count(0)
        page.get_by_role("button", name="Collapse all").click()
        expect(after.locator(".chip.fold").first).to_be_visible()
        # Wrapped: a changed line wraps whole, no chip cuts it (issue 28), and every row holds its
        # wrapped lines exactly.
        page.get_by_role("button", name="Wrap lines").click()
        expect(after.locator(".row:has(.em) .chip.fold")).to_have_count(0)
        assert page.evaluate(ROWS_FIT)
    finally:
        page.close()


def test_rewritten_lines_share_rows_side_by_side_without_emphasis(page, tmp_path):
    old = ["x = 1", "y = compute(x)", "z = y + x", "print(z)"]
    new = ["acc_0: pl.Tile = pl.tile.alloc(pl.Mem.Vec, 4096)", "pl.tile.store(acc_0, [0, 0], out)", "flag = True"]
    keep = ["a = pl.load(b, [0, 0], [64, 128])", "c = pl.add(a, a)"]
    report = build_report(
        write_dump(
            tmp_path / "passes_dump", [("frontend", program({"k": keep + old})), ("Lower", program({"k": keep + new}))]
        ),
        tmp_path / "r.html",
        "--no-cache",
        "-q",
    )
    with viewing(page, report):
        before, after = pane(page, "Before"), pane(page, "After")
        expect(after.locator(".row.ins")).to_have_count(3)
        expect(before.locator(".row.del")).to_have_count(4)
        expect(after.locator(".row.fill")).to_have_count(1)  # 4 gone, 3 new: one row is left over
        expect(before.locator(".row.fill")).to_have_count(0)
        expect(page.locator(".scroller .em")).to_have_count(0)  # unpaired lines: no emphasis
        tops = page.evaluate(
            """() => ['before', 'after'].map((id) => [...document.querySelectorAll(`#scroll-${id} .row`)]
                     .filter((r) => r.matches('.del, .ins')).map((r) => r.getBoundingClientRect().top))"""
        )
        assert tops[0][:3] == tops[1]  # the i-th removed and the i-th added line face each other
        page.get_by_role("button", name="Stacked").click()  # Stacked keeps one line per row
        expect(before.locator(".row.fill")).to_have_count(3)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_indentation_change_is_a_mark_and_changed_text_is_underlined(page, tmp_path, theme):
    body = ["t1 = pl.add(a, a)", "t2 = pl.mul(t1, t1)", "return t2"]
    scoped = ["with pl.scope():", "    t1 = pl.add(a, a)", "    t2 = pl.mul(t1, t3)", "return t2"]
    report = build_report(
        write_dump(tmp_path / "passes_dump", [("frontend", program({"k": body})), ("Scope", program({"k": scoped}))]),
        tmp_path / "r.html",
        "--no-cache",
        "-q",
    )
    page.emulate_media(color_scheme=theme)
    with viewing(page, report):
        after = pane(page, "After")
        reindented = after.locator(".row.ins", has_text="t1 = pl.add(a, a)")
        expect(reindented.locator(".indent-mark")).to_have_count(1)
        expect(reindented.locator(".em")).to_have_count(0)  # no block over the blanks
        changed = after.locator(".row.ins", has_text="t2 = pl.mul").locator(".em")
        expect(changed).to_have_text("t3")
        style = changed.evaluate(
            """(em) => { const row = em.closest('.row'), cs = getComputedStyle(em);
                   return [cs.textDecorationLine, cs.textDecorationColor, getComputedStyle(row).backgroundColor,
                           getComputedStyle(document.body).backgroundColor]; }"""
        )
        line, underline, row_bg, page_bg = style
        assert line == "underline"
        assert contrast(parse(underline), over(parse(row_bg), parse(page_bg))) >= 3.0
        page.get_by_role("checkbox", name="Highlight indentation changes").check()
        expect(reindented.locator(".em")).to_have_count(1)  # the option highlights the indentation
        page.reload()
        expect(page.get_by_role("checkbox", name="Highlight indentation changes")).to_be_checked()


def parse(colour: str) -> tuple[float, float, float, float]:
    """rgb(...) / rgba(...) as (r, g, b, alpha)."""
    parts = [float(x) for x in colour[colour.index("(") + 1 : -1].replace("/", ",").split(",")]
    return (*parts[:3], parts[3] if len(parts) > 3 else 1.0)


def over(top, bottom):
    alpha = top[3]
    return tuple(top[i] * alpha + bottom[i] * (1 - alpha) for i in range(3)) + (1.0,)


def contrast(a, b) -> float:
    def luminance(c):
        channels = [x / 255 for x in c[:3]]
        lin = [x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4 for x in channels]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_bidi_and_invisible_characters_show_as_chips_and_copy_exactly(browser, tmp_path):
    body = ["t1 = pl.add(a, a)", "return t1"]
    sneaky = ['name = "user\u202etxt.exe"  # \u200bhidden', "t1 = pl.add(a, a)\u2066", "return t1"]
    report = build_report(
        write_dump(tmp_path / "passes_dump", [("frontend", program({"k": body})), ("Sneak", program({"k": sneaky}))]),
        tmp_path / "r.html",
        "--no-cache",
        "-q",
    )
    context = browser.new_context(
        viewport={"width": 1280, "height": 720}, permissions=["clipboard-read", "clipboard-write"]
    )
    try:
        page = context.new_page()
        with viewing(page, report):
            after = pane(page, "After")
            for code in ("U+202E", "U+200B", "U+2066"):
                chip = after.locator(f'.ctl[data-cp="{code}"]')
                expect(chip).to_be_visible()
                assert chip.evaluate("(c) => getComputedStyle(c).unicodeBidi") == "isolate"
            # The text after the override still reads left to right.
            boxes = after.locator(".row.ins", has_text="name").evaluate(
                """(row) => { const code = row.querySelector('.code'), ctl = code.querySelector('.ctl');
                       const range = document.createRange();
                       range.selectNodeContents(ctl.nextSibling);
                       return [ctl.getBoundingClientRect().right, range.getBoundingClientRect().left]; }"""
            )
            assert boxes[1] >= boxes[0] - 1
            page.evaluate("() => navigator.clipboard.writeText('(nothing copied)')")
            page.get_by_role("region", name="After snapshot").get_by_role("button", name="Copy full source").click()
            page.wait_for_function("() => navigator.clipboard.readText().then(t => t !== '(nothing copied)')")
            assert page.evaluate("() => navigator.clipboard.readText()") == program({"k": sneaky})
    finally:
        context.close()


def test_a_huge_line_shows_its_change_and_its_start_with_few_nodes(page, tmp_path):
    tokens = ", ".join(str(i) for i in range(100_000))  # each number a coloured span, were it painted
    line = f"y = f({tokens})"
    edited = line.replace(" 50000,", " b50000,")
    blob = "s = '" + "x" * 300_000 + "'"
    snapshots = [
        ("frontend", program({"k": [line, "return y"]})),
        ("Rename", program({"k": [edited, "return y"]})),
        ("Blob", program({"k": [edited, blob, "return y"]})),
    ]
    report = build_report(write_dump(tmp_path / "passes_dump", snapshots), tmp_path / "r.html", "--no-cache", "-q")
    with viewing(page, report):
        after = pane(page, "After")
        expect(after.locator(".row.ins .em")).to_have_text("b50000")  # folded around, far into the line
        expect(after.locator(".row.ins .em")).to_be_in_viewport()
        assert page.evaluate("() => document.querySelectorAll('*').length") < 5_000
        pass_button(page, 2).click()
        more = after.locator(".row.ins .chip.huge")
        length = len("        " + blob)
        expect(more).to_have_attribute("data-more", f"+{length - 2_000:,} chars")  # it shows 2,000
        more.click()
        expect(more).to_have_attribute("data-more", f"+{length - 20_000:,} chars")  # ten times as many
        assert page.evaluate("() => document.querySelectorAll('*').length") < 50_000


def test_a_chip_pressed_while_its_row_is_drawn_again_still_opens(page, tmp_path):
    """As a pass settles, its rows are built again (the overscan, the wrap check): a press on a chip and its
    release on the chip drawn in its place made no click, so the reader's click was lost (seen under load)."""
    blob = "s = '" + "x" * 300_000 + "'"
    snapshots = [("frontend", program({"k": ["return y"]})), ("Blob", program({"k": [blob, "return y"]}))]
    report = build_report(write_dump(tmp_path / "passes_dump", snapshots), tmp_path / "r.html", "--no-cache", "-q")
    with viewing(page, report):
        more = pane(page, "After").locator(".row.ins .chip.huge")
        length = len("        " + blob)
        expect(more).to_have_attribute("data-more", f"+{length - 2_000:,} chars")
        more.hover()
        page.mouse.down()
        more.evaluate("(chip) => { const row = chip.closest('.row'); row.replaceWith(row.cloneNode(true)); }")
        page.mouse.up()
        expect(more).to_have_attribute("data-more", f"+{length - 20_000:,} chars")

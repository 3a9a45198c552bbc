"""`Wrap lines` shows a changed line whole (issue 28): the inline folding chips never cut a renumbered
MLIR line into fragments once the reader asked for wrapped lines. Real report, real headless Chromium."""

from __future__ import annotations

from browser_support import build_report, expect, open_report, program, write_dump

LONG = "y = pl.call(" + ", ".join(f"%arg{k}" for k in range(40)) + ")"


def test_wrap_lines_shows_a_long_changed_line_whole_without_chips(browser, tmp_path):
    before = program({"kernel": [LONG.replace("%arg7,", "%arg7b,"), "return y"]})
    after = program({"kernel": [LONG.replace("%arg30,", "%extracted_slice,"), "return y"]})
    dump = write_dump(tmp_path / "prog", [("frontend", before), ("Renumber", after)])
    report = build_report(dump, tmp_path / "r.html", "--cache-dir", str(tmp_path / "cache"))
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    try:
        log = open_report(page, report)
        row = page.locator("#scroll-after .row").filter(has_text="pl.call")
        expect(row.locator(".chip.fold").first).to_be_visible()  # folded around its change at first
        page.get_by_role("button", name="Wrap lines").click()
        expect(row.locator(".chip")).to_have_count(0)
        expect(row.locator(".code")).to_contain_text("%arg29, %extracted_slice, %arg31")
        expect(page.locator("#scroll-before .row").filter(has_text="pl.call").locator(".chip")).to_have_count(0)
        log.assert_clean()
    finally:
        page.close()

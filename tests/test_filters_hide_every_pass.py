"""Filters that hide every pass (issue 28): the panes clear and say so, and nothing that acts on a pass
stays enabled; a filter cleared brings the pass back. Real report, real headless Chromium."""

from __future__ import annotations

from browser_support import build_report, expect, pass_button, program, viewing, write_dump

PASS_CONTROLS = ("copy-before", "copy-after", "fn-select", "from-select", "expand-all", "wrap-toggle")


def test_hiding_every_pass_clears_the_panes_and_disables_copy(page, tmp_path):
    base = program({"kernel": ["x = pl.add(a, a)", "return x"]})
    edited = program({"kernel": ["x = pl.mul(a, a)", "return x"]})
    dump = write_dump(tmp_path / "prog", [("frontend", base), ("Edit", edited), ("Noop", edited)])
    report = build_report(dump, tmp_path / "r.html", "--cache-dir", str(tmp_path / "cache"))
    with viewing(page, report):
        expect(pass_button(page, 1)).to_be_visible()
        page.locator("#filter-changed").uncheck()
        page.locator("#filter-noop").uncheck()
        expect(page.get_by_role("region", name="After snapshot")).to_be_hidden()
        expect(page.locator("#panes-empty")).to_be_visible()
        expect(page.locator("#panes-empty")).to_contain_text("hide every pass")
        expect(page.locator("#pass-title")).to_have_text("No pass shown")
        for control in PASS_CONTROLS:
            expect(page.locator(f"#{control}")).to_be_disabled()
        page.locator("#filter-changed").check()
        expect(page.get_by_role("region", name="After snapshot")).to_be_visible()
        expect(page.locator("#panes-empty")).to_be_hidden()
        expect(page.locator("#copy-after")).to_be_enabled()
        expect(page.get_by_role("region", name="After snapshot")).to_contain_text("pl.mul")

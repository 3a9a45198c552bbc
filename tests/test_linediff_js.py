"""templates/linediff.js (IRTraceDiff, the diff behind `Compare with`) run in real Chromium."""

from __future__ import annotations

import pytest
from conftest import REPO
from harness import launch_chromium

LINEDIFF = (REPO / "templates" / "linediff.js").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def js_page():
    """A blank page with IRTraceDiff loaded."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        page = browser.new_page()
        page.add_script_tag(content=LINEDIFF + "\nwindow.IRTraceDiff = IRTraceDiff;" + SNAPSHOTS)
        yield page
        browser.close()


# Snapshots as the viewer builds them: interned line ids, a last line without "\n" kept apart.
SNAPSHOTS = """
window.snapshotPair = (a, b, aEol, bEol) => {
  const interned = new Map();
  const id = (s) => {
    if (!interned.has(s)) interned.set(s, interned.size);
    return interned.get(s);
  };
  const snap = (lines, eol) => {
    const last = lines.length - 1;
    return { lines, eol, fns: null, ids: Int32Array.from(lines, (l, i) => id((i === last && !eol ? '\\0' : '') + l)) };
  };
  return [snap(a, aEol), snap(b, bEol)];
};
"""


def js_diff(page, a: list[str], b: list[str], key_script: str | None = None, a_eol=True, b_eol=True) -> list:
    """Hunks from IRTraceDiff.diffSnapshots; `key_script` is the source of a lineKey function."""
    return page.evaluate(
        """([a, b, keySrc, aEol, bEol]) => {
            const [A, B] = snapshotPair(a, b, aEol, bEol);
            return IRTraceDiff.diffSnapshots(A, B, keySrc ? { lineKey: eval(keySrc) } : {});
        }""",
        [a, b, key_script, a_eol, b_eol],
    )


def test_line_key_option_makes_lines_with_equal_keys_unchanged(js_page):
    before = ["x = pl.add(a, b)", "y = pl.mul(x, c)", "return y"]
    after = ["x__ssa_v0 = pl.add(a, b)", "y = pl.mul(x__ssa_v0, d)", "return y"]
    assert [h[:4] for h in js_diff(js_page, before, after)] == [[0, 2, 0, 2]]
    keyed = js_diff(js_page, before, after, "(line) => line.replaceAll('__ssa_v0', '')")
    assert [h[:4] for h in keyed] == [[1, 2, 1, 2]]

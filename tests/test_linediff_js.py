"""templates/linediff.js (IRTraceDiff, the diff behind `Compare with`) run in real Chromium."""

from __future__ import annotations

import json

import pytest
from conftest import REPO, real_dumps
from harness import launch_chromium

from ir_trace.diff import diff_snapshots, hunks_to_json, split_lines
from ir_trace.functions import slice_functions

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


def python_hunks(a: list[str], b: list[str], a_eol=True, b_eol=True, fns=(None, None)) -> list:
    return json.loads(json.dumps(hunks_to_json(diff_snapshots(a, b, a_eol, b_eol, *fns), b)))


def js_snapshot_hunks(page, a, b, a_eol, b_eol, fns_a, fns_b) -> list:
    return page.evaluate(
        """([a, b, aEol, bEol, fnsA, fnsB]) => {
            const [A, B] = snapshotPair(a, b, aEol, bEol);
            A.fns = fnsA; B.fns = fnsB;
            return IRTraceDiff.diffSnapshots(A, B);
        }""",
        [a, b, a_eol, b_eol, fns_a, fns_b],
    )


def functions_of(lines: list[str]):
    found = slice_functions(lines).functions
    return None if found is None else [[f.key, f.start, f.end] for f in found]


@pytest.mark.parametrize("dump", real_dumps(), ids=lambda p: p.parent.name)
def test_same_hunks_pairs_ranges_and_moves_as_python_on_real_samples(js_page, dump):
    files = sorted(dump.glob("*.py"), key=lambda p: int(p.name.split("_")[0]))
    texts = [f.read_text(encoding="utf-8") for f in files]
    compared = 0
    for before, after in zip(texts, texts[1:]):
        if before == after:
            continue
        (a, a_eol), (b, b_eol) = split_lines(before), split_lines(after)
        fns_a, fns_b = functions_of(a), functions_of(b)
        expected = python_hunks(a, b, a_eol, b_eol, (fns_a, fns_b))
        assert js_snapshot_hunks(js_page, a, b, a_eol, b_eol, fns_a, fns_b) == expected
        compared += 1
    assert compared > 0

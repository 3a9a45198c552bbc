"""What the page shows of issue 10's diff: the emphasis on screen is the one computed, moved
lines link both ways, a lost final newline and an added byte order mark are said in words."""

from __future__ import annotations

import re

import pytest
from browser_support import build_report, expect, open_report, pane, pass_button, write_dump
from conftest import real_dumps

from ir_trace.diffcore.linediff import diff_snapshots, split_lines

VIEWPORT = {"width": 1280, "height": 800}

FRONTEND = """\
import pypto.language as pl

@pl.program
class Demo:
    @pl.function
    def kernel(self, x: pl.Tensor[[16, 128], pl.FP32]):
        t0: pl.Tile[[16, 128], pl.FP32, pl.Mem.Vec] = pl.load(x, [0, 0], [16, 128])
        t1: pl.Tile[[16, 128], pl.FP32, pl.Mem.Vec] = pl.exp(t0)
        t2: pl.Tile[[16, 128], pl.FP32, pl.Mem.Vec] = pl.add(t0, t1)
        out = pl.store(t2, [0, 0], x)
        return out
"""
ANNOTATED = FRONTEND.replace("pl.Mem.Vec]", "pl.MemRef(mem_vec_0, pl.const(0, pl.INT64), 8192), pl.Mem.Vec]")
MOVE_FROM = next(line for line in ANNOTATED.splitlines(keepends=True) if "pl.exp(t0)" in line)
REORDERED = ANNOTATED.replace(MOVE_FROM, "").replace("        out = pl.store", MOVE_FROM + "        out = pl.store")
NO_NEWLINE = REORDERED.rstrip("\n")
WITH_BOM = "\ufeff" + NO_NEWLINE


@pytest.fixture
def view(browser, tmp_path):
    dump = write_dump(
        tmp_path / "demo" / "passes_dump",
        [
            ("frontend", FRONTEND),
            ("InitMemRef", ANNOTATED),
            ("Reorder", REORDERED),
            ("DropNewline", NO_NEWLINE),
            ("AddBom", WITH_BOM),
        ],
    )
    report = build_report(dump, tmp_path / "report.html", "--cache-dir", str(tmp_path / "cache"))
    context = browser.new_context(viewport=VIEWPORT, color_scheme="light")
    page = context.new_page()
    page.set_default_timeout(10_000)
    log = open_report(page, report)
    yield page, dump
    log.assert_clean()
    context.close()


def shown_emphasis(page, which: str) -> dict[int, list[str]]:
    """Line number -> emphasised pieces of every changed row the pane has rendered."""
    rows = page.evaluate(
        """(id) => [...document.querySelectorAll('#scroll-' + id + ' .row.del, #scroll-' + id + ' .row.ins')]
            .map((row) => [Number(row.querySelector('.ln').textContent.replace(/\\D/g, '')),
                           [...row.querySelectorAll('.em')].map((e) => e.textContent)])""",
        which,
    )
    return {line: pieces for line, pieces in rows}


def computed_emphasis(before: str, after: str) -> tuple[dict[int, list[str]], dict[int, list[str]]]:
    """The same, from ir_trace.diffcore.linediff (1-based lines; ranges in UTF-16 units, these texts are ASCII)."""
    (a, a_eol), (b, b_eol) = split_lines(before), split_lines(after)
    removed, added = {}, {}
    for hunk in diff_snapshots(a, b, a_eol, b_eol):
        for p in hunk.pairs:
            removed[p.a + 1] = [a[p.a][s:e] for s, e in p.a_ranges]
            added[p.b + 1] = [b[p.b][s:e] for s, e in p.b_ranges]
    return removed, added


def merged(pieces: list[str]) -> str:
    return "|".join(pieces)


def assert_screen_matches(page, removed: dict, added: dict) -> int:
    """Every rendered paired row shows exactly the computed pieces (adjacent spans joined) and
    unpaired rows none; returns how many paired rows were compared."""
    compared = 0
    for which, computed in (("before", removed), ("after", added)):
        for line, pieces in shown_emphasis(page, which).items():
            assert "".join(pieces) == "".join(computed.get(line, [])), (which, line)
            compared += line in computed
    return compared


def test_the_emphasis_on_screen_is_the_one_computed(view):
    page, _dump = view
    pass_button(page, 1).click()
    expect(pane(page, "After").locator(".row.ins .em").first).to_be_visible()
    removed, added = computed_emphasis(FRONTEND, ANNOTATED)
    assert set(merged(p) for p in added.values()) == {"pl.MemRef(mem_vec_0, pl.const(0, pl.INT64), 8192), "}
    assert assert_screen_matches(page, removed, added) == 2 * len(added)


def test_a_moved_line_links_both_ways(view):
    page, _dump = view
    pass_button(page, 2).click()
    moved_to = pane(page, "Before").get_by_role("button", name=re.compile(r"^moved to line \d+$"))
    moved_from = pane(page, "After").get_by_role("button", name=re.compile(r"^moved from line \d+$"))
    expect(moved_to).to_have_count(1)
    expect(moved_from).to_have_count(1)
    before_line = int(pane(page, "Before").locator(".row.moved .ln").inner_text())
    after_line = int(pane(page, "After").locator(".row.moved .ln").inner_text())
    expect(moved_to).to_have_text(f"moved to line {after_line}")
    expect(moved_from).to_have_text(f"moved from line {before_line}")
    expect(pane(page, "After").locator(".row.moved")).to_contain_text("pl.exp(t0)")
    moved_from.click()
    expect(pane(page, "Before").locator(".row.moved")).to_be_in_viewport()


def test_a_lost_final_newline_is_said(view):
    page, _dump = view
    pass_button(page, 3).click()
    expect(pane(page, "After").locator(".row.ins .note")).to_have_text(["No newline at end of file"])
    expect(pane(page, "Before").locator(".note")).to_have_count(0)


def test_an_added_byte_order_mark_is_said(view):
    page, _dump = view
    pass_button(page, 4).click()
    expect(pane(page, "After").locator(".row.ins .note")).to_contain_text(["byte order mark added"])


@pytest.mark.parametrize("dump", real_dumps()[-1:], ids=lambda p: p.parent.name)
def test_real_sample_emphasis_on_screen_is_the_one_computed(browser, tmp_path, dump):
    """Every pass of a real dump: the rows the page renders carry exactly the computed emphasis."""
    report = build_report(dump, tmp_path / "real.html", "--cache-dir", str(tmp_path / "cache"))
    context = browser.new_context(viewport=VIEWPORT, color_scheme="light")
    page = context.new_page()
    log = open_report(page, report)
    page.get_by_role("checkbox", name="Highlight indentation changes").check()  # emphasis as computed
    files = sorted(dump.glob("*.py"), key=lambda p: int(p.name.split("_")[0]))
    texts = [f.read_text(encoding="utf-8") for f in files]
    checked = 0
    for k in range(1, len(texts)):
        if texts[k] == texts[k - 1]:
            continue
        removed, added = computed_emphasis(texts[k - 1], texts[k])
        if not added:
            continue
        pass_button(page, k).click()
        expect(page.get_by_role("region", name="After snapshot")).to_contain_text(files[k].name)
        checked += assert_screen_matches(page, removed, added)
    assert checked > 20
    log.assert_clean()
    context.close()

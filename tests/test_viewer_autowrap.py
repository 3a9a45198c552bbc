"""Browser tests of change-dense lines wrapping on their own: without Wrap, a changed line whose
changes cannot all share the pane even folded (a `def` whose sixteen parameters are each renamed)
is shown wrapped, both sides on shared rows, while its neighbours stay on one row each.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from browser_support import build_report, expect, open_report, pane, program, write_dump

PARAMS = 16
TILE = "pl.Tile[[64, 128], pl.BF16, pl.MemRef(pl.MemorySpace.Vec, 0, 32768), pl.Mem.Vec]"


def kernel(renamed: bool, far_op: str) -> str:
    """A helper whose parameters are all renamed in the pass, between long unchanged statements,
    and a statement whose one change sits far right (folding brings that one into sight)."""
    suffix = "__ssa_v0" if renamed else ""
    params = ", ".join(f"arg_{i}{suffix}: {TILE}" for i in range(PARAMS))
    long_line = f"t{{i}}: {TILE} = pl.add(x, y)"
    body = [long_line.format(i=i) for i in range(4)]
    body.append(f"t9: {TILE} = {far_op}(t0, t1)")
    body.append("return t9")
    return program({"main": body}).replace("class Program:", f"class Program:\n    def helper({params}): pass", 1)


@pytest.fixture(scope="module")
def dense_report(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("dense") / "Program"
    dump = write_dump(root / "passes_dump", [("frontend", kernel(False, "pl.add")), ("Ssa", kernel(True, "pl.mul"))])
    return build_report(dump, root / "report.html", "--no-cache", "-q")


@pytest.fixture
def dense_page(page, dense_report):
    page.set_viewport_size({"width": 1280, "height": 800})
    log = open_report(page, dense_report, "#pass=1")
    yield page
    log.assert_clean()


ROWS = """(id) => {
  const s = document.getElementById('scroll-' + id), box = s.getBoundingClientRect();
  const code = s.querySelector('.row:not(.fold) .code');
  const from = code.getBoundingClientRect().left - 1, to = box.left + s.clientWidth + 1;
  return [...s.querySelectorAll('.row')].map((row) => {
    const ems = [...row.querySelectorAll('.em')].map((e) => e.getBoundingClientRect());
    return {
      text: row.querySelector('.code') ? row.querySelector('.code').textContent : '',
      lines: row.querySelectorAll('.cont').length + 1, top: row.offsetTop, height: row.offsetHeight,
      ems: ems.length, emsInSight: ems.filter((r) => r.left >= from && r.right <= to).length,
      wrapped: row.classList.contains('wrapped'), left: s.scrollLeft,
    };
  });
}"""


def rows(page, which: str) -> list[dict]:
    return page.evaluate(ROWS, which)


def test_a_change_dense_line_wraps_with_every_change_in_sight_and_its_neighbours_do_not(dense_page):
    page = dense_page
    expect(pane(page, "After").locator(".row.ins .em").first).to_be_visible()
    before, after = rows(page, "before"), rows(page, "after")
    # Both panes keep their rows aligned: the same tops and heights row by row.
    assert [(r["top"], r["height"]) for r in before] == [(r["top"], r["height"]) for r in after]
    dense = [r for r in after if "def helper" in r["text"]]
    assert len(dense) == 1 and dense[0]["wrapped"] and dense[0]["lines"] > 2
    assert dense[0]["height"] == 20 * dense[0]["lines"]
    assert dense[0]["ems"] >= PARAMS and dense[0]["emsInSight"] == dense[0]["ems"], dense[0]
    partner = [r for r in before if "def helper" in r["text"]]
    assert partner[0]["wrapped"] and partner[0]["height"] == dense[0]["height"]
    # The far-right change folds into sight on one row; the unchanged long statements stay one row.
    far = [r for r in after if "t9:" in r["text"]]
    assert not far[0]["wrapped"] and far[0]["height"] == 20 and far[0]["emsInSight"] == far[0]["ems"] > 0
    others = [r for r in after if r["text"].strip() and "def helper" not in r["text"]]
    assert others and all(not r["wrapped"] and r["height"] == 20 for r in others)
    assert all(r["left"] == 0 for r in after)
    # Copy still gives the line exactly, without the continuation marks.
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.get_by_role("region", name="After snapshot").get_by_role("button", name="Copy full source").click()
    copied = page.evaluate("() => navigator.clipboard.readText()")
    assert kernel(True, "pl.mul").splitlines()[5] in copied.splitlines()
    assert "\u21aa" not in copied


def test_the_wrap_toggle_and_expand_all_still_work(dense_page):
    page = dense_page
    wrap = page.get_by_role("button", name="Wrap lines")
    wrap.click()
    expect(wrap).to_have_attribute("aria-pressed", "true")
    expect(pane(page, "After")).to_have_class(re.compile(r"\bwrap\b"))
    page.get_by_role("button", name="Expand all").click()  # whole lines: every long one wraps
    expect(pane(page, "After").locator(".row", has_text="pl.add(x, y)").first.locator(".cont").first).to_be_attached()
    after = rows(page, "after")
    assert all(r["lines"] > 1 for r in after if "pl.add(x, y)" in r["text"])
    assert [(r["top"], r["height"]) for r in rows(page, "before")] == [(r["top"], r["height"]) for r in after]
    wrap.click()  # Expand all without Wrap: whole lines on one row each, the dense one too
    expect(wrap).to_have_attribute("aria-pressed", "false")
    expect(pane(page, "After").locator(".row.wrapped")).to_have_count(0)
    assert all(r["lines"] == 1 for r in rows(page, "after"))
    page.get_by_role("button", name="Collapse all").click()  # folded again: the dense line wraps again
    expect(pane(page, "After").locator(".row.wrapped", has_text="def helper")).to_have_count(1)
    assert all(r["lines"] == 1 for r in rows(page, "after") if "pl.add(x, y)" in r["text"])


def test_bracket_keys_walk_the_changes_across_a_wrapped_line(dense_page):
    page = dense_page
    group = page.get_by_role("group", name="Changes in this pass")
    expect(group).to_contain_text("change 1 of 2")
    page.locator("body").click(position={"x": 5, "y": 780})
    page.keyboard.press("]")
    expect(group).to_contain_text("change 2 of 2")
    expect(pane(page, "After").locator(".row.ins", has_text="t9:")).to_be_in_viewport()
    page.keyboard.press("[")
    expect(group).to_contain_text("change 1 of 2")
    expect(pane(page, "After").locator(".row.wrapped", has_text="def helper")).to_be_in_viewport()


@pytest.fixture(scope="module")
def deep_report(tmp_path_factory) -> Path:
    """A pass whose dense line comes after 120 changed rows: past the rows a pass switch checks at once."""

    def text(after: bool) -> str:
        body = [f"s{i} = pl.{'mul' if after else 'add'}(a, b)" for i in range(120)]
        statements = "".join(f"    {line}\n" for line in body)
        return kernel(after, "pl.add").replace("class Program:\n", "class Program:\n" + statements, 1)

    root = tmp_path_factory.mktemp("deep") / "Program"
    dump = write_dump(root / "passes_dump", [("frontend", text(False)), ("Deep", text(True))])
    return build_report(dump, root / "report.html", "--no-cache", "-q")


def test_a_dense_line_below_the_first_screen_wraps_once_scrolled_to(page, deep_report):
    page.set_viewport_size({"width": 1280, "height": 800})
    log = open_report(page, deep_report, "#pass=1")
    # scrolled to at once: rows not yet checked in the background are checked as they come into sight
    page.evaluate("() => { const s = document.getElementById('scroll-after'); s.scrollTop = s.scrollHeight; }")
    dense = pane(page, "After").locator(".row.wrapped", has_text="def helper")
    expect(dense).to_be_in_viewport()
    before, after = rows(page, "before"), rows(page, "after")
    assert [(r["top"], r["height"]) for r in before] == [(r["top"], r["height"]) for r in after]
    row = next(r for r in after if "def helper" in r["text"])
    assert row["height"] == 20 * row["lines"] > 40 and row["emsInSight"] == row["ems"] >= PARAMS
    assert not any(r["wrapped"] for r in after if r["text"].lstrip().startswith("s"))
    log.assert_clean()

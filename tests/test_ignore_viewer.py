"""Ignore modes and Follow a value in the report, in real Chromium on the real samples.

Each mode is a checkbox named "Ignore ..."; with a mode on, lines equal after normalisation
are unchanged: the sidebar counts, no-op badges, folds and overview follow; off, the exact
diff is back. The issue's table must come out of the page.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from browser_support import REPO, SAMPLES, build_report, expect, open_report, overview_bar, pass_button, write_dump
from conftest import real_dumps

from ir_trace.noise.normalize import memref_spans

LLAMA = SAMPLES / "real" / "llama_mini_explicit" / "passes_dump"
QWEN3 = SAMPLES / "real" / "qwen3_decode_explicit" / "passes_dump"
SETTLED = "() => document.getElementById('pass-nav').dataset.ignoring === 'done'"
# pass: (as printed, ignoring SSA versions, ignoring memory annotations), + and - lines together
TABLE = {4: (324, 0, 324), 32: (405, 405, 105), 34: (108, 108, 32), 35: (78, 78, 0)}


@pytest.fixture(scope="module")
def llama(tmp_path_factory) -> Path:
    return build_report(LLAMA, tmp_path_factory.mktemp("llama") / "llama.html")


def counts(page, k: int) -> tuple[int, int, bool]:
    """(+, −, no-op badge) of sidebar entry k."""
    button = pass_button(page, k)
    if not button.count():  # a run of no-op passes (the ignore modes make them) is one row: open it
        closed = page.locator('#pass-list button[aria-expanded="false"]')
        while closed.count():
            closed.first.click()
    plus = int(button.locator(".plus").inner_text().lstrip("+"))
    minus = int(button.locator(".minus").inner_text().lstrip("\u2212"))
    return plus, minus, button.locator(".badge.noop").count() == 1


def click_name(cell, name: str) -> None:
    """A real mouse click in the middle of the first occurrence of `name` in a code cell."""
    box = cell.evaluate(
        """(cell, name) => {
             const at = cell.textContent.indexOf(name), walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
             let offset = 0;
             for (let node = walker.nextNode(); node; node = walker.nextNode()) {
               if (at < offset + node.data.length) {
                 const range = document.createRange();
                 range.setStart(node, at - offset);
                 range.setEnd(node, Math.min(node.data.length, at - offset + 2));
                 const r = range.getBoundingClientRect();
                 return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
               }
               offset += node.data.length;
             }
             return null;
           }""",
        name,
    )
    cell.page.mouse.click(box["x"], box["y"])


def outlined(region) -> str:
    return "".join(region.locator(".follow").all_inner_texts())


def toggle(page, label: str, on: bool = True) -> None:
    box = page.get_by_label(label, exact=True)
    box.check() if on else box.uncheck()
    page.wait_for_function(SETTLED)


@pytest.mark.samples
def test_issue_table_comes_out_of_the_page(page, llama):
    log = open_report(page, llama)
    exact = {k: sum(counts(page, k)[:2]) for k in TABLE}
    toggle(page, "Ignore SSA versions")
    ssa = {k: sum(counts(page, k)[:2]) for k in TABLE}
    assert counts(page, 4) == (0, 0, True)
    toggle(page, "Ignore SSA versions", on=False)
    toggle(page, "Ignore memory annotations")
    memref = {k: sum(counts(page, k)[:2]) for k in TABLE}
    assert counts(page, 35) == (0, 0, True)
    assert {k: (exact[k], ssa[k], memref[k]) for k in TABLE} == TABLE
    log.assert_clean()


@pytest.mark.samples
def test_a_rename_only_pass_reads_no_op_when_ignoring_ssa_and_everything_folds(page, llama):
    log = open_report(page, llama, "#pass=4")
    after = page.get_by_role("region", name="After snapshot")
    expect(after.locator(".row.ins").first).to_be_visible()
    toggle(page, "Ignore SSA versions")
    badge = pass_button(page, 4).locator(".badge.noop")
    expect(badge).to_have_text("no-op")
    assert badge.get_attribute("title").startswith("no-op when ignoring SSA versions")
    expect(page.locator("#ignore-note")).to_contain_text("No-op when ignoring SSA versions")
    expect(after.locator(".row.ins")).to_have_count(0)
    expect(after.locator(".fold-btn")).to_have_count(1)  # the whole file folds like context
    expect(page.locator("#report-sub")).to_contain_text("when ignoring SSA versions")
    assert overview_bar(page, 4)[0].endswith(": +0 \u22120")  # the overview chart follows
    page.get_by_role("checkbox", name="No-op").uncheck()  # the filters follow
    expect(pass_button(page, 4).locator("xpath=..")).to_be_hidden()
    page.get_by_role("checkbox", name="No-op").check()
    toggle(page, "Ignore SSA versions", on=False)  # off: the exact diff again
    assert counts(page, 4) == (162, 162, False)
    pass_button(page, 4).click()  # the filter had moved the selection away
    expect(after.locator(".row.ins").first).to_be_visible()
    expect(page.locator("#ignore-note")).to_be_hidden()
    log.assert_clean()


@pytest.mark.samples
def test_modes_are_in_the_fragment_and_persist(page, context, llama):
    log = open_report(page, llama, "#pass=32")
    toggle(page, "Ignore memory annotations")
    assert "ignore=memref" in page.evaluate("location.hash")
    other = context.new_page()  # same browser profile, no fragment: the stored modes come back
    open_report(other, llama)
    other.wait_for_function(SETTLED)
    expect(other.get_by_label("Ignore memory annotations", exact=True)).to_be_checked()
    assert counts(other, 35)[2]
    other.close()
    linked = context.new_page()  # a fragment wins over what is stored
    open_report(linked, llama, "#pass=4&ignore=ssa")
    linked.wait_for_function(SETTLED)
    expect(linked.get_by_label("Ignore SSA versions", exact=True)).to_be_checked()
    expect(linked.get_by_label("Ignore memory annotations", exact=True)).not_to_be_checked()
    assert counts(linked, 4) == (0, 0, True)
    # the note above the panes counts under the link's modes too, not as printed
    expect(linked.get_by_text("No-op when ignoring SSA versions: every line it changed")).to_be_visible()
    linked.close()
    log.assert_clean()


@pytest.mark.samples
def test_a_report_built_with_ignore_opens_with_the_modes_on(page, tmp_path):
    report = build_report(LLAMA, tmp_path / "r.html", "--ignore", "ssa,memref")
    log = open_report(page, report)
    page.wait_for_function(SETTLED)
    expect(page.get_by_label("Ignore SSA versions", exact=True)).to_be_checked()
    expect(page.get_by_label("Ignore memory annotations", exact=True)).to_be_checked()
    expect(page.get_by_label("Ignore whitespace", exact=True)).not_to_be_checked()
    # the first pass that changes something besides renaming, not ConvertToSSA
    expect(pass_button(page, 14)).to_have_attribute("aria-current", "true")
    assert counts(page, 4)[2] and counts(page, 35)[2]
    toggle(page, "Ignore SSA versions", on=False)  # off although the report starts on: the link says so
    assert "ignore=memref" in page.evaluate("location.hash")
    toggle(page, "Ignore memory annotations", on=False)
    assert "ignore=&" in page.evaluate("location.hash") + "&"
    log.assert_clean()


def test_whitespace_and_regex_modes(page, tmp_path):
    body = "    def f(a):\n        x = pl.add(a, a)\n        return x\n"
    reindented = body.replace("pl.add(a, a)", "pl.add( a,a )")
    numbered = reindented.replace("x", "x_17")
    dump = write_dump(
        tmp_path / "d" / "passes_dump", [("frontend", body), ("Spaces", reindented), ("Renumber", numbered)]
    )
    log = open_report(page, build_report(dump, tmp_path / "r.html"))
    assert counts(page, 1) == (1, 1, False)
    toggle(page, "Ignore whitespace")
    assert counts(page, 1) == (0, 0, True) and counts(page, 2) == (2, 2, False)
    page.get_by_label("Ignore regex pattern").fill(r"(a+)+")  # outside the subset: refused, says why
    expect(page.locator("#ignore-status")).to_contain_text("quantifier on a group")
    expect(page.get_by_label("Ignore regex pattern")).to_have_attribute("aria-invalid", "true")
    page.get_by_label("Ignore regex pattern").fill("x(")  # the position is the unclosed paren's, 1-based
    expect(page.locator("#ignore-status")).to_have_text("Regex not used: unclosed '(' at position 2")
    assert counts(page, 2) == (2, 2, False)
    page.get_by_label("Ignore regex pattern").fill(r"_\d+")  # typing turns the regex mode on
    expect(page.get_by_label("Ignore regex", exact=True)).to_be_checked()
    page.wait_for_function("() => location.hash.includes('ignore-regex=')")
    page.wait_for_function(SETTLED)
    assert counts(page, 2) == (0, 0, True)
    expect(page.locator("#ignore-status")).to_have_text("")
    toggle(page, "Ignore regex", on=False)
    assert counts(page, 2) == (2, 2, False)
    log.assert_clean()


def test_follow_a_value_across_ssa_versions_then_find_it(page, tmp_path):
    v0 = "    def f(a):\n        acc__ssa_v0 = pl.load(a)\n        out = pl.add(acc__ssa_v0, acc__ssa_v0)\n"
    v1 = v0.replace("acc__ssa_v0", "acc__ssa_v1")
    used = v1 + "        other = pl.mul(acc__ssa_v1, a)\n"
    dump = write_dump(tmp_path / "d" / "passes_dump", [("frontend", v0), ("Rename", v1), ("Use", used)])
    log = open_report(page, build_report(dump, tmp_path / "r.html"), "#pass=1")
    before = page.get_by_role("region", name="Before snapshot")
    after = page.get_by_role("region", name="After snapshot")
    click_name(after.locator(".code", has_text="pl.load").first, "acc__ssa_v1")
    expect(page.locator("#follow-status")).to_have_text("Following acc__ssa_v1: 0 in Before \u00b7 3 in After")
    assert outlined(after) == "acc__ssa_v1" * 3  # a name may be split over spans (emphasis, colouring)
    assert outlined(before) == ""
    toggle(page, "Ignore SSA versions")  # now every version of acc is the same value
    expect(page.locator("#follow-status")).to_contain_text("(any SSA version): 3 in Before \u00b7 3 in After")
    page.get_by_role("button", name="Expand all").click()  # the rename folded away as unchanged
    expect(before.locator(".follow").first).to_be_visible()
    assert outlined(before) == "acc__ssa_v0" * 3 and outlined(after) == "acc__ssa_v1" * 3
    page.keyboard.press("v")  # into a Find: its passes get introduced / removed / count marks
    expect(page.locator("#follow-bar")).to_be_hidden()
    expect(page.get_by_role("checkbox", name="Regex", exact=True)).to_be_checked()
    expect(pass_button(page, 2).locator(".find-mark")).to_have_text("count 3 \u2192 4")
    expect(pass_button(page, 1).locator(".find-mark")).to_have_text("")  # a rename keeps the count
    page.keyboard.press("Escape")
    log.assert_clean()


def test_find_counts_what_the_diff_compares_under_the_modes(page, tmp_path):
    """A Find for a versioned name marks the rename pass while the text is read as printed, and not
    once SSA versions are ignored: its counts follow the modes as the diff does."""
    v0 = "    def f(a):\n        acc__ssa_v0 = pl.load(a)\n        out = pl.add(acc__ssa_v0, a)\n"
    dump = write_dump(tmp_path / "d" / "passes_dump", [("frontend", v0), ("Rename", v0.replace("_v0", "_v1"))])
    log = open_report(page, build_report(dump, tmp_path / "r.html"), "#pass=1")
    page.get_by_placeholder("Find in snapshots").fill("acc__ssa_v1")
    mark = pass_button(page, 1).locator(".find-mark")
    expect(mark).to_have_text("introduced (2)")
    toggle(page, "Ignore SSA versions")
    expect(mark).to_have_text("")
    toggle(page, "Ignore SSA versions", on=False)
    expect(mark).to_have_text("introduced (2)")
    log.assert_clean()


def _real_dumps() -> list:
    """Every real sample, by name."""
    return [
        pytest.param(d, id=f"{d.parent.parent.name}/{d.parent.name}") if isinstance(d, Path) else d
        for d in real_dumps()
    ]


@pytest.mark.samples
@pytest.mark.parametrize("dump", _real_dumps())
def test_page_counts_equal_the_json_summary_under_every_mode(page, tmp_path, dump):
    """The page's in-browser keyed diff and the Python summary agree pass by pass."""
    report, summary = tmp_path / "r.html", tmp_path / "s.json"
    build_report(dump, report, "--ignore", "ssa,memref,whitespace", "--json", str(summary))
    expected = {
        p["index"]: [p["ignoring"]["inserted"], p["ignoring"]["deleted"]]
        for p in json.loads(summary.read_text())["passes"]
    }
    log = open_report(page, report)
    page.wait_for_function(SETTLED)
    got = page.evaluate(
        "() => Object.fromEntries(__irTrace.model.entries.slice(1).map((e) => [e.index, [e.inserted, e.deleted]]))"
    )
    assert {int(k): v for k, v in got.items()} == expected
    log.assert_clean()


def test_ignore_scripts_are_inlined_in_order():
    from ir_trace.report.render import REPORT_SCRIPTS

    assert REPORT_SCRIPTS.index("normalize.js") < REPORT_SCRIPTS.index("viewer_model.js")
    assert (REPO / "ir_trace" / "report" / "assets" / "normalize.js").is_file()


@pytest.mark.samples
@pytest.mark.parametrize(
    "args, checkbox",
    [
        (("--ignore", "ssa"), "Ignore SSA versions"),
        (("--ignore", "memref"), "Ignore memory annotations"),
        (("--ignore", "whitespace"), "Ignore whitespace"),
        (("--ignore-regex", r"__ssa_v\d+"), "Ignore regex"),
    ],
    ids=["ssa", "memref", "whitespace", "regex"],
)
def test_each_mode_on_a_real_sample_counts_as_the_json_summary(page, tmp_path, args, checkbox):
    report, summary = tmp_path / "r.html", tmp_path / "s.json"
    build_report(LLAMA, report, *args, "--json", str(summary))
    passes = json.loads(summary.read_text())["passes"]
    log = open_report(page, report)
    page.wait_for_function(SETTLED)
    expect(page.get_by_label(checkbox, exact=True)).to_be_checked()
    for p in passes:
        want = (p["ignoring"]["inserted"], p["ignoring"]["deleted"], not p["ignoring"]["changed"])
        assert counts(page, p["index"]) == want, p["name"]
    assert any(p["changed"] and not p["ignoring"]["changed"] for p in passes) or args[1] == "whitespace"
    toggle(page, checkbox, on=False)  # and off, the exact counts
    assert all(counts(page, p["index"]) == (p["inserted"], p["deleted"], not p["changed"]) for p in passes)
    log.assert_clean()


SHOWN_EMPHASIS = """() => [...document.querySelectorAll('.row.del .code, .row.ins .code')].map((code) => {
  const range = document.createRange();
  return [code.textContent, [...code.querySelectorAll('.em')].map((em) => {
    range.setStart(code, 0);
    range.setEndBefore(em);
    const start = range.toString().length;
    return [start, start + em.textContent.length];
  })];
})"""


def emphasis_inside_memrefs(page) -> tuple[int, int]:
    """(emphasised spans on screen, those lying wholly inside a `pl.MemRef(...)` argument); the
    page's offsets count UTF-16 units, the sample's text is ASCII."""
    shown = page.evaluate(SHOWN_EMPHASIS)
    spans = inside = 0
    for text, ems in shown:
        assert text.isascii()
        memrefs = memref_spans(text)
        spans += len(ems)
        inside += sum(any(s <= start and end <= e for s, e in memrefs) for start, end in ems)
    return spans, inside


@pytest.mark.samples
def test_with_memory_annotations_ignored_no_emphasis_marks_a_memref(page, tmp_path):
    """qwen3 MemoryReuse renames buffers (`mem_vec_20` -> `mem_vec_11`) on lines that also change
    otherwise: as printed those renames are marked; ignoring memory annotations, only the rest
    (llama_mini's MemoryReuse has no such line: what it changes besides memrefs is unpaired)."""
    report = build_report(QWEN3, tmp_path / "qwen3.html")
    log = open_report(page, report, "#pass=34")
    page.get_by_role("button", name="Expand all").click()  # whole lines: offsets read from the row's text
    spans, inside = emphasis_inside_memrefs(page)
    assert inside > 0  # as printed, the renames inside pl.MemRef(...) are marked
    toggle(page, "Ignore memory annotations")
    spans, inside = emphasis_inside_memrefs(page)
    assert spans > 0 and inside == 0
    toggle(page, "Ignore memory annotations", on=False)
    assert emphasis_inside_memrefs(page)[1] > 0  # off: the exact emphasis again
    log.assert_clean()


def test_a_pass_the_modes_do_not_merge_lines_in_is_re_marked_under_them(page, tmp_path):
    """No two lines share a key here, so the page reuses the payload's exact hunks: their
    emphasis must still be recomputed under the mode, not shown as printed."""
    before = "def f(a):\n    t: pl.Tile[[8], pl.FP32, pl.MemRef(mem_vec_1, 0, 64)] = pl.exp(a)\n    return t\n"
    after = before.replace("mem_vec_1", "mem_vec_2").replace("pl.exp", "pl.log")
    dump = write_dump(tmp_path / "demo" / "passes_dump", [("frontend", before), ("MemoryReuse", after)])
    log = open_report(page, build_report(dump, tmp_path / "r.html"), "#pass=1")
    marks = lambda: page.locator(".row.del .em, .row.ins .em").all_inner_texts()  # noqa: E731
    assert sorted(marks()) == ["exp", "log", "mem_vec_1", "mem_vec_2"]
    toggle(page, "Ignore memory annotations")
    assert sorted(marks()) == ["exp", "log"]
    log.assert_clean()

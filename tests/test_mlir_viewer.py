"""A report of MLIR snapshots in real Chromium: symbol ops in the Function selector, `ssa` and `loc` modes.

Most tests here build a PyPTO-named dump holding MLIR text and mark its payload
`kind: "mlir"` with the functions the MLIR slicer finds; the last one reads a real program directory.
"""

from __future__ import annotations

from pathlib import Path

from browser_support import build_report, expect, open_report, pane, pass_button, render_payload, write_dump
from multi_trace_support import MODULE, mlir_header, pypto_passes
from test_ignore_viewer import SETTLED, counts, toggle

from ir_trace.diffcore.linediff import split_lines
from ir_trace.report.render import read_payload
from ir_trace.syntax.functions import slice_functions

FRONTEND = """\
#map = affine_map<(d0) -> (d0 * 2)>
module @m {
  func.func @f(%arg0: index) -> index {
    %0 = affine.apply #map(%arg0)
    %1 = arith.addi %0, %arg0 : index
    return %1 : index
  }
  func.func @g(%arg0: i32) -> i32 {
    return %arg0 : i32
  }
}
"""
# A pass that only renumbers (as after a CSE elsewhere), then one that only moves locations.
RENUMBERED = FRONTEND.replace("%1", "%7").replace("%0", "%3").replace("#map", "#map1")
LOCATED = '#loc1 = loc("k.py":3:1)\n' + RENUMBERED.replace(": index\n", ": index loc(#loc1)\n").replace(
    "  }\n}", '  } loc("k.py":9:1)\n}'
)


def mlir_report(tmp_path: Path) -> Path:
    return render_payload(mlir_payload(tmp_path), tmp_path / "mlir.html")


def mlir_payload(tmp_path: Path) -> dict:
    dump = write_dump(
        tmp_path / "d" / "passes_dump", [("frontend", FRONTEND), ("Renumber", RENUMBERED), ("Locate", LOCATED)]
    )
    payload = read_payload(build_report(dump, tmp_path / "py.html").read_text(encoding="utf-8"))
    texts = [FRONTEND, RENUMBERED, LOCATED]
    for entry, text in zip(payload["passes"], texts):
        if "functions" in entry:
            entry.update(slice_functions(split_lines(text)[0], kind="mlir").to_json())
        entry.pop("ignore_counts", None)  # counted as PyPTO's: the page recounts them as MLIR's
    payload["kind"] = "mlir"
    return payload


def test_mlir_modes_make_renumbering_and_locations_no_ops(page, tmp_path):
    log = open_report(page, mlir_report(tmp_path))
    locations = page.get_by_label("Ignore locations", exact=True)
    expect(locations).to_be_visible()
    expect(page.get_by_text("Ignore memory annotations")).to_be_hidden()  # pl.MemRef is PyPTO's only
    assert "%12" in page.get_by_label("Ignore SSA versions", exact=True).locator("xpath=..").get_attribute("title")
    assert counts(page, 1)[2] is False and counts(page, 2)[2] is False
    toggle(page, "Ignore SSA versions")
    assert counts(page, 1) == (0, 0, True)
    assert counts(page, 2)[2] is False
    toggle(page, "Ignore locations")
    assert counts(page, 2) == (0, 0, True)  # the `#loc1 = loc(...)` table line is no change either
    toggle(page, "Ignore SSA versions", on=False)
    assert counts(page, 1)[2] is False and counts(page, 2) == (0, 0, True)
    page.wait_for_function(SETTLED)
    log.assert_clean()


def test_the_function_selector_lists_symbol_ops_by_path(page, tmp_path):
    log = open_report(page, mlir_report(tmp_path))
    pass_button(page, 1).click()
    select = page.get_by_label("Function", exact=True)
    options = select.locator("option").all_inner_texts()
    assert [o for o in options if "@" in o] == ["@f", "@g"]  # short names, as `method` of `Class.method`
    expect(select.locator("option", has_text="@f")).to_have_attribute("value", "func.func @m::@f")
    select.select_option(label="@f")  # the renumbering pass changed @f only: @g's lines are not shown
    after = page.get_by_role("region", name="After snapshot")
    expect(after).to_contain_text("%3 = affine.apply #map1(%arg0)")
    expect(after).not_to_contain_text("i32")
    log.assert_clean()


def test_a_pypto_report_offers_no_locations_mode(page, tmp_path):
    dump = write_dump(
        tmp_path / "d" / "passes_dump", [("frontend", "def f(a):\n    return a\n"), ("P", "def f(a):\n    return 1\n")]
    )
    log = open_report(page, build_report(dump, tmp_path / "r.html"), "#ignore=loc,ssa")
    expect(page.get_by_label("Ignore SSA versions", exact=True)).to_be_checked()
    expect(page.get_by_label("Ignore locations", exact=True)).to_be_hidden()
    expect(page.get_by_label("Ignore locations", exact=True)).not_to_be_checked()  # a link's `loc` stays off here
    expect(page.get_by_label("Ignore memory annotations", exact=True)).to_be_visible()
    log.assert_clean()


def test_an_mlir_report_leaves_a_links_memref_mode_off(page, tmp_path):
    log = open_report(page, mlir_report(tmp_path), "#ignore=memref,ssa")
    expect(page.get_by_label("Ignore SSA versions", exact=True)).to_be_checked()
    memref = page.locator("#ignore-memref")
    expect(memref).to_be_hidden()
    expect(memref).not_to_be_checked()  # it would do nothing here: neither offered nor applied
    log.assert_clean()


def whole_pipeline(tmp_path: Path, pypto: list) -> Path:
    """A program directory: PyPTO's `pypto` passes, then an MLIR unit whose cse pass only renumbers."""
    program = tmp_path / "prog"
    write_dump(program / "passes_dump", pypto)
    unit = program / "ptoas_passes" / "k" / MODULE
    unit.mkdir(parents=True)
    for name, header, text in [
        ("0_canonicalize.mlir", "Canonicalizer (canonicalize)", FRONTEND),
        ("1_cse.mlir", "CSE (cse)", RENUMBERED),
    ]:
        (unit / name).write_text(f"{mlir_header('After', header)}\n{text}\n\n", encoding="utf-8")
    return program


def test_ssa_ignores_mlir_numbering_in_the_mlir_trace_of_a_whole_pipeline_report(page, tmp_path):
    """A program's report mixes PyPTO's trace with MLIR ones: each trace is keyed in its own language."""
    frontend, *passes = pypto_passes()
    program = whole_pipeline(tmp_path, [("frontend", frontend), *passes])
    log = open_report(page, build_report(program, tmp_path / "whole.html"))
    expect(page.get_by_label("Ignore locations", exact=True)).to_be_visible()  # offered: one trace is MLIR
    expect(page.get_by_label("Ignore memory annotations", exact=True)).to_be_visible()  # and one is PyPTO
    renumbered = page.evaluate("window.__irTrace.model.entries.findIndex((e) => e && e.run === 1 && !e.start)")
    assert renumbered > 0 and counts(page, renumbered)[2] is False
    toggle(page, "Ignore SSA versions")
    assert counts(page, renumbered) == (0, 0, True)  # %1 -> %7, #map -> #map1: numbering only
    log.assert_clean()


def test_find_counts_each_trace_keyed_in_its_own_language(page, tmp_path):
    """Under Ignore SSA versions Find counts what each trace's diff compares: PyPTO's `_v1` and MLIR's
    `#map1` are both mere numbering, so neither rename pass keeps a Find mark."""
    v0 = "    def f(a):\n        acc__ssa_v0 = pl.load(a)\n        out = pl.add(acc__ssa_v0, a)\n"
    program = whole_pipeline(tmp_path, [("frontend", v0), ("Rename", v0.replace("_v0", "_v1"))])
    log = open_report(page, build_report(program, tmp_path / "whole.html"))
    renamed, renumbered = page.evaluate(
        "[0, 1].map((r) => window.__irTrace.model.entries.findIndex((e) => e && e.run === r && !e.start))"
    )
    page.get_by_role("checkbox", name="Regex", exact=True).check()
    page.get_by_placeholder("Find in snapshots").fill("acc__ssa_v1|#map1")
    rename, cse = pass_button(page, renamed).locator(".find-mark"), pass_button(page, renumbered).locator(".find-mark")
    expect(rename).to_have_text("introduced (2)")
    expect(cse).to_have_text("introduced (2)")
    toggle(page, "Ignore SSA versions")
    expect(rename).to_have_text("")
    expect(cse).to_have_text("")  # keyed as MLIR (`#map1` -> `#map`), not as the first trace's PyPTO
    toggle(page, "Ignore SSA versions", on=False)
    expect(cse).to_have_text("introduced (2)")
    log.assert_clean()


def test_a_stream_dump_is_named_by_its_file_and_header_number(page, tmp_path):
    """A stream's snapshots have no files of their own: the panes and tooltips name the stream and the
    dump's header number in it (as --json does), not a bare number."""
    stream = tmp_path / "after_all.txt"
    dumps = [("Canonicalizer (canonicalize)", FRONTEND), ("CSE (cse)", RENUMBERED), ("Locate (locate)", LOCATED)]
    stream.write_text("".join(f"{mlir_header('After', h)}\n{text}\n\n" for h, text in dumps), encoding="utf-8")
    log = open_report(page, build_report(stream, tmp_path / "stream.html"), "#pass=2")
    expect(page.locator("#file-before")).to_have_text("after_all.txt #1")
    expect(page.locator("#file-after")).to_have_text("after_all.txt #2")
    assert pass_button(page, 1).get_attribute("title").endswith("\nafter_all.txt #1")
    log.assert_clean()


def test_a_failed_pass_stays_listed_when_no_ops_are_hidden(page, tmp_path):
    """A failing pass that changed nothing is a no-op, but it is where the run stopped: unticking No-op keeps it."""
    stream = tmp_path / "failing.txt"
    dumps = [
        ("Canonicalizer (canonicalize)", FRONTEND),
        ("CSE (cse)", RENUMBERED),
        ("CSE (cse)", RENUMBERED),
        ("(anonymous namespace)::TestFailurePass Failed (test-pass-failure)", RENUMBERED),
    ]
    stream.write_text("".join(f"{mlir_header('After', h)}\n{text}\n\n" for h, text in dumps), encoding="utf-8")
    log = open_report(page, build_report(stream, tmp_path / "failing.html"))
    page.get_by_label("No-op", exact=True).uncheck()
    expect(pass_button(page, 2)).to_be_hidden()  # the second cse changed nothing
    expect(pass_button(page, 3)).to_be_visible()
    expect(pass_button(page, 3).locator(".badge")).to_have_text(["failed", "no-op"])
    expect(page.get_by_text("Filtered: 3 of 4 passes shown.")).to_be_visible()
    log.assert_clean()


def test_an_mlir_alias_is_coloured_as_a_name_not_as_a_comment(page, tmp_path):
    """`#map` starts no comment (MLIR's are `//`): the rest of `affine.apply #map(%arg0)` keeps its colours,
    so a long `linalg.generic {indexing_maps = [#map, ...]}` line can fold after it too."""
    log = open_report(page, mlir_report(tmp_path), "#pass=1")
    row = pane(page, "After").locator(".row", has_text="affine.apply #map1(%arg0)")
    expect(row).to_have_count(1)
    expect(row.locator(".t-c")).to_have_count(0)
    assert "".join(row.locator(".t-d").all_inner_texts()) == "#map1"  # emphasis may split it: one colour
    alias = pane(page, "After").locator(".row", has_text="#map1 = affine_map")
    expect(alias.locator(".t-c")).to_have_count(0)
    assert "".join(alias.locator(".t-d").all_inner_texts()) == "#map1"
    log.assert_clean()


def test_an_mlir_report_opens_on_the_first_pass_that_changed_the_ir(page, tmp_path):
    """The first snapshot (the whole module against an empty Before) and a no-op are no change of the
    pipeline's: a report opened without a fragment shows the first pass that changed the IR."""
    stream = tmp_path / "after_all.txt"
    dumps = [("Canonicalizer (canonicalize)", FRONTEND), ("Inliner (inline)", FRONTEND), ("CSE (cse)", RENUMBERED)]
    stream.write_text("".join(f"{mlir_header('After', h)}\n{text}\n\n" for h, text in dumps), encoding="utf-8")
    log = open_report(page, build_report(stream, tmp_path / "stream.html"))
    expect(pass_button(page, 2)).to_have_attribute("aria-current", "true")
    expect(page.locator("#file-after")).to_have_text("after_all.txt #2")  # cse, the third dump
    log.assert_clean()

"""Browser tests of the questions the viewer answers (issue 7), in real headless Chromium:
function history, Compare with, Find, run against run, and warnings where they point.

One small pipeline is built for all of them (see `pipeline`): it renames, inserts `pl.alloc(`,
outlines a function, deletes a symbol and a function, and logs a warning that the next pass carries.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from browser_support import (
    PAINTED,
    SAMPLES,
    build_report,
    expect,
    function_select,
    nav,
    open_report,
    overview_bar,
    pane,
    pass_button,
    viewing,
    write_dump,
)

TILE = "pl.Tile[[64, 128], pl.FP32]"
ALLOC = "mem_0: pl.MemRef = pl.alloc(pl.MemorySpace.Vec, 0, 32768)"
WARNING = "Unused variable 'mem_0' in function 'kernel' [UnusedVariableCheck]"


def method(name: str, body: list[str], kind: str = "InCore") -> list[str]:
    return [
        f"    @pl.function(type=pl.FunctionType.{kind})",
        f"    def {name}(a: pl.Tensor[[64, 128], pl.FP32]) -> pl.Tensor[[64, 128], pl.FP32]:",
        *("        " + line for line in body),
    ]


def snapshot(*methods: list[str]) -> str:
    lines = ["# pypto.program: Program", "import pypto.language as pl", "", "@pl.program", "class Program:"]
    for m in methods:
        lines += m
    return "\n".join(lines) + "\n"


def kernel_body(ssa: bool = False, alloc: str | None = None, t17_4: bool = True) -> list[str]:
    body = [f"t0: {TILE} = pl.load(a, [0, 0], [64, 128])"]
    for i in range(1, 60):
        body.append(f"t{i}: {TILE} = pl.add(t{i - 1}, t{i - 1})")
        if i == 17 and t17_4:
            body.append(f"t17_4: {TILE} = pl.mul(t17, t17)")
        if i == 50 and alloc:
            body.append(alloc)
    body.append("return t59")
    if ssa:
        body = [re.sub(r"\bt5\b", "t5__ssa_v0", line) for line in body]
    return body


HELPER = method("helper", [f"h0: {TILE} = pl.exp(a)", "return h0"])
OUTLINED = method("kernel_outlined", [f"o{i}: {TILE} = pl.max(a, a)" for i in range(6)] + ["return o5"])


def main_method(outlined: bool = False, extra_alloc: bool = False) -> list[str]:
    body = ["mem_1: pl.MemRef = pl.alloc(pl.MemorySpace.Vec, 32768, 32768)"] if extra_alloc else []
    body.append("return self.kernel_outlined(self.kernel(a))" if outlined else "return self.kernel(a)")
    return method("main", body, "Orchestration")


def pipeline(alloc: str = ALLOC) -> list[tuple[str, str]]:
    """(pass name, snapshot) from the frontend on; pass 2 is a no-op."""
    kernel = method("kernel", kernel_body())
    ssa = method("kernel", kernel_body(ssa=True))
    mem = method("kernel", kernel_body(ssa=True, alloc=alloc))
    dead = method("kernel", kernel_body(ssa=True, alloc=alloc, t17_4=False))
    return [
        ("frontend", snapshot(kernel, HELPER, main_method())),
        ("ConvertToSSA", snapshot(ssa, HELPER, main_method())),
        ("Simplify", snapshot(ssa, HELPER, main_method())),
        ("InitMemRef", snapshot(mem, HELPER, main_method())),
        ("OutlineIncoreScopes", snapshot(mem, OUTLINED, HELPER, main_method(outlined=True))),
        ("DeadCodeElim", snapshot(dead, OUTLINED, main_method(outlined=True))),
        ("Canonicalize", snapshot(dead, OUTLINED, main_method(outlined=True, extra_alloc=True))),
    ]


def line_of(text: str, needle: str) -> int:
    """1-based number of the first line containing needle."""
    return next(i for i, line in enumerate(text.split("\n"), 1) if needle in line)


def warning_logs(snapshots: list[tuple[str, str]]) -> dict[int, str]:
    """InitMemRef raises the warning; OutlineIncoreScopes carries it (same check and message, other
    line); Canonicalize raises a different one."""

    def log(k: int, needle: str, message: str) -> str:
        name, text = snapshots[k]
        line = line_of(text, needle)
        return (
            f"passes_dump/{k:02d}_after_{name}.py:{line}:9: warning: {message}\n"
            f" {line} |         {needle}\n    |         ^~~~~\n"
        )

    return {
        3: log(3, ALLOC, WARNING),
        4: log(4, ALLOC, WARNING),
        6: log(6, "mem_1", "Unused variable 'mem_1' in function 'main' [UnusedVariableCheck]"),
    }


@pytest.fixture(scope="module")
def trace(tmp_path_factory) -> tuple[Path, Path]:
    """(report, dump) of the pipeline, built once by the CLI."""
    root = tmp_path_factory.mktemp("questions") / "Program"
    snapshots = pipeline()
    dump = write_dump(root / "passes_dump", snapshots, warning_logs(snapshots))
    return build_report(dump, root / "report.html", "--no-cache", "-q"), dump


@pytest.fixture
def trace_page(page, trace):
    with viewing(page, trace[0]) as opened:
        yield opened


def visible_passes(page) -> list[int]:
    return [int(b.get_attribute("data-k")) for b in nav(page).get_by_role("button").all() if b.is_visible()]


def focus_page(page) -> None:
    page.locator("body").click(position={"x": 5, "y": 700})


def current(page) -> int:
    return int(nav(page).locator('[aria-current="true"]').get_attribute("data-k"))


# ---------- function history ----------


def test_function_history_marks_counts_and_filter(trace_page):
    page = trace_page
    function_select(page).select_option("Program.kernel")
    # ConvertToSSA renames t5 on two lines, InitMemRef adds one, DeadCodeElim deletes t17_4.
    expect(pass_button(page, 1).locator(".fn-mark")).to_have_text("kernel +2 \u22122")
    expect(pass_button(page, 3).locator(".fn-mark")).to_have_text("kernel +1 \u22120")
    expect(pass_button(page, 5).locator(".fn-mark")).to_have_text("kernel +0 \u22121")
    for k in (2, 4, 6):
        expect(pass_button(page, k).locator(".fn-mark")).to_have_text("")
        expect(pass_button(page, k)).to_have_class(re.compile(r"\bfn-untouched\b"))
    # The overview strip shows the function's own change: untouched passes are flat.
    for k, name in ((4, "OutlineIncoreScopes"), (6, "Canonicalize")):
        title, height = overview_bar(page, k)
        assert title.startswith(f"{k} {name}: kernel unchanged") and height == 2
    title, height = overview_bar(page, 3)
    assert title.startswith("3 InitMemRef: kernel +1 \u22120") and height > 2
    pass_button(page, 4).click()
    expect(page.locator("#view-note")).to_have_text("kernel is the same on both sides.")

    only = page.get_by_label("Only passes that change this function")
    expect(only).to_be_enabled()
    only.check()
    assert visible_passes(page) == [1, 3, 5]
    pass_button(page, 1).click()
    focus_page(page)
    page.keyboard.press("j")
    expect(pass_button(page, 3)).to_have_attribute("aria-current", "true")
    expect(function_select(page)).to_have_value("Program.kernel")
    page.keyboard.press("j")
    expect(pass_button(page, 5)).to_have_attribute("aria-current", "true")
    page.keyboard.press("j")  # the end of the function's history
    expect(pass_button(page, 5)).to_have_attribute("aria-current", "true")
    page.keyboard.press("k")
    expect(pass_button(page, 3)).to_have_attribute("aria-current", "true")
    assert "history=1" in page.url

    function_select(page).select_option("")
    expect(only).to_be_disabled()
    assert visible_passes(page) == [1, 2, 3, 4, 5, 6]
    expect(pass_button(page, 1).locator(".fn-mark")).to_have_text("")


def test_function_history_marks_creation_and_removal(trace_page):
    page = trace_page
    pass_button(page, 4).click()
    function_select(page).select_option(label="kernel_outlined (created)")
    created = pass_button(page, 4).locator(".fn-mark")
    expect(created).to_have_text("kernel_outlined created +9")
    expect(created).to_have_class(re.compile(r"\bcreated\b"))
    assert "(created)" in overview_bar(page, 4)[0]
    for k in (1, 2, 3, 5, 6):
        expect(pass_button(page, k).locator(".fn-mark")).to_have_text("")

    pass_button(page, 3).click()  # kernel_outlined does not exist yet: the whole file, and a note says so
    expect(function_select(page)).to_have_value("")
    expect(page.locator("#fn-note")).to_contain_text("kernel_outlined is not in this pass")
    function_select(page).select_option("Program.helper")
    removed = pass_button(page, 5).locator(".fn-mark")
    expect(removed).to_have_text("helper removed \u22124")
    assert "(removed)" in overview_bar(page, 5)[0]
    page.get_by_label("Only passes that change this function").check()
    assert visible_passes(page) == [5]
    # The pass that removes the function keeps it selected and shows it wholly deleted.
    expect(pass_button(page, 5)).to_have_attribute("aria-current", "true")
    expect(function_select(page)).to_have_value("Program.helper")
    expect(pane(page, "Before")).to_contain_text("def helper")
    expect(pane(page, "After").locator(".row:not(.fill)")).to_have_count(0)


# ---------- compare with ----------


def expected_counts(dump: Path, first: str, last: str) -> tuple[int, int]:
    """Lines inserted / deleted between two snapshots, by the project's Python diff."""
    from ir_trace.diffcore.linediff import count_changes, diff_snapshots, split_lines

    a, a_eol = split_lines((dump / first).read_text(encoding="utf-8"))
    b, b_eol = split_lines((dump / last).read_text(encoding="utf-8"))
    return count_changes(diff_snapshots(a, b, a_eol, b_eol))


def test_compare_with_frontend_shows_the_cumulative_change(trace_page, trace):
    page = trace_page
    dump = trace[1]
    pass_button(page, 6).click()
    compare = page.get_by_label("Compare with")
    expect(compare).to_have_value("5")
    expect(compare.locator("option:checked")).to_have_text("05 DeadCodeElim (previous)")
    assert compare.locator("option").count() == 6  # every earlier snapshot, 00 .. 05
    expect(pane(page, "After")).not_to_contain_text("pl.alloc(pl.MemorySpace.Vec, 0, 32768)")  # pass 6 alone
    compare.select_option(label="00 frontend")

    before = page.get_by_role("region", name="Before snapshot")
    expect(before).to_contain_text("00_frontend.py")
    expect(page.get_by_role("region", name="After snapshot")).to_contain_text("06_after_Canonicalize.py")
    inserted, deleted = expected_counts(dump, "00_frontend.py", "06_after_Canonicalize.py")
    expect(page.locator("#pass-title .stats")).to_have_text(f"+{inserted} \u2212{deleted}")
    expect(page.locator("#view-note")).to_contain_text(
        "Cumulative change from 00_frontend.py to 06_after_Canonicalize.py"
    )
    after = pane(page, "After")
    expect(after.locator(".row.ins", has_text="def kernel_outlined")).to_have_count(1)
    expect(after.locator(".row.ins", has_text="pl.alloc(pl.MemorySpace.Vec, 0, 32768)")).to_have_count(1)
    expect(pane(page, "Before").locator(".row.del", has_text="t17_4")).to_have_count(1)
    expect(pane(page, "Before").locator(".row.del", has_text="def helper")).to_have_count(1)
    # The renamed t5 is a paired edit with the exact change emphasised.
    assert "t5__ssa_v0" in after.locator(".row.ins .em").all_inner_texts()  # a renamed name is marked whole
    assert page.url.endswith("#pass=6&from=0&layout=side")

    # Folding works on the computed diff.
    folds = after.get_by_role("button", name=re.compile(r"unchanged lines?$"))
    assert folds.count() >= 1
    page.get_by_role("button", name="Expand all").click()
    expect(folds).to_have_count(0)

    # Going back a pass keeps the chosen base; the link button restores the previous snapshot.
    focus_page(page)
    page.keyboard.press("k")
    expect(pass_button(page, 5)).to_have_attribute("aria-current", "true")
    expect(compare).to_have_value("0")
    page.get_by_role("button", name="Compare with the previous snapshot").click()
    expect(compare).to_have_value("4")
    expect(page.locator("#view-note")).to_be_hidden()
    assert "from=" not in page.url


def test_compare_with_deep_link_round_trip_and_function(page, trace):
    report = trace[0]
    log = open_report(page, report, "#pass=6&from=1&fn=Program.kernel&layout=side")
    expect(pass_button(page, 6)).to_have_attribute("aria-current", "true")
    expect(page.get_by_label("Compare with")).to_have_value("1")
    expect(function_select(page)).to_have_value("Program.kernel")
    expect(page.get_by_role("region", name="Before snapshot")).to_contain_text("01_after_ConvertToSSA.py")
    after, before = pane(page, "After"), pane(page, "Before")
    expect(after).not_to_contain_text("def main")
    expect(after.locator(".row.ins", has_text="pl.alloc(")).to_have_count(1)
    expect(before.locator(".row.del", has_text="t17_4")).to_have_count(1)
    expect(after.locator(".row.ins, .row.del")).to_have_count(1)  # 01 -> 06 changed kernel by +1 -1
    function_select(page).select_option("Program.main")
    assert page.url.endswith("#pass=6&from=1&fn=Program.main&layout=side")
    url = page.url
    log.assert_clean()

    page.goto("about:blank")
    page.goto(url)
    page.wait_for_function(PAINTED)
    expect(page.get_by_label("Compare with")).to_have_value("1")
    expect(function_select(page)).to_have_value("Program.main")
    expect(pane(page, "After").locator(".row.ins", has_text="mem_1")).to_have_count(1)
    # A link inside the open report (hashchange) moves both ends.
    page.evaluate("location.hash = '#pass=4&from=2'")
    expect(pass_button(page, 4)).to_have_attribute("aria-current", "true")
    expect(page.get_by_label("Compare with")).to_have_value("2")
    expect(page.get_by_role("region", name="Before snapshot")).to_contain_text("02_after_Simplify.py")


def test_copy_in_compare_mode_copies_the_compared_snapshots(browser, trace):
    report, dump = trace
    context = browser.new_context(
        viewport={"width": 1280, "height": 720}, permissions=["clipboard-read", "clipboard-write"]
    )
    page = context.new_page()
    try:
        log = open_report(page, report, "#pass=5&from=0&fn=Program.kernel")
        for which, name in (("Before", "00_frontend.py"), ("After", "05_after_DeadCodeElim.py")):
            region = page.get_by_role("region", name=f"{which} snapshot")
            region.get_by_role("button", name="Copy full source").click()
            expect(region.get_by_text("Copied")).to_be_visible()
            assert page.evaluate("() => navigator.clipboard.readText()") == (dump / name).read_text(encoding="utf-8")
        log.assert_clean()
    finally:
        context.close()


# ---------- find ----------


def find_marks(page) -> dict[int, str]:
    marks = {}
    for button in nav(page).get_by_role("button").all():
        text = button.locator(".find-mark").inner_text() if button.locator(".find-mark").is_visible() else ""
        if text:
            marks[int(button.get_attribute("data-k"))] = text
    return marks


def search(page, text: str) -> None:
    box = page.get_by_role("searchbox", name="Find")
    box.fill(text)
    expect(page.locator("#find-status")).to_contain_text(f"\u201c{text}\u201d: ")


def test_find_marks_the_pass_that_introduces_a_symbol(trace_page):
    page = trace_page
    search(page, "pl.alloc(")
    expect(pass_button(page, 3).locator(".find-mark")).to_have_text("introduced (1)")
    assert find_marks(page) == {3: "introduced (1)", 6: "count 1 \u2192 2"}
    # Enter jumps to the next pass where the count changes, and matches are highlighted there.
    page.get_by_role("searchbox", name="Find").press("Enter")
    expect(pass_button(page, 3)).to_have_attribute("aria-current", "true")
    hits = pane(page, "After").locator("mark.hit")  # one match, split where the colouring changes
    expect(hits.first).to_be_visible()
    assert "".join(hits.all_inner_texts()) == "pl.alloc("
    expect(page.locator("#find-status")).to_contain_text("0 in Before \u00b7 1 in After")
    focus_page(page)
    page.keyboard.press("n")
    expect(pass_button(page, 6)).to_have_attribute("aria-current", "true")
    assert "find=pl.alloc%28" in page.url


def test_find_marks_the_pass_that_removes_a_symbol(trace_page):
    page = trace_page
    search(page, "t17_4")
    assert find_marks(page) == {5: "removed (1)"}
    pass_button(page, 5).click()
    expect(pane(page, "Before").locator("mark.hit")).to_have_text(["t17_4"])
    expect(pane(page, "After").locator("mark.hit")).to_have_count(0)


def test_find_regex_and_match_case_toggles(trace_page):
    page = trace_page
    regex, case = page.get_by_label("Regex", exact=True), page.get_by_label("Match case")
    expect(regex).not_to_be_checked()
    expect(case).not_to_be_checked()
    search(page, r"mem_\d: pl\.MemRef")
    assert find_marks(page) == {}  # plain text by default: the backslashes are literal
    regex.check()
    expect(page.locator("#find-status")).to_contain_text("count changes at 2 passes")
    assert find_marks(page) == {3: "introduced (1)", 6: "count 1 \u2192 2"}

    page.get_by_role("searchbox", name="Find").fill("PL.ALLOC(")  # still a regular expression: unclosed group
    expect(page.locator("#find-status")).to_contain_text("Not a valid regular expression")
    assert find_marks(page) == {}
    regex.uncheck()
    expect(page.locator("#find-status")).to_contain_text("count changes at 2 passes")  # case-insensitive
    case.check()
    expect(page.locator("#find-status")).to_contain_text("count changes at 0 passes")
    assert find_marks(page) == {}
    search(page, "pl.alloc(")
    assert find_marks(page) == {3: "introduced (1)", 6: "count 1 \u2192 2"}
    assert "case=1" in page.url and "regex" not in page.url


# ---------- warnings ----------


def test_warning_gutter_marker_panel_link_and_new_vs_carried(trace_page, trace):
    page = trace_page
    dump = trace[1]
    expect(pass_button(page, 3).locator(".badge.warn:not(.carried)")).to_have_text("warning")
    expect(pass_button(page, 4).locator(".badge.warn.carried")).to_have_text("warning")
    expect(pass_button(page, 6).locator(".badge.warn:not(.carried)")).to_have_text("warning")

    pass_button(page, 3).click()
    line = line_of((dump / "03_after_InitMemRef.py").read_text(encoding="utf-8"), ALLOC)
    marker = pane(page, "After").get_by_role("img", name=re.compile("Unused variable 'mem_0'"))
    expect(marker).to_have_count(1)
    expect(marker).to_have_attribute("title", f"warning: {WARNING}")
    row = pane(page, "After").locator(".row.warned")
    expect(row.locator(".ln")).to_have_text(re.compile(rf"{line}$"))
    expect(row).to_contain_text(ALLOC)
    panel = page.get_by_role("region", name="Pass warnings")
    expect(panel.locator(".warn-item .badge")).to_have_text(["new"])

    # Pass 4 carries it; its line sits in a folded run far down: the link opens and scrolls to it.
    pass_button(page, 4).click()
    expect(panel.locator(".warn-item .badge")).to_have_text(["carried"])
    line4 = line_of((dump / "04_after_OutlineIncoreScopes.py").read_text(encoding="utf-8"), ALLOC)
    target = pane(page, "After").locator(".row.warned")
    function_select(page).select_option("Program.main")  # the line is not even in this function
    expect(target).to_have_count(0)
    panel.get_by_role("button", name=f"line {line4}:9").click()
    expect(target).to_have_count(1)
    expect(function_select(page)).to_have_value("")  # back to the whole file, the fold opened
    expect(target.locator(".ln")).to_have_text(re.compile(rf"{line4}$"))
    expect(target).to_be_in_viewport()
    box, scroller = target.bounding_box(), pane(page, "After").bounding_box()
    assert scroller["y"] <= box["y"] and box["y"] + box["height"] <= scroller["y"] + scroller["height"]


@pytest.mark.samples
def test_real_logs_tell_new_from_carried(page, tmp_path):
    dump = SAMPLES / "real_with_logs" / "paged_attention_concise" / "passes_dump"
    log = open_report(page, build_report(dump, tmp_path / "r.html", "--no-cache", "-q"))
    # Pass 1 raises the warning, 2-3 carry it, ConvertToSSA renames the variable: a new message.
    expect(pass_button(page, 1).locator(".badge.warn:not(.carried)")).to_have_text("warning")
    expect(pass_button(page, 2).locator(".badge.warn.carried")).to_have_text("warning")
    expect(pass_button(page, 4).locator(".badge.warn:not(.carried)")).to_have_text("warning")
    expect(pass_button(page, 5).locator(".badge.warn.carried")).to_have_text("warning")
    pass_button(page, 4).click()
    panel = page.get_by_role("region", name="Pass warnings")
    panel.get_by_role("button", name="line 181:21").click()
    target = pane(page, "After").locator(".row.warned")
    expect(target).to_be_in_viewport()
    expect(target).to_contain_text("_out_view__ssa_v0: pl.Tensor[[16, 128], pl.FP32]")
    expect(target.get_by_role("img")).to_have_attribute("aria-label", re.compile(r"\[UnusedVariableCheck\]$"))
    log.assert_clean()


# ---------- run against run ----------


@pytest.fixture(scope="module")
def comparison(tmp_path_factory, trace) -> Path:
    """Run A is the pipeline; run B allocates less, renames Simplify and adds a pass after InitMemRef."""
    run_a = trace[1]
    root = tmp_path_factory.mktemp("runb") / "Program"
    snapshots = pipeline(alloc=ALLOC.replace("32768", "16384"))
    snapshots[2] = ("SimplifyV2", snapshots[2][1])
    snapshots.insert(4, ("VerifyMemRef", snapshots[3][1]))
    run_b = write_dump(root / "passes_dump", snapshots)
    out = root.parent / "cmp.html"
    return build_report(run_a, out, "--against", str(run_b), "--no-cache", "-q")


@pytest.fixture
def cmp_page(page, comparison):
    log = open_report(page, comparison)
    yield page
    log.assert_clean()


def test_against_sidebar_lists_matched_passes_with_status(cmp_page):
    page = cmp_page
    names = [b.locator(".name").inner_text() for b in nav(page).get_by_role("button").all()]
    assert names == [
        "frontend",
        "ConvertToSSA",
        "Simplify \u2192 SimplifyV2",
        "InitMemRef",
        "VerifyMemRef",
        "OutlineIncoreScopes",
        "DeadCodeElim",
        "Canonicalize",
    ]
    indices = [b.locator(".idx").inner_text() for b in nav(page).get_by_role("button").all()]
    assert indices == ["0", "1", "2", "3", "B4", "4/5", "5/6", "6/7"]  # run B inserted a pass
    statuses = {k: pass_button(page, k).locator(".badges").inner_text().split() for k in range(8)}
    assert statuses[0] == ["same"] and statuses[1] == ["same"]
    assert statuses[2] == ["renamed", "same"]
    assert statuses[3] == ["different"]  # what InitMemRef allocates differs; the later passes carry it
    assert " ".join(statuses[4]) == "only in B"
    assert all(statuses[k] == ["carried"] for k in (5, 6, 7))
    expect(pass_button(page, 3)).to_contain_text("+1 \u22121")
    expect(pass_button(page, 3)).to_have_attribute("aria-current", "true")  # the first different pass
    expect(page.locator("#report-sub")).to_contain_text("7 passes compared \u00b7 4 differ \u00b7 1 renamed")

    differ, same = page.get_by_label("Differ", exact=True), page.get_by_label("Same", exact=True)
    same.uncheck()
    assert visible_passes(page) == [3, 4, 5, 6, 7]
    same.check()
    differ.uncheck()
    assert visible_passes(page) == [0, 1, 2]
    page.keyboard.press("?")
    expect(page.get_by_role("dialog", name="Keyboard shortcuts")).to_contain_text("Run against run")


def test_against_diff_and_each_runs_own_pass(cmp_page):
    page = cmp_page
    before_region = page.get_by_role("region", name="Before snapshot")
    after_region = page.get_by_role("region", name="After snapshot")
    # the first different pass opens on its two changes (test_viewer_behaviour.py); A vs B is one click away
    expect(page.get_by_role("button", name="Changes")).to_have_attribute("aria-pressed", "true")
    page.get_by_role("button", name="A vs B").click()
    expect(page.get_by_role("button", name="A vs B")).to_have_attribute("aria-pressed", "true")
    expect(before_region.locator(".pane-label")).to_have_text("Before \u00b7 run A")
    expect(after_region.locator(".pane-label")).to_have_text("After \u00b7 run B")
    page.get_by_role("button", name="Expand all").click()  # the long alloc lines whole, no chips
    expect(pane(page, "Before").locator(".row.del")).to_have_text([re.compile(re.escape(ALLOC))])
    alloc_b = ALLOC.replace("32768", "16384")
    expect(pane(page, "After").locator(".row.ins")).to_have_text([re.compile(re.escape(alloc_b))])
    expect(pane(page, "After").locator(".row.ins .em")).to_have_text(["16384"])

    page.get_by_role("button", name="Run A's pass").click()
    expect(page.get_by_role("button", name="Run A's pass")).to_have_attribute("aria-pressed", "true")
    expect(before_region.locator(".pane-label")).to_have_text("Before \u00b7 run A")
    expect(after_region.locator(".pane-label")).to_have_text("After \u00b7 run A")
    expect(before_region).to_contain_text("02_after_Simplify.py")
    expect(pane(page, "After").locator(".row.ins")).to_have_text([re.compile("0, 32768")])
    assert page.url.endswith("#a=3&b=3&view=a&layout=side")

    page.get_by_role("button", name="Run B's pass").click()
    expect(after_region.locator(".pane-label")).to_have_text("After \u00b7 run B")
    expect(before_region).to_contain_text("02_after_SimplifyV2.py")
    expect(pane(page, "After").locator(".row.ins")).to_have_text([re.compile("0, 16384")])

    # The pass only run B has: only its own diff exists, and it changed nothing.
    pass_button(page, 4).click()
    expect(page.get_by_role("button", name="A vs B")).to_be_disabled()
    expect(page.get_by_role("button", name="Run A's pass")).to_be_disabled()
    expect(after_region).to_contain_text("04_after_VerifyMemRef.py")
    expect(page.locator("#view-note")).to_contain_text("This pass changed nothing in run B")


def test_against_deep_link_and_function(page, comparison):
    log = open_report(page, comparison, "#a=5&b=6&view=b&fn=Program.main&layout=stacked")
    expect(pass_button(page, 6)).to_have_attribute("aria-current", "true")
    expect(page.get_by_role("button", name="Run B's pass")).to_have_attribute("aria-pressed", "true")
    expect(function_select(page)).to_have_value("Program.main")
    expect(page.get_by_role("button", name="Stacked")).to_have_attribute("aria-pressed", "true")
    expect(pane(page, "After")).not_to_contain_text("def kernel(")
    page.get_by_role("button", name="A vs B").click()
    expect(page.get_by_role("region", name="After snapshot")).to_contain_text("06_after_DeadCodeElim.py")
    assert page.url.endswith("#a=5&b=6&fn=Program.main&layout=stacked")
    # Function history reads "differs between the runs" here.
    function_select(page).select_option("Program.kernel")
    expect(page.get_by_label("Only passes where this function differs")).to_be_enabled()
    expect(pass_button(page, 3).locator(".fn-mark")).to_have_text("kernel +1 \u22121")
    expect(pass_button(page, 1).locator(".fn-mark")).to_have_text("")
    search(page, "16384")
    expect(pass_button(page, 3).locator(".find-mark")).to_have_text("only in B (1)")
    log.assert_clean()


def test_against_identical_runs_select_the_frontend(page, tmp_path):
    dump = write_dump(tmp_path / "same" / "passes_dump", pipeline()[:3])
    copy = tmp_path / "copy" / "passes_dump"
    shutil.copytree(dump, copy)
    log = open_report(page, build_report(dump, tmp_path / "r.html", "--against", str(copy), "--no-cache", "-q"))
    expect(pass_button(page, 0)).to_have_attribute("aria-current", "true")
    expect(page.locator("#view-note")).to_contain_text("Run A and run B printed the same snapshot")
    log.assert_clean()

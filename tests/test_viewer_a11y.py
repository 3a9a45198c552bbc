"""Accessibility of the report in a real headless Chromium: axe-core and text contrast in both
themes, the Tab order (skip link, one stop per pass list and per pane), what screen readers hear
(rows as lines, the pass switch), the Function and pass filters, deep links to a change and filters.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from a11y_support import contrast_failures, serious_axe_violations
from browser_support import PAINTED, REPO, SAMPLES, build_report, expect, open_report, pane, program, write_dump

QWEN3 = SAMPLES / "real" / "qwen3_decode_explicit" / "passes_dump"
EXAMPLE = REPO / "examples" / "softmax" / "passes_dump"
MLIR = SAMPLES / "mlir"


@pytest.fixture(scope="module")
def qwen3_report(tmp_path_factory) -> Path:
    return build_report(QWEN3, tmp_path_factory.mktemp("qwen3") / "report.html", "--no-cache", "-q")


@pytest.fixture(scope="module")
def example_report(tmp_path_factory) -> Path:
    return build_report(EXAMPLE, tmp_path_factory.mktemp("example") / "report.html", "--no-cache", "-q")


def norms_dump(root: Path) -> Path:
    """Three functions whose names contain `rmsn`, the one named exactly so listed last."""

    def snapshot(value: int) -> str:
        body = [f"t = pl.add(a, {value})", "return t"]
        return program({"post_rmsnorm": body, "pre_rmsnorm_fused": body, "rmsnorm": body})

    names = ["frontend", "One", "Two", "Three"]
    return write_dump(root / "passes_dump", [(name, snapshot(value)) for value, name in enumerate(names)])


@pytest.fixture(scope="module")
def norms_report(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("norms")
    return build_report(norms_dump(root), root / "report.html", "--no-cache", "-q")


@pytest.fixture
def norms_page(page, norms_report):
    log = open_report(page, norms_report)
    yield page
    log.assert_clean()


def checked_page(browser, report: Path, theme: str, fragment: str = ""):
    """A 1280x800 page of `report` in `theme`, its CSP bypassed so that axe can be injected."""
    context = browser.new_context(viewport={"width": 1280, "height": 800}, color_scheme=theme, bypass_csp=True)
    page = context.new_page()
    open_report(page, report, fragment)
    return context, page


def assert_accessible(page, state: str) -> None:
    assert serious_axe_violations(page) == [], state
    assert contrast_failures(page) == [], state


def audit_states(page):
    """The opening view, then a function selected (muted passes) with Find hits on its code."""
    yield "as opened"
    page.locator("#fn-select").select_option(index=1)
    page.locator("#find-text").fill("pl.")
    page.locator("#find-text").press("Enter")
    expect(page.locator("#find-status")).to_contain_text("in After")
    yield "function selected, find hits"


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_bundled_example_has_no_serious_axe_violation_and_readable_text(browser, example_report, theme):
    context, page = checked_page(browser, example_report, theme)
    for state in audit_states(page):
        assert_accessible(page, f"{theme}: {state}")
    context.close()


@pytest.mark.samples
@pytest.mark.parametrize("theme", ["light", "dark"])
def test_real_explicit_sample_has_no_serious_axe_violation_and_readable_text(browser, qwen3_report, theme):
    # Pass 11 rewrites a block (comments and keywords on deleted and added rows, emphasis on both).
    context, page = checked_page(browser, qwen3_report, theme, "#pass=11")
    for state in audit_states(page):
        assert_accessible(page, f"{theme}: {state}")
    context.close()


@pytest.mark.samples
def test_a_whole_pipeline_report_has_no_serious_axe_violation_in_either_theme(browser, tmp_path):
    # A PyPTO program's output dir as users have it: qwen3's passes, then two ptoas units' MLIR trees.
    program = tmp_path / "prog"
    shutil.copytree(QWEN3, program / "passes_dump")
    for unit, sample in (("a1", "a1_short_mliropt19_calls_loops"), ("a4", "a4_lowering_mliropt19_matmul_to_llvm")):
        shutil.copytree(MLIR / sample / "tree", program / "ptoas_passes" / unit)
    report = build_report(program, tmp_path / "report.html", "--no-cache", "-q")
    context, page = checked_page(browser, report, "light", "#trace=a4&pass=1")
    expect(page.locator("#trace-select")).to_have_value("2")  # PyPTO, a1, a4
    for theme in ("light", "dark"):
        if page.evaluate("() => document.documentElement.dataset.theme") != theme:
            page.locator("#theme-toggle").click()
        assert_accessible(page, f"{theme}: an MLIR pass of unit a4")
        page.locator("#trace-select").select_option(index=0)  # back to PyPTO's EXPLICIT IR
        expect(page.locator("#pass-title")).not_to_contain_text("ptoas")
        assert_accessible(page, f"{theme}: the PyPTO trace")
        page.locator("#trace-select").select_option(index=2)
    # A folded run's chip is heard briefly inside its row: what it hides, not how to open it.
    page.evaluate("() => { location.hash = '#pass=18'; }")
    chip = page.locator("#scroll-after .row button.chip.fold").first
    expect(chip).to_have_attribute("aria-label", re.compile(r"^\d+ characters folded$"))
    assert "click to show the whole line" in chip.get_attribute("title")
    context.close()


def focused(page) -> str:
    """The focused element as `tag#id.class`, enough to tell controls apart."""
    return page.evaluate(
        "() => { const a = document.activeElement; return `${a.tagName.toLowerCase()}#${a.id}.${a.className}`; }"
    )


@pytest.mark.samples
@pytest.mark.parametrize("size", [(1280, 800), (1920, 1080)])
def test_tab_order_skips_to_the_code_and_never_cycles_inside_a_pane(browser, qwen3_report, size):
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    log = open_report(page, qwen3_report, "#pass=11")
    page.keyboard.press("Tab")
    assert focused(page).startswith("button#skip-link")
    expect(page.locator("#skip-link")).to_be_in_viewport()
    page.keyboard.press("Enter")
    assert focused(page).startswith("div#scroll-before")

    # From the Before pane, Tab reaches the After pane in a few stops, none of them a fold button.
    stops = []
    while not focused(page).startswith("div#scroll-after") and len(stops) < 10:
        page.keyboard.press("Tab")
        stops.append(focused(page))
    assert stops[-1].startswith("div#scroll-after"), stops
    assert len(stops) <= 5 and not any("fold-btn" in s for s in stops), stops

    # Fold buttons and chips are one Enter away from their pane; arrows walk them, Enter opens one and the
    # focus stays in the pane, Esc goes back. Pass 5 changes two lines: a fold above, one below.
    page.evaluate("() => { location.hash = 'pass=5'; }")
    expect(page.locator("#pass-title")).to_contain_text("Simplify")
    assert focused(page).startswith("div#scroll-after")
    page.keyboard.press("Enter")
    assert "fold-btn" in focused(page)
    fold = page.evaluate("() => document.activeElement.dataset.fold")
    page.evaluate("() => { document.activeElement.dataset.walked = 'first'; }")
    page.keyboard.press("ArrowDown")  # the next fold button, or a long line's chip (also a pane button)
    assert re.search(r"fold-btn|chip fold", focused(page)), focused(page)
    assert page.evaluate("() => document.activeElement.dataset.walked") is None
    page.keyboard.press("Escape")
    assert focused(page).startswith("div#scroll-after")
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")
    assert focused(page).startswith("div#scroll-after")
    expect(pane(page, "After").locator(f'.fold-btn[data-fold="{fold}"]')).to_have_count(0)

    # From the page's start, the pass list is one stop and the Function select is near.
    page.reload()
    page.wait_for_function(PAINTED)
    seen = tab_until(page, "select#fn-select", 40)
    assert seen[-1].startswith("select#fn-select"), seen
    assert sum("pass-btn" in s for s in seen) == 1 and len(seen) <= 16, seen
    log.assert_clean()
    context.close()


@pytest.mark.samples
def test_a_fold_button_keeps_the_focus_when_the_rows_are_built_again(browser, qwen3_report):
    """Rows are rebuilt after a pass settles (its later rows checked for wrapping) or the window is
    resized: the fold button being walked keeps the keyboard focus instead of dropping it to the page."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    log = open_report(page, qwen3_report, "#pass=5")
    pane(page, "After").focus()
    page.keyboard.press("Enter")
    assert "fold-btn" in focused(page)
    fold = page.evaluate("() => { const e = document.activeElement; e.dataset.old = 'yes'; return e.dataset.fold; }")
    page.set_viewport_size({"width": 1100, "height": 800})  # laid out again: every row rebuilt
    page.wait_for_function("() => !document.querySelector('[data-old]')")
    assert "fold-btn" in focused(page), focused(page)
    assert page.evaluate("() => document.activeElement.dataset.fold") == fold
    page.keyboard.press("ArrowDown")
    assert re.search(r"fold-btn|chip fold", focused(page)), focused(page)
    log.assert_clean()
    context.close()


def tab_until(page, target: str, limit: int) -> list[str]:
    """Press Tab until `target` (`tag#id`) has the focus or `limit` presses; every stop seen."""
    stops = []
    while len(stops) < limit and not (stops and stops[-1].startswith(target)):
        page.keyboard.press("Tab")
        stops.append(focused(page))
    return stops


@pytest.fixture(scope="module")
def report_kinds(tmp_path_factory) -> dict[str, Path]:
    """One report of each kind: PyPTO, MLIR, a whole pipeline (Trace select), run against run."""
    root = tmp_path_factory.mktemp("kinds")
    program = root / "prog"
    shutil.copytree(QWEN3, program / "passes_dump")
    shutil.copytree(MLIR / "a1_short_mliropt19_calls_loops" / "tree", program / "ptoas_passes" / "a1")
    concise = SAMPLES / "real" / "qwen3_decode_concise" / "passes_dump"
    sources = {
        "pypto": (QWEN3,),
        "mlir": (MLIR / "a4_lowering_mliropt19_matmul_to_llvm" / "tree",),
        "pipeline": (program,),
        "against": (QWEN3, "--against", str(concise)),
    }
    return {
        kind: build_report(first, root / f"{kind}.html", *more, "--no-cache", "-q")
        for kind, (first, *more) in sources.items()
    }


# Run against run opens on its first different pass's two changes, one scrollable region, not the panes.
CODE_REGIONS = {"against": ("section#changes",)}


@pytest.mark.samples
@pytest.mark.parametrize("kind", ["pypto", "mlir", "pipeline", "against"])
def test_both_panes_are_within_ten_tabs_of_a_fresh_page(browser, report_kinds, kind):
    for width, height in ((1280, 800), (1920, 1080)):
        context = browser.new_context(viewport={"width": width, "height": height})
        page = context.new_page()
        log = open_report(page, report_kinds[kind])
        stops, at_code = [], None
        for target in CODE_REGIONS.get(kind, ("div#scroll-before", "div#scroll-after")):
            stops += tab_until(page, target, 10 - len(stops))
            assert stops[-1].startswith(target) and len(stops) <= 10, (kind, width, stops)
            at_code = at_code or stops[-1]
        # A logical order: the skip link, the sidebar's controls, the pass list (one stop), the panes.
        assert stops[0].startswith("button#skip-link"), stops
        assert sum("pass-btn" in s for s in stops) == 1, stops
        assert stops.index(next(s for s in stops if "pass-btn" in s)) < stops.index(at_code)
        assert {"input#filter-text", "input#find-text"} <= {s.split(".")[0] for s in stops}, stops
        assert (kind == "pipeline") == any(s.startswith("select#trace-select") for s in stops), stops
        log.assert_clean()
        context.close()


def test_the_regrouped_controls_are_toolbars_the_keyboard_walks_and_operates(norms_page):
    page = norms_page
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")  # after the skip link, the sidebar's options: one toolbar
    assert focused(page).startswith("input#filter-changed")
    page.keyboard.press("ArrowRight")
    assert focused(page).startswith("input#filter-noop")
    page.keyboard.press("Space")
    expect(page.locator("#filter-noop")).not_to_be_checked()
    page.keyboard.press("Space")
    page.keyboard.press("End")  # the last enabled item: Only passes that change this function is disabled
    assert focused(page).startswith("input#indent-blocks")
    page.keyboard.press("ArrowLeft")
    assert focused(page).startswith("input#ignore-regex")
    page.keyboard.press("Space")
    expect(page.locator("#ignore-regex")).to_be_checked()
    page.keyboard.press("Tab")  # the regex box is a stop once its mode is on
    assert focused(page).startswith("input#ignore-regex-text")
    page.keyboard.press("Shift+Tab")  # back to the toolbar, on the item left last
    assert focused(page).startswith("input#ignore-regex")
    page.keyboard.press("Space")
    page.keyboard.press("Tab")
    assert focused(page).startswith("input#filter-text")  # the empty box left the Tab order with its mode
    assert tab_until(page, "input#find-text", 3)[-1].startswith("input#find-text")
    page.keyboard.press("Tab")
    assert focused(page).startswith("input#find-regex")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Space")
    expect(page.locator("#find-case")).to_be_checked()

    # Past the panes: the After pane's buttons, then the View buttons, then the Function select.
    assert tab_until(page, "div#scroll-after", 6)[-1].startswith("div#scroll-after")
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.closest('#pane-after .pane-head') !== null")
    page.keyboard.press("End")
    assert focused(page).startswith("button#copy-after")
    seen = tab_until(page, "button#layout-side", 4)
    assert seen[-1].startswith("button#layout-side"), seen
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    expect(page.locator("#layout-stacked")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#panes")).to_have_class(re.compile(r"\bstacked\b"))
    page.keyboard.press("End")
    assert focused(page).startswith("button#collapse-all")
    page.keyboard.press("Tab")
    assert focused(page).startswith("input#fn-filter")

    # Last: Theme and ? (one toolbar), then the sidebar's resize handle.
    seen = tab_until(page, "button#theme-toggle", 12)
    assert seen[-1].startswith("button#theme-toggle"), seen
    theme = page.evaluate("() => document.documentElement.dataset.theme")
    page.keyboard.press("Enter")
    assert page.evaluate("() => document.documentElement.dataset.theme") != theme
    page.keyboard.press("ArrowRight")
    assert focused(page).startswith("button#help-open")
    page.keyboard.press("Tab")
    assert focused(page).startswith("div#side-resize")
    width = page.locator("#side-resize").get_attribute("aria-valuenow")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#side-resize")).not_to_have_attribute("aria-valuenow", width)
    page.keyboard.press("Shift+Tab")
    assert focused(page).startswith("button#help-open")  # the toolbar remembers its item
    page.keyboard.press("Enter")
    expect(page.locator("#help")).to_be_visible()


def test_function_filter_picks_exact_then_prefix_and_hands_focus_back(norms_page):
    page = norms_page
    page.locator("#fn-filter").fill("rmsn")
    options = page.locator("#fn-select option").all_inner_texts()
    assert options[:4] == ["Whole file", "rmsnorm", "post_rmsnorm", "pre_rmsnorm_fused"]
    page.locator("#fn-filter").press("Enter")
    expect(page.locator("#fn-select")).to_have_value("Program.rmsnorm")
    expect(page.locator("#fn-select")).to_be_focused()
    start = page.evaluate("() => location.hash")
    page.keyboard.press("j")  # switches passes: not typed into the box
    expect(page.locator("#fn-filter")).to_have_value("rmsn")
    # a `j` step writes the fragment once its pass is painted (viewer.js stepPassSoon)
    page.wait_for_function("(start) => location.hash !== start && location.hash.includes('pass=2')", arg=start)

    page.locator("#fn-filter").fill("post_")
    page.locator("#fn-filter").press("Enter")
    expect(page.locator("#fn-select")).to_have_value("Program.post_rmsnorm")


def test_an_active_pass_filter_stays_visible_and_clears(norms_page):
    page = norms_page
    state = page.locator("#filter-state")
    expect(state).to_be_hidden()
    page.keyboard.press("/")
    page.keyboard.type("tw")
    page.keyboard.press("Escape")
    expect(page.locator("#filter-text")).not_to_be_focused()
    expect(page.locator("#filter-text")).to_have_value("tw")  # Esc leaves the box: its text stays, as its filter does
    expect(state).to_be_visible()
    expect(state).to_contain_text("Filtered: 1 of 3 passes shown")
    page.get_by_role("button", name="Clear filters").click()
    expect(state).to_be_hidden()
    expect(page.locator("#filter-text")).to_have_value("")
    expect(page.locator(".pass-list li:not([hidden])")).to_have_count(3)

    page.get_by_label("No-op").uncheck()  # every pass here changes: the checkbox hides none
    page.get_by_label("Changed").uncheck()
    expect(state).to_contain_text("Filtered: 0 of 3 passes shown")


def test_pass_switch_and_change_steps_are_announced(norms_page):
    page = norms_page
    announce = page.locator("#announce")
    expect(announce).to_have_attribute("aria-live", "polite")
    page.keyboard.press("j")
    expect(announce).to_have_text("Pass 2 Two: +3 \u22123, change 1 of 3")
    page.keyboard.press("]")
    expect(announce).to_have_text("change 2 of 3")
    page.locator("#fn-select").select_option("Program.rmsnorm")
    expect(announce).to_have_text("Pass 2 Two: +1 \u22121 in rmsnorm, change 1 of 1")


def test_diff_rows_are_spoken_as_lines_with_their_change(norms_page):
    page = norms_page
    before, after = pane(page, "Before"), pane(page, "After")
    deleted = before.locator(".row.del").first
    expect(deleted.locator(".sr-only").first).to_have_text(re.compile(r"^\u2212 deleted line \d+: $"))
    expect(deleted.locator(".sr-only").last).to_have_text(" \u2014 changed: \u201c0\u201d")
    added = after.locator(".row.ins").first
    expect(added.locator(".sr-only").first).to_have_text(re.compile(r"^\+ added line \d+: $"))
    expect(added.locator(".sr-only").last).to_have_text(" \u2014 changed: \u201c1\u201d")
    expect(added.locator(".ln > span")).to_have_attribute("aria-hidden", "true")
    # Each row is its own line (a list item), not part of one run-on text.
    line = r'- listitem: "\+ added line \d+: .*pl\.add\(a, 1\).* \u2014 changed: \u201c1\u201d"'
    assert re.fullmatch(line, added.aria_snapshot()), added.aria_snapshot()
    expect(after.locator(".row:not(.del):not(.ins):not(.fold):not(.fill) .sr-only").first).to_have_text(
        re.compile(r"^line \d+: $")
    )
    # A selection of the row copies its code alone, not what the screen reader hears.
    selected = added.evaluate(
        """(row) => { const range = document.createRange(); range.selectNode(row);
                      getSelection().removeAllRanges(); getSelection().addRange(range);
                      return getSelection().toString(); }"""
    )
    assert "pl.add(a, 1)" in selected and "added" not in selected and "changed" not in selected, selected


def test_deep_link_restores_the_change_and_the_filters(page, norms_report):
    open_report(page, norms_report)
    page.keyboard.press("j")
    page.keyboard.press("]")
    page.keyboard.press("]")
    expect(page.locator("#change-pos")).to_contain_text("3/3")
    page.get_by_label("No-op").uncheck()
    page.locator("#filter-text").fill("t")
    page.locator("#fn-filter").fill("post")
    link = page.evaluate("() => location.hash")
    for part in ("pass=2", "change=3", "noop=0", "filter=t", "fn-filter=post"):
        assert part in link[1:].split("&"), link

    page.goto("about:blank")
    log = open_report(page, norms_report, link)
    expect(page.locator("#change-pos")).to_contain_text("3/3")
    expect(page.locator("#pass-title")).to_contain_text("Two")
    expect(page.get_by_label("No-op")).not_to_be_checked()
    expect(page.locator("#filter-text")).to_have_value("t")
    expect(page.locator("#filter-state")).to_contain_text("Filtered: 2 of 3 passes shown")
    expect(page.locator("#fn-filter")).to_have_value("post")
    expect(page.locator("#fn-select option")).to_have_count(2)  # Whole file, post_rmsnorm
    log.assert_clean()

    page.goto("about:blank")
    open_report(page, norms_report, "#filter=thr")  # filters and no pass: the first pass they show
    expect(page.locator("#pass-title")).to_contain_text("Three")
    expect(page.locator(".pass-list li:not([hidden])")).to_have_count(1)

    page.goto("about:blank")
    open_report(page, norms_report, "#pass=2&change=9")
    expect(page.locator("#link-note")).to_contain_text("names change 9, but this view has 3 changes: showing the first")
    expect(page.locator("#change-pos")).to_contain_text("1/3")


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_a_bad_ignore_regex_and_wrapped_lines_stay_readable(browser, tmp_path, theme):
    # A changed line long enough to wrap at 1280 px: its continuation marks (↪) sit on deleted and added rows.
    long_args = ", ".join(f"arg_{i}" for i in range(60))
    snapshots = [
        (name, program({"kernel": [f"t = pl.add(a, {value}, {long_args})", "return t"]}))
        for value, name in enumerate(["frontend", "One"])
    ]
    report = build_report(write_dump(tmp_path / "passes_dump", snapshots), tmp_path / "report.html", "--no-cache", "-q")
    context, page = checked_page(browser, report, theme)
    page.get_by_role("button", name="Wrap lines").click()
    page.get_by_role("button", name="Expand all").click()  # the unchanged arguments are folded inline until then
    expect(page.locator("#scroll-before .row.del .cont").first).to_be_visible()
    assert_accessible(page, f"{theme}: wrapped lines")
    page.get_by_label("Ignore regex", exact=True).check()
    page.get_by_label("Ignore regex pattern").fill("([")
    expect(page.locator("#ignore-status")).to_contain_text("Regex not used")
    assert_accessible(page, f"{theme}: a regex that does not compile")
    context.close()


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_a_report_with_no_pass_snapshot_has_no_serious_axe_violation(browser, tmp_path, theme):
    dump = write_dump(tmp_path / "passes_dump", [("frontend", "import pypto.language as pl\n")])
    report = build_report(dump, tmp_path / "report.html", "--no-cache", "-q")
    context, page = checked_page(browser, report, theme)
    expect(page.locator("#only-frontend")).to_be_visible()
    assert_accessible(page, f"{theme}: only 00_frontend.py")
    page.get_by_role("button", name="Keyboard shortcuts").click()
    expect(page.get_by_role("dialog", name="Keyboard shortcuts")).to_be_visible()
    assert_accessible(page, f"{theme}: only 00_frontend.py, the help open")
    context.close()


def test_a_pass_switch_into_another_trace_announces_the_trace(page, tmp_path):
    # The bundled example program: PyPTO's passes 1-6, then the ptoas unit softmax_rows (numbered from 0 again).
    report = build_report(EXAMPLE.parent, tmp_path / "report.html", "--no-cache", "-q")
    log = open_report(page, report, "#pass=6")
    announce = page.locator("#announce")
    page.keyboard.press("j")
    expect(page.locator("#trace-select")).to_have_value("1")
    expect(announce).to_contain_text(re.compile(r"^Pass 0 .*, ptoas \u00b7 softmax_rows, "))
    page.keyboard.press("k")
    expect(announce).to_contain_text(re.compile(r"^Pass 6 InsertSync: .*, PyPTO \u00b7 "))
    log.assert_clean()


@pytest.mark.samples
def test_a_failed_mlir_pass_is_announced_as_failed(page, tmp_path):
    report = build_report(MLIR / "e5_pass_failure_mliropt22" / "tree", tmp_path / "report.html", "--no-cache", "-q")
    log = open_report(page, report, "#pass=9")
    page.keyboard.press("j")
    expect(page.locator("#pass-title .badge.failed")).to_be_visible()
    expect(page.locator("#announce")).to_contain_text(re.compile(r"^Pass 10 test-pass-failure .*, failed, "))
    log.assert_clean()

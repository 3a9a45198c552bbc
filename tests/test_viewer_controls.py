# ruff: noqa: F811  (tests take the imported model_page fixture as a parameter)
"""Browser tests of the viewer's controls (issue 11, items 5, 7, 8, 10, 11), in real headless Chromium
with its default settings: function focus that sticks, a dense page at 1280x800, settings that persist,
run against run across dump levels, and links naming what a report lacks.

Controls are found by their visible names. The real PyPTO samples (../shared/samples) drive the
tests that need real IR; they skip with one line without them.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from browser_support import (
    PAINTED,
    SAMPLES,
    build_report,
    expect,
    function_select,
    open_report,
    pane,
    pass_button,
    program,
    write_dump,
)
from conftest import demo_passes, generate_dump, run_cli
from test_viewer_model import PAYLOAD, evaluate, model_page  # noqa: F401  (model_page: a fixture used by name)

REAL = SAMPLES / "real"
K_PROJ = "_jit_qwen3_decode.k_proj"


def real_dump(name: str, root: str = "real") -> Path:
    return SAMPLES / root / name / "passes_dump"


@pytest.fixture(scope="module")
def cache(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("cache")


@pytest.fixture(scope="module")
def qwen_report(tmp_path_factory, cache) -> Path:
    dump = real_dump("qwen3_decode_explicit")
    if not dump.is_dir():
        pytest.skip(f"the real sample dumps are not here: {dump}")
    return build_report(dump, tmp_path_factory.mktemp("qwen") / "qwen.html", "--cache-dir", str(cache), "-q")


@pytest.fixture(scope="module")
def logs_report(tmp_path_factory, cache) -> Path:
    dump = real_dump("paged_attention_concise", "real_with_logs")
    if not dump.is_dir():
        pytest.skip(f"the real sample dumps are not here: {dump}")
    return build_report(dump, tmp_path_factory.mktemp("logs") / "logs.html", "--cache-dir", str(cache), "-q")


def focus_page(page) -> None:
    """Click an empty spot so that keys reach the page, not a field."""
    page.locator("#report-sub").click()


def press_until(page, key: str, index: int) -> None:
    focus_page(page)
    for _ in range(60):
        if pass_button(page, index).get_attribute("aria-current") == "true":
            return
        page.keyboard.press(key)
        page.evaluate("() => new Promise(requestAnimationFrame)")  # a press lands at the next frame
    raise AssertionError(f"pass {index} never reached with {key}")


def shown_stats(page) -> str:
    return page.locator("#pass-title .stats").inner_text()


# ---------- item 5: function focus ----------


@pytest.mark.samples
def test_function_focus_survives_creation_and_absence(page, qwen_report):
    log = open_report(page, qwen_report, "#pass=11")
    select = function_select(page)
    page.get_by_label("Filter functions").fill("k_proj")
    page.get_by_label("Filter functions").press("Enter")
    expect(select).to_have_value(K_PROJ)
    # The header's +/- is the function's own, the same figure as its history mark in the sidebar.
    mark = pass_button(page, 11).locator(".fn-mark").inner_text()
    assert mark.startswith("k_proj +"), mark
    assert shown_stats(page) == mark.removeprefix("k_proj ")
    assert shown_stats(page) != pass_button(page, 11).locator(".stats").inner_text()
    press_until(page, "j", 12)
    expect(select).to_have_value(K_PROJ)

    press_until(page, "k", 9)  # OutlineIncoreScopes creates it: After side only
    expect(select).to_have_value(K_PROJ)
    expect(select.locator("option:checked")).to_have_text("k_proj (created)")
    expect(page.locator("#pass-title")).to_contain_text("created")
    expect(pane(page, "Before").locator(".row:not(.fill)")).to_have_count(0)
    expect(pane(page, "After")).to_contain_text("def k_proj")

    press_until(page, "k", 8)  # no snapshot has it: the whole file, and a note that says why
    expect(select).to_have_value("")
    expect(page.locator("#fn-note")).to_contain_text("k_proj is not in this pass")
    assert "fn=_jit_qwen3_decode.k_proj" in page.url  # the selection is kept ...

    press_until(page, "j", 9)  # ... and comes back with the function
    expect(select).to_have_value(K_PROJ)
    expect(page.locator("#fn-note")).to_be_hidden()
    press_until(page, "j", 12)
    expect(select).to_have_value(K_PROJ)
    log.assert_clean()


@pytest.mark.samples
def test_forget_ends_a_kept_selection(page, qwen_report):
    log = open_report(page, qwen_report, f"#pass=8&fn={K_PROJ}")
    expect(page.locator("#fn-note")).to_contain_text("k_proj is not in this pass")
    page.locator("#fn-note").get_by_role("button", name="Forget it").click()
    expect(page.locator("#fn-note")).to_be_hidden()
    assert "fn=" not in page.url
    press_until(page, "j", 9)
    expect(function_select(page)).to_have_value("")
    log.assert_clean()


@pytest.mark.samples
def test_find_counts_follow_the_selected_function(page, qwen_report):
    log = open_report(page, qwen_report, f"#pass=12&fn={K_PROJ}")
    page.get_by_role("button", name="Expand all").click()
    find = page.get_by_label("Find", exact=True)
    find.fill("pl.tile.")
    status = page.locator("#find-status")
    expect(status).to_contain_text("(in k_proj)")
    before, after = (int(n) for n in re.search(r"(\d+) in Before \u00b7 (\d+) in After", status.inner_text()).groups())
    # Every row of the function is on screen (Expand all), so the highlighted hits are its matches.
    assert pane(page, "After").locator("mark.hit").count() == after
    assert pane(page, "Before").locator("mark.hit").count() == before
    function_select(page).select_option("")
    expect(status).not_to_contain_text("(in k_proj)")
    total_after = int(re.search(r"(\d+) in After", status.inner_text()).group(1))
    assert total_after > after
    log.assert_clean()


def test_function_filter_narrows_the_select_as_you_type(page, tmp_path):
    dump = generate_dump(tmp_path / "gen" / "passes_dump", "--functions", "40", "--lines", "8", "--passes", "4")
    report = build_report(dump, tmp_path / "gen.html", "--no-cache", "-q")
    log = open_report(page, report)
    select = function_select(page)
    every = select.locator("option").count()
    assert every > 40
    box = page.get_by_label("Filter functions")
    box.fill("7")
    narrowed = select.locator("option").all_inner_texts()
    assert narrowed[0] == "Whole file" and 1 < len(narrowed) < every
    assert all("7" in label for label in narrowed[1:])
    box.press("Enter")
    expect(select).to_have_value(re.compile(r"7"))
    assert "7" in select.input_value()
    expect(page.locator("#pass-title .fn-scope")).to_contain_text("in ")
    box.press("Escape")
    expect(select.locator("option")).to_have_count(every)
    log.assert_clean()


def test_function_filter_without_a_match_says_so_and_keeps_the_choice(page, demo_report):
    log = open_report(page, demo_report, "#pass=3&fn=Demo.kernel")
    select, box, hint = (
        function_select(page),
        page.get_by_label("Filter functions"),
        page.get_by_text("no function matches"),
    )
    every = select.locator("option").count()
    box.fill("zzz")
    expect(hint).to_be_visible()
    expect(box).to_have_attribute("aria-invalid", "true")
    expect(select).to_have_value("Demo.kernel")
    expect(select.locator("option")).to_have_text(["Whole file", re.compile("kernel")])
    box.fill("mai")  # a match: the hint goes
    expect(hint).to_be_hidden()
    expect(select).to_have_value("Demo.kernel")
    box.fill("")
    expect(select.locator("option")).to_have_count(every)
    expect(box).to_have_attribute("aria-invalid", "false")
    log.assert_clean()


# ---------- item 7: density ----------


def code_rows_in_view(page) -> int:
    """Whole code rows of the After pane inside its visible box."""
    return page.evaluate(
        """() => { const s = document.getElementById('scroll-after'), box = s.getBoundingClientRect();
                   const bottom = box.top + s.clientHeight + 0.5;
                   return [...s.querySelectorAll('.row')].filter((r) => { const b = r.getBoundingClientRect();
                     return b.height > 0 && b.top >= box.top - 0.5 && b.bottom <= bottom; }).length; }"""
    )


def changed_pass_with_warnings(page) -> int:
    """The changed pass with the most warnings (the panel at its fullest, no 'changed nothing' note)."""
    return page.evaluate(
        """() => { const p = window.__irTrace.payload.passes; let best = -1, most = -1;
                   for (let k = 1; k < p.length; k++) { const n = (p[k].log || '').split('warning:').length - 1;
                     if (p[k].changed && n > most) { most = n; best = k; } } return best; }"""
    )


@pytest.mark.samples
def test_thirty_code_rows_at_1280x800_with_every_panel(browser, logs_report):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    try:
        log = open_report(page, logs_report)
        k = changed_pass_with_warnings(page)
        pass_button(page, k).click()
        for region in ("#level-banner", "#toolbar", "#overview", "#warnings"):
            expect(page.locator(region)).to_be_visible()
        expect(page.get_by_role("button", name="Side by side")).to_have_attribute("aria-pressed", "true")
        page.get_by_role("button", name="Expand all").click()  # rows all the way down
        assert code_rows_in_view(page) >= 30
        log.assert_clean()
    finally:
        context.close()


@pytest.mark.samples
@pytest.mark.parametrize("size", [(1280, 800), (1600, 1000)])
def test_the_toolbar_names_the_pass_in_full(browser, qwen_report, size):
    """The toolbar's heading is what a reader checks first: the longest pass name is never cut."""
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    try:
        log = open_report(page, qwen_report)
        k, name = page.evaluate(
            """() => window.__irTrace.payload.passes.map((p, k) => [k, p.name])
                                 .reduce((x, y) => (y[1].length > x[1].length ? y : x))"""
        )
        pass_button(page, k).click()
        heading = page.get_by_role("heading", name=re.compile(name))
        expect(heading).to_contain_text(name)
        name_box = heading.get_by_text(name, exact=True)
        assert name_box.evaluate("(e) => e.scrollWidth <= e.clientWidth"), f"{name} is cut in the toolbar"
        expect(heading).to_have_attribute("title", re.compile(rf"^{k} {name} \+\d+ \u2212\d+"))
        log.assert_clean()
    finally:
        context.close()


@pytest.mark.samples
def test_the_after_pane_names_its_file_in_full_beside_a_compact_change_counter(browser, qwen_report):
    """At 1280x800 the pass with the most hunks: its counter reads 1/N ("change 1 of N" on hover and
    for screen readers), leaving the After pane's file name the room it needs."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    try:
        log = open_report(page, qwen_report)
        k = page.evaluate(
            """() => window.__irTrace.payload.passes.map((p, k) => [k, (p.hunks || []).length])
                                 .reduce((x, y) => (y[1] > x[1] ? y : x))[0]"""
        )
        pass_button(page, k).click()
        group = page.get_by_role("group", name="Changes in this pass")
        expect(group).to_contain_text(re.compile(r"change 1 of \d{3}"))  # what a screen reader hears
        counter = group.get_by_text(re.compile(r"^1/\d{3}$"))
        expect(counter).to_be_visible()
        expect(page.locator("#change-pos")).to_have_attribute("title", re.compile(r"^change 1 of \d{3}"))
        file_name = page.get_by_role("region", name="After snapshot").locator(".pane-file")
        expect(file_name).to_have_text(re.compile(r"_after_"))
        assert file_name.evaluate("(e) => e.scrollWidth <= e.clientWidth"), "the After file name is cut"
        log.assert_clean()
    finally:
        context.close()


@pytest.mark.samples
def test_warnings_panel_says_more_follow(page, logs_report):
    log = open_report(page, logs_report)
    pass_button(page, changed_pass_with_warnings(page)).click()
    items = page.get_by_role("region", name="Pass warnings").locator(".warn-item")
    assert items.count() >= 4
    more = page.locator("#warn-more")
    expect(more).to_be_visible()
    expect(more).to_have_text(re.compile(r"^\d+ more"))
    page.locator("#warn-list").evaluate("(list) => list.scrollTo(0, list.scrollHeight)")
    expect(more).to_be_hidden()
    log.assert_clean()


@pytest.mark.samples
def test_concise_notice_is_dismissed_for_good_and_comes_back_on_request(page, logs_report):
    log = open_report(page, logs_report)
    notice = page.locator("#level-banner")
    expect(notice).to_be_visible()
    page.get_by_role("button", name="Dismiss the CONCISE notice").click()
    expect(notice).to_be_hidden()
    page.reload()
    page.wait_for_function(PAINTED)
    expect(notice).to_be_hidden()
    tag = page.get_by_role("button", name="CONCISE")
    expect(tag).to_be_visible()
    tag.click()
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("PassDumpLevel.EXPLICIT")
    log.assert_clean()


@pytest.mark.samples
def test_sidebar_rows_never_wrap_and_name_passes_in_full_on_hover(page, logs_report):
    log = open_report(page, logs_report)
    rows = page.evaluate(
        """() => [...document.querySelectorAll('.pass-btn')].map((b) => {
             const box = b.getBoundingClientRect(), name = b.querySelector('.name');
             const parts = [...b.querySelectorAll('.idx, .name, .stats, .badge')].map((n) => n.getBoundingClientRect());
             return { height: box.height, title: b.title, name: name.textContent,
                      inside: parts.every((p) => p.left >= box.left - 0.5 && p.right <= box.right + 0.5),
                      oneLine: parts.every((p) => Math.abs(p.top + p.bottom - parts[0].top - parts[0].bottom) < 8) };
           })"""
    )
    assert len(rows) == 49
    assert all(r["oneLine"] and r["inside"] for r in rows), [
        r["name"] for r in rows if not (r["oneLine"] and r["inside"])
    ]
    assert max(r["height"] for r in rows) < 30
    assert all(r["name"] in r["title"] for r in rows)
    log.assert_clean()


def sidebar_width(page) -> float:
    return page.locator(".sidebar").bounding_box()["width"]


def test_sidebar_resizes_by_dragging_and_remembers(page, demo_dump, tmp_path):
    report = build_report(demo_dump, tmp_path / "demo.html", "--no-cache", "-q")
    log = open_report(page, report)
    start = sidebar_width(page)
    handle = page.get_by_role("separator", name="Resize the sidebar")
    box = handle.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + 200
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 60, y, steps=6)
    page.mouse.move(x + 120, y, steps=6)
    page.mouse.up()
    assert sidebar_width(page) == pytest.approx(start + 120, abs=3)
    page.reload()
    page.wait_for_function(PAINTED)
    assert sidebar_width(page) == pytest.approx(start + 120, abs=3)
    log.assert_clean()


# ---------- item 8: settings persist ----------


def test_settings_persist_and_the_fragment_wins(page, demo_dump, tmp_path):
    report = build_report(demo_dump, tmp_path / "demo.html", "--no-cache", "-q")
    log = open_report(page, report)
    theme = page.evaluate("document.documentElement.dataset.theme")
    page.get_by_role("button", name="Theme").click()
    page.get_by_role("button", name="Wrap lines").click()
    page.get_by_role("button", name="Stacked").click()
    page.get_by_role("button", name="Expand all").click()
    log.assert_clean()

    page.goto("about:blank")
    open_report(page, report)  # no fragment: the stored settings
    assert page.evaluate("document.documentElement.dataset.theme") != theme
    expect(page.get_by_role("button", name="Wrap lines")).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_role("button", name="Stacked")).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_role("button", name="Expand all")).to_have_attribute("aria-pressed", "true")
    folds = pane(page, "After").get_by_role("button", name=re.compile(r"unchanged line"))
    expect(folds).to_have_count(0)
    focus_page(page)
    page.keyboard.press("j")  # Expand all stays on from pass to pass
    expect(pass_button(page, 2)).to_have_attribute("aria-current", "true")
    expect(folds).to_have_count(0)
    page.get_by_role("button", name="Collapse all").click()
    expect(page.get_by_role("button", name="Expand all")).to_have_attribute("aria-pressed", "false")

    page.goto("about:blank")
    open_report(page, report, "#pass=3&layout=side")  # the link's layout beats the stored one ...
    expect(page.get_by_role("button", name="Side by side")).to_have_attribute("aria-pressed", "true")
    page.goto("about:blank")
    open_report(page, report)  # ... without replacing it
    expect(page.get_by_role("button", name="Stacked")).to_have_attribute("aria-pressed", "true")
    expect(folds).not_to_have_count(0)


# ---------- item 10: run against run ----------


@pytest.fixture(scope="module")
def levels_report(tmp_path_factory, cache) -> Path:
    a, b = real_dump("split_k_concise"), real_dump("split_k_explicit")
    if not (a.is_dir() and b.is_dir()):
        pytest.skip(f"the real sample dumps are not here: {a}")
    out = tmp_path_factory.mktemp("levels") / "levels.html"
    return build_report(a, out, "--against", str(b), "--cache-dir", str(cache), "-q")


@pytest.mark.samples
def test_runs_at_different_levels_say_so(page, levels_report):
    log = open_report(page, levels_report)
    notice = page.locator("#levels-banner")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("run A is CONCISE, run B is EXPLICIT")
    expect(page.locator("#report-sub")).to_contain_text("49 passes compared")
    log.assert_clean()


@pytest.mark.samples
def test_run_against_run_summary_fits_one_line_and_says_everything_on_hover(page, levels_report):
    page.set_viewport_size({"width": 1280, "height": 800})
    log = open_report(page, levels_report)
    line = page.locator("#report-sub")
    expect(line).to_have_text("49 passes compared \u00b7 39 differ")  # no pass renamed nor only in one run
    expect(line).to_have_attribute(
        "title", re.compile(r"39 differ \u00b7 0 renamed \u00b7 0 only in A \u00b7 0 only in B$")
    )
    assert line.evaluate("(span) => span.getClientRects().length") == 1
    log.assert_clean()


BEHAVIOUR_BADGES = ".badge.different, .badge.carried-over"  # the widest badges of run against run


@pytest.mark.samples
def test_differs_badges_leave_pass_names_whole(page, levels_report):
    log = open_report(page, levels_report)
    cut = page.evaluate(
        """() => [...document.querySelectorAll('.pass-btn')].filter((b) => b.querySelector(BADGES))
             .filter((b) => { const n = b.querySelector('.name'); return n.scrollWidth > n.clientWidth + 0.5; })
             .map((b) => b.querySelector('.name').textContent)""".replace("BADGES", repr(BEHAVIOUR_BADGES))
    )
    assert page.locator(f".pass-btn :is({BEHAVIOUR_BADGES})").count() > 10
    assert cut == []
    log.assert_clean()


def test_the_frontend_is_not_counted_as_a_pass(page, tmp_path):
    """Two runs whose frontends differ, and one of three passes: one pass differs, not two."""
    base = program({"kernel": ["return a"]})
    other = base.replace("return a", "return pl.add(a, a)")
    a = write_dump(tmp_path / "a" / "passes_dump", [("frontend", base), ("P1", base), ("P2", base), ("P3", other)])
    b = write_dump(tmp_path / "b" / "passes_dump", [("frontend", other), ("P1", base), ("P2", base), ("P3", base)])
    result = run_cli(a, "--against", b, "-o", tmp_path / "cmp.html", "--no-cache")
    assert result.returncode == 0, result.stderr
    assert "3 passes compared (1 differ," in result.stderr
    log = open_report(page, tmp_path / "cmp.html")
    expect(page.locator("#report-sub")).to_have_text(
        re.compile(r"^3 passes compared \u00b7 1 differ .*the frontends differ$")
    )
    log.assert_clean()


def test_two_runs_of_one_name_are_told_apart_by_their_paths(page, tmp_path):
    """Two nightly dumps of one program (or two MLIR trees both named `tree`): the title and the banner
    name each by the end of its path that differs, never `prog against prog`."""
    base = program({"kernel": ["return a"]})
    a = write_dump(tmp_path / "night1" / "prog" / "passes_dump", [("frontend", base), ("P1", base)])
    b = write_dump(tmp_path / "night2" / "prog" / "passes_dump", [("frontend", base), ("P1", base)])
    log = open_report(page, build_report(a, tmp_path / "cmp.html", "--against", str(b), "--no-cache", "-q"))
    expect(page.locator("#runs-banner")).to_have_text(
        "Run against run \u00b7 run A: night1/prog \u00b7 run B: night2/prog"
    )
    expect(page.get_by_role("heading", level=1)).to_have_text("night1/prog against night2/prog")
    log.assert_clean()


def test_the_runs_banner_never_contradicts_the_pane_labels(page, tmp_path):
    """Run A's pass shows run A on both sides: the banner must not say that After is run B."""
    base = program({"kernel": ["return a"]})
    grown = base.replace("return a", "return pl.add(a, a)")
    a = write_dump(tmp_path / "nightly" / "passes_dump", [("frontend", base), ("P1", grown)])
    b = write_dump(tmp_path / "patched" / "passes_dump", [("frontend", base), ("P1", base)])
    log = open_report(page, build_report(a, tmp_path / "cmp.html", "--against", str(b), "--no-cache", "-q"))
    banner = page.locator("#runs-banner")
    expect(banner).to_have_text("Run against run \u00b7 run A: nightly \u00b7 run B: patched")
    page.get_by_role("button", name="Run A's pass").click()
    expect(page.get_by_role("region", name="After snapshot")).to_contain_text("After \u00b7 run A")
    expect(banner).not_to_contain_text("After is run B")
    log.assert_clean()


@pytest.fixture
def shifted_report(tmp_path) -> Path:
    """Run B has a pass run A lacks, so run A's pass 2 is matched with run B's pass 3."""
    base = program({"kernel": ["return a"]})
    grown = base.replace("return a", "return pl.add(a, a)")
    a = write_dump(tmp_path / "a" / "passes_dump", [("frontend", base), ("P1", base), ("P2", grown)])
    b = write_dump(tmp_path / "b" / "passes_dump", [("frontend", base), ("P1", base), ("Extra", base), ("P2", base)])
    return build_report(a, tmp_path / "cmp.html", "--against", str(b), "--no-cache", "-q")


@pytest.mark.parametrize("fragment", ["#a=2", "#pass=2"])
def test_a_link_naming_one_run_s_pass_opens_the_entry_it_is_matched_in(page, shifted_report, fragment):
    log = open_report(page, shifted_report, fragment + "&layout=stacked")
    expect(page.locator("#pass-title")).to_contain_text("P2")
    page.wait_for_function("location.hash === '#a=2&b=3&layout=stacked'")
    expect(page.locator("#link-note")).to_be_hidden()
    log.assert_clean()


# ---------- item 11: links naming what the report lacks; --context ----------


def test_link_to_a_missing_pass_or_function_says_so_and_is_corrected(page, demo_dump, tmp_path):
    report = build_report(demo_dump, tmp_path / "demo.html", "--no-cache", "-q")
    log = open_report(page, report, "#pass=999&layout=side")
    note = page.get_by_role("status").filter(has_text="999")
    expect(note).to_be_visible()
    expect(pass_button(page, 1)).to_have_attribute("aria-current", "true")  # the first pass that changed
    expect(page).to_have_url(re.compile(r"#pass=1&layout=side$"))

    page.evaluate("location.hash = '#pass=3&fn=Nope'")
    expect(pass_button(page, 3)).to_have_attribute("aria-current", "true")
    expect(page.get_by_role("status").filter(has_text="Nope")).to_be_visible()
    expect(function_select(page)).to_have_value("")
    expect(page).to_have_url(re.compile(r"#pass=3&layout=side$"))

    page.evaluate("location.hash = '#pass=42'")  # while reading: stay on the pass, fix the link
    expect(page.get_by_role("status").filter(has_text="pass 42")).to_be_visible()
    expect(pass_button(page, 3)).to_have_attribute("aria-current", "true")
    expect(page).to_have_url(re.compile(r"#pass=3&layout=side$"))
    page.get_by_role("button", name="Dismiss the link notice").click()
    expect(page.get_by_role("status").filter(has_text="pass 42")).to_be_hidden()
    log.assert_clean()


@pytest.fixture(scope="module")
def demo_report(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("demo-links")
    dump = write_dump(root / "dump" / "passes_dump", [("frontend", demo_passes()[0]), *demo_passes()[1:]])
    return build_report(dump, root / "demo.html", "--no-cache", "-q")


@pytest.mark.parametrize(
    "fragment, notice, shown, corrected",
    [
        ("#pass=", "names no pass (pass= is empty): showing pass 1, the first that changed.", 1, "#pass=1&layout=side"),
        ("#pass=0", "pass 0, the frontend, which is not a pass", 1, "#pass=1&layout=side"),
        (
            "#pass=3&from=999",
            "compares with pass 999, which this report does not have: comparing with pass 2, the previous one.",
            3,
            "#pass=3&layout=side",
        ),
        ("#pass=2&from=3", "compares pass 2 with pass 3, which is not before it", 2, "#pass=2&layout=side"),
        (
            "#fn=Demo.kernel",
            "names function Demo.kernel but no pass: showing pass 1, the first that changed.",
            1,
            "#pass=1&fn=Demo.kernel&layout=side",
        ),
        (
            "#pass=3&colour=red",
            "has colour=red, which this viewer does not read: ignoring it.",
            3,
            "#pass=3&layout=side",
        ),
        (
            "#layout=diagonal",
            "names layout diagonal, which this viewer does not have: showing side by side.",
            1,
            "#pass=1&layout=side",
        ),
    ],
)
def test_a_link_the_report_cannot_follow_says_what_is_shown_instead(
    page, demo_report, fragment, notice, shown, corrected
):
    log = open_report(page, demo_report, fragment)
    expect(page.get_by_role("status").filter(has_text=notice)).to_be_visible()
    expect(pass_button(page, shown)).to_have_attribute("aria-current", "true")
    expect(page).to_have_url(re.compile(f"{re.escape(corrected)}$"))
    log.assert_clean()


def test_a_later_link_the_report_can_follow_hides_the_notice(page, demo_report):
    log = open_report(page, demo_report, "#pass=3&from=999")
    expect(page.get_by_role("status")).to_contain_text("pass 999")
    page.evaluate("location.hash = '#pass=3&from=1'")
    expect(page.get_by_role("status")).to_be_hidden()
    expect(page.get_by_label("Compare with")).to_have_value("1")
    log.assert_clean()


@pytest.mark.parametrize("value", ["2147483648", "4294967297", "100000000000000000000"])
def test_a_huge_context_keeps_every_line(page, tmp_path, value):
    """Past 2^31 a 32-bit `| 0` read these as 0 or 1; any value is exact (here: larger than the file)."""
    lines = [f"x{i} = {i}" for i in range(40)]
    changed = [*lines[:20], "x20 = -20", *lines[21:]]
    dump = write_dump(
        tmp_path / "ctx" / "passes_dump", [("frontend", "\n".join(lines) + "\n"), ("Edit", "\n".join(changed) + "\n")]
    )
    report = build_report(dump, tmp_path / "ctx.html", "--context", value, "--no-cache", "-q")
    log = open_report(page, report)
    after = pane(page, "After")
    expect(after.locator(".row")).to_have_count(40)
    expect(after.get_by_role("button", name=re.compile("unchanged line"))).to_have_count(0)
    assert page.evaluate("window.__irTrace.model.context") == int(value)
    log.assert_clean()


# ---------- the model behind them (no page DOM) ----------


def test_model_counts_a_function_and_knows_which_exist(model_page):
    script = """
      const m = M.createModel(arg, null), spec = m.specOf(1);
      const { choices } = m.functionChoices(spec), pick = (key) => choices.find((c) => c.key === key);
      return { f: m.functionCounts(spec, pick('f')), h: m.functionCounts(spec, pick('h')),
               g: m.functionExists('g'), nope: m.functionExists('Nope') };
    """
    r = evaluate(model_page, script, PAYLOAD)
    assert r["f"] == {"inserted": 1, "deleted": 1}  # one line edited inside f
    assert r["h"] == {"inserted": 2, "deleted": 0}  # created: all of it
    assert (r["g"], r["nope"]) == (True, False)


def test_finder_scoped_to_a_function_counts_only_its_lines(model_page):
    script = """
      const m = M.createModel(arg, null), f = IRTraceFind.createFinder(m);
      f.set('return', false, false);
      f.setScope('g');
      const g = { counts: f.counts(2), label: f.change(2).label, at: f.countAt({ run: 0, pos: 1 }) };
      f.setScope('');
      return { g, whole: f.counts(2) };
    """
    r = evaluate(model_page, script, PAYLOAD)
    assert r["g"]["counts"] == [1, 0] and r["g"]["label"] == "removed (1)"  # pass 2 deletes g
    assert r["g"]["at"] == 1
    assert r["whole"] == [3, 2]


@pytest.mark.parametrize(("given", "expected"), [(3, 3), (2**31, 2**31), (2**32 + 1, 2**32 + 1), (-4, 0)])
def test_model_context_is_exact_past_32_bits(model_page, given, expected):
    assert evaluate(model_page, "return M.createModel(arg, null).context;", {**PAYLOAD, "context": given}) == expected

"""The windowed pass list (issue 26 items 1 and 3, issue 30 item 11): a 20,000-pass report draws one
screenful of rows, the wheel and the keys (Home / End / PgUp / PgDn) reach every pass, a number typed
in the filter (or after `g`) goes to that pass, a run of no-op passes is one row that opens and closes,
and a cut name is shown whole on focus. Real Chromium, real keys and wheel."""

from __future__ import annotations

from pathlib import Path

import pytest
from browser_support import build_report, expect, nav, open_report, pass_button, write_dump

PASSES = 3_000
LONG_NAME = "iree-codegen-llvmcpu-lower-executable-target-and-vectorize-everything-in-sight"
FRAME = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"


def tiny(step: int) -> str:
    """A two-line program after `step` passes; every third pass prints what the one before did."""
    return f"x = {step - step // 3}\ny = x + 1\n"


@pytest.fixture(scope="module")
def huge_report(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("huge")
    names = [LONG_NAME if k == 3 else f"Pass{k}" for k in range(1, PASSES + 1)]
    dump = write_dump(root / "passes_dump", [("frontend", tiny(0)), *((n, tiny(k)) for k, n in enumerate(names, 1))])
    return build_report(dump, root / "huge.html", "--no-cache", "-q")


@pytest.fixture(scope="module")
def quiet_run_report(tmp_path_factory) -> Path:
    """Passes 1-3 change, 4-15 print what 3 printed (12 no-ops), 16-18 change, 19-20 are no-ops."""
    root = tmp_path_factory.mktemp("quiet")
    texts = ["x = 0\n"]
    for k in range(1, 21):
        texts.append(texts[-1] if 4 <= k <= 15 or k >= 19 else f"x = {k}\n")
    return build_report(write_dump(root / "passes_dump", texts), root / "quiet.html", "--no-cache", "-q")


def drawn_rows(page) -> int:
    return page.locator("#pass-list > li").count()


def current(page) -> int:
    return int(nav(page).locator('[aria-current="true"]').get_attribute("data-k"))


def test_a_huge_list_draws_a_screenful_and_the_wheel_reaches_far_rows(page, huge_report):
    log = open_report(page, huge_report)
    assert drawn_rows(page) < 200
    assert page.locator("#pass-list").get_attribute("aria-label") == "Passes"
    first = page.locator("#pass-list > li").first
    assert first.get_attribute("aria-setsize") == str(PASSES)
    box = page.locator("#pass-nav").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    target = pass_button(page, 400)
    for _ in range(60):
        if target.count() and target.is_visible():
            break
        page.mouse.wheel(0, 600)
        page.evaluate(FRAME)
    expect(target).to_be_visible()
    assert target.locator("xpath=..").get_attribute("aria-posinset") == "400"
    assert drawn_rows(page) < 200  # scrolled rows were recycled, not added
    target.click()
    expect(target).to_have_attribute("aria-current", "true")
    log.assert_clean()


def test_home_end_and_pages_move_in_the_list_and_open_the_pass(page, huge_report):
    log = open_report(page, huge_report, "#pass=5")
    pass_button(page, 5).focus()
    page.keyboard.press("End")
    expect(pass_button(page, PASSES)).to_have_attribute("aria-current", "true")
    expect(pass_button(page, PASSES)).to_be_focused()
    expect(page.locator("#pass-title")).to_contain_text(f"Pass{PASSES}")
    page.keyboard.press("Home")
    expect(pass_button(page, 1)).to_have_attribute("aria-current", "true")
    expect(pass_button(page, 1)).to_be_focused()
    page.keyboard.press("PageDown")
    expect(pass_button(page, 1)).not_to_be_focused()  # the press taken (a windowful on, or the test fails below)
    expect(nav(page).locator('[aria-current="true"]')).to_be_focused()
    down = current(page)
    assert 10 < down < 100  # a windowful on
    page.keyboard.press("PageUp")
    expect(pass_button(page, 1)).to_have_attribute("aria-current", "true")
    assert drawn_rows(page) < 200
    log.assert_clean()


def test_a_number_typed_in_the_filter_goes_to_that_pass(page, huge_report):
    log = open_report(page, huge_report)
    box = page.get_by_role("searchbox", name="Filter passes")
    box.click()
    box.press_sequentially("388")
    expect(page.locator("#filter-state")).to_contain_text("Enter: go to pass 388 Pass388")
    expect(pass_button(page, 388)).to_be_visible()  # offered: the list scrolled to it, nothing filtered out
    box.press("Enter")
    expect(pass_button(page, 388)).to_have_attribute("aria-current", "true")
    expect(pass_button(page, 388)).to_be_focused()
    expect(page.locator("#pass-title")).to_contain_text("Pass388")
    # `g` (or `:`) then the number, from anywhere outside a text box; the filter box gets its text back.
    page.locator("body").click(position={"x": 2, "y": 2})
    page.keyboard.press("g")
    expect(box).to_be_focused()
    page.keyboard.type("2345")
    page.keyboard.press("Enter")
    expect(pass_button(page, 2345)).to_have_attribute("aria-current", "true")
    expect(box).to_have_value("388")
    log.assert_clean()


def test_a_cut_name_is_shown_whole_on_keyboard_focus(page, huge_report):
    page.set_viewport_size({"width": 1280, "height": 800})
    log = open_report(page, huge_report, "#pass=2")
    row = pass_button(page, 3)
    name = row.locator(".name")
    assert page.evaluate("(n) => n.scrollWidth > n.clientWidth", name.element_handle())  # the row cuts it
    pass_button(page, 2).focus()
    page.keyboard.press("j")
    expect(row).to_be_focused()
    peek = page.locator(".name-peek")
    expect(peek).to_be_visible()
    expect(peek).to_have_text(LONG_NAME)
    shown = peek.bounding_box()
    assert shown["width"] >= page.evaluate("(n) => n.scrollWidth", name.element_handle()) - 1
    page.keyboard.press("j")
    expect(peek).to_be_hidden()  # Pass4 fits its row
    log.assert_clean()


def test_a_run_of_no_op_passes_is_one_row_that_opens_and_closes(page, quiet_run_report):
    log = open_report(page, quiet_run_report, "#pass=3")
    run = nav(page).get_by_role("button", name="12 no-op passes")
    expect(run).to_have_attribute("aria-expanded", "false")
    for k in (4, 10, 15):
        expect(pass_button(page, k)).to_have_count(0)
    expect(pass_button(page, 19)).to_be_visible()  # two no-ops are no run
    pass_button(page, 3).focus()
    page.keyboard.press("ArrowDown")  # in the list the run's row is a stop of its own
    expect(run).to_be_focused()
    expect(pass_button(page, 3)).to_have_attribute("aria-current", "true")
    page.keyboard.press("ArrowRight")
    expect(run).to_have_attribute("aria-expanded", "true")
    expect(run).to_be_focused()
    page.keyboard.press("ArrowDown")
    expect(pass_button(page, 4)).to_have_attribute("aria-current", "true")
    page.keyboard.press("ArrowLeft")  # from a pass inside it, the run closes and takes the focus
    expect(run).to_have_attribute("aria-expanded", "false")
    expect(run).to_be_focused()
    run.click()
    expect(run).to_have_attribute("aria-expanded", "true")
    expect(pass_button(page, 15)).to_be_visible()
    run.click()
    # j from outside the list steps over a closed run: 3 -> 16.
    pass_button(page, 3).click()
    page.locator("body").click(position={"x": 2, "y": 2})
    page.keyboard.press("j")
    expect(pass_button(page, 16)).to_have_attribute("aria-current", "true")
    log.assert_clean()


def test_a_link_to_a_pass_inside_a_closed_run_opens_the_run(page, quiet_run_report):
    log = open_report(page, quiet_run_report, "#pass=9")
    expect(pass_button(page, 9)).to_have_attribute("aria-current", "true")
    expect(nav(page).get_by_role("button", name="12 no-op passes")).to_have_attribute("aria-expanded", "true")
    log.assert_clean()


def scoped_stream(tmp_path: Path) -> Path:
    """An MLIR stream: canonicalize on the module, four passes on func.func @f (a nested pipeline), then cse."""
    from multi_trace_support import mlir_header

    def module(value: int) -> str:
        body = f"  func.func @f(%arg0: i32) -> i32 {{\n    %c = arith.constant {value} : i32\n    return %c : i32\n  }}"
        return f"module {{\n{body}\n}}"

    def func(value: int) -> str:
        return f"func.func @f(%arg0: i32) -> i32 {{\n  %c = arith.constant {value} : i32\n  return %c : i32\n}}"

    dumps = [(mlir_header("After", "Canonicalizer (canonicalize)"), module(0))]
    dumps += [(mlir_header("After", f"P{n} (p{n})", "func.func", "@f"), func(n)) for n in range(1, 5)]
    dumps.append((mlir_header("After", "CSE (cse)"), module(9)))
    stream = tmp_path / "after_all.txt"
    stream.write_text("".join(f"{head}\n{text}\n\n" for head, text in dumps), encoding="utf-8")
    return stream


def test_passes_run_on_one_op_are_grouped_under_a_header_that_folds(page, tmp_path):
    log = open_report(page, build_report(scoped_stream(tmp_path), tmp_path / "scoped.html", "--no-cache", "-q"))
    group = nav(page).locator("button.scope-head")
    expect(group).to_have_count(1)
    expect(group).to_contain_text("func.func @f")
    expect(group).to_have_attribute("aria-expanded", "true")  # open: a nested pipeline holds changes
    expect(group).to_contain_text("4 passes")
    for k in range(1, 5):
        expect(pass_button(page, k).locator("xpath=..")).to_have_class("depth-1")
        expect(pass_button(page, k).locator(".name")).to_have_text(f"p{k}")  # the header names the op once
    pass_button(page, 5).click()
    group.click()
    expect(group).to_have_attribute("aria-expanded", "false")
    expect(pass_button(page, 2)).to_have_count(0)
    expect(pass_button(page, 5)).to_be_visible()  # cse ran on the module: outside the group
    page.keyboard.press("ArrowRight")  # the header kept the focus
    expect(group).to_have_attribute("aria-expanded", "true")
    expect(pass_button(page, 2)).to_be_visible()
    log.assert_clean()


@pytest.mark.parametrize("size", [(1280, 800), (1920, 1080)], ids=["1280x800", "1920x1080"])
def test_a_link_to_a_pass_near_the_end_shows_it_in_the_list(page, huge_report, size):
    # The list is laid out from guessed row heights until the first rows drawn are measured: the pass a link
    # opens must be in sight where the measured heights put it, not where the guess did.
    page.set_viewport_size({"width": size[0], "height": size[1]})
    for k in (PASSES - 3, PASSES // 2):
        open_report(page, huge_report, f"#pass={k}")
        row, box = nav(page).locator('[aria-current="true"]'), nav(page).bounding_box()
        expect(row).to_have_attribute("data-k", str(k))
        shown = row.bounding_box()
        inside = (
            box["y"] - 1 <= shown["y"] and shown["y"] + shown["height"] <= box["y"] + box["height"] + 1
        )  # subpixels
        assert inside, (k, shown, box)

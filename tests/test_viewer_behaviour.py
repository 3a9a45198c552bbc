"""Run against run in the browser: each pass's behaviour in the sidebar, its filters, the pass the
report opens on, and the views of that pass, on a pair whose truth is known by construction."""

from __future__ import annotations

import re

import pytest
from a11y_support import serious_axe_violations
from browser_support import PAINTED, build_report, expect, nav, open_report, pass_button, write_dump
from conftest import FRONTEND, SAMPLES

SSA = FRONTEND.replace("t1", "t1__ssa_v0")
SYNC = "        pl.sync_src(pipe=pl.Pipe.V, event=0)\n"


def _with_sync(text: str) -> str:
    return text.replace("        return pl.store", SYNC + "        return pl.store")


def _runs() -> tuple[list, list]:
    """Passes 1 same, 2 different (Simplify rewrites the add: into `mul(t0, 2)` in A, `mul(t0, t0)` in
    B), 3 and 4 carried over (InsertSync and Tidy make the same change in both runs to inputs that
    differ since pass 2)."""
    twice, squared = (SSA.replace("pl.add(t0, t0)", f"pl.mul(t0, {arg})") for arg in ("2", "t0"))
    run_a = [FRONTEND, ("ConvertToSSA", SSA), ("Simplify", twice), ("InsertSync", _with_sync(twice))]
    run_b = [FRONTEND, ("ConvertToSSA", SSA), ("Simplify", squared), ("InsertSync", _with_sync(squared))]
    run_a.append(("Tidy", _with_sync(twice).replace("# pypto.program", "# program")))
    run_b.append(("Tidy", _with_sync(squared).replace("# pypto.program", "# program")))
    return run_a, run_b


@pytest.fixture(scope="module")
def behaviour_report(tmp_path_factory):
    root = tmp_path_factory.mktemp("behaviour")
    run_a, run_b = _runs()
    dump_a = write_dump(root / "a" / "passes_dump", run_a)
    dump_b = write_dump(root / "b" / "passes_dump", run_b)
    return build_report(dump_a, root / "cmp.html", "--against", str(dump_b), "--no-cache", "-q")


@pytest.fixture
def behaviour_page(page, behaviour_report):
    log = open_report(page, behaviour_report)
    yield page
    log.assert_clean()


def listed(page) -> list[int]:
    return [int(k) for k in nav(page).locator("li:not([hidden]) button").evaluate_all("bs => bs.map(b => b.dataset.k)")]


def test_the_sidebar_shows_each_passes_behaviour_and_opens_on_the_first_different(behaviour_page):
    page = behaviour_page
    expect(pass_button(page, 2)).to_have_attribute("aria-current", "true")  # not 0 nor 1: they are the same
    badges = {k: pass_button(page, k).locator(".badges").inner_text() for k in range(5)}
    assert badges == {0: "same", 1: "same", 2: "different", 3: "carried", 4: "carried"}


def test_the_behaviour_filters_different_first_hide_the_carried_over_passes(behaviour_page):
    page = behaviour_page
    group = page.get_by_role("group", name="Behaviour")
    names = group.get_by_role("button").all_inner_texts()
    assert names == ["Different 1", "Carried over 2", "Same 2", "Only in one run 0"]
    different = group.get_by_role("button", name="Different 1")
    different.click()
    expect(different).to_have_attribute("aria-pressed", "true")
    assert listed(page) == [2]
    expect(page.locator("#filter-state-text")).to_have_text("Filtered: 1 of 5 passes shown.")
    group.get_by_role("button", name="Carried over 2").click()  # pressed filters add up
    assert listed(page) == [2, 3, 4]
    different.press("Enter")  # the keyboard too: Different off again, only the carried-over passes listed
    expect(different).to_have_attribute("aria-pressed", "false")
    assert listed(page) == [3, 4]
    page.get_by_role("button", name="Clear filters").click()
    assert listed(page) == [0, 1, 2, 3, 4]
    assert (
        group.get_by_role("button").evaluate_all("bs => bs.map(b => b.getAttribute('aria-pressed'))") == ["false"] * 4
    )


def test_the_behaviour_filters_are_reached_by_the_arrow_keys_of_the_pass_options(behaviour_page):
    page = behaviour_page
    page.get_by_label("Same", exact=True).focus()
    page.keyboard.press("ArrowRight")
    focused = page.evaluate("document.activeElement.textContent")
    assert focused == "Different 1"
    page.keyboard.press("Space")
    assert listed(page) == [2]


def change_lines(page, run: str) -> list[str]:
    """The lines of one run's change as listed: sign, text, and `!` for those only that run has."""
    items = page.get_by_role("list", name=f"Run {run}'s change").locator("li")
    script = """items => items.map((li) => (li.classList.contains('only') ? '!' : '') +
        li.querySelector('.change-sign').textContent + li.querySelector('.change-text').textContent.trim())"""
    return items.evaluate_all(script)


def test_the_first_different_pass_opens_on_its_two_changes_side_by_side(behaviour_page):
    page = behaviour_page
    changes = page.get_by_role("region", name="The two changes")
    expect(changes).to_be_visible()
    expect(page.get_by_role("button", name="Changes")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#panes")).to_be_hidden()
    # both runs deleted the add (not emphasised); each inserted its own line (only in that run)
    add, sync = "t1__ssa_v0: pl.Tile[[16, 16], pl.FP32] = pl.add(t0, t0)", SYNC.strip()
    assert change_lines(page, "A") == [f"-{add}", "!+" + add.replace("add(t0, t0)", "mul(t0, 2)")]
    assert change_lines(page, "B") == [f"-{add}", "!+" + add.replace("add(t0, t0)", "mul(t0, t0)")]
    expect(changes).to_contain_text("02_after_Simplify.py")
    expect(changes.locator(".change-line.only .sr-only")).to_have_text([" (only in run A)", " (only in run B)"])

    page.keyboard.press("j")  # the next pass, carried over: the same inserted line in both, nothing emphasised
    expect(pass_button(page, 3)).to_have_attribute("aria-current", "true")
    expect(page.get_by_role("list", name="Run A's change")).to_contain_text(sync)
    assert change_lines(page, "A") == change_lines(page, "B") == [f"+{sync}"]
    assert "view=change" in page.url


def test_a_vs_b_and_each_runs_pass_are_one_click_from_the_changes(behaviour_page):
    page = behaviour_page
    changes, panes = page.get_by_role("region", name="The two changes"), page.locator("#panes")
    page.get_by_role("button", name="A vs B").click()
    expect(changes).to_be_hidden()
    expect(panes).to_be_visible()
    expect(page.get_by_role("region", name="After snapshot")).to_contain_text("pl.mul(t0, t0)")
    expect(page.get_by_role("region", name="Before snapshot")).to_contain_text("pl.mul(t0, 2)")
    page.get_by_role("button", name="Run A's pass").click()
    expect(page.get_by_role("region", name="Before snapshot").locator(".pane-label")).to_have_text(
        "Before \u00b7 run A"
    )
    expect(page.get_by_role("region", name="After snapshot").locator(".pane-label")).to_have_text("After \u00b7 run A")
    page.get_by_role("button", name="Changes").click()
    expect(changes).to_be_visible()
    expect(panes).to_be_hidden()
    pass_button(page, 0).click()  # the frontend has no change of its own: A vs B instead
    expect(page.get_by_role("button", name="Changes")).to_be_disabled()
    expect(changes).to_be_hidden()
    expect(panes).to_be_visible()


def test_a_report_with_behaviours_is_axe_clean(behaviour_page):
    page = behaviour_page
    assert serious_axe_violations(page) == []  # the Changes view
    page.get_by_role("group", name="Behaviour").get_by_role("button", name="Different 1").click()
    page.get_by_role("button", name="A vs B").click()
    assert serious_axe_violations(page) == []


def test_behaviours_read_under_ignore_modes_say_so_and_follow_them(page, tmp_path):
    """Run B prints its SSA versions otherwise from ConvertToSSA on: under --ignore ssa nothing behaves
    differently: no Different pass, and the report opens where the printed outputs first differ."""
    run_a, _ = _runs()
    renumbered = [
        item if isinstance(item, str) else (item[0], item[1].replace("__ssa_v0", "__ssa_v2")) for item in run_a
    ]
    dump_a = write_dump(tmp_path / "a" / "passes_dump", run_a)
    dump_b = write_dump(tmp_path / "b" / "passes_dump", renumbered)
    out = build_report(dump_a, tmp_path / "cmp.html", "--against", str(dump_b), "--ignore", "ssa", "--no-cache", "-q")
    log = open_report(page, out)
    expect(page.locator("#runs-banner")).to_contain_text("behaviour ignoring SSA versions")
    expect(page.get_by_role("group", name="Behaviour").get_by_role("button").first).to_have_text("Different 0")
    expect(pass_button(page, 1)).to_have_attribute("aria-current", "true")
    assert {pass_button(page, k).locator(".badges").inner_text() for k in range(5)} == {"same"}
    log.assert_clean()


def test_a_behaviour_filter_hiding_every_pass_clears_the_changes_too(behaviour_page):
    page = behaviour_page
    changes = page.get_by_role("region", name="The two changes")
    only = page.get_by_role("group", name="Behaviour").get_by_role("button", name="Only in one run 0")
    only.click()
    assert listed(page) == []
    expect(changes).to_be_hidden()
    expect(page.locator("#panes-empty")).to_be_visible()
    only.click()
    expect(changes).to_be_visible()
    expect(page.locator("#panes-empty")).to_be_hidden()


@pytest.mark.parametrize(("fragment", "shown"), [("#a=3&b=3&view=change", "changes"), ("#a=2&b=2", "panes")])
def test_a_link_names_its_view_and_wins_over_the_opening_one(page, behaviour_report, fragment, shown):
    log = open_report(page, behaviour_report, fragment)
    expect(page.locator(f"#{shown}")).to_be_visible()
    expect(page.locator("#changes" if shown == "panes" else "#panes")).to_be_hidden()
    log.assert_clean()


D2 = SAMPLES / "mlir"


@pytest.mark.samples
def test_mlir_trees_tile16_against_tile32_open_where_the_tiling_parts(page, tmp_path):
    tile16, tile32 = D2 / "d2_ireeopt_affine_tile16" / "tree", D2 / "d2_ireeopt_affine_tile32" / "tree"
    if not (tile16.is_dir() and tile32.is_dir()):
        pytest.skip(f"the d2 MLIR samples are not here: {D2}")
    log = open_report(page, build_report(tile16, tmp_path / "d2.html", "--against", str(tile32), "--no-cache", "-q"))
    # the tree's first dump is affine-loop-tile's own output: no input to change, so A vs B, not Changes
    expect(pass_button(page, 0)).to_have_attribute("aria-current", "true")
    expect(page.get_by_role("button", name="Changes")).to_be_disabled()
    expect(page.get_by_role("button", name="A vs B")).to_have_attribute("aria-pressed", "true")
    group = page.get_by_role("group", name="Behaviour")
    group.get_by_role("button", name="Carried over 8").click()
    assert listed(page) == list(range(1, 9))
    expect(pass_button(page, 1)).to_have_attribute("aria-current", "true")  # the selection moved to a listed pass
    page.get_by_role("button", name="Changes").click()
    changes = page.get_by_role("region", name="The two changes")
    expect(changes.locator("h3")).to_have_text(
        [re.compile(r"^Run A: .*invariant-code-motion"), re.compile(r"^Run B: .*invariant-code-motion")]
    )
    log.assert_clean()


def test_the_behaviour_filters_are_written_into_the_link_and_a_reload_restores_them(behaviour_page):
    page = behaviour_page
    group = page.get_by_role("group", name="Behaviour")
    group.get_by_role("button", name="Carried over 2").click()
    group.get_by_role("button", name="Different 1").click()
    fragment = page.evaluate("location.hash")
    assert "behaviour=different%2Ccarried-over" in fragment, fragment  # in the buttons' order, whatever the clicks'
    page.reload()
    page.wait_for_function(PAINTED)
    pressed = group.get_by_role("button").evaluate_all("bs => bs.map(b => b.getAttribute('aria-pressed'))")
    assert pressed == ["true", "true", "false", "false"]
    assert listed(page) == [2, 3, 4] and page.evaluate("location.hash") == fragment
    page.get_by_role("button", name="Clear filters").click()
    assert "behaviour=" not in page.evaluate("location.hash")


def test_a_link_naming_a_behaviour_presses_its_filter_and_says_which_it_cannot(page, behaviour_report):
    log = open_report(page, behaviour_report, "#a=3&b=3&behaviour=carried-over,bogus")
    note = "names behaviour bogus, which this report does not have: ignoring it"
    expect(page.locator("#link-note")).to_contain_text(note)
    assert listed(page) == [3, 4]
    expect(pass_button(page, 3)).to_have_attribute("aria-current", "true")
    assert "behaviour=carried-over&" in page.evaluate("location.hash") + "&"
    log.assert_clean()


def test_a_link_naming_a_pass_its_behaviour_filters_would_hide_opens_it_with_them_released(page, behaviour_report):
    log = open_report(page, behaviour_report, "#a=3&b=3&behaviour=different")
    note = "names pass 3 (Carried over) with behaviour=different: showing it, with the Behaviour filters released"
    expect(page.locator("#link-note")).to_contain_text(note)
    expect(pass_button(page, 3)).to_have_attribute("aria-current", "true")
    assert listed(page) == [0, 1, 2, 3, 4] and "behaviour=" not in page.evaluate("location.hash")
    log.assert_clean()

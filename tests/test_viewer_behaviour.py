"""Run against run in the browser: each pass's behaviour in the sidebar, its filters, the pass the
report opens on, and the views of that pass, on a pair whose truth is known by construction."""

from __future__ import annotations

import pytest
from a11y_support import serious_axe_violations
from browser_support import build_report, expect, nav, open_report, pass_button, write_dump
from conftest import FRONTEND

SSA = FRONTEND.replace("t1", "t1__ssa_v0")
SYNC = "        pl.sync_src(pipe=pl.Pipe.V, event=0)\n"


def _with_sync(text: str) -> str:
    return text.replace("        return pl.store", SYNC + "        return pl.store")


def _runs() -> tuple[list, list]:
    """Passes 1 same, 2 different (B's Simplify turns the add into a mul), 3 and 4 carried over
    (InsertSync and Tidy make the same change in both runs to inputs that differ since pass 2)."""
    mul = SSA.replace("pl.add(t0, t0)", "pl.mul(t0, t0)")
    run_a = [FRONTEND, ("ConvertToSSA", SSA), ("Simplify", SSA), ("InsertSync", _with_sync(SSA))]
    run_b = [FRONTEND, ("ConvertToSSA", SSA), ("Simplify", mul), ("InsertSync", _with_sync(mul))]
    run_a.append(("Tidy", _with_sync(SSA).replace("# pypto.program", "# program")))
    run_b.append(("Tidy", _with_sync(mul).replace("# pypto.program", "# program")))
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


def test_a_report_with_behaviours_is_axe_clean(behaviour_page):
    page = behaviour_page
    assert serious_axe_violations(page) == []
    page.get_by_role("group", name="Behaviour").get_by_role("button", name="Different 1").click()
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

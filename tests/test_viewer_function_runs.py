"""Function lists carried as runs over the list before them (report/function_runs.py): the page works them out.

Each pass grows the first function by a line, so every function after it moves; one pass adds a function in the
middle, another removes one. The payload writes those lists as runs; the page must still offer and show each
function at its place."""

from __future__ import annotations

import re

from browser_support import build_report, expect, function_select, open_report, pane, pass_button, write_dump
from test_viewer import function

from ir_trace.report.render import read_payload

HEAD = ["import pypto.language as pl", "", "@pl.program", "class P:"]
BODY = {"k1": 5, "k2": 6, "added": 7, "k3": 8, "k4": 9, "k5": 10}  # k0's body: 4 lines and one more each pass


def lines_of(name: str, step: int) -> list[str]:
    return function(name, 4 + step if name == "k0" else BODY[name])


def snapshot(step: int) -> str:
    names = ["k0", "k1", "k2", "k3", "k4", "k5"]
    if step >= 3:
        names.insert(3, "added")
    if step >= 5:
        names.remove("k1")
    return "\n".join(HEAD + [line for name in names for line in lines_of(name, step)]) + "\n"


def test_functions_written_as_runs_are_offered_and_shown_where_they_are(page, tmp_path):
    steps = [("frontend", snapshot(0))] + [(f"Grow{step}", snapshot(step)) for step in range(1, 7)]
    dump = write_dump(tmp_path / "runs" / "passes_dump", steps)
    report = build_report(dump, tmp_path / "r.html", "--no-cache", "-q")
    written = read_payload(report.read_text(encoding="utf-8"), as_written=True)["passes"]
    assert sum(isinstance(record.get("functions"), dict) for record in written) >= 5  # the runs are what is read
    log = open_report(page, report, "#pass=6")
    select = function_select(page)
    expect(pass_button(page, 6)).to_have_attribute("aria-current", "true")
    options = select.locator("option").all_inner_texts()
    assert options == ["Whole file", "k0", "k2", "added", "k3", "k4", "k5"]
    for name, other in [("k5", "def k4"), ("added", "def k3"), ("k2", "def k0")]:
        select.select_option(label=name)
        page.get_by_role("button", name="Expand all").click()
        after = pane(page, "After")
        expect(after).to_contain_text(f"def {name}(")
        expect(after).not_to_contain_text(other)
        expect(after.locator(".row:not(.fill)")).to_have_count(len(lines_of(name, 6)))
    pass_button(page, 3).click()
    expect(select.locator("option", has_text=re.compile(r"^added \(created\)$"))).to_have_count(1)
    pass_button(page, 5).click()
    expect(select.locator("option", has_text=re.compile(r"^k1 \(removed\)$"))).to_have_count(1)
    log.assert_clean()

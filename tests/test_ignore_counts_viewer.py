"""Toggling an ignore mode repaints the sidebar from the counts the report carries (ignore_counts.py),
in real Chromium: the counts shown are the `--json` summary's under that mode, and no pass is recounted
in the page (`__irTrace.model.timings.recounts`). A set the report does not carry (two of the three
modes, a regex) is still recounted, and still right."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from browser_support import SAMPLES, build_report, open_report, pass_button, write_dump

SETTLED = "() => document.getElementById('pass-nav').dataset.ignoring === 'done'"
RECOUNTS = "() => __irTrace.model.timings.recounts"
SHOWN = """() => Object.fromEntries(__irTrace.model.entries.filter((e) => e && !e.start)
  .map((e) => [e.index, [e.inserted, e.deleted]]))"""
B3 = SAMPLES / "mlir" / "b3_full_ireecompile_conv" / "tree"

PASSES = [  # renumberings, reindents, both, and real edits, so each mode counts differently
    "def f(x):\n    a__ssa_v0 = x\n    c = 1\n    return a__ssa_v0\n",
    "def f(x):\n    a__ssa_v1 = x\n    c = 1\n    return a__ssa_v1\n",
    "def f(x):\n      a__ssa_v1 = x\n      c = 1\n      return a__ssa_v1\n",
    "def f(x):\n    a__ssa_v2 = x\n    c = 2\n    b = a__ssa_v2\n    return b\n",
    "def f(x):\n    a__ssa_v2  =  x\n    c = 2\n    b = a__ssa_v2\n    return b\n",
]


@pytest.fixture(scope="module")
def renames(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("renames")
    return write_dump(folder / "passes_dump", PASSES)


def json_counts(dump: Path, folder: Path, modes: str) -> dict[int, list[int]]:
    """index -> [inserted, deleted] of each pass as `--json` counts it under `modes`."""
    summary = folder / f"{modes.replace(',', '_')}.json"
    build_report(dump, folder / "summary.html", "--ignore", modes, "--json", str(summary))
    passes = json.loads(summary.read_text(encoding="utf-8"))
    passes = passes["passes"] if "passes" in passes else [p for t in passes["traces"] for p in t["passes"]]
    return {p["index"]: [p["ignoring"]["inserted"], p["ignoring"]["deleted"]] for p in passes}


def shown(page) -> dict[int, list[int]]:
    return {int(k): v for k, v in page.evaluate(SHOWN).items()}


def toggle(page, label: str, on: bool = True) -> None:
    box = page.get_by_label(label, exact=True)
    box.check() if on else box.uncheck()
    page.wait_for_function(SETTLED)


def test_a_single_mode_and_the_all_on_set_repaint_from_the_reports_counts(page, renames, tmp_path):
    log = open_report(page, build_report(renames, tmp_path / "r.html"), "#pass=1")
    toggle(page, "Ignore SSA versions")
    assert shown(page) == json_counts(renames, tmp_path, "ssa")
    assert pass_button(page, 1).locator(".badge.noop").count() == 1  # the renumbering reads no-op
    assert page.evaluate(RECOUNTS) == 0
    toggle(page, "Ignore whitespace")  # on the way: two of three, recounted (the next test)
    recounted = page.evaluate(RECOUNTS)
    toggle(page, "Ignore memory annotations")  # all three on: the set the report carries
    assert shown(page) == json_counts(renames, tmp_path, "ssa,memref,whitespace")
    assert page.evaluate(RECOUNTS) == recounted
    log.assert_clean()


def test_a_set_the_report_does_not_carry_is_recounted_in_the_page(page, renames, tmp_path):
    log = open_report(page, build_report(renames, tmp_path / "r.html"), "#pass=1")
    toggle(page, "Ignore SSA versions")
    toggle(page, "Ignore whitespace")  # two of the three: not precomputed
    assert page.evaluate(RECOUNTS) == len(PASSES) - 1
    assert shown(page) == json_counts(renames, tmp_path, "ssa,whitespace")
    log.assert_clean()


def test_a_typed_regex_is_recounted_in_the_page(page, renames, tmp_path):
    log = open_report(page, build_report(renames, tmp_path / "r.html"), "#pass=1")
    page.get_by_label("Ignore regex", exact=True).check()
    page.locator("#ignore-regex-text").fill(r"__ssa_v\d+")
    page.wait_for_function("() => __irTrace.model.ignoring() !== null")
    page.wait_for_function(SETTLED)
    assert page.evaluate(RECOUNTS) == len(PASSES) - 1
    log.assert_clean()


@pytest.mark.samples
def test_the_iree_pipeline_toggles_from_the_reports_counts(page, tmp_path):
    if not B3.is_dir():
        pytest.skip(f"the IREE sample is not here: {B3}")
    log = open_report(page, build_report(B3, tmp_path / "b3.html"))
    toggle(page, "Ignore SSA versions")
    assert page.evaluate(RECOUNTS) == 0
    want = json_counts(B3, tmp_path, "ssa")
    assert shown(page) == {index: want[index] for index in shown(page)}
    log.assert_clean()

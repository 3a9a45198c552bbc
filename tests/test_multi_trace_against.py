"""Run against run of program directories holding several traces (issue 27 item 6): the traces of A
and B pair by stage and unit, each pair's passes are classified, and the one page shows one pair.
Truth by construction: a program copied, one pass's output edited in one trace."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from conftest import SAMPLES, run_cli
from multi_trace_support import MODULE, write_program

from ir_trace.inputs.discovery import Manifest
from ir_trace.inputs.traces import Trace
from ir_trace.report.against import Comparison, MatchRow, pair_traces, shown_pair
from ir_trace.report.page_model import Report
from ir_trace.report.render import read_payload

CSE_OUTPUT = Path("ptoas_passes", "kernel_a", MODULE, "1_cse.mlir")


def two_programs(tmp_path: Path) -> tuple[Path, Path]:
    """Program A, and B: A's copy whose kernel_a CSE keeps another dead constant (`%c8` for `%c7`),
    which the next pass (symbol-dce) deletes just as it deletes A's: one `different`, one carried over."""
    program_a, program_b = write_program(tmp_path / "a"), write_program(tmp_path / "b")
    edited = program_b / CSE_OUTPUT
    text = edited.read_text("utf-8")
    assert "%c7 = arith.constant 7" in text
    edited.write_text(text.replace("%c7 = arith.constant 7", "%c8 = arith.constant 8"), "utf-8")
    return program_a, program_b


def against(dump_a: Path, dump_b: Path, tmp_path: Path, *extra: str):
    report, summary = tmp_path / "report.html", tmp_path / "summary.json"
    outputs = ("-o", report, "--json", summary, "--cache-dir", tmp_path / "c")
    result = run_cli(dump_a, "--against", dump_b, *outputs, *extra)
    assert result.returncode == 0, result.stderr
    return result.stderr, read_payload(report.read_text("utf-8")), json.loads(summary.read_text("utf-8"))


def behaviours(trace: dict) -> list[str]:
    return [row["behaviour"] for row in trace["passes"]]


def test_every_pair_of_traces_is_classified_and_the_line_names_the_trace(tmp_path):
    line, page, summary = against(*two_programs(tmp_path), tmp_path)
    assert [t["trace"] for t in summary["traces"]] == ["pypto:", "ptoas:kernel_a", "ptoas:kernel_b"]
    by_trace = {t["trace"]: t for t in summary["traces"]}
    assert behaviours(by_trace["pypto:"]) == ["same"] * 3
    assert behaviours(by_trace["ptoas:kernel_a"]) == ["same", "different", "carried-over"]
    assert behaviours(by_trace["ptoas:kernel_b"]) == ["same"] * 3
    assert by_trace["ptoas:kernel_a"]["first_different"] == {"index": 1, "name": "CSE (cse)"}
    assert summary["first_different"] == {"index": 1, "name": "CSE (cse)", "trace": "ptoas:kernel_a"}
    assert summary["only_in_a"] == summary["only_in_b"] == [] and summary["shown"] == "ptoas:kernel_a"
    assert "3 traces paired, 6 passes compared (1 differ," in line, line
    assert "first at pass 01 CSE (cse) in ptoas kernel_a" in line, line
    assert "first different: 01 CSE (cse) in ptoas kernel_a, 1 carried over; the page shows ptoas kernel_a" in line
    # The page holds the pair with the different pass: kernel_a's two runs.
    assert page["mode"] == "against" and page["title"].startswith("ptoas kernel_a: ")
    assert [m["behaviour"] for m in page["matches"]] == ["same", "different", "carried-over"]


def test_a_report_found_current_says_the_same(tmp_path):
    program_a, program_b = two_programs(tmp_path)
    first, _page, summary = against(program_a, program_b, tmp_path)
    again, _page, summary_again = against(program_a, program_b, tmp_path)
    assert "report unchanged" in again and summary_again == summary
    assert again.split(" · ")[0] == first.split(" · ")[0]


def test_traces_only_in_one_run_are_named(tmp_path):
    program_a, program_b = two_programs(tmp_path)
    for unit in (program_b / "ptoas_passes" / "kernel_b").rglob("*.mlir"):
        unit.unlink()
    line, page, summary = against(program_a, program_b, tmp_path)
    shown = {"trace": "ptoas kernel_a", "pairs": 2, "only_in_a": ["ptoas kernel_b"], "only_in_b": []}
    assert page["shown_trace"] == shown
    assert summary["only_in_a"] == ["ptoas:kernel_b"] and summary["only_in_b"] == []
    assert [t["trace"] for t in summary["traces"]] == ["pypto:", "ptoas:kernel_a"]
    assert ": 2 traces paired (ptoas kernel_b only in A), 4 passes compared" in line, line


def test_a_passes_dump_against_a_program_pairs_its_pypto_trace(tmp_path):
    program_a, program_b = two_programs(tmp_path)
    line, page, summary = against(program_a / "passes_dump", program_b, tmp_path)
    assert [t["trace"] for t in summary["traces"]] == ["pypto:"]
    assert summary["only_in_b"] == ["ptoas:kernel_a", "ptoas:kernel_b"] and summary["first_different"] is None
    assert "1 trace paired (ptoas kernel_a only in B, ptoas kernel_b only in B), 2 passes compared" in line, line
    assert "the page shows" not in line and page["title"].startswith("pypto: ")


def test_ignore_modes_apply_to_every_pair(tmp_path):
    line, _page, summary = against(*two_programs(tmp_path), tmp_path, "--ignore", "ssa")
    rows = [row for trace in summary["traces"] for row in trace["passes"][1:]]
    assert all("ignoring" in row for row in rows) and summary["ignore"]["modes"] == ["ssa"]
    differ = sum(row["ignoring"]["differs"] for row in rows)
    assert re.search(rf"; {differ} differ when ignoring SSA", line), line


def test_runs_sharing_no_trace_are_refused_in_one_line(tmp_path):
    program_a, program_b = two_programs(tmp_path)
    result = run_cli(program_a / "passes_dump", "--against", program_b / "ptoas_passes", "-o", tmp_path / "r.html")
    assert result.returncode == 1 and result.stderr.count("\n") == 1, result.stderr
    assert "no trace of" in result.stderr and "(pypto)" in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "r.html").exists()


def trace(stage: str, unit: str) -> Trace:
    return Trace(stage, unit, Manifest("/d", "d", ()))


def test_one_trace_each_pairs_whatever_their_names_and_several_pair_by_stage_and_unit():
    pairs, only_a, only_b = pair_traces([trace("mlir", "")], [trace("ptoas", "k")])
    assert [(a.label, b.label) for a, b in pairs] == [("mlir", "ptoas k")] and only_a == only_b == []
    pairs, only_a, only_b = pair_traces(
        [trace("pypto", ""), trace("ptoas", "k1"), trace("ptoas", "k2")], [trace("ptoas", "k2"), trace("ptoas", "k3")]
    )
    assert [(a.label, b.label) for a, b in pairs] == [("ptoas k2", "ptoas k2")]
    assert [t.label for t in only_a] == ["pypto", "ptoas k1"] and [t.label for t in only_b] == ["ptoas k3"]


def test_the_page_shows_the_first_pair_with_a_different_pass_else_the_first_that_differs():
    def pair(*rows: tuple[str, bool]) -> Comparison:
        frontend = MatchRow(0, 0, "matched", True, "different")  # the frontend is no pass: never chosen for it
        matches = (frontend, *(MatchRow(k, k, "matched", d, b) for k, (b, d) in enumerate(rows, 1)))
        run = Report("g", "t", "/d", 0, "UNKNOWN", ())
        return Comparison("g", "t against t", ("t", "t"), 0, "UNKNOWN", (run, run), matches)

    same, carried, different = pair(("same", False)), pair(("carried-over", True)), pair(("different", True))
    assert shown_pair([same, carried, different]) == 2
    assert shown_pair([same, carried, same]) == 1
    assert shown_pair([same, same]) == 0


def test_the_page_opens_on_the_different_pass_of_the_pair_it_shows(page, tmp_path):
    from browser_support import build_report, expect, open_report, pass_button

    program_a, program_b = two_programs(tmp_path)
    log = open_report(page, build_report(program_a, tmp_path / "r.html", "--against", str(program_b), "--no-cache"))
    expect(page.locator("h1.report-title")).to_have_text(re.compile(r"^ptoas kernel_a: "))
    expect(pass_button(page, 1)).to_have_attribute("aria-current", "true")  # kernel_a's CSE, the different pass
    changes = page.get_by_role("region", name="The two changes")
    heads = [re.compile(rf"^Run {run}: .*1_cse.mlir") for run in "AB"]
    expect(changes.locator("h3")).to_have_text(heads)
    banner = page.locator("#runs-banner")
    expect(banner).to_contain_text("run B: b/prog/ptoas_passes/kernel_a · 1 of 3 trace pairs")
    why = re.compile(r"\ntrace ptoas kernel_a: the first pair with a pass that behaved")
    expect(banner).to_have_attribute("title", why)
    page.screenshot(path="/tmp/h2_against_traces.png")
    log.assert_clean()


QWEN3 = SAMPLES / "real" / "qwen3_decode_explicit" / "passes_dump"
TILES = SAMPLES / "mlir" / "d2_ireeopt_affine_tile16" / "tree", SAMPLES / "mlir" / "d2_ireeopt_affine_tile32" / "tree"


@pytest.mark.samples
def test_real_programs_each_pair_keeps_its_own_truth(tmp_path):
    """A: qwen3_decode_explicit with the tile16 tree as ptoas unit `tile`; B: the same with one
    allocation moved in snapshots 35-49 and the tile32 tree. Alone, each pair is known: qwen3 one
    `different` (35) and 14 carried over, the trees 8 carried over (test_behaviour.py)."""
    if not (QWEN3.is_dir() and all(tree.is_dir() for tree in TILES)):
        pytest.skip(f"the qwen3 and d2 samples are not here: {SAMPLES}")
    program_a, program_b = tmp_path / "a" / "prog", tmp_path / "b" / "prog"
    for program, tree in zip((program_a, program_b), TILES):
        shutil.copytree(QWEN3, program / "passes_dump")
        shutil.copytree(tree, program / "ptoas_passes" / "tile")
    for snapshot in (program_b / "passes_dump").iterdir():
        if 35 <= int(snapshot.name[:2]) <= 49:
            snapshot.write_text(snapshot.read_text().replace("139328", "139840"))
    line, page, summary = against(program_a, program_b, tmp_path)
    by_trace = {t["trace"]: behaviours(t) for t in summary["traces"]}
    assert list(by_trace) == ["pypto:", "ptoas:tile"]
    assert [i for i, kind in enumerate(by_trace["pypto:"]) if kind == "different"] == [35]
    assert by_trace["pypto:"][36:50] == ["carried-over"] * 14 and by_trace["ptoas:tile"][1:] == ["carried-over"] * 8
    assert summary["first_different"] == {"index": 35, "name": "AllocateMemoryAddr", "trace": "pypto:"}
    assert "first different: 35 AllocateMemoryAddr in pypto, 22 carried over; the page shows pypto" in line, line
    assert page["title"].startswith("pypto: ")

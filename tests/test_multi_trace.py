"""One report of several traces (issue 17): a program output directory holding PyPTO's passes_dump/
and ptoas's per-unit MLIR trees, through the real command line, Luigi and the on-disk cache."""

from __future__ import annotations

import json
import re
from pathlib import Path

from conftest import run_cli
from multi_trace_support import MODULE, write_program

from ir_trace.inputs.discovery import Manifest, Snapshot
from ir_trace.inputs.mlir.headers import PassHeader
from ir_trace.report.page_model import PassRecord, Report, Trace
from ir_trace.report.pass_diff import PassDiff
from ir_trace.report.payload import trace_payloads
from ir_trace.report.render import read_payload
from ir_trace.summaries.runs import RunCounts
from ir_trace.summaries.trace import run_counts


def build(program: Path, tmp_path: Path, *extra: str):
    report, summary = tmp_path / "report.html", tmp_path / "summary.json"
    result = run_cli(program, "-o", report, "--json", summary, "--cache-dir", tmp_path / "cache", *extra)
    assert result.returncode == 0, result.stderr
    return result, read_payload(report.read_text("utf-8")), json.loads(summary.read_text("utf-8"))


def test_a_program_directory_makes_one_report_of_every_trace(tmp_path):
    program = write_program(tmp_path)
    result, payload, summary = build(program, tmp_path)
    assert re.search(r": 3 traces, 6 passes \(", result.stderr), result.stderr
    assert [(t["stage"], t["unit"]) for t in payload["traces"]] == [
        ("pypto", ""),
        ("ptoas", "kernel_a"),
        ("ptoas", "kernel_b"),
    ]
    assert "passes" not in payload and payload["dump"] == "prog" and summary["dump"] == str(program)
    for trace in payload["traces"]:  # no diff across a boundary: every trace starts from its own text
        assert "lines" in trace["passes"][0] and "hunks" not in trace["passes"][0]
    assert [(t["stage"], t["unit"]) for t in summary["traces"]] == [(t["stage"], t["unit"]) for t in payload["traces"]]
    assert all(t["warnings"] == [] for t in summary["traces"])
    files = [[p["file"] for p in t["passes"]] for t in summary["traces"]]
    assert files[0] == ["passes_dump/01_after_OutlineKernels.py", "passes_dump/02_after_Simplify.py"]
    unit_a = f"ptoas_passes/kernel_a/{MODULE}"
    assert files[1] == [f"{unit_a}/1_cse.mlir", f"{unit_a}/2_symbol-dce.mlir"]
    bases = [t["base"] for t in summary["traces"]]  # each trace's base, listed as the page lists it
    assert [b["file"] for b in bases] == [
        "passes_dump/00_frontend.py",
        f"{unit_a}/0_canonicalize.mlir",
        f"ptoas_passes/kernel_b/{MODULE}/0_canonicalize.mlir",
    ]
    assert [b["sha256"] for b in bases] == [t["passes"][0]["sha256"] for t in payload["traces"]]
    for trace_files in files:
        assert all((program / file).is_file() for file in trace_files)
    failing = summary["traces"][2]["passes"][-1]
    assert failing["header"]["failed"] is True and failing["header"]["argument"] == "test-pass-failure"
    assert "max-iterations=10" in summary["traces"][2]["passes"][0]["header"]["options"]
    assert summary["traces"][1]["passes"][1]["deleted"] >= 1  # symbol-dce dropped a line


def test_a_warning_on_one_trace_of_several_reaches_stderr(tmp_path):
    program = write_program(tmp_path)
    module = "module {\n  util.initializer {\n    // x\n  }\n  util.initializer {\n    // y\n  }\n}\n"
    shared = program / "ptoas_passes" / "kernel_a" / MODULE / "util_initializer_no-symbol-name"
    shared.mkdir()
    header = "// -----// IR Dump After Canonicalizer (canonicalize) ('util.initializer' operation) //----- //"
    (shared / "2_0_canonicalize.mlir").write_text(f"{header}\n{module}\n\n", "utf-8")
    result, _payload, summary = build(program, tmp_path)
    [warning] = summary["traces"][1]["warnings"]
    assert "2 sibling ops without a symbol share" in warning
    assert f"warning: {warning}" in result.stderr


def test_a_rerun_reuses_the_report_and_an_edit_deep_in_a_unit_is_seen(tmp_path):
    program = write_program(tmp_path)
    build(program, tmp_path)
    again, _payload, _summary = build(program, tmp_path)
    assert "report unchanged" in again.stderr and "0 pairs rediffed" in again.stderr
    edited = program / "ptoas_passes" / "kernel_a" / MODULE / "2_symbol-dce.mlir"
    edited.write_text(edited.read_text("utf-8").replace("%c0", "%zero"), "utf-8")
    third, _payload, summary = build(program, tmp_path)
    assert "report unchanged" not in third.stderr and "1 pairs rediffed" in third.stderr, third.stderr
    assert summary["traces"][1]["passes"][1]["inserted"] >= 2


def test_ignore_modes_count_over_every_trace(tmp_path):
    result, payload, summary = build(write_program(tmp_path), tmp_path, "--ignore", "whitespace")
    assert payload["ignore"] == {"modes": ["whitespace"], "regex": None}
    rows = [p for t in summary["traces"] for p in t["passes"]]
    assert len(rows) == 6 and all("ignoring" in p for p in rows)
    changed = sum(p["ignoring"]["changed"] for p in rows)
    assert f"; {changed} changed when ignoring" in result.stderr, result.stderr


def test_counts_of_a_report_of_several_traces_add_up():
    def trace(unit, changed):
        base = PassRecord(0, "b", "b", "s", True, lines=())
        passes = [PassRecord(k, "p", "p", "s", True, diff=PassDiff((), 1, 0), changed=c) for k, c in enumerate(changed)]
        return Trace(unit, f"/p/{unit}", "mlir", "UNKNOWN", (base, *passes), stage="ptoas", unit=unit)

    traces = (trace("a", [True, False]), trace("b", [True]))
    report = Report("g", "p", "/p", 3, "UNKNOWN", traces, several=True)
    assert run_counts(report) == RunCounts(passes=3, changed=2, noop=1, warnings=0, inserted=3, deleted=0, traces=2)
    payload = report.to_json()
    assert [t["unit"] for t in trace_payloads(payload)] == ["a", "b"]
    assert trace_payloads(payload)[1]["context"] == 3  # each trace reads as a one-trace payload


def test_a_manifest_with_headers_and_spans_survives_the_cache_format():
    header = PassHeader("after", "CSE", "cse", "", "func.func", "@f", False)
    snapshot = Snapshot(0, "cse", "s.mlir", "ab" * 32, header=header, span=(10, 200))
    manifest = Manifest("/d", "t", (snapshot,), kind="mlir", warnings=("overwritten: x",))
    assert Manifest.from_json(json.loads(json.dumps(manifest.to_json()))) == manifest

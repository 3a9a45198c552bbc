"""Ignore modes on MLIR: `ssa` drops value, block and alias numbering; `loc` drops locations and the #loc table."""

from __future__ import annotations

import os
import subprocess

import pytest
from conftest import SAMPLES
from test_mlir_outline import MLIR_OPT

from ir_trace.diffcore.linediff import diff_snapshots, split_lines
from ir_trace.noise.mlir_normalize import IGNORED_LINE, loc_spans, mlir_ssa_spans
from ir_trace.noise.normalize import IgnoreModes, line_key


def keys(modes: str, lines: list[str], kind: str = "mlir") -> list[str]:
    key = IgnoreModes.parse(modes).normaliser(kind)
    return [key(line) for line in lines]


@pytest.mark.parametrize(
    "line, key",
    [
        ("%12 = arith.addi %arg3, %c0_i32 : i32", "% = arith.addi %, % : i32"),
        ("%0:2 = test.two : i32, i32", "%:2 = test.two : i32, i32"),
        ("test.use %0#1, %x.y-z : i32", "test.use %, % : i32"),
        ("cf.br ^bb2(%3 : index)", "cf.br ^(% : index)"),
        ("^bb12(%arg1: i32):  // 2 preds: ^bb0, ^bb3", "^(%: i32):  // 2 preds: ^, ^"),
        ("%1 = affine.apply #map3(%0)", "% = affine.apply #map(%)"),
        ("#map12 = affine_map<(d0) -> (d0 * 4)>", "#map = affine_map<(d0) -> (d0 * 4)>"),
        (
            "#executable_target_x86_64_ = #hal.executable.target<x>",
            "#executable_target_x86_64_ = #hal.executable.target<x>",
        ),
        (
            '%s = "test.op"() {note = "%12 ^bb3 #map4 \\"%7"} : () -> i32',
            '% = "test.op"() {note = "%12 ^bb3 #map4 \\"%7"} : () -> i32',
        ),
        ("{-# dialect_resources: {} #-}", "{-# dialect_resources: {} #-}"),
        ("x__ssa_v0 = pl.add(a, b)", "x__ssa_v0 = pl.add(a, b)"),  # PyPTO's suffixes are not MLIR numbering
    ],
)
def test_ssa_on_mlir_drops_numbering(line, key):
    assert keys("ssa", [line]) == [key]


def test_ssa_on_pypto_is_unchanged():
    lines = ["x__ssa_v0 = pl.add(a, b)  # [S,D]^T", "%12 = arith.addi %arg3"]
    assert keys("ssa", lines, kind="pypto") == ["x = pl.add(a, b)  # [S,D]^T", "%12 = arith.addi %arg3"]
    assert keys("ssa", lines, kind="pypto") == [IgnoreModes.parse("ssa").normaliser()(line) for line in lines]


@pytest.mark.parametrize(
    "line, key",
    [
        ("%0 = arith.mulf %a, %b : f32 loc(#loc4)", "%0 = arith.mulf %a, %b : f32"),
        ('func.func @f(%arg0: f32 loc("in.mlir":4:28)) -> f32 {', "func.func @f(%arg0: f32) -> f32 {"),
        ('} loc(callsite("f"("a.mlir":1:2) at fused["b.mlir":3:4, "c)":5:6]))', "}"),
        ('%0 = memref.alloc() : memref<4xf32> loc("x(":1:1)', "%0 = memref.alloc() : memref<4xf32>"),
        ("%0 = test.op loc(unclosed", "%0 = test.op loc(unclosed"),
        ('test.op {s = "loc(#loc1)"}', 'test.op {s = "loc(#loc1)"}'),
        ('#loc3 = loc("inputs/calls_loops.mlir":4:37)', IGNORED_LINE + '#loc3 = loc("inputs/calls_loops.mlir":4:37)'),
        ("#loc = loc(unknown)", IGNORED_LINE + "#loc = loc(unknown)"),
    ],
)
def test_loc_drops_locations_and_the_alias_table(line, key):
    assert keys("loc", [line]) == [key]


def test_a_pass_that_only_adds_locations_to_the_table_is_a_no_op_under_loc():
    before = ['#loc1 = loc("a":1:1)', "module {", "  %0 = test.op loc(#loc1)", "} loc(#loc)"]
    after = ['#loc1 = loc("a":1:1)', '#loc2 = loc("a":2:2)', "module {", "  %0 = test.op loc(#loc2)", "} loc(#loc)"]
    assert len(diff_snapshots(before, after, line_key=line_key(IgnoreModes.parse("loc"), kind="mlir"))) == 0
    assert len(diff_snapshots(before, after, line_key=line_key(IgnoreModes.parse("ssa"), kind="mlir"))) == 1
    # A change among table lines still shows, with the table lines around it.
    after[3] = "  %0 = test.other loc(#loc2)"
    hunks = diff_snapshots(before, after, line_key=line_key(IgnoreModes.parse("loc"), kind="mlir"))
    assert [(h.a0, h.a1, h.b0, h.b1) for h in hunks] == [(2, 3, 3, 4)]


def test_without_ignore_modes_a_table_line_is_a_change():
    before, after = ['#loc1 = loc("a":1:1)'], ['#loc1 = loc("a":1:1)', '#loc2 = loc("a":2:2)']
    assert len(diff_snapshots(before, after)) == 1


@pytest.mark.parametrize("unit, times", [("%", 300_000), ("%a#", 100_000), ("#m1", 100_000), ('"', 299_999)])
def test_hostile_lines_scan_linearly_under_ssa(unit, times):
    line = unit * times
    assert len(keys("ssa", [line])[0]) <= len(line)
    assert mlir_ssa_spans(line) is not None


@pytest.mark.parametrize("unit, times", [("loc(", 250_000), (" loc(()", 200_000), ('loc("', 250_000), ("(", 1_000_000)])
def test_hostile_lines_scan_linearly_under_loc(unit, times):
    line = unit * times
    assert loc_spans(line) == [] or unit == " loc(()"
    assert len(keys("loc", [line])[0]) <= len(line)


def test_renaming_as_the_real_mlir_opt_prints_is_a_no_op_under_ssa(tmp_path):
    if MLIR_OPT is None:  # CI installs Debian's mlir-19-tools, so there its absence fails
        (pytest.fail if os.environ.get("CI") else pytest.skip)("mlir-opt 19 (Debian mlir-19-tools) is not installed")
    # The printer renumbers every value, block and alias it prints: ours come back as %0, %arg0, ^bb1, #map.
    source = (
        "#map7 = affine_map<(d0) -> (d0 * 2)>\n"
        "module {\n"
        "  func.func @f(%lhs: index, %flag: i1) -> index {\n"
        "    %doubled = affine.apply #map7(%lhs)\n"
        "    cf.cond_br %flag, ^left(%doubled : index), ^right\n"
        "  ^left(%v: index):  // pred: ^entry\n"
        "    return %v : index\n"
        "  ^right:  // pred: ^entry\n"
        "    %c3 = arith.constant 3 : index\n"
        "    return %c3 : index\n"
        "  }\n"
        "}\n"
    )
    (tmp_path / "in.mlir").write_text(source)
    printed = subprocess.run([MLIR_OPT, str(tmp_path / "in.mlir")], capture_output=True, text=True, check=True).stdout
    before, after = split_lines(source)[0], split_lines(printed.rstrip("\n") + "\n")[0]
    assert before != after
    ssa = line_key(IgnoreModes.parse("ssa"), kind="mlir")
    assert diff_snapshots(before, after, line_key=ssa) == []


@pytest.mark.samples
def test_locations_of_the_real_debuginfo_dump_are_all_ignored():
    # e3 is e-class mlir-opt 22 output with --mlir-print-debuginfo: without locations it is the a1 trace.
    loc = IgnoreModes.parse("loc").normaliser("mlir")
    files = sorted((SAMPLES / "mlir" / "e3_debuginfo_mliropt22_calls_loops" / "tree").rglob("*.mlir"))
    assert files
    for path in files:
        lines = split_lines(path.read_text(encoding="utf-8").split("\n", 1)[1])[0]
        for line in lines:
            key = loc(line)
            assert key.startswith(IGNORED_LINE) or "loc(" not in key, (path, line)


def test_json_counts_follow_the_mlir_modes(tmp_path):
    # --json's "ignoring" counts come from the payload's kind: renumbering and locations are no-ops.
    from test_mlir_viewer import mlir_payload

    from ir_trace.report.page_model import Report
    from ir_trace.summaries.trace import trace_summary

    payload = mlir_payload(tmp_path)
    payload["ignore"] = {"modes": ["ssa", "loc"], "regex": None}
    passes = trace_summary(Report.from_json(payload))["passes"]
    assert [p["changed"] for p in passes] == [True, True]
    assert [p["ignoring"]["changed"] for p in passes] == [False, False]
    payload["ignore"] = {"modes": ["ssa"], "regex": None}
    assert [p["ignoring"]["changed"] for p in trace_summary(Report.from_json(payload))["passes"]] == [False, True]

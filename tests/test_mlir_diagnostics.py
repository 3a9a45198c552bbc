"""Diagnostics in a real mlir-opt stream (remarks, notes, the source line, the caret, an op a note
prints) are the pass's diagnostics, shown like a PyPTO `.log`, never IR; a dump made with
`--mlir-print-ir-after-failure` alone lists the failed pass with what it printed."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from conftest import run_cli

from ir_trace.inputs.mlir.reader import read_stream, read_tree

PROGRAM = """func.func @f(%i: index) -> index {
  %c = arith.constant 1 : index
  %w = arith.addi %i, %c : index
  return %w : index
}
func.func @g(%i: index) -> index {
  %0 = func.call @f(%i) : (index) -> index
  return %0 : index
}
"""
SCOPE = ["--mlir-print-ir-module-scope", "--mlir-disable-threading", "-o", "/dev/null"]


def run_opt(mlir_opt: str, folder: Path, pipeline: str, *flags: str) -> subprocess.CompletedProcess:
    source = folder / "input.mlir"
    source.write_text(PROGRAM, encoding="utf-8")
    command = [mlir_opt, str(source), f"--pass-pipeline=builtin.module({pipeline})", *flags, *SCOPE]
    return subprocess.run(command, capture_output=True, text=True, cwd=folder)


def test_diagnostics_between_dumps_are_the_next_pass_s_log(tmp_path, mlir_opt):
    pipeline = "func.func(canonicalize),test-symbol-uses,cse"
    done = run_opt(mlir_opt, tmp_path, pipeline, "--mlir-print-ir-after-all")
    assert "remark: symbol has 1 uses" in done.stderr and "^" in done.stderr
    stream = tmp_path / "stream.txt"
    stream.write_text(done.stderr, encoding="utf-8")
    run_opt(mlir_opt, tmp_path, pipeline, "--mlir-print-ir-after-all", f"--mlir-print-ir-tree-dir={tmp_path / 'tree'}")
    [(_unit, manifest)] = read_stream(stream)
    [(_unit, tree)] = read_tree(tmp_path / "tree")
    assert [s.sha256 for s in manifest.snapshots] == [s.sha256 for s in tree.snapshots]  # no diagnostic in the IR
    logs = {s.header.argument: s.log for s in manifest.snapshots if s.log}
    assert list(logs) == ["test-symbol-uses"]
    assert "note: see current operation" in logs["test-symbol-uses"] and "^" in logs["test-symbol-uses"]
    symbol_uses, cse = manifest.snapshots[-2:]
    assert symbol_uses.sha256 == cse.sha256 and cse.log is None  # cse changed nothing: no diff, no log


def test_a_failure_only_dump_shows_the_failed_pass(tmp_path, mlir_opt):
    pipeline = "func.func(canonicalize),test-symbol-uses,func.func(test-pass-failure),cse"
    done = run_opt(mlir_opt, tmp_path, pipeline, "--mlir-print-ir-after-failure")
    assert done.returncode == 1
    stream = tmp_path / "failure.txt"
    stream.write_text(done.stderr, encoding="utf-8")
    result = run_cli(stream, "-o", tmp_path / "r.html", "--json", tmp_path / "s.json", "--cache-dir", tmp_path / "c")
    assert result.returncode == 0, result.stderr
    summary = json.loads((tmp_path / "s.json").read_text("utf-8"))
    [failed] = summary["passes"]
    assert summary["base"]["sha256"] == failed["sha256"] and summary["base"]["index"] == 0
    assert failed["header"]["failed"] is True and failed["header"]["argument"] == "test-pass-failure"
    assert failed["changed"] is False and failed["warning"] is True
    assert "remark: symbol has 1 uses" in failed["warning_text"]
    assert "no pass snapshot exists" not in result.stderr

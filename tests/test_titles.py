"""Titles from the program, unit or pipeline: a dump's generic name (`tree`, `stream.txt`) is never one."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from conftest import run_cli

from ir_trace.inputs.titles import ir_name, is_generic, place_title
from ir_trace.inputs.traces import discover_traces

PIPELINE = "--pass-pipeline=builtin.module(func.func(canonicalize,cse),symbol-dce)"
SCOPE = ("--mlir-print-ir-module-scope", "--mlir-disable-threading")
FUNCTION = """\
  func.func @{name}(%arg0: i32) -> i32 {{
    %0 = arith.addi %arg0, %arg0 : i32
    %1 = arith.addi %arg0, %arg0 : i32
    %2 = arith.muli %0, %1 : i32
    return %2 : i32
  }}
"""


def program(module: str, *functions: str) -> str:
    return f"{module} {{\n" + "".join(FUNCTION.format(name=name) for name in functions) + "}\n"


def dump_both(mlir_opt: str, run: Path, source: str, *flags: str) -> tuple[Path, Path]:
    """A real mlir-opt run of `source` in `run/`: its tree `run/tree` and its stream `run/stream.txt`."""
    run.mkdir(parents=True)
    (run / "input.mlir").write_text(source, encoding="utf-8")
    command = [mlir_opt, str(run / "input.mlir"), PIPELINE, "--mlir-print-ir-after-all", "-o", "/dev/null", *flags]
    tree = run / "tree"
    subprocess.run([*command, f"--mlir-print-ir-tree-dir={tree}"], capture_output=True, check=True, timeout=120)
    stream = subprocess.run(command, capture_output=True, check=True, timeout=120).stderr  # a tree takes all
    (run / "stream.txt").write_bytes(stream)
    return tree, run / "stream.txt"


def titles(path: Path) -> set[str]:
    return {trace.manifest.title for trace in discover_traces(path)}


@pytest.mark.parametrize("name", ["tree", "stream.txt", "stderr.txt", "out.log", "ir-dumps2", "passes", "mlir_tree"])
def test_names_of_dumps_are_generic(name):
    assert is_generic(name)


@pytest.mark.parametrize("name", ["conv.log", "qwen3_decode", "d2_tile16", "calls_loops.txt", "matmul"])
def test_names_of_programs_are_not(name):
    assert not is_generic(name)


def test_a_named_module_titles_its_tree_and_stream(mlir_opt, tmp_path):
    tree, stream = dump_both(mlir_opt, tmp_path / "run", program("module @kernels", "a", "b"), *SCOPE)
    assert titles(tree) == titles(stream) == {"@kernels"}


def test_an_anonymous_module_is_titled_by_its_one_function(mlir_opt, tmp_path):
    tree, stream = dump_both(mlir_opt, tmp_path / "run", program("module", "softmax"), *SCOPE)
    assert titles(tree) == titles(stream) == {"@softmax"}


def test_several_functions_leave_the_title_to_the_run_directory(mlir_opt, tmp_path):
    tree, stream = dump_both(mlir_opt, tmp_path / "calls_loops" / "out", program("module", "a", "b"), *SCOPE)
    assert titles(tree) == titles(stream) == {"calls_loops"}  # `out` says nothing either


def test_a_dump_named_for_its_program_keeps_that_name(mlir_opt, tmp_path):
    tree, stream = dump_both(mlir_opt, tmp_path / "run", program("module @kernels", "a"), *SCOPE)
    named = tree.rename(tmp_path / "run" / "conv_tiling")
    assert titles(named) == {"conv_tiling"}


def test_a_report_of_one_trace_per_op_is_titled_by_the_pipeline_s_directory(mlir_opt, tmp_path):
    """Without module scope each op is a trace (its unit names it); the report's title is the run's."""
    tree, _stream = dump_both(mlir_opt, tmp_path / "softmax_run", program("module", "a", "b"))
    assert titles(tree) == {"softmax_run"}
    result = run_cli(tree, "-o", tmp_path / "r.html", "--json", tmp_path / "r.json")
    assert result.returncode == 0, result.stderr
    assert json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))["title"] == "softmax_run"


def test_ir_names_past_aliases_and_quoted_symbols():
    assert ir_name('#map = affine_map<(d0) -> (d0)>\nmodule @"inner/sub" {\n}\n') == "@inner/sub"
    assert ir_name("module {\n}\n") == ""
    assert ir_name("module {\n  func.func @f() {\n    return\n  }\n  func.func private @g()\n}\n") == "@f"


def test_a_place_of_generic_names_is_titled_by_the_nearest_telling_directory(tmp_path):
    assert place_title(tmp_path / "resnet" / "build" / "dumps" / "tree") == "resnet"

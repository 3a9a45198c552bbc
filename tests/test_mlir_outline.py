"""MLIR structure: symbol ops found by braces, keyed by symbol path, on hand-written, hostile and real text."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import FRONTEND, SAMPLES

from ir_trace.diffcore.linediff import diff_snapshots, split_lines
from ir_trace.syntax.functions import Function, slice_functions

MLIR_SAMPLES = SAMPLES / "mlir"
MLIR_OPT = next(
    (p for p in ("/usr/lib/llvm-19/bin/mlir-opt", shutil.which("mlir-opt-19")) if p and Path(p).exists()), None
)

NESTED = """\
module attributes {test.note = "a { brace"} {
  util.global private @g : i32
  hal.executable private @ex {
    hal.executable.variant public @cpu target(#target) {
      hal.executable.export public @ex_fn ordinal(0) layout(#layout) count(%arg0: !hal.device) -> (index) {
        %c1 = arith.constant 1 : index
        hal.return %c1 : index
      }
      builtin.module {
        func.func @ex_fn() {
          %s = "test.op"() {text = "}}} // not a comment"} : () -> i32
          return
        }
      }
    }
  }
  module @inner {
    func.func private @decl(i32) -> i32
    func.func @"with space"(%arg0: i32) -> i32 {
      return %arg0 : i32
    }
  }
  util.func public @main(%arg0: i32) -> i32 attributes {iree.abi.stub} {
    stream.cmd.dispatch @ex::@cpu::@ex_fn {
      ro %arg0
    }
    util.return %arg0 : i32
  } loc(#loc3)
}
"""


def mlir_slices(text: str):
    return slice_functions(split_lines(text)[0], kind="mlir")


def test_innermost_symbol_ops_keyed_by_symbol_path():
    assert mlir_slices(NESTED).functions == (
        Function("hal.executable.export @ex::@cpu::@ex_fn", 4, 8),
        Function("func.func @ex::@cpu::@ex_fn", 9, 13),
        Function('func.func @inner::@"with space"', 18, 21),
        Function("util.func @main", 22, 28),
    )


def test_without_symbols_there_is_no_function_but_the_text_is_sliced():
    assert mlir_slices("module {\n  %0 = test.op {\n  }\n}\n").functions == ()


@pytest.mark.parametrize(
    "text, why",
    [
        ("func.func @f() {\n  return\n", "1 unclosed brace(s) at end of file"),
        ("}\nfunc.func @f() {\n}\n", "line 1: unbalanced closing brace"),
        ('func.func @f() {\n  %0 = "test.op"() {s = "open} : () -> ()\n}\n', "line 2: unterminated string"),
    ],
)
def test_unbalanced_text_falls_back_to_the_whole_file(text, why):
    assert mlir_slices(text).functions is None
    assert mlir_slices(text).error == why


def test_braces_inside_strings_escapes_and_comments_do_not_count():
    text = (
        'func.func @f() attributes {s = "\\"{", t = "\\\\"} {\n'  # "\"{" then "\\": both strings close
        "  // } a comment\n"
        '  %0 = "test.op"() {v = "}\\22}"} : () -> ()\n'
        "}\n"
        "func.func @g() {\n}\n"
    )
    assert mlir_slices(text).functions == (Function("func.func @f", 0, 4), Function("func.func @g", 4, 6))


def test_a_huge_blob_line_is_one_line_of_a_function():
    blob = "0x" + "7B7D22" * 400_000  # hex digits only, as MLIR prints them: 2.4 MB on one line
    text = f'func.func @big() -> tensor<8xi8> {{\n  %cst = arith.constant dense<"{blob}{{}}"> : tensor<8xi8>\n}}\n'
    assert mlir_slices(text).functions == (Function("func.func @big", 0, 3),)
    hostile = "func.func @h() {\n" + "  " + "{" * 200_000 + "}" * 199_999 + "\n}\n"
    assert mlir_slices(hostile).functions is None


def test_pypto_kind_is_unchanged():
    # The kind chooses the reader: MLIR read as PyPTO's Python is no function list (its `#` starts a comment).
    assert slice_functions(split_lines(NESTED)[0]).functions is None
    assert slice_functions(split_lines(FRONTEND)[0], kind="pypto") == slice_functions(split_lines(FRONTEND)[0])
    assert slice_functions(split_lines(FRONTEND)[0], kind="mlir").functions == ()


def test_diffs_match_mlir_functions_by_key():
    before = split_lines(NESTED)[0]
    after = [line.replace("%c1 = arith.constant 1", "%c1 = arith.constant 2") for line in before]
    fns = [(f.key, f.start, f.end) for f in mlir_slices(NESTED).functions]
    hunks = diff_snapshots(before, after, True, True, fns, fns)
    assert len(hunks) == 1


def _real_snapshots(sample: str) -> list[Path]:
    files = sorted((MLIR_SAMPLES / sample / "tree").rglob("*.mlir"))
    assert files, f"no snapshots in {MLIR_SAMPLES / sample}"
    return files


def _ir_lines(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    return split_lines(text.split("\n", 1)[1])[0]  # line 1 is the `// -----// IR Dump ...` header


@pytest.mark.samples
@pytest.mark.parametrize(
    "sample", ["b3_full_ireecompile_conv", "a4_lowering_mliropt19_matmul_to_llvm", "e1_edge_names_mliropt22"]
)
def test_every_real_snapshot_is_sliced_into_disjoint_symbol_ops(sample):
    for path in _real_snapshots(sample):
        lines = _ir_lines(path)
        found = mlir_slices("\n".join(lines)).functions
        assert found is not None, path
        for k, f in enumerate(found):
            op, _, symbol_path = f.key.partition(" ")
            assert lines[f.start].lstrip().startswith(op + " "), (path, f)
            assert symbol_path.rsplit("::", 1)[-1] in lines[f.start], (path, f)
            assert lines[f.end - 1].lstrip().startswith("}"), (path, f)
            assert k == 0 or f.start >= found[k - 1].end, (path, f)


@pytest.mark.samples
def test_the_op_a_pass_ran_on_is_listed():
    # The tree names the op a pass ran on (`func_func_<symbol>`): when it is a function it must be in the list.
    checked = 0
    for path in _real_snapshots("b3_full_ireecompile_conv"):
        segment = path.parent.name
        if not segment.startswith(("func_func_", "util_func_", "llvm_func_", "vm_func_")):
            continue
        keys = [f.key for f in mlir_slices("\n".join(_ir_lines(path))).functions]
        names = {k.split(" ")[0].replace(".", "_") + "_" + k.rsplit("@", 1)[-1] for k in keys}
        assert segment in names, (path, keys)
        checked += 1
    assert checked > 100


@pytest.mark.samples
def test_iree_executables_nested_modules_and_util_funcs_are_listed():
    path = next(p for p in _real_snapshots("b3_full_ireecompile_conv") if "virtual-vector-lowering" in p.name)
    keys = [f.key for f in mlir_slices("\n".join(_ir_lines(path))).functions]
    assert "util.func @conv_bias_relu" in keys
    assert any(k.startswith("hal.executable.export @conv_bias_relu_dispatch_0::@embedded_elf_x86_64::@") for k in keys)
    assert any(k.startswith("func.func @conv_bias_relu_dispatch_0::@embedded_elf_x86_64::@") for k in keys)


def test_snapshots_the_real_mlir_opt_prints(tmp_path):
    if MLIR_OPT is None:  # CI installs Debian's mlir-19-tools, so there its absence fails
        (pytest.fail if os.environ.get("CI") else pytest.skip)("mlir-opt 19 (Debian mlir-19-tools) is not installed")
    source = tmp_path / "in.mlir"
    source.write_text(
        'module @outer {\n  module @"in ner" {\n    func.func @k(%a: i32) -> i32 {\n'
        "      %0 = arith.addi %a, %a : i32\n      return %0 : i32\n    }\n  }\n"
        "  func.func @main(%a: i32) -> i32 {\n    %c = arith.constant 0 : i32\n"
        "    %0 = arith.addi %a, %c : i32\n    return %0 : i32\n  }\n}\n"
    )
    run = subprocess.run(
        [
            MLIR_OPT,
            str(source),
            "--mlir-disable-threading",
            "--mlir-print-ir-after-all",
            "--mlir-print-ir-module-scope",
            "-canonicalize",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    dumps = [d.split("\n", 1)[1] for d in run.stderr.split("// -----// IR Dump After ")[1:]]
    assert dumps
    for text in dumps:
        assert [f.key for f in mlir_slices(text).functions] == [
            'func.func @outer::@"in ner"::@k',
            "func.func @outer::@main",
        ]


def test_the_slicing_and_diff_tasks_read_mlir_when_told_through_luigi(tmp_path):
    """Luigi's real scheduler runs the tasks with kind="mlir"; a result is cached per kind."""
    import luigi

    from ir_trace.cache.store import open_cache
    from ir_trace.inputs.file_hashes import snapshot_digest
    from ir_trace.pipeline.config import adopt_cache, shared_cache
    from ir_trace.pipeline.snapshots import DiffPair, SliceFunctions, batches

    adopt_cache(open_cache(tmp_path / "cache"))
    before, after = tmp_path / "1.mlir", tmp_path / "2.mlir"
    before.write_text(NESTED, encoding="utf-8")
    after.write_text(NESTED.replace("arith.constant 1", "arith.constant 2"), encoding="utf-8")
    sha = {p: snapshot_digest(p.read_bytes()) for p in (before, after)}
    slices = SliceFunctions(snapshot=str(after), sha=sha[after], kind="mlir")
    diff = DiffPair(before=str(before), before_sha=sha[before], after=str(after), after_sha=sha[after], kind="mlir")
    assert luigi.build(batches([slices, diff]), local_scheduler=True, log_level="WARNING")
    functions = shared_cache().get(slices.key)["functions"]
    assert functions[0] == ["hal.executable.export @ex::@cpu::@ex_fn", 4, 8]
    assert shared_cache().get(diff.key)["inserted"] == 1
    pypto_reading = SliceFunctions(snapshot=str(after), sha=sha[after])
    assert pypto_reading.key != slices.key and shared_cache().get(pypto_reading.key) is None  # another result

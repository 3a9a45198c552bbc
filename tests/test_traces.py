"""discover_traces over every input kind, real mlir-opt dumps, the real MLIR samples, and the CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO, demo_passes, mlir_sample, mlir_samples, run_cli, write_dump
from test_mlir_tree import WRITES, write_tree

from ir_trace.cache.fingerprints import dump_state
from ir_trace.errors import DumpError
from ir_trace.inputs.traces import discover_traces, single_manifest

sys.path.insert(0, str(REPO / "benchmarks"))
from mlir_order import misplaced, write_order  # noqa: E402  (the benchmark's own measure of order)

PROGRAM = """\
module {
  func.func private @twice(%x: f32) -> f32 {
    %0 = arith.addf %x, %x : f32
    return %0 : f32
  }
  func.func private @dead(%x: i32) -> i32 {
    %c0 = arith.constant 0 : i32
    %0 = arith.addi %x, %c0 : i32
    return %0 : i32
  }
  func.func @main(%a: f32, %b: f32) -> f32 {
    %c1 = arith.constant 1.0 : f32
    %0 = arith.mulf %a, %c1 : f32
    %1 = func.call @twice(%0) : (f32) -> f32
    %2 = arith.mulf %a, %c1 : f32
    %3 = arith.addf %1, %2 : f32
    return %3 : f32
  }
}
"""
PIPELINE = "--pass-pipeline=builtin.module(inline,func.func(canonicalize,cse),symbol-dce,canonicalize)"


def run_mlir_opt(mlir_opt: str, folder: Path, *options: str) -> subprocess.CompletedProcess:
    source = folder / "program.mlir"
    source.write_text(PROGRAM, encoding="utf-8")
    command = [mlir_opt, str(source), PIPELINE, "--mlir-print-ir-after-all", "-o", "/dev/null", *options]
    return subprocess.run(command, capture_output=True, check=True, timeout=120)


def stream_of(mlir_opt: str, folder: Path, *options: str) -> Path:
    stream = folder / "stream.txt"
    stream.write_bytes(run_mlir_opt(mlir_opt, folder, *options).stderr)
    return stream


SCOPE = ("--mlir-print-ir-module-scope", "--mlir-disable-threading")


def test_real_mlir_opt_tree_follows_the_stream(mlir_opt, tmp_path):
    # the stream's header order is the order mlir-opt wrote the dumps: the tree must match it
    run_mlir_opt(mlir_opt, tmp_path, *SCOPE, f"--mlir-print-ir-tree-dir={tmp_path / 'tree'}")
    [tree] = discover_traces(tmp_path / "tree")
    [stream] = discover_traces(stream_of(mlir_opt, tmp_path, *SCOPE))
    assert (tree.stage, tree.unit, stream.stage, stream.unit) == ("mlir", "", "mlir", "")
    ours = [(s.header, s.sha256) for s in tree.manifest.snapshots]
    assert ours == [(s.header, s.sha256) for s in stream.manifest.snapshots]
    assert len(ours) >= 8 and ours[0][0].argument == "canonicalize"  # the inliner's callee first


def test_real_mlir_opt_without_module_scope_gives_one_trace_per_op(mlir_opt, tmp_path):
    run_mlir_opt(mlir_opt, tmp_path, f"--mlir-print-ir-tree-dir={tmp_path / 'tree'}")
    tree = {t.unit: [s.sha256 for s in t.manifest.snapshots] for t in discover_traces(tmp_path / "tree")}
    stream = {t.unit: [s.sha256 for s in t.manifest.snapshots] for t in discover_traces(stream_of(mlir_opt, tmp_path))}
    assert {"builtin.module", "func.func @main", "func.func @twice"} <= set(tree)
    assert tree == stream


def test_ptoas_layouts(tmp_path):
    output = tmp_path / "program"
    write_dump(output / "passes_dump", demo_passes())
    for unit in ("kernel_1", "kernel_0"):
        write_tree(output / "ptoas_passes" / unit, WRITES)
    traces = discover_traces(output)
    assert [(t.stage, t.unit) for t in traces] == [("pypto", ""), ("ptoas", "kernel_0"), ("ptoas", "kernel_1")]
    assert Path(traces[1].manifest.dump) == output / "ptoas_passes" / "kernel_0"
    assert [(t.stage, t.unit) for t in discover_traces(output / "ptoas_passes")] == [
        ("ptoas", "kernel_0"),
        ("ptoas", "kernel_1"),
    ]
    assert [t.stage for t in discover_traces(output / "ptoas_passes" / "kernel_0")] == ["mlir"]
    assert [t.stage for t in discover_traces(output / "passes_dump")] == ["pypto"]
    with pytest.raises(DumpError, match="holds 3 traces"):
        single_manifest(output, discover_traces(output))


def test_output_dir_without_ptoas_still_points_at_passes_dump(tmp_path):
    write_dump(tmp_path / "program" / "passes_dump", demo_passes())
    with pytest.raises(DumpError, match="did you mean .*passes_dump"):
        discover_traces(tmp_path / "program")


def test_empty_ptoas_passes_says_what_it_expects(tmp_path):
    (tmp_path / "ptoas_passes" / "kernel_0").mkdir(parents=True)
    with pytest.raises(DumpError, match="no MLIR pass dumps in .*ptoas_passes.*dump_ptoas_passes=True"):
        discover_traces(tmp_path / "ptoas_passes")


def test_a_file_without_headers_is_no_stream(tmp_path):
    (tmp_path / "log.txt").write_text("nothing here\n")
    with pytest.raises(DumpError, match="not a directory: .*log.txt .*MLIR stream file.*IR Dump"):
        discover_traces(tmp_path / "log.txt")


@pytest.mark.samples
@pytest.mark.parametrize("sample", mlir_samples("tree"), ids=lambda p: getattr(p, "name", str(p)))
def test_real_samples_in_write_order(sample):
    sample = mlir_sample(sample)
    traces = discover_traces(sample / "tree")
    truth = write_order(sample)
    wrong = sum(misplaced([s.file for s in t.manifest.snapshots], truth) for t in traces)
    total = sum(len(t.manifest.snapshots) for t in traces)
    limit = 0 if "mliropt" in sample.name else total // 100  # issue 17: IREE at most 1 % (b3: 3 of 717)
    assert wrong <= limit, f"{wrong} of {total} snapshots after the wrong predecessor"
    overwritten = len((sample / "write_order.txt").read_bytes().splitlines()) - len(truth)
    assert bool(overwritten) == any(t.manifest.warnings for t in traces)


@pytest.mark.samples
@pytest.mark.parametrize("sample", mlir_samples("stream.txt"), ids=lambda p: getattr(p, "name", str(p)))
def test_real_streams_match_their_trees(sample):
    sample = mlir_sample(sample)
    from_stream = discover_traces(sample / "stream.txt")
    from_tree = discover_traces(sample / "tree")
    writes = len((sample / "write_order.txt").read_bytes().splitlines())
    assert sum(len(t.manifest.snapshots) for t in from_stream) == writes  # every dump, overwritten or not
    if writes == len(write_order(sample)):  # nothing overwritten: the same texts in the same order
        assert [[s.sha256 for s in t.manifest.snapshots] for t in from_stream] == [
            [s.sha256 for s in t.manifest.snapshots] for t in sorted(from_tree, key=lambda t: _first(t, from_stream))
        ]


def _first(trace, stream_traces) -> int:
    units = [t.unit for t in stream_traces]
    return units.index(trace.unit) if trace.unit in units else len(units)


def test_cli_renders_a_tree_and_a_stream(tmp_path, mlir_opt):
    run_mlir_opt(mlir_opt, tmp_path, *SCOPE, f"--mlir-print-ir-tree-dir={tmp_path / 'tree'}")
    stream = stream_of(mlir_opt, tmp_path, *SCOPE)
    for given, shown in ((tmp_path / "tree", str), (stream, int)):
        result = run_cli(given, "-o", tmp_path / "r.html", "--json", tmp_path / "s.json")
        assert result.returncode == 0, result.stderr
        assert result.stderr.startswith("wrote ") and "passes" in result.stderr
        summary = json.loads((tmp_path / "s.json").read_text())
        assert summary["kind"] == "mlir" and summary["warnings"] == []
        assert all(isinstance(p["file"], shown) for p in summary["passes"])
        assert summary["passes"][0]["header"]["argument"]
        assert summary["dump"] == str(given.absolute())  # a stream's header indices are in the file given


def test_cli_renders_a_tree_without_module_scope_as_one_trace_per_op(tmp_path, mlir_opt):
    run_mlir_opt(mlir_opt, tmp_path, f"--mlir-print-ir-tree-dir={tmp_path / 'tree'}")
    result = run_cli(tmp_path / "tree", "-o", tmp_path / "r.html", "--json", tmp_path / "r.json")
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    assert "4 traces" in result.stderr.splitlines()[-1]
    traces = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))["traces"]
    assert [t["stage"] for t in traces] == ["mlir"] * 4 and all(t["unit"] for t in traces)


def test_cli_on_a_single_dump_says_it_is_one_mlir_dump(tmp_path):
    root = write_tree(tmp_path / "tree", WRITES[:1])
    result = run_cli(root, "-o", tmp_path / "r.html")
    assert result.returncode == 0 and "no pass snapshot exists (only one MLIR dump)" in result.stderr


def test_dump_state_sees_nested_files_and_streams(tmp_path):
    root = write_tree(tmp_path / "tree", WRITES)
    before = dump_state(root)
    nested = root / WRITES[4][0]
    nested.write_text(nested.read_text() + "// edited\n")
    os.utime(nested, ns=(1, 1))  # a rewrite within the same mtime tick still changes the size
    assert dump_state(root) != before
    stream = tmp_path / "stream.txt"
    stream.write_text("".join(h + t for _p, h, t in WRITES))
    first = dump_state(stream)
    stream.write_text(stream.read_text() + "\n")
    assert dump_state(stream) != first

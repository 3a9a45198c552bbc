"""Run against run: what each aligned pass did in A against B, on pairs whose truth is known by construction."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import SAMPLES, demo_passes, run_cli, write_dump

import ir_trace
from ir_trace.report.against import match_behaviours, match_passes
from ir_trace.report.behaviour import pass_behaviour

PROGRAM = ["def f(x):", "    a = alloc(139328)", "    b = add(a, x)", "    c = mul(b, 2)", "    return c"]


def test_identical_inputs_and_outputs_are_the_same():
    out = PROGRAM[:3] + PROGRAM[4:]
    assert pass_behaviour(PROGRAM, out, list(PROGRAM), list(out)) == "same"


def test_one_input_two_outputs_is_different():
    assert pass_behaviour(PROGRAM, PROGRAM[1:], PROGRAM, PROGRAM[2:]) == "different"


def test_the_same_edit_on_inputs_that_differ_upstream_is_carried_over():
    moved = [line.replace("139328", "139840") for line in PROGRAM]
    # the pass deletes `c = mul(...)`: the context and line numbers differ between the runs, not the edit
    assert pass_behaviour(PROGRAM, PROGRAM[:3] + PROGRAM[4:], moved, moved[:3] + moved[4:]) == "carried-over"


def test_rewriting_the_line_that_carries_the_upstream_difference_is_carried_over():
    moved = [line.replace("139328", "139840") for line in PROGRAM]
    out_a = [line.replace("alloc(", "alloc_l1(") for line in PROGRAM]
    out_b = [line.replace("alloc(", "alloc_l1(") for line in moved]
    assert pass_behaviour(PROGRAM, out_a, moved, out_b) == "carried-over"
    # ... unless the rewrite itself differs
    wrong_b = [line.replace("alloc(", "alloc_l0(") for line in moved]
    assert pass_behaviour(PROGRAM, out_a, moved, wrong_b) == "different"


def test_a_pass_that_does_nothing_in_b_where_it_edits_in_a_is_different():
    moved = [line.replace("139328", "139840") for line in PROGRAM]
    assert pass_behaviour(PROGRAM, PROGRAM[:3] + PROGRAM[4:], moved, moved) == "different"


def test_an_edit_one_pass_makes_and_the_next_undoes():
    names = ["frontend", "Simplify", "Extra", "Undo", "Sync"]
    extra = PROGRAM[:4] + ["    d = copy(c)"] + PROGRAM[4:]
    synced = PROGRAM + ["# sync"]
    # run A: Extra and Undo do nothing; run B: Extra inserts a line, Undo removes it
    lines_a = [PROGRAM, PROGRAM, PROGRAM, PROGRAM, synced]
    lines_b = [PROGRAM, PROGRAM, extra, PROGRAM, synced]
    matches = match_passes(names, names)
    assert match_behaviours(matches, lines_a, lines_b) == ["same", "same", "different", "different", "same"]


def test_an_inserted_cse_aligns_around_it():
    duplicated = PROGRAM[:2] + [PROGRAM[1]] + PROGRAM[2:]
    lowered = [line.replace("add(", "llvm.add(") for line in duplicated]
    # A: canonicalize, lower. B: canonicalize, cse (drops the duplicate), lower: lower does the same rewrite
    names_a, names_b = ["frontend", "canonicalize", "lower"], ["frontend", "canonicalize", "cse", "lower"]
    lines_a = [duplicated, duplicated, lowered]
    lines_b = [duplicated, duplicated, PROGRAM, [line.replace("add(", "llvm.add(") for line in PROGRAM]]
    matches = match_passes(names_a, names_b)
    assert match_behaviours(matches, lines_a, lines_b) == ["same", "same", "only-in-b", "carried-over"]


def test_a_renamed_pass_and_a_removed_one():
    matches = match_passes(["frontend", "P1", "P2", "P3"], ["frontend", "Q1", "P3"])
    lines = [PROGRAM] * 4
    assert match_behaviours(matches, lines, lines[:3]) == ["same", "renamed", "only-in-a", "same"]


QWEN3 = SAMPLES / "real" / "qwen3_decode_explicit" / "passes_dump"


@pytest.mark.samples
def test_one_moved_allocation_is_one_different_pass_and_the_rest_carried_over(tmp_path, cache_dir):
    if not QWEN3.is_dir():
        pytest.skip(f"the qwen3 sample is not here: {QWEN3}")
    run_b = tmp_path / "moved" / "passes_dump"
    shutil.copytree(QWEN3, run_b)
    for snapshot in run_b.iterdir():
        if 35 <= int(snapshot.name[:2]) <= 49:
            snapshot.write_text(snapshot.read_text().replace("139328", "139840"))
    summary, out = tmp_path / "cmp.json", tmp_path / "cmp.html"
    result = run_cli(QWEN3, "--against", run_b, "-o", out, "--cache-dir", cache_dir, "--json", summary)
    assert result.returncode == 0, result.stderr
    assert "first different: 35 AllocateMemoryAddr, 14 carried over" in result.stderr
    document = json.loads(summary.read_text())
    assert document["first_different"] == {"index": 35, "name": "AllocateMemoryAddr"}
    behaviours = {row["a"]["index"]: row["behaviour"] for row in document["passes"]}
    assert [index for index, kind in behaviours.items() if kind == "different"] == [35]
    assert all(behaviours[index] == "carried-over" for index in range(36, 50))
    assert all(behaviours[index] == "same" for index in range(0, 35))


def test_a_number_the_upstream_difference_changes_elsewhere_is_not_renamed_everywhere():
    # tile 16 against tile 32: the pass materialises the step (`%c16` / `%c32`) and defines an
    # unrelated `%16` in both runs; only the step is carried over from upstream
    in_a, in_b = ["affine.for %i = 0 to 64 step 16 {"], ["affine.for %i = 0 to 64 step 32 {"]
    out_a = ["%c16 = arith.constant 16 : index", "%16 = arith.addf %1, %2 : f32"]
    out_b = ["%c32 = arith.constant 32 : index", "%16 = arith.addf %1, %2 : f32"]
    assert pass_behaviour(in_a, out_a, in_b, out_b) == "carried-over"
    assert pass_behaviour(in_a, out_a, in_b, ["%c64 = arith.constant 64 : index", out_b[1]]) == "different"


MLIR = SAMPLES / "mlir"


@pytest.mark.samples
def test_tile16_against_tile32_carries_the_tiling_through_every_later_pass(tmp_path, cache_dir):
    tile16, tile32 = MLIR / "d2_ireeopt_affine_tile16" / "tree", MLIR / "d2_ireeopt_affine_tile32" / "tree"
    if not (tile16.is_dir() and tile32.is_dir()):
        pytest.skip(f"the d2 MLIR samples are not here: {MLIR}")
    summary = tmp_path / "cmp.json"
    out = tmp_path / "c.html"
    result = run_cli(tile16, "--against", tile32, "-o", out, "--cache-dir", cache_dir, "--json", summary)
    assert result.returncode == 0, result.stderr
    rows = json.loads(summary.read_text())["passes"]
    # row 0 is the first dump (affine-loop-tile itself, where the tile sizes part): never counted, as the frontend
    assert rows[0]["behaviour"] == "different"
    assert [row["behaviour"] for row in rows[1:]] == ["carried-over"] * 8


CSE_PROGRAM = """\
module {
  func.func private @dead(%x: i32) -> i32 {
    %c0 = arith.constant 0 : i32
    %0 = arith.addi %x, %c0 : i32
    return %0 : i32
  }
  func.func @main(%a: f32) -> f32 {
    %c2 = arith.constant 2.0 : f32
    %0 = arith.mulf %a, %c2 : f32
    %1 = arith.mulf %a, %c2 : f32
    %2 = arith.addf %0, %1 : f32
    return %2 : f32
  }
}
"""
CSE_PIPELINES = {  # B inserts cse; symbol-dce then deletes @dead in both runs: the same change
    "a": "builtin.module(func.func(canonicalize),symbol-dce)",
    "b": "builtin.module(func.func(canonicalize),func.func(cse),symbol-dce)",
}


def _mlir_run(mlir_opt: str, folder: Path, pipeline: str, kind: str) -> Path:
    """One real mlir-opt run of CSE_PROGRAM, as a tree (`--mlir-print-ir-tree-dir`) or a stream."""
    folder.mkdir(parents=True)
    source = folder / "program.mlir"
    source.write_text(CSE_PROGRAM, encoding="utf-8")
    scope = ["--mlir-print-ir-module-scope", "--mlir-disable-threading", "--mlir-print-ir-after-all"]
    tree = [f"--mlir-print-ir-tree-dir={folder / 'tree'}"] if kind == "tree" else []
    command = [mlir_opt, str(source), f"--pass-pipeline={pipeline}", *scope, *tree, "-o", "/dev/null"]
    done = subprocess.run(command, capture_output=True, check=True, timeout=120)
    if kind == "tree":
        return folder / "tree"
    (folder / "stream.txt").write_bytes(done.stderr)
    return folder / "stream.txt"


@pytest.mark.parametrize("kind", ["tree", "stream"])
def test_a_real_inserted_cse_aligns_and_the_next_pass_carries_over(mlir_opt, tmp_path, cache_dir, kind):
    run_a, run_b = (_mlir_run(mlir_opt, tmp_path / name, CSE_PIPELINES[name], kind) for name in ("a", "b"))
    summary = tmp_path / "cmp.json"
    result = run_cli(run_a, "--against", run_b, "-o", tmp_path / "c.html", "--cache-dir", cache_dir, "--json", summary)
    assert result.returncode == 0, result.stderr
    rows = json.loads(summary.read_text())["passes"]
    named = [((row["a"] or row["b"])["name"], row["behaviour"]) for row in rows[1:]]
    # a tree runs cse once per function (both only in B), a stream once on the module
    assert {kind for name, kind in named if "cse" in name} == {"only-in-b"}
    assert [kind for name, kind in named if "symbol-dce" in name] == ["carried-over"]
    assert "first different" not in result.stderr  # nothing behaved differently but the inserted pass


def _ssa_pair(tmp_path: Path) -> tuple[Path, Path]:
    """Run B numbers one SSA version differently from its ConvertToSSA on: nothing else differs."""
    run_a = write_dump(tmp_path / "a" / "passes_dump", demo_passes())
    renumbered = [
        text if isinstance(text, str) else (text[0], text[1].replace("__ssa_v0", "__ssa_v3")) for text in demo_passes()
    ]
    return run_a, write_dump(tmp_path / "b" / "passes_dump", renumbered)


def test_ignore_modes_apply_to_both_runs_in_the_behaviour_the_line_and_the_json(tmp_path, cache_dir):
    run_a, run_b = _ssa_pair(tmp_path)
    documents = {}
    for ignore in ((), ("--ignore", "ssa")):  # one cache: the modes are part of the comparison's key
        summary = tmp_path / f"cmp{len(ignore)}.json"
        args = (run_a, "--against", run_b, "-o", tmp_path / "c.html", "--cache-dir", cache_dir, "--json", summary)
        result = run_cli(*args, *ignore)
        assert result.returncode == 0, result.stderr
        documents[ignore] = json.loads(summary.read_text()), result.stderr
    (exact, exact_line), (ssa, ssa_line) = documents.values()
    assert exact["first_different"] == {"index": 1, "name": "ConvertToSSA"} and exact["ignore"] is None
    assert "first different: 01 ConvertToSSA" in exact_line
    assert ssa["first_different"] is None and ssa["ignore"] == {"modes": ["ssa"], "regex": None}
    assert [row["behaviour"] for row in ssa["passes"]] == ["same"] * 4
    assert [row["ignoring"]["differs"] for row in ssa["passes"]] == [False] * 4
    assert "0 differ when ignoring SSA versions" in ssa_line and "first different" not in ssa_line


def test_an_ignore_regex_applies_to_both_runs_too(tmp_path, cache_dir):
    run_a, run_b = _ssa_pair(tmp_path)
    summary = tmp_path / "cmp.json"
    args = (run_a, "--against", run_b, "-o", tmp_path / "c.html", "--cache-dir", cache_dir, "--json", summary)
    result = run_cli(*args, "--ignore-regex", r"__ssa_v\d+")
    assert result.returncode == 0, result.stderr
    document = json.loads(summary.read_text())
    assert document["ignore"] == {"modes": [], "regex": r"__ssa_v\d+"} and document["first_different"] is None
    assert "0 differ when ignoring regex" in result.stderr


def test_the_python_api_compares_under_ignore_modes(tmp_path, cache_dir):
    run_a, run_b = _ssa_pair(tmp_path)
    result = ir_trace.render(run_a, tmp_path / "c.html", against=run_b, ignore="ssa", cache_dir=cache_dir)
    counts = result.summary.comparison
    assert counts is not None and (counts.differ, counts.differ_ignoring, counts.first_different) == (3, 0, None)


QWEN3_CONCISE = SAMPLES / "real" / "qwen3_decode_concise" / "passes_dump"


@pytest.mark.samples
def test_concise_against_explicit_under_ignore_modes_leaves_fewer_different_passes(tmp_path, cache_dir):
    if not (QWEN3.is_dir() and QWEN3_CONCISE.is_dir()):
        pytest.skip(f"the qwen3 samples are not here: {QWEN3.parent.parent}")
    different = {}
    for ignore in ((), ("--ignore", "ssa,memref,loc,whitespace")):
        summary = tmp_path / f"cmp{len(ignore)}.json"
        args = (QWEN3_CONCISE, "--against", QWEN3, "-o", tmp_path / "c.html", "--cache-dir", cache_dir)
        assert run_cli(*args, "--json", summary, *ignore).returncode == 0
        rows = json.loads(summary.read_text())["passes"]
        different[ignore] = {row["a"]["index"] for row in rows if row["behaviour"] == "different"}
    exact, ignoring = different.values()
    # the printers part at ConvertTensorToTileOps under any mode; the modes absorb what InitMemRef,
    # MaterializeSemanticAliases and AllocateMemoryAddr print differently (memory annotations)
    assert min(exact) == min(ignoring) == 11
    assert ignoring < exact and {32, 33, 35} <= exact - ignoring

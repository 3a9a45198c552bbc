"""Run against run: what each aligned pass did in A against B, on pairs whose truth is known by construction."""

from __future__ import annotations

import json
import shutil

import pytest
from conftest import SAMPLES, run_cli

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

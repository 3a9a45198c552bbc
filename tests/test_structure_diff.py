"""Structure first, then lines (issue 28): functions, class methods and MLIR symbol ops are matched by
key whatever their order; lines are diffed only inside each matched pair, a function out of order is
moved, and `--json` counts follow."""

from __future__ import annotations

import json
import random

from conftest import run_cli, write_dump

from ir_trace.diffcore import structure
from ir_trace.diffcore.linediff import count_changes, diff_snapshots
from ir_trace.syntax.functions import slice_functions

HEADER = ["import pypto.language as pl", "", ""]
ALPHA = ["def alpha(x):", "    y = pl.add(x, x)", '    return "alpha"']
BETA = ["def beta(x):", "    y = pl.mul(x, x)", '    return "old"']
BETA_EDITED = [*BETA[:2], '    return "new"']


def program(*functions: list[str]) -> list[str]:
    lines = list(HEADER)
    for k, function in enumerate(functions):
        lines += (["", ""] if k else []) + function
    return lines


def paired_texts(a: list[str], b: list[str]) -> list[tuple[str, str]]:
    return [(a[p.a], b[p.b]) for hunk in diff_snapshots(a, b) for p in hunk.pairs]


def deleted_and_inserted(a: list[str], b: list[str]) -> tuple[list[str], list[str]]:
    hunks = diff_snapshots(a, b)
    return [a[i] for h in hunks for i in range(h.a0, h.a1)], [b[j] for h in hunks for j in range(h.b0, h.b1)]


def test_swapped_functions_never_pair_a_line_of_one_with_a_line_of_the_other():
    a, b = program(ALPHA, BETA), program(BETA_EDITED, ALPHA)
    assert ('    return "alpha"', '    return "new"') not in paired_texts(a, b)
    assert ('    return "old"', '    return "alpha"') not in paired_texts(a, b)
    deleted, inserted = deleted_and_inserted(a, b)
    assert not set(ALPHA) & set(deleted) and not set(ALPHA) & set(inserted)  # the unchanged alpha stays put
    assert '    return "old"' in deleted and '    return "new"' in inserted


def test_a_moved_function_shows_its_unchanged_lines_as_moved():
    a, b = program(ALPHA, BETA), program(BETA_EDITED, ALPHA)
    moved = {(a[i], b[j]) for hunk in diff_snapshots(a, b) for i, j in hunk.moved}
    assert (BETA[0], BETA[0]) in moved and (BETA[1], BETA[1]) in moved
    assert ('    return "old"', '    return "old"') not in moved


def test_a_pure_reorder_is_only_moves_and_a_new_function_is_created():
    a = program(ALPHA, BETA)
    b = program(BETA, ["def gamma():", "    return 3"], ALPHA)
    hunks = diff_snapshots(a, b)
    moved = {j for hunk in hunks for _i, j in hunk.moved}
    inserted = [j for hunk in hunks for j in range(hunk.b0, hunk.b1)]
    assert all(b[j] in ("", "def gamma():", "    return 3") or j in moved for j in inserted)
    assert not [p for hunk in hunks for p in hunk.pairs]  # nothing is "edited": one moved, one new


def test_methods_and_mlir_symbol_ops_are_matched_by_qualified_key():
    a = ["class P:", "    def a(self):", "        return 1", "", "    def b(self):", "        return 2"]
    b = ["class P:", "    def b(self):", "        return 20", "", "    def a(self):", "        return 1"]
    assert ("        return 1", "        return 20") not in paired_texts(a, b)
    mlir_a = ["module {", *mlir_function("alpha", 1), *mlir_function("beta", 2), "}"]
    mlir_b = ["module {", *mlir_function("beta", 3), *mlir_function("alpha", 1), "}"]
    hunks = diff_snapshots(mlir_a, mlir_b, a_functions=mlir_keys(mlir_a), b_functions=mlir_keys(mlir_b))
    touched = {mlir_a[i] for h in hunks for i in range(h.a0, h.a1)}
    touched |= {mlir_b[j] for h in hunks for j in range(h.b0, h.b1)}
    assert "  func.func @alpha() -> i32 {" not in touched and "    %c = arith.constant 1 : i32" not in touched
    assert count_changes(hunks) == (4, 4)  # beta moved: its four lines, two of them moved unchanged


def mlir_function(name: str, value: int) -> list[str]:
    return [f"  func.func @{name}() -> i32 {{", f"    %c = arith.constant {value} : i32", "    return %c : i32", "  }"]


def mlir_keys(lines: list[str]):
    return [[f.key, f.start, f.end] for f in slice_functions(lines, kind="mlir").functions]


def test_json_counts_the_unchanged_function_of_a_swap_as_untouched(tmp_path):
    before, after = program(ALPHA, BETA), program(BETA_EDITED, ALPHA)
    dump = write_dump(tmp_path / "p" / "passes_dump", ["\n".join(before) + "\n", ("Reorder", "\n".join(after) + "\n")])
    summary = tmp_path / "s.json"
    result = run_cli(dump, "-o", tmp_path / "r.html", "--json", summary, "--cache-dir", tmp_path / "cache", "-q")
    assert result.returncode == 0, result.stderr
    functions = json.loads(summary.read_text("utf-8"))["passes"][0]["functions"]
    assert "alpha" not in functions
    assert functions["beta"] == {"inserted": 3, "deleted": 3}


def test_a_line_of_a_function_in_place_is_never_paired_with_a_new_function_before_it():
    # ExpandMixedKernel (real qwen3 dump): new `_aiv` kernels inserted right before a kept function whose
    # decorator changed; the blocks touch, and the kept decorator must pair with its own new text.
    decorator = "    @pl.function(type=pl.FunctionType.{}, level=pl.Level.{}, role=pl.Role.{})".format
    old = ["class P:", decorator("InCore", "CHIP_DIE", "SubWorker"), "    def main(self, x):", "        return x"]
    new = ["class P:", decorator("AIV", "CHIP_DIE", "SubWorker"), "    def main_aiv(self, x):", "        return x"]
    new += [decorator("Group", "CORE_GROUP", "Orchestrator"), "    def main(self, x):", "        return x"]
    assert paired_texts(old, new) == [(old[1], new[4])]


def test_functions_count_as_ordered_exactly_when_each_is_a_range_after_the_one_before():
    """`structure._ordered` (compared in C) against its definition, on random function lists."""
    rng = random.Random(3)
    for _ in range(5000):
        fns = [("f", rng.randrange(6), rng.randrange(6)) for _ in range(rng.randrange(5))]
        expected = all(f[1] <= f[2] and (k == 0 or f[1] >= fns[k - 1][2]) for k, f in enumerate(fns))
        assert structure._ordered(fns) == expected, fns

"""Symbol ops chunk by chunk (issue 29): a function's chunk read once is reused where it stands again, and
only where reading it in place would do the same; every answer is the plain scan's."""

from __future__ import annotations

import pytest
from conftest import mlir_sample, mlir_samples

from ir_trace.diffcore.linediff import split_lines
from ir_trace.syntax import TextMemo, mlir_outline
from ir_trace.syntax.mlir_outline import UnsafeMlir, symbol_op_functions, symbol_ops

FUNCTION_B = "  func.func @b() {\n    %c = arith.constant 1 : i32\n    return\n  }\n"
MODULE = "module {\n  func.func @a() {\n    return\n  }\n" + FUNCTION_B + "}\n"


def plain(text: str):
    """What the line-by-line scan finds: the (key, start, end) of each symbol op, or its error."""
    try:
        return [(op.key, op.start, op.end) for op in symbol_ops(split_lines(text)[0])]
    except UnsafeMlir as exc:
        return str(exc)


def chunked(text: str):
    lines = split_lines(text)[0]
    try:
        from_lines = symbol_op_functions(lines)
    except UnsafeMlir as exc:
        return str(exc)
    assert symbol_op_functions(lines, text) == from_lines  # cut from the text or from its lines alike
    return from_lines


@pytest.fixture(autouse=True)
def empty_memo():
    mlir_outline._chunks.clear()


def test_a_chunk_read_once_is_reused_at_its_new_lines():
    assert chunked(MODULE) == plain(MODULE) == [("func.func @a", 1, 4), ("func.func @b", 4, 8)]
    assert FUNCTION_B.rstrip("\n").removesuffix("\n  }") in mlir_outline._chunks  # @b's chunk is remembered
    longer = MODULE.replace("    return\n", "    %x = arith.constant 2 : i32\n    return\n", 1)
    assert chunked(longer) == plain(longer) == [("func.func @a", 1, 5), ("func.func @b", 5, 9)]


def test_a_remembered_chunk_inside_a_function_defines_nothing():
    chunked(MODULE)
    inside = "func.func @outer() {\n  scf.execute_region {\n    scf.yield\n  }\n" + FUNCTION_B + "  return\n}\n"
    assert chunked(inside) == plain(inside) == [("func.func @outer", 0, 10)]


def test_a_remembered_chunk_in_a_named_module_takes_its_path():
    chunked(MODULE)
    named = MODULE.replace("module {", "module @m {")
    assert chunked(named) == plain(named) == [("func.func @m::@a", 1, 4), ("func.func @m::@b", 4, 8)]


def test_a_chunk_inside_an_executable_is_keyed_below_it():
    nested = "hal.executable @ex {\n  builtin.module {\n" + MODULE.split("\n", 1)[1] + "}\n"
    chunked(MODULE)
    assert chunked(nested) == plain(nested)
    assert [key for key, _start, _end in plain(nested)] == ["func.func @ex::@a", "func.func @ex::@b"]


@pytest.mark.parametrize(
    "broken",
    [
        MODULE.replace("arith.constant 1", 'arith.constant "1'),  # an unclosed string in a remembered chunk
        MODULE.replace("  func.func @b() {\n", "  func.func @b() {\n  }\n"),  # a brace closed too often
        MODULE.replace("    return\n  }\n}\n", "    return\n  }\n"),  # one left open
    ],
)
def test_unbalanced_text_is_refused_with_the_plain_scans_message(broken):
    chunked(MODULE)
    assert isinstance(plain(broken), str)
    assert chunked(broken) == plain(broken)


def test_the_memo_forgets_past_its_budget(monkeypatch):
    monkeypatch.setattr(mlir_outline, "_chunks", TextMemo(100))
    for k in range(20):
        text = MODULE.replace("@b", f"@b{k}")
        assert chunked(text) == plain(text)
    assert sum(map(len, mlir_outline._chunks)) <= 100


@pytest.mark.parametrize("what", ["stream.txt", "tree"])
def test_every_real_snapshot_is_sliced_as_the_plain_scan_slices_it(what):
    """Each real dump of the corpus, read in order (so later dumps reuse earlier chunks), then again."""
    samples = [mlir_sample(sample) for sample in mlir_samples(what)]
    texts = []
    for sample in samples:
        files = [sample / what] if what == "stream.txt" else sorted((sample / what).rglob("*.mlir"))
        for path in files:
            texts += [part.split("\n", 1)[-1] for part in path.read_text(encoding="utf-8").split("// -----// IR Dump")]
    assert len(texts) > 50
    for _round in range(2):
        for text in texts:
            assert chunked(text) == plain(text)

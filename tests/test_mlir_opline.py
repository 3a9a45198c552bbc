"""The one MLIR op-line reader: what the tree ordering and the Function list both take an op line to be."""

from __future__ import annotations

import pytest

from ir_trace.diffcore.linediff import split_lines
from ir_trace.inputs.mlir.ops import OpIndex
from ir_trace.syntax.functions import slice_functions
from ir_trace.syntax.mlir_opline import OpLineParts, read_op_line, unescape_symbol


@pytest.mark.parametrize(
    "line, parts",
    [
        ("func.func @f(%arg0: i32) {", OpLineParts(0, "func.func", "@f")),
        ("  func.func private @decl(i32) -> i32", OpLineParts(2, "func.func", "@decl")),
        # any keywords before the symbol, not only a visibility
        (
            "  llvm.mlir.global internal constant @g() {addr_space = 0 : i32} : i32 {",
            OpLineParts(2, "llvm.mlir.global", "@g"),
        ),
        ("    hal.executable.variant public @cpu target(#t) {", OpLineParts(4, "hal.executable.variant", "@cpu")),
        ('  module @"a\\"b" {', OpLineParts(2, "module", '@"a\\"b"')),
        ("module attributes {x} {", OpLineParts(0, "module", "")),
        ("module{", None),  # not how MLIR prints an op: a name runs to a space or its operands
        ("\tutil.initializer {", OpLineParts(1, "util.initializer", "")),
        # a nested reference defines nothing
        ("    stream.cmd.dispatch @ex::@cpu::@ex_fn {", OpLineParts(4, "stream.cmd.dispatch", "")),
        ('  func.func @"open {', OpLineParts(2, "func.func", "")),
        ("  %0 = scf.for %i = %c0 to %c4 step %c1 {", None),
        ('  "func.func"() ({', None),
        ("  } else {", None),
        ("  foo<bar> {", None),
        ("^bb0(%arg0: i32):", None),
    ],
)
def test_an_op_line_is_read_as_op_and_defined_symbol(line, parts):
    assert read_op_line(line) == parts


def test_the_full_op_name_and_raw_symbol_name_tree_dump_directories():
    parts = read_op_line('module @"sp ace \\C3\\BC/x" {')
    assert parts.qualified_op == "builtin.module" and parts.raw_symbol == "sp ace ü/x"
    assert read_op_line("func.func @f() {").qualified_op == "func.func"
    assert unescape_symbol('"a\\"b\\\\c\\41"') == 'a"b\\cA' and unescape_symbol("plain") == "plain"


def test_ordering_and_function_list_read_an_op_alike():
    # a global with keywords before its symbol and a dispatch naming `@ex::@fn`: one reading for both
    text = (
        "module {\n"
        "  llvm.mlir.global internal constant @g() {addr_space = 0 : i32} : i32 {\n"
        "    %0 = llvm.mlir.constant(1 : i32) : i32\n    llvm.return %0 : i32\n  }\n"
        "  util.func public @main() {\n"
        "    stream.cmd.dispatch @ex::@fn {\n    }\n"
        "    util.return\n  }\n"
        "}\n"
    )
    index = OpIndex(text)
    assert [line.segment for line in index.lines] == [
        "builtin_module_no-symbol-name",
        "llvm_mlir_global_g",
        "util_func_main",
        "stream_cmd_dispatch_no-symbol-name",
    ]
    functions = slice_functions(split_lines(text)[0], kind="mlir").functions
    assert [function.key for function in functions] == ["llvm.mlir.global @g", "util.func @main"]


def test_hostile_op_lines_are_read_in_linear_time():
    # a million keywords, an unclosed quoted symbol full of escapes, a long reference chain
    keywords = "op " + "kw " * 1_000_000 + "@s {"
    assert read_op_line(keywords) == OpLineParts(0, "op", "@s")
    assert read_op_line('op @"' + '\\"' * 1_000_000 + " {") == OpLineParts(0, "op", "")
    assert read_op_line("op " + "@a::" * 500_000 + "@b {") == OpLineParts(0, "op", "")

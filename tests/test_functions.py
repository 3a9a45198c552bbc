"""Function slicing: the fast lexer-based slicer agrees with the ast reference."""

from __future__ import annotations

import pytest
from conftest import FRONTEND, real_dumps

from ir_trace.diffcore.linediff import split_lines
from ir_trace.syntax.functions import (
    Function,
    Structure,
    UnsafeToSlice,
    analyse_structure,
    slice_functions,
    slice_with_ast,
    statement_boundaries,
)
from ir_trace.syntax.pypto_outline import outline


def keys(text: str) -> list[str]:
    return [f.key for f in slice_functions(split_lines(text)[0]).functions]


def test_methods_of_a_program_class():
    slices = slice_functions(split_lines(FRONTEND)[0])
    assert slices.functions == (Function("Demo.kernel", 5, 10), Function("Demo.main", 10, 13))
    assert slices == slice_with_ast(FRONTEND)


def test_top_level_functions_decorators_and_nested_defs():
    text = (
        "import x\n\n@deco\n@deco2(a=[1,\n  2])\ndef f(a):\n    def inner():\n        pass\n    return inner\n\n"
        "# trailing comment\nasync def g():\n    '''doc\ndef not_a_function():\n    '''\n    return 1\n"
        "class C:\n    x = 1\n    def m(self):\n        return (\n    1)\n    class Inner:\n        def n(self): pass\n"
    )
    assert keys(text) == ["f", "g", "C.m"]
    assert slice_functions(split_lines(text)[0]) == slice_with_ast(text)


def test_non_ascii_names_are_functions_too():
    # Python identifiers may be Chinese (or any letters); the printer keeps them as written.
    text = "@pl.program\nclass 程序:\n    @pl.function\n    def 核函数(a):\n        return a\ndef café():\n    pass\n"
    assert keys(text) == ["程序.核函数", "café"]
    assert slice_functions(split_lines(text)[0]) == slice_with_ast(text)


def test_unbalanced_text_cannot_be_sliced():
    slices = slice_functions(["def f(:", "    return (1"])
    assert slices.functions is None and "unclosed" in slices.error
    assert slice_functions(['x = """never closed', "def f(): pass"]).functions is None


def test_deep_nesting_beyond_the_recursion_limit_still_slices():
    deep = "def f():\n    return " + "(" * 5000 + "1" + ")" * 5000 + "\n"
    assert keys(deep) == ["f"]
    assert slice_with_ast(deep).functions is None  # the reference parser gives up here


@pytest.mark.parametrize("dump", real_dumps(), ids=lambda p: p.parent.name)
def test_agrees_with_ast_on_real_snapshots(dump):
    for path in sorted(dump.glob("*.py"))[::4]:
        text = path.read_text(encoding="utf-8")
        lines = split_lines(text)[0]
        assert slice_functions(lines) == slice_with_ast(text), path.name
        assert slice_functions(lines, analyse_structure(lines, text)) == slice_with_ast(text), path.name


CHUNKY = (
    "@pl.program\nclass P:\n    @pl.function\n    def a(self):\n        x = '''\ndef not_a_method():\n'''\n"
    "        return (\n    1)\n\n    def b(self): \\\n        pass\n    # note\n    y = [\n1]\nz = 1\n"
    "class Deep:\n        def m(self):\n            pass\n\tdef t(self):\n\t\tpass\n"
)


@pytest.mark.parametrize(
    "text",
    [CHUNKY, CHUNKY.replace("z = 1", "z = (1"), FRONTEND, CHUNKY.rstrip("\n"), CHUNKY + "\n\n     \n", "\n"],
    ids=["ok", "unclosed", "frontend", "no-final-newline", "blank-tail", "one-newline"],
)
@pytest.mark.parametrize("from_text", [False, True], ids=["lines", "text"])
def test_chunked_structure_matches_a_plain_scan(text, from_text):
    # Snapshots are analysed chunk by chunk, reusing chunks seen before; the result must be the plain scan's,
    # whether the chunks are cut from the lines or from the text they were split from.
    lines = split_lines(text)[0]
    try:
        boundaries = statement_boundaries(lines)
        plain = Structure(boundaries, outline(lines, boundaries))
    except UnsafeToSlice as exc:
        plain = str(exc)
    for _twice in range(2):  # the second time every chunk is remembered
        try:
            assert analyse_structure(lines, text if from_text else None) == plain
        except UnsafeToSlice as exc:
            assert str(exc) == plain


def test_a_remembered_chunk_is_reused_only_from_the_same_state():
    # The same lines start a string in one snapshot and are code in another.
    body = ["    def f(self):", "        return 1"]
    inside = split_lines('class A:\n    x = """\n' + "\n".join(body) + '\n"""\n')[0]
    outside = split_lines("class A:\n" + "\n".join(body) + "\n")[0]
    assert keys("\n".join(outside)) == ["A.f"]
    assert [f.key for f in slice_functions(inside).functions] == []
    assert [f.key for f in slice_functions(outside).functions] == ["A.f"]

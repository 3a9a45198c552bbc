"""Function slicing: the fast lexer-based slicer agrees with the ast reference."""

from __future__ import annotations

import pytest
from conftest import FRONTEND, real_dumps

from ir_trace.diffcore.linediff import split_lines
from ir_trace.syntax.functions import Function, slice_functions, slice_with_ast


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
        assert slice_functions(split_lines(text)[0]) == slice_with_ast(text), path.name

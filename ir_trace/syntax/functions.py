"""Slice a snapshot into its top-level functions and the direct methods of top-level classes.

`slice_functions` finds statement boundaries with a small lexer (brackets, strings, comments)
instead of `ast.parse`, which costs most of a second on an 11k-line snapshot; `slice_with_ast`
is the reference it is tested against. A snapshot whose brackets or strings do not close
cannot be sliced safely: the result is None and the viewer falls back to the whole file.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from functools import lru_cache

from ir_trace.syntax.mlir_outline import UnsafeMlir, symbol_ops
from ir_trace.syntax.pypto_outline import Segment, outline

_STRING_OR_BRACKET = re.compile(r"\"\"\"|'''|[\"'#()\[\]{}]")
_OPENERS = {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}


class UnsafeToSlice(ValueError):
    """The text's brackets or strings do not balance, so statement boundaries are unknown."""


@dataclass(frozen=True)
class Function:
    """Lines [start, end) of a function, decorators included; key is `name` or `Class.method`."""

    key: str
    start: int
    end: int


@dataclass(frozen=True)
class Slices:
    """The functions of one snapshot, or the reason it could not be sliced."""

    functions: tuple[Function, ...] | None
    error: str | None = None

    def to_json(self) -> dict:
        if self.functions is None:
            return {"functions": None, "parse_error": self.error}
        return {"functions": [[f.key, f.start, f.end] for f in self.functions]}


@dataclass(frozen=True)
class Structure:
    """A snapshot's statement boundaries and its outline drawn along them."""

    boundaries: list[bool]
    segments: list[Segment]


def analyse_structure(lines: list[str]) -> Structure:
    """Raises UnsafeToSlice when brackets or strings do not balance."""
    boundaries = statement_boundaries(lines)
    return Structure(boundaries, outline(lines, boundaries))


KINDS = ("pypto", "mlir")  # the languages a snapshot can be printed in


def slice_functions(lines: list[str], structure: Structure | None = None, kind: str = "pypto") -> Slices:
    """Functions of `lines` (a snapshot split on newlines), or None with the reason.

    `kind` says how to read them: PyPTO's Python (`structure` may bring its outline, worked out
    already) or MLIR, whose symbol ops (`func.func @m::@f`) are its functions."""
    if kind == "mlir":
        return _slice_mlir(lines)
    try:
        structure = structure or analyse_structure(lines)
    except UnsafeToSlice as exc:
        return Slices(None, str(exc))
    boundaries = structure.boundaries
    found = []
    for seg in structure.segments:
        if seg.kind != "function" or seg.name is None or (seg.indent and seg.cls is None):
            continue
        key = f"{seg.cls}.{seg.name}" if seg.cls else seg.name
        found.append(Function(key, seg.start, _body_end(lines, seg.start, seg.end, seg.indent, boundaries)))
    return Slices(tuple(found))


def _slice_mlir(lines: list[str]) -> Slices:
    try:
        found = symbol_ops(lines)
    except UnsafeMlir as exc:
        return Slices(None, str(exc))
    return Slices(tuple(Function(op.key, op.start, op.end) for op in found))


def statement_boundaries(lines: list[str]) -> list[bool]:
    """For each line: does it start outside any bracket, string or backslash continuation?"""
    depth = 0
    quote: str | None = None
    continued = False
    result = []
    for number, line in enumerate(lines, 1):
        result.append(depth == 0 and quote is None and not continued)
        if quote is None:
            effect = _line_effect(line)
            if effect is None:
                raise UnsafeToSlice(f"line {number}: unterminated string")
            depth += effect[0]
            quote = effect[1]
        else:
            depth, quote = _scan_line(line, depth, quote, number)
        if depth < 0:
            raise UnsafeToSlice(f"line {number}: unbalanced closing bracket")
        continued = quote is None and line.endswith("\\")
    if quote is not None:
        raise UnsafeToSlice(f"unterminated string {quote} at end of file")
    if depth:
        raise UnsafeToSlice(f"{depth} unclosed bracket(s) at end of file")
    return result


@lru_cache(maxsize=1 << 16)
def _line_effect(line: str) -> tuple[int, str | None] | None:
    """(net brackets opened, the string left open) by a line that starts outside any string;
    None when a one-quote string in it does not close.

    Memoised: printed IR repeats the same lines across snapshots and within one. The line's
    depth only adds up, so where it starts does not change what it does.
    """
    if "'" in line or '"' in line or "#" in line:
        try:
            return _scan_line(line, 0, None, 0)
        except UnsafeToSlice:
            return None
    opened = line.count("(") + line.count("[") + line.count("{")
    return opened - line.count(")") - line.count("]") - line.count("}"), None


def _scan_line(line: str, depth: int, quote: str | None, number: int) -> tuple[int, str | None]:
    pos = 0
    while True:
        if quote is not None:
            end = _closing_quote(line, quote, pos)
            if end < 0:
                if len(quote) == 1 and not line.endswith("\\"):
                    raise UnsafeToSlice(f"line {number}: unterminated string")
                return depth, quote
            pos, quote = end + len(quote), None
        match = _STRING_OR_BRACKET.search(line, pos)
        if match is None:
            return depth, quote
        token, pos = match.group(), match.end()
        if token == "#":
            return depth, quote
        if token in _OPENERS:
            depth += _OPENERS[token]
        else:
            quote = token


def _closing_quote(line: str, quote: str, pos: int) -> int:
    while True:
        found = line.find(quote, pos)
        if found < 0:
            return -1
        before = found  # backslashes back from the quote; line[pos - 1], a quote, ends them, so
        while before > pos and line[before - 1] == "\\":  # each character is read once per line
            before -= 1
        if (found - before) % 2 == 0:
            return found
        pos = found + 1


def _body_end(lines: list[str], start: int, end: int, indent: int, boundaries: list[bool]) -> int:
    """Drop trailing blank lines and comments that sit outside the function's body."""
    while end > start + 1:
        line = lines[end - 1]
        stripped = line.lstrip(" \t")
        outside = not stripped or (stripped.startswith("#") and len(line) - len(stripped) <= indent)
        if not outside or not boundaries[end - 1]:
            break
        end -= 1
    return end


def slice_with_ast(text: str) -> Slices:
    """Reference slicing with the real parser (slow on large snapshots; used by the tests)."""
    try:
        module = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        return Slices(None, f"{type(exc).__name__}: {exc}")
    found = []
    for node in module.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found.append(_ast_function(node.name, node))
        elif isinstance(node, ast.ClassDef):
            found += [
                _ast_function(f"{node.name}.{item.name}", item)
                for item in node.body
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))
            ]
    return Slices(tuple(found))


def _ast_function(key: str, node: ast.FunctionDef | ast.AsyncFunctionDef) -> Function:
    first = min([node.lineno] + [d.lineno for d in node.decorator_list])
    return Function(key, first - 1, node.end_lineno or node.lineno)

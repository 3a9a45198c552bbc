"""Slice a snapshot into its top-level functions and the direct methods of top-level classes.

`slice_functions` finds statement boundaries with a small lexer (brackets, strings, comments)
instead of `ast.parse`, which costs most of a second on an 11k-line snapshot; `slice_with_ast`
is the reference it is tested against. A snapshot whose brackets or strings do not close
cannot be sliced safely: the result is None and the viewer falls back to the whole file.
"""

from __future__ import annotations

import ast
import re
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate, chain, compress, repeat
from operator import attrgetter, not_
from typing import NamedTuple

from ir_trace.syntax import TextMemo
from ir_trace.syntax.chunks import text_pieces
from ir_trace.syntax.mlir_outline import UnsafeMlir, symbol_op_functions
from ir_trace.syntax.pypto_outline import Facts, Segment, line_facts, outline, outline_of_members, statement_indent

_STRING_OR_BRACKET = re.compile(r"\"\"\"|'''|[\"'#()\[\]{}]")
_OPENERS = {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}


class UnsafeToSlice(ValueError):
    """The text's brackets or strings do not balance, so statement boundaries are unknown."""


class Function(NamedTuple):
    """Lines [start, end) of a function, decorators included; key is `name` or `Class.method`
    (a named tuple, cheap to build by the thousand)."""

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


def analyse_structure(lines: list[str], text: str | None = None, pieces: Sequence[Piece] | None = None) -> Structure:
    """Raises UnsafeToSlice when brackets or strings do not balance.

    The work goes chunk by chunk (`_structure_by_chunks`), so what the snapshots before this one
    already had (all but the regions a pass changed) costs a lookup, not a scan. `text`, when given,
    is what `lines` were split from (`linediff.split_lines`): its chunks are then cut from it at once;
    `pieces`, when given, are those chunks already cut (`chunks.split_chunks`)."""
    structure = _structure_by_chunks(lines, text, pieces)
    if structure is not None:
        return structure
    boundaries = statement_boundaries(lines)
    return Structure(boundaries, outline(lines, boundaries))


State = tuple[int, str | None, bool]  # at a line's start: bracket depth, the open string, continued by "\\"
_TOP: State = (0, None, False)

# A chunk starts at each line not indented by 5 spaces (so at every line with code in its first 5
# columns; `chunks.text_pieces` leaves empty lines with the chunk before): one statement of the module or
# of a class body as PyPTO prints them (a method, a decorator), so a pass that edits one function changes
# a few chunks. Found with C-level iterators: no Python bytecode runs per line.
_DEEP = " " * 5
_CHUNK_MAX_INDENT = 4


@dataclass(frozen=True)
class _Chunk:
    """What a chunk's lines do from a given state: their boundaries, the state after them, the
    indent of the first line (-1: blank or comment) and whether a later line is code at a boundary."""

    boundaries: list[bool]
    end: State
    first_indent: int
    inner_code: bool
    heads: bool  # whether the first line is code at a boundary (it may start a segment)
    facts: Facts  # the first line's `_line_facts`, read when it heads


Piece = str | tuple[str, ...]  # a chunk's lines: as they stand in the text (joined by "\n"), or one by one
_chunks = TextMemo()  # (chunk, state) -> _Chunk


def _structure_by_chunks(
    lines: list[str], text: str | None = None, pieces: Sequence[Piece] | None = None
) -> Structure | None:
    """The structure of `lines` put together from memoised chunks; None where the plain scan must decide
    (an error, whose message names its line, or a class body indented deeper than a chunk start)."""
    if not lines:
        return None
    if pieces is None:
        pieces = _pieces(lines) if text is None else text_pieces(text)
    found = _chunks_at_top(pieces) or _chunks_in_order(pieces)
    if found is None or found[-1].end[:2] != (0, None):
        return None
    starts = list(accumulate(map(len, map(attrgetter("boundaries"), found[:-1])), initial=0))
    heading = list(map(attrgetter("heads"), found))  # the chunks whose first line may start a segment
    heads = list(compress(found, heading))
    firsts = _Firsts(list(compress(starts, heading)), list(map(attrgetter("first_indent"), heads)))
    inner = list(compress(starts, map(attrgetter("inner_code"), found)))
    chosen = _chunk_candidates(len(lines), firsts, inner, heads)
    if chosen is None:
        return None
    boundaries = list(chain.from_iterable(map(attrgetter("boundaries"), found)))
    candidates = list(map(firsts.lines.__getitem__, chosen))
    indents = list(map(firsts.indents.__getitem__, chosen))
    facts = list(map(attrgetter("facts"), map(heads.__getitem__, chosen)))
    return Structure(boundaries, outline_of_members(len(lines), candidates, indents, facts))


class _Firsts(NamedTuple):
    """The first lines of the chunks that head (may start a segment), in order, and their indents."""

    lines: list[int]
    indents: list[int]


_NO_FACTS: Facts = (False, None, None)


def _pieces(lines: list[str]) -> list[Piece]:
    starts = list(compress(range(len(lines)), map(not_, map(str.startswith, lines, repeat(_DEEP)))))
    if not starts or starts[0]:
        starts.insert(0, 0)
    return list(map(tuple, map(lines.__getitem__, map(slice, starts, starts[1:] + [len(lines)]))))


def _chunks_at_top(pieces: Sequence[Piece]) -> list[_Chunk] | None:
    """The chunks when each starts at the top level (outside brackets and strings), as chunks of printed
    IR nearly always do: looked up all at once, only the new ones scanned, the ends checked in C (no
    bytecode per chunk: a snapshot has thousands). None when one does not."""
    found = list(map(_chunks.get, zip(pieces, repeat(_TOP))))
    for k in compress(range(len(found)), map(not_, found)):  # the chunks no snapshot before had
        chunk = _chunk(pieces[k], _TOP)
        if chunk is None:
            return None
        found[k] = chunk
    if not all(map(_TOP.__eq__, map(attrgetter("end"), found[:-1]))):
        return None
    return found  # type: ignore[return-value]  # every None was replaced


def _chunks_in_order(pieces: Sequence[Piece]) -> list[_Chunk] | None:
    """The chunks, each scanned from the state the one before it left."""
    found, state = [], _TOP
    for piece in pieces:
        chunk = _chunk(piece, state)
        if chunk is None:
            return None
        found.append(chunk)
        state = chunk.end
    return found


def _chunk(piece: Piece, state: State) -> _Chunk | None:
    found = _chunks.get((piece, state))
    if found is None:
        lines = tuple(piece.split("\n")) if isinstance(piece, str) else piece
        try:
            boundaries, end = _scan_lines(lines, state, 1)
        except UnsafeToSlice:
            return None
        code = [statement_indent(line) >= 0 for line in lines]
        inner = any(b and c for b, c in zip(boundaries[1:], code[1:]))
        indent = statement_indent(lines[0])
        heads = indent >= 0 and boundaries[0]
        found = _Chunk(boundaries, end, indent, inner, heads, line_facts(lines[0][indent:]) if heads else _NO_FACTS)
        _chunks.keep((piece, state), found, sum(map(len, lines)))
    return found


def _chunk_candidates(size: int, firsts: _Firsts, inner: list[int], heads: list[_Chunk]) -> list[int] | None:
    """`pypto_outline._candidate_lines` from the chunks' first lines alone, as indices into `firsts`: every
    code line indented at most _CHUNK_MAX_INDENT columns starts a chunk, so a class body at that indent is
    all first lines. None when a class's first body line is deeper (inside a chunk, perhaps): the plain
    outline decides. Members are picked with C iterators (a class of thousands of methods is common)."""
    indents = firsts.indents
    tops = list(compress(range(len(indents)), map(not_, indents)))  # indent 0 (never -1: those do not head)
    found: list[int] = []
    for k, top in enumerate(tops):
        found.append(top)
        if not heads[top].facts[2]:  # not a class
            continue
        end = tops[k + 1] if k + 1 < len(tops) else len(indents)
        body_start = firsts.lines[top + 1] if top + 1 < len(indents) else size  # the first member, or what follows
        if bisect_left(inner, firsts.lines[top]) != bisect_left(inner, body_start):
            return None
        if top + 1 == end:
            continue
        body = indents[top + 1]
        if body > _CHUNK_MAX_INDENT:
            return None  # lines at that indent need not start chunks
        found += compress(range(top + 1, end), map(body.__eq__, indents[top + 1 : end]))
    return found


KINDS = ("pypto", "mlir")  # the languages a snapshot can be printed in


def slice_functions(
    lines: list[str], structure: Structure | None = None, kind: str = "pypto", text: str | None = None
) -> Slices:
    """Functions of `lines` (a snapshot split on newlines), or None with the reason.

    `kind` says how to read them: PyPTO's Python (`structure` may bring its outline, worked out
    already) or MLIR, whose symbol ops (`func.func @m::@f`) are its functions. `text`, when given, is
    what `lines` were split from (`linediff.split_lines`): MLIR's chunks are then cut from it at once."""
    if kind == "mlir":
        return _slice_mlir(lines, text)
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
        end = seg.end  # a body that ends in code (nearly all) keeps its end: no trailing lines to drop
        if statement_indent(lines[end - 1]) < 0:
            end = _body_end(lines, seg.start, end, seg.indent, boundaries)
        found.append(Function(key, seg.start, end))
    return Slices(tuple(found))


def _slice_mlir(lines: list[str], text: str | None) -> Slices:
    try:
        found = symbol_op_functions(lines, text)
    except UnsafeMlir as exc:
        return Slices(None, str(exc))
    return Slices(tuple(map(Function._make, found)))


def statement_boundaries(lines: list[str]) -> list[bool]:
    """For each line: does it start outside any bracket, string or backslash continuation?"""
    result, (depth, quote, _continued) = _scan_lines(lines, _TOP, 1)
    if quote is not None:
        raise UnsafeToSlice(f"unterminated string {quote} at end of file")
    if depth:
        raise UnsafeToSlice(f"{depth} unclosed bracket(s) at end of file")
    return result


def _scan_lines(lines: list[str] | tuple[str, ...], state: State, first_number: int) -> tuple[list[bool], State]:
    """Each line's boundary flag from `state` at the first (numbered `first_number`), and the state after."""
    depth, quote, continued = state
    result = []
    for number, line in enumerate(lines, first_number):
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
    return result, (depth, quote, continued)


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
        outside = _outside_at(lines[end - 1])
        if outside is None or outside > indent or not boundaries[end - 1]:
            break
        end -= 1
    return end


@lru_cache(maxsize=1 << 16)
def _outside_at(line: str) -> int | None:
    """-1 for a blank line, a comment's indent, None for code: the deepest body a line can sit outside
    of (memoised per line: nearly every function of printed IR ends in the same blank line)."""
    stripped = line.lstrip(" \t")
    if not stripped:
        return -1
    return len(line) - len(stripped) if stripped.startswith("#") else None


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

"""Slice printed MLIR into its symbol ops (functions, executables, nested modules) without parsing it.

A symbol op is printed as `<op name> <keywords> @<symbol> ... {`: `func.func @f(...) {`,
`util.func public @main(...) attributes {...} {`, `hal.executable.variant public @x target(...) {`,
`module @m {`. Its region runs to the line where the brace depth falls back to where it started.
Symbol ops are looked for only where symbols are defined: at the top level, directly inside an
anonymous `module {` / `builtin.module {`, and directly inside another symbol op that is not a
function (an op whose name ends in `func`); so `stream.cmd.dispatch @a::@b {` in a function body
is never mistaken for one.

The listed items are the innermost symbol ops that hold a region (an executable's functions, not
the executable itself), so the list stays sorted and disjoint, as the viewer and the diff expect.
Each is keyed by its op name and its symbol path, as MLIR spells nested references:
`func.func @conv_dispatch_0::@embedded_elf_x86_64::@conv` (anonymous modules add nothing).

Braces inside string literals (with their escapes; `dense<"0x...">` blobs are strings) and after
`//` do not count. Every line is scanned once, left to right. Unbalanced braces or an unclosed
string make the structure unknown: UnsafeToSlice, and the viewer falls back to the whole file.

`symbol_op_functions` (the slicer's entry) gives the same ops as `symbol_ops` at the cost of the change:
the text is cut after each top-level closing brace (`  }`, one function of a module) and a chunk read once
is looked up by its text in every later snapshot (a pass edits a few functions; a 1 GB stream of 4,612
snapshots of 526 functions each reads 4,600 new chunks, not 2.4 million functions).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from ir_trace.syntax import MEMO_LINE_CHARS, TextMemo
from ir_trace.syntax.mlir_opline import closing_quote, read_op_line

_BRACE_OR_STRING = re.compile(r'[{}"]|//')
_ANONYMOUS_MODULES = ("module", "builtin.module")


class UnsafeMlir(ValueError):
    """The text's braces or strings do not balance, so regions are unknown."""


@dataclass(frozen=True)
class SymbolOp:
    """Lines [start, end) of a symbol op with a region; `path` holds its and its symbol ancestors' symbols."""

    op: str
    path: tuple[str, ...]
    start: int
    end: int

    @property
    def key(self) -> str:
        return f"{self.op} {'::'.join(self.path)}"


@dataclass
class _Open:
    """A region being read: the op that opened it (None for the top level or an anonymous module)."""

    depth: int  # brace depth before the op's first line
    op: str | None
    path: tuple[str, ...]
    start: int
    has_symbol_ops: bool = False  # directly or through anonymous modules

    def holds_symbols(self) -> bool:
        return self.op is None or not self.op.endswith("func")


def symbol_ops(lines: list[str]) -> list[SymbolOp]:
    """The innermost symbol ops with a region, in order; UnsafeMlir when braces or strings do not balance."""
    found: list[SymbolOp] = []
    scan = _Scan()
    scan.lines(lines, 0, len(lines), found)
    scan.finish()
    return found


def symbol_op_functions(lines: list[str], text: str | None = None) -> list[tuple[str, int, int]]:
    """(key, start, end) of each of `symbol_ops(lines)`, worked out chunk by chunk so that what earlier
    snapshots already had costs a lookup, not a scan (see `_chunk_ops`); UnsafeMlir as symbol_ops.
    `text`, when given, is what `lines` were split from (`linediff.split_lines`)."""
    if not lines:
        return []
    source = "\n".join(lines) if text is None else text
    found: list[tuple[str, int, int]] = []
    scan, at, level = _Scan(), 0, False
    for start, end in _piece_spans(source):
        if level:  # directly in a region holding symbol ops, which adds no symbol to their paths
            piece = source[start:end]  # cut only here: elsewhere its lines are counted where they stand
            chunk = _chunks.get(piece) or _chunk_ops(piece)
            if chunk.balanced:  # read where it stands it would do what it did read on its own
                scan.stack[-1].has_symbol_ops |= chunk.has_symbol_ops
                found += [(key, start + at, end + at) for key, start, end in chunk.ops]
                at += chunk.size
                continue
            size = chunk.size
        else:
            size = source.count("\n", start, end) + 2
        ops: list[SymbolOp] = []
        scan.lines(lines, at, at + size, ops)
        found += [(op.key, op.start, op.end) for op in ops]
        level = scan.at_symbol_level() and not scan.stack[-1].path
        at += size
    ops = []
    scan.lines(lines, at, len(lines), ops)
    found += [(op.key, op.start, op.end) for op in ops]
    scan.finish()
    return found


# A chunk ends at each line that is a closing brace indented by 2 columns: the end of a top-level op of a
# module as MLIR prints them (a function), so a pass that edits one function changes one chunk. Cut by
# str.split (C speed, no Python per line), looked up by their text.
_CHUNK_END = "\n  }\n"


def _piece_spans(source: str) -> Iterator[tuple[int, int]]:
    """(start, end) of each piece of `source` that _CHUNK_END ends, as `source.split(_CHUNK_END)[:-1]`
    would cut them, without copying any (a module of one 100 MB line is one piece)."""
    start = 0
    while (end := source.find(_CHUNK_END, start)) >= 0:
        yield start, end
        start = end + len(_CHUNK_END)


@dataclass(frozen=True)
class _ChunkOps:
    """A chunk read on its own from the top level: its lines (its closing brace's included), whether it
    closes every brace it opens and no other (and leaves no string open), and if so the (key, start, end)
    of the symbol ops it holds and whether it holds any (directly or through anonymous modules)."""

    size: int
    balanced: bool
    ops: tuple[tuple[str, int, int], ...] = ()
    has_symbol_ops: bool = False


_chunks = TextMemo()  # chunk text -> _ChunkOps


def _chunk_ops(piece: str) -> _ChunkOps:
    """The chunk of a piece (its text before the closing brace that ends it), remembered by that text.

    A balanced chunk never reaches outside itself, so read directly in any region that holds symbol ops
    and adds nothing to their paths (the top level, an anonymous module) it does what it does read on its
    own; an unbalanced one (a module's first function, with the `module {` line) is read line by line."""
    lines = [*piece.split("\n"), _CHUNK_END.strip("\n")]
    ops: list[SymbolOp] = []
    scan = _Scan()
    try:
        scan.lines(lines, 0, len(lines), ops)
        balanced = not scan.depth
    except UnsafeMlir:
        balanced = False
    keys = tuple((op.key, op.start, op.end) for op in ops)
    found = (
        _ChunkOps(len(lines), True, keys, scan.stack[0].has_symbol_ops) if balanced else _ChunkOps(len(lines), False)
    )
    if len(piece) <= _chunks.limit:  # kept, a longer one would be the memo's whole size alone
        _chunks.keep(piece, found, len(piece))
    return found


class _Scan:
    """The brace depth and the regions open, as lines are read."""

    def __init__(self) -> None:
        self.stack = [_Open(-1, None, (), 0)]  # the top level never closes
        self.depth = 0

    def at_symbol_level(self) -> bool:
        """Whether the next line stands directly in a region that holds symbol ops."""
        return self.stack[-1].holds_symbols() and self.depth == _inner_depth(self.stack[-1])

    def lines(self, lines: list[str], start: int, end: int, found: list[SymbolOp]) -> None:
        """Read lines [start, end) of `lines` (numbered from `start` in errors and in the ops found)."""
        stack = self.stack
        depth = self.depth
        for number in range(start, end):
            line = lines[number]
            effect = _brace_effect(line) if len(line) <= MEMO_LINE_CHARS else _brace_effect.__wrapped__(line)
            if effect is None:
                raise UnsafeMlir(f"line {number + 1}: unterminated string")
            if effect > 0 and stack[-1].holds_symbols() and depth == _inner_depth(stack[-1]):
                opened = _opened_region(line, stack[-1], depth, number)
                if opened is not None:
                    stack.append(opened)
            depth += effect
            if depth < 0:
                raise UnsafeMlir(f"line {number + 1}: unbalanced closing brace")
            while depth <= stack[-1].depth:
                _close(stack, number + 1, found)
        self.depth = depth

    def finish(self) -> None:
        if self.depth:
            raise UnsafeMlir(f"{self.depth} unclosed brace(s) at end of file")


def _inner_depth(region: _Open) -> int:
    """Brace depth of the lines directly inside `region` (its body's block)."""
    return region.depth + 1


def _opened_region(line: str, parent: _Open, depth: int, number: int) -> _Open | None:
    parts = read_op_line(line)
    if parts is None:
        return None
    if not parts.symbol:
        return _Open(depth, None, parent.path, number) if parts.op in _ANONYMOUS_MODULES else None
    return _Open(depth, parts.op, (*parent.path, parts.symbol), number)


def _close(stack: list[_Open], end: int, found: list[SymbolOp]) -> None:
    region = stack.pop()
    parent = stack[-1]
    if region.op is None:  # an anonymous module: its symbols belong to the parent
        parent.has_symbol_ops = parent.has_symbol_ops or region.has_symbol_ops
        return
    parent.has_symbol_ops = True
    if not region.has_symbol_ops:
        found.append(SymbolOp(region.op, region.path, region.start, end))


@lru_cache(maxsize=1 << 16)
def _brace_effect(line: str) -> int | None:
    """Net braces a line opens, strings and `//` comments skipped; None for an unclosed string.
    Memoised: printed IR repeats lines within a snapshot and across snapshots."""
    if '"' not in line and "//" not in line:
        return line.count("{") - line.count("}")
    net, at = 0, 0
    while True:
        match = _BRACE_OR_STRING.search(line, at)
        if match is None or match.group() == "//":
            return net
        token, at = match.group(), match.end()
        if token == '"':
            close = closing_quote(line, at)
            if close < 0:
                return None
            at = close + 1
        else:
            net += 1 if token == "{" else -1

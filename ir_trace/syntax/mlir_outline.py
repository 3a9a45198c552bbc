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
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

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
    stack = [_Open(-1, None, (), 0)]  # the top level never closes
    depth = 0
    for number, line in enumerate(lines):
        effect = _brace_effect(line)
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
    if depth:
        raise UnsafeMlir(f"{depth} unclosed brace(s) at end of file")
    return found


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

"""The one reader of a printed MLIR op line: its op name and the symbol it defines, without parsing the IR.

An op that defines a symbol is printed `<op name> <keywords>* @<symbol> ...`: `func.func @f(...) {`,
`util.func private @main(...)`, `llvm.mlir.global internal constant @g() ... {`,
`hal.executable.variant public @x target(...) {`, `module @"quoted \\22" {`. The tree ordering
(ops.py, which names ops by their tree-dump directory) and the Function list (outline.py) both read
lines with this one function, so an op is the same op to both.

A reference `@a::@b` (`stream.cmd.dispatch @ex::@fn {`) defines nothing. A line starting with a
result (`%x = ...`), a block label, a closing brace or a generic op (`"x.y"()`) is no op line.
The scan reads each character at most twice (regex matches anchored at a position, no backtracking
across words), so a hostile line costs time linear in its length.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_OP_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_$.]*")
_KEYWORD = re.compile(r"[A-Za-z_][A-Za-z0-9_$.\-]*")
_BARE_SYMBOL = re.compile(r"[A-Za-z0-9_$.]+")
_HEX_DIGITS = frozenset("0123456789abcdefABCDEF")


@dataclass(frozen=True)
class OpLineParts:
    """An op line's indentation, op name as printed (`module`, `func.func`) and symbol as printed
    (`@f`, `@"a b"`; "" when it defines none)."""

    indent: int
    op: str
    symbol: str

    @property
    def qualified_op(self) -> str:
        """The op's full name: the printer drops the `builtin.` of `builtin.module`."""
        return self.op if "." in self.op else f"builtin.{self.op}"

    @property
    def raw_symbol(self) -> str:
        """The symbol as MLIR holds it (and names tree-dump directories): quotes and escapes undone."""
        return unescape_symbol(self.symbol[1:])


def read_op_line(line: str) -> OpLineParts | None:
    """The op a line starts and the symbol it defines, else None (see the module's docstring)."""
    at = len(line) - len(line.lstrip(" \t"))
    match = _OP_NAME.match(line, at)
    if match is None or not _ends_op_name(line, match.end()):
        return None
    indent, op, at = at, match.group(), match.end()
    while True:
        gap = at
        while at < len(line) and line[at] in " \t":
            at += 1
        if at == gap or at == len(line):
            return OpLineParts(indent, op, "")
        if line[at] == "@":
            return OpLineParts(indent, op, _defined_symbol(line, at))
        keyword = _KEYWORD.match(line, at)
        if keyword is None:
            return OpLineParts(indent, op, "")
        at = keyword.end()


def _ends_op_name(line: str, at: int) -> bool:
    """An op name ends the line or is followed by a space or its operands' `(` (not `<`, `:`, `=`)."""
    return at == len(line) or line[at] in " \t("


def _defined_symbol(line: str, at: int) -> str:
    """The printed `@symbol` starting at `at`, "" when it is unterminated or a nested reference."""
    if line.startswith('"', at + 1):
        close = closing_quote(line, at + 2)
        if close < 0:
            return ""
        end = close + 1
    else:
        bare = _BARE_SYMBOL.match(line, at + 1)
        if bare is None:
            return ""
        end = bare.end()
    return "" if line.startswith("::", end) else line[at:end]


def closing_quote(line: str, at: int) -> int:
    """Index of the `"` closing a string whose text starts at `at` (backslash escapes honoured), else -1.

    Each character is read once: the backslashes before a quote are counted back no further than
    the previous quote or `at`."""
    while True:
        found = line.find('"', at)
        if found < 0:
            return -1
        before = found
        while before > at and line[before - 1] == "\\":
            before -= 1
        if (found - before) % 2 == 0:
            return found
        at = found + 1


def unescape_symbol(printed: str) -> str:
    """The raw symbol of a printed `name` or `"quoted \\C3\\A9"` (without the `@`)."""
    if not printed.startswith('"'):
        return printed
    body = printed[1:-1] if printed.endswith('"') and len(printed) > 1 else printed[1:]
    out = bytearray()
    position = 0
    while position < len(body):
        char, pair = body[position], body[position + 1 : position + 3]
        if char == "\\" and len(pair) == 2 and set(pair) <= _HEX_DIGITS:  # \C3: one byte of UTF-8
            out.append(int(pair, 16))
            position += 3
        elif char == "\\" and pair[:1] in ('"', "\\"):
            out += pair[:1].encode()
            position += 2
        else:
            out += char.encode("utf-8", "surrogatepass")
            position += 1
    return out.decode("utf-8", "replace")

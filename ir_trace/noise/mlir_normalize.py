"""Ignore modes on MLIR text: what `ssa` and `loc` remove from a printed MLIR line.

Twins of the MLIR part of ir_trace/report/assets/normalize.js; `normalize.IgnoreModes` picks them when the
snapshots are MLIR. Every scan reads the line once, left to right, and skips string literals
(their escapes included; `dense<"0x...">` blobs and file names in locations are strings).

- ``ssa`` on MLIR: the numbering MLIR's printer gives values, blocks and aliases. The name of
  every SSA value (``%12``, ``%arg3``, ``%c0_i32``, ``%0#1`` with its result number) and block
  (``^bb2``) is removed, keeping its sigil, so a pass that only renumbers compares equal; so are
  the trailing digits of an attribute alias (``#map3`` -> ``#map``, ``#loc12`` -> ``#loc``).
  Dialect attributes (``#hal.device.target<...>``) have a dot and are kept.
- ``loc``: source locations. Each ``loc(...)`` (parentheses nested, strings skipped) is removed
  with the space before it, and a line of the location alias table (``#loc3 = loc(...)``) is
  ignored whole: its key starts with `IGNORED_LINE`, and a change made only of such lines is no change.
"""

from __future__ import annotations

import re

from ir_trace.syntax.mlir_opline import closing_quote

Spans = list[tuple[int, int]]

IGNORED_LINE = "\x00ignored\x00"  # starts the key of a line a mode ignores whole (no space: whitespace keeps it)

_SSA_SIGILS = re.compile(r'["%^#]')
_VALUE_NAME = re.compile(r"[A-Za-z0-9_$.\-]+")
_RESULT_NUMBER = re.compile(r"#[0-9]+")
_ALIAS_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_$.]*")
_TRAILING_DIGITS = re.compile(r"[0-9]+$")
_NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_$.")
_LOC_OR_STRING = re.compile(r'"|loc\(')
_LOC_ALIAS_LINE = re.compile(r"#[A-Za-z_][A-Za-z0-9_$.]* = loc\(")
_PAREN_OR_STRING = re.compile(r'[()"]')


def mlir_ssa_spans(line: str) -> Spans:
    """[start, end) of each value, block and alias number `ssa` removes from an MLIR line, in order."""
    spans: Spans = []
    at = 0
    while True:
        match = _SSA_SIGILS.search(line, at)
        if match is None:
            return spans
        sigil, at = match.group(), match.end()
        if sigil == '"':
            close = closing_quote(line, at)
            if close < 0:
                return spans  # an unclosed string: the rest is its text
            at = close + 1
        elif sigil == "#":
            at = _alias_number(line, at, spans)
        else:
            name = _VALUE_NAME.match(line, at)
            if name is None:
                continue
            end = name.end()
            if sigil == "%":
                number = _RESULT_NUMBER.match(line, end)
                end = number.end() if number else end
            spans.append((at, end))
            at = end


def _alias_number(line: str, at: int, spans: Spans) -> int:
    """After the `#` at `at - 1`: add the trailing digits of an alias name; return where to go on."""
    name = _ALIAS_NAME.match(line, at)
    if name is None or (at > 1 and line[at - 2] in _NAME_CHARS):
        return at
    text = name.group()
    digits = _TRAILING_DIGITS.search(text) if "." not in text else None
    if digits is not None:
        spans.append((at + digits.start(), name.end()))
    return name.end()


def loc_spans(line: str) -> Spans:
    """[start, end) of each `loc(...)` of a line, with the space before it; the whole of an alias table line."""
    if "loc(" not in line:
        return []
    if is_loc_alias_line(line):
        return [(0, len(line))]
    spans: Spans = []
    at = 0
    while True:
        match = _LOC_OR_STRING.search(line, at)
        if match is None:
            return spans
        start, at = match.start(), match.end()
        if match.group() == '"':
            close = closing_quote(line, at)
            if close < 0:
                return spans
            at = close + 1
            continue
        if start > 0 and line[start - 1] in _NAME_CHARS:
            continue  # `alloc(`, `#loc(`: not a location
        close = closing_paren(line, at)
        if close < 0:
            return spans  # unbalanced: leave the rest as printed rather than hide text
        spans.append((start - 1 if start > 0 and line[start - 1] == " " else start, close + 1))
        at = close + 1


def is_loc_alias_line(line: str) -> bool:
    """A line of the location alias table: `#loc3 = loc(...)`."""
    return _LOC_ALIAS_LINE.match(line) is not None


def closing_paren(line: str, at: int) -> int:
    """Index of the ")" closing a "(" just before `at`; strings (double-quoted) skipped. -1 if none."""
    depth = 1
    while True:
        match = _PAREN_OR_STRING.search(line, at)
        if match is None:
            return -1
        token, at = match.group(), match.end()
        if token == '"':
            close = closing_quote(line, at)
            if close < 0:
                return -1
            at = close + 1
        elif token == "(":
            depth += 1
        else:
            depth -= 1
            if depth == 0:
                return at - 1

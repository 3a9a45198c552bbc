"""Where an op of a tree-dump path is in a printed module, found without parsing the IR.

A tree dump names each op by a directory segment, `<op name, '.' -> '_'>_<symbol or no-symbol-name>`
(`func_func_saxpy_2d`). The printer opens an op's region with a line ending in `{` and closes it
with `}` at the same indentation, and nests child ops two spaces deeper; that is all this module
relies on. Every scan is a `str.find` loop plus work per region-opening line: linear in the text.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass

from ir_trace.syntax.mlir_opline import read_op_line

NO_SYMBOL = "no-symbol-name"
_IDENTIFIER_PUNCTUATION = "_.$-"


@dataclass(frozen=True)
class OpLine:
    """A line that opens an op's region: its indentation, where it starts and ends, its segment."""

    indent: int
    start: int
    end: int  # the offset of the line's newline
    segment: str


def segment_of(op: str, symbol: str) -> str:
    """The directory segment MLIR writes for an op (`symbol` raw, without `@`; "" for none)."""
    return comparable_segment(f"{op.replace('.', '_')}_{symbol or NO_SYMBOL}")


def comparable_segment(segment: str) -> str:
    """LLVM >= 22 writes `/` in a symbol as `_`; compare segments in that form."""
    return segment.replace("/", "_")


class OpIndex:
    """The region-opening lines of one printed module, to find ops by their tree-dump path."""

    def __init__(self, text: str):
        self.text = text
        self.lines = list(_region_lines(text))
        self._starts = [line.start for line in self.lines]
        self._ends: dict[int, int] = {}  # region ends and lookups, asked for again and again while ordering
        self._found: dict[tuple[tuple[str, ...], bool], list[tuple[int, int]]] = {}

    def region(self, path: tuple[str, ...]) -> tuple[int, int] | None:
        """(start, end) of the op at tree path `path` (every segment from the top-level op's), else None.

        Each segment is a direct child (two spaces deeper) of the one before it.
        """
        found = self.regions(path, first_only=True)
        return found[0] if found else None

    def regions(self, path: tuple[str, ...], first_only: bool = False) -> list[tuple[int, int]]:
        """Every op matching `path` (siblings without a symbol share a segment), within the first
        match of each ancestor, in text order."""
        key = (path, first_only)
        if key not in self._found:
            self._found[key] = self._search(path, first_only)
        return self._found[key]

    def _search(self, path: tuple[str, ...], first_only: bool) -> list[tuple[int, int]]:
        start, end, indent = 0, len(self.text), 0
        for depth, segment in enumerate(path):
            wanted = comparable_segment(segment)
            if depth == len(path) - 1:
                matches = (line for line in self.children(start, end, indent) if line.segment == wanted)
                found = []
                for line in matches:
                    found.append((line.start, self.region_end(line)))
                    if first_only:
                        break
                return found
            line = self.child(start, end, indent, wanted)
            if line is None:
                return []
            start, end, indent = line.end, self.region_end(line), line.indent + 2
        return []

    def child(self, start: int, end: int, indent: int, segment: str) -> OpLine | None:
        for line in self.children(start, end, indent):
            if line.segment == segment:
                return line
        return None

    def children(self, start: int, end: int, indent: int):
        """The ops opening a region at exactly `indent` within [start, end)."""
        for position in range(bisect_left(self._starts, start), len(self.lines)):
            line = self.lines[position]
            if line.start >= end:
                return
            if line.indent == indent:
                yield line

    def region_end(self, line: OpLine) -> int:
        """The offset just past the `}` line closing `line`'s region (the text's end if unclosed)."""
        if line.start not in self._ends:
            self._ends[line.start] = self._closing(line)
        return self._ends[line.start]

    def _closing(self, line: OpLine) -> int:
        closing = self.text.find("\n" + " " * line.indent + "}", line.end)
        if closing < 0:
            return len(self.text)
        newline = self.text.find("\n", closing + 1)
        return len(self.text) if newline < 0 else newline + 1


def _region_lines(text: str):
    """Every line that ends with `{` and starts with an op name (results, block labels and
    attribute aliases start otherwise)."""
    position = text.find("{\n")
    while position >= 0:
        start = text.rfind("\n", 0, position) + 1
        parsed = _parse_op_line(text[start:position])
        if parsed is not None:
            indent, segment = parsed
            yield OpLine(indent, start, position + 1, segment)
        position = text.find("{\n", position + 2)


def _parse_op_line(line: str) -> tuple[int, str] | None:
    parts = read_op_line(line)
    return None if parts is None else (parts.indent, segment_of(parts.qualified_op, parts.raw_symbol))


def symbol_on_line(text: str, start: int) -> str:
    """The printed symbol (`@name`, `@"quoted"`) of the op whose line starts at `start`, else ""."""
    end = text.find("\n", start)
    parts = read_op_line(text[start : len(text) if end < 0 else end])
    return parts.symbol if parts is not None else ""


def references(text: str, start: int, end: int, symbol: str) -> bool:
    """Whether text[start:end] names `symbol` (`@f`, not the `@f` of `@f2`)."""
    position = text.find(symbol, start, end)
    while position >= 0:
        after = position + len(symbol)
        if after >= len(text) or not (text[after].isalnum() or text[after] in _IDENTIFIER_PUNCTUATION):
            return True
        position = text.find(symbol, after, end)
    return False


def callees_first(text: str, siblings: list[tuple[str, int, int]]) -> list[str]:
    """The siblings' segments in the inliner's order (`callees_first_positions`)."""
    return [siblings[position][0] for position in callees_first_positions(text, siblings)]


def callees_first_positions(text: str, siblings: list[tuple[str, int, int]]) -> list[int]:
    """The siblings' positions in the inliner's order: a post-order walk of the calls between them
    (callees in the order the caller's body names them), its roots in module order."""
    symbols = [symbol_on_line(text, start) for _segment, start, _end in siblings]

    def callees(position: int) -> list[int]:
        _segment, start, end = siblings[position]
        body = text.find("\n", start, end) + 1
        if body == 0:  # a declaration calls nothing
            return []
        called = []
        for other, symbol in enumerate(symbols):
            if other != position and symbol and references(text, body, end, symbol):
                called.append((_first_reference(text, body, end, symbol), other))
        return [other for _where, other in sorted(called)]

    order: list[int] = []
    seen: set[int] = set()
    for root in range(len(siblings)):
        if root in seen:
            continue
        seen.add(root)
        stack = [(root, iter(callees(root)))]
        while stack:
            position, pending = stack[-1]
            following = next((callee for callee in pending if callee not in seen), None)
            if following is None:
                stack.pop()
                order.append(position)
            else:
                seen.add(following)
                stack.append((following, iter(callees(following))))
    return order


def _first_reference(text: str, body: int, end: int, symbol: str) -> int:
    return text.find(symbol, body, end)

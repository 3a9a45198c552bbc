"""Module-scope tree files in the order MLIR's pass manager writes them, replayed from the counters.

With threading off, an op-to-op adaptor (`func.func(canonicalize,cse)`) walks the ops under its
parent in module order, declarations included, and runs its whole nested pipeline on one op before
the next (mlir/lib/Pass/Pass.cpp, OpToOpPassAdaptor::runOnOperationImpl); adjacent adaptors are
merged into one. The counters (tree.py) put every nested file into a gap between two of its
parent's files; within a gap each child op's files are therefore one contiguous run, and the runs
come in the order the parent's text just before the gap prints the children. The inliner is the
one pass known to run a nested pipeline in another order: callees before callers (a post-order
walk of the call graph, its roots in module order), its own dump closing the gap.

`replay` gives None whenever the dump leaves that model (sibling ops sharing a directory, a child
the text before its gap does not print, contradicting counters): order.py then decides.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable

from ir_trace.inputs.mlir.ops import OpIndex, comparable_segment, references, segment_of, symbol_on_line
from ir_trace.inputs.mlir.tree import TreeFile
from ir_trace.syntax.mlir_opline import read_op_line

_CALLEES_FIRST = frozenset({"inline"})  # passes that run their nested pipeline in call-graph order
_CALL_GRAPH_LIMIT = 400  # siblings beyond which the inliner's order falls back to module order


class _OutsideModel(Exception):
    """The dump does not follow the pass manager's visiting rules that `replay` relies on."""


def replay(
    files: list[TreeFile], text_of: Callable[[TreeFile], str], is_before: Callable[[TreeFile], bool] | None = None
) -> list[TreeFile] | None:
    """`files` (every one the whole module) in write order, or None when the model does not apply.
    `is_before(file)` tells a `Before` dump (--mlir-print-ir-before-all) from an `After` one."""
    tops = {file.dirs[:1] for file in files}
    if len(tops) != 1:
        return None
    player = _Replayer(text_of, is_before or (lambda _file: False))
    try:
        player.play(next(iter(tops)), files)
    except _OutsideModel:
        return None
    return player.ordered if len(player.ordered) == len(files) else None


class _Replayer:
    def __init__(self, text_of: Callable[[TreeFile], str], is_before: Callable[[TreeFile], bool]):
        self.text_of = text_of
        self.is_before = is_before
        self.ordered: list[TreeFile] = []

    def play(self, op: tuple[str, ...], scope: list[TreeFile]) -> None:
        """Place `scope` (the files of `op` and of the ops below it, written in one visit of `op`)."""
        depth = len(op)
        own = sorted((f for f in scope if f.dirs == op), key=lambda f: f.own_number)
        numbers = [f.own_number for f in own]
        if any(a >= b for a, b in zip(numbers, numbers[1:])):
            raise _OutsideModel  # several ops write to this directory
        gaps: list[list[TreeFile]] = [[] for _ in range(len(own) + 1)]
        for file in scope:
            if file.dirs != op:
                gaps[bisect_right(numbers, file.numbers[depth - 1])].append(file)
        for index, nested in enumerate(gaps):
            if nested:
                opening = own[index - 1] if index > 0 else None
                closing = own[index] if index < len(own) else None
                self._play_gap(op, nested, opening, closing)
            if index < len(own):
                self.ordered.append(own[index])

    def _play_gap(
        self, op: tuple[str, ...], nested: list[TreeFile], opening: TreeFile | None, closing: TreeFile | None
    ) -> None:
        """The files between two dumps of `op` (`opening`, `closing`; None at either end)."""
        by_child: dict[str, list[TreeFile]] = {}
        for file in nested:
            by_child.setdefault(file.dirs[len(op)], []).append(file)
        if closing is None or closing.argument not in _CALLEES_FIRST or self.is_before(closing):
            self._sweep(op, by_child, callees_first_order=False)
            return
        if opening is not None and opening.argument == closing.argument and self.is_before(opening):
            before: dict = {}
            during = by_child  # the gap opens with the inliner's Before dump
        else:  # an adaptor may have run before the inliner with no dump of `op` between: its sweep comes first
            before, during = self._split_inliner_gap(op, by_child)
        if before:
            self._sweep(op, before, callees_first_order=False)
        if during:
            self._sweep(op, during, callees_first_order=True)

    def _sweep(self, op: tuple[str, ...], by_child: dict[str, list[TreeFile]], callees_first_order: bool) -> None:
        """One walk over `op`'s children, each child's files in one run."""
        first = min((f for files in by_child.values() for f in files), key=lambda f: f.path)
        reference = self.text_of(self.ordered[-1] if self.ordered else first)
        siblings = child_ops(reference, op)
        segments = [segment for segment, _start, _end in siblings]
        if len(set(segments)) != len(segments):
            raise _OutsideModel  # siblings without a symbol: which is which is not in the names
        if callees_first_order and len(siblings) <= _CALL_GRAPH_LIMIT:
            segments = callees_first(reference, siblings)
        rank = {comparable_segment(segment): position for position, segment in enumerate(segments)}
        if any(comparable_segment(child) not in rank for child in by_child):
            raise _OutsideModel
        for child in sorted(by_child, key=lambda child: rank[comparable_segment(child)]):
            self.play(op + (child,), by_child[child])

    def _split_inliner_gap(
        self, op: tuple[str, ...], by_child: dict[str, list[TreeFile]]
    ) -> tuple[dict[str, list[TreeFile]], dict[str, list[TreeFile]]]:
        """Each child's files before the inliner started and during it. The adaptor before it ran the
        same passes on every child, declarations included; the inliner runs its pipeline at least once
        on every child with a body and never on a declaration. So the earlier sweep is as long as a
        declaration's run, else the children's common run of passes, but one short of the shortest."""
        depth = len(op) + 1
        chains = {
            child: sorted((f for f in files if len(f.dirs) == depth), key=lambda f: f.own_number)
            for child, files in by_child.items()
        }
        first = min(by_child[min(by_child)], key=lambda f: f.path)
        declarations = _declarations(self.text_of(self.ordered[-1] if self.ordered else first), op)
        declared = {len(chain) for child, chain in chains.items() if comparable_segment(child) in declarations}
        if len(declared) > 1:
            raise _OutsideModel
        bodied = [chain for child, chain in chains.items() if comparable_segment(child) not in declarations]
        if declared:
            length = declared.pop()
        elif bodied and all(bodied):
            length = min(len(chain) for chain in bodied) - 1
            arguments = [[f.argument for f in chain] for chain in bodied]
            while length and any(a[:length] != arguments[0][:length] for a in arguments):
                length -= 1
        else:
            length = 0
        before: dict[str, list[TreeFile]] = {}
        during: dict[str, list[TreeFile]] = {}
        for child, files in by_child.items():
            chain = chains[child]
            if length == 0 or len(chain) < length:
                during[child] = files
                continue
            first_during = chain[length].own_number if len(chain) > length else None
            for file in files:
                late = first_during is not None and (
                    file.own_number >= first_during
                    if len(file.dirs) == depth
                    else file.numbers[depth - 1] >= first_during
                )
                (during if late else before).setdefault(child, []).append(file)
        return before, during


def _declarations(text: str, op: tuple[str, ...]) -> set[str]:
    """The segments of `op`'s children printed without a region (body-less declarations)."""
    return {
        comparable_segment(segment) for segment, start, end in child_ops(text, op) if text.find("\n", start, end) < 0
    }


def child_ops(text: str, op: tuple[str, ...]) -> list[tuple[str, int, int]]:
    """(segment, start, end) of each op directly inside the op at tree path `op`, in text order, those
    without a region (declarations) included; end is that of the op's first line for those."""
    index = OpIndex(text)
    region = index.region(op)
    if region is None:
        raise _OutsideModel
    start, end = region
    first_line_end = text.find("\n", start, end)
    if first_line_end < 0:
        return []
    header = read_op_line(text[start:first_line_end])
    if header is None:
        raise _OutsideModel
    prefix = "\n" + " " * (header.indent + 2)
    found = []
    position = text.find(prefix, first_line_end, end)
    while position >= 0:
        line_start = position + 1
        line_end = text.find("\n", line_start, end)
        line_end = end if line_end < 0 else line_end
        line = text[line_start:line_end]
        if line[len(prefix) - 1 : len(prefix)] not in (" ", "\t"):
            parts = read_op_line(line)
            if parts is not None:
                region_end = _region_end(text, line, line_start, line_end, len(prefix) - 1, end)
                found.append((segment_of(parts.qualified_op, parts.raw_symbol), line_start, region_end))
        position = text.find(prefix, line_end, end)
    return found


def _region_end(text: str, line: str, line_start: int, line_end: int, indent: int, limit: int) -> int:
    if not line.endswith("{"):
        return line_end
    closing = text.find("\n" + " " * indent + "}", line_end, limit)
    return limit if closing < 0 else closing + 1


def callees_first(text: str, siblings: list[tuple[str, int, int]]) -> list[str]:
    """The siblings' segments in the inliner's order: a post-order walk of the calls between them
    (callees in the order the caller's body names them), its roots in module order."""
    symbols = {segment: symbol_on_line(text, start) for segment, start, _end in siblings}
    bodies = {segment: (start, end) for segment, start, end in siblings}

    def callees(segment: str) -> list[str]:
        start, end = bodies[segment]
        body = text.find("\n", start, end) + 1
        if body == 0:  # a declaration calls nothing
            return []
        called = []
        for other, symbol in symbols.items():
            if other != segment and symbol and references(text, body, end, symbol):
                called.append((_first_reference(text, body, end, symbol), other))
        return [other for _position, other in sorted(called)]

    order: list[str] = []
    seen: set[str] = set()
    for root, _start, _end in siblings:
        if root in seen:
            continue
        seen.add(root)
        stack = [(root, iter(callees(root)))]
        while stack:
            segment, pending = stack[-1]
            following = next((callee for callee in pending if callee not in seen), None)
            if following is None:
                stack.pop()
                order.append(segment)
            else:
                seen.add(following)
                stack.append((following, iter(callees(following))))
    return order


def _first_reference(text: str, body: int, end: int, symbol: str) -> int:
    return text.find(symbol, body, end)

"""Module-scope tree files in the order MLIR's pass manager writes them, replayed from the counters.

With threading off, an op-to-op adaptor (`func.func(canonicalize,cse)`) walks the ops under its
parent in module order, declarations included, and runs its whole nested pipeline on one op before
the next (mlir/lib/Pass/Pass.cpp, OpToOpPassAdaptor::runOnOperationImpl); adjacent adaptors are
merged into one. The counters (tree.py) put every nested file into a gap between two of its
parent's files; within a gap each child op's files are therefore one contiguous run, and the runs
come in the order the parent's text just before the gap prints the children. The inliner is the
one pass known to run a nested pipeline in another order: callees before callers (a post-order
walk of the call graph, its roots in module order), its own dump closing the gap.

Sibling ops without a symbol share a directory (`_SharedSweep` tells their runs apart). `replay`
gives None whenever the dump leaves that model (a child the text before its gap does not print,
runs that are not one pipeline's, contradicting counters): order.py then decides.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from ir_trace.inputs.mlir.ops import NO_SYMBOL, OpIndex, callees_first_positions, comparable_segment, segment_of
from ir_trace.inputs.mlir.tree import TreeFile
from ir_trace.syntax.mlir_opline import read_op_line

_CALLEES_FIRST = frozenset({"inline"})  # passes that run their nested pipeline in call-graph order
_CALL_GRAPH_LIMIT = 400  # siblings beyond which the inliner's order falls back to module order


class _OutsideModel(Exception):
    """The dump does not follow the pass manager's visiting rules that `replay` relies on."""


def replay(
    files: list[TreeFile],
    text_of: Callable[[TreeFile], str],
    is_before: Callable[[TreeFile], bool] | None = None,
    written: dict[str, int] | None = None,
) -> Replayed | None:
    """`files` (every one the whole module) in write order and remarks on what the dump left open,
    or None when the model does not apply. `is_before(file)` tells a `Before` dump
    (--mlir-print-ir-before-all) from an `After` one; `written` gives each file's mtime when the
    tree's mtimes are trustworthy (order.py's `trusted_mtimes`)."""
    tops = {file.dirs[:1] for file in files}
    if len(tops) != 1:
        return None
    player = _Replayer(text_of, is_before or (lambda _file: False), written or {})
    try:
        player.play(next(iter(tops)), files)
    except _OutsideModel:
        return None
    if len(player.ordered) != len(files):
        return None
    return Replayed(player.ordered, player.remarks(), player.lost())


@dataclass(frozen=True)
class Replayed:
    """An order, its remarks on what the dump left open, and the dumps provably lost: (shared
    directory, its op count, dumps lost) each, as tree.lost_dumps gives them (None: not known)."""

    order: list[TreeFile]
    remarks: list[str]
    lost: list[tuple[str, int, int]] | None


class _Replayer:
    def __init__(
        self, text_of: Callable[[TreeFile], str], is_before: Callable[[TreeFile], bool], written: dict[str, int]
    ):
        self.text_of = text_of
        self.is_before = is_before
        self.written = written
        self.ordered: list[TreeFile] = []
        self.regions: dict[tuple[str, tuple[str, ...]], list[tuple[int, int]]] = {}  # (file, shared dir) -> its ops
        self._shared = _SharedSweep(self)

    def remarks(self) -> list[str]:
        return self._shared.remarks()

    def lost(self) -> list[tuple[str, int, int]]:
        shared = self._shared
        return [("/".join(dirs), shared.ops[dirs], lost) for dirs, lost in sorted(shared.lost.items()) if lost]

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
        visits = list(range(len(siblings)))
        if callees_first_order and len(siblings) <= _CALL_GRAPH_LIMIT:
            visits = callees_first_positions(reference, siblings)
            segments = [segments[position] for position in visits]
        if any(child.endswith("_" + NO_SYMBOL) for child in by_child):  # ops without a symbol share a directory
            self._shared.sweep(op, by_child, [segment for segment, _start, _end in siblings], visits, first)
            return
        printed = Counter(comparable_segment(segment) for segment in segments)
        if any(printed[comparable_segment(child)] > 1 for child in by_child):
            raise _OutsideModel  # siblings with one symbol: which is which is not in the names
        rank = {comparable_segment(segment): position for position, segment in enumerate(segments)}
        if any(comparable_segment(child) not in rank for child in by_child):
            raise _OutsideModel
        if self.written:  # trusted mtimes (consistent with every counter) tell what the walk's order cannot
            first_written = {child: min(self.written[f.path] for f in files) for child, files in by_child.items()}
            rank = {comparable_segment(child): first_written[child] for child in by_child}
        else:
            rank = _separate_adaptors(reference, siblings, by_child, rank)
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


def _separate_adaptors(
    reference: str,
    siblings: list[tuple[str, int, int]],
    by_child: dict[str, list[TreeFile]],
    rank: dict[str, int],
) -> dict[str, int]:
    """`rank` (module order), or one sweep per op kind. Adjacent adaptors are merged into one walk in
    module order unless one's pipeline is op-agnostic and could run on the other's ops
    (OpToOpPassAdaptor::tryMergeInto); then each walks the module on its own, one after the other.
    The names do not say which pipeline is op-agnostic; kinds whose runs in this gap share no pass are
    taken for such separate walks (merged ones of one pass manager are the rule otherwise), in the
    order of each kind's first op in the module, as the pipeline's own order is not printed."""
    kind_of: dict[str, str] = {}
    for segment, start, _end in siblings:
        line_end = reference.find("\n", start)
        parts = read_op_line(reference[start : line_end if line_end >= 0 else len(reference)])
        if parts is not None:
            kind_of[comparable_segment(segment)] = parts.qualified_op
    passes: dict[str, set[str]] = {}
    for child, files in by_child.items():
        kind = kind_of.get(comparable_segment(child))
        if kind is None:
            return rank
        passes.setdefault(kind, set()).update(f.argument for f in files)
    shared_pass = sum(len(arguments) for arguments in passes.values()) != len(set().union(*passes.values()))
    if len(passes) < 2 or shared_pass:
        return rank
    first: dict[str | None, int] = {}
    for segment, position in sorted(rank.items(), key=lambda item: item[1]):
        first.setdefault(kind_of.get(segment), position)
    stride = len(rank) + 1
    return {segment: first[kind_of.get(segment)] * stride + position for segment, position in rank.items()}


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


class _SharedSweep:
    """Sibling ops without a symbol (IREE's `util.initializer`s) share one directory and each counts
    its own dumps (IRPrinting.cpp keys the counter by the op), so the names do not say which op a
    dump is of. Within a gap each op's dumps are still one run of the nested pipeline, numbered on
    from the op's run in the gap before, at the op's place in module order. Which run is which op,
    by the signals in the order they are trusted: the counters (an op's run starts where its last
    one ended; ops at the same number wrote the same names, and the later op's files survive), the
    content (a run's first dump that changes the module changes it inside its own op alone), the
    files' mtimes when they are trusted (never alone: only among runs the first two leave open), and
    else file-name order, remarked on when the candidates' texts cannot tell them apart."""

    def __init__(self, replayer: _Replayer):
        self.replayer = replayer
        # per shared directory, each of its ops in module order after its last gap: (op text, next number)
        self.history: dict[tuple[str, ...], list[tuple[str, int | None]]] = {}
        self.ambiguous: dict[tuple[str, ...], int] = {}  # directory -> snapshots placed in file-name order
        self.ops: dict[tuple[str, ...], int] = {}  # directory -> most ops it was shared by
        self.lost: dict[tuple[str, ...], int] = {}  # directory -> dumps another op's took the names of

    def sweep(
        self,
        op: tuple[str, ...],
        by_child: dict[str, list[TreeFile]],
        segments: list[str],
        visits: list[int],
        first: TreeFile,
    ) -> None:
        """`op`'s children (`segments` in module order, some printed more than once) walked in the
        order `visits` gives their positions; `first` stands for the text before when none is placed."""
        self.first = first
        children = {comparable_segment(child): child for child in by_child}
        keys = [comparable_segment(segment) for segment in segments]
        counts = Counter(keys)
        if any(key not in counts for key in children):
            raise _OutsideModel
        if self.replayer.written:
            self._sweep_by_mtimes(op, by_child, counts)
            return
        gaps = {}
        for key, child in children.items():
            if child.endswith("_" + NO_SYMBOL):
                gap = self._gap(op + (child,), by_child[child], counts[key])
                if gap is not None:
                    gaps[key] = gap
        occurrence: dict[int, int] = {}  # position -> which op of its segment it is, in module order
        seen: Counter[str] = Counter()
        for position, key in enumerate(keys):
            occurrence[position] = seen[key]
            seen[key] += 1
        for position in visits:
            key = keys[position]
            if key in gaps:
                gaps[key].visit(occurrence[position])
            elif key in children:
                self.replayer.play(op + (children[key],), by_child[children[key]])
        for gap in gaps.values():
            gap.finish()

    def _sweep_by_mtimes(self, op: tuple[str, ...], by_child: dict[str, list[TreeFile]], counts: Counter[str]) -> None:
        """With trusted mtimes: each op's run (a shared directory's split by `_pipeline_runs`, unless
        one op has it to itself) in the order the runs were written."""
        written = self.replayer.written
        units: list[tuple[int, tuple[str, ...], list[TreeFile]]] = []
        for child, files in by_child.items():
            dirs = op + (child,)
            self.history.pop(dirs, None)
            own = [f for f in files if len(f.dirs) == len(dirs)]
            runs = [files]
            if child.endswith("_" + NO_SYMBOL) and own and counts[comparable_segment(child)] > 1:
                runs = _pipeline_runs(own)
                deeper = [f for f in files if len(f.dirs) > len(dirs)]
                if deeper and len(runs) != 1:
                    raise _OutsideModel
                runs = [run + deeper for run in runs]
            units += [(min(written[f.path] for f in run), dirs, run) for run in runs]
            count = counts[comparable_segment(child)]
            if count > 1:
                self.count_lost(dirs, count, len(runs), len(runs[0]))
        for _first_written, dirs, run in sorted(units, key=lambda unit: unit[0]):
            self.replayer.play(dirs, run)

    def count_lost(self, dirs: tuple[str, ...], ops: int, runs: int, run_length: int) -> None:
        self.ops[dirs] = max(ops, self.ops.get(dirs, 0))
        self.lost[dirs] = self.lost.get(dirs, 0) + max(ops - runs, 0) * run_length

    def _gap(self, dirs: tuple[str, ...], files: list[TreeFile], count: int) -> _SharedGap | None:
        """The gap's runs of `dirs`; None for a lone op whose dumps are no one pipeline's runs (it is
        placed as any op is, and its counters are forgotten)."""
        try:
            return _SharedGap(self, dirs, files, count)
        except _OutsideModel:
            if count > 1:
                raise
            self.history.pop(dirs, None)
            return None

    def current(self) -> TreeFile:
        """The file placed last (before any, the one whose text the walk started from)."""
        return self.replayer.ordered[-1] if self.replayer.ordered else self.first

    def remarks(self) -> list[str]:
        return [
            f"order of {count} snapshots in {'/'.join(dirs)} is ambiguous (sibling ops without a symbol left the "
            "module identical); shown in file-name order"
            for dirs, count in sorted(self.ambiguous.items())
        ]

    def op_texts(self, file: TreeFile | None, dirs: tuple[str, ...]) -> list[tuple[int, int]]:
        """Where each op of the shared directory `dirs` is in `file`'s text (the last placed one if None)."""
        replayer = self.replayer
        if file is None:
            file = self.current()
        key = (file.path, dirs)
        if key not in replayer.regions:
            wanted = comparable_segment(dirs[-1])
            replayer.regions[key] = [
                (start, end)
                for segment, start, end in child_ops(replayer.text_of(file), dirs[:-1])
                if comparable_segment(segment) == wanted
            ]
        return replayer.regions[key]


class _SharedGap:
    """One gap's dumps of a shared directory, split into runs and given to its ops as they are visited."""

    _FITS, _SAME, _OUTSIDE = range(3)

    def __init__(self, sweep: _SharedSweep, dirs: tuple[str, ...], files: list[TreeFile], count: int):
        self.sweep, self.dirs, self.count = sweep, dirs, count
        self.runs = _pipeline_runs([f for f in files if len(f.dirs) == len(dirs)])
        deeper = [f for f in files if len(f.dirs) > len(dirs)]
        if deeper and len(self.runs) != 1:
            raise _OutsideModel  # which op's run a nested dump belongs to is not in the names
        self.deeper = deeper
        self.next_numbers: list[int | None] = [None] * count
        self.placed: dict[int, list[TreeFile]] = {}
        settled = self._by_counters(self._expected_starts())
        taken = {id(run) for run in self.placed.values()}
        self.open_runs = [run for run in self.runs if id(run) not in taken]
        self.unsettled = count - settled

    def _expected_starts(self) -> list[int | None]:
        """Each op's next number from the gap before: its op text there, else its place if no op came or went."""
        history = self.sweep.history.get(self.dirs, [])
        texts = [self._op_text(None, j) for j in range(self.count)]
        expected: list[int | None] = [None] * self.count
        used = [False] * len(history)
        free: dict[str, list[int]] = {}
        for position, (op_text, _number) in enumerate(history):
            free.setdefault(op_text, []).append(position)
        for j, text in enumerate(texts):
            if text is not None and free.get(text):
                position = free[text].pop(0)
                used[position], expected[j] = True, history[position][1]
        if len(history) == self.count:
            for j in range(self.count):
                if expected[j] is None and not used[j]:
                    expected[j] = history[j][1]
        return expected

    def _by_counters(self, expected: list[int | None]) -> int:
        """Runs given to the ops whose next number they start at; returns how many ops that settles."""
        by_start = {run[0].own_number: run for run in self.runs}
        settled = 0
        for j in reversed(range(self.count)):  # of two ops at one number, the later one's files survive
            start = expected[j]
            if start is None or start not in by_start:
                continue
            settled += 1
            run = by_start[start]
            self.next_numbers[j] = start + len(run)
            if all(placed is not run for placed in self.placed.values()):
                self.placed[j] = run
        return settled

    def visit(self, j: int) -> None:
        """The adaptor reaches the j-th op of the directory: its run, if it has one left, is placed."""
        run = self.placed.get(j)
        if run is None and self.next_numbers[j] is None:
            run = self._choose(j)
        if run is None:
            return
        self.placed[j] = run
        self.next_numbers[j] = run[-1].own_number + 1
        self.sweep.replayer.play(self.dirs, run + (self.deeper if len(self.runs) == 1 else []))

    def _choose(self, j: int) -> list[TreeFile] | None:
        """The open run that continues the module at the j-th op (content, then mtime or file-name order); none
        while more ops than runs are left and no run shows it changed this op."""
        self.unsettled -= 1
        if not self.open_runs:
            return None
        written = self.sweep.replayer.written
        scored = sorted(
            (self._fit(run, j), written.get(run[0].path, 0), run[0].own_number, index)
            for index, run in enumerate(self.open_runs)
        )
        best_fit = scored[0][0]
        forced = len(self.open_runs) > self.unsettled
        if best_fit != self._FITS and not forced:
            return None
        tied = [index for fit, _written, _start, index in scored if fit == best_fit]
        if best_fit == self._SAME and len(tied) > 1 and not written:  # mtimes, when trusted, tell them apart
            self.sweep.ambiguous[self.dirs] = self.sweep.ambiguous.get(self.dirs, 0) + sum(
                len(self.open_runs[index]) for index in tied
            )
        return self.open_runs.pop(scored[0][-1])

    def _fit(self, run: list[TreeFile], j: int) -> int:
        """How `run` follows the current text at the j-th op: its first dump that changes the module
        changes it inside that op alone, or no dump changes it, or a change lies elsewhere."""
        replayer = self.sweep.replayer
        current = replayer.text_of(self.sweep.current())
        changing = next((file for file in run if replayer.text_of(file) != current), None)
        if changing is None:
            return self._SAME
        mine, theirs = self.sweep.op_texts(changing, self.dirs), self.sweep.op_texts(None, self.dirs)
        if len(mine) != len(theirs) or j >= len(mine):
            return self._OUTSIDE
        text = replayer.text_of(changing)
        (a_start, a_end), (b_start, b_end) = mine[j], theirs[j]
        inside = same_text(text[:a_start], current[:b_start]) and same_text(text[a_end:], current[b_end:])
        return self._FITS if inside else self._OUTSIDE

    def _op_text(self, file: TreeFile | None, j: int) -> str | None:
        regions = self.sweep.op_texts(file, self.dirs)
        if j >= len(regions):
            return None
        file = file or self.sweep.current()
        start, end = regions[j]
        return self.sweep.replayer.text_of(file)[start:end]

    def finish(self) -> None:
        """The directory's ops as the gap leaves them, for the next gap's counters; the ops left
        without a run lost theirs (the adaptor runs its pipeline on every op of the directory)."""
        self.sweep.count_lost(self.dirs, self.count, len(self.runs), len(self.runs[0]) if self.runs else 0)
        if len(self.sweep.op_texts(None, self.dirs)) != self.count:
            self.sweep.history.pop(self.dirs, None)
            return
        self.sweep.history[self.dirs] = [
            (self._op_text(None, j) or "", self.next_numbers[j]) for j in range(self.count)
        ]


def _pipeline_runs(files: list[TreeFile]) -> list[list[TreeFile]]:
    """One gap's dumps of a shared directory as runs of one nested pipeline (consecutive numbers,
    the pipeline's pass arguments in turn), in order of their first number. The run with the lowest
    number tells the pipeline: at each next number the one argument it has not yet had (distinct
    arguments assumed: anything else is outside the model)."""
    by_number: dict[int, dict[str, TreeFile]] = {}
    for file in files:
        by_number.setdefault(file.own_number, {})[file.argument] = file
    if not by_number:
        return []
    lowest = min(by_number)
    if len(by_number[lowest]) != 1:
        raise _OutsideModel
    pipeline = list(by_number[lowest])
    while True:
        following = [a for a in by_number.get(lowest + len(pipeline), {}) if a not in pipeline]
        if len(following) > 1:
            raise _OutsideModel
        if not following:
            break
        pipeline.append(following[0])
    runs = []
    for start in sorted(n for n, arguments in by_number.items() if pipeline[0] in arguments):
        try:
            runs.append([by_number[start + i][argument] for i, argument in enumerate(pipeline)])
        except KeyError:
            raise _OutsideModel from None
    if sum(len(run) for run in runs) != len(files):
        raise _OutsideModel
    return runs


def same_text(a: str, b: str) -> bool:
    """Equal, or equal but for the `#loc` table (--mlir-print-debuginfo), which a pass changes
    outside its op whenever it changes a location inside it."""
    if a == b:
        return True
    if "#loc" not in a and "#loc" not in b:
        return False
    return _without_locations(a) == _without_locations(b)


def _without_locations(text: str) -> list[str]:
    return [line for line in text.split("\n") if not line.startswith("#loc")]

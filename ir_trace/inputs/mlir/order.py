"""The files of a `--mlir-print-ir-tree-dir` tree put in the order the compiler wrote them.

A file's counters (tree.py) make each directory's files a chain, and put a nested file with
ancestor counter `c` after that ancestor's file `c` and before its file `c + 1`. Those rules leave
siblings' files unordered (the pass manager visits ops in module order, the inliner callees
first); with module scope every file is the whole module, and the next snapshot differs from the
current one only inside the op its pass ran on, which picks the right sibling. What content
cannot tell (passes that changed nothing) goes by the pass manager's habits: all passes of a
nested pipeline on one op, then the next op printed; within the inliner, callees first. The
merge is a topological sort whose ready set is ranked so: linear in the files, with one prefix
and suffix comparison per candidate.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable

from ir_trace.inputs.mlir.ops import NO_SYMBOL, OpIndex, references, symbol_on_line
from ir_trace.inputs.mlir.pass_manager import Replayed, replay, same_text
from ir_trace.inputs.mlir.tree import TreeFile


def order_tree(
    files: list[TreeFile],
    text_of: Callable[[TreeFile], str] | None = None,
    is_before: Callable[[TreeFile], bool] | None = None,
    mtime_of: Callable[[TreeFile], int] | None = None,
) -> list[TreeFile]:
    """`files` in write order. `text_of(file)` gives a file's IR when every file is the whole module
    (module scope): the pass manager's walk is then replayed (pass_manager.py), or where the dump
    leaves its model, content picks among siblings the counters leave unordered. `is_before(file)`
    tells Before dumps."""
    return order_tree_remarked(files, text_of, is_before, mtime_of).order


def order_tree_remarked(
    files: list[TreeFile],
    text_of: Callable[[TreeFile], str] | None = None,
    is_before: Callable[[TreeFile], bool] | None = None,
    mtime_of: Callable[[TreeFile], int] | None = None,
) -> Replayed:
    """`order_tree`'s order, remarks on where the dump leaves it open (one line each) and, when the
    pass manager's walk was replayed, the dumps it proves lost (else `lost_dumps` must tell: None).
    `mtime_of(file)`: its modification time in ns, a signal where counters and content leave
    the order open, when `trusted_mtimes` finds the tree's mtimes trustworthy."""
    if text_of is None:
        return Replayed(_merge(files, text_of), [], None)
    written = trusted_mtimes(files, mtime_of) if mtime_of is not None else None
    indexes: dict[str, OpIndex] = {}  # each file's op index, built once for every comparison below
    replayed = replay(files, text_of, is_before)
    breaks = content_breaks(replayed.order, text_of, indexes) if replayed is not None else []
    if written is not None:  # never the mtimes alone: their order wins unless content speaks against it
        by_mtimes = replay(files, text_of, is_before, written)
        their_breaks = content_breaks(by_mtimes.order, text_of, indexes) if by_mtimes is not None else []
        if by_mtimes is not None and (replayed is None or len(their_breaks) <= len(breaks)):
            replayed, breaks = by_mtimes, their_breaks
    if replayed is None:
        return Replayed(_merge(files, text_of, indexes), [], None)
    if not breaks:
        return replayed
    merged = _merge(files, text_of, indexes)  # content contradicts the replay: the order that fits it better wins
    if len(content_breaks(merged, text_of, indexes)) < len(breaks):
        return Replayed(merged, [], None)
    return replayed


def trusted_mtimes(files: list[TreeFile], mtime_of: Callable[[TreeFile], int]) -> dict[str, int] | None:
    """Each file's mtime, when they can be trusted as the write order: all distinct (a fine-grained
    clock: copies and archives flatten them) and consistent with every counter, that is ascending
    along each directory an op may have to itself (not a nested one of ops without a symbol) and
    each nested file's between the two dumps of every ancestor around it. Else None."""
    written = {file.path: mtime_of(file) for file in files}
    if len(set(written.values())) != len(written):
        return None
    graph = _DumpGraph(files)
    for file in files:
        for after in graph.successors[file.path]:
            shared = after.dirs == file.dirs and len(file.dirs) > 1 and file.dirs[-1].endswith("_" + NO_SYMBOL)
            if not shared and written[after.path] <= written[file.path]:
                return None
    return written


def content_breaks(
    ordered: list[TreeFile], text_of: Callable[[TreeFile], str], indexes: dict[str, OpIndex] | None = None
) -> list[TreeFile]:
    """The nested dumps whose text differs from the one placed before them outside their own op (a
    pass on an op changes that op alone): each is evidence against the order."""
    indexes = {} if indexes is None else indexes

    def index(file: TreeFile) -> OpIndex:
        if file.path not in indexes:
            indexes[file.path] = OpIndex(text_of(file))
        return indexes[file.path]

    found = []
    for before, file in zip(ordered, ordered[1:]):
        text, previous = text_of(file), text_of(before)
        if len(file.dirs) < 2 or text == previous:
            continue
        mine, theirs = index(file).regions(file.dirs), index(before).regions(file.dirs)
        if len(mine) != len(theirs) or not any(
            same_text(text[: a[0]], previous[: b[0]]) and same_text(text[a[1] :], previous[b[1] :])
            for a, b in zip(mine, theirs)
        ):
            found.append(file)
    return found


def _merge(
    files: list[TreeFile], text_of: Callable[[TreeFile], str] | None, indexes: dict[str, OpIndex] | None = None
) -> list[TreeFile]:
    """The counters' constraints merged, siblings ranked by content (`_ContentChooser`)."""
    graph = _DumpGraph(files)
    chooser = (
        _ContentChooser(text_of, graph.closing, {} if indexes is None else indexes) if text_of is not None else None
    )
    ordered: list[TreeFile] = []
    ready = graph.initially_ready()
    while ready:
        best = chooser.pick(ready) if chooser is not None else min(ready, key=_path_order)
        ready.remove(best)
        ordered.append(best)
        ready.extend(graph.release(best))
    if len(ordered) != len(files):  # the counters contradict each other (a hand-made tree)
        placed = {f.path for f in ordered}
        ordered += sorted((f for f in files if f.path not in placed), key=_path_order)
    return ordered


def _path_order(file: TreeFile) -> tuple:
    return (file.numbers, file.dirs, file.path)


class _DumpGraph:
    """What the counters say: each directory's chain, and each nested file between two of every
    ancestor's files. O(files x depth) edges."""

    def __init__(self, files: list[TreeFile]):
        self.files = files
        by_dir: dict[tuple[str, ...], list[TreeFile]] = {}
        for file in files:
            by_dir.setdefault(file.dirs, []).append(file)
        for chain in by_dir.values():
            # By every counter, not the own one alone: sibling ops without a symbol share a directory
            # and each counts from 0, while the ancestors' counters only grow.
            chain.sort(key=lambda f: (f.numbers, f.path))
        self.successors: dict[str, list[TreeFile]] = {f.path: [] for f in files}
        self.closing: dict[str, list[TreeFile]] = {}  # each ancestor's dump that comes after a nested one
        self.waiting: dict[str, int] = {f.path: 0 for f in files}
        for chain in by_dir.values():
            for before, after in zip(chain, chain[1:]):
                self._edge(before, after)
        numbers = {d: [f.own_number for f in chain] for d, chain in by_dir.items()}
        single = {d for d, own in numbers.items() if _ascending(own)}  # shared directories have no single counter
        for file in files:
            for level in range(len(file.dirs) - 1):
                ancestor = file.dirs[: level + 1]
                ancestor_chain = by_dir.get(ancestor)
                if not ancestor_chain or ancestor not in single:
                    continue
                position = bisect_right(numbers[ancestor], file.numbers[level])
                if position > 0:
                    self._edge(ancestor_chain[position - 1], file)
                if position < len(ancestor_chain):
                    self._edge(file, ancestor_chain[position])
                    self.closing.setdefault(file.path, []).append(ancestor_chain[position])

    def _edge(self, before: TreeFile, after: TreeFile) -> None:
        self.successors[before.path].append(after)
        self.waiting[after.path] += 1

    def initially_ready(self) -> list[TreeFile]:
        return [f for f in self.files if self.waiting[f.path] == 0]

    def release(self, done: TreeFile) -> list[TreeFile]:
        freed = []
        for after in self.successors[done.path]:
            self.waiting[after.path] -= 1
            if self.waiting[after.path] == 0:
                freed.append(after)
        return freed


def _ascending(values: list[int]) -> bool:
    return all(a < b for a, b in zip(values, values[1:]))


class _ContentChooser:
    """Picks the ready file whose module text follows from the current one: an identical text (a
    pass that changed nothing) first, then one that differs only inside the op its pass ran on;
    ties go to the op the pass manager visits next: it walks sibling ops in module order, so the
    first one printed after the op dumped last (for siblings sharing a directory, which one ran is
    unknown: the next of them after that op)."""

    _SAME, _INSIDE, _UNKNOWN, _OUTSIDE = range(4)

    def __init__(
        self, text_of: Callable[[TreeFile], str], closing: dict[str, list[TreeFile]], indexes: dict[str, OpIndex]
    ):
        self.text_of = text_of
        self.closing = closing
        self._ready: list[TreeFile] = []
        self.current: str | None = None
        self.current_dirs: tuple[str, ...] = ()
        self.current_number = -1
        self.current_index: OpIndex | None = None
        self.swept_to = -1  # where the op dumped last starts in the current text (-1: a top-level dump)
        self._indexes = indexes
        self._siblings = _SharedSiblings()

    def pick(self, ready: list[TreeFile]) -> TreeFile:
        if len(ready) == 1:
            best = ready[0]
        elif self.current is None:
            best = min(ready, key=lambda file: (self._followers_fit(file, ready), self._rank(file)))
        else:
            self._ready = ready
            best = min(ready, key=self._rank)
        self._move_to(best)
        return best

    def _move_to(self, best: TreeFile) -> None:
        """`best` is placed next: its text becomes the current one."""
        previous_dirs = self.current_dirs
        if self.current is not None:
            changed = self._changed_sibling(best)
            changed_op = None
            if changed is not None:
                start, end = self._index(best).regions(best.dirs)[changed]
                changed_op = self.text_of(best)[start:end]
            self._siblings.visited(best, changed_op)
        self.current = self.text_of(best)
        self.current_dirs, self.current_number = best.dirs, best.own_number
        self.current_index = self._index(best)
        self.swept_to = self._visit_position(best, previous_dirs) if len(best.dirs) > 1 else -1

    def _visit_position(self, file: TreeFile, previous_dirs: tuple[str, ...]) -> int:
        """Where in the current text the pass manager visits `file`'s op, continuing its walk over
        the siblings of the op dumped last; past the end of the text when it has to start over."""
        current, index = self._now()
        starts = [start for start, _end in index.regions(file.dirs)]
        if not starts:
            return 2 * len(current) + 1
        if file.dirs[:-1] != previous_dirs[:-1] or self._inlining(file):  # the inliner walks no module order
            return starts[0]
        known = self._siblings.which(file, current, index.regions(file.dirs))
        candidates = [starts[known]] if known is not None else starts
        later = [start for start in candidates if start > self.swept_to]
        return later[0] if later else len(current) + starts[0]

    def _changed_sibling(self, file: TreeFile) -> int | None:
        """Which of several siblings sharing `file`'s directory its pass changed, if that shows."""
        text = self.text_of(file)
        if not file.dirs[-1].endswith("_" + NO_SYMBOL) or text == self.current:
            return None
        mine, theirs = self._index(file).regions(file.dirs), self._now()[1].regions(file.dirs)
        if len(mine) < 2 or len(mine) != len(theirs):
            return None
        fits = [i for i, (a, b) in enumerate(zip(mine, theirs)) if self._differs_only_within(text, a, b)]
        return fits[0] if len(fits) == 1 else None

    def _followers_fit(self, first: TreeFile, ready: list[TreeFile]) -> int:
        """With no text before the first dump, how well the others would follow `first`."""
        self.current, self.current_dirs, self.current_index = self.text_of(first), first.dirs, self._index(first)
        try:
            return min(self._fit(other)[0] for other in ready if other is not first)
        finally:
            self.current, self.current_dirs, self.current_index = None, (), None

    def _now(self) -> tuple[str, OpIndex]:
        """The text dumped last and its op index: set from the first choice on (and while
        `_followers_fit` tries a first file)."""
        assert self.current is not None and self.current_index is not None
        return self.current, self.current_index

    def _index(self, file: TreeFile) -> OpIndex:
        index = self._indexes.get(file.path)
        if index is None:
            index = self._indexes[file.path] = OpIndex(self.text_of(file))
        return index

    def _rank(self, file: TreeFile) -> tuple:
        """Valid files of the op just dumped first (a nested pipeline runs all its passes on one op
        before the next op), then by how well the text follows, then module order."""
        fit = self._fit(file)
        return (
            fit[0] > self._INSIDE,
            not self._continues_current(file),
            fit[0],
            self._waits_for_callee(file),
            *fit[1:],
        )

    def _inlining(self, file: TreeFile) -> bool:
        """Whether `file` is one of the inliner's simplifications (an ancestor's next dump is the inliner's)."""
        return any(after.argument == "inline" for after in self.closing.get(file.path, ()))

    def _waits_for_callee(self, file: TreeFile) -> bool:
        """Within the inliner (an ancestor's next dump is the inliner's), a callee is simplified before
        its callers: whether `file`'s op calls the op of another ready sibling."""
        if not self._inlining(file) or self.current_index is None:
            return False
        current, index = self._now()
        mine = index.regions(file.dirs)
        if len(mine) > 1:  # siblings sharing a directory: only the one this dump continues, if known
            known = self._siblings.which(file, current, mine)
            mine = [mine[known]] if known is not None else []
        for other in self._ready:
            if other.dirs == file.dirs or other.dirs[:-1] != file.dirs[:-1]:
                continue
            theirs = index.region(other.dirs)
            symbol = symbol_on_line(current, theirs[0]) if theirs else ""
            if symbol and any(references(current, start, end, symbol) for start, end in mine):
                return True
        return False

    def _continues_current(self, file: TreeFile) -> bool:
        """The op dumped last dumps again (consecutive numbers: siblings sharing a directory don't)."""
        return file.dirs == self.current_dirs and file.own_number == self.current_number + 1

    def _fit(self, file: TreeFile) -> tuple:
        text = self.text_of(file)
        if self.current is None:
            region = self._index(file).region(file.dirs)
            return (self._INSIDE, region[0] if region else len(text), _path_order(file))
        where = self._visit_position(file, self.current_dirs)
        if text == self.current:
            return (self._SAME, where, _path_order(file))
        mine, theirs = self._index(file).regions(file.dirs), self._now()[1].regions(file.dirs)
        if not mine or len(mine) != len(theirs):
            return (self._UNKNOWN, where, _path_order(file))
        # siblings sharing a directory: the pass ran on one of them, whichever it was
        inside = any(self._differs_only_within(text, after, before) for after, before in zip(mine, theirs))
        return (self._INSIDE if inside else self._OUTSIDE, where, _path_order(file))

    def _differs_only_within(self, text: str, mine: tuple[int, int], theirs: tuple[int, int]) -> bool:
        """`text` equals the current text outside one op (at `mine` in it, `theirs` in the current)."""
        current = self._now()[0]
        return same_text(text[: mine[0]], current[: theirs[0]]) and same_text(text[mine[1] :], current[theirs[1] :])


class _SharedSiblings:
    """Sibling ops without a symbol share a directory, each numbering its own dumps from 0: a dump
    numbered n continues the sibling whose last dump was n - 1. Once a dump of that sibling shows
    which op it is (its pass changed that op alone), the op's text identifies it while later passes
    leave it as it is, so its no-op dumps are placed at that op too."""

    def __init__(self):
        self._op_text: dict[tuple[tuple[str, ...], int], str | None] = {}  # (dirs, last number) -> op text

    def which(self, file: TreeFile, text: str, regions: list[tuple[int, int]]) -> int | None:
        """The index among `regions` (in `text`) of the op `file` continues, if known."""
        known = self._op_text.get((file.dirs, file.own_number - 1))
        if known is None or len(regions) < 2:
            return None
        for index, (start, end) in enumerate(regions):
            if end - start == len(known) and text[start:end] == known:
                return index
        return None

    def visited(self, file: TreeFile, changed_op: str | None) -> None:
        """`file` was placed next; `changed_op` is the text of the op its pass changed, if known."""
        known = self._op_text.pop((file.dirs, file.own_number - 1), None)
        self._op_text[(file.dirs, file.own_number)] = changed_op if changed_op is not None else known

"""The files of a `--mlir-print-ir-tree-dir` tree: their op paths and counters.

A file `<seg0>/…/<segk>/<n0>_…_<nk>_<argument>.mlir` is the k-th level op's dump number `nk`;
`n0…n(k-1)` are its ancestors' counters at that moment (the number of the ancestor's latest
file). `order.py` puts the files in write order.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from ir_trace.errors import DumpError
from ir_trace.inputs.dump_files import linked_directory, printable_path
from ir_trace.inputs.mlir.ops import NO_SYMBOL, OpIndex

TREE_SUFFIX = ".mlir"
_EXPECTED = "expected <n0>_..._<nk>_<pass-argument>.mlir, one number per directory level"


@dataclass(frozen=True)
class TreeFile:
    """One dump file of a tree: its path below the tree's root, its op path and its counters."""

    path: str  # "builtin_module_no-symbol-name/func_func_f/0_1_cse.mlir"
    dirs: tuple[str, ...]
    numbers: tuple[int, ...]
    argument: str

    @property
    def own_number(self) -> int:
        return self.numbers[-1]


def walk_tree(
    root: Path, follow_inner_symlinks: bool, max_depth: int | None = None, on_link: Callable[[Path], None] | None = None
) -> Iterator[tuple[str, tuple[str, ...], list[str]]]:
    """(folder, its parts below `root`, its file names) for every directory below `root`, hidden
    ones skipped, in path order, under the one link rule of every input (`linked_directory`): a
    directory link is refused naming it, or followed with `follow_inner_symlinks` when it stays
    inside `root` and leads to no directory it is already in (a loop). `on_link`: given each
    directory link instead, which is then not followed (to tell a layout without judging)."""
    chains: dict[str, frozenset[str]] = {}  # walked folder -> the real directories it is in
    for folder, subdirs, files in os.walk(root, onerror=_walk_error, followlinks=follow_inner_symlinks):
        relative = Path(folder).relative_to(root).parts
        chain = chains.pop(folder, frozenset()) | {os.path.realpath(folder)}
        kept = []
        for name in sorted(d for d in subdirs if not d.startswith(".")):
            path = Path(folder) / name
            if path.is_symlink():
                if on_link is not None:
                    on_link(path)
                    continue
                if str(linked_directory(path, root, follow_inner_symlinks)) in chain:
                    raise DumpError(f"directory is a symlink to a directory it is in: {path} (a loop; remove the link)")
            if max_depth is None or len(relative) < max_depth:
                kept.append(name)
                chains[os.path.join(folder, name)] = chain
        subdirs[:] = kept
        yield folder, relative, files


def scan_tree(root: Path, follow_inner_symlinks: bool = False) -> list[TreeFile]:
    """Every `.mlir` dump below `root` (hidden entries skipped), in path order; DumpError for a
    dump file whose name does not carry one counter per directory level, and for a directory link
    that may not be followed (`walk_tree`)."""
    found = []
    for folder, dirs, files in walk_tree(root, follow_inner_symlinks):
        relative = Path(*dirs)
        for name in sorted(files):
            if name.startswith(".") or not name.endswith(TREE_SUFFIX):
                continue
            path = relative / name
            if printable_path(path) != str(path):  # the path goes into the report's UTF-8 text and the cache keys
                raise DumpError(f"file name is not UTF-8: {printable_path(Path(folder) / name)} (rename it)")
            parsed = parse_tree_name(name, len(dirs))
            if parsed is None or not dirs:
                raise DumpError(f"malformed MLIR tree dump name: {Path(folder) / name} ({_EXPECTED})")
            numbers, argument = parsed
            found.append(TreeFile(path.as_posix(), dirs, numbers, argument))
    return found


def _walk_error(exc: OSError) -> None:
    raise DumpError(f"cannot read directory {exc.filename}: {exc.strerror or exc}")


def parse_tree_name(name: str, depth: int) -> tuple[tuple[int, ...], str] | None:
    """(counters, pass argument) of `0_1_cse.mlir` at `depth` directory levels, else None."""
    parts = name.removesuffix(TREE_SUFFIX).split("_", depth)
    if depth == 0 or len(parts) != depth + 1 or not parts[-1]:
        return None
    if not all(part.isascii() and part.isdigit() for part in parts[:-1]):
        return None
    if counters_per_depth(parts[-1] + "_") > 0:  # more counters than directory levels
        return None
    return tuple(int(part) for part in parts[:-1]), parts[-1]


def counters_per_depth(name: str) -> int:
    """How many leading counters a dump name has (to tell a tree from a directory of trees)."""
    count = 0
    for part in name.removesuffix(TREE_SUFFIX).split("_"):
        if not (part.isascii() and part.isdigit()):
            break
        count += 1
    return count


def lost_dumps(files: list[TreeFile], text_of: Callable[[TreeFile], str]) -> list[tuple[str, int, int]]:
    """(directory, op count, dumps lost) for each directory where sibling ops without a symbol (IREE's
    `util.initializer`) provably overwrote each other's dumps. Between two dumps of their parent an
    adaptor runs its pipeline (a repeating run of pass arguments) once on each of them; when the
    directory holds fewer runs there than the parent's text has such ops, two of them counted alike
    and wrote the same names. Ops whose counters differ leave every dump, and no warning."""
    gaps: dict[tuple[tuple[str, ...], tuple[int, ...]], list[TreeFile]] = {}
    for file in files:
        if len(file.dirs) > 1 and file.dirs[-1].endswith("_" + NO_SYMBOL):
            gaps.setdefault((file.dirs, file.numbers[:-1]), []).append(file)
    ops: dict[tuple[str, ...], int] = {}
    lost: dict[tuple[str, ...], int] = {}
    for (dirs, _counters), gap in gaps.items():
        gap.sort(key=lambda file: file.own_number)
        count = max(len(OpIndex(text_of(file)).regions(dirs)) for file in gap)
        ops[dirs] = max(count, ops.get(dirs, 0))
        run = _period([file.argument for file in gap])
        if len(gap) % run == 0 and count * run > len(gap):
            lost[dirs] = lost.get(dirs, 0) + count * run - len(gap)
    return [("/".join(dirs), ops[dirs], number) for dirs, number in sorted(lost.items())]


def _period(values: list[str]) -> int:
    """The shortest p with values[i] == values[i - p] throughout (the KMP failure function: linear)."""
    failure = [0] * len(values)
    for position in range(1, len(values)):
        length = failure[position - 1]
        while length and values[position] != values[length]:
            length = failure[length - 1]
        failure[position] = length + 1 if values[position] == values[length] else 0
    return len(values) - failure[-1] if values else 1


def shared_directory(dirs: tuple[str, ...]) -> bool:
    """A directory sibling ops without a symbol (IREE's `util.initializer`s) share."""
    return len(dirs) > 1 and dirs[-1].endswith("_" + NO_SYMBOL)


def ops_of_shared_directory(files: list[TreeFile]) -> list[list[TreeFile]]:
    """The files of one shared directory split per op, each op's in write order.

    Each op counts its own dumps, so its next dump is numbered one past its last. Between two dumps
    of the parent an adaptor runs its pipeline on each op in turn: a dump of the pipeline's first
    pass starts a run, which continues an op last seen before this gap; any other dump continues a
    run of this gap, the one whose last pass it follows in the pipeline (`_fit`); a run's first dump
    never continues an op whose last dump in this gap is of that same pass (`_ran_this_gap`). Where two ops'
    dumps took the same names, the files hold the last one's and stay in one op's list. Linear in
    the files times the ops that wait for the same number."""
    gaps: dict[tuple[int, ...], list[TreeFile]] = {}
    for file in files:
        gaps.setdefault(file.numbers[:-1], []).append(file)
    ops: list[list[TreeFile]] = []
    waiting: dict[int, list[list[TreeFile]]] = {}  # the number each op's next dump will have -> those ops
    follows: set[tuple[str, str]] = set()  # pass after pass, where only one op could have run them
    for ancestors in sorted(gaps):
        gap = sorted(gaps[ancestors], key=lambda file: (file.own_number, file.path))
        first_pass = gap[0].argument  # the lowest number in a gap starts a run
        for file in gap:
            fitting = waiting.pop(file.own_number, [])
            starts_run = file.argument == first_pass
            able = [op for op in fitting if not _ran_this_gap(op[-1], file, starts_run, follows)]
            op = max(able, key=lambda op: _fit(op[-1], file, starts_run, follows)) if able else []
            if len(fitting) == 1 and op:
                follows.add((op[-1].argument, file.argument))
            if not op:
                ops.append(op)
            else:
                fitting.remove(op)
            if fitting:
                waiting[file.own_number] = fitting
            op.append(file)
            waiting.setdefault(file.own_number + 1, []).append(op)
    return ops


def _ran_this_gap(last: TreeFile, file: TreeFile, starts_run: bool, follows: set[tuple[str, str]]) -> bool:
    """A run's first dump right after the same pass on an op in this gap is another op's: one new in
    this gap whose counter started where that op's stood (as a reused address gives), unless the
    pipeline is known to run that pass twice."""
    in_gap = last.numbers[:-1] == file.numbers[:-1]
    twice = last.argument == file.argument and (last.argument, file.argument) not in follows
    return starts_run and in_gap and twice


def _fit(last: TreeFile, file: TreeFile, starts_run: bool, follows: set[tuple[str, str]]) -> tuple:
    """How well `file` continues the op whose last dump is `last`: a run continues an op last seen
    before this gap, a dump within a run the run in this gap, by the pipeline's order of passes
    where known; else the op seen last."""
    in_gap = last.numbers[:-1] == file.numbers[:-1]
    return in_gap != starts_run, (last.argument, file.argument) in follows, last.numbers


def in_module_order(
    ops: list[list[TreeFile]], files: list[TreeFile], text_of: Callable[[TreeFile], str]
) -> list[list[TreeFile]]:
    """The ops of a shared directory, those first seen in one gap in module order (as a stream of
    the same run meets them), not in their counters' order: each where the parent's dump opening
    the gap (the module before the pipeline ran) holds a line of its first dump, indented one
    level, that the parent holds only once. Ops whose place the parent does not show stay put.
    Linear in the texts."""
    parents = {(file.dirs, file.numbers): file for file in files}
    places: dict[str, dict[str, int]] = {}  # parent path -> its lines met once, each's line number

    def place(op: list[TreeFile]) -> tuple[tuple[int, ...], int]:
        first = op[0]
        gap = first.numbers[:-1]
        parent = parents.get((first.dirs[:-1], gap))
        if parent is None:
            return gap, 0
        if parent.path not in places:
            places[parent.path] = _lines_met_once(text_of(parent))
        once = places[parent.path]
        found = [once[f"  {line}"] for line in text_of(first).splitlines() if f"  {line}" in once]
        return gap, min(found, default=0)

    return sorted(ops, key=place)


def _lines_met_once(text: str) -> dict[str, int]:
    seen: dict[str, int] = {}
    for number, line in enumerate(text.splitlines()):
        seen[line] = -1 if line in seen else number
    return {line: number for line, number in seen.items() if number >= 0}

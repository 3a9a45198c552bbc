"""Finding a sweep's programs under its root (no Luigi), each named for its report.

A program is whatever `pypto-ir-trace PATH` makes one report of:

- a PyPTO program output directory holding `ptoas_passes/` (with or without `passes_dump/`):
  PATH is that directory, its report holds every trace (PyPTO's, then each ptoas unit's);
- a `passes_dump/` alone: PATH is the passes_dump/ directory;
- an MLIR tree directory (`--mlir-print-ir-tree-dir`), found through its files, whose names carry
  one counter per directory level below the tree (`<n0>_<n1>_<pass>.mlir` two levels down);
- an MLIR stream file (the stderr of `--mlir-print-ir-after-all`): a file named `*.mlir`, `*.txt`,
  `*.log`, `*.err` or `*.stderr` with a dump header line in its first 4 KiB. Only those names are
  opened, so a build tree's object files and libraries cost a directory entry each, nothing more.

Nothing inside a program is searched for further programs (a program directory's trees are its own).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from ir_trace.errors import DumpError, IRTraceError
from ir_trace.inputs.dump_files import printable_path
from ir_trace.inputs.mlir.headers import HEADER_PREFIX
from ir_trace.inputs.mlir.tree import TREE_SUFFIX, counters_per_depth
from ir_trace.inputs.traces import (  # what a found program is
    PASSES_DUMP,
    PASSES_DUMP_INPUT,
    PROGRAM_INPUT,
    PTOAS_PASSES,
    STREAM_INPUT,
    TREE_INPUT,
    tree_layout,
)

DUMP_DIR = PASSES_DUMP
STREAM_SUFFIXES = (".mlir", ".txt", ".log", ".err", ".stderr")
STREAM_PEEK = 4096  # bytes of a candidate file read to find a dump header
_RESERVED = {"index", "sweep"}  # index.html and sweep.json live beside the reports
_UNSAFE = re.compile(r"[^A-Za-z0-9._+-]+")


@dataclass(frozen=True)
class FoundDump:
    """One program under the sweep root: the path its report is made from, and the report's name."""

    name: str
    dump: Path  # the PATH given to the report (a passes_dump/, program dir, tree dir or stream file)
    relative: str  # the program, relative to the root ("." for the root itself)
    input: str = PASSES_DUMP_INPUT

    @property
    def utf8(self) -> bool:
        """False for a path with bytes that are not UTF-8: it cannot be named in sweep.json or a report."""
        return printable_path(self.dump) == str(self.dump)


@dataclass(frozen=True)
class _Candidate:
    path: Path
    input: str


def find_dumps(root: Path) -> list[FoundDump]:
    """Every program under `root`, at any depth, in a stable order with unique report names."""
    root = Path(root).absolute()
    if not root.is_dir():
        raise IRTraceError(f"sweep root is not a directory: {root}")
    found = sorted(_walk_for_programs(root), key=lambda c: c.path.parts)
    relatives = [_relative_program(root, c.path) for c in found]
    names = unique_report_names([(program_name(c.path), relative) for c, relative in zip(found, relatives)])
    return [FoundDump(name, c.path, relative, c.input) for name, c, relative in zip(names, found, relatives)]


def program_name(path: Path) -> str:
    """The program's own name: the parent of passes_dump/, a stream file without its suffix, else the directory."""
    if path.name == DUMP_DIR and path.parent.name:
        return path.parent.name
    return path.stem if path.suffix in STREAM_SUFFIXES else path.name


def _walk_for_programs(root: Path) -> list[_Candidate]:
    """Depth-first, following symlinks, each real directory visited once (so loops end)."""
    found: list[_Candidate] = []
    trees: set[Path] = set()
    seen: set[tuple[int, int]] = set()
    stack = [root]
    while stack:
        folder = stack.pop()
        try:
            info = folder.stat()
        except OSError:
            continue
        if (info.st_dev, info.st_ino) in seen:
            continue
        seen.add((info.st_dev, info.st_ino))
        program = _program_at(folder, root)
        if program is not None:
            found.append(program)
            continue  # a program's own dumps are not programs of their own
        subdirectories, files = _entries(folder)
        levels = len(folder.relative_to(root).parts)
        for name in files:  # names only: a Path per file of a large build tree costs more than the walk
            if _is_tree_file(name):  # never a stream, even when its tree reaches above the root
                tree_root = _tree_root_of(folder, levels, name)
                if tree_root is not None:
                    trees.add(tree_root)
            elif name.endswith(STREAM_SUFFIXES) and _is_stream(os.path.join(folder, name)):
                found.append(_Candidate(folder / name, STREAM_INPUT))
        stack.extend(reversed(subdirectories))
    return found + [_Candidate(tree, TREE_INPUT) for tree in sorted(trees) if _is_tree(tree)]


def _is_tree(folder: Path) -> bool:
    """Whether `folder` is an MLIR tree; one whose op directories are links is one too: its run
    then says which link it refuses (`tree_layout`), rather than the sweep skipping it unsaid."""
    try:
        return tree_layout(folder) == "tree"
    except DumpError:
        return True


def _program_at(folder: Path, root: Path) -> _Candidate | None:
    """The program `folder` is, if it is a program directory or a passes_dump/ of its own."""
    if (folder / PTOAS_PASSES).is_dir():
        return _Candidate(folder, PROGRAM_INPUT)
    if folder.name == DUMP_DIR and (folder == root or not (folder.parent / PTOAS_PASSES).is_dir()):
        return _Candidate(folder, PASSES_DUMP_INPUT)
    return None


def _entries(folder: Path) -> tuple[list[Path], list[str]]:
    """(subdirectories, names of regular files) of `folder` by name, hidden ones left out; symlinks followed."""
    try:
        entries = sorted(os.scandir(folder), key=lambda entry: entry.name)
    except OSError:
        return [], []  # unreadable: nothing we could report on anyway
    directories, files = [], []
    for entry in entries:
        if entry.name.startswith("."):
            continue
        try:
            if entry.is_dir(follow_symlinks=True):
                directories.append(Path(entry.path))
            elif entry.is_file(follow_symlinks=True):
                files.append(entry.name)
        except OSError:
            continue
    return directories, files


def _is_tree_file(name: str) -> bool:
    """Named as a tree's dumps are: `<n0>_…_<nk>_<pass>.mlir`."""
    return name.endswith(TREE_SUFFIX) and name[:1].isdigit() and counters_per_depth(name) > 0


def _tree_root_of(folder: Path, levels: int, name: str) -> Path | None:
    """The tree directory the dump file `name` in `folder` (`levels` below the root) belongs to:
    k levels above `folder` (one counter per level), if that is still inside the root."""
    counters = counters_per_depth(name)
    return folder.parents[counters - 1] if counters <= levels else None


def _is_stream(file: str) -> bool:
    """A stream file: a dump header line at the start of one of its first lines."""
    try:
        with open(file, "rb") as handle:
            head = handle.read(STREAM_PEEK)
    except OSError:
        return False
    prefix = HEADER_PREFIX.encode()
    return head.startswith(prefix) or b"\n" + prefix in head


def _relative_program(root: Path, path: Path) -> str:
    program = path.parent if path.name == DUMP_DIR and path != root else path
    try:
        return program.relative_to(root).as_posix() if program != root else "."
    except ValueError:
        return program.name


def safe_name(text: str) -> str:
    """A file name stem made of [A-Za-z0-9._+-], never hidden, never empty."""
    name = _UNSAFE.sub("_", text).strip("._") or "program"
    return f"{name}_program" if name.casefold() in _RESERVED else name


def unique_report_names(programs: list[tuple[str, str]]) -> list[str]:
    """Report names from (program title, relative program path): the title when it is unique,
    else the relative path joined with "__", else a numeric suffix. Compared case-insensitively
    so two reports never collide on a case-insensitive file system."""
    titles = [safe_name(title) for title, _ in programs]
    clashing = _duplicates(t.casefold() for t in titles)
    names = [
        safe_name(relative.replace("/", "__")) if title.casefold() in clashing else title
        for title, (_, relative) in zip(titles, programs)
    ]
    taken: set[str] = set()
    result = []
    for name in names:
        candidate, number = name, 2
        while candidate.casefold() in taken:
            candidate, number = f"{name}-{number}", number + 1
        taken.add(candidate.casefold())
        result.append(candidate)
    return result


def _duplicates(items: Iterable[str]) -> set[str]:
    seen: set[str] = set()
    repeated: set[str] = set()
    for item in items:
        (repeated if item in seen else seen).add(item)
    return repeated

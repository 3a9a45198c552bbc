"""MLIR dumps as manifests: a `--mlir-print-ir-tree-dir` tree or a `--mlir-print-ir-after-all` stream.

With module scope (every header names the op, every dump is the whole module) a tree or stream
is one trace in write order. Without it each dump holds only the op the pass ran on, so each op
gets its own trace (`unit` = the op, `func.func @axpy`); diffing one function against another
would mean nothing.
"""

from __future__ import annotations

import os
import re
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import BinaryIO

from ir_trace.errors import DumpError
from ir_trace.inputs.discovery import Manifest, Snapshot, TextSink, decode_snapshot, read_snapshot_text
from ir_trace.inputs.dump_files import DirectoryFiles, open_dump_file
from ir_trace.inputs.mlir.headers import HEADER_PREFIX, PassHeader, parse_header
from ir_trace.inputs.mlir.order import order_tree, order_tree_remarked
from ir_trace.inputs.mlir.stream import ir_length, read_dumps
from ir_trace.inputs.mlir.stream_ops import StreamDump, ops_of_stream
from ir_trace.inputs.mlir.tree import (
    TreeFile,
    in_module_order,
    lost_dumps,
    ops_of_shared_directory,
    scan_tree,
    shared_directory,
)
from ir_trace.inputs.titles import mlir_title
from ir_trace.syntax.mlir_opline import read_op_line

_HEADER_HINT = f"line 1 is not a '{HEADER_PREFIX}After …' header"


@dataclass(frozen=True)
class _Loaded:
    """One dump read from disk: where it is, its header and its IR's hash (the text is not kept)."""

    file: str
    header: PassHeader
    span: tuple[int, int]
    sha256: str
    header_index: int | None = None
    diagnostics: str = ""
    unit: str = ""  # the op a stream's dump holds (`_unit_of`)


def read_tree(
    root: Path, on_text: TextSink | None = None, follow_inner_symlinks: bool = False
) -> list[tuple[str, Manifest]]:
    """(unit, manifest) of a tree dir: one with unit "" under module scope, else one per op (files read
    as `read_dump_file` reads them: no link leading out of the tree)."""
    files = scan_tree(root, follow_inner_symlinks)
    if not files:
        raise DumpError(f"no MLIR dumps (*.mlir) below {root}")
    texts = _TreeTexts(root, follow_inner_symlinks)
    with DirectoryFiles(root, follow_inner_symlinks) as below:  # each directory opened once, not per file
        loaded = {file.path: _load_tree_file(root, file, on_text, texts, below) for file in files}
    texts.loaded = loaded
    if _module_scope(loaded.values()):
        replayed = order_tree_remarked(
            files,
            texts.text_of,
            lambda file: loaded[file.path].header.kind == "before",
            lambda file: os.stat(os.path.join(root, file.path)).st_mtime_ns,  # no Path per file
        )
        lost = replayed.lost if replayed.lost is not None else lost_dumps(files, texts.text_of)
        warnings = tuple(_overwrite_warning(root, *directory) for directory in lost)
        warnings += tuple(f"{root}: {remark}" for remark in replayed.remarks)
        chain = [loaded[f.path] for f in replayed.order]
        return [("", _manifest(root, mlir_title(root, texts.text_of(replayed.order[0])), chain, warnings))]
    by_dir: dict[tuple[str, ...], list[TreeFile]] = {}
    for file in order_tree(files):
        by_dir.setdefault(file.dirs, []).append(file)
    ops: dict[tuple[tuple[str, ...], int], list[TreeFile]] = {}  # (directory, op in it) -> its dumps
    for dirs, dumps in by_dir.items():
        split = in_module_order(ops_of_shared_directory(dumps), files, texts.text_of) if shared_directory(dirs) else []
        for number, op in enumerate(split or [dumps]):
            ops[dirs, number] = op
    units = {key: _unit_of(texts.text_of(op[0]), "/".join(key[0])) for key, op in ops.items()}
    return [
        (name, _manifest(root, mlir_title(root, ""), [loaded[f.path] for f in ops[key]]))
        for key, name in _distinct(units).items()
    ]


class _TreeTexts:
    """A tree's texts for its ordering, the most recently used kept up to TREE_TEXT_CHARS (identical
    ones once), the others read again when asked for (and checked against their hash): the ordering
    reads them mostly in write order, so a tree of any size costs bounded memory."""

    def __init__(self, root: Path, follow_inner_symlinks: bool):
        self.root, self.follow = root, follow_inner_symlinks
        self.loaded: dict[str, _Loaded] = {}
        self._kept: OrderedDict[str, str] = OrderedDict()  # sha256 -> text
        self.headers: dict[bytes, PassHeader | None] = {}
        self._chars = 0

    def header_of(self, line: bytes) -> PassHeader | None:
        """`parse_header` of a header line, once per distinct line (a tree repeats a few passes' headers)."""
        if line in self.headers:
            return self.headers[line]
        header = parse_header(line.decode("utf-8", "replace"))
        if len(self.headers) < _HEADERS_KEPT:
            self.headers[line] = header
        return header

    def keep(self, sha256: str, text: str) -> None:
        if sha256 not in self._kept:
            self._kept[sha256] = text
            self._chars += len(text)
        self._kept.move_to_end(sha256)
        while self._chars > TREE_TEXT_CHARS and len(self._kept) > 1:
            self._chars -= len(self._kept.popitem(last=False)[1])

    def text_of(self, file: TreeFile) -> str:
        dump = self.loaded[file.path]
        text = self._kept.get(dump.sha256)
        if text is None:
            path = self.root / file.path
            text, sha = read_snapshot_text(path, dump.span, self.root, self.follow)
            if sha != dump.sha256:
                raise DumpError(f"snapshot changed while it was being read: {path}; run again")
        self.keep(dump.sha256, text)
        return text


_HEADERS_KEPT = 4096  # distinct header lines remembered while a tree is read
TREE_TEXT_CHARS = 1 << 25  # a tree this large in text is held whole, as before; a larger one is reread in part


def read_stream(path: Path, on_text: TextSink | None = None) -> list[tuple[str, Manifest]]:
    """(unit, manifest) of a stream file, like `read_tree` (a stream is already in write order).

    Read dump by dump: each text goes to `on_text` and is then let go, so a stream of any size
    costs about one dump's memory (plus its manifest). The file named is read where it leads (the
    user named it), as a regular file only."""
    real = Path(os.path.realpath(path))
    loaded: list[_Loaded] = []
    title, last_text = "", ""  # the title from the first dump's text: no text but the newest is held
    units: dict[str, str] = {}  # by text hash: a stream repeats its texts (every no-op pass)
    with open_dump_file(real, real.parent, what="stream") as stream:
        for dump, ir in read_dumps(_reader(stream, path)):
            last_text = ""  # let the previous text go before this one is decoded: one huge dump, one copy
            last_text, sha = decode_snapshot(ir, path, dump.span[0])
            if on_text is not None:
                on_text(sha, last_text)
            title = title if loaded else mlir_title(path, last_text)
            unit = units.get(sha) or units.setdefault(sha, _unit_of(last_text, "?"))
            header, index = dump.header, dump.header_index
            loaded.append(_Loaded(path.name, header, dump.span, sha, index, dump.diagnostics, unit))
    if not loaded:
        raise DumpError(
            f"not a directory: {path} (expected a passes_dump/ directory, an MLIR tree directory, or an MLIR "
            f"stream file; this file has no '{HEADER_PREFIX}After …' header lines, as --mlir-print-ir-after-all "
            "prints on stderr)"
        )
    folder = path.absolute().parent
    warnings = _cut_off_warning(path, loaded[-1], last_text)
    if _module_scope(loaded):
        return [("", _manifest(folder, title, loaded, warnings))]
    # Ops without a symbol (IREE's util.initializers) are told apart by their texts: reread here, for
    # a stream without module scope only (a module-scope stream, the large kind, stays one dump at a time).
    texts = _StreamTexts(real)
    numbers, unsure = ops_of_stream(
        [StreamDump(each.unit, _pass_key(each.header), texts.text_of(each)) for each in loaded]
    )
    groups: dict[tuple[str, int], list[_Loaded]] = {}
    for key, each in zip(zip((each.unit for each in loaded), numbers), loaded):
        groups.setdefault(key, []).append(each)
    last = (loaded[-1].unit, numbers[-1])
    if unsure:
        warnings += (_unsure_warning(path, unsure),)
    title = mlir_title(path, "")  # each unit is one op: the title names the pipeline, not it
    names = _numbered(list(groups))
    return [
        (names[key], _manifest(folder, title, group, warnings if key == last else ())) for key, group in groups.items()
    ]


def _pass_key(header: PassHeader) -> str:
    return f"{header.kind} {header.pass_name} {header.argument} {header.options}"


def _numbered(keys: list[tuple[str, int]]) -> dict[tuple[str, int], str]:
    """Unit names, with the op's number where several ops print the same (`util.initializer #2`),
    as the tree names the ops sharing a directory."""
    ops: dict[str, int] = {}
    for unit, _number in keys:
        ops[unit] = ops.get(unit, 0) + 1
    return {(unit, number): f"{unit} #{number + 1}" if ops[unit] > 1 else unit for unit, number in keys}


def _unsure_warning(path: Path, unsure: int) -> str:
    return (
        f"{path}: {unsure} runs of a nested pipeline on ops without a symbol (IREE's util.initializers) fit "
        "two of those ops equally well; each was given to the first in module order, which may be the other"
    )


class _StreamTexts:
    """The texts of a stream's dumps, reread by their spans (each distinct text once) and checked
    against the hashes the first read gave."""

    def __init__(self, path: Path):
        self.path = path
        self._by_sha: dict[str, str] = {}

    def text_of(self, dump: _Loaded) -> str:
        text = self._by_sha.get(dump.sha256)
        if text is None:
            text, sha = read_snapshot_text(self.path, dump.span)
            if sha != dump.sha256:
                raise DumpError(f"snapshot changed while it was being read: {self.path}; run again")
            self._by_sha[sha] = text
        return text


def _reader(stream: BinaryIO, path: Path) -> Callable[[int], bytes]:
    """`stream.read`, a failure to read said as a DumpError naming `path`."""

    def read(size: int) -> bytes:
        try:
            return stream.read(size)
        except OSError as exc:
            raise DumpError(f"cannot read {path}: {exc.strerror or exc}") from None

    return read


# Printed IR never spans a string over lines. Unrolled (runs of plain characters, then an escape): a
# repeated alternation kept regex state per character, 140 bytes a character of a 100 MB `dense<"0x…">`.
_STRING_LITERAL = re.compile(r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"')


def _cut_off_warning(path: Path, last: _Loaded, text: str) -> tuple[str, ...]:
    """A warning when the stream's last dump (`text`) ends with a region still open: the compiler stopped
    mid-print (it crashed or was killed), so the diff into it would read as a pass deleting code."""
    if _open_regions(text) <= 0:
        return ()
    return (
        f"the last dump in {path} ({last.header.display_name}) is truncated: the stream ends inside an "
        "unclosed region (the compiler stopped mid-print), so its diff shows code missing that was never printed",
    )


def _open_regions(text: str) -> int:
    """How many `{` are still open at the end of `text`, braces inside string literals aside (linear)."""
    code = _STRING_LITERAL.sub("", text)
    return code.count("{") - code.count("}")


def _load_tree_file(
    root: Path, file: TreeFile, on_text: TextSink | None, texts: _TreeTexts, below: DirectoryFiles
) -> _Loaded:
    path = os.path.join(root, file.path)  # a string: a Path per file costs more than reading it
    data = below.read(path)
    first_line_end = data.find(b"\n")
    header_line = data[: first_line_end if first_line_end >= 0 else len(data)]
    header = texts.header_of(header_line)
    if header is None:
        raise DumpError(f"not an MLIR pass dump: {path} ({_HEADER_HINT})")
    start = min(len(header_line) + 1, len(data))
    span = (start, ir_length(data, start, len(data)))
    text, sha = decode_snapshot(data[span[0] : span[0] + span[1]], path, span[0])
    if on_text is not None:
        on_text(sha, text)
    texts.keep(sha, text)
    return _Loaded(file.path, header, span, sha)


def _module_scope(loaded) -> bool:
    """Every header names its op: `--mlir-print-ir-module-scope` was on, each dump is the whole module."""
    return all(dump.header.op for dump in loaded)


def _manifest(folder: Path, title: str, dumps: list[_Loaded], warnings: tuple[str, ...] = ()) -> Manifest:
    if len(dumps) == 1 and dumps[0].header.failed:
        # --mlir-print-ir-after-failure alone: the IR the failed pass left is both the base and that
        # pass, so the failure is listed (with its diagnostics), and shows no change it did not make
        dumps = [replace(dumps[0], diagnostics=""), dumps[0]]
    snapshots = tuple(
        Snapshot(
            index,
            d.header.display_name,
            d.file,
            d.sha256,
            log_file=f"{d.file} (diagnostics)" if d.diagnostics else None,
            log=d.diagnostics or None,
            header=d.header,
            span=d.span,
            header_index=d.header_index,
        )
        for index, d in enumerate(dumps)
    )
    return Manifest(str(folder.absolute()), title, snapshots, kind="mlir", warnings=warnings)


def _overwrite_warning(root: Path, directory: str, count: int, lost: int) -> str:
    return (
        f"{count} sibling ops without a symbol share {root / directory}: MLIR gave {lost} of their dumps "
        "names another one's dump took, so those files hold only the last op's dump and the others' are lost"
    )


def _unit_of(text: str, fallback: str) -> str:
    """`func.func @axpy`: the op a dump without module scope holds (its first line past any aliases)."""
    for line in _lines(text):
        if not line.strip() or line.startswith(("#", "!")):
            continue
        parts = read_op_line(line)
        if parts is None:
            break
        return f"{parts.qualified_op} @{parts.raw_symbol}" if parts.symbol else parts.qualified_op
    return fallback


def _lines(text: str) -> Iterator[str]:
    """The lines of `text` one by one, as `splitlines` gives them for printed IR (split at "\\n", a
    "\\r" before it dropped), without splitting a whole snapshot to read its first few."""
    start = 0
    while start < len(text):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        yield text[start:end].removesuffix("\r")
        start = end + 1


def _distinct(units: dict[tuple[tuple[str, ...], int], str]) -> dict[tuple[tuple[str, ...], int], str]:
    """Unit names, the directory path added where ops in two directories print the same (two
    `util.initializer`s), and the op's number where several share a directory (`util.initializer #2`)."""
    seen: dict[str, set[tuple[str, ...]]] = {}
    shared: dict[tuple[str, ...], int] = {}
    for (dirs, _number), name in units.items():
        seen.setdefault(name, set()).add(dirs)
        shared[dirs] = shared.get(dirs, 0) + 1
    named = {}
    for (dirs, number), name in units.items():
        where = f" ({'/'.join(dirs)})" if len(seen[name]) > 1 else ""
        which = f" #{number + 1}" if shared[dirs] > 1 else ""
        named[dirs, number] = name + where + which
    return named

"""Find and validate the snapshots of a passes_dump/ directory.

Produces a `Manifest`: one `Snapshot` per file in execution order, with its sha256 and the
text of its optional warning log. Every way a dump can be broken raises `DumpError` with a
message naming the exact file(s) and index. MLIR dumps (`ir_trace.inputs.mlir`) produce the same
`Manifest`, with each snapshot's header and the span of its IR inside its file.
"""

from __future__ import annotations

import errno
import logging
import os
import re
import stat
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from ir_trace.errors import DumpError
from ir_trace.inputs.file_hashes import FileHashes, snapshot_digest
from ir_trace.inputs.mlir.headers import PassHeader

log = logging.getLogger("ir_trace")

FRONTEND = "00_frontend.py"
_SNAPSHOT_NAME = re.compile(r"^(?P<index>[0-9]+)_(?:(?P<frontend>frontend)|after_(?P<name>.+))\.(?P<ext>py|log)$")
_EXPECTED = "expected 00_frontend.py, 01_after_<Pass>.py, ... with optional NN_after_<Pass>.log"
# Suffixes an editor, a merge or a hand-made backup appends to a file name (compared in lower case).
_BACKUP_SUFFIXES = ("~", ".bak", ".orig", ".old", ".backup", ".save", ".swp", ".tmp")
_NEAR_MISSES_SHOWN = 3  # names listed in the one warning line about stray copies
_MLIR_FORMS = "or MLIR pass dumps: ptoas_passes/, an --mlir-print-ir-tree-dir tree, an --mlir-print-ir-after-all file"
_PRODUCE = (
    "produce one with compile(..., config=RunConfig(dump_passes=PassDumpLevel.CONCISE)) "
    "(lower() writes no dump; dump_passes=False disables it)"
)


@dataclass(frozen=True, slots=True)
class Snapshot:
    """One IR snapshot: the text printed after pass `name` (index 0 is the frontend, or the first MLIR dump).

    MLIR snapshots carry their dump header, and `span` (byte offset, length) locates the IR inside
    `file` (a tree file past its header line, or one dump of a stream); None means the whole file.
    `header_index` is a stream dump's position among the stream's headers.
    """

    index: int
    name: str
    file: str
    sha256: str
    log_file: str | None = None
    log: str | None = None
    header: PassHeader | None = None
    span: tuple[int, int] | None = None
    header_index: int | None = None

    def to_json(self) -> dict:
        data = {name: getattr(self, name) for name in self.__dataclass_fields__}  # asdict deep-copies
        data["header"] = self.header.to_json() if self.header is not None else None
        data["span"] = list(self.span) if self.span is not None else None
        return data

    @classmethod
    def from_json(cls, data: dict, shared: dict | None = None) -> Snapshot:
        """`shared`: one dict for a manifest's snapshots, so that equal names, paths, hashes and headers
        are one object each (a stream of 100,000 dumps names its one file and a few headers throughout)."""
        fields = dict(data)
        if shared is not None:
            for name in _SHARED_FIELDS:
                value = fields.get(name)
                if value is not None:
                    fields[name] = shared.setdefault(value, value)
        if fields.get("header") is not None:
            fields["header"] = _header_from_json(fields["header"], shared)
        if fields.get("span") is not None:
            fields["span"] = tuple(fields["span"])
        return cls(**fields)

    @property
    def shown_file(self) -> str | int:
        """What --json and the report call the snapshot: its path, or a stream dump's header index."""
        return self.header_index if self.header_index is not None else self.file


_SHARED_FIELDS = ("name", "file", "sha256", "log_file")


def _header_from_json(data: dict, shared: dict | None) -> PassHeader:
    if shared is None:
        return PassHeader.from_json(data)
    key = ("header", *data.items())  # a tuple of pairs: no string equals it
    header = shared.get(key)
    if header is None:
        header = shared[key] = PassHeader.from_json(data)
    return header


@dataclass(frozen=True)
class Manifest:
    """A validated dump: its directory and its snapshots in execution order.

    `kind` is "pypto" or "mlir"; `warnings` are one-line remarks on the dump as a whole (an MLIR
    tree whose sibling ops overwrote each other's dumps).
    """

    dump: str
    title: str
    snapshots: tuple[Snapshot, ...]
    kind: str = "pypto"
    warnings: tuple[str, ...] = ()

    def path_of(self, snapshot: Snapshot) -> Path:
        return Path(self.dump) / snapshot.file

    def to_json(self) -> dict:
        return {
            "dump": self.dump,
            "title": self.title,
            "snapshots": [s.to_json() for s in self.snapshots],
            "kind": self.kind,
            "warnings": list(self.warnings),
        }

    @classmethod
    def from_json(cls, data: dict) -> Manifest:
        shared: dict = {}
        snapshots = tuple(Snapshot.from_json(s, shared) for s in data["snapshots"])
        return cls(data["dump"], data["title"], snapshots, data.get("kind", "pypto"), tuple(data.get("warnings", ())))


def program_title(dump: Path) -> str:
    """The program's directory name: the parent of passes_dump/, else the dump directory itself."""
    return dump.parent.name if dump.name == "passes_dump" and dump.parent.name else dump.name


def read_snapshot_text(
    path: Path, span: tuple[int, int] | None = None, dump_root: Path | None = None, follow_inner_symlinks: bool = False
) -> tuple[str, str]:
    """A snapshot's text and the sha256 of its bytes (only the `span` (offset, length) of the file
    when given); DumpError when unreadable or not UTF-8.

    `dump_root` (default: the snapshot's directory) and `follow_inner_symlinks` as in `read_dump_file`.
    """
    root = Path(path).parent if dump_root is None else dump_root
    data = read_dump_file(path, root, follow_inner_symlinks, span=span)
    return decode_snapshot(data, path, span[0] if span else 0)


def decode_snapshot(data: bytes, path: Path | str, offset: int = 0) -> tuple[str, str]:
    """`data` (read from `path` at `offset`) as text, with its sha256."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DumpError(f"snapshot is not UTF-8: {path} (invalid byte at offset {offset + exc.start})") from None
    return text, snapshot_digest(data)


def discover_snapshots(
    dump: str | os.PathLike,
    on_text: Callable[[str, str], None] | None = None,
    follow_inner_symlinks: bool = False,
    hashes: FileHashes | None = None,
) -> Manifest:
    """Validate `dump` and describe its snapshots in numeric order.

    `on_text(sha256, text)` sees each snapshot's text as it is read, for callers that keep it.
    A snapshot or log that is a symlink is refused unless `follow_inner_symlinks`, and even then
    when it leads out of the dump (see `read_dump_file`). With `hashes`, a snapshot whose stamp
    is the one recorded there is not read again (nor seen by `on_text`), and each one read is noted.
    """
    folder = Path(dump).absolute()
    _check_directory(folder)
    snapshots, logs, near_misses = _classify_entries(folder)
    _judge_near_misses(folder, near_misses, snapshots, logs)
    if not snapshots:
        raise DumpError(_no_snapshots_message(folder))
    ordered = _check_indices(folder, snapshots)
    for index in logs:
        if index not in snapshots:
            raise DumpError(f"warning log without a snapshot: {folder / logs[index]} (no {index:02d}_after_*.py)")
    result = []
    for index, (file, name) in ordered:
        sha = _snapshot_sha(folder, file, on_text, follow_inner_symlinks, hashes)
        log_file = logs.get(index) if logs.get(index, "").removesuffix(".log") == file.removesuffix(".py") else None
        if index in logs and log_file is None:
            raise DumpError(f"warning log does not match its snapshot: {folder / logs[index]} (snapshot is {file})")
        log = _read_log(folder / log_file, folder, follow_inner_symlinks) if log_file else None
        if log is not None and not log.strip():
            log_file = log = None  # a blank .log reports no warning: no badge, no panel, not counted
        result.append(Snapshot(index, name, file, sha, log_file, log))
    return Manifest(str(folder), program_title(folder), tuple(result))


def _snapshot_sha(
    folder: Path, file: str, on_text: Callable[[str, str], None] | None, follow: bool, hashes: FileHashes | None
) -> str:
    """A snapshot file's sha256: recalled from `hashes` when its stamp is unchanged, else read (and noted)."""
    path = os.path.join(folder, file)
    stamp = hashes.stamp(path) if hashes is not None else None
    sha = hashes.recall(path, stamp) if hashes is not None else None
    if sha is None:
        text, sha = read_snapshot_text(Path(path), None, folder, follow)
        if on_text is not None:
            on_text(sha, text)
        if hashes is not None:
            hashes.note(path, stamp, sha)
    return sha


_READ_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_LINK_FLAG = "--follow-inner-symlinks"


def read_dump_file(
    path: str | os.PathLike,
    dump_root: str | os.PathLike,
    follow_inner_symlinks: bool = False,
    what: str = "snapshot",
    span: tuple[int, int] | None = None,
) -> bytes:
    """The bytes of the regular file `path` below `dump_root`, or DumpError naming it.

    The one way any dump reader opens an input file, because a report is shared: a symlink (the
    file or a directory on its way) is refused unless `follow_inner_symlinks`, and then still
    when it resolves outside the dump (`ln -s /etc/shadow 05_after_X.py`); a FIFO, device or
    socket is refused too (reading it would block, never end, or fail). `span` (offset, length)
    reads that part of the file only (a stream of several dumps). Every component is opened
    without following links and the file is checked through its open descriptor, so a file
    swapped for a link after a check is never read. `what` names the file in messages.
    """
    fd = _open_dump_fd(path, dump_root, follow_inner_symlinks, what)
    return _read_regular(fd, Path(os.path.abspath(path)), what, span)


class DirectoryFiles:
    """Reads many files below one dump root under `read_dump_file`'s rules, each directory opened once.

    A directory is opened component by component from the root without following links (as
    `read_dump_file` opens it) and kept open; a file in it then costs one open that follows no link
    (O_NONBLOCK: a FIFO never blocks), an fstat and its reads. Anything but a regular file so reached
    (a link on the way, a FIFO or device, a file gone) is left to `read_dump_file`, which judges it and
    says why in its own words. Use it as a context manager: it closes what it opened."""

    _KEPT = 64  # directories held open at once (the least recently used is closed)

    def __init__(self, root: str | os.PathLike, follow_inner_symlinks: bool = False, what: str = "snapshot"):
        self.root = os.path.abspath(root)
        self.follow, self.what = follow_inner_symlinks, what
        self._directories: OrderedDict[str, int | None] = OrderedDict()  # path -> its fd, None: not plainly reached

    def __enter__(self) -> DirectoryFiles:
        return self

    def __exit__(self, *_exc) -> None:
        self.close()

    def close(self) -> None:
        while self._directories:
            _close(self._directories.popitem()[1])

    def read(self, path: str | os.PathLike) -> bytes:
        """The bytes of the regular file `path` below the root (DumpError as `read_dump_file` raises it)."""
        full = os.path.abspath(path)
        directory, name = os.path.split(full)
        directory_fd = self._directory(directory)
        fd = _open_plain_file(name, directory_fd) if directory_fd is not None else None
        if fd is not None:
            return _read_regular(fd, full, self.what)  # the path as a string: only messages name it
        return read_dump_file(full, self.root, self.follow, self.what)

    def _directory(self, directory: str) -> int | None:
        if directory in self._directories:
            self._directories.move_to_end(directory)
            return self._directories[directory]
        fd = _open_plain_directory(self.root, directory)
        self._directories[directory] = fd
        if len(self._directories) > self._KEPT:
            _close(self._directories.popitem(last=False)[1])
        return fd


def _open_plain_directory(root: str, directory: str) -> int | None:
    """An fd on `directory` (at or below `root`) reached from the root without following a link, else None."""
    relative = os.path.relpath(directory, root)
    parts = [] if relative == os.curdir else relative.split(os.sep)
    if parts and parts[0] == os.pardir:
        return None
    flags = os.O_RDONLY | _DIRECTORY | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(root, flags)  # the root itself as `_open_root` opens it
    except OSError:
        return None
    for part in parts:
        try:
            opened = os.open(part, flags | _NOFOLLOW, dir_fd=fd)
        except OSError:
            opened = None
        os.close(fd)
        if opened is None:
            return None
        fd = opened
    return fd


def _open_plain_file(name: str, directory_fd: int) -> int | None:
    """An fd on the regular file `name` in the directory, not through a link; None for anything else."""
    try:
        fd = os.open(name, _READ_FLAGS | _NOFOLLOW, dir_fd=directory_fd)
    except OSError:
        return None
    try:
        regular = stat.S_ISREG(os.fstat(fd).st_mode)
    except OSError:
        regular = False
    if not regular:
        os.close(fd)
        return None
    return fd


def _close(fd: int | None) -> None:
    if fd is not None:
        os.close(fd)


def open_dump_file(path: str | os.PathLike, dump_root: str | os.PathLike, what: str = "snapshot") -> BinaryIO:
    """The regular file `path` below `dump_root` opened for reading as it goes (a stream too large to
    hold at once), under `read_dump_file`'s rules (no link followed); DumpError naming it."""
    shown = Path(os.path.abspath(path))
    fd = _open_dump_fd(path, dump_root, False, what)
    try:
        _check_regular(os.fstat(fd).st_mode, shown, what)
    except OSError as exc:
        os.close(fd)
        raise DumpError(f"cannot read {shown}: {exc.strerror or exc}") from None
    except DumpError:
        os.close(fd)
        raise
    return os.fdopen(fd, "rb", buffering=0)


def _open_dump_fd(path: str | os.PathLike, dump_root: str | os.PathLike, follow_inner_symlinks: bool, what: str) -> int:
    path, root = Path(os.path.abspath(path)), Path(os.path.abspath(dump_root))
    if path.parent == root:  # a file of the dump itself (every PyPTO snapshot): one open of its whole path
        fd = _open_below(None, [str(path)], path, what)
    else:
        fd = _open_within(root, _parts_below(path, root, path, what), path, what)
    if fd is None:  # a link on the way: judged, then opened by its resolved, link-free path
        resolved = _resolve_link(path, root, follow_inner_symlinks, what)
        fd = _open_within(root, _parts_below(resolved, Path(os.path.realpath(root)), path, what), path, what)
        if fd is None:
            raise DumpError(f"{what} changed while it was being read: {path}; run again")
    return fd


def _open_within(root: Path, parts: list[str], shown: Path, what: str) -> int | None:
    root_fd = _open_root(root)
    try:
        return _open_below(root_fd, parts, shown, what)
    finally:
        os.close(root_fd)


def _open_root(root: Path) -> int:
    try:
        return os.open(root, os.O_RDONLY | _DIRECTORY | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise DumpError(f"cannot read directory {root}: {exc.strerror or exc}") from None


def _parts_below(path: Path, root: Path, shown: Path, what: str) -> list[str]:
    relative = os.path.relpath(path, root)
    if relative == os.curdir or relative.split(os.sep)[0] == os.pardir:
        raise DumpError(f"{what} is outside the dump directory {root}: {shown}")
    return relative.split(os.sep)


def _open_below(root_fd: int | None, parts: list[str], shown: Path, what: str) -> int | None:
    """An fd on `parts` below `root_fd` opened without following any link; None when one is a link.
    (`root_fd` None: `parts` is one absolute path, whose last component alone must not be a link.)"""
    fd = root_fd
    try:
        for k, part in enumerate(parts):
            last = k == len(parts) - 1
            flags = (_READ_FLAGS if last else os.O_RDONLY | _DIRECTORY | getattr(os, "O_CLOEXEC", 0)) | _NOFOLLOW
            try:
                opened = os.open(part, flags, dir_fd=fd)
            except OSError as exc:
                if exc.errno in (errno.ELOOP, errno.EMLINK):  # what O_NOFOLLOW says of a link (EMLINK on BSD)
                    return None
                if exc.errno == errno.ENOTDIR and not last and _is_link(part, fd):  # a directory link, O_DIRECTORY
                    return None
                raise DumpError(f"cannot read {shown}: {exc.strerror or exc}") from None
            if fd is not None and fd != root_fd:
                os.close(fd)
            fd = opened
        return fd
    except BaseException:
        if fd is not None and fd != root_fd:
            os.close(fd)
        raise


def linked_directory(path: Path, root: Path, follow_inner_symlinks: bool) -> Path:
    """Where the directory link `path` below `root` leads, when it may be walked: the rule of
    `read_dump_file` for every input kind (a tree's op directory, a ptoas unit, a program's
    passes_dump/); DumpError naming the link otherwise, before anything behind it is read."""
    return _resolve_link(path, root, follow_inner_symlinks, "directory", "a directory")


def _is_link(name: str, dir_fd: int | None) -> bool:
    try:
        return stat.S_ISLNK(os.stat(name, dir_fd=dir_fd, follow_symlinks=False).st_mode)
    except OSError:
        return False


def _resolve_link(path: Path, root: Path, follow: bool, what: str, kind: str = "a file") -> Path:
    """Where a linked `path` leads, when it may be read; DumpError naming it otherwise."""
    try:
        os.stat(path)
    except OSError as exc:  # dangling, a loop, a chain of 40+ links: the real reason
        raise DumpError(f"{what} is a symlink that cannot be followed: {path} ({exc.strerror or exc})") from None
    resolved = Path(os.path.realpath(path))
    real_root = Path(os.path.realpath(root))
    if resolved != real_root and real_root not in resolved.parents:
        raise DumpError(
            f"{what} is a symlink to {kind} outside the dump: {path} -> {_shown_path(resolved)} "
            "(refused: a report must not carry files from elsewhere; copy it into the dump)"
        )
    if not follow:
        raise DumpError(
            f"{what} is a symlink: {path} -> {_shown_path(resolved)} "
            f"(pass {_LINK_FLAG} to read links that stay inside the dump)"
        )
    return resolved


def _read_regular(fd: int, path: Path | str, what: str, span: tuple[int, int] | None = None) -> bytes:
    """The bytes behind `fd`, a regular file: a FIFO would block forever and a device never end."""
    try:
        info = os.fstat(fd)
        _check_regular(info.st_mode, path, what)
        if span is not None:
            return _read_span(fd, span, path)
        chunks = [os.read(fd, info.st_size + 1)]  # one read for a file that stays as it was
        while chunks[-1]:
            chunks.append(os.read(fd, 1 << 20))
        return chunks[0] if len(chunks) == 2 else b"".join(chunks)  # the one read as it is: joining copies it
    except OSError as exc:
        raise DumpError(f"cannot read {path}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


def _check_regular(mode: int, path: Path | str, what: str) -> None:
    if not stat.S_ISREG(mode):
        if stat.S_ISDIR(mode):
            raise DumpError(f"{what} is a directory, not a file: {path}")
        raise DumpError(f"{what} is not a regular file: {path} (a pipe, socket or device cannot be read as one)")


def _read_span(fd: int, span: tuple[int, int], path: Path | str) -> bytes:
    """`span` (offset, length) of the file behind `fd`; DumpError when the file no longer holds it."""
    offset, length = span
    chunks, got = [], 0
    while got < length:
        chunk = os.pread(fd, length - got, offset + got)
        if not chunk:
            raise DumpError(f"snapshot changed while the report was being built: {path}; run again")
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def _read_log(path: Path, folder: Path, follow_inner_symlinks: bool) -> str:
    return read_dump_file(path, folder, follow_inner_symlinks, what="warning log").decode("utf-8", errors="replace")


def _check_directory(folder: Path) -> None:
    try:
        os.stat(folder)
    except FileNotFoundError:
        raise DumpError(f"input directory does not exist: {folder}") from None
    except OSError as exc:  # ELOOP (a chain of 40+ links or a loop), EACCES on a parent, ...: the real reason
        raise DumpError(f"cannot use the input directory {folder}: {exc.strerror or exc}") from None
    if not folder.is_dir():
        raise DumpError(f"not a directory: {folder} (expected a passes_dump/ directory)")


def _classify_entries(folder: Path) -> tuple[dict[int, tuple[str, str]], dict[int, str], list[tuple[str, str]]]:
    """Map index -> (file, pass name) for snapshots and index -> file for logs; list (file, the name
    it nearly is) for near-miss names. Hidden files and other extensions are not part of a dump."""
    try:
        names = sorted(os.listdir(folder))
    except OSError as exc:
        raise DumpError(f"cannot read directory {folder}: {exc.strerror or exc}") from None
    snapshots: dict[int, tuple[str, str]] = {}
    logs: dict[int, str] = {}
    near_misses: list[tuple[str, str]] = []
    for file in names:
        if file.startswith("."):
            continue
        if not _is_utf8(file):
            if file.endswith((".py", ".log")):
                raise DumpError(f"file name is not UTF-8: {printable_path(folder / file)} (rename it)")
            continue
        match = _proper_match(file)
        if match is None:
            nearly = near_miss_of(file)
            if nearly is not None:
                near_misses.append((file, nearly))
            elif file.endswith((".py", ".log")):
                raise DumpError(f"malformed snapshot name: {_shown_path(folder / file)} ({_EXPECTED})")
            continue
        index = int(match["index"])
        is_snapshot = match["ext"] == "py"
        if index in (snapshots if is_snapshot else logs):
            first = snapshots[index][0] if is_snapshot else logs[index]
            raise DumpError(f"duplicate snapshot index {index:02d} in {folder}: {first}, {file}")
        if is_snapshot:
            snapshots[index] = (file, match["name"] or "frontend")
        else:
            logs[index] = file
    return snapshots, logs, near_misses


def _proper_match(name: str) -> re.Match | None:
    """The parts of a well-formed snapshot or log name (00 is the frontend, every other index a pass)."""
    match = _SNAPSHOT_NAME.fullmatch(name)  # `$` alone would let a trailing newline through
    if match is None or bool(match["frontend"]) != (int(match["index"]) == 0):
        return None
    return match


def near_miss_of(name: str) -> str | None:
    """The well-formed name `name` nearly is, else None.

    Near misses: surrounding whitespace or a newline (`05_after_X.py\n`), the extension in another
    case (`05_after_X.PY`), backup suffixes in any case, number and order (`05_after_X.py~~`,
    `.BAK`, `.bak.orig`, `.orig~`, a numbered `.~2~`; see `_BACKUP_SUFFIXES`), or all of these. A compiler never
    writes them; a copy, a script or an editor does.
    """
    candidate = _without_backup_suffixes(name.strip())
    stem, dot, extension = candidate.rpartition(".")
    if dot:
        candidate = f"{stem}.{extension.lower()}"
    if candidate == name or _proper_match(candidate) is None:
        return None
    return candidate


def _without_backup_suffixes(name: str) -> str:
    """`name` less every trailing backup suffix, whatever their case and order (one pass from the end)."""
    end = len(name)
    while True:
        suffix = next((s for s in _BACKUP_SUFFIXES if name[max(0, end - len(s)) : end].lower() == s), "")
        length = _numbered_backup_length(name, end) or len(suffix)  # `.~2~` whole, before its last `~`
        if not length:
            return name[:end]
        end -= length
        while end and name[end - 1].isspace():
            end -= 1


def _numbered_backup_length(name: str, end: int) -> int:
    """The length of a GNU numbered backup suffix (`.~3~`, from `cp --backup=numbered`) ending at `end`, else 0."""
    if end < 4 or name[end - 1] != "~":
        return 0
    start = end - 1
    while start and name[start - 1].isdigit():
        start -= 1
    return end - start + 2 if start < end - 1 and name[max(0, start - 2) : start] == ".~" else 0


def _judge_near_misses(
    folder: Path, near_misses: list[tuple[str, str]], snapshots: dict[int, tuple[str, str]], logs: dict[int, str]
) -> None:
    """A near miss that would supply a file the dump lacks, or a second file for an index, changes
    what the report says: an error. A stray copy beside the very file it names changes nothing:
    one warning line for all of them."""
    strays = []
    for file, nearly in near_misses:
        match = _proper_match(nearly)
        assert match is not None  # a near miss is the proper name it nearly is
        index, is_log = int(match["index"]), match["ext"] == "log"
        present = logs.get(index) if is_log else snapshots.get(index, (None,))[0]
        shown = _shown_path(folder / file)
        if present is None:
            what = f"the warning log of index {index:02d}" if is_log else f"snapshot index {index:02d}"
            raise DumpError(
                f"near-miss snapshot name: {shown} would be {nearly}, {what}, which the dump lacks; "
                f"rename it to {nearly} or remove it"
            )
        if present != nearly:
            raise DumpError(
                f"near-miss snapshot name: {shown} would be {nearly}, a second file for index {index:02d} "
                f"beside {present}; remove the one that does not belong"
            )
        strays.append(_shown_path(Path(file)))
    if strays:
        listed = ", ".join(strays[:_NEAR_MISSES_SHOWN])
        more = f" and {len(strays) - _NEAR_MISSES_SHOWN} more" if len(strays) > _NEAR_MISSES_SHOWN else ""
        log.warning(
            "ignoring %d near-miss name%s in %s (%s%s): copies beside the snapshots they name, which the report uses",
            len(strays),
            "" if len(strays) == 1 else "s",
            folder,
            listed,
            more,
        )


def _shown_path(path: Path) -> str:
    """A path for a one-line message: quoted with escapes when it holds whitespace at its ends or
    control characters (a newline would split the message)."""
    text = str(path)
    if text != text.strip() or path.name != path.name.strip() or not text.isprintable():
        return repr(text)
    return text


def _is_utf8(name: str) -> bool:
    """False for a name os.listdir decoded with surrogate escapes (its bytes are not UTF-8)."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def printable_path(path: str | os.PathLike) -> str:
    """A path for a message, its non-UTF-8 bytes shown as \\xNN escapes."""
    return os.fsencode(path).decode("utf-8", errors="backslashreplace")


def _no_snapshots_message(folder: Path) -> str:
    if (folder / "passes_dump").is_dir():
        return f"no snapshots in {folder}; did you mean {folder / 'passes_dump'}?"
    return f"no passes_dump/ snapshots in {folder} ({_EXPECTED}; {_MLIR_FORMS}); {_PRODUCE}"


def _check_indices(folder: Path, snapshots: dict[int, tuple[str, str]]) -> list[tuple[int, tuple[str, str]]]:
    if 0 not in snapshots:
        raise DumpError(f"missing {FRONTEND} in {folder} (index 00 is the frontend snapshot)")
    ordered = sorted(snapshots.items())
    for expected, (index, (file, _name)) in enumerate(ordered):
        if index != expected:
            before = ordered[expected - 1][1][0]
            raise DumpError(f"missing snapshot index {expected:02d} in {folder} (between {before} and {file})")
    return ordered

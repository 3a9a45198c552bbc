"""Find and validate the snapshots of a passes_dump/ directory.

Produces a `Manifest`: one `Snapshot` per file in execution order, with its sha256 and the
text of its optional warning log. Every way a dump can be broken raises `DumpError` with a
message naming the exact file(s) and index. MLIR dumps (`ir_trace.inputs.mlir`) produce the same
`Manifest`, with each snapshot's header and the span of its IR inside its file.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ir_trace.errors import DumpError
from ir_trace.inputs.dump_files import (
    is_utf8,
    printable_path,
    read_dump_file,
    read_dump_file_stat,
    shown_path,
)
from ir_trace.inputs.file_hashes import FileHashes, FileStamp, snapshot_digest
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
    path: Path,
    span: tuple[int, int] | None = None,
    dump_root: Path | None = None,
    follow_inner_symlinks: bool = False,
    hashes: FileHashes | None = None,
) -> tuple[str, str]:
    """A snapshot's text and the sha256 of its bytes (only the `span` (offset, length) of the file
    when given); DumpError when unreadable or not UTF-8.

    `dump_root` (default: the snapshot's directory) and `follow_inner_symlinks` as in `read_dump_file`.
    With `hashes`, a whole file whose stamp (fstat of the file read) is the one recorded there is not
    hashed again: the sha256 recorded is its bytes'.
    """
    root = Path(path).parent if dump_root is None else dump_root
    data, info = read_dump_file_stat(path, root, follow_inner_symlinks, span=span)
    known = hashes.recall(str(path), FileStamp.of(info)) if hashes is not None and span is None else None
    if known is None:
        return decode_snapshot(data, path, span[0] if span else 0)
    return _decoded(data, path, 0), known


def decode_snapshot(data: bytes | memoryview, path: Path | str, offset: int = 0) -> tuple[str, str]:
    """`data` (read from `path` at `offset`) as text, with its sha256."""
    return _decoded(data, path, offset), snapshot_digest(data)


def _decoded(data: bytes | memoryview, path: Path | str, offset: int) -> str:
    try:
        return str(data, "utf-8")
    except UnicodeDecodeError as exc:
        raise DumpError(f"snapshot is not UTF-8: {path} (invalid byte at offset {offset + exc.start})") from None


# on_text(sha256, text): a reader hands each text it read to the caller that keeps them; False back says it keeps
# no more (`discover_snapshots` then decodes no text for it), anything else that it takes the next one.
TextSink = Callable[[str, str], "bool | None"]


def discover_snapshots(
    dump: str | os.PathLike,
    on_text: TextSink | None = None,
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
        sha, keeps = _snapshot_sha(folder, file, on_text, follow_inner_symlinks, hashes)
        on_text = on_text if keeps else None  # it holds no more: later texts need no decoding for it
        log_file = logs.get(index) if logs.get(index, "").removesuffix(".log") == file.removesuffix(".py") else None
        if index in logs and log_file is None:
            raise DumpError(f"warning log does not match its snapshot: {folder / logs[index]} (snapshot is {file})")
        log = _read_log(folder / log_file, folder, follow_inner_symlinks) if log_file else None
        if log is not None and not log.strip():
            log_file = log = None  # a blank .log reports no warning: no badge, no panel, not counted
        result.append(Snapshot(index, name, file, sha, log_file, log))
    return Manifest(str(folder), program_title(folder), tuple(result))


def _snapshot_sha(
    folder: Path, file: str, on_text: TextSink | None, follow: bool, hashes: FileHashes | None
) -> tuple[str, bool]:
    """A snapshot file's sha256 (recalled from `hashes` when its stamp is unchanged, else read and noted) and
    whether `on_text` takes more texts. A text is decoded for `on_text` only; one no sink takes is checked to be
    UTF-8 without a copy when it is ASCII (nearly every dump: decoding 600 MB nobody holds was 0.15 s)."""
    path = os.path.join(folder, file)
    stamp = hashes.stamp(path) if hashes is not None else None
    sha = hashes.recall(path, stamp) if hashes is not None else None
    keeps = on_text is not None
    if sha is None:
        data = read_dump_file(path, folder, follow)
        sha = snapshot_digest(data)
        if on_text is not None or not data.isascii():
            text = _decoded(data, path, 0)
            keeps = on_text is not None and on_text(sha, text) is not False
        if hashes is not None:
            hashes.note(path, stamp, sha)
    return sha, keeps


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
        if not is_utf8(file):
            if file.endswith((".py", ".log")):
                raise DumpError(f"file name is not UTF-8: {printable_path(folder / file)} (rename it)")
            continue
        match = _proper_match(file)
        if match is None:
            nearly = near_miss_of(file)
            if nearly is not None:
                near_misses.append((file, nearly))
            elif file.endswith((".py", ".log")):
                raise DumpError(f"malformed snapshot name: {shown_path(folder / file)} ({_EXPECTED})")
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
        shown = shown_path(folder / file)
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
        strays.append(shown_path(Path(file)))
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

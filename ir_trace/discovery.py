"""Find and validate the snapshots of a passes_dump/ directory.

Produces a `Manifest`: one `Snapshot` per file in execution order, with its sha256 and the
text of its optional warning log. Every way a dump can be broken raises `DumpError` with a
message naming the exact file(s) and index.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from ir_trace.errors import DumpError
from ir_trace.fingerprints import snapshot_digest

FRONTEND = "00_frontend.py"
_SNAPSHOT_NAME = re.compile(r"^(?P<index>[0-9]+)_(?:(?P<frontend>frontend)|after_(?P<name>.+))\.(?P<ext>py|log)$")
_EXPECTED = "expected 00_frontend.py, 01_after_<Pass>.py, ... with optional NN_after_<Pass>.log"
_PRODUCE = (
    "produce one with compile(..., config=RunConfig(dump_passes=PassDumpLevel.CONCISE)) "
    "(lower() writes no dump; dump_passes=False disables it)"
)


@dataclass(frozen=True)
class Snapshot:
    """One IR snapshot: the text printed after pass `name` (index 0 is the frontend)."""

    index: int
    name: str
    file: str
    sha256: str
    log_file: str | None = None
    log: str | None = None


@dataclass(frozen=True)
class Manifest:
    """A validated dump: its directory and its snapshots in execution order."""

    dump: str
    title: str
    snapshots: tuple[Snapshot, ...]

    def path_of(self, snapshot: Snapshot) -> Path:
        return Path(self.dump) / snapshot.file

    def to_json(self) -> dict:
        return {"dump": self.dump, "title": self.title, "snapshots": [asdict(s) for s in self.snapshots]}

    @classmethod
    def from_json(cls, data: dict) -> Manifest:
        return cls(data["dump"], data["title"], tuple(Snapshot(**s) for s in data["snapshots"]))


def program_title(dump: Path) -> str:
    """The program's directory name: the parent of passes_dump/, else the dump directory itself."""
    return dump.parent.name if dump.name == "passes_dump" and dump.parent.name else dump.name


def read_snapshot_text(path: Path) -> tuple[str, str]:
    """A snapshot's text and the sha256 of its bytes; DumpError when unreadable or not UTF-8."""
    data = _read_bytes(path)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DumpError(f"snapshot is not UTF-8: {path} (invalid byte at offset {exc.start})") from None
    return text, snapshot_digest(data)


def discover_snapshots(dump: str | os.PathLike, on_text: Callable[[str, str], None] | None = None) -> Manifest:
    """Validate `dump` and describe its snapshots in numeric order.

    `on_text(sha256, text)` sees each snapshot's text as it is read, for callers that keep it.
    """
    folder = Path(dump).absolute()
    _check_directory(folder)
    snapshots, logs = _classify_entries(folder)
    ordered = _check_indices(folder, snapshots)
    for index in logs:
        if index not in snapshots:
            raise DumpError(f"warning log without a snapshot: {folder / logs[index]} (no {index:02d}_after_*.py)")
    result = []
    for index, (file, name) in ordered:
        text, sha = read_snapshot_text(folder / file)
        if on_text is not None:
            on_text(sha, text)
        log_file = logs.get(index) if logs.get(index, "").removesuffix(".log") == file.removesuffix(".py") else None
        if index in logs and log_file is None:
            raise DumpError(f"warning log does not match its snapshot: {folder / logs[index]} (snapshot is {file})")
        log = _read_bytes(folder / log_file).decode("utf-8", errors="replace") if log_file else None
        result.append(Snapshot(index, name, file, sha, log_file, log))
    return Manifest(str(folder), program_title(folder), tuple(result))


def _read_bytes(path: Path) -> bytes:
    """The bytes of a regular file; a FIFO would block forever and a device never end, so both are refused."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except IsADirectoryError:
        raise DumpError(f"snapshot is a directory, not a file: {path}") from None
    except OSError as exc:
        raise DumpError(f"cannot read {path}: {exc.strerror or exc}") from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        if stat.S_ISDIR(mode):
            raise DumpError(f"snapshot is a directory, not a file: {path}")
        raise DumpError(f"not a regular file: {path} (a pipe or device cannot be a snapshot)")
    with os.fdopen(fd, "rb") as handle:
        try:
            return handle.read()
        except OSError as exc:
            raise DumpError(f"cannot read {path}: {exc.strerror or exc}") from None


def _check_directory(folder: Path) -> None:
    if not folder.exists():
        raise DumpError(f"input directory does not exist: {folder}")
    if not folder.is_dir():
        raise DumpError(f"not a directory: {folder} (expected a passes_dump/ directory)")


def _classify_entries(folder: Path) -> tuple[dict[int, tuple[str, str]], dict[int, str]]:
    """Map index -> (file, pass name) for snapshots and index -> file for logs."""
    try:
        names = sorted(os.listdir(folder))
    except OSError as exc:
        raise DumpError(f"cannot read directory {folder}: {exc.strerror or exc}") from None
    snapshots: dict[int, tuple[str, str]] = {}
    logs: dict[int, str] = {}
    for file in names:
        if file.startswith(".") or not file.endswith((".py", ".log")):
            continue
        if not _is_utf8(file):
            raise DumpError(f"file name is not UTF-8: {printable_path(folder / file)} (rename it)")
        match = _SNAPSHOT_NAME.match(file)
        if (
            not match
            or (match["frontend"] and int(match["index"]) != 0)
            or (match["name"] and int(match["index"]) == 0)
        ):
            raise DumpError(f"malformed snapshot name: {folder / file} ({_EXPECTED})")
        index = int(match["index"])
        table = snapshots if match["ext"] == "py" else logs
        if index in table:
            first = table[index][0] if match["ext"] == "py" else table[index]
            raise DumpError(f"duplicate snapshot index {index:02d} in {folder}: {first}, {file}")
        table[index] = (file, match["name"] or "frontend") if match["ext"] == "py" else file
    if not snapshots:
        raise DumpError(_no_snapshots_message(folder))
    return snapshots, logs


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
    return f"no passes_dump/ snapshots in {folder} ({_EXPECTED}); {_PRODUCE}"


def _check_indices(folder: Path, snapshots: dict[int, tuple[str, str]]) -> list[tuple[int, tuple[str, str]]]:
    if 0 not in snapshots:
        raise DumpError(f"missing {FRONTEND} in {folder} (index 00 is the frontend snapshot)")
    ordered = sorted(snapshots.items())
    for expected, (index, (file, _name)) in enumerate(ordered):
        if index != expected:
            before = ordered[expected - 1][1][0]
            raise DumpError(f"missing snapshot index {expected:02d} in {folder} (between {before} and {file})")
    return ordered

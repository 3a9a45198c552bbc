"""Find and validate the snapshots of a passes_dump/ directory.

Produces a `Manifest`: one `Snapshot` per file in execution order, with its sha256 and the
text of its optional warning log. Every way a dump can be broken raises `DumpError` with a
message naming the exact file(s) and index.
"""

from __future__ import annotations

import logging
import os
import re
import stat
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from ir_trace.errors import DumpError
from ir_trace.fingerprints import snapshot_digest
from ir_trace.mlir.headers import PassHeader

log = logging.getLogger("ir_trace")

FRONTEND = "00_frontend.py"
_SNAPSHOT_NAME = re.compile(r"^(?P<index>[0-9]+)_(?:(?P<frontend>frontend)|after_(?P<name>.+))\.(?P<ext>py|log)$")
_EXPECTED = "expected 00_frontend.py, 01_after_<Pass>.py, ... with optional NN_after_<Pass>.log"
# Suffixes an editor, a merge or a hand-made backup appends to a file name.
_BACKUP_SUFFIXES = ("~", ".bak", ".orig", ".old")
_NEAR_MISSES_SHOWN = 3  # names listed in the one warning line about stray copies
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
    header: PassHeader | None = None  # an MLIR dump's header line (None for PyPTO snapshots)
    span: tuple[int, int] | None = None  # [start, end) offsets in a stream file holding several snapshots


@dataclass(frozen=True)
class Manifest:
    """A validated dump: its directory and its snapshots in execution order."""

    dump: str
    title: str
    snapshots: tuple[Snapshot, ...]
    kind: str = "pypto"  # "pypto" | "mlir"
    warnings: tuple[str, ...] = ()

    def path_of(self, snapshot: Snapshot) -> Path:
        return Path(self.dump) / snapshot.file

    def to_json(self) -> dict:
        return {
            "dump": self.dump,
            "title": self.title,
            "snapshots": [asdict(s) for s in self.snapshots],
            "kind": self.kind,
            "warnings": list(self.warnings),
        }

    @classmethod
    def from_json(cls, data: dict) -> Manifest:
        snapshots = tuple(_snapshot_from_json(s) for s in data["snapshots"])
        return cls(data["dump"], data["title"], snapshots, data.get("kind", "pypto"), tuple(data.get("warnings", ())))


def _snapshot_from_json(data: dict) -> Snapshot:
    header, span = data.get("header"), data.get("span")
    return Snapshot(
        **{**data, "header": PassHeader(**header) if header else None, "span": tuple(span) if span else None}
    )


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
        text, sha = read_snapshot_text(folder / file)
        if on_text is not None:
            on_text(sha, text)
        log_file = logs.get(index) if logs.get(index, "").removesuffix(".log") == file.removesuffix(".py") else None
        if index in logs and log_file is None:
            raise DumpError(f"warning log does not match its snapshot: {folder / logs[index]} (snapshot is {file})")
        log = _read_bytes(folder / log_file).decode("utf-8", errors="replace") if log_file else None
        if log is not None and not log.strip():
            log_file = log = None  # a blank .log reports no warning: no badge, no panel, not counted
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
        table = snapshots if match["ext"] == "py" else logs
        if index in table:
            first = table[index][0] if match["ext"] == "py" else table[index]
            raise DumpError(f"duplicate snapshot index {index:02d} in {folder}: {first}, {file}")
        table[index] = (file, match["name"] or "frontend") if match["ext"] == "py" else file
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
    case (`05_after_X.PY`), a backup suffix (`05_after_X.py~`, `.bak`, `.orig`, `.old`), or several
    of these. A compiler never writes them; a copy, a script or an editor does.
    """
    candidate = name.strip()
    for suffix in _BACKUP_SUFFIXES:
        candidate = candidate.removesuffix(suffix).strip()
    stem, dot, extension = candidate.rpartition(".")
    if dot:
        candidate = f"{stem}.{extension.lower()}"
    if candidate == name or _proper_match(candidate) is None:
        return None
    return candidate


def _judge_near_misses(
    folder: Path, near_misses: list[tuple[str, str]], snapshots: dict[int, tuple[str, str]], logs: dict[int, str]
) -> None:
    """A near miss that would supply a file the dump lacks, or a second file for an index, changes
    what the report says: an error. A stray copy beside the very file it names changes nothing:
    one warning line for all of them."""
    strays = []
    for file, nearly in near_misses:
        match = _proper_match(nearly)
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
    output_dir = _output_dir_of_ptoas_dump(folder)
    if output_dir is not None:
        return _ptoas_dump_message(folder, output_dir / "passes_dump")
    return f"no passes_dump/ snapshots in {folder} ({_EXPECTED}); {_PRODUCE}"


def _output_dir_of_ptoas_dump(folder: Path) -> Path | None:
    """The compile output directory when `folder` is its ptoas_passes/ or one codegen unit's
    directory inside it (dump_ptoas_passes=True), else None."""
    for candidate in (folder, folder.parent):
        if candidate.name == "ptoas_passes":
            return candidate.parent
    return None


def _ptoas_dump_message(folder: Path, passes_dump: Path) -> str:
    # ptoas names its own MLIR snapshots; they are a different pipeline, so say where PyPTO's are.
    what = f"{folder} is ptoas's own MLIR pass dump (dump_ptoas_passes=), which pypto-ir-trace does not read"
    if passes_dump.is_dir():
        return f"{what}; did you mean {passes_dump}?"
    return f"{what}; PyPTO's passes go to {passes_dump}: {_PRODUCE}"


def _check_indices(folder: Path, snapshots: dict[int, tuple[str, str]]) -> list[tuple[int, tuple[str, str]]]:
    if 0 not in snapshots:
        raise DumpError(f"missing {FRONTEND} in {folder} (index 00 is the frontend snapshot)")
    ordered = sorted(snapshots.items())
    for expected, (index, (file, _name)) in enumerate(ordered):
        if index != expected:
            before = ordered[expected - 1][1][0]
            raise DumpError(f"missing snapshot index {expected:02d} in {folder} (between {before} and {file})")
    return ordered

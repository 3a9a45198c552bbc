"""Writing an output without ever clobbering something that is not ours to replace.

What a path names decides how it is written:

- a regular file, or nothing yet: a temp file beside it, renamed over it (atomic: a reader sees the
  old file or the new one, a failed or interrupted run leaves the old one and no temp file);
- a symlink: followed, and its target written by the rules here (the link itself stays);
- a FIFO or a character device (`/dev/stdout`, a terminal, `/dev/null`): written through, never
  replaced; a FIFO nobody reads is an error at once, not a wait;
- anything else (a directory, a block device, a socket): refused.

Every write is kept by the run's `RunGuard` (`ir_trace.runsafety.run_guard`), handed down by the caller:
temp files are registered and announced before they exist, nothing is renamed into place once
the supervising command is gone, and a terminating signal removes the temp file in flight.
"""

from __future__ import annotations

import errno
import os
import secrets
import stat
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from ir_trace.errors import IRTraceError
from ir_trace.runsafety.run_guard import RunGuard, remove_temp

TEMP_SUFFIX = ".tmp"
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NOCTTY = getattr(os, "O_NOCTTY", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_BATCH_CHARS = 1 << 16  # characters of text in pieces encoded and written at a time (its many small strings cost more)

Content = str | bytes | Iterable[str]  # text, bytes, or text in pieces (a document too large to hold twice)


class OutputError(IRTraceError):
    """An output path that cannot or must not be written, named by the argument that gave it."""


@dataclass(frozen=True)
class OutputPlan:
    """How one output will be written: `target` is where the bytes land (a symlink's final target)."""

    path: Path
    target: Path
    stream: bool  # write through an existing FIFO or character device instead of replacing a file
    existing: os.stat_result | None  # what the path names now (the file to replace, the FIFO or device)

    def identity(self) -> tuple:
        """Equal for two plans that would write the same file or stream."""
        if self.existing is not None:
            return ("file", self.existing.st_dev, self.existing.st_ino)
        return ("path", str(self.target))


def plan_output(path: Path, label: str | None = None) -> OutputPlan:
    """Decide how `path` will be written; raise OutputError if it must not be.

    `label` is the argument that named the path (`-o`, `--json`): error messages start with it.
    """
    prefix = _prefix(label)
    try:
        info = os.stat(path)  # follows symlinks, including /dev/stdout's /proc/self/fd/1
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise OutputError(f"{prefix}cannot use {path}: {exc.strerror or exc}") from exc
    if info is not None and (stat.S_ISFIFO(info.st_mode) or stat.S_ISCHR(info.st_mode)):
        return OutputPlan(path, path, stream=True, existing=info)
    target = Path(os.path.realpath(path))  # a dangling symlink: the file is created where it points
    if info is None:
        if not target.parent.is_dir():
            raise OutputError(f"{prefix}output directory does not exist: {target.parent}")
        if os.path.lexists(target):
            raise OutputError(f"{prefix}cannot use {path}: a symlink that cannot be followed")
        return OutputPlan(path, target, stream=False, existing=None)
    if not stat.S_ISREG(info.st_mode):
        raise OutputError(f"{prefix}{path} is {_kind(info.st_mode)}; give a file name")
    return OutputPlan(path, target, stream=False, existing=info)


def is_inside(path: str | os.PathLike, folder: str | os.PathLike) -> bool:
    """Whether `path` is `folder` or below it, once `..` and symlinks are resolved."""
    resolved, container = Path(os.path.realpath(path)), Path(os.path.realpath(folder))
    return resolved == container or container in resolved.parents


def _prefix(label: str | None) -> str:
    return f"{label}: " if label else ""


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def write_output(
    path: Path,
    content: Content,
    label: str | None = None,
    before_rename: Callable[[os.stat_result], None] | None = None,
    durable: bool = True,
    guard: RunGuard | None = None,
) -> int:
    """Write `content` to `path` by the rules in this module's docstring; returns bytes written.

    `before_rename(stat)` is called with the finished temp file's stat just before it is renamed
    over the target (the rename keeps its device, inode, size and mtime), so a caller can record
    the identity of the file it is about to publish; if it raises, nothing is published. It is
    not called for a stream: a FIFO or device has no identity worth recording. `durable=False`
    skips the fsync, for files that are only a copy of something kept elsewhere. `guard` is the
    run's (`RunGuard()`, a process nobody supervises, when not given). Text in pieces is encoded and
    written a batch at a time, never held whole.
    """
    data = content.encode("utf-8") if isinstance(content, str) else content
    plan = plan_output(Path(path), label)
    guard = guard or RunGuard()
    if plan.stream:
        size = _write_through(plan.path, data, _prefix(label))
        guard.streamed(str(plan.path))
        return size
    return _replace(plan, data, _prefix(label), before_rename, durable, guard)


def replace_file(target: Path, data: bytes, durable: bool = False, guard: RunGuard | None = None) -> None:
    """Put `data` at `target` through a temp file renamed over whatever is there (a file, a link,
    nothing): no link is followed. For content-addressed files, where racing writers all rename
    the same bytes into place, so every one of them succeeds and a reader sees one whole file."""
    _replace(OutputPlan(target, target, stream=False, existing=None), data, "", None, durable, guard or RunGuard())


def read_regular_file(path: Path) -> bytes | None:
    """The bytes of `path` when it is a regular file (not through a link), else None."""
    try:
        fd = os.open(path, os.O_RDONLY | _NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | _CLOEXEC)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as handle:
        try:
            return handle.read() if stat.S_ISREG(os.fstat(fd).st_mode) else None
        except OSError:
            return None


def _temp_name(target: Path) -> str:
    stem = target.name[:50]  # under NAME_MAX (255 bytes) however long the target's name, even in 4-byte UTF-8
    return str(target.parent / f".{stem}.{os.getpid()}-{secrets.token_hex(6)}{TEMP_SUFFIX}")


def _replace(plan: OutputPlan, data, prefix: str, before_rename, durable: bool, guard: RunGuard) -> int:
    # Registered before it exists, so an interrupt can never orphan it.
    with guard.removed_on_termination(), guard.temp_file(_temp_name(plan.target)) as tmp:
        return _replace_file(plan, tmp, data, prefix, before_rename, durable, guard)


def _replace_file(plan: OutputPlan, tmp: str, data, prefix: str, before_rename, durable, guard) -> int:
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _CLOEXEC, 0o666)  # the umask applies
        try:
            _keep_owner_and_mode(fd, plan.existing)
            size = write_content(fd, data)
            if durable:
                os.fsync(fd)
            finished = os.fstat(fd)
        finally:
            os.close(fd)
        if before_rename is not None:
            before_rename(finished)
        guard.publishing(finished, str(plan.target))  # published once the target is this file
        os.replace(tmp, plan.target)
        return size
    except BaseException as exc:
        remove_temp(tmp)
        if isinstance(exc, OSError):
            raise OutputError(f"{prefix}cannot write {plan.target}: {exc.strerror or exc}") from exc
        raise


def _keep_owner_and_mode(fd: int, existing: os.stat_result | None) -> None:
    """A replaced file keeps its permission bits, and its owner where we may set it (root)."""
    if existing is None:
        return
    os.fchmod(fd, stat.S_IMODE(existing.st_mode) & 0o777)
    if (existing.st_uid, existing.st_gid) != (os.geteuid(), os.getegid()):
        try:
            os.fchown(fd, existing.st_uid, existing.st_gid)
        except PermissionError:
            pass


def _write_through(path: Path, data, prefix: str) -> int:
    try:
        # Non-blocking open: a FIFO without a reader fails (ENXIO) instead of waiting forever.
        fd = os.open(path, os.O_WRONLY | _NONBLOCK | _NOCTTY | _CLOEXEC)
    except OSError as exc:
        if exc.errno == errno.ENXIO:
            raise OutputError(f"{prefix}nothing is reading the FIFO {path}; start its reader first") from exc
        raise OutputError(f"{prefix}cannot write {path}: {exc.strerror or exc}") from exc
    try:
        mode = os.fstat(fd).st_mode
        if not (stat.S_ISFIFO(mode) or stat.S_ISCHR(mode)):  # replaced since it was planned: touch nothing
            raise OutputError(f"{prefix}{path} changed while the run was writing it; run again")
        os.set_blocking(fd, True)  # a slow reader is waited for, like any pipe
        return write_content(fd, data)
    except OSError as exc:
        raise OutputError(f"{prefix}cannot write {path}: {exc.strerror or exc}") from exc
    finally:
        os.close(fd)


def write_content(fd: int, data: bytes | Iterable[str]) -> int:
    """Every byte (see `write_all`): bytes as they are, text pieces encoded a batch at a time. Returns the
    bytes written."""
    if isinstance(data, bytes):
        write_all(fd, data)
        return len(data)
    size = 0
    for batch in _encoded_batches(data):
        write_all(fd, batch)
        size += len(batch)
    return size


def _encoded_batches(pieces: Iterable[str]) -> Iterator[bytes]:
    batch: list[str] = []
    chars = 0
    for piece in pieces:
        batch.append(piece)
        chars += len(piece)
        if chars >= _BATCH_CHARS:
            yield "".join(batch).encode("utf-8")
            batch, chars = [], 0
    if batch:
        yield "".join(batch).encode("utf-8")


def write_all(fd: int, data: bytes) -> None:
    """Every byte, or OSError: a short write to a pipe is continued, so a reader that left raises EPIPE."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def shown_path(path: str) -> str:
    """Relative to the working directory when below it, else as given (`/dev/stdout`, not `../../dev/stdout`)."""
    try:
        relative = os.path.relpath(path)
    except ValueError:
        return path
    return path if relative.startswith("..") else relative

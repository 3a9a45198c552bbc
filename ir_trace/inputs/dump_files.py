"""Reading a dump's files as the dump allows: no link followed unless asked, no special file read.

Every snapshot, log and tree file is opened below its dump's root one path component at a time
(`O_NOFOLLOW`, `O_NONBLOCK`), checked to be a regular file on the descriptor it is read from, and
named in messages as a one-line printable path. `DirectoryFiles` keeps a tree's directories open, so
a tree of 50,000 files costs one open and one fstat a file.
"""

from __future__ import annotations

import errno
import os
import stat
from collections import OrderedDict
from pathlib import Path
from typing import BinaryIO

from ir_trace.errors import DumpError

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
    return read_dump_file_stat(path, dump_root, follow_inner_symlinks, what, span)[0]


def read_dump_file_stat(
    path: str | os.PathLike,
    dump_root: str | os.PathLike,
    follow_inner_symlinks: bool = False,
    what: str = "snapshot",
    span: tuple[int, int] | None = None,
) -> tuple[bytes, os.stat_result]:
    """`read_dump_file`'s bytes, with the fstat of the very file they were read from (its stamp)."""
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
            return _read_regular(fd, full, self.what)[0]  # the path as a string: only messages name it
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
            f"{what} is a symlink to {kind} outside the dump: {path} -> {shown_path(resolved)} "
            "(refused: a report must not carry files from elsewhere; copy it into the dump)"
        )
    if not follow:
        raise DumpError(
            f"{what} is a symlink: {path} -> {shown_path(resolved)} "
            f"(pass {_LINK_FLAG} to read links that stay inside the dump)"
        )
    return resolved


def _read_regular(
    fd: int, path: Path | str, what: str, span: tuple[int, int] | None = None
) -> tuple[bytes, os.stat_result]:
    """The bytes behind `fd`, a regular file (a FIFO would block forever and a device never end), and its fstat."""
    try:
        info = os.fstat(fd)
        _check_regular(info.st_mode, path, what)
        if span is not None:
            return _read_span(fd, span, path), info
        chunks = [os.read(fd, info.st_size + 1)]  # one read for a file that stays as it was
        while chunks[-1]:
            chunks.append(os.read(fd, 1 << 20))
        return (chunks[0] if len(chunks) == 2 else b"".join(chunks)), info  # one read as it is: joining copies it
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


def shown_path(path: Path) -> str:
    """A path for a one-line message: quoted with escapes when it holds whitespace at its ends or
    control characters (a newline would split the message)."""
    text = str(path)
    if text != text.strip() or path.name != path.name.strip() or not text.isprintable():
        return repr(text)
    return text


def is_utf8(name: str) -> bool:
    """False for a name os.listdir decoded with surrogate escapes (its bytes are not UTF-8)."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def printable_path(path: str | os.PathLike) -> str:
    """A path for a message, its non-UTF-8 bytes shown as \\xNN escapes."""
    return os.fsencode(path).decode("utf-8", errors="backslashreplace")

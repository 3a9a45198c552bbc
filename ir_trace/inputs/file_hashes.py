"""The sha256 of snapshot files already read, recalled by their stat stamp so that revalidating a
dump after one pass changed reads that pass's file, not the thousand beside it.

The content hash stays the truth; a stamp only stands for the hash recorded with it:

- the stamp is inode, size, mtime *and* ctime. Nobody can set a ctime (`touch -d` and `os.utime`
  set it to now), so an edit that keeps a file's size and puts its mtime back still changes it;
- a file is remembered only once it has been still for `SETTLED_NS` when read (git's "racy
  clean" rule): a rewrite within the same timestamp tick as the read would keep every field of
  the stamp, so a file that recent is read again next time instead.

Free of Luigi: validation (`pipeline.snapshots.validate`) loads one `FileHashes` per dump from the
cache, `discovery.discover_snapshots` recalls and notes, and validation stores it back.
"""

from __future__ import annotations

import hashlib
import os
import stat
import time
from collections.abc import Callable
from dataclasses import dataclass


# Coarse file-system clocks (FAT: 2 s; NFS servers' clocks drift): a file changed less than this
# before it was read is not remembered.
def snapshot_digest(data: bytes | memoryview) -> str:
    """sha256 of a snapshot's bytes: the pass's output, and the key of its diffs and slices."""
    return hashlib.sha256(data).hexdigest()


SETTLED_NS = 2_000_000_000


@dataclass(frozen=True)
class FileStamp:
    """What the file system says about a file without reading it."""

    inode: int
    size: int
    mtime_ns: int
    ctime_ns: int

    @classmethod
    def of(cls, info: os.stat_result) -> FileStamp:
        return cls(info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)

    def settled(self, now_ns: int) -> bool:
        """Whether the file had been left alone for SETTLED_NS at `now_ns`."""
        return max(self.mtime_ns, self.ctime_ns) <= now_ns - SETTLED_NS


class FileHashes:
    """sha256 by file path and stamp, for the files of one dump.

    `recall` answers for a regular file (never a symlink: those are judged by reading) whose stamp
    is the one recorded; `note` records a file just read. Only the files recalled or noted in
    this validation are kept (`to_json`), so files deleted from the dump are forgotten. Entries stay
    in their JSON form, `[inode, size, mtime_ns, ctime_ns, sha256]`: a thousand of them are decoded
    at every validation, and most are only compared once.
    """

    def __init__(self, known: dict[str, list] | None = None, clock: Callable[[], int] = time.time_ns):
        self._known = dict(known or {})
        self._kept: dict[str, list] = {}
        self._clock = clock  # the file system's clock, in ns (the tests look from the future with another)

    def stamp(self, path: str) -> FileStamp | None:
        """The stamp of `path` when it is a regular file (not followed if a link), else None."""
        try:
            info = os.lstat(path)
        except OSError:
            return None
        return FileStamp.of(info) if stat.S_ISREG(info.st_mode) else None

    def recall(self, path: str, stamp: FileStamp | None) -> str | None:
        """The sha256 recorded for `path` at this very stamp, or None (the file must be read)."""
        entry = self._known.get(path)
        if stamp is None or entry is None or entry[:4] != _fields(stamp):
            return None
        self._kept[path] = entry
        return entry[4]

    def note(self, path: str, stamp: FileStamp | None, sha256: str) -> None:
        """Remember that `path`, stamped `stamp` before it was read, hashed to `sha256` (if it had settled)."""
        if stamp is not None and stamp.settled(self._clock()):
            self._kept[path] = [*_fields(stamp), sha256]

    def to_json(self) -> dict:
        return dict(self._kept)

    def learn(self, other: FileHashes) -> None:
        """Recall what `other` recalled or noted too (a later read of the same files, in this process)."""
        self._known.update(other._kept)

    @classmethod
    def from_json(cls, data, clock: Callable[[], int] = time.time_ns) -> FileHashes:
        """The hashes `to_json` wrote (an entry of any other shape is dropped: that file is read)."""
        if not isinstance(data, dict):
            return cls(clock=clock)
        return cls({path: entry for path, entry in data.items() if _well_formed(entry)}, clock)


def _well_formed(entry) -> bool:
    return (
        isinstance(entry, list)
        and len(entry) == 5
        and all(type(n) is int for n in entry[:4])  # noqa: E721 - not bool, which is an int too
        and isinstance(entry[4], str)
    )


def _fields(stamp: FileStamp) -> list[int]:
    return [stamp.inode, stamp.size, stamp.mtime_ns, stamp.ctime_ns]

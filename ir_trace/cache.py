"""The on-disk result cache: diskcache holding checksummed JSON text, never pickles.

Entries are keyed by content hashes, so they never go stale; eviction is off so an entry
cannot vanish between a completeness check and its use. Anything damaged (a garbage or
truncated database, a missing or altered value file, a planted pickle) is treated as a
miss and rebuilt, with one warning; a cache that cannot be opened at all is moved aside.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import sqlite3
import tempfile
import time
from pathlib import Path

import diskcache
from diskcache.core import MODE_BINARY, MODE_RAW, MODE_TEXT, UNKNOWN

log = logging.getLogger("ir_trace")
_warned: set[str] = set()


def warn_once(message: str) -> None:
    if message not in _warned:
        _warned.add(message)
        log.warning(message)


class UnsafeEntry(ValueError):
    """A stored entry that is not plain text (for example a pickle planted in the database)."""


class TextOnlyDisk(diskcache.Disk):
    """A diskcache Disk that stores and returns only str/bytes, refusing to unpickle anything."""

    def get(self, key, raw):
        if not raw:
            raise UnsafeEntry("pickled key")
        return super().get(key, raw)

    def store(self, value, read, key=UNKNOWN):
        if type(value) not in (str, bytes):
            raise TypeError("the result cache stores text only")
        return super().store(value, read, key)

    def fetch(self, mode, filename, value, read):
        if mode not in (MODE_RAW, MODE_BINARY, MODE_TEXT):
            raise UnsafeEntry(f"entry stored in mode {mode}")
        return super().fetch(mode, filename, value, read)


def default_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "pypto-ir-trace"


class ResultCache:
    """JSON values by string key, on disk, safe to share between processes."""

    def __init__(self, directory: Path):
        self.directory = directory
        self._cache = _open(directory)

    def get(self, key: str):
        """The stored value, or None when absent or damaged (a damaged entry is dropped)."""
        try:
            stored = self._cache.get(key)
        except (sqlite3.Error, OSError, UnsafeEntry, UnicodeDecodeError) as exc:
            return self._drop(key, exc)
        if stored is None:
            return None
        try:
            checksum, _, body = stored.partition("\n")
            if checksum != _checksum(body):
                raise ValueError("checksum mismatch")
            return json.loads(body)
        except (AttributeError, ValueError) as exc:
            return self._drop(key, exc)

    def put(self, key: str, value, expire: float | None = None) -> None:
        body = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        try:
            self._cache.set(key, f"{_checksum(body)}\n{body}", expire=expire, retry=True)
        except (sqlite3.Error, OSError) as exc:
            warn_once(f"cannot write to the cache {self.directory} ({exc}); results are not kept")

    def add(self, key: str, value, expire: float | None = None) -> None:
        """Store only if no value is there yet (the first writer wins)."""
        if self.get(key) is None:
            body = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
            try:
                self._cache.add(key, f"{_checksum(body)}\n{body}", expire=expire, retry=True)
            except (sqlite3.Error, OSError) as exc:
                warn_once(f"cannot write to the cache {self.directory} ({exc}); results are not kept")

    def __contains__(self, key: str) -> bool:
        """Presence only (cheap, for Luigi's completeness checks); `get` validates the value."""
        try:
            return key in self._cache
        except (sqlite3.Error, OSError, UnsafeEntry):
            return False

    def close(self) -> None:
        self._cache.close()

    def _drop(self, key: str, reason: Exception) -> None:
        warn_once(f"ignored damaged entries in the cache {self.directory} (first: {reason}); they are rebuilt")
        try:
            self._cache.delete(key, retry=True)
        except (sqlite3.Error, OSError, UnsafeEntry):
            pass
        return None


def _checksum(body: str) -> str:
    return hashlib.sha256(body.encode("utf-8")).hexdigest()[:32]


def _open(directory: Path) -> diskcache.Cache:
    directory.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.chmod(directory, 0o700)
    settings = dict(disk=TextOnlyDisk, eviction_policy="none", size_limit=2**62, timeout=60)
    try:
        cache = diskcache.Cache(str(directory), **settings)
        cache.get("probe")  # a garbage or truncated database fails here rather than mid-run
        return cache
    except (sqlite3.DatabaseError, UnsafeEntry) as exc:
        aside = directory.with_name(f"{directory.name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}")
        os.replace(directory, aside)
        warn_once(f"the cache {directory} was damaged ({exc}); moved it to {aside} and started a new one")
        directory.mkdir(mode=0o700)
        return diskcache.Cache(str(directory), **settings)


def open_cache(directory: Path | None) -> ResultCache:
    """The cache at `directory`; a private temporary one when it is None or unusable."""
    if directory is not None:
        try:
            return ResultCache(Path(directory))
        except (OSError, sqlite3.Error) as exc:
            warn_once(f"cannot use the cache directory {directory} ({exc}); running without the cache")
    return ResultCache(Path(tempfile.mkdtemp(prefix="pypto-ir-trace-cache-")))

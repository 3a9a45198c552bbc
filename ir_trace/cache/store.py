"""The on-disk result cache: diskcache holding checksummed JSON text, never pickles.

Entries are keyed by content hashes, so they never go stale; eviction is off so an entry
cannot vanish between a completeness check and its use. Anything damaged (a garbage or
truncated database, a missing or altered value file, a planted pickle) is treated as a
miss and rebuilt, with one warning. A damaged database is moved aside, with its directory,
only when the tool created that directory (it holds our CACHEDIR.TAG); a directory the user
made, or one that cannot be used (unwritable, locked), is left exactly as it is and the run
uses a temporary cache. A tampered database can make the cache read or delete only its own
value files.
"""

from __future__ import annotations

import atexit
import contextlib
import errno
import glob
import logging
import os
import re
import shutil
import sqlite3
import stat
import tempfile
import time
from contextlib import closing
from pathlib import Path

import diskcache
from diskcache.core import DEFAULT_SETTINGS, METADATA, MODE_BINARY, MODE_RAW, MODE_TEXT, UNKNOWN

from ir_trace.cache.on_disk import VALUE_FILE, decode_entry, encode_entry

try:
    import resource
except ImportError:  # not on Windows
    resource = None  # type: ignore[assignment]

log = logging.getLogger("ir_trace")
# Said even under -q (the command keeps this logger at WARNING): a cache moved aside is a folder
# that appeared beside the user's cache, which nobody should find unexplained.
unmissable = logging.getLogger("ir_trace.unmissable")
_warned: set[str] = set()
# diskcache runs `PRAGMA <key> = <value>` for stored sqlite_* settings and passes disk_* ones to the Disk.
_SETTING_VALUE = re.compile(r"[\w.-]{1,64}")


# Written into every cache directory the tool creates: the proof that moving it aside takes nothing of
# the user's. The format is the Cache Directory Tagging spec's, so backup tools skip the directory too.
MARKER = "CACHEDIR.TAG"
_MARKER_TEXT = (
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This file is a cache directory tag created by pypto-ir-trace.\n"
    "# For information about cache directory tags see https://bford.info/cachedir/\n"
)


class LeftAlone(Exception):
    """A damaged database in a directory the tool did not create: used by nobody, moved by nobody."""


def warn_once(message: str, logger: logging.Logger = log) -> None:
    if message not in _warned:
        _warned.add(message)
        logger.warning(message)


_WINDOW = 1 << 20  # characters encoded at a time when a large text value is written


def _utf8_windows(text: str):
    for start in range(0, len(text), _WINDOW):
        yield text[start : start + _WINDOW].encode("utf-8")


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
        if type(value) is str and len(value) >= self.min_file_size:
            return self._store_text_file(value, key)
        return super().store(value, read, key)

    def _store_text_file(self, value: str, key) -> tuple:
        """A text value too large for the database, written as its UTF-8 bytes (read back as text, as
        diskcache's own text files are) a window at a time: diskcache copies the text into a StringIO
        first, 4 bytes a character, and even one encoded copy of a 100,000-pass summary (48 MB) was
        the run's peak memory."""
        filename, full_path = self.filename(key, value)
        size = self._write(full_path, _utf8_windows(value), "xb")
        return size, MODE_TEXT, filename, None

    def fetch(self, mode, filename, value, read):
        if mode not in (MODE_RAW, MODE_BINARY, MODE_TEXT):
            raise UnsafeEntry(f"entry stored in mode {mode}")
        if mode != MODE_RAW:
            if not isinstance(filename, str) or not VALUE_FILE.fullmatch(filename):
                raise UnsafeEntry(f"value file name not made by the cache: {filename!r}")
            # lstat: a missing file raises OSError, which diskcache reports as a miss
            if not stat.S_ISREG(os.lstat(os.path.join(self._directory, filename)).st_mode):
                raise UnsafeEntry(f"value file is not a regular file: {filename}")
        return super().fetch(mode, filename, value, read)

    def remove(self, file_path):
        """Delete a value file, never a path a tampered database names outside the cache."""
        if isinstance(file_path, str) and VALUE_FILE.fullmatch(file_path):
            super().remove(file_path)


class ResultCache:
    """JSON values by string key, on disk, safe to share between processes.

    A value the disk would not take (a full or quota-limited file system, `ulimit -f`) is kept in
    memory for the rest of the run, with one warning that results are not kept: the run's own
    checks (Luigi's completeness, the report's record) then still see what it computed, so a full
    disk never costs the report nor makes the run call its own results missing."""

    def __init__(self, directory: Path, cache: diskcache.Cache | None = None):
        self.directory = directory
        self._cache = cache if cache is not None else _open(directory)
        self._unkept: dict[str, str] = {}  # key -> stored text the disk refused

    def get(self, key: str):
        """The stored value, or None when absent or damaged (a damaged entry is dropped)."""
        stored = self._unkept.get(key)
        try:
            if stored is None:
                stored = self._read(key)
        except (sqlite3.Error, OSError, UnsafeEntry, UnicodeDecodeError) as exc:
            return self._drop(key, exc)
        if stored is None:
            return None
        try:
            return decode_entry(stored)
        except (AttributeError, ValueError) as exc:
            return self._drop(key, exc)

    def _read(self, key: str):
        """The stored text; a row whose value file is missing is damage only when it stays so: another
        process replacing the entry deletes the old value file between our reading its row and its file."""
        for _attempt in range(_REREADS):
            stored = self._cache.get(key)
            if stored is not None or key not in self._cache:
                return stored
        raise UnsafeEntry("value file missing")

    def put(self, key: str, value) -> None:
        self.put_many({key: value})

    def put_many(self, values: dict) -> None:
        """Store each value, in one transaction: one commit (one sync) for the lot, not one each."""
        entries = {key: encode_entry(value) for key, value in values.items()}
        try:
            with self._cache.transact(retry=True):
                for key, text in entries.items():
                    self._cache.set(key, text, retry=True)
        except (sqlite3.Error, OSError) as exc:
            self._unkept.update(entries)
            warn_once(f"cannot write to the cache {self.directory} ({_reason(exc)}); results are not kept")
            return
        for key in entries:
            self._unkept.pop(key, None)

    def present(self, keys: list[str]) -> set[str]:
        """Which of `keys` the cache holds (presence only, as `in`), asked in a few queries rather than one each:
        a thousand-pass dump has thousands of results to check on every run."""
        found = {key for key in keys if key in self._unkept}
        try:
            for start in range(0, len(keys), _KEYS_PER_QUERY):
                chunk = keys[start : start + _KEYS_PER_QUERY]
                marks = ",".join("?" * len(chunk))
                # diskcache's own table (raw = 1: a str key stored as itself, which is how our keys are stored)
                rows = self._cache._sql(f"SELECT key FROM Cache WHERE raw = 1 AND key IN ({marks})", chunk)
                found.update(row[0] for row in rows.fetchall())
        except (sqlite3.Error, OSError):
            return {key for key in keys if key in self}
        return found

    def __contains__(self, key: str) -> bool:
        """Presence only (cheap, for Luigi's completeness checks); `get` validates the value."""
        if key in self._unkept:
            return True
        try:
            return key in self._cache
        except (sqlite3.Error, OSError, UnsafeEntry):
            return False

    def close(self) -> None:
        self._cache.close()

    def _drop(self, key: str, reason: Exception) -> None:
        warn_once(f"ignored damaged entries in the cache {self.directory} (first: {reason}); they are rebuilt")
        self._unkept.pop(key, None)
        try:
            self._cache.delete(key, retry=True)
        except (sqlite3.Error, OSError, UnsafeEntry):
            pass
        return None


_REREADS = 3  # reads of an entry whose value file vanished, before it counts as damaged


def _reason(exc: BaseException) -> str:
    """What went wrong, said plainly: sqlite's bare "disk I/O error" under `ulimit -f` is the file
    size limit, which is then named."""
    text = str(exc) or type(exc).__name__
    limit = _file_size_limit()
    if limit is not None and ("I/O error" in text or isinstance(exc, OSError) and exc.errno == errno.EFBIG):
        return f"{text}; the file size limit (ulimit -f) is {limit} bytes"
    return text


def _file_size_limit() -> int | None:
    if resource is None:
        return None
    limit = resource.getrlimit(resource.RLIMIT_FSIZE)[0]
    return None if limit == resource.RLIM_INFINITY else limit


class _MemoryStore:
    """What a run uses when no directory takes a cache at all (even a temporary one: `ulimit -f`, a
    full /tmp): the few calls `ResultCache` makes of diskcache, on a dict, for this process only."""

    def __init__(self):
        self._values: dict[str, str] = {}

    def get(self, key: str):
        return self._values.get(key)

    def __contains__(self, key: str) -> bool:
        return key in self._values

    def set(self, key: str, value: str, retry: bool = False) -> None:
        self._values[key] = value

    def delete(self, key: str, retry: bool = False) -> None:
        self._values.pop(key, None)

    @contextlib.contextmanager
    def transact(self, retry: bool = False):
        yield

    def _sql(self, *_args):
        raise sqlite3.OperationalError("no database: the cache is in memory")

    def close(self) -> None:
        self._values.clear()


_KEYS_PER_QUERY = 500  # below SQLite's limit on a statement's parameters (999 in old builds)


def _create(directory: Path) -> None:
    """Make the directory (owner only, whatever the umask) and tag it as ours; an existing one is left as it is."""
    try:
        directory.mkdir(mode=0o700, parents=True)
    except FileExistsError:
        return
    os.chmod(directory, 0o700)
    (directory / MARKER).write_text(_MARKER_TEXT, encoding="ascii")


def created_by_us(directory: Path) -> bool:
    try:
        return (directory / MARKER).read_text(encoding="ascii", errors="replace") == _MARKER_TEXT
    except OSError:
        return False


def _open(directory: Path) -> diskcache.Cache:
    _create(directory)
    settings = dict(disk=TextOnlyDisk, eviction_policy="none", size_limit=2**62, timeout=60)
    found = _identity(directory / "cache.db")
    try:
        _check_settings(directory / "cache.db")
        cache = diskcache.Cache(str(directory), **settings)
        cache.get("probe")  # a garbage or truncated database fails here rather than mid-run
        return cache
    except sqlite3.OperationalError:
        raise  # cannot open, read-only or locked: not damage, so the directory stays where it is
    except (sqlite3.DatabaseError, UnsafeEntry) as exc:
        if _identity(directory / "cache.db") != found:  # a concurrent run already replaced it: use the new one
            return diskcache.Cache(str(directory), **settings)
        if not created_by_us(directory):
            raise LeftAlone(
                f"the cache database {directory / 'cache.db'} is damaged ({exc}), and {directory} was not created "
                "by pypto-ir-trace, so it is left as it is; running with a temporary cache "
                "(delete that cache.db, or choose another --cache-dir)"
            ) from exc
        aside = directory.with_name(f"{directory.name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}")
        os.replace(directory, aside)
        removed = _remove_older_damaged(directory, aside)
        also = f" (removed the older damaged copy {', '.join(map(str, removed))})" if removed else ""
        moved = f"the cache {directory} was damaged ({exc}); moved it to {aside} and started a new one"
        warn_once(moved + also, unmissable)
        _create(directory)  # unless a concurrent run has started the new one already
        return diskcache.Cache(str(directory), **settings)


def _remove_older_damaged(directory: Path, kept: Path) -> list[Path]:
    """Delete the copies earlier runs moved aside (only directories the tool made): one is kept."""
    removed = []
    for older in sorted(directory.parent.glob(f"{glob.escape(directory.name)}.damaged-*")):
        if older != kept and older.is_dir() and not older.is_symlink() and created_by_us(older):
            shutil.rmtree(older, ignore_errors=True)
            removed.append(older)
    return removed


def warn_if_not_a_cache(directory: Path, label: str) -> None:
    """`--cache-dir .` in a project folder: say that the cache's database and value folders would go
    among its files (a non-empty directory holding neither our tag nor a cache database)."""
    try:
        with os.scandir(directory) as entries:
            names = {entry.name for entry in entries}
    except OSError:
        return
    if names and not names & {MARKER, "cache.db"}:
        log.warning(
            f"{label} {directory.absolute()} is a non-empty directory that is not a pypto-ir-trace cache; "
            "the cache's files (cache.db, value folders) go among its own "
            "(give an empty or new directory to keep them apart)"
        )


def _identity(path: Path) -> tuple[int, int] | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_dev, info.st_ino


def _check_settings(database: Path) -> None:
    """Refuse a Settings table diskcache would obey blindly: unknown keys, values that are not plain words."""
    if not database.exists():
        return
    if not database.is_file():
        raise sqlite3.DatabaseError(f"{database.name} is not a regular file")
    with closing(sqlite3.connect(database, timeout=60)) as connection:
        try:
            rows = connection.execute("SELECT key, value FROM Settings").fetchall()
        except sqlite3.OperationalError as exc:
            if "no such table" in str(exc):
                return
            raise
    for key, value in rows:
        if (key not in DEFAULT_SETTINGS and key not in METADATA) or not _SETTING_VALUE.fullmatch(str(value)):
            raise sqlite3.DatabaseError(f"unexpected setting {str(key)[:40]!r}")


def open_cache(directory: Path | None) -> ResultCache:
    """The cache at `directory`; a private temporary one when it is None or unusable."""
    if directory is not None:
        try:
            return ResultCache(Path(directory))
        except LeftAlone as exc:
            warn_once(str(exc))
        except (OSError, sqlite3.Error) as exc:
            warn_once(f"cannot use the cache directory {directory} ({_reason(exc)}); running without the cache")
    try:
        scratch = tempfile.mkdtemp(prefix="pypto-ir-trace-cache-")
        atexit.register(shutil.rmtree, scratch, ignore_errors=True)  # forked workers leave via os._exit
        return ResultCache(Path(scratch))
    except (OSError, sqlite3.Error) as exc:
        warn_once(f"cannot make a temporary cache either ({_reason(exc)}); results are kept in memory for this run")
        return ResultCache(Path("<memory>"), _MemoryStore())

"""The result cache read without diskcache: what a rerun needs to find its report current, and nothing more.

Opening the cache through diskcache costs a warm rerun its import and, on every open, dozens of SQLite
statements (settings read and written, tables and triggers made sure of) and two connections. A rerun whose
report is current only reads a few entries, so it reads them here: sqlite3 directly, read-only, one SELECT
per entry, each value checked as `store.ResultCache.get` checks it. Anything unexpected (no database, a
locked or damaged one, an entry stored otherwise than our text, a checksum that does not match) is
`Unreadable`: the caller then takes the ordinary path, which opens the cache, says what is damaged and
rebuilds it. Nothing here writes, so it can never damage what the ordinary path would have repaired.
"""

from __future__ import annotations

import os
import sqlite3
import stat
from pathlib import Path

from ir_trace.cache.on_disk import VALUE_FILE, decode_entry

# diskcache's modes (diskcache.core; a test holds these equal): a value in its row, or text in a value file.
MODE_RAW = 1
MODE_TEXT = 3
_SQLITE_HEADER = b"SQLite format 3\0"
_SELECT = "SELECT mode, filename, value, expire_time FROM Cache WHERE key = ? AND raw = 1"


class Unreadable(Exception):
    """The cache cannot be read here with certainty: take the ordinary path (diskcache)."""


class ReadOnlyCache:
    """The entries of the result cache at `directory`, read-only: `get` and `in` as `store.ResultCache`'s,
    except that whatever `ResultCache` would drop as damaged (or cannot know) raises `Unreadable`."""

    def __init__(self, directory: Path):
        self.directory = directory
        database = directory / "cache.db"
        try:
            with open(os.open(database, os.O_RDONLY | os.O_NONBLOCK), "rb") as file:  # never wait on a FIFO
                if not stat.S_ISREG(os.fstat(file.fileno()).st_mode) or file.read(16) not in (_SQLITE_HEADER, b""):
                    # damaged, its -wal maybe not (empty, all is in the -wal still): the ordinary path moves it aside
                    raise Unreadable(f"{database} is not an SQLite database")
            uri = f"file:{_quoted(database)}?mode=ro"
            self._connection = sqlite3.connect(uri, uri=True, timeout=60, isolation_level=None)
        except (OSError, sqlite3.Error) as exc:
            raise Unreadable(str(exc)) from exc

    def __enter__(self) -> ReadOnlyCache:
        return self

    def __exit__(self, *_exc) -> None:
        self._connection.close()

    def get(self, key: str):
        """The stored value (JSON), or None when the cache holds no entry under `key`."""
        stored = self._stored(key)
        if stored is None:
            return None
        try:
            return decode_entry(stored)
        except ValueError as exc:  # a checksum that does not match, or not JSON
            raise Unreadable(f"{exc} under {key}") from exc

    def __contains__(self, key: str) -> bool:
        return self._row(key) is not None

    def _row(self, key: str) -> tuple | None:
        try:
            rows = self._connection.execute(_SELECT, (key,)).fetchall()
        except sqlite3.Error as exc:
            raise Unreadable(str(exc)) from exc
        if not rows:
            return None
        if len(rows) > 1 or rows[0][3] is not None:  # our entries never expire: another writer's
            raise Unreadable(f"an entry under {key} not written by this tool")
        return rows[0]

    def _stored(self, key: str) -> str | None:
        row = self._row(key)
        if row is None:
            return None
        mode, filename, value, _expires = row
        if mode == MODE_RAW and isinstance(value, str):
            return value
        if mode != MODE_TEXT or not isinstance(filename, str) or not VALUE_FILE.fullmatch(filename):
            raise Unreadable(f"an entry under {key} stored otherwise than as our text")
        path = self.directory / filename
        try:
            if not stat.S_ISREG(os.lstat(path).st_mode):
                raise Unreadable(f"value file is not a regular file: {filename}")
            with open(path, encoding="utf-8") as file:  # as diskcache reads a text value
                return file.read()
        except (OSError, UnicodeDecodeError) as exc:  # a concurrent replacement, or damage: diskcache decides
            raise Unreadable(str(exc)) from exc


def _quoted(path: Path) -> str:
    """`path` inside a file: URI (`?` and `#` would end the path part; `%` starts an escape)."""
    return str(path.absolute()).replace("%", "%25").replace("?", "%3f").replace("#", "%23")

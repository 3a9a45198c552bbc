"""What one process keeps between the tasks it runs: the result cache's handle, the texts it read, the
snapshots it analysed, the traces it validated, and the guard its writes go through. One object, so
every cache a run holds is in one place, and a forked worker's copy is told apart from its parent's.
"""

from __future__ import annotations

import contextlib
import os
from collections import OrderedDict
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from ir_trace.cache.store import ResultCache
from ir_trace.inputs.file_hashes import FileHashes

if TYPE_CHECKING:
    from ir_trace.inputs.traces import Trace
    from ir_trace.runsafety.run_guard import RunGuard


_Key = TypeVar("_Key")
_Value = TypeVar("_Value")


class Recent(Generic[_Key, _Value]):
    """The most recently used values, at most `limit` of them, or of `limit` total size by `size_of`."""

    def __init__(self, limit: int, size_of: Callable[[_Value], int] = lambda _value: 1):
        self.limit, self.size_of, self.size = limit, size_of, 0
        self._values: OrderedDict[_Key, _Value] = OrderedDict()

    def get(self, key: _Key) -> _Value | None:
        value = self._values.get(key)
        if value is not None:
            self._values.move_to_end(key)
        return value

    def put(self, key: _Key, value: _Value) -> None:
        if key not in self._values:
            self.size += self.size_of(value)
        self._values[key] = value
        self._values.move_to_end(key)
        while self.size > self.limit and len(self._values) > 1:
            self.size -= self.size_of(self._values.popitem(last=False)[1])

    def make_room(self, size: int) -> None:
        """Let the oldest values go until one of `size` more fits (all of them if need be): a huge text
        about to be read is not read while the last huge one is still held."""
        while self._values and self.size + size > self.limit:
            self.size -= self.size_of(self._values.popitem(last=False)[1])

    def take(self, key: _Key) -> _Value | None:
        """The value, no longer kept here (None when it is not)."""
        value = self._values.pop(key, None)
        if value is not None:
            self.size -= self.size_of(value)
        return value


def _result_size(result: Any) -> int:
    """A report.model.PairDiff's size, roughly, in characters (its hunks' after lines and a little per hunk), or
    a pipeline.snapshots.SliceResult's (a little per function)."""
    if not hasattr(result, "hunks"):
        return 32 * len(result.functions or ()) + 64
    return sum(64 + sum(map(len, hunk.after_lines)) + 16 * len(hunk.pairs) for hunk in result.hunks) + 64


_SNAPSHOT_CHARS = 1 << 22  # a snapshot counts as one of the eight kept up to this size, by its size past it


def _snapshot_size(snapshot: Any) -> int:
    return max(_SNAPSHOT_CHARS, snapshot.chars)


class Session:
    """This process's caches and guard (see the module's docstring).

    `open_cache` opens the configured result cache; it is called once per process (a worker forked
    from this one opens its own handle: a database connection does not survive a fork), while the
    in-memory caches and the guard are inherited by the fork, as the task it runs is.
    """

    def __init__(self, open_cache: Callable[[], ResultCache]):
        self._open_cache = open_cache
        self._cache: ResultCache | None = None
        self._cache_pid = 0
        self.guard: RunGuard | None = None  # what keeps a report's write safe from signals (None: nobody supervises)
        # Texts read by validation, for the work that follows (so no file is read twice), and by the work: 32 M
        # characters.
        self.texts: Recent[str, str] = Recent(1 << 25, len)
        # The hashes validation found for the files it read or recalled, by stat stamp: a text read again for the
        # work that follows (one `texts` let go) is not hashed again while its file's stamp is the one validated.
        self.file_hashes = FileHashes()
        # Snapshots analysed (pipeline.snapshots.LoadedSnapshot, by hash and kind): adjacent pairs and
        # slices reuse each other's work. Eight, fewer when they are large (one with a 100 MB line holds
        # its text, its lines and their analysis: the latest alone is kept then, for the next pair).
        self.snapshots: Recent[tuple[str, str], Any] = Recent(8 * _SNAPSHOT_CHARS, _snapshot_size)
        # Traces validated, by their cache key (which names the dump's state): a report reads one dump,
        # a comparison two; Luigi's completeness checks ask for them several times a run.
        self.traces: Recent[str, list[Trace]] = Recent(4)
        # Diffs and slicings this process computed and wrote to the cache, by cache key, until the report that
        # assembles them takes them: a cold run does not read back and decode what it has just written (the
        # typed object equals the one the stored JSON gives: tests/test_session_diffs.py). A worker forked for
        # `--workers` keeps its own; the report then reads the cache, as before. At most ~16 M characters of
        # hunks and functions (the oldest go first), so a stream of thousands of traces holds no more than it did.
        self.results: Recent[str, Any] = Recent(1 << 24, _result_size)
        # `[ir_trace] follow_inner_symlinks` as the batch of work running read it (None: read it where asked): Luigi
        # works out a configuration's parameters at each ask, a third of a millisecond per snapshot read.
        self.follow_links: bool | None = None

    def forget(self) -> None:
        """Let go of every text, snapshot, trace and diff kept (the cache handle and the guard stay)."""
        for kept in (self.texts, self.snapshots, self.traces, self.results):
            kept.make_room(kept.limit + 1)

    def make_room(self, chars: int) -> None:
        """Before a text of about `chars` characters is read: the kept texts and snapshots let their oldest
        go until it fits, so a dump with a 100 MB line holds one such snapshot at a time, not the last too."""
        self.texts.make_room(chars)
        self.snapshots.make_room(max(chars, _SNAPSHOT_CHARS))

    @property
    def cache(self) -> ResultCache:
        if self._cache is None or self._cache_pid != os.getpid():
            self.adopt(self._open_cache())
        assert self._cache is not None
        return self._cache

    def adopt(self, cache: ResultCache) -> None:
        """Use a cache this process has already opened (and checked) from now on."""
        self._cache, self._cache_pid = cache, os.getpid()

    @contextlib.contextmanager
    def guarding(self, guard: RunGuard | None) -> Iterator[None]:
        """Reports written meanwhile go through `guard` (a caller's: the command's supervised child's)."""
        outer, self.guard = self.guard, guard
        try:
            yield
        finally:
            self.guard = outer

    def text_keeper(self) -> Callable[[str, str], bool]:
        """What one validation hands its texts to (`discovery.TextSink`), for the work that follows: the first that
        fit within the texts' limit are kept, older texts (an earlier dump's) let go for them; False once one does
        not fit (validation then hands over no more). The work takes them in the order validation read them, so
        the first are those it needs first (the last, kept before, were let go before the work reached them)."""
        room = self.texts.limit

        def keep(sha256: str, text: str) -> bool:
            nonlocal room
            if len(text) > room:
                return False
            room -= len(text)
            self.texts.put(sha256, text)
            return True

        return keep

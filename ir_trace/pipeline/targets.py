"""Targets: one cache entry (intermediate results), and the report file itself."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import luigi

from ir_trace.cache.fingerprints import report_key, state_of, summary_key, written_key
from ir_trace.cache.report_record import ReportRecord, current_record, last_write, still_on_disk, with_summary
from ir_trace.pipeline.config import shared_cache
from ir_trace.runsafety.run_guard import RunGuard
from ir_trace.runsafety.writes import write_output
from ir_trace.summaries.runs import ReportSummary


class CacheTarget(luigi.Target):
    """Complete when the cache holds an intact value under `key`; writing marks completion."""

    def __init__(self, key: str):
        self.key = key

    def exists(self) -> bool:
        return self.key in shared_cache()

    def read(self):
        return shared_cache().get(self.key)

    def write(self, value) -> None:
        shared_cache().put(self.key, value)


class ReportTarget(luigi.Target):
    """A report file that exists only while it is current: this host's record of the last write
    at `path` carries `fingerprint` (the report's inputs, options, templates and versions) and the
    state (inode, size, mtime) of the file then written, and the file at `path` still has it.

    The state is taken from the temporary file before it is renamed into place, so a file another
    run renamed over ours afterwards can never pass for ours: its state differs.

    `fingerprint` may be a function giving it (None while it cannot be known yet): a task's
    `output()` then stays a pure function of its parameters, and the fingerprint is worked out
    when Luigi asks whether the target exists, from the inputs as they are at that moment.
    """

    def __init__(
        self,
        path: str,
        fingerprint: str | Callable[[], str | None] | None,
        label: str = "--report",
        guard: RunGuard | None = None,
    ):
        self.path = str(Path(path).absolute())
        self._fingerprint = fingerprint
        self.label = label  # the argument that named the path, first in a write error
        self.guard = guard  # the run's file guarantees (a process nobody supervises when None)

    @property
    def fingerprint(self) -> str | None:
        return self._fingerprint() if callable(self._fingerprint) else self._fingerprint

    @fingerprint.setter
    def fingerprint(self, fingerprint: str) -> None:
        """Known once the inputs are read (a report built without a scheduler: `build_report_here`)."""
        self._fingerprint = fingerprint

    def _last_write(self) -> ReportRecord | None:
        return last_write(shared_cache(), self.path)

    @staticmethod
    def with_summary(record: ReportRecord | None) -> ReportRecord | None:
        return with_summary(shared_cache(), record)

    def _still_on_disk(self, record: ReportRecord | None) -> bool:
        return still_on_disk(record, self.path)

    def record(self) -> ReportRecord | None:
        """What the last write at this path recorded, if it was for this fingerprint."""
        fingerprint = self.fingerprint
        record = self._last_write() if fingerprint is not None else None
        return record if record is not None and record.fingerprint == fingerprint else None

    def exists(self) -> bool:
        return current_record(shared_cache(), self.path, self.fingerprint) is not None

    def published(self) -> ReportRecord | None:
        """The last write's record while the file still has the state then written, whatever its
        fingerprint: the report a run just wrote even when the dump changed since it was read."""
        record = self._last_write()
        return record if self._still_on_disk(record) else None

    def written_state(self) -> tuple[int, ...] | None:
        """The state of the file last written at this path (any fingerprint): unchanged by a run that
        found the report current, so comparing it before and after tells whether a run rewrote it."""
        record = self._last_write()
        return record.state if record else None

    def write(self, html: str, summary: ReportSummary, pairs: int) -> ReportRecord:
        """Write the page atomically, then record it (its summary under its own key); returns the
        record, summary included."""
        written: dict = {}
        size = write_output(
            Path(self.path),
            html,
            label=self.label,
            before_rename=lambda info: written.update(state=state_of(info)),
            guard=self.guard,
        )
        state = tuple(written["state"]) if "state" in written else None
        fingerprint = self.fingerprint
        assert fingerprint is not None  # known by the time a task writes: it has read its inputs
        record = ReportRecord(fingerprint, state, size, pairs)
        cached = {summary_key(record.fingerprint): summary.to_json(), report_key(self.path): record.to_json()}
        cached[written_key(self.path, record.fingerprint)] = record.to_json()
        shared_cache().put_many(cached)
        return replace(record, summary=summary)

"""Targets: one cache entry (intermediate results), and the report file itself."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import luigi

from ir_trace.fingerprints import file_state, report_key, state_of, summary_key
from ir_trace.output import write_output
from ir_trace.tasks.config import shared_cache


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


@dataclass(frozen=True)
class ReportRecord:
    """What writing a report recorded: the fingerprint it was current for, the state of the file
    written (None for a stream), its size, the pairs it is made of and (loaded on demand) its summary."""

    fingerprint: str
    state: tuple[int, ...] | None
    bytes: int
    pairs: int
    summary: dict | None = None

    def to_json(self) -> dict:
        """The record as cached, without the summary (kept under its own key)."""
        state = list(self.state) if self.state is not None else None
        return {"fingerprint": self.fingerprint, "state": state, "bytes": self.bytes, "pairs": self.pairs}

    @classmethod
    def from_json(cls, data) -> ReportRecord | None:
        """The record, or None for anything else (an older layout, a damaged entry)."""
        try:
            state = tuple(data["state"]) if data["state"] is not None else None
            return cls(str(data["fingerprint"]), state, int(data["bytes"]), int(data["pairs"]))
        except (KeyError, TypeError, ValueError):
            return None


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

    def __init__(self, path: str, fingerprint: str | Callable[[], str | None] | None, label: str = "--report"):
        self.path = str(Path(path).absolute())
        self._fingerprint = fingerprint
        self.label = label  # the argument that named the path, first in a write error

    @property
    def fingerprint(self) -> str | None:
        return self._fingerprint() if callable(self._fingerprint) else self._fingerprint

    def _last_write(self) -> ReportRecord | None:
        """What the last write at this path recorded (without its summary), whatever its fingerprint;
        None when the summary it names is gone from the cache too."""
        record = ReportRecord.from_json(shared_cache().get(report_key(self.path)))
        return record if record is not None and summary_key(record.fingerprint) in shared_cache() else None

    @staticmethod
    def with_summary(record: ReportRecord | None) -> ReportRecord | None:
        """`record` with the report's summary (kept apart: Luigi's checks read the record several
        times a run, and a thousand-pass summary is hundreds of kilobytes)."""
        summary = shared_cache().get(summary_key(record.fingerprint)) if record is not None else None
        return replace(record, summary=summary) if summary is not None else None

    def _still_on_disk(self, record: ReportRecord | None) -> bool:
        """Whether the file at this path is the one `record` wrote. A report sent to a stream
        (`-o /dev/stdout`) records no state, so it never is."""
        if record is None or record.state is None:
            return False
        now = file_state(self.path)
        return now is not None and tuple(now) == record.state

    def record(self) -> ReportRecord | None:
        """What the last write at this path recorded, if it was for this fingerprint."""
        fingerprint = self.fingerprint
        record = self._last_write() if fingerprint is not None else None
        return record if record is not None and record.fingerprint == fingerprint else None

    def exists(self) -> bool:
        return self._still_on_disk(self.record())

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

    def write(self, html: str, summary: dict, pairs: int) -> ReportRecord:
        """Write the page atomically, then record it (its summary under its own key); returns the
        record, summary included."""
        written: dict = {}
        size = write_output(
            Path(self.path), html, label=self.label, before_rename=lambda info: written.update(state=state_of(info))
        )
        state = tuple(written["state"]) if "state" in written else None
        record = ReportRecord(self.fingerprint, state, size, pairs)
        shared_cache().put_many({summary_key(record.fingerprint): summary, report_key(self.path): record.to_json()})
        return replace(record, summary=summary)

"""Targets: one cache entry (intermediate results), and the report file itself."""

from __future__ import annotations

from collections.abc import Callable
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

    def _last_write(self) -> dict | None:
        """What the last write at this path recorded (without its summary), whatever its fingerprint;
        None when the summary it names is gone from the cache too."""
        record = shared_cache().get(report_key(self.path))
        if not isinstance(record, dict) or summary_key(str(record.get("fingerprint"))) not in shared_cache():
            return None
        return record

    @staticmethod
    def with_summary(record: dict | None) -> dict | None:
        """`record` with the report's summary (kept apart: Luigi's checks read the record several
        times a run, and a thousand-pass summary is hundreds of kilobytes)."""
        if record is None:
            return None
        summary = shared_cache().get(summary_key(record["fingerprint"]))
        return {**record, "summary": summary} if summary is not None else None

    def _still_on_disk(self, record: dict | None) -> bool:
        """Whether the file at this path is the one `record` wrote. A report sent to a stream
        (`-o /dev/stdout`) records no state, so it never is."""
        return record is not None and record.get("state") is not None and file_state(self.path) == record["state"]

    def record(self) -> dict | None:
        """What the last write at this path recorded, if it was for this fingerprint."""
        fingerprint = self.fingerprint
        record = self._last_write() if fingerprint is not None else None
        return record if record is not None and record.get("fingerprint") == fingerprint else None

    def exists(self) -> bool:
        return self._still_on_disk(self.record())

    def published(self) -> dict | None:
        """The last write's record while the file still has the state then written, whatever its
        fingerprint: the report a run just wrote even when the dump changed since it was read."""
        record = self._last_write()
        return record if self._still_on_disk(record) else None

    def written_state(self) -> list | None:
        """The state of the file last written at this path (any fingerprint): unchanged by a run that
        found the report current, so comparing it before and after tells whether a run rewrote it."""
        record = self._last_write()
        return record.get("state") if record else None

    def write(self, html: str, details: dict) -> dict:
        """Write the page atomically, then record it with `details` (summary, counts); returns the record,
        summary included."""
        written: dict = {}
        size = write_output(
            Path(self.path), html, label=self.label, before_rename=lambda info: written.update(state=state_of(info))
        )
        fingerprint = self.fingerprint
        summary = details["summary"]
        counts = {name: value for name, value in details.items() if name != "summary"}
        record = {**counts, "fingerprint": fingerprint, "state": written.get("state"), "bytes": size}
        shared_cache().put_many({summary_key(fingerprint): summary, report_key(self.path): record})
        return {**record, "summary": summary}

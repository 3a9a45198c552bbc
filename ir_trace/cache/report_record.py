"""What writing a report recorded, and whether the report at a path is still current.

Free of Luigi. "The report is current" is decided in one place, `current_record`: the pipeline's
`ReportTarget` answers Luigi's completeness checks with it, and the command asks `current_report`
(the same rule, from the validation the cache holds) first, so a rerun whose report is current says
so without importing or starting the pipeline (on a warm run Luigi's own import was more than half
of its CPU time).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from ir_trace.cache.fingerprints import (
    digest,
    dump_state,
    file_state,
    manifest_key,
    report_fingerprint,
    report_key,
    summary_key,
    traces_digest,
    written_key,
)
from ir_trace.cache.read_only import ReadOnlyCache, Unreadable
from ir_trace.inputs.traces import traces_from_json
from ir_trace.summaries.runs import ReportSummary

if TYPE_CHECKING:
    from ir_trace.cache.store import ResultCache


class Entries(Protocol):
    """What reading records asks of a cache: `store.ResultCache`, or `read_only.ReadOnlyCache` on the warm path."""

    def get(self, key: str): ...
    def __contains__(self, key: str) -> bool: ...


@dataclass(frozen=True)
class ReportRecord:
    """What writing a report recorded: the fingerprint it was current for, the state of the file
    written (None for a stream), its size, the pairs it is made of and (loaded on demand) its summary."""

    fingerprint: str
    state: tuple[int, ...] | None
    bytes: int
    pairs: int
    summary: ReportSummary | None = None

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


def last_write(cache: Entries, path: str) -> ReportRecord | None:
    """What the last write at `path` recorded (without its summary), whatever its fingerprint;
    None when the summary it names is gone from the cache too."""
    record = ReportRecord.from_json(cache.get(report_key(path)))
    return record if record is not None and summary_key(record.fingerprint) in cache else None


def own_write(cache: ResultCache, path: str, fingerprint: str) -> ReportRecord | None:
    """The record (summary included) of the last report with `fingerprint` written at `path`, whatever was
    written there since: what a run wrote or found current, even when a concurrent run of another dump to
    the same path replaced the file or its record afterwards. None when the cache holds no such record."""
    record = ReportRecord.from_json(cache.get(written_key(path, fingerprint)))
    if record is None or record.fingerprint != fingerprint:  # kept before this key was (or not read back)
        record = last_write(cache, path)
    return with_summary(cache, record) if record is not None and record.fingerprint == fingerprint else None


def with_summary(cache: Entries, record: ReportRecord | None) -> ReportRecord | None:
    """`record` with the report's summary (kept apart: Luigi's checks read the record several
    times a run, and a thousand-pass summary is hundreds of kilobytes)."""
    if record is None:
        return None
    try:
        summary = ReportSummary.from_json(cache.get(summary_key(record.fingerprint)))
    except (AttributeError, KeyError, TypeError, ValueError):  # none kept (None), or in an older layout
        return None
    return replace(record, summary=summary)


def still_on_disk(record: ReportRecord | None, path: str) -> bool:
    """Whether the file at `path` is the one `record` wrote. A report sent to a stream
    (`-o /dev/stdout`) records no state, so it never is."""
    if record is None or record.state is None:
        return False
    now = file_state(path)
    return now is not None and tuple(now) == record.state


def current_record(cache: Entries, path: str, fingerprint: str | None) -> ReportRecord | None:
    """The one rule for "the report at `path` is current": the last write there recorded `fingerprint`
    (the report's inputs, options, templates and versions) and the file there is still the one written.
    Returns that write's record (without its summary), else None; None for an unknown fingerprint."""
    record = last_write(cache, path) if fingerprint is not None else None
    if record is None or record.fingerprint != fingerprint or not still_on_disk(record, path):
        return None
    return record


def dump_report_fingerprint(traces: list, context: int, ignore: str) -> str:
    """A dump's report's fingerprint from the traces its validation found, with these options
    (`ignore`: `IgnoreModes.spec()`): the command's warm path and the report task both use it."""
    return report_fingerprint(traces_digest(traces), context, ignore)


def configured_state(dump: str, follow_inner_symlinks: bool) -> str:
    """The dump's state (`dump_state`) under this setting: whether links are followed changes what
    a dump validates to, so a result kept under one setting is not served under the other."""
    state = dump_state(dump)
    return digest(state, "follow-inner-symlinks") if follow_inner_symlinks else state


def current_report(
    cache: Entries,
    dump: str,
    report: str,
    context: int,
    ignore: str,
    follow_inner_symlinks: bool,
    state: str | None = None,
) -> ReportRecord | None:
    """The record (summary included) of the report at `report` when it is current: the dump's files
    are in a state already validated, and the last write at `report` is still the file there and has
    the fingerprint those traces give with these options (`ignore`: `IgnoreModes.spec()`), templates
    and versions. None whenever the pipeline has anything to check or do. `dump`, `report`: absolute.
    `state`: the dump's `configured_state` when the caller has taken it already (a scan of every file)."""
    if state is None:
        state = configured_state(dump, follow_inner_symlinks)
    data = cache.get(manifest_key(dump, state))
    try:
        traces = traces_from_json(data)
    except (KeyError, TypeError, ValueError, AttributeError):  # not validated in this state (or not a validation)
        return None
    return with_summary(cache, current_record(cache, report, dump_report_fingerprint(traces, context, ignore)))


def current_report_read_only(
    cache_dir: Path, dump: str, report: str, context: int, ignore: str, follow_inner_symlinks: bool, state: str
) -> ReportRecord | None:
    """`current_report` from the cache at `cache_dir` read without diskcache (see read_only.py): the command's
    first question, so a rerun whose report is current neither imports nor opens diskcache. None when the
    report is not current, and whenever the cache cannot be read so (the ordinary path then decides)."""
    try:
        with ReadOnlyCache(cache_dir) as cache:
            return current_report(cache, dump, report, context, ignore, follow_inner_symlinks, state)
    except Unreadable:
        return None

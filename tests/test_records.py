"""What a report task records about the file it wrote (ir_trace/tasks/targets.py)."""

from __future__ import annotations

from ir_trace.cache import ResultCache
from ir_trace.fingerprints import file_state, report_key
from ir_trace.tasks.config import adopt_cache
from ir_trace.tasks.targets import ReportRecord, ReportTarget


def test_a_record_round_trips_through_json_without_its_summary():
    record = ReportRecord("f" * 32, (1, 2, 3), 4096, 12, summary={"passes": 3})
    data = record.to_json()
    assert data == {"fingerprint": "f" * 32, "state": [1, 2, 3], "bytes": 4096, "pairs": 12}
    assert ReportRecord.from_json(data) == ReportRecord("f" * 32, (1, 2, 3), 4096, 12)
    assert ReportRecord.from_json({**data, "state": None}).state is None


def test_anything_but_a_record_reads_as_none():
    for data in (None, [], {"fingerprint": "x"}, {"fingerprint": "x", "state": 5, "bytes": 1, "pairs": 1}):
        assert ReportRecord.from_json(data) is None


def test_a_written_report_is_current_with_its_summary_and_stale_without_it(tmp_path):
    cache = ResultCache(tmp_path / "cache")
    adopt_cache(cache)
    target = ReportTarget(str(tmp_path / "r.html"), "fp")
    written = target.write("<html></html>", {"passes": 2}, 5)
    assert written.summary == {"passes": 2} and written.pairs == 5
    assert written.state == tuple(file_state(tmp_path / "r.html"))
    assert target.exists() and ReportTarget.with_summary(target.record()) == written
    assert len(str(cache.get(report_key(str(tmp_path / "r.html"))))) < 200  # the summary is not in it
    cache._cache.delete(f"summary/{written.fingerprint}")
    assert not target.exists()  # a record whose summary is lost is no record

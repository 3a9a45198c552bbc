"""What a report task records about the file it wrote (cache/report_record.py, pipeline/targets.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conftest import run_cli

from ir_trace.cache.fingerprints import file_state, report_key
from ir_trace.cache.report_record import current_report
from ir_trace.cache.store import ResultCache
from ir_trace.pipeline.config import adopt_cache
from ir_trace.pipeline.targets import ReportRecord, ReportTarget
from ir_trace.summaries.runs import ReportSummary, RunCounts

COUNTS = RunCounts(passes=2, changed=1, noop=1, warnings=0, inserted=3, deleted=1)
SUMMARY = ReportSummary({"passes": []}, counts=COUNTS)


def test_a_record_round_trips_through_json_without_its_summary():
    record = ReportRecord("f" * 32, (1, 2, 3), 4096, 12, summary=SUMMARY)
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
    written = target.write("<html></html>", SUMMARY, 5)
    assert written.summary == SUMMARY and written.pairs == 5
    assert written.state == tuple(file_state(tmp_path / "r.html"))
    assert target.exists() and ReportTarget.with_summary(target.record()) == written
    assert len(str(cache.get(report_key(str(tmp_path / "r.html"))))) < 200  # the summary is not in it
    cache._cache.delete(f"summary/{written.fingerprint}")
    assert not target.exists()  # a record whose summary is lost is no record


def test_a_summary_in_another_layout_reads_as_none(tmp_path):
    cache = ResultCache(tmp_path / "cache")
    adopt_cache(cache)
    target = ReportTarget(str(tmp_path / "r.html"), "fp")
    written = target.write("<html></html>", SUMMARY, 5)
    cache.put(f"summary/{written.fingerprint}", {"passes": 2})  # no --json document, no counts
    assert target.record() is not None and ReportTarget.with_summary(target.record()) is None


# ---------- a report found current without the pipeline (ir_trace/cache/report_record.py) ----------


def _current(cache: ResultCache, dump: Path, report: Path, context: int = 3):
    return current_report(cache, str(dump), str(report), context, "", False)


def test_a_report_is_current_only_for_its_dump_state_options_and_file(tmp_path, demo_dump):
    report, cache_dir = tmp_path / "r.html", tmp_path / "cache"
    assert _current(ResultCache(cache_dir), demo_dump, report) is None  # nothing validated yet
    assert run_cli(demo_dump, "-o", report, "--cache-dir", cache_dir).returncode == 0
    cache = ResultCache(cache_dir)
    record = _current(cache, demo_dump, report)
    assert record is not None and record.summary.counts.passes == 3 and record.state == tuple(file_state(report))
    assert _current(cache, demo_dump, report, context=5) is None  # other options: another report
    assert current_report(cache, str(demo_dump), str(report), 3, "", True) is None  # links followed: another state
    os.utime(report, ns=(1, 1))
    assert _current(cache, demo_dump, report) is None  # the file there is no longer the one written
    assert run_cli(demo_dump, "-o", report, "--cache-dir", cache_dir).returncode == 0
    assert _current(ResultCache(cache_dir), demo_dump, report) is not None
    (demo_dump / "02_after_Simplify.py").write_text("x = 2\n", encoding="utf-8")
    assert _current(ResultCache(cache_dir), demo_dump, report) is None  # the dump changed


def _imported(line: str, packages: tuple[str, ...] = ("luigi",)) -> bool:
    """A line of `-X importtime` saying one of `packages` was imported (`import time: 1 | 2 |   luigi`)."""
    return line.startswith("import time:") and line.rsplit("|", 1)[-1].strip() in packages


WARM_PATH_NEVER_IMPORTS = (
    "ir_trace.diffcore.linediff",
    "ir_trace.diffcore.intraline",
    "ir_trace.diffcore.matching",
    "ir_trace.report.ignore_counts",
    "ir_trace.summaries.trace",
    "ir_trace.syntax.functions",
    "ir_trace.cache.store",  # the cache is read without diskcache (cache/read_only.py)
    "diskcache",
    "ir_trace.inputs.mlir.reader",  # the traces are read from the cache: no MLIR reader (inputs/traces.py)
    "ir_trace.report.page_model",  # the fingerprints take PAYLOAD_SCHEMA from report/payload_schema.py
)


def test_a_rerun_that_finds_its_report_current_does_not_start_luigi(tmp_path, demo_dump):
    args = [demo_dump, "-o", tmp_path / "r.html", "--cache-dir", tmp_path / "cache"]
    first = run_cli(*args)
    assert first.returncode == 0 and "report unchanged" not in first.stderr
    imports = [sys.executable, "-X", "importtime", "-m", "ir_trace", *map(str, args)]
    rerun = subprocess.run(imports, capture_output=True, text=True, timeout=300)
    lines = rerun.stderr.splitlines()
    assert rerun.returncode == 0 and "0 pairs rediffed" in lines[-1] and "report unchanged" in lines[-1]
    assert not [line for line in lines if _imported(line, ("luigi", "jinja2", "multiprocessing"))]  # never imported
    # nor the diff, the ignore-mode counts and the --json summary built from them: a current report's
    # record has its summary, and the versions are hashed from the sources without importing them
    assert not [line for line in lines if _imported(line, WARM_PATH_NEVER_IMPORTS)]
    said, shown = first.stderr.splitlines()[-1].split(" · "), lines[-1].split(" · ")
    assert shown[0] == said[0] and shown[2] == said[2]  # the same passes and counts, the same report size
    again = subprocess.run(imports, capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert again.returncode == 0 and "report unchanged" in again.stderr
    (tmp_path / "r.html").unlink()
    rebuilt = subprocess.run(imports, capture_output=True, text=True, timeout=300)
    assert rebuilt.returncode == 0 and "report unchanged" not in rebuilt.stderr
    assert [line for line in rebuilt.stderr.splitlines() if _imported(line)]  # the pipeline ran


def test_the_command_and_the_report_task_agree_on_when_a_report_is_current(tmp_path, demo_dump):
    """One rule (`current_record`): the command's warm path and Luigi's completeness check of the task."""
    from ir_trace.cache.report_record import configured_state
    from ir_trace.pipeline import RenderReport

    report, cache_dir = tmp_path / "r.html", tmp_path / "cache"
    assert run_cli(demo_dump, "-o", report, "--cache-dir", cache_dir).returncode == 0
    cache = ResultCache(cache_dir)
    adopt_cache(cache)

    def task(context: int = 3) -> RenderReport:
        state = configured_state(str(demo_dump), False)
        return RenderReport(dump=str(demo_dump), report=str(report), context=context, state=state)

    assert task().complete() and _current(cache, demo_dump, report) is not None
    assert not task(context=5).complete() and _current(cache, demo_dump, report, context=5) is None
    os.utime(report, ns=(1, 1))
    assert not task().complete() and _current(cache, demo_dump, report) is None

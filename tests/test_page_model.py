"""The typed report model (ir_trace/report/page_model.py): every type reads back what it writes, on the
real samples' payloads, and the summaries made from a model read back from a page are the run's own."""

from __future__ import annotations

from pathlib import Path

import pytest
from browser_support import build_report
from conftest import mlir_sample, mlir_samples, real_dumps

from ir_trace.report.page_model import PassRecord, Report, Trace
from ir_trace.report.pass_diff import PassDiff
from ir_trace.report.render import read_payload
from ir_trace.summaries.trace import run_counts, trace_summary

MLIR_DUMPS = [mlir_samples("tree")[0], mlir_samples("stream.txt")[0]]


def page_payload_and_json(dump: Path, tmp_path: Path) -> tuple[dict, dict]:
    """The payload a report page carries and the run's own `--json` document, under two ignore modes."""
    import json

    out = build_report(dump, tmp_path / "r.html", "--ignore", "ssa,memref", "--json", str(tmp_path / "s.json"))
    return read_payload(out.read_text(encoding="utf-8"), as_written=True), json.loads(
        (tmp_path / "s.json").read_text("utf-8")
    )


def assert_every_type_round_trips(payload: dict) -> Report:
    report = Report.from_json(payload)
    assert report.to_json() == payload  # the page's exact JSON, key order included
    assert list(report.to_json()) == list(payload)
    assert Report.from_json(report.to_json()) == report
    for trace in report.traces:
        assert Trace.from_json(trace.to_json()) == trace
        for record in trace.passes:
            assert PassRecord.from_json(record.to_json()) == record
    return report


def pass_rows(document: dict) -> list[dict]:
    """Every pass row of a `--json` document but its file (named from the path given, which a page's
    portable payload no longer holds)."""
    traces = document.get("traces", [document])
    return [{k: v for k, v in row.items() if k != "file"} for trace in traces for row in trace["passes"]]


@pytest.mark.samples
@pytest.mark.parametrize("dump", real_dumps(), ids=lambda d: d.parent.name if d else "none")
def test_the_model_reads_back_every_real_pypto_payload(dump, tmp_path):
    payload, document = page_payload_and_json(dump, tmp_path)
    report = assert_every_type_round_trips(payload)
    assert report.ignore.to_json() == {"modes": ["ssa", "memref"], "regex": None}
    assert pass_rows(trace_summary(report)) == pass_rows(document)
    assert run_counts(report).passes == len(document["passes"]) > 0


@pytest.mark.samples
@pytest.mark.parametrize("sample", MLIR_DUMPS, ids=lambda d: d.name if d else "none")
def test_the_model_reads_back_mlir_trees_and_streams(sample, tmp_path):
    payload, document = page_payload_and_json(mlir_sample(sample), tmp_path)
    report = assert_every_type_round_trips(payload)
    records = [record for trace in report.traces for record in trace.passes]
    assert any(record.header is not None for record in records)  # MLIR records keep their dump headers
    assert pass_rows(trace_summary(report)) == pass_rows(document)


def test_a_record_keeps_what_its_snapshot_has_and_nothing_more():
    base = PassRecord(0, "frontend", "00.py", "s0", True, lines=("x",), sliced=True, functions=(("f", 0, 1),))
    same = PassRecord(1, "A", "01.py", "s0", True, diff=PassDiff())  # equal to the previous snapshot: no functions
    assert same.to_json()["hunks"] == [] and not same.to_json()["changed"] and "lines" not in same.to_json()
    assert base.to_json()["functions"] == [["f", 0, 1]] and "hunks" not in base.to_json()
    unsliceable = PassRecord(2, "B", "02.py", "s1", False, diff=PassDiff(), sliced=True, parse_error="unbalanced")
    assert unsliceable.to_json()["functions"] is None and unsliceable.to_json()["parse_error"] == "unbalanced"
    assert "functions" not in same.to_json() and "ignore_counts" not in same.to_json()
    assert PassRecord.from_json(unsliceable.to_json()) == unsliceable and PassRecord.from_json(same.to_json()) == same


def test_a_payload_of_another_schema_is_refused():
    with pytest.raises(ValueError, match="payload schema 2"):
        Report.from_json({"schema": 2})

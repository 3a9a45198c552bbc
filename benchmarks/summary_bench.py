#!/usr/bin/env python3
"""What deriving a report's summary costs (ir_trace/summaries/; figures in BENCHMARKS.md):

    python benchmarks/summary_bench.py REPORT.html [--runs 7]

Reads the payload out of a report written by the command into the typed model (`Report`), then
times `report_summary` (the counts and the `--json` document a report's record keeps) exactly and
under the ignore modes the report was written with (`--ignore`), the closing line from it, and the
model's own `to_json` / `from_json`. Medians, in ms.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from ir_trace.noise.normalize import IgnoreModes  # noqa: E402
from ir_trace.report.page_model import Report  # noqa: E402
from ir_trace.report.render import read_payload  # noqa: E402
from ir_trace.summaries.line import summary_line  # noqa: E402
from ir_trace.summaries.runs import RunOutcome  # noqa: E402
from ir_trace.summaries.trace import report_summary  # noqa: E402


def median_ms(work, runs: int) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report", type=Path)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    payload = read_payload(args.report.read_text(encoding="utf-8"))
    report = Report.from_json(payload)
    exact = Report.from_json({**payload, "ignore": None})
    summary = report_summary(exact)
    outcome = RunOutcome(str(args.report), 0, 0, 0, False, summary)
    print(f"passes: {summary.counts.passes}, changed: {summary.counts.changed}")
    print(f"report_summary, exact: {median_ms(lambda: report_summary(exact), args.runs):.0f} ms")
    if report.ignore != IgnoreModes():
        print(f"report_summary, {payload['ignore']}: {median_ms(lambda: report_summary(report), args.runs):.0f} ms")
    print(f"summary_line: {median_ms(lambda: summary_line(outcome, 0.0), args.runs):.2f} ms")
    print(f"Report.from_json: {median_ms(lambda: Report.from_json(payload), args.runs):.1f} ms")
    print(f"Report.to_json: {median_ms(report.to_json, args.runs):.1f} ms")


if __name__ == "__main__":
    main()

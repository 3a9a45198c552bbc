"""A sweep program's traces (no Luigi): its pass rows trace by trace, grouped again for a
comparison with the baseline, and links into a report of several traces.

A program's record lists its traces (`traces`: stage, unit, pass counts) and every snapshot of
every trace in pipeline order (`passes`), each row naming its trace by position (`trace`). A
sweep.json written before programs had traces has neither `traces` nor `trace`: its one trace is
PyPTO's.
"""

from __future__ import annotations

from urllib.parse import quote

from ir_trace.inputs.traces import Trace
from ir_trace.summaries.passes import PassSummary

_OLD_TRACE = {"stage": "pypto", "unit": ""}  # what every program of an older sweep.json was


def pass_rows(manifest: dict, trace: dict) -> list[dict]:
    """sweep.json's per-pass entries: the manifest's snapshots with the report's +/- counts
    (`trace` is the report's summary of that trace, see ir_trace/summaries/trace.py)."""
    summaries = [PassSummary.from_json(row) for row in trace["passes"]]
    counts = {row.index: (row.changes.inserted, row.changes.deleted) for row in summaries}
    rows, previous = [], None
    for snapshot in manifest["snapshots"]:
        sha = snapshot["sha256"]
        inserted, deleted = counts.get(snapshot["index"], (0, 0))
        rows.append(
            {
                "index": snapshot["index"],
                "name": snapshot["name"],
                "sha256": sha,
                "changed": previous is not None and sha != previous,
                "inserted": inserted,
                "deleted": deleted,
                "warning": snapshot["log_file"] is not None,
            }
        )
        previous = sha
    return rows


def record_traces(traces: list[Trace], summary: dict) -> tuple[list[dict], list[dict]]:
    """(traces, passes) of a program's record from its traces and its report's summary
    (`summary["trace"]`, one trace's or several's)."""
    per_trace = summary["traces"] if "traces" in summary else [summary]
    listed, rows = [], []
    for position, (trace, counts) in enumerate(zip(traces, per_trace)):
        own = pass_rows(trace.manifest.to_json(), counts)
        changed = sum(row["changed"] for row in own)
        listed.append({"stage": trace.stage, "unit": trace.unit, "passes": len(own) - 1, "changed": changed})
        rows += [{**row, "trace": position} for row in own]
    return listed, rows


def trace_key(trace: dict) -> str:
    """How a trace is matched with the baseline's and named in a report link: `stage:unit`."""
    return f"{trace['stage']}:{trace['unit']}"


def passes_by_trace(program: dict) -> list[tuple[str, list[dict]]]:
    """(trace key, its pass rows) for each trace of a valid program, in pipeline order."""
    traces = program.get("traces") or [_OLD_TRACE]
    groups: list[list[dict]] = [[] for _ in traces]
    for row in program["passes"]:
        groups[row.get("trace", 0)].append(row)
    return [(trace_key(trace), group) for trace, group in zip(traces, groups)]


def traces_problem(program: dict) -> str | None:
    """What makes a baseline program's traces unusable (a hand edit, a truncated copy), if anything."""
    traces = program.get("traces")
    if traces is None:
        count = 1
    elif not isinstance(traces, list) or not traces:
        return "has a traces field that is no list of traces"
    elif any(
        not isinstance(t, dict) or not isinstance(t.get("stage"), str) or not isinstance(t.get("unit"), str)
        for t in traces
    ):
        return "has a trace without stage or unit"
    else:
        count = len(traces)
    for row in program.get("passes") or []:
        position = row.get("trace", 0)
        if not isinstance(position, int) or isinstance(position, bool) or not 0 <= position < count:
            return "has a pass of a trace it does not list"
    return None


def trace_link(report: str, key: str, index: int, passes: list[dict]) -> str:
    """The report of several traces opened at pass `index` of trace `key` (`passes`: its rows now).
    Its first snapshot is no pass of its own: the link then names the trace alone, which opens its
    first changed pass; a pass only the baseline had opens the trace's last one."""
    index = min(index, len(passes) - 1)
    fragment = f"trace={quote(key, safe=':@')}"
    return f"{report}#{fragment}&pass={passes[index]['index']}" if index > 0 else f"{report}#{fragment}"

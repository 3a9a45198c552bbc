"""The one line a successful run ends with (stderr): what was written, what changed, what came
from the cache."""

from __future__ import annotations

from ir_trace.noise.normalize import IgnoreModes
from ir_trace.runsafety.writes import shown_path
from ir_trace.summaries.passes import PassSummary
from ir_trace.summaries.runs import ComparisonCounts, ReportSummary, RunCounts, RunOutcome, TracesCompared


def summary_line(outcome: RunOutcome, seconds: float) -> str:
    body = summary_body(outcome.summary)
    reuse = f"{outcome.rediffed} pairs rediffed, {outcome.pairs - outcome.rediffed} from cache"
    if outcome.reused:
        reuse += ", report unchanged"
    return f"wrote {shown_path(outcome.report)}: {body} · {reuse} · {_size(outcome.bytes)} · {seconds:.1f} s"


def summary_body(summary: ReportSummary) -> str:
    """What the report shows, in words: "12 passes (5 changed, ...)" or a comparison's counts."""
    if summary.comparison is not None:
        return _comparison_body(summary.comparison)
    assert summary.counts is not None  # a summary holds a comparison's counts or a report's
    return _report_body(summary.counts, summary.trace)


def _report_body(counts: RunCounts, trace: dict) -> str:
    if counts.passes == 0:
        only = "one MLIR dump" if trace.get("kind") == "mlir" else "00_frontend.py"
        return f"no pass snapshot exists (only {only})"
    traces = f"{counts.traces} traces, " if counts.traces is not None else ""
    warnings = f"{counts.warnings} warning{'s' if counts.warnings != 1 else ''}"
    return (
        f"{traces}{counts.passes} passes ({counts.changed} changed, {counts.noop} no-op, "
        f"{warnings}{_ignoring_note(trace)})"
    )


def _ignoring_note(trace: dict) -> str:
    """ "; 3 changed when ignoring SSA versions" when the report starts with ignore modes on."""
    if not trace.get("ignore"):
        return ""
    rows = [PassSummary.from_json(row) for one in trace.get("traces", [trace]) for row in one["passes"]]
    changed = sum(1 for row in rows if row.ignoring is not None and row.ignoring.changed)
    return f"; {changed} changed when ignoring {IgnoreModes.from_json(trace['ignore']).describe()}"


def _comparison_body(counts: ComparisonCounts) -> str:
    first = counts.first_difference
    traces = counts.traces
    if first:
        where = f"first at pass {first.index:02d} {first.name}{_in_trace(traces.first_difference if traces else None)}"
    else:
        where = "identical pass outputs, the frontends differ" if counts.frontends_differ else "identical outputs"
    return (
        f"{_traces_paired(traces)}{counts.compared} passes compared ({counts.differ} differ, {counts.renamed} renamed, "
        f"{counts.only_a} only in A, {counts.only_b} only in B; {where}{_differ_ignoring(counts)})"
        f"{_behaviour_note(counts)}{_shown_trace(traces)}"
    )


def _traces_paired(traces: TracesCompared | None) -> str:
    """ "2 traces paired (ptoas kernel_c only in A), " when either run holds several traces."""
    if traces is None:
        return ""
    alone = [f"{_label(key)} only in A" for key in traces.only_in_a]
    alone += [f"{_label(key)} only in B" for key in traces.only_in_b]
    paired = f"{traces.paired} trace{'s' if traces.paired != 1 else ''} paired"
    return f"{paired}{' (' + ', '.join(alone) + ')' if alone else ''}, "


def _shown_trace(traces: TracesCompared | None) -> str:
    """ "; the page shows ptoas kernel_a" when the report holds one pair of several."""
    return f"; the page shows {_label(traces.shown)}" if traces is not None and traces.paired > 1 else ""


def _in_trace(key: str | None) -> str:
    return f" in {_label(key)}" if key else ""


def _label(key: str) -> str:
    """A trace key (`ptoas:kernel_a`) as the report names the trace (`ptoas kernel_a`)."""
    return key.replace(":", " ", 1).strip()


def _differ_ignoring(counts: ComparisonCounts) -> str:
    """ "; 0 differ when ignoring SSA versions" when the comparison has ignore modes on."""
    if counts.ignore is None:
        return ""
    return f"; {counts.differ_ignoring} differ when ignoring {IgnoreModes.from_json(counts.ignore).describe()}"


def _behaviour_note(counts: ComparisonCounts) -> str:
    """ "; first different: 35 AllocateMemoryAddr, 14 carried over" once a pass behaved differently."""
    first = counts.first_different
    if first is None:
        return ""
    trace = _in_trace(counts.traces.first_different if counts.traces else None)
    return f"; first different: {first.index:02d} {first.name}{trace}, {counts.carried_over} carried over"


def _size(count: int) -> str:
    if count < 1000:
        return f"{count} B"
    return f"{count / 1000:.0f} KB" if count < 1_000_000 else f"{count / 1_000_000:.1f} MB"

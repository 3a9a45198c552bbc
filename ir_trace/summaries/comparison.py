"""The summary of a run against run (report/against.py's Comparison): its counts and its `--json` document."""

from __future__ import annotations

from ir_trace.report.against import Comparison
from ir_trace.report.page_model import PAYLOAD_SCHEMA, Report
from ir_trace.summaries.passes import MatchSummary, PassRef
from ir_trace.summaries.runs import ComparisonCounts, ReportSummary, TracesCompared


def comparison_summary(comparison: Comparison) -> ReportSummary:
    """Counts for the summary line, and the `--json` description of every matched pass."""
    rows = match_summaries(comparison)
    counts = comparison_counts(rows, comparison.ignore_json())
    return ReportSummary(
        {
            "schema": PAYLOAD_SCHEMA,
            "mode": "against",
            "generator": comparison.generator,
            "a": comparison.runs[0].dump,
            "b": comparison.runs[1].dump,
            "passes": [row.to_json() for row in rows],
            "first_different": _index_and_name(counts.first_different),
            "ignore": comparison.ignore_json(),
        },
        comparison=counts,
    )


def traces_comparison_summary(
    dumps: tuple[str, str], pairs: list[tuple[str, Comparison]], only_in_a: list[str], only_in_b: list[str], shown: str
) -> ReportSummary:
    """A run against run of several traces: `dumps` the two paths given, `pairs` (trace key, that
    pair's comparison) in A's pipeline order, `only_in_a` / `only_in_b` the keys of traces
    one run lacks, `shown` the pair the page holds. Each pair's passes are summarised alone
    (`--json` "traces"); the counts are over every pair, the first difference and the first
    different pass those of the first pair that has one."""
    summaries = [(key, comparison_summary(payload)) for key, payload in pairs]
    counts = [(key, summary.comparison) for key, summary in summaries if summary.comparison is not None]
    differing = next(((key, c) for key, c in counts if c.first_difference is not None), None)
    different = next(((key, c) for key, c in counts if c.first_different is not None), None)
    traces = TracesCompared(
        len(pairs),
        tuple(only_in_a),
        tuple(only_in_b),
        shown,
        differing[0] if differing else None,
        different[0] if different else None,
    )
    total = ComparisonCounts(
        compared=sum(c.compared for _key, c in counts),
        differ=sum(c.differ for _key, c in counts),
        renamed=sum(c.renamed for _key, c in counts),
        only_a=sum(c.only_a for _key, c in counts),
        only_b=sum(c.only_b for _key, c in counts),
        first_difference=differing[1].first_difference if differing else None,
        frontends_differ=any(c.frontends_differ for _key, c in counts),
        first_different=different[1].first_different if different else None,
        carried_over=sum(c.carried_over for _key, c in counts),
        differ_ignoring=sum(c.differ_ignoring or 0 for _key, c in counts) if pairs[0][1].ignore_json() else None,
        ignore=pairs[0][1].ignore_json(),
        traces=traces,
    )
    first = pairs[0][1]
    return ReportSummary(
        {
            "schema": PAYLOAD_SCHEMA,
            "mode": "against",
            "generator": first.generator,
            "a": dumps[0],
            "b": dumps[1],
            "traces": [_trace_document(key, summary.trace) for key, summary in summaries],
            "only_in_a": list(only_in_a),
            "only_in_b": list(only_in_b),
            "shown": shown,
            "first_different": _in_trace(_index_and_name(total.first_different), traces.first_different),
            "ignore": first.ignore_json(),
        },
        comparison=total,
    )


def _in_trace(ref: dict | None, key: str | None) -> dict | None:
    """A pass {index, name} with its trace's key (`"trace"`), or None."""
    return {**ref, "trace": key} if ref is not None else None


def _trace_document(key: str, document: dict) -> dict:
    """One pair's `--json` entry: its trace (`stage:unit`, as sweep.json names it), each run's dump,
    its passes and its first different pass."""
    stage, unit = key.split(":", 1)
    kept = ("a", "b", "passes", "first_different")
    return {"trace": key, "stage": stage, "unit": unit, **{field: document[field] for field in kept}}


def match_summaries(comparison: Comparison) -> list[MatchSummary]:
    """One row per match of the comparison; the first is the frontend's."""
    run_a, run_b = comparison.runs

    def side(run: Report, position: int | None) -> PassRef | None:
        if position is None:
            return None
        record = run.traces[0].passes[position]
        return PassRef(record.index, record.name, record.sha256)

    return [
        MatchSummary(
            side(run_a, m.a),
            side(run_b, m.b),
            m.status,
            m.differs,
            m.diff.inserted if m.diff is not None else None,
            m.diff.deleted if m.diff is not None else None,
            m.behaviour,
            m.differs_ignoring,
        )
        for m in comparison.matches
    ]


def comparison_counts(rows: list[MatchSummary], ignore: dict | None = None) -> ComparisonCounts:
    """The counts of the summary line; rows[0], the frontend, is no pass: never counted nor first.
    `ignore` (the payload's modes, when on) adds how many differ under them."""
    passes = rows[1:]
    ignoring = sum(1 for row in passes if row.differs_ignoring) if ignore else None
    first = next((row for row in passes if row.differs), None)
    first_different = next((row.a for row in passes if row.behaviour == "different"), None)
    return ComparisonCounts(
        compared=len(passes),
        differ=sum(1 for row in passes if row.differs and row.a is not None and row.b is not None),
        renamed=sum(1 for row in rows if row.status == "renamed"),
        only_a=sum(1 for row in rows if row.status == "only-a"),
        only_b=sum(1 for row in rows if row.status == "only-b"),
        first_difference=(first.a or first.b) if first else None,
        frontends_differ=rows[0].differs,
        first_different=first_different,
        carried_over=sum(1 for row in passes if row.behaviour == "carried-over"),
        differ_ignoring=ignoring,
        ignore=ignore,
    )


def _index_and_name(ref: PassRef | None) -> dict | None:
    """A pass of run A as {index, name}, or None."""
    return {"index": ref.index, "name": ref.name} if ref else None

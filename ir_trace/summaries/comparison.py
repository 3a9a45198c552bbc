"""The summary of a run against run (compare.py's payload): its counts and its `--json` document."""

from __future__ import annotations

from ir_trace.report.payload import PAYLOAD_SCHEMA
from ir_trace.summaries.passes import MatchSummary, PassRef
from ir_trace.summaries.runs import ComparisonCounts, ReportSummary


def comparison_summary(payload: dict) -> ReportSummary:
    """Counts for the summary line, and the `--json` description of every matched pass."""
    rows = match_summaries(payload)
    counts = comparison_counts(rows, payload.get("ignore"))
    return ReportSummary(
        {
            "schema": PAYLOAD_SCHEMA,
            "mode": "against",
            "generator": payload["generator"],
            "a": payload["runs"][0]["dump"],
            "b": payload["runs"][1]["dump"],
            "passes": [row.to_json() for row in rows],
            "first_different": _index_and_name(counts.first_different),
            "ignore": payload.get("ignore"),
        },
        comparison=counts,
    )


def match_summaries(payload: dict) -> list[MatchSummary]:
    """One row per match of the comparison payload; the first is the frontend's."""
    runs = payload["runs"]

    def side(run: dict, position: int | None) -> PassRef | None:
        if position is None:
            return None
        entry = run["passes"][position]
        return PassRef(entry["index"], entry["name"], entry["sha256"])

    return [
        MatchSummary(
            side(runs[0], m["a"]),
            side(runs[1], m["b"]),
            m["status"],
            m["differs"],
            m.get("inserted"),
            m.get("deleted"),
            m.get("behaviour"),
            (m.get("ignoring") or {}).get("differs"),
        )
        for m in payload["matches"]
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

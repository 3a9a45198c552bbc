"""Typed summaries of a whole run: the counts of a report (or of a run against run), what a
report's record keeps of them, and the outcome the command ends with. One `to_json` and one
`from_json` each; the JSON is what the report records have always cached."""

from __future__ import annotations

from dataclasses import dataclass

from ir_trace.summaries.passes import PassRef

# the --json summary, also kept in report records and sweep.json (here, not in summaries.trace: a warm
# run's fingerprints name it, and a warm run does not load the diff that module stands on)
SUMMARY_SCHEMA = 1


@dataclass(frozen=True, slots=True)
class RunCounts:
    """A report's passes over all its traces: how many, changed, no-op, with a warning, and lines.
    `traces` is None for a report of one trace (the summary line then names no trace count)."""

    passes: int
    changed: int
    noop: int
    warnings: int
    inserted: int
    deleted: int
    traces: int | None = None

    def to_json(self) -> dict:
        counts = {
            "passes": self.passes,
            "changed": self.changed,
            "noop": self.noop,
            "warnings": self.warnings,
            "inserted": self.inserted,
            "deleted": self.deleted,
        }
        return counts if self.traces is None else {"traces": self.traces, **counts}

    @classmethod
    def from_json(cls, data: dict) -> RunCounts:
        fields = ("passes", "changed", "noop", "warnings", "inserted", "deleted")
        return cls(**{name: int(data[name]) for name in fields}, traces=data.get("traces"))


@dataclass(frozen=True, slots=True)
class ComparisonCounts:
    """A run against run: passes compared (the frontend is none), how many differ, are renamed or
    exist in one run only, the first that differs, and whether the frontends differ."""

    compared: int
    differ: int
    renamed: int
    only_a: int
    only_b: int
    first_difference: PassRef | None
    frontends_differ: bool
    first_different: PassRef | None = None  # the first pass that behaved differently (behaviour.py)
    carried_over: int = 0  # passes that made the same change to inputs differing from upstream
    differ_ignoring: int | None = None  # passes whose outputs differ under the ignore modes (when on)
    ignore: dict | None = None  # those modes (IgnoreModes.to_json)
    traces: TracesCompared | None = None  # when either run holds several traces: the counts are over every pair

    def to_json(self) -> dict:
        counts = {
            "compared": self.compared,
            "differ": self.differ,
            "renamed": self.renamed,
            "only_a": self.only_a,
            "only_b": self.only_b,
            "first_difference": self.first_difference.to_json() if self.first_difference else None,
            "frontends_differ": self.frontends_differ,
            "first_different": self.first_different.to_json() if self.first_different else None,
            "carried_over": self.carried_over,
        }
        if self.traces is not None:
            counts["traces"] = self.traces.to_json()
        if self.ignore is None:
            return counts
        return {**counts, "differ_ignoring": self.differ_ignoring, "ignore": self.ignore}

    @classmethod
    def from_json(cls, data: dict) -> ComparisonCounts:
        return cls(
            int(data["compared"]),
            int(data["differ"]),
            int(data["renamed"]),
            int(data["only_a"]),
            int(data["only_b"]),
            PassRef.from_json(data["first_difference"]),
            bool(data["frontends_differ"]),
            PassRef.from_json(data.get("first_different")),
            int(data.get("carried_over", 0)),
            data.get("differ_ignoring"),
            data.get("ignore"),
            TracesCompared.from_json(data["traces"]) if data.get("traces") is not None else None,
        )


@dataclass(frozen=True, slots=True)
class TracesCompared:
    """A run against run of several traces (`stage:unit` keys, as sweep.json's): how many pairs were
    compared, the traces only one run has, the pair the page shows, and the traces of the first
    difference and of the first pass that behaved differently."""

    paired: int
    only_in_a: tuple[str, ...]
    only_in_b: tuple[str, ...]
    shown: str
    first_difference: str | None = None
    first_different: str | None = None

    def to_json(self) -> dict:
        return {
            "paired": self.paired,
            "only_in_a": list(self.only_in_a),
            "only_in_b": list(self.only_in_b),
            "shown": self.shown,
            "first_difference": self.first_difference,
            "first_different": self.first_different,
        }

    @classmethod
    def from_json(cls, data: dict) -> TracesCompared:
        only = tuple(map(str, data["only_in_a"])), tuple(map(str, data["only_in_b"]))
        return cls(int(data["paired"]), *only, str(data["shown"]), data["first_difference"], data["first_different"])


@dataclass(frozen=True, slots=True)
class ReportSummary:
    """What a report's record keeps (cached beside it): its counts, or a comparison's, and the
    `--json` document (`trace`, as written: its passes are `PassSummary` / `MatchSummary` rows)."""

    trace: dict
    counts: RunCounts | None = None
    comparison: ComparisonCounts | None = None

    def __post_init__(self):
        if (self.counts is None) == (self.comparison is None):
            raise ValueError("a report summary has either a report's counts or a comparison's")

    def to_json(self) -> dict:
        counts = self.counts if self.counts is not None else self.comparison
        assert counts is not None  # __post_init__ holds exactly one
        return {**counts.to_json(), "trace": self.trace}

    @classmethod
    def from_json(cls, data: dict) -> ReportSummary:
        """The summary; KeyError, TypeError or ValueError for anything else (an older layout)."""
        if not isinstance(data.get("trace"), dict):
            raise TypeError("a report summary has a --json document")
        if "compared" in data:
            return cls(data["trace"], comparison=ComparisonCounts.from_json(data))
        return cls(data["trace"], counts=RunCounts.from_json(data))


@dataclass(frozen=True, slots=True)
class RunOutcome:
    """How a successful run ended: the report written (absolute path, size), its summary, and the
    work done: pairs diffed in all, rediffed this time, and whether the report was found current."""

    report: str
    bytes: int
    pairs: int
    rediffed: int
    reused: bool
    summary: ReportSummary

    def to_json(self) -> dict:
        return {
            **self.summary.to_json(),
            "report": self.report,
            "bytes": self.bytes,
            "pairs": self.pairs,
            "rediffed": self.rediffed,
            "reused": self.reused,
        }

    @classmethod
    def from_json(cls, data: dict) -> RunOutcome:
        work = (str(data["report"]), int(data["bytes"]), int(data["pairs"]), int(data["rediffed"]))
        return cls(*work, bool(data["reused"]), ReportSummary.from_json(data))


def summary_warnings(summary: dict) -> list[str]:
    """Every reader's warning of a `--json` document: the trace's, or each trace's in a report of several."""
    found = list(summary.get("warnings", []))
    for trace in summary.get("traces", []):
        found += trace.get("warnings", [])
    return found

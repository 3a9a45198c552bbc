"""The summaries of a sweep: each program's counts in sweep.json, the totals, and the index
page's rows (regressions first)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from ir_trace.summaries.runs import RunCounts
from ir_trace.sweep_find import program_name

STATUSES = ("ok", "same", "diverged", "new", "invalid")  # a program's status in sweep.json
_STATUS_RANK = {"diverged": 0, "invalid": 1, "new": 2, "gone": 3, "ok": 4, "same": 4}  # the index's order


def program_counts(counts: RunCounts, traces: int) -> RunCounts:
    """A program's counts in sweep.json: its report's, always naming how many traces it has."""
    return replace(counts, traces=traces)


@dataclass(frozen=True)
class SweepTotals:
    """How many programs a sweep saw, by status, and how many of the baseline's are gone."""

    programs: int
    ok: int = 0
    same: int = 0
    diverged: int = 0
    new: int = 0
    invalid: int = 0
    gone: int = 0

    def to_json(self) -> dict:
        by_status = {status: getattr(self, status) for status in STATUSES}
        return {"programs": self.programs, **by_status, "gone": self.gone}

    @classmethod
    def from_json(cls, data: dict) -> SweepTotals:
        return cls(**{name: int(data[name]) for name in ("programs", *STATUSES, "gone")})


def sweep_totals(statuses: list[str], gone: int) -> SweepTotals:
    """The totals of sweep.json from its programs' statuses."""
    return SweepTotals(len(statuses), **{status: statuses.count(status) for status in STATUSES}, gone=gone)


@dataclass(frozen=True)
class IndexRow:
    """One program on the index page: its status, report and error, its counts (None unless valid),
    its comparison with the baseline (sweep.json's "baseline" of the program) and its label."""

    name: str
    label: str
    status: str  # one of STATUSES, or "gone" (in the baseline only)
    report: str | None
    error: str | None
    summary: RunCounts | None
    baseline: dict | None
    dump: str | None

    def to_json(self) -> dict:
        return {
            "name": self.name,
            "status": self.status,
            "report": self.report,
            "error": self.error,
            "summary": self.summary.to_json() if self.summary is not None else None,
            "baseline": self.baseline,
            "dump": self.dump,
            "label": self.label,
        }

    @classmethod
    def from_json(cls, data: dict) -> IndexRow:
        shown = (data["name"], data["label"], data["status"], data["report"], data["error"])
        return cls(*shown, _counts(data["summary"]), data["baseline"], data["dump"])


def _counts(summary: dict | None) -> RunCounts | None:
    return RunCounts.from_json(summary) if summary is not None else None


def index_row(program: dict) -> IndexRow:
    """A program of sweep.json as the index shows it."""
    return IndexRow(
        name=program["name"],
        label=program_label(program["name"], program["dump"]),
        status=program["status"],
        report=program["report"],
        error=program["error"],
        summary=_counts(program["summary"]),
        baseline=program["baseline"],
        dump=program["dump"],
    )


def gone_row(gone: dict) -> IndexRow:
    """A program of the baseline this sweep no longer found."""
    label = program_label(gone["name"], gone["dump"])
    return IndexRow(gone["name"], label, "gone", None, None, None, None, gone["dump"])


def index_payload(sweep: dict) -> dict:
    """The index page's data: the sweep's settings and totals, and its rows, regressions first."""
    rows = [index_row(p) for p in sweep["programs"]] + [gone_row(g) for g in sweep["gone"]]
    rows.sort(key=lambda row: (_STATUS_RANK[row.status], row.name))
    return {
        "created": sweep["created"],
        "options": sweep["options"],
        "baseline": sweep["baseline"],
        "totals": sweep["totals"],
        "rows": [row.to_json() for row in rows],
    }


def program_label(name: str, dump: str | None) -> str:
    """What the index shows for a program: its report name, with the program's own directory
    name first when the report name differs from it (made file-safe, `café (caf)`, `模型 (program)`,
    or told apart from a namesake, `model (a__model)`)."""
    title = program_name(Path(dump)) if dump else name
    return name if title == name else f"{title} ({name})"

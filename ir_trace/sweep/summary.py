"""The summaries of a sweep: each program's counts in sweep.json, the totals, and the index
page's rows (regressions first)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path, PurePath

from ir_trace.summaries.passes import LineCounts
from ir_trace.summaries.runs import RunCounts
from ir_trace.sweep.find import program_name

STATUSES = ("ok", "same", "diverged", "new", "invalid")  # a program's status in sweep.json
_STATUS_RANK = {"diverged": 0, "invalid": 1, "new": 2, "gone": 3, "ok": 4, "same": 4}  # the index's order


def program_counts(counts: RunCounts, traces: int) -> RunCounts:
    """A program's counts in sweep.json: its report's, always naming how many traces it has."""
    return replace(counts, traces=traces)


@dataclass(frozen=True, slots=True)
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

    def describe(self) -> str:
        """The sweep's last status message (Luigi's visualiser, the luigid page)."""
        return (
            f"{self.programs} programs: {self.diverged} diverged, {self.invalid} invalid, "
            f"{self.new} new, {self.gone} gone"
        )


def sweep_totals(statuses: list[str], gone: int) -> SweepTotals:
    """The totals of sweep.json from its programs' statuses."""
    return SweepTotals(len(statuses), **{status: statuses.count(status) for status in STATUSES}, gone=gone)


@dataclass(frozen=True, slots=True)
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
    return portable_index(
        {
            "created": sweep["created"],
            "options": sweep["options"],
            "baseline": sweep["baseline"],
            "totals": sweep["totals"],
            "rows": [row.to_json() for row in rows],
        }
    )


def portable_index(payload: dict) -> dict:
    """The index page names no absolute path of the machine (it is shared like the reports): the
    root by its name, each dump from the root on, the baseline by its file's folder and name.
    sweep.json keeps the absolute paths it documents."""
    root = payload["options"].get("root")
    options = {**payload["options"], "root": _name_of(root)} if root else payload["options"]
    for key in ("baseline", "out_dir"):
        if options.get(key):
            options[key] = _tail(options[key]) if key == "baseline" else _name_of(options[key])
    baseline = payload["baseline"] and {**payload["baseline"], "path": _tail(payload["baseline"].get("path"))}
    rows = [_portable_row(row, root) for row in payload["rows"]]
    return {**payload, "options": options, "baseline": baseline, "rows": rows}


def _portable_row(row: dict, root: str | None) -> dict:
    """A row's dump from the root on; its error names files under the root from the root's name on."""
    error = row.get("error")
    if error and root:
        error = error.replace(root.rstrip("/") + "/", _name_of(root) + "/")
    return {**row, "dump": _from_root(row.get("dump"), root), "error": error}


def _name_of(path: str) -> str:
    return PurePath(path).name or path


def _tail(path: str | None) -> str | None:
    """`reports.prev/sweep.json` for `/home/me/ci/reports.prev/sweep.json`: enough to recognise it."""
    if path is None or not PurePath(path).is_absolute():
        return path
    return str(PurePath(*PurePath(path).parts[-2:]))


def _from_root(dump: str | None, root: str | None) -> str | None:
    """A dump's path from the root's name on (`build_output/alpha/passes_dump`), else its last two parts."""
    if dump is None or not PurePath(dump).is_absolute():
        return dump
    if root and PurePath(dump).is_relative_to(root):
        return str(PurePath(_name_of(root)) / PurePath(dump).relative_to(root))
    return _tail(dump)


def program_label(name: str, dump: str | None) -> str:
    """What the index shows for a program: its report name, with the program's own directory
    name first when the report name differs from it (made file-safe, `café (caf)`, `模型 (program)`,
    or told apart from a namesake, `model (a__model)`)."""
    title = program_name(Path(dump)) if dump else name
    return name if title == name else f"{title} ({name})"


# ---------- a program against the baseline's (sweep.json's "baseline" of a program) ----------


@dataclass(frozen=True, slots=True)
class TraceDivergence:
    """How one trace's passes differ from the baseline's, compared at equal index: passes that
    differ, differences the ignore options removed, and the first divergent pass (its index, its
    name, its lines inserted and deleted; None when the baseline kept only hashes)."""

    differing_passes: int = 0
    ignored_passes: int = 0
    first_divergent_pass: int | None = None
    first_divergent_name: str | None = None
    first_diff: LineCounts | None = None
    first_different: dict | None = None  # the first pass that behaved differently: {index, name} (behaviour.py)

    @property
    def diverged(self) -> bool:
        return self.differing_passes > 0

    def to_json(self) -> dict:
        return {**_divergence_json(self), "first_different": self.first_different}

    @classmethod
    def from_json(cls, data: dict) -> TraceDivergence:
        return cls(
            data["differing_passes"],
            data["ignored_passes"],
            data["first_divergent_pass"],
            data["first_divergent_name"],
            _line_counts(data["first_diff"]),
            data.get("first_different"),
        )


@dataclass(frozen=True, slots=True)
class BaselineComparison:
    """How a program differs from the baseline's: passes and traces that differ in all, differences
    the ignore options removed, its first divergence in pipeline order (the pass, its name and lines,
    its trace when the program has several, whether only the baseline has that pass) and the report
    opened there (`link`)."""

    differing_passes: int
    ignored_passes: int
    differing_traces: int
    first_divergent_pass: int | None = None
    first_divergent_name: str | None = None
    first_diff: LineCounts | None = None
    first_divergent_trace: str | None = None
    first_only_in_baseline: bool = False
    link: str | None = None
    first_different: dict | None = None  # as TraceDivergence's, of the first trace that has one

    @property
    def diverged(self) -> bool:
        return self.differing_traces > 0

    def to_json(self) -> dict:
        return {
            **_divergence_json(self),
            "differing_traces": self.differing_traces,
            "first_divergent_trace": self.first_divergent_trace,
            "first_only_in_baseline": self.first_only_in_baseline,
            "link": self.link,
            "first_different": self.first_different,
        }

    @classmethod
    def from_json(cls, data: dict) -> BaselineComparison:
        totals = (data["differing_passes"], data["ignored_passes"], data["differing_traces"])
        first = (data["first_divergent_pass"], data["first_divergent_name"], _line_counts(data["first_diff"]))
        shown = (data["first_divergent_trace"], data["first_only_in_baseline"], data["link"])
        return cls(*totals, *first, *shown, data.get("first_different"))


def _divergence_json(found: TraceDivergence | BaselineComparison) -> dict:
    """The fields a trace's and a program's comparison with the baseline share, in sweep.json's order."""
    return {
        "diverged": found.diverged,
        "differing_passes": found.differing_passes,
        "ignored_passes": found.ignored_passes,
        "first_divergent_pass": found.first_divergent_pass,
        "first_divergent_name": found.first_divergent_name,
        "first_diff": found.first_diff.to_json() if found.first_diff is not None else None,
    }


def _line_counts(data: dict | None) -> LineCounts | None:
    return LineCounts.from_json(data) if data is not None else None


def baseline_comparison(per_trace: dict[str, TraceDivergence], passes_now: dict[str, int]) -> BaselineComparison:
    """A program against the baseline's from its traces' comparisons, in pipeline order (then the
    baseline's own traces); `passes_now`: how many snapshots each trace has in this sweep."""
    diverged = [key for key, result in per_trace.items() if result.diverged]
    totals = (
        sum(result.differing_passes for result in per_trace.values()),
        sum(result.ignored_passes for result in per_trace.values()),
        len(diverged),
    )
    if not diverged:
        return BaselineComparison(*totals)
    key, first = diverged[0], per_trace[diverged[0]]
    assert first.first_divergent_pass is not None  # a diverged trace names its first divergent pass
    different = _first_different(per_trace)
    return BaselineComparison(
        *totals,
        first.first_divergent_pass,
        first.first_divergent_name,
        first.first_diff,
        first_divergent_trace=key if len(per_trace) > 1 else None,
        first_only_in_baseline=first.first_divergent_pass >= passes_now.get(key, 0),
        first_different=different,
    )


def _first_different(per_trace: dict[str, TraceDivergence]) -> dict | None:
    """The first pass that behaved differently in pipeline order, naming its trace (`"trace"`) when
    the program has several, so its link opens that trace."""
    for key, result in per_trace.items():
        if result.first_different:
            return {**result.first_different, "trace": key} if len(per_trace) > 1 else result.first_different
    return None


def against_invalid_baseline(passes: list[dict], traces: int) -> BaselineComparison:
    """A program whose baseline dump was invalid: everything it prints now is new."""
    return BaselineComparison(len(passes), 0, traces, 0, passes[0]["name"] if passes else None)

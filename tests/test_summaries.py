"""Every summary (ir_trace/summaries/): the typed rows and their JSON, the closing line, the
`--json` document, run against run, and the sweep's totals and index rows."""

from __future__ import annotations

import pytest

from ir_trace.report.against import Comparison, MatchRow
from ir_trace.report.page_model import PassRecord, Report, Trace
from ir_trace.report.pass_diff import PassDiff
from ir_trace.summaries.comparison import comparison_counts, comparison_summary
from ir_trace.summaries.line import summary_body, summary_line
from ir_trace.summaries.passes import ChangeCounts, LineCounts, MatchSummary, PassRef, PassSummary
from ir_trace.summaries.runs import ComparisonCounts, ReportSummary, RunCounts, RunOutcome
from ir_trace.summaries.trace import pass_summaries, run_counts, trace_summary
from ir_trace.sweep.summary import (
    BaselineComparison,
    IndexRow,
    SweepTotals,
    TraceDivergence,
    against_invalid_baseline,
    baseline_comparison,
    index_payload,
    program_counts,
    program_label,
    sweep_totals,
)

COUNTS = RunCounts(passes=4, changed=3, noop=1, warnings=1, inserted=7, deleted=2)
CHANGES = ChangeCounts(True, 3, 1, {"Program.main": LineCounts(2, 1)}, LineCounts(1, 0))
ROW = PassSummary(3, "InitMemRef", "03_after_InitMemRef.py", "ab" * 32, CHANGES, "warning: x", None, CHANGES)
FIRST = PassRef(2, "Simplify", "cd" * 32)
COMPARED = ComparisonCounts(5, 2, 1, 0, 1, FIRST, False)
REPORT = ReportSummary({"passes": [ROW.to_json()], "ignore": None}, counts=COUNTS)
OUTCOME = RunOutcome("/out/r.html", 4096, 9, 2, False, REPORT)

EXAMPLES = [
    LineCounts(3, 4),
    CHANGES,
    ROW,
    PassSummary(1, "cse", 4, "ef" * 32, ChangeCounts(False, 0, 0), header={"kind": "after", "failed": True}),
    FIRST,
    MatchSummary(FIRST, None, "only-a", True),
    MatchSummary(FIRST, FIRST, "matched", False, 0, 0),
    COUNTS,
    RunCounts(1, 0, 1, 0, 0, 0, traces=3),
    COMPARED,
    ComparisonCounts(0, 0, 0, 0, 0, None, True),
    REPORT,
    ReportSummary({"mode": "against", "passes": []}, comparison=COMPARED),
    OUTCOME,
    IndexRow("a", "a", "ok", "a.html", None, program_counts(COUNTS, 1), None, "/r/a/passes_dump"),
    IndexRow("b", "b", "gone", None, None, None, None, None),
    SweepTotals(5, ok=1, diverged=2, invalid=1, new=1, gone=3),
    TraceDivergence(2, 1, 4, "Simplify", LineCounts(1, 2)),
    TraceDivergence(),
    BaselineComparison(3, 1, 2, 4, "Simplify", LineCounts(1, 2), "ptoas:unit", True, "r.html#trace=ptoas:unit"),
    BaselineComparison(0, 0, 0),
]


@pytest.mark.parametrize("value", EXAMPLES, ids=lambda value: type(value).__name__)
def test_every_summary_row_round_trips_through_its_json(value):
    assert type(value).from_json(value.to_json()) == value


# A pass's row in `--json`, in order ("ignoring" follows when ignore modes are on).
PASS_FIELDS = [
    "index",
    "name",
    "file",
    "sha256",
    "changed",
    "inserted",
    "deleted",
    "functions",
    "outside_functions",
    "warning",
    "warning_text",
]


def test_json_keeps_the_field_names_and_order_the_json_summary_has_always_had():
    assert list(ROW.to_json()) == [*PASS_FIELDS, "ignoring"]
    assert ROW.to_json()["functions"] == {"Program.main": {"inserted": 2, "deleted": 1}} and ROW.warning
    assert list(COUNTS.to_json()) == ["passes", "changed", "noop", "warnings", "inserted", "deleted"]
    assert list(program_counts(COUNTS, 2).to_json())[0] == "traces"  # sweep.json always names its traces
    assert list(OUTCOME.to_json()) == [*COUNTS.to_json(), "trace", "report", "bytes", "pairs", "rediffed", "reused"]
    assert COMPARED.to_json()["first_difference"] == {"index": 2, "name": "Simplify", "sha256": "cd" * 32}


def test_a_report_summary_is_a_reports_or_a_comparisons_never_both():
    with pytest.raises(ValueError):
        ReportSummary({}, counts=COUNTS, comparison=COMPARED)
    with pytest.raises(ValueError):
        ReportSummary({})
    with pytest.raises(TypeError):
        ReportSummary.from_json({**COUNTS.to_json(), "trace": None})
    with pytest.raises(KeyError):
        ReportSummary.from_json({"passes": 3, "trace": {}})  # an older record's summary


# ---------- the closing line ----------


def line(summary: ReportSummary, **work) -> str:
    done = {"report": "r.html", "bytes": 2_500, "pairs": 9, "rediffed": 2, "reused": False, **work}
    return summary_line(RunOutcome(**done, summary=summary), 1.25)


def test_the_closing_line_of_a_report():
    text = line(ReportSummary({}, counts=COUNTS))
    assert text.endswith(": 4 passes (3 changed, 1 no-op, 1 warning) · 2 pairs rediffed, 7 from cache · 2 KB · 1.2 s")
    several = ReportSummary({}, counts=RunCounts(4, 3, 1, 2, 7, 2, traces=3))
    assert ": 3 traces, 4 passes (3 changed, 1 no-op, 2 warnings)" in line(several, reused=True)
    assert line(several, reused=True).endswith("7 from cache, report unchanged · 2 KB · 1.2 s")
    assert "· 999 B ·" in line(several, bytes=999) and "· 1.5 MB ·" in line(several, bytes=1_500_000)


def test_the_closing_line_says_what_changes_under_the_ignore_modes():
    unchanged = PassSummary(2, "B", "b", "0" * 64, CHANGES, ignoring=ChangeCounts(False, 0, 0))
    trace = {"ignore": {"modes": ["ssa"], "regex": None}, "passes": [ROW.to_json(), unchanged.to_json()]}
    assert "1 warning; 1 changed when ignoring SSA versions)" in line(ReportSummary(trace, counts=COUNTS))
    several = {"ignore": trace["ignore"], "traces": [{"passes": [ROW.to_json()]}, {"passes": [ROW.to_json()]}]}
    assert "; 2 changed when ignoring SSA versions)" in line(ReportSummary(several, counts=COUNTS))


def test_the_closing_line_of_a_dump_without_passes_names_what_it_has():
    none = RunCounts(0, 0, 0, 0, 0, 0)
    assert "no pass snapshot exists (only 00_frontend.py)" in line(ReportSummary({"kind": "pypto"}, counts=none))
    assert "no pass snapshot exists (only one MLIR dump)" in line(ReportSummary({"kind": "mlir"}, counts=none))


def test_the_closing_line_of_a_run_against_run():
    text = line(ReportSummary({}, comparison=COMPARED))
    assert ": 5 passes compared (2 differ, 1 renamed, 0 only in A, 1 only in B; first at pass 02 Simplify) ·" in text
    same = ComparisonCounts(5, 0, 0, 0, 0, None, False)
    assert "; identical outputs)" in line(ReportSummary({}, comparison=same))
    frontends = ComparisonCounts(5, 0, 0, 0, 0, None, True)
    assert "; identical pass outputs, the frontends differ)" in line(ReportSummary({}, comparison=frontends))


# ---------- a report's --json and counts ----------


def report(payload: dict) -> Report:
    return Report.from_json(payload)


def payload() -> dict:
    """Three snapshots: the second edits main and adds a line outside every function, the third equals it."""
    base = {"index": 0, "name": "frontend", "file": "00_frontend.py", "sha256": "s0", "eol": True, "log": None}
    base |= {"lines": ["def main():", "    x = 1", "y = 0"], "functions": [["main", 0, 2]]}
    common = {"eol": True, "log_file": None}
    edit = {"index": 1, "name": "A", "file": "01_after_A.py", "sha256": "s1", "log": "warning: w", **common}
    edit |= {"changed": True, "inserted": 2, "deleted": 1, "functions": [["main", 0, 2]]}
    edit["hunks"] = [[1, 2, 1, 2, ["    x = 2"], [[1, 1, [[8, 9]], [[8, 9]]]]], [3, 3, 3, 4, ["z = 1"], []]]
    same = {"index": 2, "name": "B", "file": "02_after_B.py", "sha256": "s1", "log": None, **common}
    same |= {"changed": False, "inserted": 0, "deleted": 0, "hunks": []}
    top = {"schema": 1, "generator": "g", "title": "t", "dump": "/d/passes_dump", "kind": "pypto", "warnings": []}
    return {**top, "context": 3, "level": "CONCISE", "ignore": None, "passes": [base, edit, same]}


def test_each_pass_is_counted_by_the_function_it_touched():
    edit, same = pass_summaries(report(payload()).traces[0])
    assert edit.changes == ChangeCounts(True, 2, 1, {"main": LineCounts(1, 1)}, LineCounts(1, 0))
    assert edit.warning_text == "warning: w" and edit.header is None and edit.ignoring is None
    assert same.changes == ChangeCounts(False, 0, 0) and not same.warning
    assert run_counts(report(payload())) == RunCounts(passes=2, changed=1, noop=1, warnings=1, inserted=2, deleted=1)


def test_the_json_document_names_files_from_the_path_given():
    document = trace_summary(report(payload()), "/d")
    assert [row["file"] for row in document["passes"]] == ["passes_dump/01_after_A.py", "passes_dump/02_after_B.py"]
    assert [PassSummary.from_json(row) for row in document["passes"]][0].changes.inserted == 2
    assert trace_summary(report(payload()))["passes"][0]["file"] == "01_after_A.py"


def test_ignore_modes_add_the_counts_under_them():
    keyed = {**payload(), "ignore": {"modes": ["whitespace"], "regex": None}}
    edit, _same = pass_summaries(report(keyed).traces[0], report(keyed).ignore)
    assert edit.ignoring == edit.changes  # no line differs by whitespace only: the exact diff is the answer


# ---------- run against run ----------


def comparison_payload(differs: list[bool], statuses: list[str], behaviours: list[str] | None = None) -> Comparison:
    def run(dump: str) -> Report:
        records = tuple(PassRecord(k, f"P{k}", f"{k:02d}_after_P{k}.py", f"s{k}", True) for k in range(len(differs)))
        return Report("g", "t", dump, 0, "UNKNOWN", (Trace("t", dump, "pypto", "UNKNOWN", records),))

    matches = tuple(
        MatchRow(k, k, status, differ, behaviours[k] if behaviours else None, diff=PassDiff((), int(differ), 0))
        for k, (differ, status) in enumerate(zip(differs, statuses))
    )
    return Comparison("g", "a against b", ("a", "b"), 0, "UNKNOWN", (run("/a"), run("/b")), matches)


def test_the_frontend_is_never_a_pass_of_a_comparison():
    summary = comparison_summary(comparison_payload([True, False, True], ["matched", "renamed", "matched"]))
    assert summary.comparison == ComparisonCounts(2, 1, 1, 0, 0, PassRef(2, "P2", "s2"), True)
    assert (summary.trace["mode"], summary.trace["a"], summary.trace["b"]) == ("against", "/a", "/b")
    assert summary.trace["passes"][2] == {
        "a": {"index": 2, "name": "P2", "sha256": "s2"},
        "b": {"index": 2, "name": "P2", "sha256": "s2"},
        "status": "matched",
        "differs": True,
        "inserted": 1,
        "deleted": 0,
        "behaviour": None,  # a payload without behaviours (compare.py always gives them)
    }


def test_a_pass_of_one_run_only_is_the_first_difference_but_differs_from_nothing():
    rows = [MatchSummary(FIRST, FIRST, "matched", False), MatchSummary(None, FIRST, "only-b", True)]
    assert comparison_counts(rows) == ComparisonCounts(1, 0, 0, 0, 1, FIRST, False)


# ---------- the sweep ----------


def test_sweep_totals_count_each_status():
    totals = sweep_totals(["ok", "diverged", "diverged", "invalid"], gone=2)
    assert totals == SweepTotals(4, ok=1, diverged=2, invalid=1, gone=2)
    keys = ["programs", "ok", "same", "diverged", "new", "invalid", "gone"]
    assert list(totals.to_json()) == keys
    assert totals.describe() == "4 programs: 2 diverged, 1 invalid, 0 new, 2 gone"


def test_the_index_lists_regressions_first_and_programs_gone_from_the_baseline():
    def program(name: str, status: str, dump: str) -> dict:
        counts = program_counts(COUNTS, 1).to_json() if status != "invalid" else None
        error = "bad" if status == "invalid" else None
        return {"name": name, "status": status, "report": f"{name}.html", "error": error, "summary": counts}

    programs = [program("b", "same", "/r/b/passes_dump"), program("c", "invalid", "/r/c"), program("a", "diverged", "")]
    for entry, dump in zip(programs, ("/r/b/passes_dump", "/r/c/passes_dump", "/r/x/passes_dump")):
        entry |= {"baseline": None, "dump": dump}
    sweep = {"created": "now", "options": {}, "baseline": None, "totals": {}, "programs": programs}
    rows = index_payload({**sweep, "gone": [{"name": "d", "dump": "/r/d/passes_dump"}]})["rows"]
    assert [(row["name"], row["status"]) for row in rows] == [
        ("a", "diverged"),
        ("c", "invalid"),
        ("d", "gone"),
        ("b", "same"),
    ]
    assert rows[0]["label"] == "x (a)" and rows[1]["label"] == "c"  # the program's own directory name first
    assert rows[2] == IndexRow("d", "d", "gone", None, None, None, None, "d/passes_dump").to_json()  # no machine path
    assert rows[3]["summary"] == {"traces": 1, **COUNTS.to_json()}
    assert program_label("n", None) == "n"


def test_a_program_against_the_baseline_names_its_first_divergent_trace():
    same, late = TraceDivergence(0, 2), TraceDivergence(3, 0, 5, "CSE", LineCounts(1, 0))
    compared = baseline_comparison({"pypto:": same, "ptoas:k": late, "ptoas:gone": TraceDivergence(1, 0, 0, "X")}, {})
    totals = (compared.differing_passes, compared.ignored_passes, compared.differing_traces)
    assert compared.diverged and totals == (4, 2, 2)
    first = (compared.first_divergent_trace, compared.first_divergent_pass, compared.first_diff)
    assert first == ("ptoas:k", 5, LineCounts(1, 0))
    assert compared.first_only_in_baseline  # this sweep has no pass 5 in ptoas:k (it has no such trace at all)
    assert not baseline_comparison({"ptoas:k": late}, {"ptoas:k": 6}).first_only_in_baseline
    assert baseline_comparison({"pypto:": late}, {"pypto:": 6}).first_divergent_trace is None  # one trace: unnamed
    quiet = baseline_comparison({"pypto:": same}, {"pypto:": 3})
    assert quiet == BaselineComparison(0, 2, 0) and not quiet.diverged and quiet.to_json()["diverged"] is False


def test_a_program_whose_baseline_was_invalid_is_new_in_every_pass():
    compared = against_invalid_baseline([{"name": "frontend"}, {"name": "A"}], traces=1)
    assert compared.diverged and (compared.differing_passes, compared.first_divergent_pass) == (2, 0)
    assert compared.first_divergent_name == "frontend" and compared.first_diff is None
    assert list(compared.to_json()) == [
        "diverged",
        "differing_passes",
        "ignored_passes",
        "first_divergent_pass",
        "first_divergent_name",
        "first_diff",
        "differing_traces",
        "first_divergent_trace",
        "first_only_in_baseline",
        "link",
        "first_different",
    ]


def test_a_comparison_names_its_first_different_pass_and_counts_the_carried_over():
    behaviours = ["same", "different", "carried-over", "carried-over"]
    payload = comparison_payload([False, True, True, True], ["matched"] * 4, behaviours)
    summary = comparison_summary(payload)
    assert summary.trace["first_different"] == {"index": 1, "name": "P1"}
    behaviours = [row["behaviour"] for row in summary.trace["passes"]]
    assert behaviours == ["same", "different", "carried-over", "carried-over"]
    assert summary.comparison is not None and summary.comparison.carried_over == 2
    assert summary_body(summary).endswith("; first different: 01 P1, 2 carried over")
    assert ComparisonCounts.from_json(summary.comparison.to_json()) == summary.comparison

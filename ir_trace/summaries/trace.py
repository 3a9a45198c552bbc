"""The machine-readable trace summary behind `--json`: stable field names, one entry per pass.

{
  "schema": 1, "generator": "pypto-ir-trace 0.1.0",
  "title": "...", "dump": "/abs/passes_dump", "kind": "pypto" | "mlir", "warnings": [...],
  "level": "CONCISE", "context": 3,
  "base": {"index": 0, "name": "frontend", "file": "00_frontend.py", "sha256": "..."},  # what pass 1 is compared with
  "passes": [
    {"index": 1, "name": "ConvertToSSA", "file": "01_after_ConvertToSSA.py",
     "sha256": "...",            # of this pass's output snapshot
     "header": {...},            # MLIR only: the dump header's parts (kind, pass_name, argument, ...)
     "changed": true, "inserted": 7, "deleted": 7,
     "functions": {"Program.main": {"inserted": 7, "deleted": 7}},   # only functions it touched
     "outside_functions": {"inserted": 0, "deleted": 0},             # lines in no function
     "warning": false, "warning_text": null,
     "ignoring": {"changed": false, "inserted": 0, "deleted": 0,   # only when "ignore" is not null:
                  "functions": {}, "outside_functions": {...}}}   # the same counts, lines compared
  ],                                                             # after the ignore modes' normalisation
  "ignore": {"modes": ["ssa"], "regex": null} | null               # --ignore / --ignore-regex
}

A pass of an MLIR trace also has "header" (report/page_model.py PassRecord: the dump's header line, e.g. its options and
whether it failed). A report of several traces (PyPTO, then each ptoas unit) has, instead of
"passes" and "level":

  "traces": [{"stage": "pypto" | "ptoas" | "mlir", "unit": "...", "dump": "/abs/dir", "level": "...",
              "warnings": ["..."],     # the reader's notes on the trace (overwritten dumps, ...)
              "base": {...},           # the trace's own base snapshot, as above
              "passes": [...]}]        # each pass as above; "file" is relative to the top "dump",
                                       # the path given (passes_dump/01_after_X.py, ptoas_passes/...)
"""

from __future__ import annotations

import os
from bisect import bisect_right
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from functools import partial

from ir_trace.noise.long_keys import line_key
from ir_trace.noise.normalize import IgnoreModes
from ir_trace.report.ignore_counts import LineSpan, keyed_spans
from ir_trace.report.page_model import PassRecord, Report, Trace
from ir_trace.report.pass_diff import PassDiff
from ir_trace.summaries.passes import ChangeCounts, LineCounts, PassSummary
from ir_trace.summaries.runs import SUMMARY_SCHEMA, ReportSummary, RunCounts
from ir_trace.syntax import MEMO_LINE_CHARS

NO_MODES = IgnoreModes()
Owner = Callable[[int], "str | None"]  # line index -> key of the function holding it, None outside every one


KeyedHunks = Callable[[str, str, str, Callable[[], Sequence[LineSpan]]], Sequence[LineSpan]]
"""(before sha256, after sha256, kind, compute) -> a pair's hunks under the report's ignore modes: where the
caller keeps them (the pipeline: its cache, so a rebuild rediffs only the pairs that changed)."""


def _computed(_before: str, _after: str, _kind: str, compute: Callable[[], Sequence[LineSpan]]) -> Sequence[LineSpan]:
    return compute()


def report_summary(report: Report, given: str | None = None, keyed: KeyedHunks = _computed) -> ReportSummary:
    """What a report's record keeps: its counts and its `--json` document."""
    return ReportSummary(trace_summary(report, given, keyed), counts=run_counts(report))


def run_counts(report: Report) -> RunCounts:
    """Counts for the summary line and the sweep (over every trace of the report)."""
    passes = list(report.all_passes())
    changed = sum(1 for p in passes if p.changed)
    return RunCounts(
        passes=len(passes),
        changed=changed,
        noop=len(passes) - changed,
        warnings=sum(1 for p in passes if p.log is not None),
        inserted=sum(p.diff.inserted for p in passes if p.diff),
        deleted=sum(p.diff.deleted for p in passes if p.diff),
        traces=len(report.traces) if report.several else None,
    )


def trace_summary(report: Report, given: str | None = None, keyed: KeyedHunks = _computed) -> dict:
    """Summarise a report pass by pass, trace by trace when it has several.

    Each pass's "file" is relative to `given`, the path the report was asked for (default: the dump).
    """
    if not report.several:
        # "dump" is what the files are named from: the path given (a stream's file, whose snapshots
        # are header indices in it; a ptoas_passes/ around its one unit)
        trace = report.traces[0]
        dump = given or report.dump
        rows = _files_relative_to(pass_summaries(trace, report.ignore, keyed), report.dump, dump)
        return {**_document(report, trace, rows, dump), "base": base_snapshot(trace, report.dump, dump)}
    traces = []
    for trace in report.traces:
        rows = _files_relative_to(pass_summaries(trace, report.ignore, keyed), trace.dump, given or report.dump)
        shown = {"stage": trace.stage, "unit": trace.unit, "dump": trace.dump, "level": trace.level}
        base = base_snapshot(trace, trace.dump, given or report.dump)
        passes = _rows_json(rows)
        traces.append({**shown, "warnings": list(trace.warnings), "base": base, "passes": passes})
    return {
        "schema": SUMMARY_SCHEMA,
        "generator": report.generator,
        "title": report.title,
        "dump": report.dump,
        "context": report.context,
        "traces": traces,
        "ignore": report.ignore.to_json(),
    }


def base_snapshot(trace: Trace, dump: str, given: str) -> dict:
    """The snapshot the trace's first pass is compared with (the page lists it first, as its base):
    index, name, file (relative to `given`, as the passes' are) and sha256."""
    first = trace.passes[0]
    file = first.file
    if isinstance(file, str) and dump != given:
        file = os.path.normpath(os.path.join(os.path.relpath(dump, given), file))
    return {"index": first.index, "name": first.name, "file": file, "sha256": first.sha256}


def _document(report: Report, trace: Trace, rows: list[PassSummary], dump: str) -> dict:
    """The `--json` document of a one-trace report."""
    return {
        "schema": SUMMARY_SCHEMA,
        "generator": report.generator,
        "title": report.title,
        "dump": dump,
        "kind": trace.kind,
        "warnings": list(trace.warnings),
        "level": report.level,
        "context": report.context,
        "passes": _rows_json(rows),
        "ignore": report.ignore.to_json(),
    }


def _rows_json(rows: list[PassSummary]) -> list[dict]:
    """Each row's JSON; equal counts are one object (read-only documents: 100,000 passes mostly repeat a
    few), which keeps a long trace's summary a fraction of its size."""
    shared: dict = {}
    return [row.to_json(shared) for row in rows]


def _files_relative_to(rows: list[PassSummary], dump: str, given: str) -> list[PassSummary]:
    """Snapshot files named from `given` rather than from their own trace's directory (a stream's
    snapshots keep their header index: they are all in the one file given)."""
    if dump == given:
        return rows
    folder = os.path.relpath(dump, given)
    return [
        replace(row, file=os.path.normpath(os.path.join(folder, row.file))) if isinstance(row.file, str) else row
        for row in rows
    ]


def pass_summaries(trace: Trace, modes: IgnoreModes = NO_MODES, keyed: KeyedHunks = _computed) -> list[PassSummary]:
    """The summary row of each pass of a trace (its first snapshot is no pass); `modes`: the report's
    ignore modes, whose counts each row adds when on."""
    passes = trace.passes
    functions = list(trace.functions_per_snapshot())
    diffs = [record.diff or PassDiff() for record in passes]  # [0]: the first snapshot has none
    ignoring = _ignoring_hunks(passes, diffs, functions, modes, trace.kind, keyed) if modes else None
    owners = _owner_lookups(functions)
    headers: dict[int, dict] = {}  # id(header) -> its JSON: passes sharing a header share its object
    rows = []
    for k, record in enumerate(passes[1:], start=1):
        per_function, outside = _count_by_function(diffs[k].hunks, owners[k - 1], owners[k])
        changes = ChangeCounts(record.changed, diffs[k].inserted, diffs[k].deleted, per_function, outside)
        rows.append(
            PassSummary(
                index=record.index,
                name=record.name,
                file=record.file,
                sha256=record.sha256,
                changes=changes,
                warning_text=record.log,
                header=_header_json(record.header, headers) if record.header is not None else None,
                ignoring=_counts(ignoring[k], owners[k - 1], owners[k]) if ignoring is not None else None,
            )
        )
    return rows


def _header_json(header, known: dict[int, dict]) -> dict:
    found = known.get(id(header))  # the trace holds its headers: their ids stay theirs meanwhile
    if found is None:
        found = known[id(header)] = header.to_json()
    return found


def _counts(hunks: Sequence[LineSpan], owner_before: Owner, owner_after: Owner) -> ChangeCounts:
    per_function, outside = _count_by_function(hunks, owner_before, owner_after)
    inserted = sum(hunk.b1 - hunk.b0 for hunk in hunks)
    deleted = sum(hunk.a1 - hunk.a0 for hunk in hunks)
    return ChangeCounts(bool(hunks), inserted, deleted, per_function, outside)


def _ignoring_hunks(
    passes: Sequence[PassRecord],
    diffs: list[PassDiff],
    functions: list,
    modes: IgnoreModes,
    kind: str,
    keyed: KeyedHunks,
) -> list[Sequence[LineSpan]]:
    """Per pass, the hunks of a diff whose lines compare by their keys under `modes`.

    The snapshots are rebuilt from the exact hunks; the diff keeps the printed lines and their
    indices, so the counts by function use the same function ranges.
    """
    key = line_key(modes, kind, MEMO_LINE_CHARS)  # a huge line's long key as its digest
    lines, eol = list(passes[0].lines or ()), passes[0].eol
    result: list[Sequence[LineSpan]] = [()]  # [0]: the first snapshot has no diff
    done: dict[tuple[str, str], Sequence[LineSpan]] = {}
    for k in range(1, len(passes)):
        after = diffs[k].apply(lines)
        pair = (passes[k - 1].sha256, passes[k].sha256)
        if not passes[k].changed:
            result.append([])
        else:
            if pair not in done:
                sides = (lines, after, eol, passes[k].eol, functions[k - 1], functions[k])
                done[pair] = keyed(*pair, kind, partial(keyed_spans, *sides, diffs[k].hunks, key))
            result.append(done[pair])
        lines, eol = after, passes[k].eol
    return result


def _count_by_function(
    hunks: Iterable[LineSpan], owner_before: Owner, owner_after: Owner
) -> tuple[dict[str, LineCounts], LineCounts]:
    counts: dict[str, list[int]] = {}
    outside = [0, 0]  # inserted, deleted
    for hunk in hunks:
        for line in range(hunk.a0, hunk.a1):
            _bump(counts, outside, owner_before(line), 1)
        for line in range(hunk.b0, hunk.b1):
            _bump(counts, outside, owner_after(line), 0)
    per_function = {key: LineCounts(*counts[key]) for key in sorted(counts)}
    return per_function, LineCounts(*outside)


def _owner_lookups(functions: Sequence[Sequence | None]) -> list[Owner]:
    """Each snapshot's owner lookup, built once per function list (an unchanged snapshot shares its
    predecessor's list)."""
    built: dict[int, Owner] = {}
    for listed in functions:
        if id(listed) not in built:
            built[id(listed)] = _owner_lookup(listed)
    return [built[id(listed)] for listed in functions]


def _owner_lookup(functions: Sequence | None) -> Owner:
    """line -> key of the function whose [start, end) holds it (functions are sorted and disjoint)."""
    functions = functions or []
    starts = [start for _key, start, _end in functions]

    def owner(line: int) -> str | None:
        at = bisect_right(starts, line) - 1
        return functions[at][0] if at >= 0 and line < functions[at][2] else None

    return owner


def _bump(counts: dict[str, list[int]], outside: list[int], key: str | None, side: int) -> None:
    """One more line inserted (side 0) or deleted (side 1), in function `key` or outside every one."""
    if key is None:
        outside[side] += 1
    else:
        counts.setdefault(key, [0, 0])[side] += 1

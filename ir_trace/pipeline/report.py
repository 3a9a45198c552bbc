"""RenderReport: validate, schedule the per-pair and per-snapshot work, then write the page."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import zip_longest
from pathlib import Path
from typing import TypeVar

import luigi

from ir_trace.cache.fingerprints import ignoring_key
from ir_trace.cache.report_record import dump_report_fingerprint
from ir_trace.errors import IRTraceError
from ir_trace.inputs.discovery import Manifest
from ir_trace.inputs.titles import place_title
from ir_trace.inputs.traces import Trace
from ir_trace.noise.normalize import IgnoreModes
from ir_trace.options import DEFAULT_CONTEXT, ReportOptions
from ir_trace.pipeline.base import WORK_PLANNED, AbsolutePath, PipelineTask
from ir_trace.pipeline.config import session, shared_cache
from ir_trace.pipeline.snapshots import (
    STATE_HELP,
    DiffPair,
    SliceFunctions,
    ValidateDump,
    WorkItem,
    batches,
    cached_diff,
    cached_result,
    current_traces,
    do_work,
    load_snapshot,
    missing_work,
    span_parameter,
    validated_traces,
)
from ir_trace.pipeline.targets import ReportTarget
from ir_trace.report.ignore_counts import LineSpan, Span
from ir_trace.report.page_model import Report
from ir_trace.report.payload import build_payload, combine_traces, shared_function_lists
from ir_trace.report.render import render_html
from ir_trace.runsafety.output_paths import check_report_path
from ir_trace.summaries.trace import report_summary


def diff_task(manifest_a: Manifest, a, manifest_b: Manifest, b) -> DiffPair:
    return DiffPair(
        _path(manifest_a, a),
        a.sha256,
        _path(manifest_b, b),
        b.sha256,
        before_span=span_parameter(a.span),
        after_span=span_parameter(b.span),
        kind=manifest_b.kind,
    )


def _path(manifest: Manifest, snapshot) -> str:
    """Where a snapshot is, as a string (`manifest.path_of` makes a Path: thousands of them a run add up)."""
    return os.path.join(manifest.dump, snapshot.file)


def chain_work(manifest: Manifest) -> tuple[list[DiffPair], list[SliceFunctions]]:
    """One diff per adjacent pair of distinct snapshots, one slicing per distinct snapshot."""
    diffs: list[DiffPair] = []
    slices: list[SliceFunctions] = []
    seen: set[tuple[str, str] | str] = set()  # pairs diffed and snapshots sliced
    snapshots = manifest.snapshots
    for position, snapshot in enumerate(snapshots):
        before = snapshots[position - 1] if position else None
        if before and before.sha256 != snapshot.sha256 and (before.sha256, snapshot.sha256) not in seen:
            seen.add((before.sha256, snapshot.sha256))
            diffs.append(diff_task(manifest, before, manifest, snapshot))
        if snapshot.sha256 not in seen:
            seen.add(snapshot.sha256)
            span = span_parameter(snapshot.span)
            slices.append(SliceFunctions(_path(manifest, snapshot), snapshot.sha256, span, manifest.kind))
    return diffs, slices


def pipeline_order(diffs: list[DiffPair], slices: list[SliceFunctions]) -> list[WorkItem]:
    """Slicing snapshot k right after diffing into it, while its text is still loaded."""
    return [item for pair in zip_longest(slices, diffs) for item in pair if item is not None]


def assemble_payload(
    manifest: Manifest,
    diffs: list[DiffPair],
    slices: list[SliceFunctions],
    context: int,
    ignore: str = "",
    task: luigi.Task | None = None,
) -> Report:
    """The report of one dump, from the results of its completed chain work; `ignore` is
    the initial ignore modes' spec (`IgnoreModes.spec()`)."""
    diff_results = {(item.before_sha, item.after_sha): cached_diff(item, task) for item in diffs}
    slice_results = shared_function_lists((item.sha, cached_result(item, task).to_json()) for item in slices)
    snaps = manifest.snapshots
    per_pass = [diff_results.get((a.sha256, b.sha256)) for a, b in zip(snaps, snaps[1:])]
    base = load_snapshot(str(manifest.path_of(snaps[0])), snaps[0].sha256, snaps[0].span, manifest.kind)
    base_lines, _eol = base.split
    base.let_text_go()
    return build_payload(manifest, base_lines, per_pass, slice_results, context, IgnoreModes.from_spec(ignore))


def traces_payload(
    path: str,
    traces: list[Trace],
    work: list[tuple[list[DiffPair], list[SliceFunctions]]],
    context: int,
    ignore: str,
    task: luigi.Task | None = None,
) -> Report:
    """The report of every trace under `path`: one trace's own report, or the traces combined
    (payload.py), from the results of each trace's completed chain work."""
    payloads = [assemble_payload(t.manifest, *chain, context, ignore, task) for t, chain in zip(traces, work)]
    if len(traces) == 1:
        return payloads[0]
    title = place_title(Path(path))
    return combine_traces(path, title, [(t.stage, t.unit, p) for t, p in zip(traces, payloads)])


def cached_traces(task: ValidateDump) -> list[Trace] | None:
    """The traces a validation left for the dump's current files, if any (never validates)."""
    return validated_traces(task.output())


@dataclass(frozen=True)
class ReportPlan:
    """What one dump's report is made of: its traces and each trace's chain work (`chain_work`)."""

    dump: str
    traces: list[Trace]
    work: list[tuple[list[DiffPair], list[SliceFunctions]]]

    @classmethod
    def of(cls, dump: str, traces: list[Trace]) -> ReportPlan:
        return cls(dump, traces, [chain_work(trace.manifest) for trace in traces])

    @property
    def diffs(self) -> list[DiffPair]:
        return unique_items([task for trace_diffs, _slices in self.work for task in trace_diffs])

    def items(self) -> list[WorkItem]:
        """Every diff and slicing the report needs, once each, in the order that reuses loaded texts."""
        slices = unique_items([task for _diffs, trace_slices in self.work for task in trace_slices])
        return pipeline_order(self.diffs, slices)

    def write(self, target: ReportTarget, context: int, ignore: str, task: luigi.Task | None = None) -> None:
        """Render the page from the completed work into `target`, unless it is current already."""
        if not target.exists():
            payload = traces_payload(self.dump, self.traces, self.work, context, ignore, task)
            html = render_html(payload.to_json(), target.fingerprint or "")
            keyed = CachedKeyedHunks(ignore)
            summary = report_summary(payload, self.dump, keyed)
            keyed.keep()
            target.write(html, summary, len(self.diffs))


class CachedKeyedHunks:
    """The `--json` counts' hunks under the ignore modes (`summaries.trace.KeyedHunks`), pair by pair through
    the cache: a rebuild after a few passes changed rediffs only their pairs (a damaged or odd entry is
    computed again). What was computed is kept in one transaction (`keep`), not one a pair."""

    def __init__(self, ignore: str):
        self.ignore = ignore
        self.computed: dict[str, list[list[int]]] = {}

    def __call__(self, before: str, after: str, kind: str, compute: Callable[[], Sequence[LineSpan]]):
        key = ignoring_key(before, after, kind, self.ignore)
        try:
            return [Span(*map(int, span)) for span in shared_cache().get(key)]
        except (TypeError, ValueError):  # none kept (None), or not four numbers a span
            found = compute()
            self.computed[key] = [[span.a0, span.a1, span.b0, span.b1] for span in found]
            return found

    def keep(self) -> None:
        if self.computed:
            shared_cache().put_many(self.computed)


def check_report_arguments(report: str, dumps: list[str], ignore: str) -> None:
    """Fail before any diff work when the report could not be written as asked."""
    check_report_path(report, dumps)
    try:
        IgnoreModes.from_spec(ignore)
    except ValueError as exc:
        raise IRTraceError(f"--ignore {ignore}: {exc}") from None


def build_report_here(
    dump: str,
    state: str,
    report: ReportTarget,
    options: ReportOptions,
    on_planned: Callable[[int], None],
    on_item: Callable[[WorkItem], None],
) -> list[Trace]:
    """RenderReport's work done in this process, without a scheduler (a sweep's dump: one task of
    the shared scheduler, its pairs done in-process): the same cache entries and the same page,
    written to `report` (a target whose fingerprint is set here). Returns the dump's traces."""
    ignore = options.ignore.spec()
    check_report_arguments(report.path, [dump], ignore)
    plan = ReportPlan.of(dump, current_traces(dump, state))
    missing = missing_work(plan.items())
    on_planned(len(missing))
    do_work(missing, on_item)
    report.fingerprint = dump_report_fingerprint(plan.traces, options.context, ignore)
    plan.write(report, options.context, ignore)
    return plan.traces


class IgnoreSpec(luigi.Parameter):
    """Initial ignore modes as `IgnoreModes.spec()` writes them ('ssa,memref|REGEX'), put in that
    canonical order so `memref,ssa` and `ssa,memref` are one task. A value that does not parse is
    kept as given for `run` to refuse in one line (a parameter that raises prints a traceback)."""

    def normalize(self, x):
        try:
            return IgnoreModes.from_spec(x).spec()
        except ValueError:
            return x


class ReportWriter(PipelineTask):
    """Shared by the report tasks: the report file is the output, current for its fingerprint.
    Its write goes through the guard of this process's session (`Session.guarding`), no parameter."""

    report = AbsolutePath(default="ir_trace.html", description="where to write the report")
    # The argument that named `report` for whoever runs the task (`-o` from the command line):
    # first in a write error. Not part of the task's identity.
    report_flag = luigi.Parameter(default="--report", significant=False, description="names --report in errors")
    context = luigi.IntParameter(default=DEFAULT_CONTEXT, description="unchanged lines kept around each change")
    ignore = IgnoreSpec(default="", description="initial ignore modes: ssa,memref,whitespace (then |REGEX)")

    def check_arguments(self) -> None:
        """Fail before any diff work when the report could not be written as asked."""
        check_report_arguments(self.report, self.dumps_read(), self.ignore)

    def dumps_read(self) -> list[str]:
        """The dump directories this report is made from (never to be written into)."""
        raise NotImplementedError

    def fingerprint(self, validated: list[list[Trace]]) -> str:
        """The report's identity from what each required validation found (its traces)."""
        raise NotImplementedError

    def output(self):
        return self.report_target(self.current_fingerprint)

    def current_fingerprint(self) -> str | None:
        """The fingerprint of the report the dumps' current files make, once they are validated (else None:
        no report can be current before its dump is validated)."""
        found = [cached_traces(task) for task in luigi.task.flatten(self.requires())]
        validated = [traces for traces in found if traces is not None]
        return self.fingerprint(validated) if len(validated) == len(found) else None

    def report_target(self, fingerprint: str | Callable[[], str | None]) -> ReportTarget:
        return ReportTarget(self.report, fingerprint, self.report_flag, session().guard)

    def schedule(self, work: list[WorkItem]):
        """Yield batches of the work not done yet (Luigi then runs `run` again from the top, finding it done)."""
        missing = missing_work(work)
        if missing:
            self.trigger_event(WORK_PLANNED, self, len(missing))
            yield batches(missing)


class RenderReport(ReportWriter):
    """One dump's HTML report: every trace under the path (PyPTO's, then each ptoas unit's) in one
    page. Its output is the report file, complete while it is current."""

    dump = AbsolutePath(description="a passes_dump/, MLIR tree or stream, ptoas_passes/ or program output directory")
    state = luigi.Parameter(default="", description=STATE_HELP)

    def requires(self):
        return ValidateDump(dump=self.dump, state=self.state)

    def dumps_read(self) -> list[str]:
        return [self.dump]

    def fingerprint(self, validated: list[list[Trace]]) -> str:
        return dump_report_fingerprint(validated[0], self.context, self.ignore)

    def run(self):
        self.check_arguments()
        plan = ReportPlan.of(self.dump, current_traces(self.dump, self.state))
        yield from self.schedule(plan.items())  # dynamic dependencies: batches of the missing work
        plan.write(self.report_target(self.fingerprint([plan.traces])), self.context, self.ignore, self)


_Item = TypeVar("_Item", bound=WorkItem)


def unique_items(items: list[_Item]) -> list[_Item]:
    """Each work item once (two traces may hold the same snapshot, or the same pair), in first-seen order."""
    return list({item.key: item for item in items}.values())

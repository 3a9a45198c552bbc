"""RenderComparison: run A against run B, pass by pass, reusing each run's own cached work."""

from __future__ import annotations

from dataclasses import dataclass

import luigi

from ir_trace.cache.fingerprints import comparison_fingerprint, traces_digest
from ir_trace.errors import DumpError
from ir_trace.inputs.discovery import Manifest
from ir_trace.inputs.traces import Trace
from ir_trace.noise.normalize import IgnoreModes
from ir_trace.pipeline.base import AbsolutePath
from ir_trace.pipeline.report import (
    ReportWriter,
    assemble_payload,
    chain_work,
    diff_task,
    pipeline_order,
    unique_items,
)
from ir_trace.pipeline.snapshots import (
    STATE_HELP,
    DiffPair,
    SliceFunctions,
    ValidateDump,
    WorkItem,
    cached_diff,
    current_traces,
    load_snapshot,
)
from ir_trace.pipeline.targets import ReportTarget
from ir_trace.report.against import (
    Comparison,
    build_comparison,
    keyed_snapshots,
    match_behaviours,
    match_differs,
    match_passes,
    pair_traces,
    shown_pair,
    trace_key,
)
from ir_trace.report.pass_diff import PassDiff
from ir_trace.report.render import render_html
from ir_trace.summaries.comparison import comparison_summary, traces_comparison_summary


class RenderComparison(ReportWriter):
    """A report comparing two dumps of one program (for example before and after a compiler patch)."""

    dump = AbsolutePath(description="run A's passes_dump/")
    against = AbsolutePath(description="run B's passes_dump/")
    state = luigi.Parameter(default="", description=STATE_HELP)
    against_state = luigi.Parameter(default="", description="the same for --against")

    def requires(self):
        return [
            ValidateDump(dump=self.dump, state=self.state),
            ValidateDump(dump=self.against, state=self.against_state),
        ]

    def fingerprint(self, validated: list[list[Trace]]) -> str:
        digests = traces_digest(validated[0]), traces_digest(validated[1])
        return comparison_fingerprint(*digests, self.context, self.ignore)

    def dumps_read(self) -> list[str]:
        return [self.dump, self.against]

    def run(self):
        self.check_arguments()
        plan = ComparisonPlan.of(self.dump, self.state, self.against, self.against_state)
        yield from self.schedule(plan.items())  # dynamic dependencies: batches of the missing work
        target = self.report_target(self.fingerprint([current_traces(self.dump), current_traces(self.against)]))
        plan.write(target, self.context, self.ignore, self)


@dataclass(frozen=True)
class PairPlan:
    """One trace of A against one of B: each trace's chain work and the matched passes' diffs."""

    manifest_a: Manifest
    manifest_b: Manifest
    work_a: tuple[list[DiffPair], list[SliceFunctions]]
    work_b: tuple[list[DiffPair], list[SliceFunctions]]
    cross: list[DiffPair]

    @classmethod
    def of(cls, manifest_a: Manifest, manifest_b: Manifest) -> PairPlan:
        cross = _cross_work(manifest_a, manifest_b)
        return cls(manifest_a, manifest_b, chain_work(manifest_a), chain_work(manifest_b), cross)

    @property
    def diffs(self) -> list[DiffPair]:
        return self.work_a[0] + self.work_b[0] + self.cross

    @property
    def slices(self) -> list[SliceFunctions]:
        return self.work_a[1] + self.work_b[1]

    def comparison(self, context: int, ignore: str, task: luigi.Task | None = None) -> Comparison:
        """The pair's comparison from its completed work."""
        run_a = assemble_payload(self.manifest_a, *self.work_a, context, task=task)
        run_b = assemble_payload(self.manifest_b, *self.work_b, context, task=task)
        cross_results = {(item.before_sha, item.after_sha): _cross_diff(item, task) for item in self.cross}
        snaps_a, snaps_b = self.manifest_a.snapshots, self.manifest_b.snapshots
        matches = match_passes([s.name for s in snaps_a], [s.name for s in snaps_b])
        # Both runs are seen through the ignore modes: what a pass did, and whether the outputs differ.
        modes = IgnoreModes.from_spec(ignore)
        keyed_a = keyed_snapshots(_snapshot_lines(self.manifest_a), modes, self.manifest_a.kind)
        keyed_b = keyed_snapshots(_snapshot_lines(self.manifest_b), modes, self.manifest_b.kind)
        behaviours = match_behaviours(matches, keyed_a, keyed_b)
        ignoring = (modes, match_differs(matches, keyed_a, keyed_b)) if modes else None
        return build_comparison(run_a, run_b, cross_results, context, behaviours, ignoring)


@dataclass(frozen=True)
class ComparisonPlan:
    """What a run-against-run report is made of: the traces of A and B paired (pair_traces), each
    pair's plan, and the traces only one run has."""

    dumps: tuple[str, str]
    pairs: list[tuple[Trace, Trace]]
    plans: list[PairPlan]
    only_a: list[Trace]
    only_b: list[Trace]
    several: bool  # either run holds several traces: the summary is per pair

    @classmethod
    def of(cls, dump: str, state: str, against: str, against_state: str) -> ComparisonPlan:
        traces_a, traces_b = current_traces(dump, state), current_traces(against, against_state)
        pairs, only_a, only_b = pair_traces(traces_a, traces_b)
        if not pairs:
            raise DumpError(
                f"--against: no trace of {dump} ({_labels(traces_a)}) is in {against} "
                f"({_labels(traces_b)}); traces pair by stage and unit"
            )
        for trace_a, trace_b in pairs:
            check_same_kind(dump, trace_a.manifest, against, trace_b.manifest)
        plans = [PairPlan.of(trace_a.manifest, trace_b.manifest) for trace_a, trace_b in pairs]
        return cls((dump, against), pairs, plans, only_a, only_b, len(traces_a) > 1 or len(traces_b) > 1)

    @property
    def diffs(self) -> list[DiffPair]:
        return unique_items([item for plan in self.plans for item in plan.diffs])

    def items(self) -> list[WorkItem]:
        return pipeline_order(self.diffs, unique_items([item for plan in self.plans for item in plan.slices]))

    def write(self, target: ReportTarget, context: int, ignore: str, task: luigi.Task | None = None) -> None:
        """Render the page from the completed work into `target`, unless it is current already."""
        if target.exists():
            return
        comparisons = [plan.comparison(context, ignore, task) for plan in self.plans]
        if not self.several:
            html = render_html(comparisons[0].to_json(), target.fingerprint or "")
            target.write(html, comparison_summary(comparisons[0]), len(self.diffs))
            return
        shown = shown_pair(comparisons)
        keys = [trace_key(trace_a) for trace_a, _trace_b in self.pairs]
        summary = traces_comparison_summary(
            self.dumps,
            list(zip(keys, comparisons)),
            [trace_key(t) for t in self.only_a],
            [trace_key(t) for t in self.only_b],
            keys[shown],
        )
        label = self.pairs[shown][0].label
        shown_trace = {
            "trace": label,
            "pairs": len(self.pairs),
            "only_in_a": [t.label for t in self.only_a],
            "only_in_b": [t.label for t in self.only_b],
        }
        page = comparisons[shown].to_json()
        page = {**page, "title": f"{label}: {page['title']}", "shown_trace": shown_trace}
        target.write(render_html(page, target.fingerprint or ""), summary, len(self.diffs))


def _cross_diff(item: DiffPair, task: luigi.Task | None) -> PassDiff:
    """A matched pass's cached diff from run A's snapshot to run B's, as the page carries it."""
    return PassDiff.from_json(cached_diff(item, task).to_page())


def _labels(traces: list[Trace]) -> str:
    shown = ", ".join(trace.label for trace in traces[:4])
    return shown + (" ..." if len(traces) > 4 else "")


def _cross_work(manifest_a: Manifest, manifest_b: Manifest) -> list:
    """A diff for every matched pass whose output differs between the runs."""
    snaps_a, snaps_b = manifest_a.snapshots, manifest_b.snapshots
    work = []
    for match in match_passes([s.name for s in snaps_a], [s.name for s in snaps_b]):
        if match.a is None or match.b is None:
            continue
        a, b = snaps_a[match.a], snaps_b[match.b]
        if a.sha256 != b.sha256:
            work.append(diff_task(manifest_a, a, manifest_b, b))
    return unique_items(work)


_KIND_NAMES = {"pypto": "a PyPTO passes_dump", "mlir": "an MLIR trace"}


def check_same_kind(dump: str, manifest_a: Manifest, against: str, manifest_b: Manifest) -> None:
    """Run against run pairs passes of two runs of one compiler: a PyPTO dump against an MLIR trace
    matches nothing by name, so it would report every pass as differing or only in one run."""
    if manifest_a.kind != manifest_b.kind:
        shown_a, shown_b = (_KIND_NAMES.get(m.kind, m.kind) for m in (manifest_a, manifest_b))
        raise DumpError(
            f"--against: {dump} is {shown_a} but {against} is {shown_b}; run against run compares two runs "
            "of the same kind (two passes_dump/ directories, or two MLIR traces)"
        )


def _snapshot_lines(manifest: Manifest) -> list[list[str]]:
    """Every snapshot's lines, in pipeline order (for what each pass changed)."""
    return [
        load_snapshot(str(manifest.path_of(s)), s.sha256, s.span, manifest.kind).text.splitlines()
        for s in manifest.snapshots
    ]

"""RenderComparison: run A against run B, pass by pass, reusing each run's own cached work."""

from __future__ import annotations

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
    ValidateDump,
    cached_diff,
    current_manifest,
    current_traces,
    load_snapshot,
)
from ir_trace.report.against import (
    build_comparison_payload,
    keyed_snapshots,
    match_behaviours,
    match_differs,
    match_passes,
)
from ir_trace.report.render import render_html
from ir_trace.summaries.comparison import comparison_summary


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
        # A run of several traces is refused by `run` (current_manifest), in one line.
        digests = traces_digest(validated[0]), traces_digest(validated[1])
        return comparison_fingerprint(*digests, self.context, self.ignore)

    def dumps_read(self) -> list[str]:
        return [self.dump, self.against]

    def run(self):
        self.check_arguments()
        manifest_a = current_manifest(self.dump, self.state)
        manifest_b = current_manifest(self.against, self.against_state)
        check_same_kind(self.dump, manifest_a, self.against, manifest_b)
        diffs_a, slices_a = chain_work(manifest_a)
        diffs_b, slices_b = chain_work(manifest_b)
        cross = _cross_work(manifest_a, manifest_b)
        diffs = unique_items(diffs_a + diffs_b + cross)
        yield from self.schedule(pipeline_order(diffs, unique_items(slices_a + slices_b)))
        target = self.report_target(self.fingerprint([current_traces(self.dump), current_traces(self.against)]))
        if target.exists():
            return
        run_a = assemble_payload(manifest_a, diffs_a, slices_a, self.context, task=self).to_json()
        run_b = assemble_payload(manifest_b, diffs_b, slices_b, self.context, task=self).to_json()
        cross_results = {(item.before_sha, item.after_sha): cached_diff(item, self).to_page() for item in cross}
        matches = match_passes([s.name for s in manifest_a.snapshots], [s.name for s in manifest_b.snapshots])
        # Both runs are seen through the ignore modes: what a pass did, and whether the outputs differ.
        modes = IgnoreModes.from_spec(self.ignore)
        keyed_a = keyed_snapshots(_snapshot_lines(manifest_a), modes, manifest_a.kind)
        keyed_b = keyed_snapshots(_snapshot_lines(manifest_b), modes, manifest_b.kind)
        behaviours = match_behaviours(matches, keyed_a, keyed_b)
        ignoring = (modes, match_differs(matches, keyed_a, keyed_b)) if modes else None
        payload = build_comparison_payload(run_a, run_b, cross_results, self.context, behaviours, ignoring)
        target.write(render_html(payload), comparison_summary(payload), len(diffs))


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

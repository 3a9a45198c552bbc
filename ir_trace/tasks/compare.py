"""RenderComparison: run A against run B, pass by pass, reusing each run's own cached work."""

from __future__ import annotations

import luigi

from ir_trace.compare import build_comparison_payload, match_passes, summarize_comparison
from ir_trace.errors import IRTraceError
from ir_trace.render import render_html
from ir_trace.tasks.report import ReportWriter, assemble_payload, chain_work, diff_task, load_result, read_manifest
from ir_trace.tasks.snapshots import ValidateDump, path_digest


class RenderComparison(ReportWriter):
    """A report comparing two dumps of one program (for example before and after a compiler patch)."""

    dump = luigi.Parameter(description="run A's passes_dump/")
    against = luigi.Parameter(description="run B's passes_dump/")

    def outcome_parts(self) -> tuple[str, ...]:
        return (self.dump, self.against, self.report)

    def requires(self):
        return [ValidateDump(dump=self.dump, run_id=self.run_id), ValidateDump(dump=self.against, run_id=self.run_id)]

    def run(self):
        try:
            manifest_a, manifest_b = (read_manifest(target) for target in self.input())
        except IRTraceError as exc:
            self.finish({"ok": False, "error": str(exc)})
            return
        diffs_a, slices_a = chain_work(manifest_a, self.run_id)
        diffs_b, slices_b = chain_work(manifest_b, self.run_id)
        cross = self._cross_work(manifest_a, manifest_b)
        diffs = _unique(diffs_a + diffs_b + cross)
        yield from self.schedule(diffs, _unique(slices_a + slices_b))

        def page():
            run_a = assemble_payload(manifest_a, diffs_a, slices_a, self.context)
            run_b = assemble_payload(manifest_b, diffs_b, slices_b, self.context)
            cross_results = {(t.before_sha, t.after_sha): load_result(t) for t in cross}
            payload = build_comparison_payload(run_a, run_b, cross_results, self.context)
            return render_html(payload), summarize_comparison(payload)

        try:
            outcome = self.write_unless_current(path_digest(manifest_a.digest(), manifest_b.digest()), page)
        except IRTraceError as exc:
            outcome = {"ok": False, "error": str(exc)}
        self.finish(outcome, pairs=len(diffs))

    def _cross_work(self, manifest_a, manifest_b):
        snaps_a, snaps_b = manifest_a.snapshots, manifest_b.snapshots
        work = []
        for match in match_passes([s.name for s in snaps_a], [s.name for s in snaps_b]):
            if match.a is None or match.b is None:
                continue
            a, b = snaps_a[match.a], snaps_b[match.b]
            if a.sha256 != b.sha256:
                work.append(diff_task(manifest_a, a, manifest_b, b, self.run_id))
        return _unique(work)


def _unique(tasks: list) -> list:
    return list({task.task_id: task for task in tasks}.values())

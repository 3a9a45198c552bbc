"""RenderReport: validate, schedule the per-pair and per-snapshot work, then write the page."""

from __future__ import annotations

import os
import time
from itertools import zip_longest
from pathlib import Path

import luigi

from ir_trace import __version__
from ir_trace.diff import ALGORITHM_VERSION
from ir_trace.discovery import Manifest
from ir_trace.errors import IRTraceError
from ir_trace.normalize import NORMALIZE_VERSION, IgnoreModes
from ir_trace.payload import EMPTY_DIFF, build_payload, summarize
from ir_trace.render import render_html, template_digest, write_atomically
from ir_trace.summary import SCHEMA_VERSION as SUMMARY_VERSION
from ir_trace.summary import trace_summary
from ir_trace.tasks.base import RUN_RECORD_SECONDS, PipelineTask
from ir_trace.tasks.config import shared_cache
from ir_trace.tasks.snapshots import SLICER_VERSION, DiffPair, SliceFunctions, ValidateDump, load_snapshot, path_digest
from ir_trace.tasks.targets import CacheTarget

PROCESS_RUN_ID = f"{os.getpid()}-{time.time_ns()}"  # one `luigi --module` command is one run
WORK_PLANNED = "ir_trace.work_planned"  # event(task, count): how many tasks this report still needs
OUTPUT_VERSION = "|".join(
    [ALGORITHM_VERSION, SLICER_VERSION, NORMALIZE_VERSION, f"summary-{SUMMARY_VERSION}", __version__]
)


def outcome_key(run_id: str, *parts: str) -> str:
    return f"outcome/{run_id}/{path_digest(*parts)}"


def diff_task(manifest_a: Manifest, a, manifest_b: Manifest, b, run_id: str) -> DiffPair:
    return DiffPair(
        before=str(manifest_a.path_of(a)),
        before_sha=a.sha256,
        after=str(manifest_b.path_of(b)),
        after_sha=b.sha256,
        run_id=run_id,
    )


def chain_work(manifest: Manifest, run_id: str) -> tuple[list[DiffPair], list[SliceFunctions]]:
    """One diff per adjacent pair of distinct snapshots, one slicing per distinct snapshot.

    Listed in pipeline order, so Luigi slices snapshot k right after diffing into it, while
    its text is still loaded.
    """
    diffs, slices, seen = [], [], set()
    snapshots = manifest.snapshots
    for position, snapshot in enumerate(snapshots):
        before = snapshots[position - 1] if position else None
        if before and before.sha256 != snapshot.sha256 and (before.sha256, snapshot.sha256) not in seen:
            seen.add((before.sha256, snapshot.sha256))
            diffs.append(diff_task(manifest, before, manifest, snapshot, run_id))
        if snapshot.sha256 not in seen:
            seen.add(snapshot.sha256)
            slices.append(SliceFunctions(snapshot=str(manifest.path_of(snapshot)), sha=snapshot.sha256, run_id=run_id))
    return diffs, slices


def assemble_payload(
    manifest: Manifest, diffs: list[DiffPair], slices: list[SliceFunctions], context: int, ignore: str = ""
) -> dict:
    """The report payload of one dump, from the results of its completed chain work; `ignore` is
    the initial ignore modes' spec (`IgnoreModes.spec()`)."""
    diff_results = {(t.before_sha, t.after_sha): load_result(t) for t in diffs}
    slice_results = {t.sha: load_result(t) for t in slices}
    snaps = manifest.snapshots
    per_pass = [diff_results.get((a.sha256, b.sha256), EMPTY_DIFF) for a, b in zip(snaps, snaps[1:])]
    base_lines, _eol = load_snapshot(str(manifest.path_of(snaps[0])), snaps[0].sha256).split
    modes = IgnoreModes.from_spec(ignore)
    return build_payload(manifest, base_lines, per_pass, slice_results, context, modes.to_json())


def load_result(task: DiffPair | SliceFunctions) -> dict:
    """A dependency's cached result, recomputed here if the cache lost it since it completed."""
    result = task.output().read()
    if result is None:
        result = task.compute()
        task.output().write(result)
    return result


def read_manifest(target: CacheTarget) -> Manifest:
    data = target.read()
    if data is None or "error" in data:
        raise IRTraceError((data or {}).get("error", "the dump's manifest was lost; run again"))
    return Manifest.from_json(data)


class ReportWriter(PipelineTask):
    """Shared by the report tasks: plan, schedule, then write the page unless it is up to date."""

    report = luigi.Parameter(default="ir_trace.html", description="where to write the report")
    context = luigi.IntParameter(default=3, description="unchanged lines kept around each change")
    ignore = luigi.Parameter(default="", description="initial ignore modes, as IgnoreModes.spec() ('ssa,memref|REGEX')")
    run_id = luigi.Parameter(default=PROCESS_RUN_ID)

    def outcome_parts(self) -> tuple[str, ...]:
        raise NotImplementedError

    def output(self):
        return CacheTarget(outcome_key(self.run_id, *self.outcome_parts()), expire=RUN_RECORD_SECONDS)

    def schedule(self, diffs: list[DiffPair], slices: list[SliceFunctions]):
        """Record how many diffs this run must compute (first attempt only), then yield the work.

        Luigi restarts `run` once the yielded work is done, so the plan is made only once.
        """
        plan_key = f"plan/{self.run_id}/{path_digest(*self.outcome_parts())}"
        if shared_cache().get(plan_key) is None:
            missing = [t for t in diffs + slices if not t.complete()]
            self.trigger_event(WORK_PLANNED, self, len(missing))
            rediffed = sum(isinstance(t, DiffPair) for t in missing)
            shared_cache().add(plan_key, {"rediffed": rediffed}, expire=RUN_RECORD_SECONDS)
        yield [task for pair in zip_longest(slices, diffs) for task in pair if task is not None]
        self.rediffed = (shared_cache().get(plan_key) or {}).get("rediffed", len(diffs))

    def write_unless_current(self, fingerprint: str, build) -> dict:
        """Write the page `build()` returns as (html, summary), unless an identical one is in place."""
        target = Path(self.report).absolute()
        fingerprint = path_digest(fingerprint, str(self.context), self.ignore, template_digest(), OUTPUT_VERSION)
        marker_key = f"written/{path_digest(str(target))}"
        marker = shared_cache().get(marker_key)
        if marker and marker["fingerprint"] == fingerprint and file_state(target) == marker["state"]:
            return {**marker["summary"], "ok": True, "bytes": marker["bytes"], "reused": True}
        html, summary = build()
        size = write_atomically(target, html)
        shared_cache().put(
            marker_key, {"fingerprint": fingerprint, "state": file_state(target), "bytes": size, "summary": summary}
        )
        return {**summary, "ok": True, "bytes": size, "reused": False}

    def finish(self, outcome: dict, pairs: int = 0) -> None:
        outcome.update(report=str(Path(self.report).absolute()), pairs=pairs, rediffed=getattr(self, "rediffed", 0))
        self.output().write(outcome)


class RenderReport(ReportWriter):
    """One dump's HTML report; its output records the outcome (summary or one-line error)."""

    dump = luigi.Parameter(description="the passes_dump/ directory")

    def outcome_parts(self) -> tuple[str, ...]:
        return (self.dump, self.report)

    def requires(self):
        return ValidateDump(dump=self.dump, run_id=self.run_id)

    def run(self):
        try:
            manifest = read_manifest(self.input())
        except IRTraceError as exc:
            self.finish({"ok": False, "error": str(exc), "dump": self.dump})
            return
        diffs, slices = chain_work(manifest, self.run_id)
        yield from self.schedule(diffs, slices)
        try:
            outcome = self.write_unless_current(manifest.digest(), lambda: self._page(manifest, diffs, slices))
        except IRTraceError as exc:
            outcome = {"ok": False, "error": str(exc)}
        self.finish({**outcome, "dump": self.dump}, pairs=len(diffs))

    def _page(self, manifest: Manifest, diffs: list[DiffPair], slices: list[SliceFunctions]) -> tuple[str, dict]:
        payload = assemble_payload(manifest, diffs, slices, self.context, self.ignore)
        return render_html(payload), {**summarize(payload), "trace": trace_summary(payload)}


def file_state(path: Path) -> list | None:
    """Size and mtime: enough to notice a report replaced or edited since it was written (no inode,
    so hosts sharing the reports over a network file system agree)."""
    try:
        stat = path.stat()
    except OSError:
        return None
    return [stat.st_size, stat.st_mtime_ns]

"""RenderReport: validate, schedule the per-pair and per-snapshot work, then write the page."""

from __future__ import annotations

import os
import time
from pathlib import Path

import luigi

from ir_trace import __version__
from ir_trace.diff import ALGORITHM_VERSION
from ir_trace.discovery import Manifest
from ir_trace.errors import IRTraceError
from ir_trace.payload import EMPTY_DIFF, build_payload, summarize
from ir_trace.render import render_html, template_digest, write_atomically
from ir_trace.summary import SCHEMA_VERSION as SUMMARY_VERSION
from ir_trace.summary import trace_summary
from ir_trace.tasks.base import RUN_RECORD_SECONDS, PipelineTask
from ir_trace.tasks.config import shared_cache
from ir_trace.tasks.snapshots import SLICER_VERSION, DiffPair, SliceFunctions, ValidateDump, load_snapshot, path_digest
from ir_trace.tasks.targets import CacheTarget

PROCESS_RUN_ID = f"{os.getpid()}-{time.time_ns()}"  # one `luigi --module` command is one run


def outcome_key(run_id: str, dump: str, report: str) -> str:
    return f"outcome/{run_id}/{path_digest(dump, report)}"


class RenderReport(PipelineTask):
    """One dump's HTML report; its output records the outcome (summary or one-line error)."""

    dump = luigi.Parameter(description="the passes_dump/ directory")
    report = luigi.Parameter(default="ir_trace.html", description="where to write the report")
    context = luigi.IntParameter(default=3, description="unchanged lines kept around each change")
    run_id = luigi.Parameter(default=PROCESS_RUN_ID)

    def output(self):
        return CacheTarget(outcome_key(self.run_id, self.dump, self.report), expire=RUN_RECORD_SECONDS)

    def requires(self):
        return ValidateDump(dump=self.dump, run_id=self.run_id)

    def run(self):
        manifest_json = self.input().read()
        if manifest_json is None or "error" in manifest_json:
            self._finish({"ok": False, "error": (manifest_json or {}).get("error", "the dump's manifest was lost")})
            return
        manifest = Manifest.from_json(manifest_json)
        diffs, slices = self._work_for(manifest)
        plan_key = f"plan/{self.run_id}/{path_digest(self.dump, self.report)}"
        shared_cache().add(plan_key, {"rediffed": sum(not t.complete() for t in diffs)}, expire=RUN_RECORD_SECONDS)
        yield diffs + slices
        try:
            outcome = self._write_report(manifest, diffs, slices)
        except IRTraceError as exc:
            outcome = {"ok": False, "error": str(exc)}
        outcome["rediffed"] = (shared_cache().get(plan_key) or {}).get("rediffed", len(diffs))
        outcome["pairs"] = len(diffs)
        self._finish(outcome)

    def _work_for(self, manifest: Manifest) -> tuple[list[DiffPair], list[SliceFunctions]]:
        diffs, slices, seen = [], [], set()
        snapshots = manifest.snapshots
        for before, after in zip(snapshots, snapshots[1:]):
            if before.sha256 != after.sha256 and (before.sha256, after.sha256) not in seen:
                seen.add((before.sha256, after.sha256))
                diffs.append(DiffPair(before=str(manifest.path_of(before)), before_sha=before.sha256,
                                      after=str(manifest.path_of(after)), after_sha=after.sha256, run_id=self.run_id))
        for snapshot in snapshots:
            if snapshot.sha256 not in seen:
                seen.add(snapshot.sha256)
                slices.append(SliceFunctions(snapshot=str(manifest.path_of(snapshot)), sha=snapshot.sha256,
                                             run_id=self.run_id))
        return diffs, slices

    def _write_report(self, manifest: Manifest, diffs: list[DiffPair], slices: list[SliceFunctions]) -> dict:
        fingerprint = path_digest(manifest.digest(), str(self.context), template_digest(),
                                  ALGORITHM_VERSION, SLICER_VERSION, f"summary-{SUMMARY_VERSION}", __version__)
        target = Path(self.report).absolute()
        marker_key = f"written/{path_digest(str(target))}"
        marker = shared_cache().get(marker_key)
        if marker and marker["fingerprint"] == fingerprint and _file_state(target) == marker["state"]:
            return {**marker["summary"], "ok": True, "bytes": marker["bytes"], "reused": True}
        diff_results = {(t.before_sha, t.after_sha): _load(t) for t in diffs}
        slice_results = {t.sha: _load(t) for t in slices}
        snaps = manifest.snapshots
        per_pass = [diff_results.get((a.sha256, b.sha256), EMPTY_DIFF) for a, b in zip(snaps, snaps[1:])]
        base_lines, _eol = load_snapshot(str(manifest.path_of(snaps[0])), snaps[0].sha256).split
        payload = build_payload(manifest, base_lines, per_pass, slice_results, self.context)
        size = write_atomically(target, render_html(payload))
        summary = {**summarize(payload), "trace": trace_summary(payload)}
        shared_cache().put(marker_key, {"fingerprint": fingerprint, "state": _file_state(target),
                                        "bytes": size, "summary": summary})
        return {**summary, "ok": True, "bytes": size, "reused": False}

    def _finish(self, outcome: dict) -> None:
        outcome.update(report=str(Path(self.report).absolute()), dump=self.dump)
        self.output().write(outcome)


def _load(task: DiffPair | SliceFunctions) -> dict:
    """A dependency's cached result, recomputed here if the cache lost it since it completed."""
    result = task.output().read()
    if result is None:
        result = task.compute()
        task.output().write(result)
    return result


def _file_state(path: Path) -> list | None:
    try:
        stat = path.stat()
    except OSError:
        return None
    return [stat.st_size, stat.st_mtime_ns, stat.st_ino]

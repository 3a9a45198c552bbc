"""Per-snapshot and per-pair work: validation, diff, function slicing."""

from __future__ import annotations

import hashlib
from pathlib import Path

import luigi

from ir_trace.diff import ALGORITHM_VERSION, count_changes, diff_snapshots, hunks_to_json, split_lines
from ir_trace.discovery import discover_snapshots, read_snapshot_text
from ir_trace.errors import DumpError, IRTraceError
from ir_trace.functions import slice_functions
from ir_trace.tasks.base import RUN_RECORD_SECONDS, PipelineTask
from ir_trace.tasks.targets import CacheTarget

SLICER_VERSION = "slice-1"


def path_digest(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:32]


def read_verified(path: str, sha256: str) -> tuple[list[str], bool]:
    """A snapshot's lines, refusing a file rewritten since it was validated."""
    text, actual = read_snapshot_text(Path(path))
    if actual != sha256:
        raise DumpError(f"snapshot changed while the report was being built: {path}; run again")
    return split_lines(text)


class ValidateDump(PipelineTask):
    """Validate a dump and record its manifest (or its one-line error) for this run."""

    dump = luigi.Parameter()
    run_id = luigi.Parameter()

    def output(self):
        return CacheTarget(f"manifest/{self.run_id}/{path_digest(self.dump)}", expire=RUN_RECORD_SECONDS)

    def run(self):
        try:
            self.output().write(discover_snapshots(self.dump).to_json())
        except IRTraceError as exc:
            self.output().write({"error": str(exc)})


class DiffPair(PipelineTask):
    """The diff of two adjacent snapshots, keyed by their content hashes."""

    before = luigi.Parameter(significant=False)
    before_sha = luigi.Parameter()
    after = luigi.Parameter(significant=False)
    after_sha = luigi.Parameter()

    def output(self):
        return CacheTarget(f"diff/{ALGORITHM_VERSION}/{self.before_sha}/{self.after_sha}")

    def compute(self) -> dict:
        (a, a_eol), (b, b_eol) = read_verified(self.before, self.before_sha), read_verified(self.after, self.after_sha)
        hunks = diff_snapshots(a, b, a_eol, b_eol)
        inserted, deleted = count_changes(hunks)
        return {"hunks": hunks_to_json(hunks, b), "inserted": inserted, "deleted": deleted, "eol": b_eol}

    def run(self):
        self.output().write(self.compute())


class SliceFunctions(PipelineTask):
    """The functions of one snapshot, keyed by its content hash."""

    snapshot = luigi.Parameter(significant=False)
    sha = luigi.Parameter()

    def output(self):
        return CacheTarget(f"functions/{SLICER_VERSION}/{self.sha}")

    def compute(self) -> dict:
        lines, eol = read_verified(self.snapshot, self.sha)
        return {**slice_functions(lines).to_json(), "eol": eol}

    def run(self):
        self.output().write(self.compute())

"""Per-snapshot and per-pair work: validation, diff, function slicing."""

from __future__ import annotations

from collections import OrderedDict
from functools import cached_property
from pathlib import Path

import luigi

from ir_trace.diff import count_changes, diff_snapshots, hunks_to_json, split_lines
from ir_trace.discovery import Manifest, read_snapshot_text
from ir_trace.errors import DumpError, IRTraceError
from ir_trace.fingerprints import diff_key, manifest_key, slice_key, tree_state
from ir_trace.functions import Slices, Structure, UnsafeToSlice, analyse_structure, slice_functions
from ir_trace.tasks.base import AbsolutePath, PipelineTask
from ir_trace.tasks.targets import CacheTarget
from ir_trace.traces import Trace, discover_traces


class LoadedSnapshot:
    """One snapshot's text, with its lines, structure and functions worked out once, when first needed."""

    def __init__(self, text: str):
        self.text = text

    @cached_property
    def split(self) -> tuple[list[str], bool]:
        return split_lines(self.text)

    @cached_property
    def structure(self) -> Structure | None:
        try:
            return analyse_structure(self.split[0])
        except UnsafeToSlice:
            return None

    @cached_property
    def slices(self) -> Slices:
        """Its functions, shared by the slicing task and the diffs (which match functions first)."""
        return slice_functions(self.split[0], self.structure)

    @cached_property
    def functions(self) -> list[tuple[str, int, int]] | None:
        """(key, start, end) of each function, as the report lists them (None: cannot be sliced)."""
        found = self.slices.functions
        return None if found is None else [(f.key, f.start, f.end) for f in found]


_loaded: OrderedDict[str, LoadedSnapshot] = OrderedDict()
_LOADED_LIMIT = 8  # snapshots kept per process: adjacent pairs and slices reuse each other's work
_texts: OrderedDict[str, str] = OrderedDict()  # texts read by validation, for the work that follows
_TEXTS_LIMIT = 1 << 25  # characters of them kept (the oldest go first), so no file is read twice
_text_chars = 0


def remember_text(sha256: str, text: str) -> None:
    global _text_chars
    if sha256 not in _texts:
        _texts[sha256] = text
        _text_chars += len(text)
    _texts.move_to_end(sha256)
    while _text_chars > _TEXTS_LIMIT and len(_texts) > 1:
        _text_chars -= len(_texts.popitem(last=False)[1])


def load_snapshot(path: str, sha256: str) -> LoadedSnapshot:
    """The snapshot whose bytes hash to `sha256`, refusing a file rewritten since validation.

    A text already read in this process under that hash is the same text, so it is reused.
    """
    if sha256 not in _loaded:
        text = _texts.get(sha256)
        if text is None:
            text, actual = read_snapshot_text(Path(path))
            if actual != sha256:
                raise DumpError(f"snapshot changed while the report was being built: {path}; run again")
            remember_text(sha256, text)
        _loaded[sha256] = LoadedSnapshot(text)
        while len(_loaded) > _LOADED_LIMIT:
            _loaded.popitem(last=False)
    _loaded.move_to_end(sha256)
    return _loaded[sha256]


class ValidateDump(PipelineTask):
    """Validate a dump (every trace under the path: `traces.discover_traces`) and cache the
    manifests for as long as its files stay as they are.

    An invalid dump fails the task with the one-line reason.
    """

    dump = AbsolutePath(description="the passes_dump/ directory, or a directory or file holding several traces")

    def output(self):
        return CacheTarget(manifest_key(self.dump, tree_state(self.dump)))

    def run(self):
        validate(self.dump, self.output())


def validate(dump: str, target: CacheTarget) -> dict:
    """Validate `dump` into `target` (a target named before reading, so a file rewritten meanwhile
    leaves the manifests under the old state, where nothing finds it)."""
    traces = discover_traces(dump, on_text=remember_text)
    data = {"traces": [{"stage": t.stage, "unit": t.unit, "manifest": t.manifest.to_json()} for t in traces]}
    target.write(data)
    return data


def traces_from_json(data: dict) -> list[Trace]:
    return [Trace(t["stage"], t["unit"], Manifest.from_json(t["manifest"])) for t in data["traces"]]


def current_traces(dump: str) -> list[Trace]:
    """The traces under `dump` for its files as they are now: cached, else validated here."""
    target = ValidateDump(dump=dump).output()
    data = target.read()
    return traces_from_json(data if data is not None else validate(dump, target))


def current_manifest(dump: str) -> Manifest:
    """The manifest of a dump that holds one trace (run against run, sweeps); IRTraceError otherwise."""
    return single_manifest(dump, current_traces(dump))


def single_manifest(dump: str, traces: list[Trace]) -> Manifest:
    if len(traces) != 1:
        units = ", ".join(f"{t.stage} {t.unit}" for t in traces)
        raise IRTraceError(f"{dump} holds {len(traces)} traces ({units}); this needs one passes_dump/ directory")
    return traces[0].manifest


class DiffPair(PipelineTask):
    """The diff of two adjacent snapshots, keyed by their content hashes."""

    before = luigi.Parameter(significant=False)
    before_sha = luigi.Parameter()
    after = luigi.Parameter(significant=False)
    after_sha = luigi.Parameter()

    def output(self):
        return CacheTarget(diff_key(self.before_sha, self.after_sha))

    def compute(self) -> dict:
        before, after = load_snapshot(self.before, self.before_sha), load_snapshot(self.after, self.after_sha)
        (a, a_eol), (b, b_eol) = before.split, after.split
        hunks = diff_snapshots(a, b, a_eol, b_eol, before.functions, after.functions)
        inserted, deleted = count_changes(hunks)
        return {"hunks": hunks_to_json(hunks, b), "inserted": inserted, "deleted": deleted, "eol": b_eol}

    def run(self):
        self.output().write(self.compute())


class SliceFunctions(PipelineTask):
    """The functions of one snapshot, keyed by its content hash."""

    snapshot = luigi.Parameter(significant=False)
    sha = luigi.Parameter()

    def output(self):
        return CacheTarget(slice_key(self.sha))

    def compute(self) -> dict:
        snapshot = load_snapshot(self.snapshot, self.sha)
        _lines, eol = snapshot.split
        return {**snapshot.slices.to_json(), "eol": eol}

    def run(self):
        self.output().write(self.compute())

"""Sweep: a report for every passes_dump/ under a root, plus index.html and sweep.json.

    luigi --module ir_trace.tasks Sweep --root build_output --out-dir reports \\
          [--baseline reports.prev/sweep.json] [--context 3] [--ignore ssa,memref,whitespace]
          [--ignore-regex REGEX ...] --workers 2

Granularity: one Luigi task per dump (`SweepDump`). It runs that dump's own RenderReport
pipeline (validation, per-pair diffs, slicing, render; the same tasks and cache entries as the
CLI) inside its process with `run_inline`, so the scheduler sees dumps, not dumps x passes;
docs/sweeps.md has the measurements behind this choice.

Completion lives next to the reports (shared storage), not in the per-host diskcache, so
workers on several hosts agree on what is done: a dump is done when its record in
OUT/.sweep/records/ carries the identity of its current files and its report is intact; the
sweep is done when OUT/sweep.json carries the identity of all of them.
"""

from __future__ import annotations

import hashlib
import json
import types
import uuid
from pathlib import Path

import luigi
from luigi.task import flatten, getpaths

from ir_trace import __version__
from ir_trace.diff import ALGORITHM_VERSION
from ir_trace.discovery import read_snapshot_text
from ir_trace.errors import IRTraceError
from ir_trace.render import template_digest, write_atomically
from ir_trace.sweep import (
    SWEEP_SCHEMA,
    FoundDump,
    build_sweep,
    compile_ignores,
    find_dumps,
    index_template_digest,
    keep_text,
    load_baseline,
    pass_rows,
    prune_texts,
    records_dir,
    referenced_texts,
    report_ignore_spec,
    split_ignore_options,
    stat_fingerprint,
    text_store,
    write_sweep,
)
from ir_trace.tasks.report import RenderReport, file_state
from ir_trace.tasks.snapshots import SLICER_VERSION, ValidateDump, path_digest


class RepeatableParameter(luigi.Parameter):
    """A list of strings: a repeated flag (--ignore A --ignore B) or a JSON list in luigi.cfg."""

    @classmethod
    def _parser_kwargs(cls, param_name, task_name=None):
        return {**super()._parser_kwargs(param_name, task_name), "action": "append"}

    def parse(self, x):
        if isinstance(x, (list, tuple)):
            return tuple(str(item) for item in x)
        text = x.strip()
        return tuple(json.loads(text)) if text.startswith("[") else ((text,) if text else ())

    def normalize(self, x):
        return self.parse(x)

    def serialize(self, x):
        return json.dumps(list(x))


def run_inline(task: luigi.Task, progress=None) -> None:
    """Run `task` and everything it needs in this process, without asking a scheduler.

    Follows Luigi's protocol: static requires first, then the dynamic dependencies each
    `yield` of run() names, sending their outputs back. `progress(done, total)` is called as
    yielded dependencies finish.
    """
    if task.complete():
        return
    for dependency in flatten(task.requires()):
        run_inline(dependency)
    result = task.run()
    if not isinstance(result, types.GeneratorType):
        return
    try:
        wanted = next(result)
        while True:
            batch = flatten(wanted)
            for done, dependency in enumerate(batch, 1):
                run_inline(dependency)
                if progress:
                    progress(done, len(batch))
            wanted = result.send(getpaths(wanted))
    except StopIteration:
        pass


class RecordTarget(luigi.Target):
    """A JSON file that counts as present only while it carries `identity` and the report it
    describes is still the file that was written."""

    def __init__(self, path: Path, identity: str):
        self.path, self.identity = Path(path), identity

    def read(self) -> dict | None:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) and data.get("identity") == self.identity else None

    def exists(self) -> bool:
        record = self.read()
        if record is None:
            return False
        report = record.get("report_file")
        return report is None or file_state(Path(report)) == record.get("report_state")

    def write(self, record: dict) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(self.path, json.dumps({**record, "identity": self.identity}, ensure_ascii=False))


class SweepDump(luigi.Task):
    """One dump of a sweep: its report (via RenderReport) and its record for sweep.json."""

    dump = luigi.Parameter(description="the passes_dump/ directory")
    out_dir = luigi.Parameter(description="where the report and the record go")
    name = luigi.Parameter(description="report name (NAME.html)")
    context = luigi.IntParameter(default=3, description="unchanged lines kept around each change")
    fingerprint = luigi.Parameter(description="names, sizes and mtimes of the dump's files, hashed")
    ignore = luigi.Parameter(default="", description="the report's initial ignore modes (IgnoreModes.spec())")

    def identity(self) -> str:
        # Everything that changes the report: the files, the options, the viewer and the algorithms.
        return path_digest(
            self.fingerprint,
            self.dump,
            str(self.context),
            self.ignore,
            template_digest(),
            ALGORITHM_VERSION,
            SLICER_VERSION,
            __version__,
        )

    def report_path(self) -> Path:
        return Path(self.out_dir) / f"{self.name}.html"

    def output(self):
        return RecordTarget(records_dir(Path(self.out_dir)) / f"{self.name}.json", self.identity())

    def run(self):
        self.set_status_message(f"{self.name}: validating")
        self._last_step = -1
        Path(self.out_dir).mkdir(parents=True, exist_ok=True)
        run_id = f"sweep-{uuid.uuid4().hex}"  # inner tasks never reach the scheduler: unique is safe
        render = RenderReport(
            dump=self.dump, report=str(self.report_path()), context=self.context, ignore=self.ignore, run_id=run_id
        )
        try:
            run_inline(render, self._progress)
            outcome = render.output().read() or {"ok": False, "error": "the report's outcome was lost; run again"}
            manifest = ValidateDump(dump=self.dump, run_id=run_id).output().read() if outcome["ok"] else None
            passes = pass_rows(manifest, outcome["trace"]) if manifest else None
            if manifest:
                _keep_texts(manifest, text_store(Path(self.out_dir)))
        except IRTraceError as exc:
            outcome, passes = {"ok": False, "error": str(exc)}, None
        self.output().write(self._record(outcome, passes))
        self.set_progress_percentage(100)
        self.set_status_message(f"{self.name}: " + ("done" if outcome["ok"] else f"invalid: {outcome['error']}"))

    def _progress(self, done: int, total: int) -> None:
        step = 10 * done // total  # every tenth, so luigid is not flooded with updates
        if step != self._last_step:
            self._last_step = step
            self.set_progress_percentage(90 * done // total)
            self.set_status_message(f"{self.name}: {done}/{total} diffs and function slices")

    def _record(self, outcome: dict, passes: list[dict] | None) -> dict:
        ok = bool(outcome["ok"])
        report = self.report_path().absolute()
        summary_keys = ("passes", "changed", "noop", "warnings", "inserted", "deleted")
        return {
            "name": self.name,
            "dump": self.dump,
            "report": report.name if ok else None,
            "report_file": str(report) if ok else None,
            "report_state": file_state(report) if ok else None,
            "ok": ok,
            "error": None if ok else outcome["error"],
            "summary": {key: outcome[key] for key in summary_keys} if ok else None,
            "passes": passes,
            "work": {key: outcome.get(key) for key in ("reused", "rediffed", "pairs", "bytes")},
        }

    def on_failure(self, exception):
        return str(exception) if isinstance(exception, IRTraceError) else super().on_failure(exception)


def _keep_texts(manifest: dict, store: Path) -> None:
    """Copy each distinct snapshot into the sweep's text store (skipping one rewritten meanwhile)."""
    for snapshot in {s["sha256"]: s for s in manifest["snapshots"]}.values():
        path = Path(manifest["dump"]) / snapshot["file"]
        text, sha = read_snapshot_text(path)
        if sha == snapshot["sha256"]:
            keep_text(store, sha, text.encode("utf-8"))


class SweepTarget(luigi.Target):
    """OUT/sweep.json, present when it was built from exactly these inputs."""

    def __init__(self, path: Path, identity: str):
        self.path, self.identity = Path(path), identity

    def exists(self) -> bool:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return False
        return (
            isinstance(data, dict)
            and data.get("inputs") == self.identity
            and (self.path.parent / "index.html").is_file()
        )


class Sweep(luigi.Task):
    """Every passes_dump/ under --root: a report each, then index.html and sweep.json in --out-dir."""

    root = luigi.Parameter(description="directory searched (at any depth) for passes_dump/ directories")
    out_dir = luigi.Parameter(description="where reports, index.html and sweep.json go (created if missing)")
    baseline = luigi.Parameter(default="", description="sweep.json of an earlier sweep to compare with")
    context = luigi.IntParameter(default=3, description="unchanged lines kept around each change")
    ignore = RepeatableParameter(
        default=(),
        description="ignore modes (ssa,memref,whitespace): differences they absorb are not divergences; "
        "the reports start with them on. A value that is not mode names is a regex, as before (repeatable)",
    )
    ignore_regex = RepeatableParameter(
        default=(),
        description="regex; differences only in its matches do not count as divergence from the baseline (repeatable)",
    )

    def ignoring(self) -> tuple:
        """(IgnoreModes, regexes) from --ignore and --ignore-regex."""
        return split_ignore_options(self.ignore, self.ignore_regex)

    def found(self) -> list[FoundDump]:
        if not hasattr(self, "_found_dumps"):
            root = Path(self.root).absolute()
            self._found_dumps = find_dumps(root) if root.is_dir() else []  # run() reports a missing root
        return self._found_dumps

    def out(self) -> Path:
        return Path(self.out_dir).absolute()

    def requires(self):
        if not hasattr(self, "_dump_tasks"):
            self._dump_tasks = [
                SweepDump(
                    dump=str(f.dump),
                    out_dir=str(self.out()),
                    name=f.name,
                    context=self.context,
                    fingerprint=stat_fingerprint(f.dump),
                    ignore=report_ignore_spec(*self.ignoring()),
                )
                for f in self.found()
            ]
        return self._dump_tasks

    def identity(self) -> str:
        parts = [t.identity() for t in self.requires()]
        return path_digest(
            *parts,
            _file_digest(self.baseline),
            json.dumps(list(self.ignore)),
            json.dumps(list(self.ignore_regex)),
            str(self.context),
            index_template_digest(),
            str(SWEEP_SCHEMA),
            __version__,
        )

    def output(self):
        return SweepTarget(self.out() / "sweep.json", self.identity())

    def run(self):
        self.set_status_message("comparing and writing the index")
        self._check_arguments()
        modes, regexes = self.ignoring()
        ignores = compile_ignores(regexes)
        baseline = load_baseline(Path(self.baseline)) if self.baseline else None
        records = [self._record_of(task) for task in self.requires()]
        self.set_progress_percentage(50)
        options = {
            "root": str(Path(self.root).absolute()),
            "out_dir": str(self.out()),
            "baseline": str(Path(self.baseline).absolute()) if self.baseline else None,
            "context": self.context,
            "ignore": list(self.ignore),
            "ignore_modes": modes.names,
            "ignore_regex": regexes,
        }
        baseline_store = text_store(Path(self.baseline).absolute().parent) if baseline else None
        sweep = build_sweep(
            records,
            options,
            baseline,
            text_store(self.out()),
            baseline_store,
            ignores,
            inputs=self.identity(),
            modes=modes,
        )
        write_sweep(self.out(), sweep)
        prune_texts(text_store(self.out()), referenced_texts(sweep))
        totals = sweep["totals"]
        self.set_progress_percentage(100)
        self.set_status_message(
            f"{totals['programs']} programs: {totals['diverged']} diverged, "
            f"{totals['invalid']} invalid, {totals['new']} new, {totals['gone']} gone"
        )

    def _check_arguments(self) -> None:
        if not Path(self.root).is_dir():
            raise IRTraceError(f"sweep root is not a directory: {Path(self.root).absolute()}")
        if self.baseline and Path(self.baseline).absolute() == self.out() / "sweep.json":
            raise IRTraceError(
                f"--baseline {self.baseline} is the sweep.json this sweep overwrites; copy the "
                "previous --out-dir aside and pass the copy's sweep.json"
            )
        self.out().mkdir(parents=True, exist_ok=True)

    @staticmethod
    def _record_of(task: SweepDump) -> dict:
        record = task.output().read()
        if record is None:
            raise IRTraceError(f"the result of {task.dump} vanished from {task.output().path}; run the sweep again")
        return record

    def on_failure(self, exception):
        return str(exception) if isinstance(exception, IRTraceError) else super().on_failure(exception)


def _file_digest(path: str) -> str:
    if not path:
        return ""
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return "unreadable"

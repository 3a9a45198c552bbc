"""Sweep: a report for every program under a root (a passes_dump/, a program output directory with
ptoas_passes/, an MLIR tree directory or stream file: `ir_trace.sweep.find`), plus index.html and sweep.json.

    luigi --module ir_trace.pipeline Sweep --root build_output --out-dir reports \\
          [--baseline reports.prev/sweep.json] [--context 3] [--ignore ssa,memref,whitespace]
          [--ignore-regex REGEX] --workers 2

Granularity: one Luigi task per dump (`SweepDump`). It does that dump's report work (validation,
per-pair diffs, slicing, render: the same functions and cache entries as RenderReport,
`build_report_here`) in its own process, without a scheduler of its own, so the shared scheduler
sees dumps, not dumps x batches, and hears from each dump's task about once a second at most;
docs/sweeps.md has the measurements behind this choice.

Completion lives next to the reports (shared storage), not in the per-host diskcache, so
workers on several hosts agree on what is done: a dump is done when its record in
OUT/.sweep/records/ carries its current fingerprint and its report is still the file written;
the sweep is done when OUT/sweep.json carries the fingerprint of all of them. A claim file
(OUT/.sweep/claims/) makes sure no two workers write the same report, or the index, at once.

An invalid dump is a result (listed with its error); a bad argument or an I/O fault fails the task.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import luigi

from ir_trace.cache.fingerprints import file_state, sweep_dump_fingerprint, sweep_fingerprint
from ir_trace.errors import DumpError, IRTraceError
from ir_trace.inputs.discovery import read_snapshot_text
from ir_trace.inputs.traces import Trace
from ir_trace.options import DEFAULT_CONTEXT, ReportOptions
from ir_trace.pipeline.base import AbsolutePath, PipelineTask, ReportOptionsParameter
from ir_trace.pipeline.config import follow_inner_symlinks, observed_state, sweep_tasks
from ir_trace.pipeline.report import build_report_here
from ir_trace.pipeline.snapshots import DiffPair, WorkItem
from ir_trace.pipeline.targets import ReportRecord, ReportTarget
from ir_trace.runsafety.claims import Claim
from ir_trace.runsafety.output_paths import (
    check_printable,
    check_sweep_out_dir,
    refuse_overwriting_baseline,
    swept_containers,
)
from ir_trace.runsafety.run_guard import RunGuard
from ir_trace.runsafety.writes import write_output
from ir_trace.sweep.program_traces import record_traces
from ir_trace.sweep.results import (
    INDEX_FILES,
    FoundDump,
    build_sweep,
    claims_dir,
    compile_ignores,
    find_dumps,
    invalid_record,
    keep_text,
    load_baseline,
    not_utf8_record,
    prune_texts,
    records_dir,
    referenced_texts,
    report_ignore_modes,
    split_ignore_options,
    text_store,
    valid_record,
    write_sweep,
)
from ir_trace.sweep.summary import SweepTotals


class RegexListParameter(luigi.Parameter[tuple[str, ...]]):
    """Regexes: one (`--ignore 'kb_inline\\d+'`) or a JSON list of several, on the command line or in luigi.cfg.

    Built on Parameter's public parse/serialize/normalize only, so a repeated flag is not a list:
    Luigi's command line keeps the last one. Several patterns go in one JSON list (or one regex
    joined with `|`).
    """

    def parse(self, x):
        if isinstance(x, (list, tuple)):
            return tuple(str(item) for item in x)
        text = x.strip()
        if text.startswith("["):
            try:
                items = json.loads(text)
            except ValueError:
                return (text,)  # a regex that starts with a character class
            if isinstance(items, list):
                return tuple(str(item) for item in items)
        return (text,) if text else ()

    def normalize(self, x):
        return self.parse(x)

    def serialize(self, x):
        return json.dumps(list(x))


class RecordTarget(luigi.Target):
    """A JSON file that counts as present only while it carries `fingerprint` and the report it
    describes is still the file that was written."""

    def __init__(self, path: Path, fingerprint: str):
        self.path, self.fingerprint = Path(path), fingerprint

    def read(self) -> dict | None:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) and data.get("fingerprint") == self.fingerprint else None

    def exists(self) -> bool:
        record = self.read()
        if record is None:
            return False
        report = record.get("report_file")
        return report is None or file_state(report) == record.get("report_state")

    def write(self, record: dict, guard: RunGuard) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps({**record, "fingerprint": self.fingerprint}, ensure_ascii=False)
        write_output(self.path, text, guard=guard)


class SweepDump(PipelineTask):
    """One dump of a sweep: its report (RenderReport's work, done in-process) and its record for sweep.json.
    A task of its own in a sweep of few dumps; in a larger one, one member of a `SweepBatch`."""

    dump = AbsolutePath(description="the program: passes_dump/, program output dir, MLIR tree dir or stream file")
    out_dir = AbsolutePath(description="where the report and the record go")
    name = luigi.Parameter(description="report name (NAME.html)")
    state = luigi.Parameter(description="names, sizes and mtimes of the dump's files, hashed (see fingerprints)")
    options = ReportOptionsParameter(
        default=ReportOptions(), description="the report's context and initial ignore modes, one JSON value"
    )

    def fingerprint(self) -> str:
        return sweep_dump_fingerprint(self.state, self.dump, self.options.context, self.options.ignore.spec())

    def report_path(self) -> Path:
        return Path(self.out_dir) / f"{self.name}.html"

    def output(self):
        return RecordTarget(records_dir(Path(self.out_dir)) / f"{self.name}.json", self.fingerprint())

    def run(self):
        record = self.make(self)
        if record is not None:
            self.report_progress(100)
            self.report_status(f"{self.name}: " + ("done" if record["ok"] else f"invalid: {record['error']}"))

    def make(self, shown_by: PipelineTask, pace: Pace | None = None) -> dict | None:
        """Write the report and the record (None: another worker did meanwhile); `shown_by` is the task
        whose luigid status shows the progress: this one, or the batch it is run by (with the batch's
        `pace`; the bar is then the batch's own)."""
        self._progress = ThrottledProgress(shown_by, self.name, pace or Pace(), own_bar=pace is None)
        guard = RunGuard()  # a task process nobody supervises: its writes remove their temps on SIGTERM
        with Claim(claims_dir(Path(self.out_dir)) / f"{self.name}.claim") as claim:
            if claim.waited and self.complete():
                return None  # another worker wrote it while this one waited
            record = self._build(guard)
            self.output().write(record, guard)
        return record

    def _build(self, guard: RunGuard) -> dict:
        # Named by the sweep, not by an argument: no flag in its errors.
        report = ReportTarget(str(self.report_path()), None, "", guard)
        before = report.written_state()
        ran: list[WorkItem] = []
        try:
            traces = build_report_here(
                self.dump, self.state, report, self.options, self._progress.plan, lambda item: self._ran(ran, item)
            )
        except DumpError as failure:  # the dump's fault: a result; anything else fails the task
            return invalid_record(self.name, self.dump, str(failure), self._work(ran, None, before))
        written = report.with_summary(report.record())
        summary = written.summary if written is not None else None
        if written is None or summary is None:
            raise IRTraceError(f"{self.dump} changed while its report was being built; run the sweep again")
        assert summary.counts is not None  # a dump's report, never a comparison's
        _keep_texts(traces, text_store(Path(self.out_dir)), guard)
        report_file = self.report_path().absolute()
        return {
            **valid_record(
                self.name,
                self.dump,
                report_file.name,
                summary.counts,
                record_traces(traces, summary.trace),
                self._work(ran, written, before),
            ),
            "report_file": str(report_file),
            "report_state": list(written.state) if written.state is not None else None,
        }

    @staticmethod
    def _work(ran: list, written: ReportRecord | None, before: tuple | None) -> dict:
        """What this run did: whether the report was found current (not rewritten), pairs rediffed."""
        return {
            "reused": written is not None and before is not None and written.state == before,
            "rediffed": sum(isinstance(task, DiffPair) for task in ran),
            "pairs": written.pairs if written else None,
            "bytes": written.bytes if written else None,
        }

    def _ran(self, ran: list[WorkItem], item: WorkItem) -> None:
        ran.append(item)
        self._progress.done(len(ran))


class Pace:
    """When a task last told luigid anything: at most once a second. Every update is a request luigid
    serves, and a first sweep of a thousand small dumps made ~20 a dump, a quarter of the client's CPU
    spent again in luigid (BENCHMARKS.md)."""

    INTERVAL = 1.0  # seconds between two updates of one task

    def __init__(self):
        self.last = time.monotonic()  # a dump done within the first second says only "done"

    def due(self) -> bool:
        now = time.monotonic()
        if now - self.last < self.INTERVAL:
            return False
        self.last = now
        return True


class ThrottledProgress:
    """A dump's progress on luigid's page (`NAME: 12/40 diffs and function slices`), at the task's `pace`;
    `own_bar`: the dump's task moves its progress bar too (a batch's bar counts its dumps)."""

    def __init__(self, task: PipelineTask, name: str, pace: Pace, own_bar: bool = True):
        self.task, self.name, self.pace, self.own_bar, self.planned = task, name, pace, own_bar, 0

    def plan(self, count: int) -> None:
        self.planned += count

    def done(self, count: int) -> None:
        if self.pace.due():
            total = max(self.planned, count)
            if self.own_bar:
                self.task.report_progress(90 * count // total)
            self.task.report_status(f"{self.name}: {count}/{total} diffs and function slices")


class DumpListParameter(luigi.Parameter[tuple[tuple[str, str, str], ...]]):
    """A batch's dumps: (dump, name, state) each, as a JSON list of three-item lists."""

    def parse(self, x):
        return self.normalize(json.loads(x))

    def normalize(self, x):
        return tuple((str(dump), str(name), str(state)) for dump, name, state in x)

    def serialize(self, x):
        return json.dumps([list(member) for member in x], separators=(",", ":"))


class SweepBatch(PipelineTask):
    """Several consecutive dumps of a large sweep as one task of the shared scheduler, each done in turn
    here (`SweepDump.make`): luigid's cost grows with the square of its task count (every request for
    work ranks every pending task), so a sweep of a thousand dumps is at most `[ir_trace] sweep_tasks`
    tasks. Whole dumps still go to whichever worker, on whichever host, takes the batch; each dump keeps
    its record, fingerprint and claim, so a batch rerun after a crash redoes only its unfinished dumps."""

    out_dir = AbsolutePath(description="where the reports and the records go")
    dumps = DumpListParameter(description="the dumps, a JSON list of [dump, name, state]")
    options = ReportOptionsParameter(
        default=ReportOptions(), description="the report's context and initial ignore modes, one JSON value"
    )

    def members(self) -> list[SweepDump]:
        return [
            SweepDump(dump=dump, out_dir=self.out_dir, name=name, state=state, options=self.options)
            for dump, name, state in self.dumps
        ]

    def output(self):
        return [member.output() for member in self.members()]

    def __repr__(self):
        # Luigi's logs name a task by its repr, which would spell out every dump.
        return f"SweepBatch({len(self.dumps)} dumps: {self.dumps[0][1]} .. {self.dumps[-1][1]})"

    def run(self):
        members, pace = self.members(), Pace()
        for position, member in enumerate(members):
            if not member.complete():
                member.make(self, pace)
            if pace.due():
                self.report_progress(100 * (position + 1) // len(members))
        self.report_progress(100)
        self.report_status(f"{len(members)} programs: done")


def _keep_texts(traces: list[Trace], store: Path, guard: RunGuard) -> None:
    """Copy each distinct snapshot of every trace into the sweep's text store (skipping one rewritten meanwhile)."""
    snapshots = {s.sha256: (t.manifest, s) for t in traces for s in t.manifest.snapshots}
    follow = follow_inner_symlinks()
    for manifest, snapshot in snapshots.values():
        try:
            text, sha = read_snapshot_text(manifest.path_of(snapshot), snapshot.span, follow_inner_symlinks=follow)
        except DumpError:
            continue  # removed or damaged since validation: the report already has what it needs
        if sha == snapshot.sha256:
            keep_text(store, sha, text.encode("utf-8"), guard)


def scheduled_dumps(tasks: list[SweepDump], most: int) -> list[SweepDump] | list[SweepBatch]:
    """`tasks` as they are when there are at most `most`, else as `most` batches (or fewer) of consecutive
    dumps (the sweep finds dumps in one order on every host, so every host names the same batches)."""
    if len(tasks) <= most:
        return tasks
    size = -(-len(tasks) // most)
    return [
        SweepBatch(out_dir=tasks[0].out_dir, dumps=[(t.dump, t.name, t.state) for t in chunk], options=tasks[0].options)
        for chunk in (tasks[i : i + size] for i in range(0, len(tasks), size))
    ]


class SweepTarget(luigi.Target):
    """OUT/sweep.json, present when it was built from exactly these inputs."""

    def __init__(self, path: Path, fingerprint: str):
        self.path, self.fingerprint = Path(path), fingerprint

    def exists(self) -> bool:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return False
        return (
            isinstance(data, dict)
            and data.get("inputs") == self.fingerprint
            and (self.path.parent / "index.html").is_file()
        )


class Sweep(PipelineTask):
    """Every program under --root: a report each, then index.html and sweep.json in --out-dir."""

    root = AbsolutePath(description="directory searched (at any depth) for programs: passes_dump/, MLIR trees, ...")
    out_dir = AbsolutePath(description="where reports, index.html and sweep.json go (created if missing)")
    baseline = AbsolutePath(default="", description="sweep.json of an earlier sweep to compare with")
    context = luigi.IntParameter(default=DEFAULT_CONTEXT, description="unchanged lines kept around each change")
    ignore = RegexListParameter(
        default=(),
        description="ignore modes (ssa,memref,whitespace): differences they absorb are not divergences and the "
        "reports open with them on; a value that is not mode names is read as a regex, as before (deprecated, with a "
        "warning: give regexes to --ignore-regex)",
    )
    ignore_regex = RegexListParameter(
        default=(),
        description="regex, or a JSON list of regexes; differences only in their matches do not count as divergence",
    )

    def ignoring(self) -> tuple:
        """(IgnoreModes, regexes) from --ignore and --ignore-regex."""
        return split_ignore_options(self.ignore, self.ignore_regex)

    def out(self) -> Path:
        return Path(self.out_dir).absolute()

    def problem(self) -> str | None:
        """What makes these arguments unusable (checked once, before any dump is scheduled)."""
        if not hasattr(self, "_problem"):
            try:
                self._baseline_data = self._check_arguments()
                self._problem = None
            except IRTraceError as exc:
                self._problem = str(exc)
        return self._problem

    def found(self) -> list[FoundDump]:
        """The programs under --root (found while the arguments are checked; none when they are unusable)."""
        return [] if self.problem() else self._found_dumps

    def requires(self):
        """A SweepDump per dump, or (more dumps than `[ir_trace] sweep_tasks`) SweepBatches of them."""
        if not hasattr(self, "_scheduled"):
            self._scheduled = scheduled_dumps(self.dump_tasks(), sweep_tasks())
        return self._scheduled

    def dump_tasks(self) -> list[SweepDump]:
        """The dumps' tasks, one each (scheduled as they are or in batches: `requires`)."""
        if not hasattr(self, "_dump_tasks"):
            options = ReportOptions(self.context, report_ignore_modes(*self.ignoring()))
            self._dump_tasks = [
                SweepDump(
                    dump=str(f.dump),
                    out_dir=str(self.out()),
                    name=f.name,
                    state=observed_state(str(f.dump)),
                    options=options,
                )
                for f in self.found()
                if f.utf8
            ]
        return self._dump_tasks

    def fingerprint(self) -> str:
        dumps = [task.fingerprint() for task in self.dump_tasks()]
        dumps += [f"not-utf8:{f.name}" for f in self.found() if not f.utf8]
        ignore = [*self.ignore, "--ignore-regex", *self.ignore_regex]
        return sweep_fingerprint(dumps, self.baseline, ignore, self.context, INDEX_FILES)

    def output(self):
        return SweepTarget(self.out() / "sweep.json", self.fingerprint())

    def run(self):
        if self.problem():
            raise IRTraceError(self.problem())
        self.report_status("comparing and writing the index")
        with Claim(claims_dir(self.out()) / "sweep.claim") as claim:
            if claim.waited and self.complete():
                return  # another worker wrote it while this one waited
            totals = self._write(RunGuard())  # a task process nobody supervises
        self.report_progress(100)
        self.report_status(totals.describe())

    def _write(self, guard: RunGuard) -> SweepTotals:
        inputs = {f.name: f.input for f in self.found()}
        records = [self._record_of(task) for task in self.dump_tasks()]
        records += [not_utf8_record(f) for f in self.found() if not f.utf8]
        records = [{**record, "input": inputs[record["name"]]} for record in records]
        self.report_progress(50)
        baseline = self._baseline_data
        modes, regexes = self.ignoring()
        options = {
            "root": str(Path(self.root).absolute()),
            "out_dir": str(self.out()),
            "baseline": str(Path(self.baseline).resolve()) if self.baseline else None,
            "context": self.context,
            "ignore": list(self.ignore),
            "ignore_modes": modes.names,
            "ignore_regex": regexes,
        }
        baseline_store = text_store(Path(self.baseline).resolve().parent) if baseline else None
        sweep = build_sweep(
            records,
            options,
            baseline,
            text_store(self.out()),
            baseline_store,
            compile_ignores(regexes),
            inputs=self.fingerprint(),
            modes=modes,
        )
        write_sweep(self.out(), sweep, guard)
        prune_texts(text_store(self.out()), referenced_texts(sweep))
        return SweepTotals.from_json(sweep["totals"])

    def _check_arguments(self) -> dict | None:
        """The baseline's content when every argument is usable; IRTraceError naming the first that is not."""
        check_printable(
            [("--root path", self.root), ("--out-dir path", self.out_dir), ("--baseline path", self.baseline)]
        )
        root = Path(self.root).absolute()
        if not root.is_dir():
            raise IRTraceError(f"sweep root is not a directory: {root}")
        self._found_dumps = find_dumps(root)  # found before --out-dir is made, so it is never taken for one
        swept = swept_containers(root, [(found.dump, found.input) for found in self._found_dumps])
        check_sweep_out_dir(self.out(), swept)
        compile_ignores(self.ignoring()[1])
        if not self.baseline:
            return None
        refuse_overwriting_baseline(self.baseline, self.out())
        return load_baseline(Path(self.baseline).resolve())

    @staticmethod
    def _record_of(task: SweepDump) -> dict:
        record = task.output().read()
        if record is None:
            raise IRTraceError(f"the result of {task.dump} vanished from {task.output().path}; run the sweep again")
        return record

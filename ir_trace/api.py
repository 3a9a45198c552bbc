"""The Python API, for those who compile in Python or in a notebook; the command stands on it.

    import ir_trace
    result = ir_trace.render("build/prog/passes_dump", "prog.html", ignore="ssa")
    result            # in Jupyter: the counts, a link to the report and the report itself
    ir_trace.summarize("build/prog/passes_dump").trace   # what --json prints

Every problem a user can fix is raised as `IRTraceError`, with the one line the command prints.
"""

from __future__ import annotations

import contextlib
import gc
import logging
import os
import shutil
import stat
import tempfile
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ir_trace.cache.on_disk import default_cache_dir
from ir_trace.errors import IRTraceError
from ir_trace.options import RunOptions
from ir_trace.runsafety.output_paths import CommandPaths, check_command_paths, check_printable
from ir_trace.summaries.runs import ReportSummary, RunOutcome

if TYPE_CHECKING:
    from ir_trace.cache.report_record import ReportRecord
    from ir_trace.pipeline.run_events import Progress
    from ir_trace.runsafety.run_guard import RunGuard

__all__ = ["IRTraceError", "RenderResult", "ReportSummary", "RunOptions", "render", "summarize"]

LUIGI_LOGGERS = ("luigi", "luigi-interface", "luigi.scheduler", "luigi.server")


@dataclass(frozen=True, slots=True)
class RenderResult:
    """A report written: where (absolute), its size, the pairs diffed in all and rediffed this time,
    whether the report was found current (not rewritten), and its summary (`summary.trace` is --json)."""

    output: Path
    bytes: int
    pairs: int
    rediffed: int
    reused: bool
    summary: ReportSummary

    @classmethod
    def from_outcome(cls, outcome: RunOutcome) -> RenderResult:
        work = outcome.bytes, outcome.pairs, outcome.rediffed, outcome.reused
        return cls(Path(outcome.report), *work, outcome.summary)

    def _repr_html_(self) -> str:
        """Jupyter's view: the summary in one line, a link to the report, the report in a frame."""
        import html  # here: the command never shows a notebook view

        from ir_trace.summaries.line import summary_body

        where = html.escape(_link(self.output), quote=True)
        name = html.escape(str(self.output))
        body = html.escape(summary_body(self.summary))
        reuse = f"{self.rediffed} pairs rediffed, {self.pairs - self.rediffed} from cache"
        return (
            f'<div class="ir-trace-result"><p><a href="{where}" target="_blank">{name}</a>: {body} · '
            f"{html.escape(reuse)}</p>"
            f'<iframe src="{where}" title="{name}" style="width:100%;height:600px;border:1px solid #ccc">'
            "</iframe></div>"
        )


def render(path: str | os.PathLike, output: str | os.PathLike | None = None, **options) -> RenderResult:
    """Write the report of the dump at `path` to `output` (default: ir_trace.html, as the command).

    `options` are the command's, by their Python names: context=3, ignore="ssa,memref" (or a list),
    ignore_regex=None, against=None, cache_dir=None, no_cache=False, workers=1,
    follow_inner_symlinks=False. Raises IRTraceError for anything the command refuses."""
    return render_options(RunOptions.build(path, output, **options))


def render_options(options: RunOptions) -> RenderResult:
    """`render` for options already parsed (the command's arguments, `cli.run_options`)."""
    check_options(options)
    with _luigi_quiet():
        return RenderResult.from_outcome(run(options))


def summarize(path: str | os.PathLike, **options) -> ReportSummary:
    """The summary of the dump at `path` that `--json` prints (its `trace`), with the options of `render`;
    the report is built in a temporary directory and removed."""
    with tempfile.TemporaryDirectory(prefix="pypto-ir-trace-") as scratch:
        return render(path, Path(scratch) / "report.html", **options).summary


def check_options(options: RunOptions, stdout_was_open: bool = True) -> None:
    """Everything that can be known wrong before the run, so a bad --json never costs the report."""
    # Paths end up in cache keys and in the report's UTF-8 text, so their bytes must be UTF-8.
    given = options.dump, options.output, options.cache_dir
    named = ("dump directory", given[0]), ("output path", given[1]), ("cache directory", given[2])
    check_printable([*named, ("dump directory", options.against), ("--json path", options.json)])
    cache = None if options.no_cache else Path(options.cache_dir or default_cache_dir()).expanduser()
    dumps = tuple(d for d in (options.dump, options.against) if d is not None)
    paths = CommandPaths(options.output, options.json, cache, options.cache_dir is not None, dumps)
    check_command_paths(paths, stdout_was_open)


def run(
    options: RunOptions,
    guard: RunGuard | None = None,
    progress: Callable[[], Progress] | None = None,
    verbose: bool = False,
) -> RunOutcome:
    """Build the report `options` ask for in the cache they name (a throw-away one for `no_cache`).
    `guard` keeps the report's write safe from signals; `progress` makes the display of the work done."""
    state = _dump_state(options)
    if not options.no_cache:  # a report found current is said so before diskcache is even imported
        current = _found_current(options, Path(options.cache_dir or default_cache_dir()).expanduser(), state)
        if current is not None:
            return current
    from ir_trace.cache.store import warn_if_not_a_cache

    if options.cache_dir is not None:
        warn_if_not_a_cache(Path(options.cache_dir).expanduser(), "--cache-dir")
    scratch = None
    try:
        scratch = tempfile.mkdtemp(prefix="pypto-ir-trace-cache-") if options.no_cache else None
        cache_dir = Path(scratch or options.cache_dir or default_cache_dir()).expanduser()
        return build(options, cache_dir, progress, verbose, guard, state)
    finally:
        if scratch:
            shutil.rmtree(scratch, ignore_errors=True)


def build(
    options: RunOptions,
    cache_dir: Path,
    progress: Callable[[], Progress] | None = None,
    verbose: bool = False,
    guard: RunGuard | None = None,
    state: str | None = None,
) -> RunOutcome:
    """Build the report through Luigi's local scheduler with the cache at `cache_dir`; returns what the
    summary line shows.

    With `options.against`, the report compares the dump (run A) with it (run B) pass by pass.
    Its ignore modes set the report's initial ones and add counts under them to the summary.
    `guard` is handed to the report's write (a process nobody supervises when None).
    `state`: the dump's `configured_state`, when the caller has taken it already (a scan of every file).
    Results come from Luigi (the run's status, task events) and from the report's target.
    """
    from ir_trace.cache.report_record import current_report, own_write
    from ir_trace.cache.store import open_cache

    cache = open_cache(cache_dir)  # falls back to a private directory, with a warning
    dump, output, follow = Path(options.dump), Path(options.output), options.follow_inner_symlinks
    context, spec = options.report.context, options.report.ignore.spec()
    # The dump's state, once, before scheduling: the tasks' outputs follow from it (a scan of every file).
    state = _dump_state(options) if state is None else state
    if options.against is None:  # a report found current needs no pipeline: Luigi is not even imported
        paths = str(dump.absolute()), str(output.absolute())
        current = current_report(cache, *paths, context, spec, follow, state)
        if current is not None:
            return _outcome(current, output, rediffed=0, reused=True)
    with _luigi_configuration_read():
        from ir_trace.pipeline import RenderComparison, RenderReport  # first: it imports Luigi (see luigi_import.py)
        from ir_trace.pipeline.config import adopt_cache, observed_state, session
        from ir_trace.pipeline.run_events import NoProgress, RunEvents

        # isort: split
        import luigi.execution_summary

    adopt_cache(cache)
    _configure_luigi(cache.directory, verbose, follow)
    common = dict(
        dump=str(dump.absolute()),
        report=str(output.absolute()),
        report_flag="-o",
        context=context,
        ignore=spec,
        state=state,
    )
    task: RenderReport | RenderComparison
    if options.against is None:
        task = RenderReport(**common)
    else:
        run_b = str(Path(options.against).absolute())
        task = RenderComparison(**common, against=run_b, against_state=observed_state(run_b))
    before = task.output().written_state()
    bar = progress() if progress is not None else NoProgress()
    with session().guarding(guard), RunEvents(bar, forked=options.workers > 1) as events, _few_collections():
        result = luigi.build(
            [task],
            local_scheduler=True,
            workers=options.workers,
            detailed_summary=True,
            log_level="DEBUG" if verbose else "CRITICAL",
        )
    bar.clear()
    status = luigi.execution_summary.LuigiStatusCode
    if result.status not in (status.SUCCESS, status.SUCCESS_WITH_RETRY):
        failed = f"the pipeline failed ({result.status.name}); rerun with --verbose for Luigi's log"
        raise IRTraceError(events.failure() or failed)
    target = task.output()
    # This run's report, found by its own fingerprint: by now the file at the path (and the path's record)
    # may be a concurrent run's, of another dump, which says nothing about this dump.
    fingerprint = target.fingerprint
    record = own_write(cache, target.path, fingerprint) if fingerprint is not None else None
    if record is None:
        raise IRTraceError(events.failure() or _no_record(options, state, output))
    if record.state is not None and not target.exists() and not _a_report_of(output, fingerprint):
        logging.getLogger("ir_trace").warning(
            f"{output} was replaced by a concurrent run after this one wrote it (or found it current)"
        )
    reused = before is not None and record.state == before  # found current (a stream never is)
    return _outcome(record, output, events.count("rediffed"), reused)


def _dump_state(options: RunOptions) -> str:
    """The dump's state as the run reads it (`configured_state`: a scan of every file)."""
    from ir_trace.cache.report_record import configured_state

    return configured_state(str(Path(options.dump).absolute()), options.follow_inner_symlinks)


def _found_current(options: RunOptions, cache_dir: Path, state: str) -> RunOutcome | None:
    """The outcome of a run whose report is current, read from the cache without diskcache; None when the
    report is not current (or the cache cannot be read so): the ordinary path then opens the cache and runs."""
    from ir_trace.cache.report_record import current_report_read_only

    if options.against is not None:
        return None
    dump, output = str(Path(options.dump).absolute()), Path(options.output)
    context, spec = options.report.context, options.report.ignore.spec()
    found = current_report_read_only(
        cache_dir, dump, str(output.absolute()), context, spec, options.follow_inner_symlinks, state
    )
    return _outcome(found, output, rediffed=0, reused=True) if found is not None else None


def _a_report_of(path: Path, fingerprint: str) -> bool:
    """Whether the file at `path` is a report of `fingerprint`: a concurrent run of the same dump and
    options may have replaced this run's file with its own, equal one before recording it."""
    from ir_trace.report.render import FINGERPRINT_META

    try:
        with open(os.open(path, os.O_RDONLY | os.O_NONBLOCK), "rb") as file:  # never wait on a FIFO put there
            head = file.read(_FINGERPRINT_WITHIN) if stat.S_ISREG(os.fstat(file.fileno()).st_mode) else b""
    except OSError:
        return False
    return FINGERPRINT_META.format(fingerprint).encode() in head


_FINGERPRINT_WITHIN = 8192  # bytes: the meta tag follows the CSP's few hashes in the page's head


@contextlib.contextmanager
def _few_collections() -> Iterator[None]:
    """Let the cyclic garbage collector run rarely while the tasks run (their forked workers inherit it).

    A run keeps millions of containers alive that hold no cycles (snapshots' lines, their chunk memo,
    diffs); at Python's default thresholds each full collection walks them all again, and on a 1,000-pass
    dump that was 40 % of the CPU (BENCHMARKS.md, issue 29). Cycles are still collected, far less often."""
    before = gc.get_threshold()
    gc.set_threshold(*_RUN_GC_THRESHOLDS)
    try:
        yield
    finally:
        gc.set_threshold(*before)


_RUN_GC_THRESHOLDS = (1_000_000, 20, 100)  # allocations before a young collection; young, then old, per older


def _outcome(record: ReportRecord, output: Path, rediffed: int, reused: bool) -> RunOutcome:
    """What the summary line shows, from the report's record (summary included)."""
    assert record.summary is not None  # every record here comes through with_summary
    return RunOutcome(str(output.absolute()), record.bytes, record.pairs, rediffed, reused, record.summary)


def _no_record(options: RunOptions, state: str, output: Path) -> str:
    """Why a run that succeeded left no record of its report: the dump's files moved on (their state
    differs from the one the run was scheduled for), else the cache lost it to a concurrent run."""
    if _dump_state(options) != state:
        return "the dump changed while the report was being built; run again"
    return f"the cache holds no record of the report written at {output} (a concurrent run replaced it); run again"


def _link(output: Path) -> str:
    """The report as a notebook reaches it: relative to the working directory (the notebook's) when
    inside it (Jupyter serves those files), else a file: URL."""
    try:
        return output.relative_to(Path.cwd()).as_posix()
    except ValueError:
        return output.as_uri()


@contextlib.contextmanager
def _luigi_quiet() -> Iterator[None]:
    """Luigi's loggers silent for one call from Python, as the command keeps them (then as they were)."""
    loggers = [logging.getLogger(name) for name in LUIGI_LOGGERS]
    saved = [(logger.level, logger.propagate) for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL + 1)
        logger.propagate = False
    try:
        yield
    finally:
        for logger, (level, propagate) in zip(loggers, saved):
            logger.setLevel(level)
            logger.propagate = propagate


@contextlib.contextmanager
def _luigi_configuration_read():
    """Luigi parses every luigi.cfg around when its configuration is first asked for (while the
    tasks are imported): a malformed one is the user's file to fix, said in one line."""
    import configparser

    try:
        yield
    except configparser.Error as exc:
        raise IRTraceError(f"cannot read Luigi's configuration: {' '.join(str(exc).split())}") from exc


def _configure_luigi(cache_dir: Path, verbose: bool, follow_inner_symlinks: bool = False) -> None:
    """Make the options alone decide what this run does, whatever luigi.cfg is around
    (the settings live in ir_trace/pipeline/command.cfg)."""
    from luigi.parameter import UnconsumedParameterWarning

    from ir_trace.pipeline.config import configure_command_run

    if not verbose:  # a user's luigi.cfg holds settings for other tasks; Luigi warns about each one
        warnings.filterwarnings("ignore", category=UnconsumedParameterWarning)
    configure_command_run(cache_dir, verbose, follow_inner_symlinks)

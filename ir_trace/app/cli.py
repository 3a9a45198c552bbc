"""The `pypto-ir-trace` command: argument parsing, quiet Luigi, progress and the summary line.

Arguments and every output path are checked before anything runs; the work itself runs in a
supervised child process (`ir_trace.runsafety.signals`), so a signal ends it at once and cleanly.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import shutil
import sys
import tempfile
import time
import traceback
import warnings
from pathlib import Path
from typing import TYPE_CHECKING

from ir_trace import __version__
from ir_trace.app.progress import MessageHandler, ProgressBar
from ir_trace.errors import IRTraceError, unexpected_message
from ir_trace.noise.normalize import MODES, IgnoreModes, IgnoreRegexError, check_regex
from ir_trace.runsafety.output_paths import CommandPaths, check_command_paths, check_printable
from ir_trace.runsafety.signals import Supervisor
from ir_trace.runsafety.standard_streams import clear_terminal_line, guard_standard_streams, say
from ir_trace.runsafety.writes import OutputError, shown_path, write_all, write_output
from ir_trace.summaries.runs import RunOutcome

if TYPE_CHECKING:
    from ir_trace.cache.report_record import ReportRecord
    from ir_trace.runsafety.early_signals import EarlySignals
    from ir_trace.runsafety.run_guard import RunGuard

PROG = "pypto-ir-trace"


def non_negative_int(text: str) -> int:
    try:
        if not text.isascii():  # int() also reads other scripts' digits (`٣` as 3)
            raise ValueError(text)
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid non-negative integer: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be non-negative, got {value}")
    return value


def positive_int(text: str) -> int:
    value = non_negative_int(text)
    if value == 0:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def ignore_mode_list(text: str) -> frozenset[str]:
    try:
        return IgnoreModes.parse(text).modes
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def ignore_regex(text: str) -> str:
    try:
        check_regex(text)
    except IgnoreRegexError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Render a PyPTO passes_dump/ directory, or an MLIR pass dump (a --mlir-print-ir-tree-dir "
        "directory or a --mlir-print-ir-after-all stream), as one self-contained HTML report of what each pass "
        "changed.",
    )
    parser.add_argument(
        "passes_dump",
        metavar="PASSES_DUMP",
        help="the dump: a passes_dump/ directory (00_frontend.py, 01_after_<Pass>.py, ...), an MLIR tree "
        "directory, an MLIR stream file, a ptoas_passes/ directory, or a program output directory holding "
        "passes_dump/ and ptoas_passes/ (one report of every trace)",
    )
    parser.add_argument(
        "-o",
        "--output",
        default="ir_trace.html",
        metavar="PATH",
        help="report path (default: ir_trace.html); its directory must exist; /dev/stdout for standard output",
    )
    parser.add_argument(
        "--context",
        type=non_negative_int,
        default=3,
        metavar="N",
        help="unchanged lines kept around each change (default: 3)",
    )
    caching = parser.add_mutually_exclusive_group()
    caching.add_argument(
        "--cache-dir",
        metavar="PATH",
        default=None,
        help=f"result cache (default: $XDG_CACHE_HOME/{PROG}, else ~/.cache/{PROG})",
    )
    caching.add_argument("--no-cache", action="store_true", help="use a throw-away cache for this run only")
    parser.add_argument(
        "--workers", type=positive_int, default=1, metavar="N", help="Luigi worker processes (default: 1)"
    )
    parser.add_argument(
        "--against",
        metavar="PASSES_DUMP",
        default=None,
        help="compare with another dump of the same program, pass by pass (run A against run B)",
    )
    parser.add_argument(
        "--json",
        metavar="PATH",
        default=None,
        help="also write a machine-readable summary of the trace to PATH ('-' for stdout)",
    )
    parser.add_argument(
        "--ignore",
        type=ignore_mode_list,
        default=frozenset(),
        metavar="MODES",
        help=f"comma-separated differences the report starts ignoring ({', '.join(MODES)}); "
        "--json counts under them too",
    )
    parser.add_argument(
        "--ignore-regex",
        type=ignore_regex,
        default=None,
        metavar="REGEX",
        help="also ignore every match of REGEX (a subset JavaScript and Python read alike; see README)",
    )
    parser.add_argument(
        "--follow-inner-symlinks",
        action="store_true",
        help="read snapshots that are symlinks to files inside the dump (a link out of it is always refused)",
    )
    talk = parser.add_mutually_exclusive_group()
    talk.add_argument("-q", "--quiet", action="store_true", help="print nothing but errors")
    talk.add_argument("--verbose", action="store_true", help="show Luigi's own log on stderr")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    return parser


def main(argv: list[str] | None = None, early: EarlySignals | None = None) -> int:
    """The command; `early` is what `ir_trace.app.launch` recorded while this module was imported."""
    # First, so a signal at any later moment is recorded, never lost. The handlers stay until the
    # process exits: a signal after the work has ended then changes nothing (no stray KeyboardInterrupt).
    supervisor = Supervisor().install(early)
    if supervisor.received is not None:  # stopped while the command was starting: nothing was done
        say(f"{PROG}: interrupted; no report written")
        return 128 + supervisor.received
    stdout_was_open = guard_standard_streams()
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.output == "-":
        parser.error("argument -o/--output: '-' is not a report path (use -o /dev/stdout for standard output)")
    if args.against is not None and (args.ignore or args.ignore_regex is not None):
        # Run against run compares printed texts; the ignore modes are not offered there (yet).
        parser.error("argument --ignore/--ignore-regex: not allowed with --against")
    try:
        check_arguments(args, stdout_was_open)
    except IRTraceError as exc:
        say(f"{PROG}: error: {exc}")
        return 1
    result = supervisor.run(lambda guard: run_command(args, guard))
    if result.stopped_by is not None:
        clear_terminal_line()
        written = ", ".join(shown_path(path) for path in result.written)
        say(f"{PROG}: interrupted after writing {written}" if written else f"{PROG}: interrupted; no report written")
        return 128 + result.stopped_by
    if result.killed_by is not None:
        clear_terminal_line()
        say(f"{PROG}: error: the run was killed by signal {result.killed_by}; no report written")
        return 1
    return result.code


def run_command(args: argparse.Namespace, guard: RunGuard) -> int:
    """The whole run after the checks: build the report, write the JSON summary, say what was done.
    `guard` keeps every file it writes safe from signals (the supervised child's, see ir_trace.runsafety.signals)."""
    from ir_trace.cache.store import default_cache_dir, warn_if_not_a_cache

    _setup_logging(args.quiet, args.verbose)
    if args.cache_dir is not None:
        warn_if_not_a_cache(Path(args.cache_dir).expanduser(), "--cache-dir")
    started = time.monotonic()
    scratch = None
    try:
        scratch = tempfile.mkdtemp(prefix=f"{PROG}-cache-") if args.no_cache else None
        cache_dir = Path(scratch or args.cache_dir or default_cache_dir()).expanduser()
        outcome = run_pipeline(
            Path(args.passes_dump),
            Path(args.output),
            args.context,
            cache_dir,
            args.workers,
            progress=not (args.quiet or args.verbose),  # no bar amid Luigi's own log lines
            verbose=args.verbose,
            against=Path(args.against) if args.against else None,
            ignore=IgnoreModes(args.ignore, args.ignore_regex),
            follow_inner_symlinks=args.follow_inner_symlinks,
            guard=guard,
        )
        for remark in outcome.summary.trace.get("warnings", []):  # on the dump as a whole (overwritten MLIR dumps)
            logging.getLogger("ir_trace").warning("%s", remark)
        if args.json:
            write_json_summary(args.json, outcome.summary.trace, guard)
    except KeyboardInterrupt:  # only where the run is not supervised (no fork): Python's own Ctrl-C
        say(f"{PROG}: interrupted; no report written", guard)
        return 130
    except IRTraceError as exc:
        say(f"{PROG}: error: {exc}", guard)
        return 1
    except Exception as exc:  # a bug or an unforeseen environment: still one line, never a traceback
        if args.verbose:
            traceback.print_exc()
        say(f"{PROG}: error: {unexpected_message(exc)} (rerun with --verbose for the traceback)", guard)
        return 1
    finally:
        if scratch:
            shutil.rmtree(scratch, ignore_errors=True)
    if not args.quiet:
        from ir_trace.summaries.line import summary_line  # with the pipeline's modules, loaded by now

        say(summary_line(outcome, time.monotonic() - started), guard)  # if stderr is gone, the report still counts
    return 0


def check_arguments(args: argparse.Namespace, stdout_was_open: bool = True) -> None:
    """Everything that can be known wrong before the run, so a bad --json never costs the report."""
    # Paths end up in cache keys and in the report's UTF-8 text, so their bytes must be UTF-8.
    named = ("dump directory", args.passes_dump), ("output path", args.output), ("cache directory", args.cache_dir)
    check_printable([*named, ("dump directory", args.against), ("--json path", args.json)])
    cache = None if args.no_cache else Path(args.cache_dir or _default_cache_dir()).expanduser()
    dumps = tuple(d for d in (args.passes_dump, args.against) if d is not None)
    paths = CommandPaths(args.output, args.json, cache, args.cache_dir is not None, dumps)
    check_command_paths(paths, stdout_was_open)


def _default_cache_dir() -> Path:
    from ir_trace.cache.store import default_cache_dir  # imports diskcache: not before a run needs it

    return default_cache_dir()


def run_pipeline(
    dump: Path,
    output: Path,
    context: int,
    cache_dir: Path,
    workers: int = 1,
    progress: bool = False,
    verbose: bool = False,
    against: Path | None = None,
    ignore: IgnoreModes | None = None,
    follow_inner_symlinks: bool = False,
    guard: RunGuard | None = None,
) -> RunOutcome:
    """Build the report through Luigi's local scheduler; returns what the summary line shows.

    With `against`, the report compares `dump` (run A) with `against` (run B) pass by pass.
    `ignore` sets the report's initial ignore modes and adds counts under them to the summary.
    `follow_inner_symlinks` reads snapshots linked to files inside their dump (never outside).
    `guard` is handed to the report's write (a process nobody supervises when None).
    Results come from Luigi (the run's status, task events) and from the report's target.
    """
    from ir_trace.cache.report_record import configured_state, current_report
    from ir_trace.cache.store import open_cache

    cache = open_cache(cache_dir)  # falls back to a private directory, with a warning
    spec = ignore.spec() if ignore else ""
    # The dump's state, once, before scheduling: the tasks' outputs follow from it (a scan of every file).
    state = configured_state(str(dump.absolute()), follow_inner_symlinks)
    if against is None:  # a report found current needs no pipeline: Luigi is not even imported
        paths = str(dump.absolute()), str(output.absolute())
        current = current_report(cache, *paths, context, spec, follow_inner_symlinks, state)
        if current is not None:
            return _outcome(current, output, rediffed=0, reused=True)
    with _luigi_configuration_read():
        import luigi.execution_summary

        from ir_trace.app.run_events import RunEvents
        from ir_trace.pipeline import RenderComparison, RenderReport
        from ir_trace.pipeline.config import adopt_cache, observed_state

    adopt_cache(cache)
    _configure_luigi(cache.directory, verbose, follow_inner_symlinks)
    common = dict(
        dump=str(dump.absolute()),
        report=str(output.absolute()),
        report_flag="-o",
        context=context,
        ignore=spec,
        guard=guard,
    )
    common["state"] = state
    if against is None:
        task = RenderReport(**common)
    else:
        run_b = str(against.absolute())
        task = RenderComparison(**common, against=run_b, against_state=observed_state(run_b))
    before = task.output().written_state()
    bar = ProgressBar(progress)
    with RunEvents(bar, forked=workers > 1) as events:
        result = luigi.build(
            [task],
            local_scheduler=True,
            workers=workers,
            detailed_summary=True,
            log_level="DEBUG" if verbose else "CRITICAL",
        )
    bar.clear()
    target = task.output()
    # The dump may have changed since the run read it: its report is then still the one just written.
    record = target.with_summary(target.record() or target.published())
    status = luigi.execution_summary.LuigiStatusCode
    if result.status not in (status.SUCCESS, status.SUCCESS_WITH_RETRY) or record is None:
        raise IRTraceError(events.failure() or _failed_without_reason(result.status.name, record))
    reused = before is not None and record.state == before  # found current (a stream never is)
    return _outcome(record, output, events.count("rediffed"), reused)


def _outcome(record: ReportRecord, output: Path, rediffed: int, reused: bool) -> RunOutcome:
    """What the summary line shows, from the report's record (summary included)."""
    return RunOutcome(str(output.absolute()), record.bytes, record.pairs, rediffed, reused, record.summary)


def _failed_without_reason(status: str, record: object | None) -> str:
    if record is None and status in ("SUCCESS", "SUCCESS_WITH_RETRY"):
        return "the dump changed while the report was being built; run again"
    return f"the pipeline failed ({status}); rerun with --verbose for Luigi's log"


def write_json_summary(destination: str, trace: dict, guard: RunGuard | None = None) -> None:
    text = json.dumps(trace, ensure_ascii=False, indent=2) + "\n"
    if destination != "-":
        write_output(Path(destination), text, label="--json", guard=guard)
        return
    try:
        sys.stdout.flush()
        # Past the text layer: its buffer dropped the rest of a short write to a pipe whose reader left, silently.
        write_all(sys.stdout.fileno(), text.encode("utf-8"))
    except (OSError, ValueError) as exc:
        reason = getattr(exc, "strerror", None) or exc
        raise OutputError(f"--json: cannot write the summary to standard output: {reason}") from exc


def _setup_logging(quiet: bool, verbose: bool) -> None:
    """Our warnings as one plain line each; Luigi's loggers silent unless --verbose."""
    handler = MessageHandler(sys.stderr)  # erases the progress bar; drops what a closed stderr cannot take
    handler.setFormatter(logging.Formatter(f"{PROG}: warning: %(message)s"))
    ours = logging.getLogger("ir_trace")
    ours.handlers[:] = [handler]
    ours.propagate = False
    ours.setLevel(logging.ERROR if quiet else logging.WARNING)
    logging.getLogger("ir_trace.unmissable").setLevel(logging.WARNING)  # said even under -q (see cache.py)
    for name in ("luigi", "luigi-interface", "luigi.scheduler", "luigi.server"):
        logger = logging.getLogger(name)
        logger.setLevel(logging.DEBUG if verbose else logging.CRITICAL + 1)
        logger.propagate = verbose


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
    """Make the command line alone decide what this run does, whatever luigi.cfg is around
    (the settings live in ir_trace/pipeline/command.cfg)."""
    from luigi.parameter import UnconsumedParameterWarning

    from ir_trace.pipeline.config import configure_command_run

    if not verbose:  # a user's luigi.cfg holds settings for other tasks; Luigi warns about each one
        warnings.filterwarnings("ignore", category=UnconsumedParameterWarning)
    configure_command_run(cache_dir, verbose, follow_inner_symlinks)

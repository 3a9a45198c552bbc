"""The `pypto-ir-trace` command: argument parsing, quiet Luigi, progress and the summary line."""

from __future__ import annotations

import argparse
import collections
import contextlib
import json
import logging
import os
import shutil
import sys
import tempfile
import time
import traceback
from pathlib import Path

from ir_trace import __version__
from ir_trace.cache import default_cache_dir, open_cache
from ir_trace.discovery import printable_path
from ir_trace.errors import IRTraceError
from ir_trace.progress import ProgressBar
from ir_trace.render import write_atomically
from ir_trace.signals import StopOnSignals

PROG = "pypto-ir-trace"


def non_negative_int(text: str) -> int:
    try:
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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Render a PyPTO passes_dump/ directory as one self-contained HTML report "
        "of what each pass changed.",
    )
    parser.add_argument(
        "passes_dump", metavar="PASSES_DUMP", help="the dump directory (00_frontend.py, 01_after_<Pass>.py, ...)"
    )
    parser.add_argument(
        "-o",
        "--output",
        default="ir_trace.html",
        metavar="PATH",
        help="report path (default: ir_trace.html); its directory must exist",
    )
    parser.add_argument(
        "--context",
        type=non_negative_int,
        default=3,
        metavar="N",
        help="unchanged lines kept around each change (default: 3)",
    )
    parser.add_argument(
        "--cache-dir",
        metavar="PATH",
        default=None,
        help=f"result cache (default: $XDG_CACHE_HOME/{PROG}, else ~/.cache/{PROG})",
    )
    parser.add_argument("--no-cache", action="store_true", help="use a throw-away cache for this run only")
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
    parser.add_argument("-q", "--quiet", action="store_true", help="print nothing but errors")
    parser.add_argument("--verbose", action="store_true", help="show Luigi's own log on stderr")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    _setup_logging(args.quiet, args.verbose)
    started = time.monotonic()
    scratch = None
    stop = StopOnSignals()
    try:
        with stop:
            _check_paths(args)
            scratch = tempfile.mkdtemp(prefix=f"{PROG}-cache-") if args.no_cache else None
            cache_dir = Path(scratch or args.cache_dir or default_cache_dir()).expanduser()
            outcome = run_pipeline(
                Path(args.passes_dump),
                Path(args.output),
                args.context,
                cache_dir,
                args.workers,
                progress=not args.quiet,
                verbose=args.verbose,
                against=Path(args.against) if args.against else None,
            )
            if args.json:
                write_json_summary(args.json, outcome["trace"])
            if stop.received:  # Luigi swallowed the KeyboardInterrupt (it does inside event callbacks)
                print(f"{PROG}: interrupted after writing {_shown_path(outcome['report'])}", file=sys.stderr)
                return 130
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted; no report written", file=sys.stderr)
        return 130
    except IRTraceError as exc:
        if stop.received:  # a worker stopped by the signal failed its task
            print(f"{PROG}: interrupted; no report written", file=sys.stderr)
            return 130
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return 1
    except Exception as exc:  # a bug or an unforeseen environment: still one line, never a traceback
        if args.verbose:
            traceback.print_exc()
        print(
            f"{PROG}: error: unexpected {type(exc).__name__}: {exc} (rerun with --verbose for the traceback)",
            file=sys.stderr,
        )
        return 1
    finally:
        if scratch:
            shutil.rmtree(scratch, ignore_errors=True)
    if not args.quiet:
        print(summary_line(outcome, time.monotonic() - started), file=sys.stderr)
    return 0


def _check_paths(args: argparse.Namespace) -> None:
    """Paths end up in cache keys and in the report's UTF-8 text, so their bytes must be UTF-8."""
    for label, value in (
        ("dump directory", args.passes_dump),
        ("output path", args.output),
        ("cache directory", args.cache_dir),
        ("dump directory", getattr(args, "against", None)),
    ):
        if value is not None and printable_path(value) != value:
            raise IRTraceError(f"the {label} is not valid UTF-8: {printable_path(value)} (rename it)")


def run_pipeline(
    dump: Path,
    output: Path,
    context: int,
    cache_dir: Path,
    workers: int = 1,
    progress: bool = False,
    verbose: bool = False,
    against: Path | None = None,
) -> dict:
    """Build the report through Luigi's local scheduler; returns what the summary line shows.

    With `against`, the report compares `dump` (run A) with `against` (run B) pass by pass.
    Results come from Luigi (the run's status, task events) and from the report's target.
    """
    import luigi
    from luigi.execution_summary import LuigiStatusCode

    from ir_trace.tasks import RenderComparison, RenderReport
    from ir_trace.tasks.config import adopt_cache

    cache = open_cache(cache_dir)  # falls back to a private directory, with a warning
    adopt_cache(cache)
    _configure_luigi(cache.directory, verbose)
    common = dict(dump=str(dump.absolute()), report=str(output.absolute()), context=context)
    task = RenderReport(**common) if against is None else RenderComparison(**common, against=str(against.absolute()))
    before = task.output().written_state()
    bar = ProgressBar(progress)
    with _RunEvents(bar, forked=workers > 1) as events:
        result = luigi.build(
            [task],
            local_scheduler=True,
            workers=workers,
            detailed_summary=True,
            log_level="DEBUG" if verbose else "CRITICAL",
        )
    bar.clear()
    record = task.output().record()
    if result.status not in (LuigiStatusCode.SUCCESS, LuigiStatusCode.SUCCESS_WITH_RETRY) or record is None:
        raise IRTraceError(events.failure() or _failed_without_reason(result.status.name, record))
    return {
        **record["summary"],
        "ok": True,
        "report": str(output.absolute()),
        "bytes": record["bytes"],
        "pairs": record["pairs"],
        "rediffed": events.count("rediffed"),
        "reused": record["state"] == before,  # the report found current, not rewritten
    }


def _failed_without_reason(status: str, record: dict | None) -> str:
    if record is None and status in ("SUCCESS", "SUCCESS_WITH_RETRY"):
        return "the dump changed while the report was being built; run again"
    return f"the pipeline failed ({status}); rerun with --verbose for Luigi's log"


def write_json_summary(destination: str, trace: dict) -> None:
    text = json.dumps(trace, ensure_ascii=False, indent=2) + "\n"
    if destination == "-":
        sys.stdout.write(text)
    else:
        write_atomically(Path(destination), text)


def summary_line(outcome: dict, seconds: float) -> str:
    if "compared" in outcome:
        body = _comparison_body(outcome)
    elif outcome["passes"] == 0:
        body = "no pass snapshot exists (only 00_frontend.py)"
    else:
        passes = outcome["passes"]
        body = (
            f"{passes} passes ({outcome['changed']} changed, {outcome['noop']} no-op, "
            f"{outcome['warnings']} warning{'s' if outcome['warnings'] != 1 else ''})"
        )
    rediffed, pairs = outcome["rediffed"], outcome["pairs"]
    reuse = f"{rediffed} pairs rediffed, {pairs - rediffed} from cache"
    if outcome.get("reused"):
        reuse += ", report unchanged"
    return f"wrote {_shown_path(outcome['report'])}: {body} · {reuse} · {_size(outcome['bytes'])} · {seconds:.1f} s"


def _comparison_body(outcome: dict) -> str:
    first = outcome["first_difference"]
    where = f"first at pass {first['index']:02d} {first['name']}" if first else "identical outputs"
    return (
        f"{outcome['compared']} passes compared ({outcome['differ']} differ, {outcome['renamed']} renamed, "
        f"{outcome['only_a']} only in A, {outcome['only_b']} only in B; {where})"
    )


def _shown_path(path: str) -> str:
    try:
        return os.path.relpath(path)
    except ValueError:
        return path


def _size(count: int) -> str:
    if count < 1000:
        return f"{count} B"
    return f"{count / 1000:.0f} KB" if count < 1_000_000 else f"{count / 1_000_000:.1f} MB"


def _setup_logging(quiet: bool, verbose: bool) -> None:
    """Our warnings as one plain line each; Luigi's loggers silent unless --verbose."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter(f"{PROG}: warning: %(message)s"))
    ours = logging.getLogger("ir_trace")
    ours.handlers[:] = [handler]
    ours.propagate = False
    ours.setLevel(logging.ERROR if quiet else logging.WARNING)
    for name in ("luigi", "luigi-interface", "luigi.scheduler", "luigi.server"):
        logger = logging.getLogger(name)
        logger.setLevel(logging.DEBUG if verbose else logging.CRITICAL + 1)
        logger.propagate = verbose


def _configure_luigi(cache_dir: Path, verbose: bool) -> None:
    """Make the command line alone decide what this run does, whatever luigi.cfg is around.

    Luigi reads its settings through one LuigiConfigParser (`luigi.configuration.get_config()`),
    loaded from /etc/luigi/luigi.cfg, ./luigi.cfg and $LUIGI_CONFIG_PATH. Values set on that parser
    with its public `set` take precedence over every file it read, so every setting that changes
    how a local run behaves is set here (the log level is an argument of `luigi.build`), and every
    task parameter is passed explicitly. Nothing is removed from the user's configuration.
    """
    from luigi.configuration import get_config

    settings = {
        "ir_trace": {"cache_dir": str(cache_dir)},
        "core": {
            "no_configure_logging": str(not verbose).lower(),  # our own handlers print Luigi's log when asked
            "logging_conf_file": "",
            "parallel_scheduling": "false",
            "autoload_range": "false",
        },
        "worker": {
            "keep_alive": "false",
            "check_unfulfilled_deps": "false",  # the tasks check their inputs themselves, and raise
            "check_complete_on_run": "false",
            "cache_task_completion": "false",
            "force_multiprocessing": "false",
            "task_process_context": "",
            "timeout": "0",
            "max_reschedules": "1",
            "retry_external_tasks": "false",
            "send_failure_email": "false",
        },
        "scheduler": {"record_task_history": "false", "batch_emails": "false", "retry_delay": "900"},
    }
    config = get_config()
    for section, values in settings.items():
        for name, value in values.items():
            config.set(section, name, value)


class _RunEvents:
    """Luigi's task events, for one run: the bar's work and progress, rediffed pairs, the failure reason.

    Registered with `Task.event_handler` on entry and removed with `Task.remove_event_handler` on
    exit. With several workers, tasks run in forked processes, so counts live in shared memory and
    failure reasons travel through a pipe; with one, plain objects do (and cost no start-up time).
    """

    COUNTS = ("rediffed",)

    def __init__(self, bar: ProgressBar, forked: bool):
        from luigi import Event

        from ir_trace.tasks import DiffPair, SliceFunctions
        from ir_trace.tasks.base import WORK_PLANNED, PipelineTask

        if forked:
            import multiprocessing

            self._counts, self._failures = multiprocessing.Array("l", len(self.COUNTS)), multiprocessing.SimpleQueue()
        else:
            self._counts, self._failures = _InProcessCounts(len(self.COUNTS)), _InProcessQueue()
        self.handlers = [
            (PipelineTask, WORK_PLANNED, lambda _task, count: bar.add_work(count)),
            (DiffPair, Event.SUCCESS, lambda _task: (self._add("rediffed"), bar.advance())),
            (SliceFunctions, Event.SUCCESS, lambda _task: bar.advance()),
            (PipelineTask, Event.FAILURE, self._failed),
            (PipelineTask, Event.BROKEN_TASK, self._failed),
            (PipelineTask, Event.PROCESS_FAILURE, self._failed),  # a worker process died: a message
            (PipelineTask, Event.TIMEOUT, self._failed),
        ]

    def _add(self, name: str) -> None:
        with self._counts.get_lock():
            self._counts[self.COUNTS.index(name)] += 1

    def _failed(self, _task, exception) -> None:
        from ir_trace.tasks.base import explain

        self._failures.put(exception if isinstance(exception, str) else explain(exception))

    def count(self, name: str) -> int:
        return self._counts[self.COUNTS.index(name)]

    def failure(self) -> str | None:
        """The first failure's one-line reason, if a task failed."""
        reasons = []
        while not self._failures.empty():
            reasons.append(self._failures.get())
        return reasons[0] if reasons else None

    def __enter__(self):
        for cls, event, handler in self.handlers:
            cls.event_handler(event)(handler)
        return self

    def __exit__(self, *_exc):
        for cls, event, handler in self.handlers:
            cls.remove_event_handler(event, handler)


class _InProcessCounts(list):
    """The part of multiprocessing.Array's interface _RunEvents uses, for a run without forks."""

    def __init__(self, size: int):
        super().__init__([0] * size)

    def get_lock(self):
        return contextlib.nullcontext()


class _InProcessQueue(collections.deque):
    """The part of multiprocessing.SimpleQueue's interface _RunEvents uses, for a run without forks."""

    put = collections.deque.append

    def get(self):
        return self.popleft()

    def empty(self) -> bool:
        return not self

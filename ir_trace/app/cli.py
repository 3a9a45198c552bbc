"""The `pypto-ir-trace` command: argument parsing, quiet Luigi, progress and the summary line.

Arguments and every output path are checked before anything runs; the work itself runs in a
supervised child process (`ir_trace.runsafety.signals`), so a signal ends it at once and cleanly.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time
import traceback
from itertools import chain
from pathlib import Path
from typing import TYPE_CHECKING

from ir_trace import __version__, api
from ir_trace.app.progress import MessageHandler, ProgressBar
from ir_trace.errors import IRTraceError, unexpected_message
from ir_trace.noise.normalize import MODES, IgnoreModes, IgnoreRegexError, check_regex
from ir_trace.options import DEFAULT_CONTEXT, DEFAULT_OUTPUT, ReportOptions, RunOptions
from ir_trace.runsafety.signals import Supervisor
from ir_trace.runsafety.standard_streams import clear_terminal_line, guard_standard_streams, say
from ir_trace.runsafety.writes import OutputError, shown_path, write_content, write_output
from ir_trace.summaries.runs import summary_warnings

if TYPE_CHECKING:
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
        default=DEFAULT_OUTPUT,
        metavar="PATH",
        help=f"report path (default: {DEFAULT_OUTPUT}); its directory must exist; /dev/stdout for standard output",
    )
    parser.add_argument(
        "--context",
        type=non_negative_int,
        default=DEFAULT_CONTEXT,
        metavar="N",
        help=f"unchanged lines kept around each change (default: {DEFAULT_CONTEXT})",
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
    options = run_options(args)
    try:
        api.check_options(options, stdout_was_open)
    except IRTraceError as exc:
        say(f"{PROG}: error: {exc}")
        return 1
    result = supervisor.run(lambda guard: run_command(args, options, guard))
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


def run_command(args: argparse.Namespace, options: RunOptions, guard: RunGuard) -> int:
    """The whole run after the checks: build the report, write the JSON summary, say what was done.
    `guard` keeps every file it writes safe from signals (the supervised child's, see ir_trace.runsafety.signals)."""
    _setup_logging(args.quiet, args.verbose)
    started = time.monotonic()
    try:
        show_progress = not (args.quiet or args.verbose)  # no bar amid Luigi's own log lines
        outcome = api.run(options, guard, lambda: ProgressBar(show_progress), args.verbose)
        for remark in summary_warnings(outcome.summary.trace):  # on a dump as a whole (overwritten MLIR dumps)
            logging.getLogger("ir_trace").warning("%s", remark)
        if options.json:
            write_json_summary(options.json, outcome.summary.trace, guard)
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
    if not args.quiet:
        from ir_trace.summaries.line import summary_line  # with the pipeline's modules, loaded by now

        say(summary_line(outcome, time.monotonic() - started), guard)  # if stderr is gone, the report still counts
    return 0


def run_options(args: argparse.Namespace) -> RunOptions:
    """The parsed arguments as the run's options (argparse has checked each one)."""
    return RunOptions(
        dump=args.passes_dump,
        output=args.output,
        report=ReportOptions(args.context, IgnoreModes(args.ignore, args.ignore_regex)),
        against=args.against,
        json=args.json,
        cache_dir=args.cache_dir,
        no_cache=args.no_cache,
        workers=args.workers,
        follow_inner_symlinks=args.follow_inner_symlinks,
    )


def write_json_summary(destination: str, trace: dict, guard: RunGuard | None = None) -> None:
    """The --json document, encoded and written in pieces: for 100,000 passes it is hundreds of megabytes
    of indented text, which whole (and again as bytes) would be the run's peak."""
    pieces = chain(json.JSONEncoder(ensure_ascii=False, indent=2).iterencode(trace), ["\n"])
    if destination != "-":
        write_output(Path(destination), pieces, label="--json", guard=guard)
        return
    try:
        sys.stdout.flush()
        # Past the text layer: its buffer dropped the rest of a short write to a pipe whose reader left, silently.
        write_content(sys.stdout.fileno(), pieces)
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

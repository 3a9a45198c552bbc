"""The command's entry point (`pypto-ir-trace`, `python -m ir_trace`): stop signals first.

Importing the command (argparse, logging, the tool's modules) takes tens of milliseconds; a
Ctrl-C then would print a traceback and a SIGHUP kill the process without a word. So the first
thing this module does, on import (the console script's wrapper imports it before it calls
`main`), is to record SIGINT, SIGTERM and SIGHUP rather than act on them; `cli.main` takes the
record over once its supervisor is installed, and exits 130, 143 or 129 with one line. A signal
the command was started with ignored (`nohup`) stays ignored.

What still runs before the recorder, where a Ctrl-C is Python's own (a KeyboardInterrupt
traceback): the interpreter's start-up and `site`, the wrapper's `import re, sys`, and the
imports of `ir_trace/__init__.py`, `ir_trace/app/__init__.py` and `ir_trace/runsafety/__init__.py`,
kept to a docstring and a version string each, and of `signal` (built in).
"""

from ir_trace.runsafety.early_signals import EarlySignals

_ON_IMPORT = EarlySignals().install()  # before any other import


def main(argv: list[str] | None = None) -> int:
    # A later call in the same process (tests) finds the first run's supervisor in place: a new recorder.
    early = _ON_IMPORT if _ON_IMPORT.in_place() else EarlySignals().install()
    from ir_trace.app.cli import main as run_command_line  # the heavy imports, now interruptible cleanly

    return run_command_line(argv, early=early)

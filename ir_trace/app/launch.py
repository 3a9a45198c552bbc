"""The command's entry point (`pypto-ir-trace`, `python -m ir_trace`): stop signals first.

Importing the command (argparse, logging, the tool's modules) takes tens of milliseconds; a
Ctrl-C then would print a traceback and a SIGHUP kill the process without a word. So before
anything else is imported, SIGINT, SIGTERM and SIGHUP only get recorded here; `cli.main`
takes the record over once its supervisor is installed, and exits 130, 143 or 129 with one line.
A signal the command was started with ignored (`nohup`) stays ignored.
"""

from __future__ import annotations

from ir_trace.runsafety.early_signals import EarlySignals


def main(argv: list[str] | None = None) -> int:
    early = EarlySignals().install()
    from ir_trace.app.cli import main as run_command_line  # the heavy imports, now interruptible cleanly

    return run_command_line(argv, early=early)

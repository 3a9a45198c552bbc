"""The command's entry point (`pypto-ir-trace`, `python -m ir_trace`): stop signals first.

Importing the command (argparse, logging, the tool's modules) takes tens of milliseconds; a
Ctrl-C then would print a traceback and a SIGHUP kill the process without a word. So before
anything else is imported, SIGINT, SIGTERM and SIGHUP only get recorded here; `cli.main`
takes the record over once its supervisor is installed, and exits 130, 143 or 129 with one line.
A signal the command was started with ignored (`nohup`) stays ignored.
"""

from __future__ import annotations

import signal

_NAMES = ("SIGINT", "SIGTERM", "SIGHUP")


class EarlySignals:
    """The first stop signal received before the supervisor was installed, and the handlers it replaced."""

    def __init__(self):
        self.received: int | None = None
        self.replaced: dict[int, object] = {}

    def install(self) -> EarlySignals:
        for name in _NAMES:
            signum = getattr(signal, name, None)
            if signum is not None and signal.getsignal(signum) is not signal.SIG_IGN:
                self.replaced[signum] = signal.signal(signum, self._record)
        return self

    def _record(self, signum, _frame) -> None:
        if self.received is None:
            self.received = signum


def main(argv: list[str] | None = None) -> int:
    early = EarlySignals().install()
    from ir_trace.cli import main as run_command_line  # the heavy imports, now interruptible cleanly

    return run_command_line(argv, early=early)

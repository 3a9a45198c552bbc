"""The command's standard streams: a closed one never takes a file's descriptor, a failed one never
takes the run down, and a stopped run leaves no progress bar on the terminal."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

from ir_trace.errors import one_line

if TYPE_CHECKING:
    from ir_trace.runsafety.run_guard import RunGuard


def say(line: str, guard: RunGuard | None = None) -> None:
    """One line on stderr; a closed or full stderr loses the line, never the run. In the work process,
    `guard` is its RunGuard: once the command was killed (SIGKILL), its terminal hears nothing more."""
    if guard is not None and guard.orphaned():
        return
    try:
        sys.stderr.write(one_line(line) + "\n")
        sys.stderr.flush()
    except (AttributeError, OSError, ValueError):
        sys.stderr = _Discard()


class _Discard:
    """Where messages go once stderr has failed (so nothing retries it at exit either)."""

    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False


def clear_terminal_line() -> None:
    """Erase a progress bar the stopped run may have left on the terminal."""
    try:
        if sys.stderr.isatty():
            sys.stderr.write("\r\x1b[K")
    except (AttributeError, OSError, ValueError):
        pass


def guard_standard_streams() -> bool:
    """Point a closed stdin, stdout or stderr at /dev/null; returns whether stdout was open.

    Otherwise the next file opened would take the free descriptor, and a message meant for
    stderr would land in it (the cache's database, say). Python leaves sys.stdout/sys.stderr
    None for a descriptor that was closed at start; they get a working stream.
    """
    was_open = {}
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
            was_open[fd] = True
        except OSError:
            was_open[fd] = False
            null = os.open(os.devnull, os.O_RDWR)
            if null != fd:
                os.dup2(null, fd)
                os.close(null)
    if sys.stdout is None:
        sys.stdout = open(1, "w", encoding="utf-8", closefd=False)  # noqa: SIM115 - lives as long as the process
    if sys.stderr is None:
        sys.stderr = open(2, "w", encoding="utf-8", errors="backslashreplace", closefd=False)  # noqa: SIM115
    return was_open[1]

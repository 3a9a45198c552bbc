"""Ending a run on SIGINT, SIGTERM or SIGHUP at once, cleanly, whatever it is doing.

The command does its work in a child process that leads a process group of its own (Luigi's
worker processes join it) and only supervises it. The supervisor's signal handler records the
signal and nothing else; the supervisor then kills the whole group with SIGKILL, waits for it,
removes every temp file the group announced before creating it (`ir_trace.runsafety.run_guard`), and exits
128 + the signal: 130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP.

Killing is safe where raising an exception at a random point is not: the cache is SQLite, whose
commits survive a killed writer, and a report only appears through an atomic rename. Nothing can
block the way out: the supervisor has no threads, queues or Luigi of its own, and the child ends
with `os._exit` once its output is flushed, so multiprocessing never joins a queue's feeder
thread at exit. A signal the command was started with ignored (`nohup`, `cmd &` in a script)
stays ignored.
"""

from __future__ import annotations

import os
import select
import shutil
import signal
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ir_trace.runsafety.run_guard import Announcements, RunGuard, remove_files

if TYPE_CHECKING:
    from ir_trace.runsafety.early_signals import EarlySignals, SignalHandler

STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))
_SUSPEND = getattr(signal, "SIGTSTP", None)  # Ctrl-Z
_DRAIN_SECONDS = 10.0  # how long a killed group may take to close its end of the temp-name pipe


@dataclass
class RunResult:
    """How a supervised run ended."""

    code: int  # the child's exit code (meaningful when neither `stopped_by` nor `killed_by` is set)
    stopped_by: int | None = None  # the stop signal that ended it
    killed_by: int | None = None  # another signal that killed the child (out of memory, a crash)
    written: list[str] = field(default_factory=list)  # outputs finished before it ended


class Supervisor:
    """Install first thing in `main`, so a signal at any moment of the command is recorded."""

    def __init__(self):
        self.received: int | None = None
        self._honoured: list[int] = []
        self._previous: dict[int, SignalHandler] = {}
        self._suspend_asked = False

    def install(self, early: EarlySignals | None = None) -> Supervisor:
        """`early` (`ir_trace.runsafety.early_signals.EarlySignals`): the handlers that caught stop signals while the
        command was importing; a signal they recorded counts as received here."""
        replaced = early.replaced if early is not None else {}
        for signum in STOP_SIGNALS:
            if signal.getsignal(signum) is not signal.SIG_IGN:
                self._honoured.append(signum)
                previous = signal.signal(signum, self._record)
                self._previous[signum] = replaced.get(signum, previous)  # Python's own, not the early one
        if _SUSPEND is not None and signal.getsignal(_SUSPEND) is not signal.SIG_IGN:
            self._previous[_SUSPEND] = signal.signal(_SUSPEND, self._ask_suspend)
        if early is not None and early.received is not None:  # read once this handler is in place: none is lost
            self.received = early.received
        return self

    def uninstall(self) -> None:
        for signum, handler in self._previous.items():
            signal.signal(signum, handler)
        self._previous.clear()

    def _record(self, signum, _frame) -> None:
        if self.received is None:
            self.received = signum

    def _ask_suspend(self, _signum, _frame) -> None:
        self._suspend_asked = True

    def _suspend(self, pid: int) -> None:
        """Ctrl-Z reaches only this process (the work has a group of its own): stop the work too,
        stop here as the shell expects, and let the work go on when this process is continued."""
        assert _SUSPEND is not None  # asked for only where there is a Ctrl-Z
        self._suspend_asked = False
        _signal_group(pid, signal.SIGSTOP)
        signal.signal(_SUSPEND, signal.SIG_DFL)
        os.kill(os.getpid(), _SUSPEND)  # returns once `fg` or `bg` continues this process
        signal.signal(_SUSPEND, self._ask_suspend)
        _signal_group(pid, signal.SIGCONT)

    def run(self, work: Callable[[RunGuard], int]) -> RunResult:
        """`work(guard)` in a supervised child, `guard` the child's `RunGuard` (the guarantees its writes
        keep); in this process, with a guard nobody supervises, where fork is not available."""
        if self.received is not None:
            return RunResult(1, stopped_by=self.received)
        if not hasattr(os, "fork"):
            return self._run_here(work)
        read_end, write_end = os.pipe()
        wakeup_read, wakeup_write = os.pipe()
        for fd in (read_end, wakeup_read, wakeup_write):
            os.set_blocking(fd, False)
        scratch = _scratch_directory()
        previous_child_handler = signal.signal(signal.SIGCHLD, lambda *_: None)  # a handler, so the wakeup fd fires
        previous_wakeup = signal.set_wakeup_fd(wakeup_write)
        try:
            pid = os.fork()
        except OSError:
            pid = None
        if pid == 0:
            self._child(work, write_end, scratch, (read_end, wakeup_read, wakeup_write))
        try:
            os.close(write_end)
            if pid is None:
                os.close(read_end)
                return self._run_here(work)
            try:
                os.setpgid(pid, pid)  # the child does the same: whichever runs first makes the group
            except OSError:
                pass
            return self._supervise(pid, read_end, wakeup_read)
        finally:
            signal.set_wakeup_fd(previous_wakeup)
            signal.signal(signal.SIGCHLD, previous_child_handler)
            for fd in (wakeup_read, wakeup_write):
                os.close(fd)
            if scratch:
                shutil.rmtree(scratch, ignore_errors=True)

    def _run_here(self, work: Callable[[RunGuard], int]) -> RunResult:
        """No fork: Python's own handling (KeyboardInterrupt for SIGINT) while the work runs."""
        self.uninstall()
        return RunResult(work(RunGuard()))

    def _child(
        self, work: Callable[[RunGuard], int], temps_fd: int, scratch: str | None, close: tuple[int, ...]
    ) -> None:
        code, guard = 1, RunGuard(os.getppid(), temps_fd, scratch)
        try:
            guard.die_with_supervisor()  # first: a supervisor killed from here on takes this work with it
            try:
                os.setpgid(0, 0)
            except OSError:
                pass
            signal.set_wakeup_fd(-1)
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            for signum in self._honoured:  # die at once: the supervisor cleans up after this group
                signal.signal(signum, signal.SIG_DFL)
            if getattr(signal, "SIGHUP", None) in self._honoured:  # unless the supervisor is gone (see hung_up)
                signal.signal(signal.SIGHUP, lambda *_: guard.hung_up())
            if _SUSPEND in self._previous:
                signal.signal(_SUSPEND, signal.SIG_DFL)
            if hasattr(signal, "SIGTTOU"):  # a background group may still write to a `stty tostop` terminal
                signal.signal(signal.SIGTTOU, signal.SIG_IGN)
            for fd in close:
                os.close(fd)
            _stdin_from_devnull()  # a background group reading the terminal would be stopped
            if scratch:
                tempfile.tempdir = scratch  # throw-away caches go where the supervisor removes them
            code = work(guard)
        except BaseException:  # noqa: B036 - nothing may escape the child but its exit code
            code = 1
        finally:
            guard.abandon()  # if the supervisor was killed meanwhile: say nothing, clean up what it would have
            if scratch:  # here too, so a supervisor killed after this work ended leaves nothing behind
                shutil.rmtree(scratch, ignore_errors=True)
            for stream in (sys.stdout, sys.stderr):
                try:
                    stream.flush()
                except (AttributeError, OSError, ValueError):
                    pass
            os._exit(code)

    def _supervise(self, pid: int, temps_fd: int, wakeup_fd: int) -> RunResult:
        records = Announcements()
        killed = False
        ended = None
        while ended is None:
            if self.received is not None and not killed:
                _signal_group(pid, signal.SIGKILL)
                killed = True
            elif self._suspend_asked and not killed:
                self._suspend(pid)
            select.select([wakeup_fd] if records.closed else [temps_fd, wakeup_fd], [], [])  # EOF stays readable
            _drain(wakeup_fd)
            records.read(temps_fd)
            ended = _ended(pid)
        _signal_group(pid, signal.SIGKILL)  # whatever the child left running (a worker on an error path) goes too
        code, by_signal = ended if ended != _UNREAPED else _reap(pid)
        records.read_to_end(temps_fd, time.monotonic() + _DRAIN_SECONDS)
        os.close(temps_fd)
        remove_files(records.temps)
        result = RunResult(code, written=records.written())
        if self.received is not None:
            result.stopped_by = self.received
        elif by_signal is not None:
            result.killed_by = by_signal
            if by_signal in self._honoured:
                result.stopped_by = by_signal
        return result


_UNREAPED = ("ended", "not reaped")


def _ended(pid: int):
    """Has the child ended? Without reaping it where possible, so its pid stays its group's id
    until the group has been killed."""
    if hasattr(os, "waitid"):
        info = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        return None if info is None else _UNREAPED
    done, status = os.waitpid(pid, os.WNOHANG)
    return _decode(status) if done else None


def _reap(pid: int) -> tuple[int, int | None]:
    _pid, status = os.waitpid(pid, 0)
    return _decode(status)


def _decode(status: int) -> tuple[int, int | None]:
    """(exit code, None) for a normal exit; (1, signal) for a child a signal killed."""
    if os.WIFSIGNALED(status):
        return 1, os.WTERMSIG(status)
    return os.waitstatus_to_exitcode(status), None


def _signal_group(pid: int, signum: int) -> None:
    try:
        os.killpg(pid, signum)
    except OSError:  # already gone
        pass


def _drain(fd: int) -> None:
    try:
        while os.read(fd, 512):
            pass
    except BlockingIOError:
        pass


def _stdin_from_devnull() -> None:
    try:
        null = os.open(os.devnull, os.O_RDONLY)
    except OSError:
        return
    os.dup2(null, 0)
    if null != 0:
        os.close(null)


def _scratch_directory() -> str | None:
    try:
        return tempfile.mkdtemp(prefix="pypto-ir-trace-run-")
    except OSError:
        return None

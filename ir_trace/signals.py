"""Ending a run on SIGINT, SIGTERM or SIGHUP at once, cleanly, whatever it is doing.

The command does its work in a child process that leads a process group of its own (Luigi's
worker processes join it) and only supervises it. The supervisor's signal handler records the
signal and nothing else; the supervisor then kills the whole group with SIGKILL, waits for it,
removes every temp file the group announced before creating it (`ir_trace.output`), and exits
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

from ir_trace import output

if TYPE_CHECKING:
    from ir_trace.launch import EarlySignals

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
        self._previous: dict[int, object] = {}
        self._suspend_asked = False

    def install(self, early: EarlySignals | None = None) -> Supervisor:
        """`early` (`ir_trace.launch.EarlySignals`): the handlers that caught stop signals while the
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
        self._suspend_asked = False
        _signal_group(pid, signal.SIGSTOP)
        signal.signal(_SUSPEND, signal.SIG_DFL)
        os.kill(os.getpid(), _SUSPEND)  # returns once `fg` or `bg` continues this process
        signal.signal(_SUSPEND, self._ask_suspend)
        _signal_group(pid, signal.SIGCONT)

    def run(self, work: Callable[[], int]) -> RunResult:
        """`work()` in a supervised child; in this process where fork is not available."""
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

    def _run_here(self, work: Callable[[], int]) -> RunResult:
        """No fork: Python's own handling (KeyboardInterrupt for SIGINT) while the work runs."""
        self.uninstall()
        return RunResult(work())

    def _child(self, work: Callable[[], int], temps_fd: int, scratch: str | None, close: tuple[int, ...]) -> None:
        code, supervisor = 1, os.getppid()
        try:
            _die_with(supervisor, scratch)  # first: a supervisor killed from here on takes this work with it
            try:
                os.setpgid(0, 0)
            except OSError:
                pass
            signal.set_wakeup_fd(-1)
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            for signum in self._honoured:  # die at once: the supervisor cleans up after this group
                signal.signal(signum, signal.SIG_DFL)
            if getattr(signal, "SIGHUP", None) in self._honoured:  # unless the supervisor is gone (see _hung_up)
                signal.signal(signal.SIGHUP, lambda *_: _hung_up(supervisor, scratch))
            if _SUSPEND in self._previous:
                signal.signal(_SUSPEND, signal.SIG_DFL)
            if hasattr(signal, "SIGTTOU"):  # a background group may still write to a `stty tostop` terminal
                signal.signal(signal.SIGTTOU, signal.SIG_IGN)
            for fd in close:
                os.close(fd)
            _stdin_from_devnull()  # a background group reading the terminal would be stopped
            output.report_temps_to(temps_fd)
            if scratch:
                tempfile.tempdir = scratch  # throw-away caches go where the supervisor removes them
            code = work()
        except BaseException:  # noqa: B036 - nothing may escape the child but its exit code
            code = 1
        finally:
            if os.getppid() != supervisor:  # it was killed meanwhile: say nothing, clean up what it would have
                _abandon(supervisor, scratch)
            if scratch:  # here too, so a supervisor killed after this work ended leaves nothing behind
                shutil.rmtree(scratch, ignore_errors=True)
            for stream in (sys.stdout, sys.stderr):
                try:
                    stream.flush()
                except (AttributeError, OSError, ValueError):
                    pass
            os._exit(code)

    def _supervise(self, pid: int, temps_fd: int, wakeup_fd: int) -> RunResult:
        records = _Records()
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
        output.remove_partial_files(records.temps)
        result = RunResult(code, written=records.written())
        if self.received is not None:
            result.stopped_by = self.received
        elif by_signal is not None:
            result.killed_by = by_signal
            if by_signal in self._honoured:
                result.stopped_by = by_signal
        return result


_UNREAPED = ("ended", "not reaped")

# ---------- the work dies with its supervisor ----------
#
# SIGKILL cannot be caught, so a supervisor killed with it cleans nothing up. On Linux the kernel
# tells the work instead (PR_SET_PDEATHSIG): the child, signalled with `_PARENT_GONE`, stops its
# Luigi workers, removes its temp files and the run's scratch directory, and exits; each worker
# process is told the same when the child goes. Where that is not available, a write still
# checks its supervisor before every rename (`output._announce`), so nothing is published late.

_PARENT_GONE = getattr(signal, "SIGUSR2", None)  # Luigi uses SIGUSR1 in the process it runs in
_PR_SET_PDEATHSIG = 1
_WORKERS_GRACE = 5.0  # seconds a stopped worker gets to remove its own temp file before SIGKILL


def _die_with(supervisor: int, scratch: str | None) -> None:
    """In the child: end this work when `supervisor` ends, and every process it forks when it ends."""
    global _supervisor_pid, _work_pid
    _supervisor_pid, _work_pid = supervisor, os.getpid()
    if _PARENT_GONE is None or not _ask_parent_death_signal(_PARENT_GONE):
        return
    signal.signal(_PARENT_GONE, lambda *_: _abandon(supervisor, scratch))
    os.register_at_fork(after_in_child=_worker_dies_with_its_parent)
    if os.getppid() != supervisor:  # it died before the request was made: nobody will signal
        _abandon(supervisor, scratch)


def _ask_parent_death_signal(signum: int) -> bool:
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(_PR_SET_PDEATHSIG, signum, 0, 0, 0) == 0
    except (OSError, AttributeError):  # not Linux
        return False


def _worker_dies_with_its_parent() -> None:
    """In a process the child forks (a Luigi worker): SIGTERM when the child ends, which removes a
    temp file being written (`output`) and ends the worker; at once if it has ended already."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if _PARENT_GONE is not None:
        signal.signal(_PARENT_GONE, signal.SIG_DFL)
    _ask_parent_death_signal(signal.SIGTERM)
    if os.getppid() != _work_pid:
        os._exit(1)


def _abandon(supervisor: int, scratch: str | None) -> None:
    """The supervisor is gone: stop the workers, remove what this run made, and exit (silently)."""
    if os.getppid() == supervisor:  # a stray signal, not the kernel's notice
        return
    _stop_workers(time.monotonic() + _WORKERS_GRACE)
    output.remove_partial_files(list(output.PARTIAL_FILES))
    if scratch:
        shutil.rmtree(scratch, ignore_errors=True)
    os._exit(1)


def _stop_workers(deadline: float) -> None:
    """SIGTERM to every worker process (it removes a temp file it is writing), SIGKILL to any still
    running at `deadline`, until none is left. A worker Luigi has forked but not yet registered
    is found too: every other process of this process's own group is one."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    while True:
        _reap_any()
        workers = _other_processes_of_my_group()
        if not workers:
            return
        for pid in workers:
            try:
                os.kill(pid, signal.SIGTERM if time.monotonic() < deadline else signal.SIGKILL)
            except OSError:  # already gone
                pass
        time.sleep(0.01)


def _other_processes_of_my_group() -> list[int]:
    """The running processes of the group this process leads (Linux: /proc); when it leads none
    (its group is the shell's job, whose other commands are not ours), its multiprocessing children."""
    me = os.getpid()
    if os.getpgid(0) != me or not os.path.isdir("/proc/self"):
        import multiprocessing

        return [process.pid for process in multiprocessing.active_children()]
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == me:
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as handle:
                fields = handle.read().rsplit(b")", 1)[1].split()  # after the name: state, ppid, pgrp
        except OSError:
            continue
        if int(fields[2]) == me and fields[0] not in (b"Z", b"X"):
            found.append(int(entry))
    return found


def _reap_any() -> None:
    while True:
        try:
            pid, _status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if not pid:
            return


def work_orphaned() -> bool:
    """In the work process: has its supervisor died? (Nothing is said then: nobody asked for it.)"""
    return _supervisor_pid is not None and os.getppid() != _supervisor_pid


_supervisor_pid: int | None = None  # set in the work process
_work_pid: int | None = None  # the work process itself (the parent its workers must outlive)


def _hung_up(supervisor: int, scratch: str | None) -> None:
    """SIGHUP in the child: the kernel sends it to a stopped group (Ctrl-Z) whose supervisor has just
    died, so clean up as `_abandon` does; sent by anyone else, it ends the child as by default."""
    _abandon(supervisor, scratch)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
    os.kill(os.getpid(), signal.SIGHUP)


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


class _Records:
    """The child's announcements, `\\0`-terminated (see `output.report_temps_to`)."""

    def __init__(self):
        self.temps: list[str] = []
        self.streams: list[str] = []
        self.renames: list[tuple[int, int, str]] = []
        self._pending = b""
        self.closed = False

    def written(self) -> list[str]:
        """Outputs finished: streams written, and files whose rename really happened."""
        done = list(self.streams)
        for device, inode, target in self.renames:
            try:
                info = os.stat(target)
            except OSError:
                continue
            if (info.st_dev, info.st_ino) == (device, inode) and target not in done:
                done.append(target)
        return done

    def read(self, fd: int) -> None:
        while not self.closed:
            try:
                chunk = os.read(fd, 65536)
            except BlockingIOError:
                return
            if not chunk:
                self.closed = True
                return
            self._pending += chunk
            *complete, self._pending = self._pending.split(b"\0")
            for record in complete:
                self._add(record[:1], os.fsdecode(record[1:]))

    def _add(self, kind: bytes, text: str) -> None:
        if kind == b"T":
            self.temps.append(text)
        elif kind == b"W":
            self.streams.append(text)
        elif kind == b"R":
            device, inode, target = text.split(":", 2)
            self.renames.append((int(device), int(inode), target))

    def read_to_end(self, fd: int, deadline: float) -> None:
        """Until every process of the killed group has closed its end (so none can still create a file)."""
        while not self.closed and time.monotonic() < deadline:
            select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
            self.read(fd)


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

"""The promises a run keeps about the files it writes, held by one object handed to every writer.

A `RunGuard` is made once per process that does the work and passed down explicitly (to
`output.write_output`, the report's target, the sweep's writers):

- every temp file is registered before it exists and, when a supervisor listens
  (`ir_trace.runsafety.signals.Supervisor`), announced down its pipe, so whoever stops the run removes it;
- once that supervisor is gone (SIGKILL), nothing is created or renamed into place any more, the
  work says nothing more, and it ends itself: it stops its Luigi workers, removes its temp files
  and its scratch directory (the kernel tells it: PR_SET_PDEATHSIG);
- a process nobody supervises (a `luigi` task process) removes its own temp file on a terminating
  signal left at its default action, then dies of it as it would have.

The pipe carries `\\0`-terminated records: `T<temp name>` before a temp file is created,
`R<device>:<inode>:<target>` before a finished file is renamed over its target, `W<path>` after a
stream was written. `Announcements` reads them on the supervisor's side.
"""

from __future__ import annotations

import os
import select
import shutil
import signal
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from ir_trace.errors import IRTraceError

# Signals whose default action ends the process where it stands, leaving a temp file behind.
_TERMINATING = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP", "SIGINT") if hasattr(signal, name))
_PARENT_GONE = getattr(signal, "SIGUSR2", None)  # Luigi uses SIGUSR1 in the process it runs in
_PR_SET_PDEATHSIG = 1
_WORKERS_GRACE = 5.0  # seconds a stopped worker gets to remove its own temp file before SIGKILL


class SupervisorGone(IRTraceError):
    """The command that started this run has died (SIGKILL): nothing may be created or published."""


class RunGuard:
    """This process's file guarantees; `RunGuard()` for a process nobody supervises."""

    def __init__(self, supervisor_pid: int | None = None, announce_fd: int | None = None, scratch: str | None = None):
        self.supervisor_pid = supervisor_pid  # the command supervising this work, if any
        self.work_pid = os.getpid()  # the work process itself (the parent its workers must outlive)
        self.scratch = scratch  # the run's scratch directory, removed when the work is abandoned
        self.temps: set[str] = set()  # temp files this process may have created and not yet renamed
        self._announce_fd = announce_fd

    def orphaned(self) -> bool:
        """Has the supervisor died? (Nothing is said then: nobody asked for it.)"""
        return self.supervisor_pid is not None and os.getppid() != self.supervisor_pid

    # ---------- temp files ----------

    @contextmanager
    def temp_file(self, name: str) -> Iterator[str]:
        """Register and announce the temp file `name` before the caller creates it; forgotten on exit
        (renamed or removed by then)."""
        self.temps.add(name)
        try:
            self._announce("T", name)
            yield name
        finally:
            self.temps.discard(name)

    def publishing(self, finished: os.stat_result, target: str) -> None:
        """Say, just before the rename, which file is about to become `target`; SupervisorGone stops it."""
        self._announce("R", f"{finished.st_dev}:{finished.st_ino}:{target}")

    def streamed(self, path: str) -> None:
        """Say that a stream (a FIFO, a device) has been written: it stays written whatever happens."""
        self._announce("W", path)

    def _announce(self, kind: str, path: str) -> None:
        """When the supervisor is gone (EPIPE: nobody holds the pipe's read end), refuse to go on, so a
        killed command never has a report published after it (checked before every rename)."""
        if self._announce_fd is None:
            return
        try:
            os.write(self._announce_fd, kind.encode() + os.fsencode(path) + b"\0")
        except BrokenPipeError:
            if kind != "W":  # a stream already written stays written
                raise SupervisorGone("the command was killed; nothing is published") from None
        except OSError:
            pass

    @contextmanager
    def removed_on_termination(self) -> Iterator[None]:
        """While a temp file may exist, a terminating signal left at its default action (a `luigi`
        worker's SIGTERM) removes this guard's temp files first, then ends the process by that same
        default action: whoever sent it sees the usual death. A handler the program set is left alone."""
        installed = {}
        if threading.current_thread() is threading.main_thread():
            for signum in _TERMINATING:
                if signal.getsignal(signum) is signal.SIG_DFL:
                    installed[signum] = signal.signal(signum, self._remove_temps_then_die)
        try:
            yield
        finally:
            for signum, previous in installed.items():
                signal.signal(signum, previous)

    def _remove_temps_then_die(self, signum: int, _frame) -> None:
        remove_files(list(self.temps))
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)

    # ---------- the work dies with its supervisor ----------
    #
    # SIGKILL cannot be caught, so a supervisor killed with it cleans nothing up. On Linux the kernel
    # tells the work instead (PR_SET_PDEATHSIG): the work, signalled with `_PARENT_GONE`, stops its
    # Luigi workers, removes its temp files and the run's scratch directory, and exits; each worker
    # process is told the same when the work goes. Where that is not available, a write still
    # checks its supervisor before every rename (`_announce`), so nothing is published late.

    def die_with_supervisor(self) -> None:
        """In the work process: end it when its supervisor ends, and every process it forks when it ends."""
        if self.supervisor_pid is None or _PARENT_GONE is None or not _ask_parent_death_signal(_PARENT_GONE):
            return
        signal.signal(_PARENT_GONE, lambda *_: self.abandon())
        os.register_at_fork(after_in_child=self._worker_dies_with_its_parent)
        if self.orphaned():  # it died before the request was made: nobody will signal
            self.abandon()

    def _worker_dies_with_its_parent(self) -> None:
        """In a process the work forks (a Luigi worker): SIGTERM when the work ends, which removes a
        temp file being written (`removed_on_termination`) and ends the worker; at once if it has ended."""
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        if _PARENT_GONE is not None:
            signal.signal(_PARENT_GONE, signal.SIG_DFL)
        _ask_parent_death_signal(signal.SIGTERM)
        if os.getppid() != self.work_pid:
            os._exit(1)

    def abandon(self) -> None:
        """The supervisor is gone: stop the workers, remove what this run made, and exit (silently)."""
        if not self.orphaned():  # a stray signal, not the kernel's notice
            return
        _stop_workers(time.monotonic() + _WORKERS_GRACE)
        remove_files(list(self.temps))
        if self.scratch:
            shutil.rmtree(self.scratch, ignore_errors=True)
        os._exit(1)

    def hung_up(self) -> None:
        """SIGHUP in the work: the kernel sends it to a stopped group (Ctrl-Z) whose supervisor has just
        died, so clean up as `abandon` does; sent by anyone else, it ends the work as by default."""
        self.abandon()
        signal.signal(signal.SIGHUP, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGHUP)


def remove_files(names: Iterable[str]) -> None:
    """Delete temp files a stopped run registered (those it renamed are simply gone already)."""
    for name in names:
        remove_temp(name)


def remove_temp(name: str) -> None:
    """Delete our temp file `name`, if it is there. A temp file given the owner of the file it was
    to replace cannot be deleted in a sticky directory by root without CAP_FOWNER (the very case
    where the rename failed): it is taken back first (CAP_CHOWN), then deleted."""
    try:
        os.unlink(name)
    except PermissionError:
        try:
            os.chown(name, os.geteuid(), os.getegid(), follow_symlinks=False)
            os.unlink(name)
        except OSError:
            pass
    except OSError:
        pass


def _ask_parent_death_signal(signum: int) -> bool:
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(_PR_SET_PDEATHSIG, signum, 0, 0, 0) == 0
    except (OSError, AttributeError):  # not Linux
        return False


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

        return [process.pid for process in multiprocessing.active_children() if process.pid is not None]
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


class Announcements:
    """The supervisor's side of the pipe: what the work announced (see the module docstring)."""

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

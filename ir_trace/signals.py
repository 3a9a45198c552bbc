"""Stopping a run on SIGINT or SIGTERM without losing the interrupt or leaving a partial report."""

from __future__ import annotations

import contextlib
import os
import signal
import sys

from ir_trace.render import PARTIAL_FILES


class StopOnSignals:
    """SIGTERM stops a run like Ctrl-C: a KeyboardInterrupt that removes the temp report on its way out.

    A KeyboardInterrupt can be lost: Luigi swallows one raised in an event callback, Python only prints
    one raised in an at-fork hook (where a parent of forked workers spends its time) or a weakref
    callback. So the handler does not raise inside a hook or callback it can see, and a SIGALRM checks
    every CHECK_SECONDS that the interrupt is still unwinding towards `main`, raising it again only
    when it was lost (never while it unwinds, so cleanup code runs once, undisturbed). `received`
    keeps the signal for the exit code. Forked Luigi workers leave SIGINT (Ctrl-C reaches the whole
    process group) to this process, which terminates them on its way out; on that SIGTERM a worker
    removes its temp report and exits at once: unwinding would let Luigi record the failure in the
    cache, whose connection the signal may have left mid-transaction.
    """

    CHECK_SECONDS = 0.05
    forking = False  # True while os.fork runs its hooks (set by hooks registered once per process)
    _watching_forks = False

    def __init__(self):
        self.received: int | None = None
        self._raised: KeyboardInterrupt | None = None
        self._pid = os.getpid()
        self._previous: dict[int, object] = {}
        self._closing = False
        self._armed = False

    @classmethod
    def _watch_forks(cls) -> None:
        if not cls._watching_forks and hasattr(os, "register_at_fork"):
            os.register_at_fork(
                before=lambda: setattr(cls, "forking", True),
                after_in_parent=lambda: setattr(cls, "forking", False),
                after_in_child=lambda: setattr(cls, "forking", False),
            )
            cls._watching_forks = True

    def _handle(self, signum, frame):
        if os.getpid() != self._pid:
            if signum == signal.SIGINT:
                return
            for partial in list(PARTIAL_FILES):
                with contextlib.suppress(OSError):
                    os.unlink(partial)
            os._exit(128 + signum)
        if self._closing or (signum == signal.SIGALRM and self.received is None):
            return
        if signum != signal.SIGALRM:
            self.received = signum
        signal.setitimer(signal.ITIMER_REAL, self.CHECK_SECONDS)
        self._armed = True
        if self._unwinding() or self.forking or _inside_luigi_callback(frame):
            return
        self._raised = KeyboardInterrupt()
        raise self._raised

    def _unwinding(self) -> bool:
        """Is the KeyboardInterrupt we raised being handled (a finally, except or __exit__ up the stack)?"""
        exc, seen = sys.exc_info()[1], set()
        while exc is not None and id(exc) not in seen:
            if exc is self._raised:
                return True
            seen.add(id(exc))
            exc = exc.__context__
        return False

    def __enter__(self):
        try:
            for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGALRM):
                self._previous[signum] = signal.signal(signum, self._handle)
        except ValueError:  # not the main thread: signals stay as they are
            return self
        self._watch_forks()
        return self

    def __exit__(self, *_exc):
        self._closing = True
        if self._armed:
            signal.setitimer(signal.ITIMER_REAL, 0)
        for signum, handler in self._previous.items():
            signal.signal(signum, handler)
        return False


def _inside_luigi_callback(frame) -> bool:
    while frame is not None:
        if frame.f_code.co_name == "trigger_event" and "luigi" in frame.f_code.co_filename:
            return True
        frame = frame.f_back
    return False

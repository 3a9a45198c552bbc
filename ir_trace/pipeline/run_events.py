"""The Luigi task events of one run (the command's or the API's): the progress bar's work, rediffed pairs,
the failure reason."""

from __future__ import annotations

import collections
import contextlib
from typing import TYPE_CHECKING, Protocol


class Progress(Protocol):
    """What a run tells its progress display (the command's bar, `ir_trace.app.progress.ProgressBar`)."""

    def add_work(self, count: int = 1) -> None: ...
    def advance(self) -> None: ...
    def close(self) -> None: ...
    def clear(self) -> None: ...


class NoProgress:
    """A run nobody watches (the Python API's)."""

    def add_work(self, count: int = 1) -> None:
        pass

    def advance(self) -> None:
        pass

    def close(self) -> None:
        pass

    def clear(self) -> None:
        pass


if TYPE_CHECKING:
    import multiprocessing.queues
    import multiprocessing.sharedctypes


class RunEvents:
    """Luigi's task events, for one run: the bar's work and progress, rediffed pairs, the failure reason.

    Registered with `Task.event_handler` on entry and removed with `Task.remove_event_handler` on
    exit. With several workers, tasks run in forked processes, so counts live in shared memory and
    failure reasons travel through a pipe; with one, plain objects do (and cost no start-up time).
    """

    COUNTS = ("rediffed",)

    def __init__(self, bar: Progress, forked: bool):
        from luigi import Event

        from ir_trace.pipeline import DiffPair
        from ir_trace.pipeline.base import WORK_DONE, WORK_PLANNED, WORK_REDONE, PipelineTask

        self.bar = bar
        self._counts: multiprocessing.sharedctypes.SynchronizedArray | _InProcessCounts
        self._failures: multiprocessing.queues.SimpleQueue | _InProcessQueue
        if forked:
            import multiprocessing

            self._counts, self._failures = multiprocessing.Array("l", len(self.COUNTS)), multiprocessing.SimpleQueue()
        else:
            self._counts, self._failures = _InProcessCounts(len(self.COUNTS)), _InProcessQueue()
        self.handlers = [
            (PipelineTask, WORK_PLANNED, lambda _task, count: bar.add_work(count)),
            (PipelineTask, WORK_DONE, lambda _task, item: self._work_done(isinstance(item, DiffPair))),
            (PipelineTask, WORK_REDONE, lambda _task, item: self._redone(isinstance(item, DiffPair))),
            (PipelineTask, Event.FAILURE, self._failed),
            (PipelineTask, Event.BROKEN_TASK, self._failed),
            (PipelineTask, Event.PROCESS_FAILURE, self._failed),  # a worker process died: a message
            (PipelineTask, Event.TIMEOUT, self._failed),
        ]

    def _work_done(self, rediffed: bool) -> None:
        if rediffed:
            self._add("rediffed")
        self.bar.advance()

    def _redone(self, rediffed: bool) -> None:
        """A damaged result recomputed while the report was assembled: no work the bar planned."""
        if rediffed:
            self._add("rediffed")

    def _add(self, name: str) -> None:
        with self._counts.get_lock():
            self._counts[self.COUNTS.index(name)] += 1

    def _failed(self, _task, exception) -> None:
        from ir_trace.pipeline.base import explain

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
        self.bar.close()  # before any message, an interrupt's included
        for cls, event, handler in self.handlers:
            cls.remove_event_handler(event, handler)


class _InProcessCounts(list):
    """The part of multiprocessing.Array's interface RunEvents uses, for a run without forks."""

    def __init__(self, size: int):
        super().__init__([0] * size)

    def get_lock(self):
        return contextlib.nullcontext()


class _InProcessQueue(collections.deque):
    """The part of multiprocessing.SimpleQueue's interface RunEvents uses, for a run without forks."""

    put = collections.deque.append

    def get(self):
        return self.popleft()

    def empty(self) -> bool:
        return not self

"""What every pipeline task shares: a failure is raised, and explained in one line."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import ClassVar

import luigi

from ir_trace.errors import IRTraceError, one_line, unexpected_message
from ir_trace.options import ReportOptions

WORK_PLANNED = "ir_trace.work_planned"  # event(task, count): diffs and slicings a report still needs
WORK_REDONE = "ir_trace.work_redone"  # event(task, item): an item whose cached result was damaged, recomputed
WORK_DONE = "ir_trace.work_done"  # event(batch, item): one diff (DiffPair) or slicing (SliceFunctions) computed

log = logging.getLogger("luigi-interface")


class _OneLineFailures(logging.Filter):
    """Drops the traceback Luigi's worker logs with every failed task when the failure is one of
    our own errors: `PipelineTask.on_failure` has logged its one-line reason already. Kept when
    Luigi's log is at DEBUG (`--log-level DEBUG`), and always for anything unexpected (a bug)."""

    def filter(self, record: logging.LogRecord) -> bool:
        failure = record.exc_info[1] if record.exc_info else None
        return not isinstance(failure, IRTraceError) or log.isEnabledFor(logging.DEBUG)


log.addFilter(_OneLineFailures())


class AbsolutePath(luigi.Parameter):
    """A path, made absolute when the task is created, so the same file is the same task from any
    working directory (`--dump d` and `--dump /work/d/` give one task id, never two tasks writing one
    report). Like the command line's paths it is not resolved: `..` and symlinks stay as given. An
    empty value (no path) stays empty."""

    def normalize(self, x):
        return str(Path(x).absolute()) if x else ""


class ReportOptionsParameter(luigi.Parameter[ReportOptions]):
    """A report's options (`ReportOptions`: context and initial ignore modes) as one value, its
    canonical JSON on a command line or to a scheduler, so equal options are one task."""

    def parse(self, x):
        return ReportOptions.from_json(x)

    def normalize(self, x):
        return self.parse(x) if isinstance(x, str) else x

    def serialize(self, x):
        return x.to_json()


def explain(exception: BaseException) -> str:
    """One line for a failure: our own errors say what to do; anything else names its type."""
    known = isinstance(exception, IRTraceError)
    return one_line(str(exception) if known else unexpected_message(exception))


class PipelineTask(luigi.Task):
    """A task that raises when it cannot produce its output, so Luigi marks it failed.

    The explanation Luigi keeps (shown by luigid, logged by `luigi`) is the one-line reason,
    not a traceback.
    """

    _found_params: ClassVar[tuple[tuple[str, luigi.Parameter], ...] | None] = None

    @classmethod
    def get_params(cls) -> list[tuple[str, luigi.Parameter]]:
        """Luigi's (name, Parameter) list of the class, found once per class: Luigi walks `dir(cls)` again
        each time a task is made, named, serialised or compared (95 times in a 28-snapshot dump's run)."""
        found = cls.__dict__.get("_found_params")
        if found is None:
            found = tuple(super().get_params())
            cls._found_params = found  # on this very class (read from its own __dict__): a subclass finds its own
        return list(found)

    def on_failure(self, exception):
        message = explain(exception)
        log.error("%s failed: %s", self, message)
        return message

    # Luigi's worker gives a running task these setters; Task.__init__ declares them None, hence the ignores.
    def report_status(self, message: str) -> None:
        """The status message luigid shows for this task."""
        self.set_status_message(message)  # type: ignore[misc]

    def report_progress(self, percentage: int) -> None:
        """The progress bar luigid shows for this task."""
        self.set_progress_percentage(percentage)  # type: ignore[misc]


@PipelineTask.event_handler(luigi.Event.PROCESS_FAILURE)
def _say_the_worker_died(task: luigi.Task, message: str) -> None:
    """A worker process killed under a task (SIGKILL, the OOM killer) fails the run with exit 3;
    Luigi says why only at INFO, so the one line is said here, as for any failure."""
    code = message.rsplit(" ", 1)[-1]
    how = f"was killed by signal {code[1:]}" if code.startswith("-") and code[1:].isdigit() else f"died ({message})"
    log.error("%s failed: its worker process %s; nothing it was doing was kept, run again", task, how)

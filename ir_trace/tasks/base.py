"""What every pipeline task shares: quiet failures recorded for the command that ran them."""

from __future__ import annotations

import luigi

from ir_trace.errors import IRTraceError
from ir_trace.tasks.config import shared_cache

RUN_RECORD_SECONDS = 24 * 3600  # per-run entries (manifests, outcomes) are kept a day


def failure_key(run_id: str) -> str:
    return f"failure/{run_id}"


class PipelineTask(luigi.Task):
    """A task whose failure message reaches the CLI as one line instead of a traceback."""

    run_id = luigi.Parameter(default="", significant=False, description="the run this task serves")

    def on_failure(self, exception):
        message = str(exception) if isinstance(exception, IRTraceError) else f"{self}: {exception!r}"
        if self.run_id:
            shared_cache().add(failure_key(self.run_id), message, expire=RUN_RECORD_SECONDS)
        return message

"""The Luigi pipeline: thin tasks that call the core packages and own the caching.

luigi --module ir_trace.pipeline RenderReport --dump build/prog/passes_dump --report ir_trace.html --local-scheduler
"""

from ir_trace.pipeline import luigi_import  # noqa: F401 (first: Luigi imported without its RPC client's imports)

# isort: split
from ir_trace.pipeline.compare import RenderComparison
from ir_trace.pipeline.config import default_failure_exit_codes, default_log_level, ir_trace
from ir_trace.pipeline.dead_workers import refuse_runs_stalled_by_dead_workers
from ir_trace.pipeline.report import RenderReport
from ir_trace.pipeline.snapshots import DiffPair, SliceFunctions, ValidateDump, WorkBatch
from ir_trace.pipeline.sweep import Sweep, SweepBatch, SweepDump
from ir_trace.pipeline.targets import CacheTarget, ReportTarget

default_failure_exit_codes()
default_log_level()
refuse_runs_stalled_by_dead_workers()

__all__ = [
    "CacheTarget",
    "DiffPair",
    "RenderComparison",
    "RenderReport",
    "ReportTarget",
    "SliceFunctions",
    "Sweep",
    "SweepBatch",
    "SweepDump",
    "ValidateDump",
    "WorkBatch",
    "ir_trace",
]

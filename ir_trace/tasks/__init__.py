"""Luigi tasks: thin wrappers that call the core modules and own the caching.

luigi --module ir_trace.tasks RenderReport --dump build/prog/passes_dump --report ir_trace.html --local-scheduler
"""

from ir_trace.tasks.compare import RenderComparison
from ir_trace.tasks.config import default_failure_exit_codes, default_log_level, ir_trace
from ir_trace.tasks.report import RenderReport
from ir_trace.tasks.snapshots import DiffPair, SliceFunctions, ValidateDump, WorkBatch
from ir_trace.tasks.sweep import Sweep, SweepDump
from ir_trace.tasks.targets import CacheTarget, ReportTarget

default_failure_exit_codes()
default_log_level()

__all__ = [
    "CacheTarget",
    "DiffPair",
    "RenderComparison",
    "RenderReport",
    "ReportTarget",
    "SliceFunctions",
    "Sweep",
    "SweepDump",
    "ValidateDump",
    "WorkBatch",
    "ir_trace",
]

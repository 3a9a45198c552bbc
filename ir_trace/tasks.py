"""The Luigi tasks under the module name the design card gives them: `luigi --module ir_trace.tasks Sweep ...`
runs the very classes `ir_trace.pipeline` defines (importing it registers them, with its `[retcode]` and log
defaults), so either name works in a crontab or a CI job."""

from ir_trace.pipeline import *  # noqa: F403 (the same names: one list of them, the pipeline's)
from ir_trace.pipeline import __all__ as __all__

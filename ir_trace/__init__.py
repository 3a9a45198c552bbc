"""pypto-ir-trace: one interactive HTML report of what each PyPTO pass changed.

The Python API (`render`, `summarize`, ...: ir_trace/api.py) loads on first use, so the command's
start-up, and its early Ctrl-C handling (ir_trace/app/launch.py), never wait for it.
"""

__version__ = "0.1.0"

_API = ("IRTraceError", "RenderResult", "ReportSummary", "RunOptions", "render", "summarize")
__all__ = ["__version__", *_API]


def __getattr__(name: str):
    if name in _API:
        import importlib

        return getattr(importlib.import_module("ir_trace.api"), name)
    raise AttributeError(f"module 'ir_trace' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *_API])

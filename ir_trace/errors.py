"""The one domain error type: anything a user can fix, mapped to exit code 1 in `cli.main`."""

from __future__ import annotations

import traceback
from pathlib import Path


class IRTraceError(Exception):
    """A problem with the user's input or environment, reported as one line."""


class DumpError(IRTraceError):
    """The passes_dump/ directory is missing, misnamed or damaged."""


def one_line(message: str) -> str:
    """`message` with its control characters escaped (`\\n`, `\\x1b`): a path holding a newline
    must not split a message in two, nor a file name's escape sequence drive the terminal."""
    if message.isprintable():
        return message
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in message)


def unexpected_message(exc: BaseException) -> str:
    """An unforeseen failure in one line that says what went wrong and where: a MemoryError has no
    message of its own, so it is said as running out of memory, with the limit when one is set."""
    where = _where(exc)
    if isinstance(exc, MemoryError):
        return f"ran out of memory{_memory_limit()}{where}"
    return f"unexpected {type(exc).__name__}: {str(exc) or 'no message'}{where}"


def _where(exc: BaseException) -> str:
    """ " in module.function" of the innermost frame of ours the exception passed through."""
    ours = [frame for frame in traceback.extract_tb(exc.__traceback__) if "ir_trace" in Path(frame.filename).parts]
    return f" in {Path(ours[-1].filename).stem}.{ours[-1].name}" if ours else ""


def _memory_limit() -> str:
    try:
        import resource
    except ImportError:  # not on Windows
        return ""
    limit = resource.getrlimit(resource.RLIMIT_AS)[0]
    return "" if limit == resource.RLIM_INFINITY else f" (the address space limit, ulimit -v, is {limit >> 20} MiB)"

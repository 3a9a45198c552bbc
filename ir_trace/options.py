"""What one run is asked to do, parsed once: the command line, the Python API and the Luigi tasks
all read a `RunOptions` (the tasks the part that shapes a report, `ReportOptions`, as one JSON value)."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field

from ir_trace.errors import IRTraceError
from ir_trace.noise.normalize import IgnoreModes

DEFAULT_CONTEXT = 3  # unchanged lines kept around each change: the one place this default lives
DEFAULT_OUTPUT = "ir_trace.html"


@dataclass(frozen=True, slots=True)
class ReportOptions:
    """What changes a report's content: the context folded around changes and the initial ignore modes."""

    context: int = DEFAULT_CONTEXT
    ignore: IgnoreModes = field(default_factory=IgnoreModes)

    def to_json(self) -> str:
        """One stable text (sorted keys, the ignore modes' canonical spec): a Luigi parameter's value."""
        return json.dumps({"context": self.context, "ignore": self.ignore.spec()}, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> ReportOptions:
        """The inverse of `to_json`; ValueError (or KeyError, TypeError) for anything else."""
        data = json.loads(text)
        return cls(_context(data["context"]), IgnoreModes.from_spec(data["ignore"]))


@dataclass(frozen=True, slots=True)
class RunOptions:
    """One run: the dump (and a second one `against` it), where the outputs go, the cache, the work.
    Paths are kept as given (not normalised): the checks and their messages quote them as written."""

    dump: str
    output: str = DEFAULT_OUTPUT
    report: ReportOptions = field(default_factory=ReportOptions)
    against: str | None = None
    json: str | None = None  # also write the --json summary here ('-' for stdout)
    cache_dir: str | None = None  # None: the user's default cache
    no_cache: bool = False  # a throw-away cache for this run only
    workers: int = 1
    follow_inner_symlinks: bool = False

    @classmethod
    def build(
        cls,
        dump: str | os.PathLike,
        output: str | os.PathLike | None = None,
        *,
        context: int = DEFAULT_CONTEXT,
        ignore: str | list[str] | tuple[str, ...] | frozenset[str] | None = (),
        ignore_regex: str | None = None,
        against: str | os.PathLike | None = None,
        cache_dir: str | os.PathLike | None = None,
        no_cache: bool = False,
        workers: int = 1,
        follow_inner_symlinks: bool = False,
    ) -> RunOptions:
        """Options from Python values, checked as the command line checks its arguments (IRTraceError)."""
        try:
            modes = IgnoreModes.parse(ignore or (), ignore_regex)
        except ValueError as exc:
            raise IRTraceError(f"ignore: {exc}") from None
        if cache_dir is not None and no_cache:
            raise IRTraceError("cache_dir and no_cache exclude each other")
        if not isinstance(workers, int) or isinstance(workers, bool) or workers < 1:
            raise IRTraceError(f"workers must be a positive integer, got {workers!r}")
        return cls(
            dump=os.fspath(dump),
            output=os.fspath(output) if output is not None else DEFAULT_OUTPUT,
            report=ReportOptions(_checked_context(context), modes),
            against=os.fspath(against) if against is not None else None,
            cache_dir=os.fspath(cache_dir) if cache_dir is not None else None,
            no_cache=no_cache,
            workers=workers,
            follow_inner_symlinks=follow_inner_symlinks,
        )


def _context(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"context must be a non-negative integer, got {value!r}")
    return value


def _checked_context(value: object) -> int:
    try:
        return _context(value)
    except ValueError as exc:
        raise IRTraceError(str(exc)) from None

"""A one-line progress bar on a terminal's stderr, shared by forked worker processes.

The bar never wraps: it is cut to the terminal's width less one column (writing the last column
makes many terminals wrap, and then every redraw scrolls a line). Any message goes through
`MessageHandler` or follows `ProgressBar.close()`, both of which erase the bar first, so a
message never starts in the middle of the bar.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
import time

from ir_trace.errors import one_line

_DELAY = float(os.environ.get("PYPTO_IR_TRACE_PROGRESS_DELAY", "0.5"))  # short runs finish before a bar helps
_REDRAW = 0.05  # seconds between redraws, so a slow terminal is not flooded
_LABEL = "diffs and function slices"
_BAR_CELLS = 30  # the bar's length when the terminal has room
_MIN_BAR_CELLS = 10
_FALLBACK_COLUMNS = 80
# A worker killed while it held the bar's lock never releases it: wait this long, then go on without it.
_LOCK_SECONDS = 1.0

_active: ProgressBar | None = None  # the bar on screen in this process tree, if any


def progress_line(done: int, total: int, width: int) -> str:
    """`[#####.....] 12/40 diffs and function slices`, shortened to at most `width` characters:
    first a shorter bar, then no label, then no bar."""
    count = f"{done}/{total}"
    for suffix in (f" {count} {_LABEL}", f" {count}"):
        cells = min(_BAR_CELLS, width - len(suffix) - 2)
        if cells >= _MIN_BAR_CELLS:
            filled = cells * done // max(total, 1)
            return f"[{'#' * filled}{'.' * (cells - filled)}]{suffix}"
    return count[: max(width, 0)]


def terminal_columns(stream) -> int:
    """The width of the terminal `stream` writes to: $COLUMNS when set, else the terminal's own size."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(stream.fileno()).columns
        except (OSError, ValueError, AttributeError):
            columns = 0
    return columns if columns > 0 else _FALLBACK_COLUMNS  # a new pty reports 0 columns


def _shared_numbers(count: int):
    import multiprocessing  # only for a bar on a terminal: a quiet run (and a warm one) never loads it

    return multiprocessing.Array("d", count)


class ProgressBar:
    """The bar, redrawn in place and erased before any message and at the end."""

    DONE, TOTAL, LAST_DRAW, SHOWN_WIDTH, CLOSED = range(5)

    def __init__(self, enabled: bool, stream=None):
        global _active
        self.stream = stream or sys.stderr
        self.enabled = enabled and _isatty(self.stream)
        self.started = time.monotonic()
        # Shared memory, so tasks run in forked worker processes advance the same bar; none off a terminal.
        self._state = _shared_numbers(5) if self.enabled else None
        if self.enabled:
            _active = self

    def add_work(self, count: int = 1) -> None:
        if self._state is not None:
            with _holding(self._state.get_lock()):
                self._state[self.TOTAL] += count

    def advance(self) -> None:
        if self._state is None:
            return
        with _holding(self._state.get_lock()):
            self._state[self.DONE] += 1
            self._draw()

    def _draw(self) -> None:
        state = self._state
        assert state is not None  # drawn only while the bar is on
        now = time.monotonic()
        if state[self.CLOSED] or now - self.started < _DELAY or now - state[self.LAST_DRAW] < _REDRAW:
            return
        state[self.LAST_DRAW] = now
        done = int(state[self.DONE])
        line = progress_line(done, max(int(state[self.TOTAL]), done, 1), terminal_columns(self.stream) - 1)
        # Recorded before writing: an interrupt in the middle of the write still gets the line erased.
        state[self.SHOWN_WIDTH] = max(state[self.SHOWN_WIDTH], len(line))
        self._write("\r" + line)

    def erase(self) -> None:
        """Blank the bar's line and return to its start; the next advance draws it again."""
        if self._state is None:
            return
        with _holding(self._state.get_lock()):
            self._erase()

    def _erase(self) -> None:
        state = self._state
        assert state is not None  # drawn only while the bar is on
        width = int(state[self.SHOWN_WIDTH])
        if width:
            state[self.SHOWN_WIDTH] = 0
            self._write("\r" + " " * width + "\r")

    def close(self) -> None:
        """Erase the bar for good: no process draws it again."""
        global _active
        if self._state is None:
            return
        with _holding(self._state.get_lock()):
            self._state[self.CLOSED] = 1
            self._erase()
        if _active is self:
            _active = None

    clear = close  # the name the command uses at the end of a run

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):  # a closed or vanished terminal: the bar is only decoration
            pass


def erase_progress() -> None:
    """Erase the bar, if one is on screen, so that a message can be printed on a clean line."""
    if _active is not None:
        _active.erase()


class MessageHandler(logging.StreamHandler):
    """A stream handler that erases the progress bar before each message."""

    def emit(self, record: logging.LogRecord) -> None:
        erase_progress()
        super().emit(record)

    def format(self, record: logging.LogRecord) -> str:
        return one_line(super().format(record))

    def handleError(self, record: logging.LogRecord) -> None:  # noqa: N802 - logging's name
        """A warning that cannot be printed (stderr closed or full) is dropped without a word."""


@contextlib.contextmanager
def _holding(lock):
    acquired = lock.acquire(timeout=_LOCK_SECONDS)
    try:
        yield
    finally:
        if acquired:
            lock.release()


def _isatty(stream) -> bool:
    try:
        return stream.isatty()
    except (OSError, ValueError, AttributeError):
        return False

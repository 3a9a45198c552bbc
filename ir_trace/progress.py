"""A one-line progress bar on a terminal's stderr, shared by forked worker processes."""

from __future__ import annotations

import multiprocessing
import os
import sys
import time

_DELAY = float(os.environ.get("PYPTO_IR_TRACE_PROGRESS_DELAY", "0.5"))  # short runs finish before a bar helps
_REDRAW = 0.05  # seconds between redraws, so a slow terminal is not flooded


class ProgressBar:
    """`[#####.....] 12/40 diffs and function slices`, redrawn in place, erased at the end."""

    DONE, TOTAL, LAST_DRAW, DRAWN = range(4)

    def __init__(self, enabled: bool, stream=None):
        self.stream = stream or sys.stderr
        self.enabled = enabled and self.stream.isatty()
        self.started = time.monotonic()
        # Shared memory, so tasks run in forked worker processes advance the same bar; none off a terminal.
        self._state = multiprocessing.Array("d", 4) if self.enabled else None

    def add_work(self, count: int = 1) -> None:
        if self._state is not None:
            with self._state.get_lock():
                self._state[self.TOTAL] += count

    def advance(self) -> None:
        if self._state is None:
            return
        with self._state.get_lock():
            self._state[self.DONE] += 1
        self.draw()

    def draw(self) -> None:
        now = time.monotonic()
        if now - self.started < _DELAY or now - self._state[self.LAST_DRAW] < _REDRAW:
            return
        self._state[self.LAST_DRAW] = now
        done = int(self._state[self.DONE])
        total = max(int(self._state[self.TOTAL]), done, 1)
        filled = int(30 * done / total)
        self.stream.write(f"\r[{'#' * filled}{'.' * (30 - filled)}] {done}/{total} diffs and function slices")
        self.stream.flush()
        self._state[self.DRAWN] = 1

    def clear(self) -> None:
        if self._state is not None and self._state[self.DRAWN]:
            self.stream.write("\r" + " " * 80 + "\r")
            self.stream.flush()

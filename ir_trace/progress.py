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

    def __init__(self, enabled: bool, stream=None):
        self.stream = stream or sys.stderr
        self.enabled = enabled and self.stream.isatty()
        self.started = time.monotonic()
        # Shared memory, so tasks run in forked worker processes advance the same bar.
        self._done = multiprocessing.Value("i", 0)
        self._total = multiprocessing.Value("i", 0)
        self._drawn = multiprocessing.Value("b", 0)
        self._last_draw = multiprocessing.Value("d", 0.0)

    def add_work(self, count: int = 1) -> None:
        with self._total.get_lock():
            self._total.value += count

    def advance(self) -> None:
        with self._done.get_lock():
            self._done.value += 1
        self.draw()

    def draw(self) -> None:
        now = time.monotonic()
        if not self.enabled or now - self.started < _DELAY or now - self._last_draw.value < _REDRAW:
            return
        self._last_draw.value = now
        done, total = self._done.value, max(self._total.value, self._done.value, 1)
        filled = int(30 * done / total)
        self.stream.write(f"\r[{'#' * filled}{'.' * (30 - filled)}] {done}/{total} diffs and function slices")
        self.stream.flush()
        self._drawn.value = 1

    def clear(self) -> None:
        if self._drawn.value:
            self.stream.write("\r" + " " * 80 + "\r")
            self.stream.flush()

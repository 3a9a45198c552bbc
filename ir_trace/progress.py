"""A one-line progress bar on a terminal's stderr, shared by forked worker processes."""

from __future__ import annotations

import multiprocessing
import sys
import time

_DELAY = 0.5  # short runs finish before a bar would be worth drawing


class ProgressBar:
    def __init__(self, enabled: bool, stream=None):
        self.stream = stream or sys.stderr
        self.enabled = enabled and self.stream.isatty()
        self.started = time.monotonic()
        # Shared memory, so tasks run in forked worker processes advance the same bar.
        self._done = multiprocessing.Value("i", 0)
        self._total = multiprocessing.Value("i", 0)
        self._drawn = multiprocessing.Value("b", 0)

    def add_work(self, count: int = 1) -> None:
        with self._total.get_lock():
            self._total.value += count

    def advance(self) -> None:
        with self._done.get_lock():
            self._done.value += 1
        self.draw()

    def draw(self) -> None:
        if not self.enabled or time.monotonic() - self.started < _DELAY:
            return
        done, total = self._done.value, max(self._total.value, self._done.value, 1)
        filled = int(30 * done / total)
        self.stream.write(f"\r[{'#' * filled}{'.' * (30 - filled)}] {done}/{total} tasks")
        self.stream.flush()
        self._drawn.value = 1

    def clear(self) -> None:
        if self._drawn.value:
            self.stream.write("\r" + " " * 60 + "\r")
            self.stream.flush()

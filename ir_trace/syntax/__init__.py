"""The shape of printed IR without parsing it: PyPTO's top-level items, MLIR op lines and symbol ops, functions."""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from typing import Any

# Memos keyed by lines (here, in the diff and in the ignore-mode counts) keep no line longer than this: a 100 MB
# `dense<>` line and what was worked out of it would stay for the whole process after its snapshots are gone
# (and its work is linear anyway).
MEMO_LINE_CHARS = 1 << 16

# A line longer than this is never copied whole (the diff's profiles and intraline ends, the ignore-mode keys): it
# is worked out this many characters at a time.
WINDOW_CHARS = 1 << 20


class TextMemo(dict):
    """What chunks of printed IR give, by their text: it forgets everything once the text it keys passes `limit`
    characters (snapshots repeat their chunks, but a run of thousands must not keep them all). A dict, so lookups
    stay C calls (`map(memo.get, pieces)`)."""

    def __init__(self, limit: int = 1 << 24):
        super().__init__()
        self.limit, self.chars = limit, 0

    def keep(self, key: Hashable, value: Any, chars: int) -> None:
        """Remember `value` under `key`, whose text is `chars` long (starting again when it would not fit)."""
        if self.chars + chars > self.limit:
            self.clear()
            self.chars = 0
        self[key] = value
        self.chars += chars


def text_windows(line: str, start: int = 0, end: int | None = None) -> Iterator[str]:
    """line[start:end], WINDOW_CHARS characters at a time."""
    stop = len(line) if end is None else end
    for at in range(start, stop, WINDOW_CHARS):
        yield line[at : min(stop, at + WINDOW_CHARS)]

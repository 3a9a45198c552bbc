"""What pairing needs of a huge line, worked out a window at a time.

Pairing compares lines by their bodies (the line without its indentation) and their words
(linediff `_profile`). A 100 MB `dense<"0x…">` line made both as whole copies: the body, its
UTF-8 bytes, those translated, and the one 100 MB word split out of them, all alive at once for
both sides of the pair. Here a line's body past a window stands as its digest and a word longer
than a window as a marked digest (`\\x00` and the SHA-256: no word holds a `\\x00`), so a huge line
costs about a window beside itself. Only huge lines are profiled so: every body and word up to a
window is the text itself, so equal texts still compare equal whichever way they were worked out.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import NamedTuple

from ir_trace.syntax import WINDOW_CHARS

_SPACE = 32


class LongText(NamedTuple):
    """A text past WINDOW_CHARS characters, as its SHA-256 (never equal to a str)."""

    digest: bytes


def digest_text(windows: Iterable[str]) -> LongText:
    digest = hashlib.sha256()
    for window in windows:
        digest.update(window.encode("utf-8", "surrogatepass"))
    return LongText(digest.digest())


def split_words(windows: Iterable[bytes]) -> list[bytes]:
    """The words of a text given as windows of translated bytes (word bytes, every other byte a space; none
    longer than WINDOW_CHARS: `text_windows` encoded, since word bytes are ASCII), in order, as `bytes.split` of
    the whole would give them but for a word longer than WINDOW_CHARS: its digest."""
    words = _Words()
    for window in windows:
        words.feed(window)
    return words.finish()


class _Words:
    """Words fed a window at a time; the word still open at a window's end carried into the next."""

    def __init__(self) -> None:
        self.found: list[bytes] = []
        self.parts: list[bytes] = []  # the open word's pieces, while it fits in a window
        self.size = 0
        self.hash: hashlib._Hash | None = None  # the open word's digest so far, once it does not

    def feed(self, window: bytes) -> None:
        if not window:
            return
        words = window.split()
        goes_on = window[-1] != _SPACE  # the last word may go on in the next window
        if window[0] != _SPACE and self._open():
            self._grow(words.pop(0))  # the open word goes on
            if words or not goes_on:
                self._end()
        else:
            self._end()
        if words and goes_on:
            self.found += words[:-1]
            self._grow(words[-1])
        else:
            self.found += words

    def finish(self) -> list[bytes]:
        self._end()
        return self.found

    def _open(self) -> bool:
        return bool(self.parts) or self.hash is not None

    def _grow(self, piece: bytes) -> None:
        if self.hash is not None:
            self.hash.update(piece)
            return
        self.parts.append(piece)
        self.size += len(piece)
        if self.size > WINDOW_CHARS:
            self.hash = hashlib.sha256(b"".join(self.parts))
            self.parts, self.size = [], 0

    def _end(self) -> None:
        if self.hash is not None:
            self.found.append(b"\x00" + self.hash.digest())
        elif self.parts:
            self.found.append(b"".join(self.parts))
        self.parts, self.size, self.hash = [], 0, None

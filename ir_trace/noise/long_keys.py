"""Keys of huge lines without their copies: a long key is kept as its digest.

A mode set's key of a line is the line run through each mode's step (`IgnoreModes.strips`). For a
100 MB `dense<"0x…">` line each step makes a whole new string, and a pair's precomputed counts key
both sides under five sets: memory many times the line's. Keys are only compared, so a key longer
than a limit is worth no more than its digest. `bounded_key` works one out in windows: the steps
before the last that removes spans run as usual (most leave such a line as it is, returning it),
the last one's kept pieces are hashed a window at a time, and a trailing whitespace step, which
acts on each character alone, runs on each window. So a line costs itself plus at most one of its
steps' outputs.

Every key as long as a line within the limit may have (the line, IGNORED_LINE before it) is the key
itself (a str), so two keys compare as their texts do: a long key only ever meets another long key
(equal texts give equal digests; different ones differ but for a SHA-256 collision). A `LongKey` is a
tuple of bytes, never equal to a str key or to a last line's `(key, "no newline…")`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from typing import NamedTuple

from ir_trace.noise.mlir_normalize import IGNORED_LINE, is_loc_alias_line
from ir_trace.noise.normalize import IgnoreModes, Spans, strip_locs, strip_whitespace
from ir_trace.noise.normalize import line_key as normalize_line_key
from ir_trace.syntax import text_windows


class LongKey(NamedTuple):
    """The key of a line past the limit: its SHA-256 and whether the modes ignore the line whole."""

    digest: bytes
    ignored: bool


def bounded_key(modes: IgnoreModes, kind: str, limit: int) -> Callable[[str], str | LongKey]:
    """line -> its key under `modes` (`IgnoreModes.normaliser`), a `LongKey` when that is past `limit`
    characters."""
    steps = modes.steps(kind)
    trailing_whitespace = bool(steps) and steps[-1][0] is strip_whitespace
    spans_steps = steps[:-1] if trailing_whitespace else steps

    def key(line: str) -> str | LongKey:
        text = line
        for strip, _spans in spans_steps[:-1]:
            text = strip(text)
        ignored, pieces = _last_pieces(text, spans_steps[-1] if spans_steps else None)
        return _key_of(_windows(text, pieces, trailing_whitespace), ignored, limit)

    return key


def _last_pieces(text: str, step) -> tuple[bool, Spans]:
    """(ignored whole, the [start, end) pieces of `text` its key keeps) after the last step that cuts spans."""
    if step is None:
        return False, [(0, len(text))]
    strip, find = step
    if strip is strip_locs and is_loc_alias_line(text):
        return True, [(0, len(text))]  # keyed IGNORED_LINE + the line (strip_locs)
    kept, at = [], 0
    for start, end in find(text):
        if start > at:
            kept.append((at, start))
        at = end
    if at < len(text):
        kept.append((at, len(text)))
    return False, kept


def _windows(text: str, pieces: Spans, strip_spaces: bool) -> Iterator[str]:
    """The key's text, a window at a time."""
    for start, end in pieces:
        for window in text_windows(text, start, end):
            yield strip_whitespace(window) if strip_spaces else window


def _key_of(windows: Iterator[str], ignored: bool, limit: int) -> str | LongKey:
    """The key made of these windows: itself when no longer than a line within `limit` may key, else its digest."""
    digest = hashlib.sha256(IGNORED_LINE.encode() if ignored else b"")  # over the key's whole text
    held: list[str] | None = [IGNORED_LINE] if ignored else []
    head = IGNORED_LINE if ignored else ""  # the key's first characters, for `LongKey.ignored`
    size, past = len(head), limit + len(IGNORED_LINE)  # a line within the limit may key as IGNORED_LINE + itself
    for window in windows:
        digest.update(window.encode("utf-8", "surrogatepass"))
        size += len(window)
        if len(head) < len(IGNORED_LINE):
            head += window[: len(IGNORED_LINE)]
        if held is not None:
            held.append(window)
            if size > past:
                held = None  # past the limit: the digest alone stands for it
    if held is not None:
        return "".join(held)
    return LongKey(digest.digest(), head.startswith(IGNORED_LINE))


def line_key(modes: IgnoreModes, kind: str, limit: int) -> Callable[[str], str | LongKey]:
    """`normalize.line_key` (each line's key remembered) but for a line past `limit`: its `bounded_key`, not
    remembered (a memo would keep the line and its key for the run)."""
    remembered, bounded = normalize_line_key(modes, kind=kind), bounded_key(modes, kind, limit)
    return lambda line: bounded(line) if len(line) > limit else remembered(line)

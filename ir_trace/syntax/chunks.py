"""A PyPTO snapshot cut into chunks and split into lines, a chunk seen before handing back its very strings.

A chunk starts at each line not indented by five spaces (a module statement, a decorator, a method as PyPTO
prints them) that is not empty (the blank lines after a method stay with it: a third fewer chunks to look up),
so a pass that edits one function changes a few chunks and consecutive snapshots share all the others.
Their lines are then one object each: comparing two snapshots' lines is an identity test where they
agree (not a byte comparison of 40,000 lines a pair), a line's hash is worked out once for every snapshot that
holds it, and a held snapshot costs its list of lines, not another copy of its text.
"""

from __future__ import annotations

import re
from itertools import chain, compress
from operator import itemgetter, not_
from typing import NamedTuple

from ir_trace.syntax import TextMemo

_CHUNK_START = re.compile(r"\n(?!\n| {5})")  # a line that starts a chunk (with the newline before it)


def text_pieces(text: str) -> list[str]:
    """The chunks of the lines `linediff.split_lines(text)` gives, each joined by "\\n", cut by one regular
    expression over the text (no Python per line)."""
    return _CHUNK_START.split(text[:-1] if text.endswith("\n") else text)


class ChunkedText(NamedTuple):
    """A text's lines (as `linediff.split_lines` gives them), its final newline, and its chunks."""

    lines: list[str]
    eol: bool
    pieces: list[str]


_Known = tuple[str, tuple[str, ...]]  # a chunk's text (the memo's own string) and its lines
_known = TextMemo()  # chunk text -> _Known
_PIECE_CHARS = 1 << 16  # a longer chunk (one holding a huge line) is split, never kept


def split_chunks(text: str) -> ChunkedText:
    """`text`'s lines and chunks: a chunk the memo holds is that chunk's strings, only new ones are split."""
    if not text:
        return ChunkedText([], False, [])
    pieces = text_pieces(text)
    found = list(map(_known.get, pieces))
    for k in compress(range(len(found)), map(not_, found)):  # the chunks no snapshot before had
        found[k] = _remember(pieces[k])
    known: list[_Known] = found  # type: ignore[assignment]  # every None was replaced
    lines = list(chain.from_iterable(map(itemgetter(1), known)))
    return ChunkedText(lines, text.endswith("\n"), list(map(itemgetter(0), known)))


def _remember(piece: str) -> _Known:
    entry = (piece, tuple(piece.split("\n")))
    if len(piece) <= _PIECE_CHARS:
        _known.keep(piece, entry, len(piece))
    return entry

"""Splitting MLIR dump text into snapshots: the header line, then the IR up to the next header.

A tree file holds one dump, a `--mlir-print-ir-after-all` stream (stderr) many. In a stream the
printer ends each dump's IR with two blank lines; what follows up to the next header is no IR but
what the next pass wrote while it ran (diagnostics: `loc: error: ...`, the source line, the caret,
`note:`s, an op printed by a note), which is that pass's `diagnostics`, never part of a snapshot. A snapshot's
text is the IR without its header (which differs from pass to pass and would show in every diff)
and without the trailing blank lines the printer adds, so a tree file and the same dump in a
stream have the same text and the same sha256.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from ir_trace.inputs.mlir.headers import HEADER_PREFIX, PassHeader, parse_header

_MARK = HEADER_PREFIX.encode()


@dataclass(frozen=True)
class Dump:
    """One dump found in a file: its parsed header and where its IR is (byte offset, length)."""

    header: PassHeader
    span: tuple[int, int]
    header_index: int  # its position among the file's headers
    diagnostics: str = ""  # what the pass printed on the stream while it ran, before its dump


def split_dumps(data: bytes) -> list[Dump]:
    """Every dump in `data`, in file order (`read_dumps` over bytes held already)."""
    return [dump for dump, _ir in read_dumps(io.BytesIO(data).read)]


def read_dumps(read: Callable[[int], bytes]) -> Iterator[tuple[Dump, memoryview]]:
    """Every dump of the stream `read(size)` returns piece by piece, with its IR's bytes, in file order,
    holding one dump (and a few MB) at a time. Lines before the first header (a driver's own output)
    belong to no dump; a header-like line that does not parse stays part of the IR above it.

    Each IR is a view into the reading buffer (a huge dump is never copied), valid only until the
    next dump is asked for: decode or copy it before."""
    buffer, base, done = bytearray(), 0, False  # base: the stream offset of buffer[0]
    found: tuple[int, PassHeader] | None = None  # the dump being read: its header line's end and header
    keep = 0  # where that dump starts in buffer: nothing before it is needed again
    pending = b""  # what followed the previous dump's IR: printed by the next pass, so its diagnostics
    scan, number = 0, 0
    headers: dict[bytes, PassHeader | None] = {}  # a pipeline prints the same few header lines again and again
    while True:
        position = _header_at(buffer, scan, base)
        newline = buffer.find(b"\n", position) if position >= 0 else -1
        if (position < 0 or newline < 0) and not done:  # no whole header line in the buffer yet: read on
            scan = max(scan, len(buffer) - len(_MARK)) if position < 0 else max(position - 1, 0)
            more = read(_CHUNK)
            del buffer[:keep]  # in place: a bytearray drops its front without copying what stays
            buffer += more
            base, done, scan = base + keep, not more, scan - keep
            found = (found[0] - keep, found[1]) if found is not None else None
            keep = 0
            continue
        end = len(buffer) if position < 0 else position
        line_end = len(buffer) if newline < 0 else newline
        header = _parsed(bytes(buffer[position:line_end]), headers) if position >= 0 else None
        if position >= 0 and header is None:  # not a header: part of the IR above it
            scan = line_end
            continue
        if found is None:
            pending = bytes(buffer[:end])  # printed before the first dump: by its pass
        else:
            dump, ir, pending = _cut(buffer, base, end, found, number, pending, position < 0)
            with memoryview(buffer) as whole, whole[ir[0] : ir[1]] as view:
                yield dump, view
            number += 1
        if header is None:
            return
        found, keep, scan = (line_end, header), position, line_end


def _parsed(line: bytes, seen: dict[bytes, PassHeader | None]) -> PassHeader | None:
    """`parse_header` of `line`, parsed once per distinct line (up to _HEADERS_KEPT of them)."""
    if line not in seen:
        if len(seen) >= _HEADERS_KEPT:
            seen.clear()
        seen[line] = parse_header(line.decode("utf-8", "replace"))
    return seen[line]


_HEADERS_KEPT = 4096


def _header_at(buffer: bytearray, scan: int, base: int) -> int:
    """Where the next header-like line starts in buffer from `scan`, -1 if none."""
    if base == 0 and scan == 0 and buffer.startswith(_MARK):
        return 0
    return _next_header(buffer, scan)


def _cut(
    buffer: bytearray,
    base: int,
    end: int,
    found: tuple[int, PassHeader],
    number: int,
    pending: bytes,
    last: bool,
) -> tuple[Dump, tuple[int, int], bytes]:
    """The dump whose header line ends at found[0] in buffer, up to `end`: it, where its IR is in
    buffer (start, end), and what follows its IR (the next pass's diagnostics)."""
    line_end, header = found
    ir_start = min(line_end + 1, end)
    ir_end = buffer.find(_IR_END, ir_start, end)
    ir_end = end if ir_end < 0 else ir_end + len(_IR_END)
    after = bytes(buffer[ir_end:end])
    notes = pending + after if last else pending  # after the last dump: nothing follows to own it
    length = ir_length(buffer, ir_start, ir_end)
    dump = Dump(header, (base + ir_start, length), number, _diagnostics(notes))
    return dump, (ir_start, ir_start + length), after


_CHUNK = 1 << 20  # bytes read at a time (a bytearray grows by appending in amortized linear time)

_IR_END = b"\n\n\n"  # the printer's close of a dump (a blank line alone separates ops within one)


def _diagnostics(raw: bytes) -> str:
    return raw.decode("utf-8", "replace").strip("\n")


def _next_header(data: bytes | bytearray, start: int) -> int:
    found = data.find(b"\n" + _MARK, start)
    return -1 if found < 0 else found + 1


def ir_length(data: bytes | bytearray, start: int, end: int) -> int:
    """The length of data[start:end] without its trailing blank lines (one final newline kept)."""
    trimmed = end
    while trimmed > start and data[trimmed - 1 : trimmed] in (b"\n", b"\r"):
        trimmed -= 1
    return trimmed - start + (1 if trimmed < end else 0)

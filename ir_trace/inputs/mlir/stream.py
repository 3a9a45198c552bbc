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
    """Every dump in `data`, in file order. Lines before the first header (a driver's own output)
    belong to no dump; a header-like line that does not parse stays part of the IR above it."""
    headers = []
    position = 0 if data.startswith(_MARK) else _next_header(data, 0)
    while position >= 0:
        newline = data.find(b"\n", position)
        line_end = len(data) if newline < 0 else newline
        header = parse_header(data[position:line_end].decode("utf-8", "replace"))
        if header is not None:
            headers.append((position, line_end, header))
        position = _next_header(data, line_end)
    dumps = []
    pending = data[: headers[0][0]] if headers else b""  # printed before the first dump: by its pass
    for number, (_start, line_end, header) in enumerate(headers):
        end = headers[number + 1][0] if number + 1 < len(headers) else len(data)
        ir_start = min(line_end + 1, end)
        ir_end = data.find(_IR_END, ir_start, end)
        ir_end = end if ir_end < 0 else ir_end + len(_IR_END)
        after = data[ir_end:end]
        last = number + 1 == len(headers)
        notes = pending + after if last else pending  # after the last dump: nothing follows to own it
        dumps.append(Dump(header, (ir_start, ir_length(data, ir_start, ir_end)), number, _diagnostics(notes)))
        pending = after
    return dumps


_IR_END = b"\n\n\n"  # the printer's close of a dump (a blank line alone separates ops within one)


def _diagnostics(raw: bytes) -> str:
    return raw.decode("utf-8", "replace").strip("\n")


def _next_header(data: bytes, start: int) -> int:
    found = data.find(b"\n" + _MARK, start)
    return -1 if found < 0 else found + 1


def ir_length(data: bytes, start: int, end: int) -> int:
    """The length of data[start:end] without its trailing blank lines (one final newline kept)."""
    trimmed = end
    while trimmed > start and data[trimmed - 1 : trimmed] in (b"\n", b"\r"):
        trimmed -= 1
    return trimmed - start + (1 if trimmed < end else 0)

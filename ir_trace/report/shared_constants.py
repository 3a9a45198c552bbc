"""The constants the Python diff and normalisers share with their JavaScript twins in the page.

ir_trace/report/assets/intraline.js, linediff.js and normalize.js declare them between two marker lines, so each
file also runs on its own (the tests load it that way); the report never relies on those copies:
`with_shared_constants` writes this module's values over the block when the page is rendered,
and a test fails while a file's block differs from what is written here.
"""

from __future__ import annotations

import json

from ir_trace.diffcore import intraline, matching
from ir_trace.diffcore import linediff as diff
from ir_trace.noise import mlir_normalize, normalize

BEGIN = "  // shared constants: the page gets them from ir_trace/report/shared_constants.py\n"
END = "  // end of shared constants\n"


def shared_constants() -> dict[str, dict[str, object]]:
    """Per template script, each constant's name in JavaScript and its Python value."""
    return {
        "intraline.js": {
            "QUICK_EDITS": matching.QUICK_EDITS,
            "MAX_DEPTH": matching.MAX_DEPTH,
            "MAX_TOKEN_EDITS": intraline.MAX_TOKEN_EDITS,
            "CONTEXT_SPACES": intraline.CONTEXT_SPACES,
            "CONTEXT_UNITS": intraline.CONTEXT_UNITS,
            "REFINE_MIN": intraline.REFINE_MIN,
            "REFINE_COMMON": intraline.REFINE_COMMON,
        },
        "linediff.js": {
            "MAX_LINE_EDITS": diff.MAX_LINE_EDITS,
            "MAX_PAIRING_CELLS": diff.MAX_PAIRING_CELLS,
            "WORDS_PER_CELL": diff.WORDS_PER_CELL,
            "SIMILAR": diff.SIMILAR,
            "RENAMED": diff.RENAMED,
            "OPERATION_TOKENS": diff.OPERATION_TOKENS,
            "IGNORED_LINE": mlir_normalize.IGNORED_LINE,
        },
        "normalize.js": {
            "MODES": list(normalize.MODES),
            "LABELS": normalize.MODE_LABELS,
            "MEMREF": normalize._MEMREF,  # noqa: SLF001 - named privately there
            "IGNORED_LINE": mlir_normalize.IGNORED_LINE,
        },
    }


def constants_block(script: str) -> str:
    """The declarations of `script`'s shared constants, markers included, as they belong in the file."""
    constants = shared_constants()[script]
    declarations = "".join(
        f"  const {name} = {json.dumps(value, ensure_ascii=False)};\n" for name, value in constants.items()
    )
    return BEGIN + declarations + END


def declared_block(source: str) -> tuple[int, int] | None:
    """Where a script's block of shared constants starts and ends (markers included), if it has one."""
    start = source.find(BEGIN)
    end = source.find(END, start + len(BEGIN)) if start >= 0 else -1
    return (start, end + len(END)) if end >= 0 else None


def with_shared_constants(script: str, source: str) -> str:
    """`source` (the file `script`) with its shared constants as Python has them; other files unchanged."""
    if script not in shared_constants():
        return source
    where = declared_block(source)
    if where is None:
        raise ValueError(f"ir_trace/report/assets/{script} has lost its block of shared constants ({BEGIN.strip()})")
    return source[: where[0]] + constants_block(script) + source[where[1] :]

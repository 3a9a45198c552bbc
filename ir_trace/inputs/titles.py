"""A trace's title: what the program, unit or pipeline is called, not what its dump is called.

A dump's path usually names the program (`qwen3_decode/passes_dump`, `conv.mlir.log`), but MLIR's
flags and shell redirections are as often given a word that names only the dump: `--mlir-print-ir-tree-dir=tree`,
`2> stream.txt`, `dumps/`, `out.log`. A name is generic when every word of it (split at `_ - .` and
digits) is one of those words; the title then comes from the IR (the top module's symbol, else the
one function it defines), else from the nearest enclosing directory whose name is not generic.
"""

from __future__ import annotations

import re
from pathlib import Path

from ir_trace.syntax.mlir_opline import read_op_line

# Words that say what a dump is or where it went, never which program it holds.
GENERIC_WORDS = frozenset(
    "after all before build dump dumps err ir log logs mlir out output outputs pass passes print std stderr "
    "stdout stream streams text tmp trace traces tree trees txt".split()
)
_WORD = re.compile(r"[A-Za-z]+")


def is_generic(name: str) -> bool:
    """True when `name` (a file or directory name) says nothing about the program: `tree`, `stream.txt`,
    `ir-dumps2`, `out.log`; an empty name too."""
    words = _WORD.findall(name.lower())
    return all(word in GENERIC_WORDS for word in words)


def place_title(path: Path) -> str:
    """The name of `path`, else of the nearest directory above it whose name is not generic."""
    absolute = path.absolute()
    for place in (absolute, *absolute.parents):
        if not is_generic(place.name):
            return place.name
    return absolute.name or str(absolute)


def mlir_title(path: Path, text: str) -> str:
    """The title of an MLIR trace dumped at `path` (a tree directory or a stream file) whose first
    snapshot is `text`: the path's own name when it names the program, else the IR's name, else
    the enclosing directory's."""
    if not is_generic(path.name):
        return path.name
    return ir_name(text) or place_title(path.absolute().parent)


def ir_name(text: str) -> str:
    """`@name` of the top `module @name`, else of the one function the IR defines; "" when neither."""
    for line in text.splitlines():
        if not line.strip() or line.startswith(("#", "!")):
            continue  # attribute and type aliases come first
        parts = read_op_line(line)
        if parts is not None and parts.qualified_op == "builtin.module" and parts.symbol:
            return f"@{parts.raw_symbol}"
        break
    from ir_trace.syntax.mlir_outline import UnsafeMlir, symbol_ops  # here: a PyPTO run never needs the outline

    try:
        functions = [op for op in symbol_ops(text.splitlines()) if op.op.endswith("func")]
    except UnsafeMlir:
        return ""
    return functions[0].path[-1] if len(functions) == 1 else ""  # printed with its @

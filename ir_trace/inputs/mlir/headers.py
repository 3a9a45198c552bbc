"""The header line MLIR prints above every pass dump, parsed into its parts.

Two styles exist, both with or without the op part (module scope adds it):

    // -----// IR Dump After CSE (cse) ('func.func' operation: @saxpy_2d) //----- //         LLVM 19-22
    // -----// IR Dump After CanonicalizerPass: canonicalize{max-iterations=10} ('builtin.module' operation) //----- //
    // -----// IR Dump After (anonymous namespace)::TestFailurePass Failed (test-pass-failure) //----- //

Every scan is a fixed number of `str` searches: a hostile header costs time linear in its length.
"""

from __future__ import annotations

from dataclasses import dataclass

HEADER_PREFIX = "// -----// IR Dump "
HEADER_SUFFIX = " //----- //"
_OP_OPEN = " ('"
_OPERATION = "' operation"
_FAILED = " Failed"
_ANONYMOUS = "(anonymous namespace)::"


@dataclass(frozen=True, slots=True)
class PassHeader:
    """One dump's header: which pass ran (or is about to run), on which op, and whether it failed."""

    kind: str  # "after" | "before"
    pass_name: str  # as printed: "Canonicalizer", "CanonicalizerPass", "(anonymous namespace)::TestFailurePass"
    argument: str  # the pass's command-line name: "canonicalize"
    options: str  # "{max-iterations=10 ...}" as printed (trunk style), "" when none
    op: str  # "func.func"; "" without module scope
    symbol: str  # "@saxpy_2d" (raw, as the header prints it) or ""
    failed: bool

    @property
    def display_name(self) -> str:
        """A sidebar name: `Canonicalizer (canonicalize)`, `Before CSE (cse)`, `TestFailurePass (x) failed`."""
        name = self.pass_name.removeprefix(_ANONYMOUS)
        shown = f"{name} ({self.argument})" if self.argument and self.argument != name else name
        if self.kind == "before":
            shown = f"Before {shown}"
        return f"{shown} failed" if self.failed else shown

    @property
    def target(self) -> str:
        """The op the pass ran on, `func.func @saxpy_2d` (empty without module scope)."""
        return f"{self.op} {self.symbol}".strip()

    def to_json(self) -> dict:
        return {name: getattr(self, name) for name in self.__dataclass_fields__}  # flat: no asdict copies

    @classmethod
    def from_json(cls, data: dict) -> PassHeader:
        return cls(**data)


def is_header(line: str) -> bool:
    return line.startswith(HEADER_PREFIX)


def parse_header(line: str) -> PassHeader | None:
    """The parts of a dump header line, or None when `line` is not one."""
    line = line.rstrip("\r\n")
    if not line.startswith(HEADER_PREFIX) or not line.endswith(HEADER_SUFFIX):
        return None
    body = line[len(HEADER_PREFIX) : len(line) - len(HEADER_SUFFIX)]
    kind, _space, body = body.partition(" ")
    if kind not in ("After", "Before") or not body:
        return None
    body, op, symbol = _split_op_part(body)
    if ": " in body.partition("{")[0]:
        name, argument, options = _trunk_style(body)
    else:
        name, argument, options = _classic_style(body)
    failed = name.endswith(_FAILED)
    name = name.removesuffix(_FAILED)
    if not name:
        return None
    return PassHeader(kind.lower(), name, argument, options, op, symbol, failed)


def _split_op_part(body: str) -> tuple[str, str, str]:
    """(the rest, op, symbol) from `... ('func.func' operation: @f)`; the op part comes last, so
    the last `('` starts it (pass names hold `(anonymous namespace)`, options hold anything)."""
    start = body.rfind(_OP_OPEN)
    if start < 0 or not body.endswith(")"):
        return body, "", ""
    inside = body[start + len(_OP_OPEN) : -1]
    op, quote, rest = inside.partition(_OPERATION)
    if not quote or not op or "'" in op:
        return body, "", ""
    if rest == "":
        return body[:start], op, ""
    if rest.startswith(": @"):
        return body[:start], op, rest[2:]
    return body, "", ""


def _trunk_style(body: str) -> tuple[str, str, str]:
    """`CanonicalizerPass: canonicalize{opts}` (LLVM trunk, IREE)."""
    name, _sep, rest = body.partition(": ")
    brace = rest.find("{")
    if brace < 0:
        return name, rest.strip(), ""
    return name, rest[:brace].strip(), rest[brace:]


def _classic_style(body: str) -> tuple[str, str, str]:
    """`Canonicalizer (canonicalize)` or `X Failed (arg)` (LLVM 19-22); `X` alone when no argument."""
    if not body.endswith(")"):
        return body.strip(), "", ""
    start = body.rfind(" (")
    if start < 0:
        return body.strip(), "", ""
    return body[:start].strip(), body[start + 2 : -1], ""

"""The header line MLIR prints above each pass dump.

Interim minimal version (multi-trace branch): the `mlir-input` branch owns the reader; only the
dataclass below is the shared contract.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PassHeader:
    """`// -----// IR Dump After Canonicalizer (canonicalize) ('func.func' operation: @f) //----- //`."""

    kind: str  # "after" | "before"
    pass_name: str  # "Canonicalizer", "CanonicalizerPass"
    argument: str  # "canonicalize"
    options: str  # "{max-iterations=10 ...}" or "" when the header prints none
    op: str  # "func.func", or "" without module scope
    symbol: str  # "@f", or ""
    failed: bool  # the pass failed: the pipeline stopped here

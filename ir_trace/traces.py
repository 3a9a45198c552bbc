"""Every trace one input path holds: the PyPTO stage, then each ptoas codegen unit's MLIR passes.

Interim minimal version (multi-trace branch): `Trace` and `discover_traces` are the shared
contract; the `mlir-input` branch owns the full reader (MLIR trees in true write order, streams,
per-op traces without module scope). This one reads a passes_dump/, and a program output
directory holding passes_dump/ and ptoas_passes/<unit>/ with its MLIR files in counter order.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ir_trace.discovery import Manifest, Snapshot, discover_snapshots, program_title, read_snapshot_text
from ir_trace.errors import DumpError
from ir_trace.mlir.headers import PassHeader

STAGES = ("pypto", "ptoas", "mlir")


@dataclass(frozen=True)
class Trace:
    """One pipeline's snapshots: `stage` names the compiler ("pypto" | "ptoas" | "mlir"), `unit`
    which of its traces this is (the program for PyPTO, the codegen unit for ptoas)."""

    stage: str
    unit: str
    manifest: Manifest


def discover_traces(path: str | os.PathLike, on_text: Callable[[str, str], None] | None = None) -> list[Trace]:
    """The traces under `path`, PyPTO's first; DumpError when there is none or one is broken.

    `on_text(sha256, text)` sees each PyPTO snapshot's text as it is read (discover_snapshots).
    """
    folder = Path(path).absolute()
    ptoas = folder / "ptoas_passes"
    if (folder / "passes_dump").is_dir() and ptoas.is_dir():
        pypto = discover_snapshots(folder / "passes_dump", on_text=on_text)
        units = sorted(entry.name for entry in os.scandir(ptoas) if entry.is_dir())
        return [Trace("pypto", pypto.title, pypto)] + [
            Trace("ptoas", unit, _read_mlir_tree(ptoas / unit, folder.name)) for unit in units
        ]
    manifest = discover_snapshots(folder, on_text=on_text)
    return [Trace("pypto", manifest.title, manifest)]


def _read_mlir_tree(tree: Path, program: str) -> Manifest:
    """A tree dir's .mlir files ordered by their counters (enough for one op's linear pipeline)."""
    files = sorted(
        (str(p.relative_to(tree)) for p in tree.rglob("*.mlir")),
        key=lambda rel: (_counters(rel), rel),
    )
    if not files:
        raise DumpError(f"no .mlir pass dumps in {tree}")
    snapshots = []
    for position, rel in enumerate(files):
        text, sha = read_snapshot_text(tree / rel)
        header = _parse_header(text.partition("\n")[0])
        snapshots.append(Snapshot(position, header.argument if header else rel, rel, sha, header=header))
    return Manifest(str(tree), f"{program} · {tree.name}" if program else program_title(tree), tuple(snapshots), "mlir")


def _counters(rel: str) -> tuple[int, ...]:
    numbers = []
    for piece in Path(rel).name.split("_"):
        if not piece.isdigit():
            break
        numbers.append(int(piece))
    return tuple(numbers)


def _parse_header(line: str) -> PassHeader | None:
    """`// -----// IR Dump After Name (arg) ('op' operation: @sym) //----- //` (plain scans, no regex)."""
    body = line.removeprefix("// -----// IR Dump ").removesuffix(" //----- //")
    if body == line:
        return None
    kind, _, rest = body.partition(" ")
    op = symbol = ""
    head, quote, scope = rest.rpartition(" ('")
    if quote:
        op, _, tail = scope.partition("'")
        symbol = tail.partition(": ")[2].removesuffix(")")
        rest = head
    failed = " Failed (" in rest
    name, _, argument = rest.replace(" Failed (", " (").rpartition(" (")
    argument = argument.removesuffix(")")
    if not name:  # trunk style: `CanonicalizerPass: canonicalize{options}`
        name, _, argument = rest.partition(": ")
    argument, brace, options = argument.partition("{")
    return PassHeader(kind.lower(), name, argument, brace + options, op, symbol, failed)

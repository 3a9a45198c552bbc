"""What a PATH given on the command line holds: one or several traces, each a manifest.

- a PyPTO `passes_dump/`                      -> [Trace("pypto", "", m)]
- an MLIR `--mlir-print-ir-tree-dir` tree     -> [Trace("mlir", "", m)] (module scope), else one per op
- a `ptoas_passes/` directory (a tree per unit) -> [Trace("ptoas", unit, m), ...] by unit name
- a PyPTO output directory with `ptoas_passes/` -> its passes_dump/ trace (if any), then each unit
- a `--mlir-print-ir-after-all` stream file    -> [Trace("mlir", "", m)] (module scope), else one per op
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from pathlib import Path

from ir_trace.errors import DumpError
from ir_trace.inputs.discovery import Manifest, discover_snapshots
from ir_trace.inputs.file_hashes import FileHashes
from ir_trace.inputs.mlir.reader import TextSink, read_stream, read_tree
from ir_trace.inputs.mlir.tree import TREE_SUFFIX, counters_per_depth

log = logging.getLogger("ir_trace")

PTOAS_PASSES = "ptoas_passes"
PASSES_DUMP = "passes_dump"
# The kinds of input (sweep.json's programs[].input).
PASSES_DUMP_INPUT = "passes_dump"
PROGRAM_INPUT = "program"
TREE_INPUT = "mlir_tree"
STREAM_INPUT = "mlir_stream"
_SEARCH_DEPTH = 16  # directory levels searched for a first .mlir file (IREE trees nest 5 deep)


@dataclass(frozen=True)
class Trace:
    """One sequence of snapshots: its stage ("pypto", "mlir", "ptoas"), its unit ("" or a codegen
    unit / op name) and its manifest."""

    stage: str
    unit: str
    manifest: Manifest

    def to_json(self) -> dict:
        return {"stage": self.stage, "unit": self.unit, "manifest": self.manifest.to_json()}

    @classmethod
    def from_json(cls, data: dict) -> Trace:
        return cls(data["stage"], data["unit"], Manifest.from_json(data["manifest"]))

    @property
    def label(self) -> str:
        return f"{self.stage} {self.unit}".strip()


def discover_traces(
    path: str | os.PathLike,
    on_text: TextSink | None = None,
    follow_inner_symlinks: bool = False,
    hashes: FileHashes | None = None,
) -> list[Trace]:
    """Every trace `path` holds, in pipeline order; DumpError naming the file when one is broken.
    `follow_inner_symlinks`: read snapshots linked to files inside their dump (see `read_dump_file`).
    `hashes`: PyPTO snapshots whose stamp it recorded are not read again (see `discover_snapshots`)."""
    folder = Path(path).absolute()
    if folder.is_file():
        return [Trace("mlir", unit, manifest) for unit, manifest in read_stream(folder, on_text)]
    if not folder.is_dir():
        return [Trace("pypto", "", discover_snapshots(folder, on_text, follow_inner_symlinks))]  # its own message
    if (folder / PTOAS_PASSES).is_dir():
        return _program_traces(folder, on_text, follow_inner_symlinks, hashes)
    layout = tree_layout(folder)
    if layout == "units" or (layout is None and folder.name == PTOAS_PASSES):
        return _unit_traces(folder, on_text, follow_inner_symlinks)
    if layout == "tree":
        return [Trace("mlir", unit, manifest) for unit, manifest in read_tree(folder, on_text, follow_inner_symlinks)]
    return [Trace("pypto", "", discover_snapshots(folder, on_text, follow_inner_symlinks, hashes))]


def traces_from_json(data: dict) -> list[Trace]:
    """The traces a validation cached (`{"traces": [Trace.to_json(), ...]}`)."""
    return [Trace.from_json(trace) for trace in data["traces"]]


def single_manifest(path: str | os.PathLike, traces: list[Trace]) -> Manifest:
    """The manifest of a PATH that holds one trace (run against run, sweeps); DumpError naming its traces else."""
    if len(traces) == 1:
        return traces[0].manifest
    shown = ", ".join(trace.label for trace in traces[:4]) + (" ..." if len(traces) > 4 else "")
    raise DumpError(
        f"{Path(path).absolute()} holds {len(traces)} traces ({shown}); this needs one trace "
        "(give one passes_dump/ or one ptoas unit's directory)"
    )


def tree_layout(folder: Path) -> str | None:
    """ "tree" when `folder` is an MLIR tree dir, "units" when it holds tree dirs, else None: told by
    the first .mlir file found, which has one counter per directory level below its tree."""
    for current, subdirs, files in os.walk(folder):
        depth = len(Path(current).relative_to(folder).parts)
        subdirs[:] = sorted(d for d in subdirs if not d.startswith(".")) if depth < _SEARCH_DEPTH else []
        for name in sorted(files):
            if name.endswith(TREE_SUFFIX) and not name.startswith("."):
                counters = counters_per_depth(name)
                if counters == depth and depth > 0:
                    return "tree"
                if counters == depth - 1 and depth > 1:
                    return "units"
    return None


def _program_traces(
    folder: Path, on_text: TextSink | None, follow_inner_symlinks: bool, hashes: FileHashes | None
) -> list[Trace]:
    """A PyPTO output directory with ptoas_passes/: PyPTO's passes first, then each unit's."""
    traces = []
    if (folder / PASSES_DUMP).is_dir():
        pypto = discover_snapshots(folder / PASSES_DUMP, on_text, follow_inner_symlinks, hashes)
        traces.append(Trace("pypto", "", pypto))
    return traces + _unit_traces(folder / PTOAS_PASSES, on_text, follow_inner_symlinks)


def _unit_traces(folder: Path, on_text: TextSink | None, follow_inner_symlinks: bool) -> list[Trace]:
    """One tree per codegen unit (`ptoas_passes/<unit>/`), by unit name; units without dumps skipped."""
    traces = []
    units = sorted(entry for entry in folder.iterdir() if entry.is_dir() and not entry.name.startswith("."))
    for unit in units:
        if tree_layout(unit) != "tree":
            log.warning("no MLIR pass dumps in %s; skipping that unit", unit)
            continue
        for op_unit, manifest in read_tree(unit, on_text, follow_inner_symlinks):
            traces.append(Trace("ptoas", f"{unit.name} {op_unit}".strip(), manifest))
    if not traces:
        raise DumpError(
            f"no MLIR pass dumps in {folder} (expected one --mlir-print-ir-tree-dir directory per unit, "
            "as RunConfig(dump_ptoas_passes=True) writes)"
        )
    return traces

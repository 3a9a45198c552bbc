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
from ir_trace.inputs.discovery import Manifest, TextSink, discover_snapshots
from ir_trace.inputs.dump_files import linked_directory
from ir_trace.inputs.file_hashes import FileHashes

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
        from ir_trace.inputs.mlir.reader import read_stream  # here and below: a PyPTO dump needs no MLIR reader

        return [Trace("mlir", unit, manifest) for unit, manifest in read_stream(folder, on_text)]
    if not folder.is_dir():
        return [Trace("pypto", "", discover_snapshots(folder, on_text, follow_inner_symlinks))]  # its own message
    if (folder / PTOAS_PASSES).is_dir():
        return _program_traces(folder, on_text, follow_inner_symlinks, hashes)
    layout = tree_layout(folder, follow_inner_symlinks)
    if layout == "units" or (layout is None and folder.name == PTOAS_PASSES):
        return _unit_traces(folder, on_text, follow_inner_symlinks)
    if layout == "tree":
        from ir_trace.inputs.mlir.reader import read_tree

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


def tree_layout(folder: Path, follow_inner_symlinks: bool = False) -> str | None:
    """ "tree" when `folder` is an MLIR tree dir, "units" when it holds tree dirs, else None: told by
    the first .mlir file found, which has one counter per directory level below its tree. Directory
    links are followed as `walk_tree` allows; a folder told by none whose only way on is a link
    (a tree whose top segment is a symlink) gets DumpError naming the link, not "no snapshots"."""
    from ir_trace.inputs.mlir.tree import TREE_SUFFIX, counters_per_depth, walk_tree

    links: list[Path] = []
    on_link = None if follow_inner_symlinks else links.append
    for _folder, parts, files in walk_tree(folder, follow_inner_symlinks, _SEARCH_DEPTH, on_link):
        depth = len(parts)
        for name in sorted(files):
            if name.endswith(TREE_SUFFIX) and not name.startswith("."):
                counters = counters_per_depth(name)
                if counters == depth and depth > 0:
                    return "tree"
                if counters == depth - 1 and depth > 1:
                    return "units"
    if links and not _holds_snapshots(folder):
        linked_directory(links[0], folder, follow_inner_symlinks)  # raises: links are not followed
    return None


def _holds_snapshots(folder: Path) -> bool:
    """Whether `folder` has a PyPTO snapshot of its own (a passes_dump/ ignores its directories)."""
    try:
        return any(name.endswith(".py") for name in os.listdir(folder))
    except OSError:
        return False


def _program_traces(
    folder: Path, on_text: TextSink | None, follow_inner_symlinks: bool, hashes: FileHashes | None
) -> list[Trace]:
    """A PyPTO output directory with ptoas_passes/: PyPTO's passes first, then each unit's."""
    traces = []
    passes_dump = _inner_directory(folder / PASSES_DUMP, folder, follow_inner_symlinks)
    if passes_dump.is_dir():
        pypto = discover_snapshots(passes_dump, on_text, follow_inner_symlinks, hashes)
        traces.append(Trace("pypto", "", pypto))
    units = _inner_directory(folder / PTOAS_PASSES, folder, follow_inner_symlinks)
    return traces + _unit_traces(units, on_text, follow_inner_symlinks, folder)


def _inner_directory(path: Path, given: Path, follow_inner_symlinks: bool) -> Path:
    """`path` itself, or where it leads when it is a directory link that may be followed (inside
    `given`, with `follow_inner_symlinks`); DumpError naming the link otherwise (`linked_directory`)."""
    if path.is_symlink() and path.is_dir():
        return linked_directory(path, given, follow_inner_symlinks)
    return path


def _unit_traces(
    folder: Path, on_text: TextSink | None, follow_inner_symlinks: bool, given: Path | None = None
) -> list[Trace]:
    """One tree per codegen unit (`ptoas_passes/<unit>/`), by unit name; units without dumps skipped.
    A unit that is a directory link is judged before anything behind it is walked: its files would
    land in a shareable report (`given`: the directory the links must stay inside)."""
    from ir_trace.inputs.mlir.reader import read_tree

    traces = []
    units = sorted(entry for entry in folder.iterdir() if entry.is_dir() and not entry.name.startswith("."))
    for unit in units:
        tree = _inner_directory(unit, given or folder, follow_inner_symlinks)
        if tree_layout(tree, follow_inner_symlinks) != "tree":
            log.warning("no MLIR pass dumps in %s; skipping that unit", unit)
            continue
        for op_unit, manifest in read_tree(tree, on_text, follow_inner_symlinks):
            traces.append(Trace("ptoas", f"{unit.name} {op_unit}".strip(), manifest))
    if not traces:
        raise DumpError(
            f"no MLIR pass dumps in {folder} (expected one --mlir-print-ir-tree-dir directory per unit, "
            "as RunConfig(dump_ptoas_passes=True) writes)"
        )
    return traces

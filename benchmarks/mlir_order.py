#!/usr/bin/env python3
"""How close the MLIR tree reader's order is to the true write order, and what ordering costs:

    python benchmarks/mlir_order.py [SAMPLES_DIR] [--runs 5] [--json]

For every `SAMPLES_DIR/*/tree` (default ../shared/samples/mlir) it reads the tree as the CLI does
and counts the snapshots placed after another predecessor than `write_order.txt` (strace's record
of the run; a path written twice counts at its last write) gives them, per trace, and the fake
diffs among them (a snapshot identical to its true predecessor placed after a different text), and
(`flat`) the wrong predecessors with the files' mtimes left out, as a copy would leave them. It times the
whole read (files, headers, hashes, order) and the ordering alone (`order_tree` on texts already
in memory), medians of --runs. With --streams it reads each `SAMPLES_DIR/*/stream.txt` instead (the
same run's stderr, its dumps in write order, one per line of write_order.txt): in the directories that
sibling ops without a symbol share (IREE's util.initializers; nested modules aside), it counts the snapshots whose
predecessor in their trace does not carry the counter one below theirs in that directory (or that
start a trace with a counter above 0), and the fake diffs among them (a dump of that directory
with the counter one below and the very same text came before, yet another text is placed before
it). Figures are recorded in BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import codecs
import json
import os
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from ir_trace.inputs.mlir.order import order_tree  # noqa: E402
from ir_trace.inputs.mlir.reader import read_stream, read_tree  # noqa: E402
from ir_trace.inputs.mlir.stream import ir_length  # noqa: E402
from ir_trace.inputs.mlir.tree import scan_tree, shared_directory  # noqa: E402
from ir_trace.inputs.traces import discover_traces  # noqa: E402

DEFAULT_SAMPLES = Path(os.environ.get("IR_TRACE_SHARED", REPO.parent / "shared")) / "samples" / "mlir"


def write_order(sample: Path) -> list[str]:
    """write_order.txt as paths (strace escapes non-ASCII bytes as octal), each at its last write."""
    lines = (sample / "write_order.txt").read_bytes().splitlines()
    paths = [codecs.escape_decode(line)[0].decode("utf-8") for line in lines]
    last = {path: position for position, path in enumerate(paths)}
    return [path for position, path in enumerate(paths) if last[path] == position]


def misplaced(files: list[str], truth: list[str]) -> int:
    """Snapshots whose predecessor differs from the one `truth` gives them (among these files)."""
    present = set(files)
    order = [path for path in truth if path in present]
    true_before = dict(zip(order[1:], order))
    our_before = dict(zip(files[1:], files))
    return sum(1 for file in files if true_before.get(file) != our_before.get(file))


def fake_diffs(files: list[str], truth: list[str], texts: dict[str, str]) -> int:
    """Snapshots identical to their true predecessor (a pass that changed nothing) that differ from
    the one placed before them: each would show a change its pass did not make."""
    present = set(files)
    order = [path for path in truth if path in present]
    true_before = dict(zip(order[1:], order))
    our_before = dict(zip(files[1:], files))
    return sum(
        1
        for file in files
        if file in true_before
        and texts[true_before[file]] == texts[file]
        and texts[our_before.get(file, true_before[file])] != texts[file]
    )


def measure(sample: Path, runs: int) -> dict:
    tree = sample / "tree"
    traces = discover_traces(tree)
    truth = write_order(sample)
    wrong = sum(misplaced([s.file for s in t.manifest.snapshots], truth) for t in traces)
    total = sum(len(t.manifest.snapshots) for t in traces)
    read_times, order_times = [], []
    files = scan_tree(tree)
    texts = {f.path: _ir(tree / f.path) for f in files}
    fakes = sum(fake_diffs([s.file for s in t.manifest.snapshots], truth, texts) for t in traces)
    module_scope = len(traces) == 1
    # as a copy or an archive would leave the tree: mtimes flattened, counters and content alone decide
    before = {f.path for f in files if b"IR Dump Before" in (tree / f.path).open("rb").readline()}
    flat = order_tree(files, lambda f: texts[f.path], lambda f: f.path in before) if module_scope else None
    wrong_flat = misplaced([f.path for f in flat], truth) if flat is not None else wrong
    for _ in range(runs):
        started = time.perf_counter()
        read_tree(tree)
        read_times.append(time.perf_counter() - started)
        started = time.perf_counter()
        order_tree(files, (lambda f: texts[f.path]) if module_scope else None)
        order_times.append(time.perf_counter() - started)
    return {
        "sample": sample.name,
        "traces": len(traces),
        "snapshots": total,
        "wrong_predecessor": wrong,
        "percent": round(100 * wrong / total, 2) if total else 0.0,
        "fake_diffs": fakes,
        "wrong_without_mtimes": wrong_flat,
        "read_s": round(statistics.median(read_times), 4),
        "order_s": round(statistics.median(order_times), 4),
        "warnings": [w for t in traces for w in t.manifest.warnings],
    }


def measure_stream(sample: Path) -> dict | None:
    """Counter-consistency of the stream's traces in shared directories (None: no matching truth)."""
    lines = (sample / "write_order.txt").read_bytes().splitlines()
    truth = [codecs.escape_decode(line)[0].decode("utf-8") for line in lines]  # one per dump, overwrites too
    traces = read_stream(sample / "stream.txt")
    if len(traces) == 1 or sum(len(manifest.snapshots) for _unit, manifest in traces) != len(truth):
        return None  # module scope (the stream's order is the trace's) or not the run write_order.txt saw
    counter = {}
    directory = {}
    for index, path in enumerate(truth):
        parts = path.split("/")
        counter[index] = int(parts[-1].split("_")[-2]) if len(parts[-1].split("_")) > 2 else -1
        directory[index] = tuple(parts[:-1])
    data = (sample / "stream.txt").read_bytes()
    texts = {}
    for _unit, manifest in traces:
        for snapshot in manifest.snapshots:
            start, length = snapshot.span
            texts[snapshot.header_index] = data[start : start + length]
    shared = {index for index in range(len(truth)) if _shared_not_module(directory[index]) and counter[index] >= 0}
    seen: dict[tuple, set[bytes]] = {}  # (directory, counter) -> texts dumped so far
    possible_no_op = set()
    for index in range(len(truth)):
        key = directory[index], counter[index]
        if index in shared and texts[index] in seen.get((key[0], key[1] - 1), set()):
            possible_no_op.add(index)
        seen.setdefault(key, set()).add(texts[index])
    wrong = fakes = 0
    for _unit, manifest in traces:
        indices = [snapshot.header_index for snapshot in manifest.snapshots]
        before = dict(zip(indices[1:], indices))
        for index in indices:
            if index not in shared:
                continue
            previous = before.get(index)
            ok = (
                counter[index] == 0
                if previous is None
                else directory[previous] == directory[index] and counter[previous] == counter[index] - 1
            )
            wrong += not ok
            fakes += index in possible_no_op and (previous is None or texts[previous] != texts[index])
    return {
        "sample": sample.name,
        "traces": len(traces),
        "snapshots": len(truth),
        "shared": len(shared),
        "wrong_predecessor": wrong,
        "fake_diffs": fakes,
        "warnings": [w for _unit, manifest in traces for w in manifest.warnings],
    }


def _shared_not_module(dirs: tuple[str, ...]) -> bool:
    """A shared directory of ops without a symbol, nested `builtin.module`s aside (a stream cannot tell
    them from the root module yet: they share its trace)."""
    return shared_directory(dirs) and not dirs[-1].startswith("builtin_module_")


def _ir(path: Path) -> str:
    data = path.read_bytes()
    start = data.find(b"\n") + 1
    return data[start : start + ir_length(data, start, len(data))].decode("utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("samples", nargs="?", type=Path, default=DEFAULT_SAMPLES)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--streams", action="store_true", help="measure the streams (shared directories)")
    args = parser.parse_args()
    if args.streams:
        return _print_streams(args.samples, args.json)
    rows = [measure(tree.parent, args.runs) for tree in sorted(args.samples.glob("*/tree"))]
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    print(
        f"{'sample':40} {'traces':>6} {'snaps':>6} {'wrong':>6} {'%':>6} {'fake':>5} {'flat':>5} "
        f"{'read s':>8} {'order s':>8}"
    )
    for row in rows:
        print(
            f"{row['sample']:40} {row['traces']:6} {row['snapshots']:6} {row['wrong_predecessor']:6} "
            f"{row['percent']:6.2f} {row['fake_diffs']:5} {row['wrong_without_mtimes']:5} "
            f"{row['read_s']:8.3f} {row['order_s']:8.3f}"
        )
    return 0


def _print_streams(samples: Path, as_json: bool) -> int:
    rows = [row for stream in sorted(samples.glob("*/stream.txt")) if (row := measure_stream(stream.parent))]
    if as_json:
        print(json.dumps(rows, indent=2))
        return 0
    print(f"{'sample':40} {'traces':>6} {'snaps':>6} {'shared':>6} {'wrong':>6} {'fake':>5}")
    for row in rows:
        print(
            f"{row['sample']:40} {row['traces']:6} {row['snapshots']:6} {row['shared']:6} "
            f"{row['wrong_predecessor']:6} {row['fake_diffs']:5}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

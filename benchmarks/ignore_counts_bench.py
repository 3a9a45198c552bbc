"""CPU of the ignore-mode counts over a dump's adjacent pairs, in-process (what the diff step adds).

    python benchmarks/ignore_counts_bench.py DUMP [--kind pypto] [--repeat 3]

Prints the median CPU of `ignore_counts` over every changed adjacent pair, each repeat in a fresh
process state (the keys' memos cleared), beside the diff's own CPU for scale.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from ir_trace.diffcore.linediff import diff_snapshots
from ir_trace.pipeline.snapshots import LoadedSnapshot
from ir_trace.report import ignore_counts as counts_module


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("dump")
    parser.add_argument("--kind", default="pypto")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    files = sorted(p for p in Path(args.dump).iterdir() if p.is_file())
    snapshots = [LoadedSnapshot(p.read_text(encoding="utf-8", errors="surrogateescape"), args.kind) for p in files]
    pairs = []
    for before, after in zip(snapshots, snapshots[1:]):
        (a, a_eol), (b, b_eol) = before.split, after.split
        if a != b:
            pairs.append((a, b, a_eol, b_eol, before.functions, after.functions))
    started = time.process_time()
    hunks = [diff_snapshots(*pair) for pair in pairs]
    diff_cpu = time.process_time() - started
    runs = []
    for _ in range(args.repeat):
        for memo in ("_memos", "_step_memos", "_snapshots"):  # the remembered keys (a tree without one has none)
            getattr(counts_module, memo, {}).clear()
        started = time.process_time()
        for pair, exact in zip(pairs, hunks):
            counts_module.ignore_counts(*pair, exact, args.kind)
        runs.append(time.process_time() - started)
    print(f"{len(pairs)} pairs: diff {diff_cpu:.3f} s, ignore_counts median {statistics.median(runs):.3f} s")


if __name__ == "__main__":
    main()

"""CPU time of slicing every snapshot of a dump in one process (structure, outline and functions).

    PYTHONPATH=. python benchmarks/structure_speed.py DUMP [--snapshots N] [--runs R]

Prints the median of R runs, each in a fresh process (the chunk memo starts empty, as in a cold run).
Reading the files is not timed: this is the structure analysis alone.
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path


def one_run(dump: Path, snapshots: int) -> float:
    from ir_trace.diffcore.linediff import split_lines
    from ir_trace.syntax.functions import slice_functions

    paths = sorted(dump.glob("*.py"), key=lambda p: int(re.match(r"\d+", p.name)[0]))[:snapshots]
    texts = [split_lines(p.read_text(encoding="utf-8"))[0] for p in paths]
    start = time.process_time()
    for lines in texts:
        slice_functions(lines)
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dump", type=Path)
    parser.add_argument("--snapshots", type=int, default=300)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(one_run(args.dump, args.snapshots))
        return
    command = [sys.executable, __file__, str(args.dump), "--snapshots", str(args.snapshots), "--one"]
    samples = [
        float(subprocess.run(command, check=True, capture_output=True, text=True).stdout) for _ in range(args.runs)
    ]
    print(f"{args.dump}: {statistics.median(samples):.3f} s CPU (median of {args.runs}: {samples})")


if __name__ == "__main__":
    main()

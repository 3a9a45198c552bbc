#!/usr/bin/env python3
"""What the link-safe reader (`discovery.read_dump_file`) costs against a plain open-and-read.

    python benchmarks/dump_read_bench.py [DUMP ...]     # default: every real sample dump

Per dump: the median of 7 passes over all its snapshots, each pass reading every file once
(warm page cache), with the plain way (`open(path, "rb").read()`) and the safe one (the dump
directory opened, each component opened without following links, fstat of the result).
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
from ir_trace.inputs.dump_files import read_dump_file  # noqa: E402

SAMPLES = REPO.parent / "shared" / "samples"


def median_seconds(read, files: list[Path], runs: int = 7) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        for file in files:
            read(file)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def plain(path: Path) -> bytes:
    with open(path, "rb") as handle:
        return handle.read()


def main(argv: list[str]) -> None:
    dumps = [Path(a) for a in argv] or sorted(SAMPLES.glob("real*/*/passes_dump"))
    for dump in dumps:
        files = sorted(dump.glob("*.py"))
        before = median_seconds(plain, files)
        after = median_seconds(lambda p, root=dump: read_dump_file(p, root), files)
        print(
            f"{dump.parent.name}: {len(files)} files, plain {before * 1000:.2f} ms, safe {after * 1000:.2f} ms "
            f"(+{(after - before) / len(files) * 1e6:.0f} µs a file)"
        )


if __name__ == "__main__":
    main(sys.argv[1:])

"""Time `batches()` and every batch's completeness check for a dump's work items.

    python benchmarks/batch_parameters.py [TREE]     (TREE: a checkout to time, default this one)

Synthetic DiffPairs of one stream file, 1,000 and 200,000 items, median of 5 in one process.
"""

import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, sys.argv[1] if len(sys.argv) > 1 else str(Path(__file__).resolve().parent.parent))

from ir_trace.cache.store import open_cache  # noqa: E402
from ir_trace.pipeline import snapshots  # noqa: E402
from ir_trace.pipeline.config import adopt_cache  # noqa: E402


def work(count: int, seed: int) -> list:
    stream = "/data/streams/big.mlir"
    return [
        snapshots.DiffPair(
            stream, f"{seed}{i:063x}", stream, f"{seed}{i + 1:063x}", f"{i * 100},100", f"{i * 100 + 100},100", "mlir"
        )
        for i in range(count)
    ]


def main() -> None:
    adopt_cache(open_cache(Path(tempfile.mkdtemp()) / "cache"))
    for count in (1000, 200_000):
        times = []
        for seed in range(5):  # new items each time: nothing is cached yet
            items = work(count, seed)
            started = time.perf_counter()
            made = snapshots.batches(items)
            for batch in made:
                _ = batch.task_id
                batch.output().exists()
            times.append(time.perf_counter() - started)
        print(f"{count} items: batches() + completeness median {statistics.median(times):.3f} s")


if __name__ == "__main__":
    main()

"""CPU per stage of one cold in-process run (fresh cache), the stage functions wrapped and their time summed.

    PYTHONPATH=. python benchmarks/cold_stages.py DUMP

Rough (one run, the wrappers' own cost included); for whole-process figures use farm-bench (BENCHMARKS.md).
"""

from __future__ import annotations

import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable

import ir_trace.cache.store as store
import ir_trace.pipeline.report as report
import ir_trace.pipeline.snapshots as snapshots
from ir_trace import api

# isort: split
import luigi.worker  # after the pipeline, which imports Luigi its own way (pipeline/luigi_import.py)

spent: defaultdict[str, float] = defaultdict(float)  # seconds by stage


def timed(owner: object, name: str, label: str) -> None:
    function: Callable = getattr(owner, name)

    def wrapper(*args, **kwargs):
        start = time.process_time()
        try:
            return function(*args, **kwargs)
        finally:
            spent[label] += time.process_time() - start

    setattr(owner, name, wrapper)


def main() -> None:
    for owner, name, label in [
        (snapshots.DiffPair, "compute", "pair work (all of a pair)"),
        (snapshots, "analyse_structure", "structure"),
        (snapshots, "ignore_counts", "ignore-mode counts"),
        (snapshots, "diff_snapshots", "diff"),
        (snapshots, "discover_traces", "validation (read + hash)"),
        (snapshots, "slice_functions", "slicing"),
        (snapshots, "split_lines", "split_lines"),
        (snapshots, "read_snapshot_text", "rereading snapshots"),
        (store.ResultCache, "put_many", "cache writes"),
        (store.ResultCache, "get", "cache reads"),
        (report, "assemble_payload", "payload (report model)"),
        (report, "render_html", "page (JSON, gzip, template)"),
        (report, "report_summary", "summary"),
        (report.ReportTarget, "write", "writing the report"),
        (luigi.worker.Worker, "run", "Luigi's worker (all tasks)"),
        (luigi.worker.Worker, "add", "Luigi: adding the task (complete() checks)"),
        (luigi.worker.Worker, "__init__", "Luigi: the worker's start"),
        (store, "open_cache", "opening the cache"),
        (api, "_dump_state", "the dump's state"),
    ]:
        timed(owner, name, label)
    with tempfile.TemporaryDirectory() as scratch:
        start = time.process_time()
        api.render(sys.argv[1], f"{scratch}/r.html", cache_dir=f"{scratch}/cache")
        print(f"whole run {time.process_time() - start:.2f} s")
    for label, seconds in sorted(spent.items(), key=lambda item: -item[1]):
        print(f"{label:42s} {seconds:.2f} s")


if __name__ == "__main__":
    main()

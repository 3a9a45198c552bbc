#!/usr/bin/env python3
"""Issue 17's speed figures on real MLIR dumps: cold run, warm rerun and report size.

    python benchmarks/mlir_bench.py                      # b3 tree + stream, 5 runs each
    python benchmarks/mlir_bench.py --runs 3 --inputs tree --json out.json

Inputs are the IREE full-pipeline sample of ../shared/samples/mlir/b3_full_ireecompile_conv
(717 module-scope snapshots, 20 MB, 518 of them no-op), read in place: as a tree dir
(`--mlir-print-ir-tree-dir`) and as the same run's `--mlir-print-ir-after-all` stream.
Each figure is the median of several runs of the real CLI in a fresh process, launched and
timed the way benchmarks/bench.py does it (wait4() CPU time, cached bytecode, idle wait).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench  # noqa: E402  (run_cli, settle, the child's environment)

SAMPLE = "samples/mlir/b3_full_ireecompile_conv"
INPUTS = {"tree": "tree", "stream": "stream.txt"}
TARGETS = {"cold_s": 2.0, "warm_s": 0.3, "report_bytes": 1.5e6}  # issue 17 item 7


def measure(dump: Path, workdir: Path, runs: int, log) -> dict:
    """Cold runs (a fresh cache each), then warm reruns (primed cache, report current)."""
    report = workdir / "report.html"
    cold = []
    for i in range(runs):
        cache = bench.fresh(workdir / f"cache-cold-{i}")
        bench.fresh(report)
        cold.append(bench.run_cli(bench.cli_args(dump, report, cache, None), workdir))
        shutil.rmtree(cache, ignore_errors=True)
    size = report.stat().st_size
    warm_cache = bench.fresh(workdir / "cache-warm")
    bench.run_cli(bench.cli_args(dump, report, warm_cache, None), workdir)  # prime
    warm = [bench.run_cli(bench.cli_args(dump, report, warm_cache, None), workdir) for _ in range(runs)]
    figures = {
        "cold_s": statistics.median(r.seconds for r in cold),
        "warm_s": statistics.median(r.seconds for r in warm),
        "report_bytes": size,
        "cold_cpu_s": statistics.median(r.cpu_s for r in cold),
        "warm_cpu_s": statistics.median(r.cpu_s for r in warm),
        "cold_rss_mb": statistics.median(r.rss_bytes for r in cold) / 1e6,
        "summary": cold[-1].stderr.strip().splitlines()[-1],
        "warm_summary": warm[-1].stderr.strip().splitlines()[-1],
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }
    log(
        f"  cold {figures['cold_s']:.2f} s (cpu {figures['cold_cpu_s']:.2f} s) · "
        f"warm {figures['warm_s']:.2f} s (cpu {figures['warm_cpu_s']:.2f} s) · report {size / 1e6:.2f} MB · "
        f"rss {figures['cold_rss_mb']:.0f} MB · load {figures['load_average']}"
    )
    log(f"  {figures['summary']}")
    return figures


def verdicts(figures: dict) -> str:
    return ", ".join(
        f"{key} {'PASS' if figures[key] <= target else 'FAIL'}" for key, target in TARGETS.items() if key in figures
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--inputs", default="tree,stream", help="comma-separated: tree, stream")
    parser.add_argument("--shared", type=Path, default=bench.DEFAULT_SHARED)
    parser.add_argument("--scratch", type=Path, default=None, help="work directory (default: a temporary one)")
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = parser.parse_args(argv)
    workdir = args.scratch or Path(tempfile.mkdtemp(prefix="mlir-bench-"))
    workdir.mkdir(parents=True, exist_ok=True)
    bench.CHILD_ENV.pop("PYTHONDONTWRITEBYTECODE", None)  # as an installed tool runs: bytecode cached
    bench.CHILD_ENV["PYTHONPYCACHEPREFIX"] = str(workdir / "pycache")
    results = {}
    for name in args.inputs.split(","):
        dump = args.shared / SAMPLE / INPUTS[name]
        if not dump.exists():
            raise SystemExit(f"mlir_bench: sample not found: {dump} (use --shared)")
        print(f"{name}: {dump} ({args.runs} runs)", flush=True)
        here = workdir / name
        here.mkdir(exist_ok=True)
        results[name] = measure(dump, here, args.runs, lambda line: print(line, flush=True))
        print(f"  targets: {verdicts(results[name])}", flush=True)
    print(f"runs started while other processes were busy: {bench.IDLE['busy_starts']}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    if args.scratch is None:
        shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

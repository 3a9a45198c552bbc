#!/usr/bin/env python3
"""How a cold run grows with the pass count (issue 18): tiny passes, 500 to 5,000 of them.

    python benchmarks/pass_curve.py                         # 500,1000,2000,5000; 3 runs each
    python benchmarks/pass_curve.py --passes 1000,2000 --runs 5 --scratch /tmp/curve

A tiny pass is what a new user tries first: a ten-line program, each pass editing one line, two
passes in five printing the same text as the one before (as many MLIR passes do). Every figure is
the median of several cold runs (`--cache-dir` fresh each time) of the real command in a fresh
process, with bench.py's launcher (wall time, the child's own CPU and peak RSS). The scheduling
share is bench.py's Luigi probe on the 1,000-pass dump: wall time outside every task's run().
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench  # noqa: E402

TARGET_5000_S = 5.0
TARGET_GROWTH = 2.2  # 2,000 passes cost at most this many times 1,000
NOOP_EVERY = (2, 4)  # of every five passes, these print the same text as their predecessor


def tiny_program(step: int) -> str:
    """The ten-line program after `step` edits: line `step % 8` of the body carries the last edit."""
    body = [f"    t{i} = pl.add(t{i - 1 if i else 'a'}, {i})" for i in range(8)]
    for edit in range(1, step + 1):
        if edit % 5 not in NOOP_EVERY:
            line = edit % 8
            body[line] = f"    t{line} = pl.add(t{line - 1 if line else 'a'}, {edit})  # pass {edit}"
    return "@pl.program\nclass Program:\n  def main(self, a):\n" + "\n".join(body) + "\n    return t7\n"


def write_tiny_dump(dump: Path, passes: int) -> Path:
    dump.mkdir(parents=True, exist_ok=True)
    (dump / "00_frontend.py").write_text(tiny_program(0), encoding="utf-8")
    for step in range(1, passes + 1):
        (dump / f"{step:02d}_after_Pass{step}.py").write_text(tiny_program(step), encoding="utf-8")
    return dump


def cold_runs(dump: Path, workdir: Path, runs: int) -> list[bench.Run]:
    measured = []
    for i in range(runs):
        cache = bench.fresh(workdir / f"cache-{i}")
        measured.append(bench.run_cli(bench.cli_args(dump, workdir / "report.html", cache, None), workdir))
        shutil.rmtree(cache, ignore_errors=True)
    return measured


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--passes", default="500,1000,2000,5000", help="comma-separated pass counts")
    parser.add_argument("--runs", type=int, default=3, help="cold runs per count (median reported)")
    parser.add_argument("--scratch", type=Path, help="work directory (default: a new one under /tmp, removed after)")
    parser.add_argument("--json", type=Path, metavar="PATH", help="also write the figures as JSON")
    parser.add_argument("--no-luigi", action="store_true", help="skip the scheduling share of the 1,000-pass run")
    args = parser.parse_args(argv)
    counts = [int(n) for n in args.passes.split(",")]
    workdir = (args.scratch or Path(tempfile.mkdtemp(prefix="ir-trace-curve-"))).absolute()
    bench.CHILD_ENV.pop("PYTHONDONTWRITEBYTECODE", None)
    bench.CHILD_ENV["PYTHONPYCACHEPREFIX"] = str(workdir / "pycache")
    figures: dict[int, dict] = {}
    try:
        for count in counts:
            here = bench.fresh(workdir / f"tiny{count}")
            dump = write_tiny_dump(here / "passes_dump", count)
            measured = cold_runs(dump, here, args.runs)
            figures[count] = {
                "cold_s": bench._median(r.seconds for r in measured),
                "cpu_s": bench._median(r.cpu_s for r in measured),
                "rss_mb": max(r.rss_bytes for r in measured) / 1e6,
                "samples_s": [round(r.seconds, 3) for r in measured],
            }
            print(f"{count:>6} passes: cold {bench._series(r.seconds for r in measured)}", file=sys.stderr)
        luigi = None
        if not args.no_luigi and 1000 in figures:
            luigi = bench.measure_luigi("tiny1000", workdir / "tiny1000" / "passes_dump", workdir, 3, None, print)
        print_curve(figures, luigi, args.runs)
        if args.json:
            args.json.write_text(json.dumps({"curve": figures, "luigi": luigi}, indent=1))
    finally:
        if args.scratch is None:
            shutil.rmtree(workdir, ignore_errors=True)
    return 0


def print_curve(figures: dict[int, dict], luigi: dict | None, runs: int) -> None:
    print(f"\nTiny passes, cold runs (median of {runs}; load average {os.getloadavg()[0]:.2f}):\n")
    print("| passes | cold run | CPU | peak RSS | per pass |")
    print("|---|---|---|---|---|")
    for count, row in figures.items():
        per_pass = 1000 * row["cold_s"] / count
        cells = [f"{row['cold_s']:.2f} s", f"{row['cpu_s']:.2f} s", f"{row['rss_mb']:.0f} MB", f"{per_pass:.2f} ms"]
        print(f"| {count} | " + " | ".join(cells) + " |")
    if 1000 in figures and 2000 in figures:
        for key, what in (("cold_s", "wall"), ("cpu_s", "CPU")):
            growth = figures[2000][key] / figures[1000][key]
            verdict = _verdict(growth <= TARGET_GROWTH)
            print(f"2,000 / 1,000 passes, {what}: {growth:.2f}x (target <= {TARGET_GROWTH}x): {verdict}")
    if 5000 in figures:
        for key, what in (("cold_s", "wall"), ("cpu_s", "CPU")):
            cold = figures[5000][key]
            verdict = _verdict(cold <= TARGET_5000_S)
            print(f"5,000 passes cold, {what}: {cold:.2f} s (target <= {TARGET_5000_S} s): {verdict}")
    if luigi and "overhead_of_cold" in luigi:
        share, cpu = luigi["overhead_of_cold"], luigi["overhead_of_cold_cpu"]
        print(f"Luigi scheduling, cold 1,000 passes: wall {luigi['overhead_s']:.3f} s = {share:.1%}, ", end="")
        print(f"CPU {luigi['overhead_cpu_s']:.3f} s = {cpu:.1%} (target <= 10 %)")
        print(
            f"  of it inside luigi.build: wall {luigi['luigi_s']:.3f} s = {luigi['luigi_of_cold']:.1%}, "
            f"CPU {luigi['luigi_cpu_s']:.3f} s = {luigi['luigi_of_cold_cpu']:.1%}"
        )


def _verdict(ok: bool) -> str:
    return "PASS" if ok else "MISS"


if __name__ == "__main__":
    sys.exit(main())

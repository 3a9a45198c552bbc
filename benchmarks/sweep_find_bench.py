#!/usr/bin/env python3
"""What finding a sweep's programs costs, and a sweep over every input kind of the real samples.

    python benchmarks/sweep_find_bench.py find [--programs 200] [--filler 20000] [--repeat 5]
    python benchmarks/sweep_find_bench.py samples [--workers 2]

find: a synthetic build tree of `--programs` programs (a quarter each: passes_dump/ alone, a
program output directory with ptoas_passes/, an MLIR tree, a stream file) among `--filler` other
files (objects, headerless .txt / .log / .mlir files) spread over nested directories; the median
of `--repeat` runs of `find_dumps`, beside a bare `os.walk` listing of the same tree (the floor:
what any search must pay to see every entry).

samples: the real MLIR samples (tree and stream of each) and two small PyPTO samples copied
under one root, swept with `luigi --module ir_trace.pipeline Sweep --local-scheduler` (a fresh
process each time, as cron runs it): cold, then again with nothing changed.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SAMPLES = REPO.parent / "shared" / "samples"
HEADER = "// -----// IR Dump After CSE (cse) ('builtin.module' operation) //----- //\n"
MODULE = "builtin_module_no-symbol-name"


def write_programs(root: Path, count: int) -> None:
    for n in range(count):
        base = root / f"group{n % 10}" / f"prog{n}"
        kind = n % 4
        if kind == 0:
            _snapshots(base / "passes_dump")
        elif kind == 1:
            _snapshots(base / "passes_dump")
            _tree(base / "ptoas_passes" / "kernel")
        elif kind == 2:
            _tree(base / "tree")
        else:
            base.mkdir(parents=True)
            (base / "passes.log").write_text(HEADER + "module {\n}\n" + HEADER + "module {\n}\n", "utf-8")


def _snapshots(dump: Path) -> None:
    dump.mkdir(parents=True)
    (dump / "00_frontend.py").write_text("x = 1\n", "utf-8")
    (dump / "01_after_Simplify.py").write_text("x = 2\n", "utf-8")


def _tree(tree: Path) -> None:
    folder = tree / MODULE
    folder.mkdir(parents=True)
    for n, name in enumerate(("canonicalize", "cse")):
        (folder / f"{n}_{name}.mlir").write_text(HEADER + "module {\n}\n", "utf-8")


def write_filler(root: Path, count: int) -> None:
    """Build-tree noise: objects and headerless text files, 50 to a directory, three levels deep."""
    suffixes = (".o", ".o", ".a", ".txt", ".log", ".mlir", ".json", ".cmake")
    for n in range(count):
        folder = root / "build" / f"d{n // 2500}" / f"e{n // 250}" / f"f{n // 50}"
        folder.mkdir(parents=True, exist_ok=True)
        suffix = suffixes[n % len(suffixes)]
        (folder / f"file{n}{suffix}").write_bytes(b"\x7fELF" + b"\0" * 60 if suffix in (".o", ".a") else b"text\n" * 20)


def bare_walk(root: Path) -> int:
    return sum(len(files) for _dir, _subdirs, files in os.walk(root))


def median_time(function, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        function()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def bench_find(programs: int, filler: int, repeat: int) -> dict:
    sys.path.insert(0, str(REPO))
    from ir_trace.sweep.find import find_dumps

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        write_programs(root, programs)
        write_filler(root, filler)
        found = find_dumps(root)
        kinds = {kind: sum(f.input == kind for f in found) for kind in sorted({f.input for f in found})}
        return {
            "programs": programs,
            "filler_files": filler,
            "found": kinds,
            "files_seen": bare_walk(root),
            "find_dumps_s": round(median_time(lambda: find_dumps(root), repeat), 3),
            "bare_os_walk_s": round(median_time(lambda: bare_walk(root), repeat), 3),
        }


def timed_sweep(env: dict, root: Path, out: Path, workers: int) -> float:
    command = [sys.executable, "-m", "luigi", "--module", "ir_trace.pipeline", "Sweep"]
    command += ["--root", str(root), "--out-dir", str(out), "--workers", str(workers), "--local-scheduler"]
    started = time.perf_counter()
    subprocess.run(command, env=env, check=True, capture_output=True, timeout=1800)
    return round(time.perf_counter() - started, 2)


def bench_samples(workers: int) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        root = tmp_path / "root"
        for sample in sorted((SAMPLES / "mlir").glob("*/tree")):
            shutil.copytree(sample.parent, root / "mlir" / sample.parent.name, ignore=shutil.ignore_patterns("inputs"))
        for name in ("split_k_concise", "llama_mini_concise"):
            shutil.copytree(SAMPLES / "real" / name, root / "pypto" / name)
        config = tmp_path / "luigi.cfg"
        config.write_text(f"[ir_trace]\ncache_dir = {tmp_path / 'cache'}\n[core]\nlog_level = WARNING\n", "utf-8")
        env = {**os.environ, "LUIGI_CONFIG_PATH": str(config), "PYTHONPATH": str(REPO)}
        out = tmp_path / "out"
        cold = timed_sweep(env, root, out, workers)
        warm = timed_sweep(env, root, out, workers)
        document = json.loads((out / "sweep.json").read_text("utf-8"))
        inputs: dict[str, int] = {}
        for program in document["programs"]:
            inputs[program["input"]] = inputs.get(program["input"], 0) + 1
        return {
            "programs": document["totals"]["programs"],
            "invalid": document["totals"]["invalid"],
            "inputs": inputs,
            "passes": sum(p["summary"]["passes"] for p in document["programs"] if p["summary"]),
            "cold_s": cold,
            "nothing_changed_s": warm,
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="what", required=True)
    find = sub.add_parser("find")
    find.add_argument("--programs", type=int, default=200)
    find.add_argument("--filler", type=int, default=20000)
    find.add_argument("--repeat", type=int, default=5)
    samples = sub.add_parser("samples")
    samples.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    if args.what == "find":
        result = bench_find(args.programs, args.filler, args.repeat)
    else:
        result = bench_samples(args.workers)
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()

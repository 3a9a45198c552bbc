#!/usr/bin/env python3
"""Sweep benchmarks: incremental reruns, and the cost of Luigi's scheduling per granularity.

    python benchmarks/sweep_bench.py incremental [--dumps 20] [--workers 2]
    python benchmarks/sweep_bench.py granularity [--dumps 100] [--passes 60] [--luigid]
    python benchmarks/sweep_bench.py share [--dumps 256] [--workers 2] [--repeat 1]

incremental: `--dumps` medium dumps (gen_dump.py --functions 40 --lines 40 --passes 40), swept
with `luigi --module ir_trace.pipeline Sweep --local-scheduler` (a fresh process each time, as cron
runs it): a cold first sweep, a second with nothing changed, a third after every file was
touched (tasks rerun, their work is all cached), a fourth after one pass of one dump changed.

granularity: the same number of do-nothing units of work scheduled two ways: one Luigi task per
unit (dumps x passes tasks, like RenderReport's per-pair graph) or one task per dump that does
its units in-process (like SweepDump). No real work happens, so the times are Luigi's own cost.
Each unit's completion is a marker file, so forked worker processes see it too.

share: a first sweep of `--dumps` small dumps (gen_dump.py --functions 5 --lines 10 --passes 8)
through a real luigid on 127.0.0.1: the CPU luigid spent (utime + stime from /proc of its
process) beside the CPU of the sweeping client (the `luigi` process and its forked workers).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import luigi

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))  # shared local services (tests/harness.py)
from harness import start_luigid, stop_luigid  # noqa: E402

GEN_DUMP = REPO / "benchmarks" / "gen_dump.py"
MEDIUM = ("--functions", "40", "--lines", "40", "--passes", "40")


# ---------- incremental sweeps over real dumps ----------


def timed_sweep(env: dict, root: Path, out: Path, workers: int, *extra: str) -> float:
    command = [
        sys.executable,
        "-m",
        "luigi",
        "--module",
        "ir_trace.pipeline",
        "Sweep",
        "--root",
        str(root),
        "--out-dir",
        str(out),
        "--workers",
        str(workers),
        "--local-scheduler",
        *extra,
    ]
    started = time.perf_counter()
    subprocess.run(command, env=env, cwd=root.parent, check=True, capture_output=True)
    return time.perf_counter() - started


def work_done(out: Path, since_ns: int) -> dict:
    """Dumps looked at again, reports rendered and pairs rediffed by the sweep that started at `since_ns`."""
    fresh = [p for p in (out / ".sweep" / "records").glob("*.json") if p.stat().st_mtime_ns >= since_ns]
    works = [json.loads(p.read_text())["work"] for p in fresh]
    return {
        "dumps_rerun": len(works),
        "rendered": sum(w["reused"] is False for w in works),
        "rediffed": sum(w["rediffed"] or 0 for w in works),
    }


def measured_sweep(env: dict, root: Path, out: Path, workers: int) -> dict:
    since = time.time_ns()
    seconds = timed_sweep(env, root, out, workers)
    return {"seconds": round(seconds, 2), **work_done(out, since)}


def bench_incremental(dumps: int, workers: int) -> dict:
    scratch = Path(tempfile.mkdtemp(prefix="sweep-bench-"))
    try:
        root, out = scratch / "build_output", scratch / "reports"
        for seed in range(1, dumps + 1):
            subprocess.run(
                [
                    sys.executable,
                    str(GEN_DUMP),
                    str(root / f"prog{seed:03d}" / "passes_dump"),
                    *MEDIUM,
                    "--seed",
                    str(seed),
                ],
                check=True,
            )
        config = scratch / "luigi.cfg"
        config.write_text(f"[ir_trace]\ncache_dir = {scratch / 'cache'}\n[core]\nlog_level = WARNING\n")
        code = scratch / "code"  # a frozen copy, so edits made meanwhile cannot invalidate the reports
        for part in ("ir_trace",):
            shutil.copytree(REPO / part, code / part, ignore=shutil.ignore_patterns("__pycache__"))
        env = {**os.environ, "LUIGI_CONFIG_PATH": str(config), "PYTHONPATH": str(code)}
        results = {"dumps": dumps, "workers": workers}
        results["first"] = measured_sweep(env, root, out, workers)
        results["unchanged"] = measured_sweep(env, root, out, workers)
        for path in root.rglob("*.py"):
            os.utime(path)
        results["touched"] = measured_sweep(env, root, out, workers)
        snapshot = next((root / "prog001" / "passes_dump").glob("20_after_*.py"))
        snapshot.write_text(snapshot.read_text() + "# changed\n")
        results["one_changed"] = measured_sweep(env, root, out, workers)
        return results
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


# ---------- the central scheduler's share of a first sweep ----------

SMALL = ("--functions", "5", "--lines", "10", "--passes", "8")


def process_cpu(pid: int) -> float:
    """CPU seconds (user + system) a live process has spent, from /proc/PID/stat."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def make_small_dumps(root: Path, dumps: int) -> None:
    """`dumps` small dumps, made by one process (a generator process per dump would take minutes)."""
    script = (
        "import subprocess, sys\n"
        "for seed in range(1, int(sys.argv[2]) + 1):\n"
        f"    subprocess.run([sys.executable, {str(GEN_DUMP)!r}, f'{{sys.argv[1]}}/prog{{seed:04d}}/passes_dump', "
        f"*{list(SMALL)!r}, '--seed', str(seed)], check=True)\n"
    )
    subprocess.run([sys.executable, "-c", script, str(root), str(dumps)], check=True)


def bench_share(dumps: int, workers: int, repeat: int) -> list[dict]:
    scratch = Path(tempfile.mkdtemp(prefix="sweep-share-"))
    rows = []
    try:
        root = scratch / "build_output"
        make_small_dumps(root, dumps)
        code = scratch / "code"  # a frozen copy, so edits made meanwhile change nothing measured
        shutil.copytree(REPO / "ir_trace", code / "ir_trace", ignore=shutil.ignore_patterns("__pycache__"))
        for attempt in range(repeat):
            run = scratch / f"run{attempt}"
            run.mkdir()
            config = run / "luigi.cfg"
            config.write_text(f"[ir_trace]\ncache_dir = {run / 'cache'}\n[core]\nlog_level = WARNING\n")
            env = {**os.environ, "LUIGI_CONFIG_PATH": str(config), "PYTHONPATH": str(code)}
            luigid, port = start_luigid(run, env=env)
            try:
                scheduler_before, client_before = process_cpu(luigid.pid), children_cpu()
                started = time.perf_counter()
                command = [sys.executable, "-m", "luigi", "--module", "ir_trace.pipeline", "Sweep"]
                command += ["--root", str(root), "--out-dir", str(run / "reports"), "--workers", str(workers)]
                command += ["--scheduler-host", "127.0.0.1", "--scheduler-port", str(port)]
                subprocess.run(command, env=env, cwd=scratch, check=True, capture_output=True)
                wall = time.perf_counter() - started
                scheduler = process_cpu(luigid.pid) - scheduler_before
                client = children_cpu() - client_before
            finally:
                stop_luigid(luigid)
            rows.append(
                {
                    "dumps": dumps,
                    "workers": workers,
                    "wall_s": round(wall, 1),
                    "client_cpu_s": round(client, 1),
                    "luigid_cpu_s": round(scheduler, 1),
                    "luigid_share": round(scheduler / client, 3),
                }
            )
            print(json.dumps(rows[-1]), flush=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return rows


# ---------- scheduling cost per granularity ----------


class Unit(luigi.Task):
    """One unit of (no) work, complete once its marker file exists."""

    marker_dir = luigi.Parameter()
    dump = luigi.IntParameter()
    index = luigi.IntParameter()

    def output(self):
        return luigi.LocalTarget(os.path.join(self.marker_dir, f"{self.dump}-{self.index}"))

    def run(self):
        Path(self.output().path).touch()


class FineDump(luigi.Task):
    """A dump whose units are scheduled as separate tasks."""

    marker_dir = luigi.Parameter()
    dump = luigi.IntParameter()
    passes = luigi.IntParameter()

    def requires(self):
        return [Unit(self.marker_dir, self.dump, index) for index in range(self.passes)]

    def output(self):
        return luigi.LocalTarget(os.path.join(self.marker_dir, f"fine-{self.dump}"))

    def run(self):
        Path(self.output().path).touch()


class CoarseDump(FineDump):
    """A dump that does its units itself, as SweepDump runs RenderReport inline."""

    def requires(self):
        return []

    def output(self):
        return luigi.LocalTarget(os.path.join(self.marker_dir, f"coarse-{self.dump}"))

    def run(self):
        for index in range(self.passes):
            unit = Unit(self.marker_dir, self.dump, index)
            if not unit.complete():
                unit.run()
        Path(self.output().path).touch()


class AllDumps(luigi.WrapperTask):
    marker_dir = luigi.Parameter()
    dumps = luigi.IntParameter()
    passes = luigi.IntParameter()
    coarse = luigi.BoolParameter()

    def requires(self):
        kind = CoarseDump if self.coarse else FineDump
        return [kind(self.marker_dir, dump, self.passes) for dump in range(self.dumps)]


def timed_graph(dumps: int, passes: int, coarse: bool, workers: int, port: int | None) -> float:
    marker_dir = tempfile.mkdtemp(prefix="sweep-bench-markers-")
    try:
        task = AllDumps(marker_dir=marker_dir, dumps=dumps, passes=passes, coarse=coarse)
        scheduler = (
            {"local_scheduler": True} if port is None else {"scheduler_host": "127.0.0.1", "scheduler_port": port}
        )
        started = time.perf_counter()
        ok = luigi.build([task], workers=workers, log_level="ERROR", **scheduler)
        elapsed = time.perf_counter() - started
        assert ok, "the benchmark graph failed"
        return elapsed
    finally:
        shutil.rmtree(marker_dir, ignore_errors=True)


def bench_granularity(dumps: int, passes: int, use_luigid: bool) -> list[dict]:
    rows = []
    state = Path(tempfile.mkdtemp(prefix="sweep-bench-luigid-"))
    luigid, port = start_luigid(state) if use_luigid else (None, None)
    try:
        for coarse in (False, True):
            for workers in (1, 2):
                tasks = 1 + dumps + (0 if coarse else dumps * passes)
                seconds = timed_graph(dumps, passes, coarse, workers, port)
                rows.append(
                    {
                        "granularity": "per dump" if coarse else "per pass",
                        "tasks": tasks,
                        "workers": workers,
                        "scheduler": "luigid" if port else "local",
                        "seconds": seconds,
                    }
                )
                print(json.dumps(rows[-1]), flush=True)
    finally:
        if luigid:
            stop_luigid(luigid)
        shutil.rmtree(state, ignore_errors=True)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="what", required=True)
    incremental = sub.add_parser("incremental")
    incremental.add_argument("--dumps", type=int, default=20)
    incremental.add_argument("--workers", type=int, default=2)
    granularity = sub.add_parser("granularity")
    granularity.add_argument("--dumps", type=int, default=100)
    granularity.add_argument("--passes", type=int, default=60)
    granularity.add_argument("--luigid", action="store_true", help="schedule through a real luigid on 127.0.0.1")
    share = sub.add_parser("share")
    share.add_argument("--dumps", type=int, default=256)
    share.add_argument("--workers", type=int, default=2)
    share.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    if args.what == "share":
        bench_share(args.dumps, args.workers, args.repeat)
    elif args.what == "incremental":
        print(json.dumps(bench_incremental(args.dumps, args.workers), indent=1))
    else:
        bench_granularity(args.dumps, args.passes, args.luigid)


if __name__ == "__main__":
    main()

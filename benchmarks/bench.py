#!/usr/bin/env python3
"""Measure pypto-ir-trace against the targets of issue 4 (speed, size, memory, browser).

    python benchmarks/bench.py                          # medium, large, huge, real; 5 runs (huge 3)
    python benchmarks/bench.py --quick                  # medium + real, 3 runs (about a minute)
    python benchmarks/bench.py --sizes large --runs 3 --scratch /tmp/irb --json results.json
    python benchmarks/bench.py --sizes large,real --profile /tmp/irb-prof   # plus cProfile top lists

Every CLI figure is the median of several runs of the real command (`python -m ir_trace`) in
a fresh process; peak RSS is that child's own ru_maxrss from wait4(). Inputs are generated
with benchmarks/gen_dump.py (or copied from ../shared/samples) into a scratch directory;
the shared samples are never modified. Browser figures come from headless Chromium through
Playwright; without it they read "n/a" and everything else still runs.
"""

from __future__ import annotations

import argparse
import base64
import gzip
import inspect
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import asdict, dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))  # shared local services (tests/harness.py)
from harness import CHROMIUM, launch_chromium  # noqa: E402

GEN_DUMP = REPO / "benchmarks" / "gen_dump.py"
DEFAULT_SHARED = Path(os.environ.get("IR_TRACE_SHARED", REPO.parent / "shared"))
VIEWPORT = {"width": 1400, "height": 900}

# name -> gen_dump.py arguments, or the shared sample directory (relative to --shared)
SIZES: dict[str, list[str] | str] = {
    "medium": ["--functions", "40", "--lines", "40", "--passes", "40", "--seed", "2"],
    "large": ["--functions", "200", "--lines", "50", "--passes", "60", "--seed", "3"],
    "huge": ["--functions", "400", "--lines", "50", "--passes", "120", "--seed", "4"],
    # issue 18: a thousand passes (run it by name: `--sizes thousand`; not in the default set)
    "thousand": ["--functions", "20", "--lines", "50", "--passes", "1000", "--seed", "5"],
    "real": "samples/real/qwen3_decode_explicit/passes_dump",
}
DEFAULT_SIZES = ["medium", "large", "huge", "real"]
HUGE_MAX_RUNS = 3

# Issue 4's bar on this 2-core machine. Sizes are decimal (1 MB = 10^6 bytes), as the CLI prints them.
TARGETS: dict[str, dict[str, float]] = {
    "cold_s": {"medium": 1.0, "large": 4.0, "real": 1.0, "thousand": 4.0},
    "warm_s": {"medium": 0.6, "large": 1.0, "thousand": 0.5},
    "incr_s": {"medium": 0.8, "large": 1.5, "thousand": 1.0},
    "report_bytes": {"medium": 500e3, "large": 3e6, "real": 1e6},
    "rss_bytes": {"medium": 200e6, "large": 400e6, "thousand": 400e6},
    "open_ms": {"medium": 500, "large": 1000, "real": 300},
    "switch_ms": {"medium": 50, "large": 100},
}
LUIGI_OVERHEAD_TARGET = 0.25  # of a cold large run

FIGURES = [  # key, label, unit formatter
    ("cold_s", "cold run (fresh cache)", "s"),
    ("warm_s", "warm rerun, nothing changed", "s"),
    ("incr_s", "incremental rerun, 1 snapshot rewritten", "s"),
    ("report_bytes", "report size", "bytes"),
    ("rss_bytes", "peak RSS (cold run)", "bytes"),
    ("open_ms", "browser: open to first painted diff", "ms"),
    ("switch_ms", "browser: switch pass (median)", "ms"),
]
INFO = [
    ("warm_render_s", "warm cache, report re-rendered", "s"),
    ("cold_cpu_s", "CPU user+sys: cold run", "s"),
    ("warm_cpu_s", "CPU user+sys: warm rerun", "s"),
    ("incr_cpu_s", "CPU user+sys: incremental rerun", "s"),
    ("incr_rediffed", "incremental: pairs rediffed", "n"),
    ("switch_p90_ms", "browser: switch pass (p90)", "ms"),
    ("switch_max_ms", "browser: switch pass (max)", "ms"),
]

# Installed before the page's own script: the time (ms since navigation start) of the first
# frame painted after a changed row entered the DOM. Independent of the viewer's own trace.
FIRST_DIFF_OBSERVER = """
(() => {
  const changed = '.row.ins, .row.del';
  const observer = new MutationObserver(() => {
    if (!document.querySelector(changed)) return;
    observer.disconnect();
    requestAnimationFrame(() => setTimeout(() => { window.__benchFirstDiff = performance.now(); }, 0));
  });
  observer.observe(document, { childList: true, subtree: true });
})();
"""
# page.evaluate (unlike wait_for_function) is not subject to the report's CSP, which forbids eval.
WAIT_FIRST_DIFF = """(timeoutMs) => new Promise((resolve) => {
  const until = performance.now() + timeoutMs;
  const tick = () => window.__benchFirstDiff !== undefined ? resolve(window.__benchFirstDiff)
    : performance.now() > until ? resolve(null) : setTimeout(tick, 5);
  tick();
})"""
# Click every pass in sidebar order from the selected one on (what `j` does), each timed from the
# click to the first frame painted after it.
SWITCH_PASSES = """async () => {
  const painted = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
  const buttons = [...document.querySelectorAll('nav[aria-label="Passes"] button')];
  const start = Math.max(0, buttons.findIndex((b) => b.getAttribute('aria-current') === 'true'));
  const order = buttons.slice(start + 1).concat(buttons.slice(0, start + 1));
  const times = [];
  await painted();
  for (const button of order) {
    const t0 = performance.now();
    button.click();
    await painted();
    times.push(performance.now() - t0);
  }
  return times;
}"""


# Children run as an installed tool would: with cached bytecode (this sandbox sets
# PYTHONDONTWRITEBYTECODE, which would recompile every uncached module on every run). The .pyc
# files go to a prefix in the scratch directory, never into the working tree; set in main().
CHILD_ENV = dict(os.environ)


@dataclass
class Run:
    seconds: float
    rss_bytes: int
    cpu_s: float
    code: int
    stderr: str


@dataclass
class SizeResult:
    name: str
    runs: int
    dump: dict = field(default_factory=dict)
    figures: dict = field(default_factory=dict)
    samples: dict = field(default_factory=dict)
    notes: list = field(default_factory=list)


# ---------------------------------------------------------------- running the CLI


# Spawns the command from a small process and reports wait4()'s rusage. Linux carries the parent's
# memory high-water mark into a child across fork/vfork + exec, so spawning straight from this
# script (which reads 170 MB dumps and drives Chromium) would report our peak, not the CLI's.
LAUNCHER = """
import json, os, sys, time
started = time.perf_counter()
pid = os.posix_spawn(sys.argv[2], sys.argv[2:], os.environ)
_pid, status, usage = os.wait4(pid, 0)
seconds = time.perf_counter() - started
with open(sys.argv[1], "w") as out:
    json.dump({"seconds": seconds, "maxrss_kb": usage.ru_maxrss, "cpu_s": usage.ru_utime + usage.ru_stime,
               "code": os.waitstatus_to_exitcode(status)}, out)
"""


def run_cli(args: list[str], cwd: Path, profile: Path | None = None) -> Run:
    """One fresh `python -m ir_trace` process: wall time, and its own peak RSS and CPU from wait4()."""
    settle()
    prefix = [sys.executable, "-m", "cProfile", "-o", str(profile)] if profile else [sys.executable]
    with tempfile.TemporaryFile() as err, tempfile.NamedTemporaryFile("r", suffix=".json") as usage:
        subprocess.run(
            [sys.executable, "-c", LAUNCHER, usage.name, *prefix, "-m", "ir_trace", *args],
            cwd=cwd,
            env=CHILD_ENV,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=err,
            check=False,
        )
        err.seek(0)
        stderr = err.read().decode("utf-8", "replace")
        measured = json.loads(usage.read() or "{}")
    if measured.get("code") != 0:
        raise SystemExit(f"bench: `python -m ir_trace {' '.join(args)}` failed ({measured}):\n{stderr}")
    return Run(measured["seconds"], measured["maxrss_kb"] * 1024, measured["cpu_s"], measured["code"], stderr)


def settle() -> None:
    """Before a timed run: flush dirty pages (our own input copies) so they are not written back
    inside it, then wait (up to --idle-wait seconds) for other processes to leave the CPUs alone."""
    os.sync()
    # After three runs in a row that found the machine busy, stop waiting: it stays busy.
    deadline = time.monotonic() + (IDLE["wait"] if IDLE["timeouts_in_a_row"] < 3 else 0)
    while True:
        busy = busy_cores()
        if busy is None or busy < IDLE["threshold"]:
            IDLE["timeouts_in_a_row"] = 0
            return
        if time.monotonic() >= deadline:
            IDLE["busy_starts"] += 1
            IDLE["timeouts_in_a_row"] += 1
            return
        time.sleep(0.3)


# seconds to wait, cores others may use, runs that started busy anyway
IDLE = {"wait": 3.0, "threshold": 0.9, "busy_starts": 0, "timeouts_in_a_row": 0}


def busy_cores(interval: float = 0.2) -> float | None:
    """Cores in use machine-wide over `interval` (from /proc/stat), None where it is unavailable."""

    def sample():
        with open("/proc/stat") as stat:
            fields = [int(x) for x in stat.readline().split()[1:]]
        return sum(fields[:8]), fields[3] + fields[4]  # total, idle + iowait

    try:
        total0, idle0 = sample()
        time.sleep(interval)
        total1, idle1 = sample()
    except (OSError, ValueError, IndexError):
        return None
    return (1 - (idle1 - idle0) / max(1, total1 - total0)) * (os.cpu_count() or 1)


def cli_args(dump: Path, report: Path, cache: Path, workers: int | None) -> list[str]:
    args = [str(dump), "-o", str(report), "--cache-dir", str(cache)]
    return args + (["--workers", str(workers)] if workers else [])


def rediffed(stderr: str) -> int | None:
    match = re.search(r"(\d+) pairs? rediffed", stderr)
    return int(match[1]) if match else None


def fresh(path: Path) -> Path:
    if path.is_dir():
        shutil.rmtree(path)
    elif path.exists():
        path.unlink()
    return path


# ---------------------------------------------------------------- inputs


def prepare_input(name: str, spec: list[str] | str, shared: Path, workdir: Path) -> Path:
    """The size's dump under workdir/<name>/passes_dump (the parent's name becomes the report title)."""
    dump = fresh(workdir / name / "passes_dump")
    dump.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(spec, str):
        source = shared / spec
        if not source.is_dir():
            raise SystemExit(f"bench: sample not found: {source} (use --shared)")
        shutil.copytree(source, dump)
    else:
        subprocess.run([sys.executable, str(GEN_DUMP), str(dump), *spec], check=True)
    return dump


def snapshots_of(dump: Path) -> list[Path]:
    """Snapshot files in numeric (execution) order."""
    return sorted(
        (p for p in dump.glob("*.py") if p.name.split("_", 1)[0].isdigit()), key=lambda p: int(p.name.split("_", 1)[0])
    )


def dump_stats(dump: Path) -> dict:
    files = snapshots_of(dump)
    texts = [f.read_bytes() for f in files]
    distinct_pairs = {(a, b) for a, b in zip(texts, texts[1:]) if a != b}
    return {
        "passes": len(files) - 1,
        "lines_per_snapshot": round(statistics.mean(t.count(b"\n") for t in texts)),
        "total_lines": sum(t.count(b"\n") for t in texts),
        "bytes": sum(len(t) for t in texts),
        "distinct_pairs": len(distinct_pairs),
    }


def read_report_payload(html: str) -> tuple[dict, int] | None:
    """The report's payload and its size as embedded: plain JSON, or gzip+base64 JSON."""
    match = re.search(
        r'<script type="application/(json|octet-stream)" id="ir-trace-data"[^>]*>(.*?)</script>', html, re.S
    )
    if not match:
        return None
    try:
        text = match[2] if match[1] == "json" else gzip.decompress(base64.b64decode(match[2])).decode("utf-8")
        return json.loads(text), len(match[2].encode("utf-8"))
    except (ValueError, OSError, EOFError):
        return None


def payload_stats(report: Path) -> dict:
    """Changed-line totals read back from the report's payload (schema 1)."""
    found = read_report_payload(report.read_text(encoding="utf-8"))
    if found is None:
        return {}
    payload, embedded = found
    try:
        passes = payload["passes"][1:]
        return {
            "changed_lines": sum(p.get("inserted", 0) + p.get("deleted", 0) for p in passes),
            "hunks": sum(len(p.get("hunks", [])) for p in passes),
            "payload_bytes": embedded,
        }
    except (KeyError, TypeError, AttributeError):
        return {}


# ---------------------------------------------------------------- CLI figures


def measure_cli(result: SizeResult, dump: Path, workdir: Path, workers: int | None, log) -> Path:
    """Cold, warm, warm-with-render and incremental runs; returns the cold report's path."""
    runs, here = result.runs, workdir / result.name
    busy_before = IDLE["busy_starts"]
    cold_report = here / "cold.html"

    cold = []
    for i in range(runs):
        cache = fresh(here / f"cache-cold-{i}")
        fresh(cold_report)
        cold.append(run_cli(cli_args(dump, cold_report, cache, workers), here))
        shutil.rmtree(cache, ignore_errors=True)
    log(f"  cold       {_series(r.seconds for r in cold)}  rss {max(r.rss_bytes for r in cold) / 1e6:.0f} MB")

    warm_cache, warm_report = fresh(here / "cache-warm"), here / "warm.html"
    run_cli(cli_args(dump, warm_report, warm_cache, workers), here)  # prime
    warm = [run_cli(cli_args(dump, warm_report, warm_cache, workers), here) for _ in range(runs)]
    if any(rediffed(r.stderr) for r in warm):
        result.notes.append("warm rerun rediffed pairs: " + warm[-1].stderr.strip())
    log(f"  warm       {_series(r.seconds for r in warm)}")

    render_report, warm_render = here / "warm-render.html", []
    for _ in range(runs):  # warm cache, but the report is missing so it must be assembled again
        fresh(render_report)
        warm_render.append(run_cli(cli_args(dump, render_report, warm_cache, workers), here))
    log(f"  warm+render {_series(r.seconds for r in warm_render)}")

    incr_dump = here / "incremental" / "passes_dump"
    fresh(incr_dump.parent)
    shutil.copytree(dump, incr_dump)
    files = snapshots_of(incr_dump)
    middle = files[len(files) // 2]
    original = middle.read_bytes()
    incr_cache, incr_report = fresh(here / "cache-incr"), here / "incremental.html"
    run_cli(cli_args(incr_dump, incr_report, incr_cache, workers), here)  # prime with the unchanged dump
    incr, nonce = [], uuid.uuid4().hex[:8]
    for i in range(runs):  # a new comment each run, so every run has exactly one snapshot the cache never saw
        edit = f"# rewritten by benchmarks/bench.py (run {i}, {nonce})\n".encode()
        middle.write_bytes(original + (b"" if original.endswith(b"\n") else b"\n") + edit)
        incr.append(run_cli(cli_args(incr_dump, incr_report, incr_cache, workers), here))
    middle.write_bytes(original)
    log(
        f"  incremental {_series(r.seconds for r in incr)}  ({middle.name}; {rediffed(incr[-1].stderr)} pairs rediffed)"
    )
    result.samples["load_average"] = [round(x, 2) for x in os.getloadavg()]
    result.samples["busy_starts"] = IDLE["busy_starts"] - busy_before
    log(f"  load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")

    size = cold_report.stat().st_size
    result.figures.update(
        cold_s=_median(r.seconds for r in cold),
        warm_s=_median(r.seconds for r in warm),
        incr_s=_median(r.seconds for r in incr),
        report_bytes=size,
        rss_bytes=_median(r.rss_bytes for r in cold),
        warm_render_s=_median(r.seconds for r in warm_render),
        cold_cpu_s=_median(r.cpu_s for r in cold),
        warm_cpu_s=_median(r.cpu_s for r in warm),
        incr_cpu_s=_median(r.cpu_s for r in incr),
        incr_rediffed=rediffed(incr[-1].stderr),
    )
    result.samples.update(
        cold_s=[r.seconds for r in cold],
        warm_s=[r.seconds for r in warm],
        incr_s=[r.seconds for r in incr],
        warm_render_s=[r.seconds for r in warm_render],
        rss_bytes=[r.rss_bytes for r in cold + warm + incr],
        cold_summary=cold[-1].stderr.strip(),
        incr_summary=incr[-1].stderr.strip(),
        incr_snapshot=middle.name,
    )
    result.dump.update(payload_stats(cold_report))
    shutil.rmtree(incr_dump.parent, ignore_errors=True)
    return cold_report


# ---------------------------------------------------------------- browser figures


def measure_browser(reports: dict[str, Path], results: dict[str, SizeResult], log) -> str | None:
    """Open-to-first-painted-diff and pass-switch times per report; returns why it was skipped, if it was."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return "playwright is not installed (pip install playwright)"
    if not Path(CHROMIUM).exists():
        return f"{CHROMIUM} not found"
    with sync_playwright() as pw:
        browser = launch_chromium(pw)
        try:
            for name, report in reports.items():
                result = results[name]
                opens, switches, viewer_opens, errors = [], [], [], []
                for _ in range(result.runs):
                    settle()
                    context = browser.new_context(viewport=VIEWPORT)
                    page = context.new_page()
                    page.on("pageerror", lambda exc, errors=errors: errors.append(str(exc)))
                    page.add_init_script(FIRST_DIFF_OBSERVER)
                    page.goto(report.as_uri(), wait_until="commit")
                    first = page.evaluate(WAIT_FIRST_DIFF, 60_000)
                    if first is not None:
                        opens.append(first)
                        viewer_opens.append(page.evaluate("() => (window.__irTrace || {}).firstDiffPainted ?? null"))
                        switches += page.evaluate(SWITCH_PASSES)
                    context.close()
                if errors:
                    result.notes.append(f"page errors: {errors[:3]}")
                if not opens:
                    result.notes.append("no changed row (.row.ins/.row.del) ever appeared in the page")
                    continue
                result.figures.update(
                    open_ms=_median(opens),
                    switch_ms=_median(switches) if switches else None,
                    switch_p90_ms=_quantile(switches, 0.9),
                    switch_max_ms=max(switches, default=None),
                )
                result.samples.update(open_ms=opens, viewer_open_ms=viewer_opens, switch_count=len(switches))
                log(
                    f"  {name:7} open {_series(opens, 'ms')}  switch median {_median(switches):.1f} ms "
                    f"over {len(switches)} switches"
                )
        finally:
            browser.close()
    return None


# ---------------------------------------------------------------- Luigi overhead (in a child process)


def _timed_run(run, seconds: list[float], cpu: list[float]):
    """Wrap one of our tasks' run() so the time spent in its body (each step of a run() that yields
    dependencies included) is added to `seconds` (wall) and `cpu` (this process's CPU): what is left
    of the run's time is Luigi's. The CPU figure holds on a busy machine, where the wall one does not."""

    def step(advance):
        started, started_cpu = time.perf_counter(), time.process_time()
        try:
            return advance()
        finally:
            seconds.append(time.perf_counter() - started)
            cpu.append(time.process_time() - started_cpu)

    def steps(generator):
        sent = None
        while True:
            try:
                item = step(lambda sent=sent: generator.send(sent))
            except StopIteration as stop:
                return stop.value
            sent = yield item

    def timed(self):
        result = step(lambda: run(self))
        return steps(result) if inspect.isgenerator(result) else result

    return timed


def luigi_probe(dump: str, report: str, cache: str) -> None:
    """Child mode: one cold run through ir_trace.api.build with every task's run() timed."""
    import logging
    from collections import defaultdict

    t0 = time.perf_counter()
    import luigi

    import ir_trace.pipeline  # imported here so the run below measures no import
    from ir_trace import api
    from ir_trace.options import RunOptions

    imports = time.perf_counter() - t0
    for name in ("luigi", "luigi-interface", "luigi.scheduler"):
        logging.getLogger(name).setLevel(logging.CRITICAL + 1)
    logging.getLogger("ir_trace").setLevel(logging.ERROR)

    inside: dict[str, list[float]] = defaultdict(list)
    inside_cpu: list[float] = []
    reported: list[float] = []
    for task_class in (ir_trace.pipeline.ValidateDump, ir_trace.pipeline.WorkBatch, ir_trace.pipeline.RenderReport):
        task_class.run = _timed_run(task_class.run, inside[task_class.__name__], inside_cpu)
    luigi.Task.event_handler(luigi.Event.PROCESSING_TIME)(lambda _task, seconds: reported.append(seconds))
    built, built_cpu = [], []  # luigi.build itself: the part of the overhead that is Luigi's, not the CLI's
    build = luigi.build

    def timed_build(*args, **kwargs):
        begun, begun_cpu = time.perf_counter(), time.process_time()
        try:
            return build(*args, **kwargs)
        finally:
            built.append(time.perf_counter() - begun)
            built_cpu.append(time.process_time() - begun_cpu)

    luigi.build = timed_build
    started, started_cpu = time.perf_counter(), time.process_time()
    outcome = api.build(RunOptions.build(dump, report, context=3, workers=1), Path(cache))
    total, total_cpu = time.perf_counter() - started, time.process_time() - started_cpu
    luigi.build = build
    run_bodies = sum(sum(v) for v in inside.values())
    print(
        json.dumps(
            {
                "total_s": total,
                "run_bodies_s": run_bodies,
                "processing_time_event_s": sum(reported),
                "overhead_s": total - run_bodies,
                "overhead_cpu_s": total_cpu - sum(inside_cpu),
                "luigi_s": sum(built) - run_bodies,  # inside luigi.build, outside every run()
                "luigi_cpu_s": sum(built_cpu) - sum(inside_cpu),
                "process_cpu_s": time.process_time(),  # the whole process so far: start, imports, pipeline
                "import_s": imports,
                "rediffed": outcome.rediffed,
                "tasks": {k: {"steps": len(v), "seconds": sum(v)} for k, v in sorted(inside.items())},
            }
        )
    )


def measure_luigi(name: str, dump: Path, workdir: Path, runs: int, cold_s: float | None, log) -> dict:
    probes = []
    for i in range(runs):
        cache, report = fresh(workdir / name / f"cache-probe-{i}"), fresh(workdir / name / "probe.html")
        settle()
        started = time.perf_counter()
        out = subprocess.run(
            [sys.executable, __file__, "--_luigi-probe", str(dump), str(report), str(cache)],
            capture_output=True,
            text=True,
            cwd=workdir,
            env=CHILD_ENV,
        )
        shutil.rmtree(cache, ignore_errors=True)
        if out.returncode != 0:
            return {"error": (out.stderr.strip().splitlines() or ["?"])[-1]}
        probe = json.loads(out.stdout.strip().splitlines()[-1])
        probe["process_s"] = time.perf_counter() - started  # the whole child: start, imports, pipeline, exit
        probe["share"] = probe["overhead_s"] / probe["process_s"]
        probe["share_cpu"] = probe["overhead_cpu_s"] / probe["process_cpu_s"]
        probes.append(probe)
    middle = sorted(probes, key=lambda p: p["share"])[len(probes) // 2]  # the median run, kept whole
    summary = {
        "size": name,
        "runs": runs,
        "total_s": middle["total_s"],
        "run_bodies_s": middle["run_bodies_s"],
        "overhead_s": middle["overhead_s"],
        "import_s": middle["import_s"],
        "process_s": middle["process_s"],
        "overhead_of_cold": middle["share"],
        "cold_cli_s": cold_s,
        "tasks": middle["tasks"],
        "shares": [p["share"] for p in probes],
        "overhead_cpu_s": middle["overhead_cpu_s"],
        "process_cpu_s": middle["process_cpu_s"],
        "overhead_of_cold_cpu": middle["share_cpu"],
        "shares_cpu": [p["share_cpu"] for p in probes],
        "luigi_s": middle["luigi_s"],
        "luigi_cpu_s": middle["luigi_cpu_s"],
        "luigi_of_cold": middle["luigi_s"] / middle["process_s"],
        "luigi_of_cold_cpu": middle["luigi_cpu_s"] / middle["process_cpu_s"],
    }
    log(
        f"  {name}: cold process {middle['process_s']:.2f} s (imports {middle['import_s']:.2f} s, pipeline "
        f"{middle['total_s']:.2f} s of which inside task run() {middle['run_bodies_s']:.2f} s): "
        f"scheduling {middle['overhead_s']:.3f} s = {middle['share']:.1%} "
        f"[{' '.join(f'{p:.1%}' for p in summary['shares'])}]; CPU {middle['overhead_cpu_s']:.3f} s of "
        f"{middle['process_cpu_s']:.2f} s = {middle['share_cpu']:.1%} "
        f"[{' '.join(f'{p:.1%}' for p in summary['shares_cpu'])}]; of it inside luigi.build "
        f"{summary['luigi_s']:.3f} s = {summary['luigi_of_cold']:.1%} (CPU {summary['luigi_cpu_s']:.3f} s = "
        f"{summary['luigi_of_cold_cpu']:.1%}), the rest the command's own work around the build"
    )
    return summary


# ---------------------------------------------------------------- profiling


def profile(names: list[str], dumps: dict[str, Path], workdir: Path, out: Path, log) -> dict:
    """cProfile per size, --workers 1: cold (fresh cache), warm (nothing changed) and render (warm cache,
    report missing so it is assembled again)."""
    import pstats

    out.mkdir(parents=True, exist_ok=True)
    tops = {}
    for name in names:
        cache = fresh(workdir / name / "cache-profile")
        report = fresh(workdir / name / "profile.html")
        for kind in ("cold", "warm", "render"):
            if kind != "warm":
                fresh(report)
            stats_file = out / f"{name}-{kind}.prof"
            run = run_cli(cli_args(dumps[name], report, cache, 1), workdir, profile=stats_file)
            stats = pstats.Stats(str(stats_file))
            rows = []
            for (file, line, func), (_cc, calls, tottime, cumtime, _callers) in stats.stats.items():
                where = _short(file)
                rows.append(
                    {
                        "function": f"{where}:{line}({func})" if where else func,
                        "calls": calls,
                        "tottime": tottime,
                        "cumtime": cumtime,
                    }
                )
            tops[f"{name}-{kind}"] = {
                "wall_s": run.seconds,
                "profiled_s": stats.total_tt,
                "by_tottime": sorted(rows, key=lambda r: -r["tottime"])[:15],
                "by_cumtime": sorted(rows, key=lambda r: -r["cumtime"])[:25],
            }
            log(f"  {name}-{kind}: {run.seconds:.2f} s under cProfile -> {stats_file}")
        shutil.rmtree(cache, ignore_errors=True)
    return tops


def _short(file: str) -> str:
    if file == "~":  # a built-in
        return ""
    if "/ir_trace/" in file:
        return "ir_trace/" + file.rsplit("/ir_trace/", 1)[1]
    if "/site-packages/" in file:
        return file.rsplit("/site-packages/", 1)[1]
    return re.sub(r"^.*/lib/python3\.\d+/", "", file)


# ---------------------------------------------------------------- reporting


def _median(values) -> float | None:
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def _quantile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _series(values, unit: str = "s") -> str:
    values = list(values)
    digits = 2 if unit == "s" else 0
    shown = " ".join(f"{v:.{digits}f}" for v in values)
    return f"median {_median(values):.{digits}f} {unit} [{shown}]"


def fmt(value, unit: str) -> str:
    if value is None:
        return "n/a"
    if unit == "s":
        return f"{value:.2f} s"
    if unit == "ms":
        return f"{value:.0f} ms" if value >= 10 else f"{value:.1f} ms"
    if unit == "bytes":
        if value < 1e6:
            return f"{value / 1e3:.0f} KB"
        return f"{value / 1e6:.2f} MB" if value < 10e6 else f"{value / 1e6:.0f} MB"
    return f"{value:,}" if isinstance(value, int) else f"{value:.0f}"


def verdict(key: str, size: str, value) -> str:
    limit = TARGETS.get(key, {}).get(size)
    if limit is None:
        return ""
    unit = next(u for k, _l, u in FIGURES if k == key)
    shown = (
        f"{limit / 1e6:g} MB"
        if unit == "bytes" and limit >= 1e6
        else f"{limit / 1e3:g} KB"
        if unit == "bytes"
        else f"{limit:g} {unit}"
    )
    if value is None:
        return f" (≤ {shown}: n/a)"
    return f" (≤ {shown} {'PASS' if value <= limit else 'FAIL'})"


def print_tables(results: dict[str, SizeResult], luigi: dict | None, out) -> None:
    names = list(results)
    print("\n| figure | " + " | ".join(names) + " |", file=out)
    print("|---|" + "---|" * len(names), file=out)
    for key, label, unit in FIGURES + INFO:
        cells = []
        for n in names:
            value = results[n].figures.get(key)
            cells.append(fmt(value, unit) + verdict(key, n, value))
        print(f"| {label} | " + " | ".join(cells) + " |", file=out)
    print("| runs per figure | " + " | ".join(str(results[n].runs) for n in names) + " |", file=out)
    print(
        "| load average after the CLI runs | "
        + " | ".join(" ".join(f"{x:.1f}" for x in results[n].samples.get("load_average", [])) for n in names)
        + " |",
        file=out,
    )
    print(
        "| CLI runs started while other processes were busy | "
        + " | ".join(str(results[n].samples.get("busy_starts", "n/a")) for n in names)
        + " |",
        file=out,
    )

    print("\n| input | " + " | ".join(names) + " |", file=out)
    print("|---|" + "---|" * len(names), file=out)
    for key, label in (
        ("passes", "passes"),
        ("lines_per_snapshot", "lines per snapshot"),
        ("total_lines", "lines in all snapshots"),
        ("bytes", "dump size"),
        ("distinct_pairs", "distinct changed pairs"),
        ("changed_lines", "changed lines (ins+del)"),
        ("hunks", "hunks"),
    ):
        cells = [results[n].dump.get(key) for n in names]
        cells = [
            fmt(c, "bytes") if key == "bytes" and c is not None else "n/a" if c is None else f"{c:,}" for c in cells
        ]
        print(f"| {label} | " + " | ".join(cells) + " |", file=out)

    steps = [(a, b) for a, b in (("medium", "large"), ("large", "huge")) if a in results and b in results]
    if steps:
        print("\nScaling (ratio of medians; compare with the input ratios at the bottom):\n", file=out)
        print("| figure | " + " | ".join(f"{b} / {a}" for a, b in steps) + " |", file=out)
        print("|---|" + "---|" * len(steps), file=out)
        rows = [(label, lambda r, k=key: r.figures.get(k)) for key, label, _u in FIGURES + INFO[:2]]
        rows += [
            (f"input: {label}", lambda r, k=key: r.dump.get(k))
            for key, label in (
                ("total_lines", "lines in all snapshots (passes × lines)"),
                ("changed_lines", "changed lines (ins+del)"),
                ("distinct_pairs", "changed pairs"),
            )
        ]
        for label, get in rows:
            ratios = []
            for a, b in steps:
                va, vb = get(results[a]), get(results[b])
                ratios.append(f"{vb / va:.2f}×" if va and vb else "n/a")
            print(f"| {label} | " + " | ".join(ratios) + " |", file=out)

    if luigi:
        print("", file=out)
        if "error" in luigi:
            print(f"Luigi overhead: not measured ({luigi['error']})", file=out)
        else:
            share = luigi["overhead_of_cold"]
            target = (
                f" (target ≤ {LUIGI_OVERHEAD_TARGET:.0%} on large: "
                f"{'PASS' if share <= LUIGI_OVERHEAD_TARGET else 'FAIL'})"
                if luigi["size"] == "large"
                else " (the target applies to large)"
            )
            print(
                f"Luigi scheduling overhead, cold {luigi['size']} run (median of {luigi['runs']}, --workers 1): "
                f"{luigi['overhead_s']:.3f} s = pipeline {luigi['total_s']:.2f} s − inside task run() "
                f"{luigi['run_bodies_s']:.2f} s; {share:.1%} of that cold process ({luigi['process_s']:.2f} s)"
                f"{target}. Importing luigi + ir_trace.pipeline costs a further {luigi['import_s']:.2f} s "
                "per process (not counted above).",
                file=out,
            )
            tasks = ", ".join(f"{k} {v['steps']} steps {v['seconds']:.2f} s" for k, v in luigi["tasks"].items())
            print(f"Inside run() by task: {tasks}", file=out)
    for name, result in results.items():
        for note in result.notes:
            print(f"note ({name}): {note}", file=out)


# ---------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="medium + real, 3 runs (about a minute)")
    parser.add_argument("--sizes", help=f"comma-separated subset of {','.join(SIZES)} (default: all)")
    parser.add_argument(
        "--runs", type=int, help=f"runs per figure (default 5, --quick 3; huge at most {HUGE_MAX_RUNS})"
    )
    parser.add_argument("--scratch", type=Path, help="work directory (default: a new one under /tmp, removed after)")
    parser.add_argument(
        "--shared",
        type=Path,
        default=DEFAULT_SHARED,
        help=f"where the real samples/ are (default: {DEFAULT_SHARED})",
    )
    parser.add_argument("--workers", type=int, help="pass --workers N to the CLI (default: the CLI's default)")
    parser.add_argument(
        "--idle-wait",
        type=float,
        default=IDLE["wait"],
        metavar="S",
        help="before each timed run, wait up to S seconds for other processes to go idle "
        f"(default {IDLE['wait']:g}; 0 disables)",
    )
    parser.add_argument("--no-browser", action="store_true", help="skip the Playwright figures")
    parser.add_argument("--no-luigi", action="store_true", help="skip the Luigi overhead measurement")
    parser.add_argument(
        "--profile",
        type=Path,
        metavar="DIR",
        help="also cProfile cold, warm and re-render runs of large and real into DIR",
    )
    parser.add_argument("--json", type=Path, metavar="PATH", help="write every figure and sample as JSON")
    parser.add_argument("--_luigi-probe", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args._luigi_probe:
        luigi_probe(*args._luigi_probe)
        return 0

    names = args.sizes.split(",") if args.sizes else (["medium", "real"] if args.quick else DEFAULT_SIZES)
    unknown = [n for n in names if n not in SIZES]
    if unknown:
        parser.error(f"unknown size(s) {unknown}; choose from {','.join(SIZES)}")
    runs = args.runs or (3 if args.quick else 5)
    IDLE["wait"] = max(0.0, args.idle_wait)
    workdir = (args.scratch or Path(tempfile.mkdtemp(prefix="ir-trace-bench-"))).absolute()
    workdir.mkdir(parents=True, exist_ok=True)
    CHILD_ENV.pop("PYTHONDONTWRITEBYTECODE", None)
    CHILD_ENV["PYTHONPYCACHEPREFIX"] = str(workdir / "pycache")

    def log(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    started = time.perf_counter()
    log(f"scratch {workdir}; load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
    try:
        results = {n: SizeResult(n, min(runs, HUGE_MAX_RUNS) if n == "huge" else runs) for n in names}
        dumps = {}
        for name in names:
            dumps[name] = prepare_input(name, SIZES[name], args.shared, workdir)
            results[name].dump.update(dump_stats(dumps[name]))
        warmup = fresh(workdir / "warmup-cache")  # compile .pyc files and warm imports before timing anything
        run_cli(cli_args(dumps[names[0]], workdir / "warmup.html", warmup, args.workers), workdir)
        shutil.rmtree(warmup, ignore_errors=True)

        reports = {}
        for name in names:
            log(
                f"{name}: {results[name].dump['passes']} passes × ~{results[name].dump['lines_per_snapshot']} lines, "
                f"{results[name].runs} runs"
            )
            reports[name] = measure_cli(results[name], dumps[name], workdir, args.workers, log)

        browser_skipped = "--no-browser" if args.no_browser else None
        if not args.no_browser:
            log("browser (Chromium via Playwright):")
            browser_skipped = measure_browser(reports, results, log)
            if browser_skipped:
                log(f"  skipped: {browser_skipped}")

        luigi = None
        if not args.no_luigi:
            synthetic = [n for n in ("large", "huge", "medium", "thousand") if n in names]
            probe_size = "large" if "large" in names else (synthetic[-1] if synthetic else names[0])
            log("Luigi scheduling overhead (in-process, cold, --workers 1):")
            luigi = measure_luigi(
                probe_size, dumps[probe_size], workdir, 3, results[probe_size].figures.get("cold_s"), log
            )

        profiles = None
        if args.profile:
            chosen = [n for n in ("large", "real") if n in names] or names
            log(f"profiling {', '.join(chosen)} (cProfile, --workers 1):")
            profiles = profile(chosen, dumps, workdir, args.profile, log)

        elapsed = time.perf_counter() - started
        command = " ".join(["python benchmarks/bench.py", *(argv if argv is not None else sys.argv[1:])])
        print(
            f"\npypto-ir-trace benchmarks · {time.strftime('%Y-%m-%d %H:%M')} · {os.cpu_count()} cores · "
            f"Python {platform.python_version()} · `{command}` · {elapsed:.0f} s",
            flush=True,
        )
        print_tables(results, luigi, sys.stdout)
        if browser_skipped:
            print(f"browser figures skipped: {browser_skipped}")
        if profiles:
            for key, top in profiles.items():
                print(f"\ncProfile {key}: {top['wall_s']:.2f} s wall under the profiler; top by own time:")
                for row in top["by_tottime"][:10]:
                    print(
                        f"  {row['tottime']:7.3f} s own {row['cumtime']:7.3f} s cum {row['calls']:>9} "
                        f"calls  {row['function']}"
                    )
        if args.json:
            args.json.write_text(
                json.dumps(
                    {
                        "date": time.strftime("%Y-%m-%d %H:%M"),
                        "cores": os.cpu_count(),
                        "elapsed_s": elapsed,
                        "targets": TARGETS,
                        "results": {n: asdict(r) for n, r in results.items()},
                        "luigi": luigi,
                        "profiles": profiles,
                    },
                    indent=1,
                )
            )
    finally:
        if args.scratch is None:
            shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

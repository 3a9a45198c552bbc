#!/usr/bin/env python3
"""How the report page grows with the pass count (issue 26): open to first painted diff and JS heap.

    python benchmarks/page_curve.py                                  # 1k,2k,5k,10k,20k,50k; 3 loads each
    python benchmarks/page_curve.py --passes 1000,5000 --runs 3 --scratch /tmp/page-curve

Each point is a report of pass_curve.py's tiny passes (two in five are no-ops), rendered once by the
real command, then opened `--runs` times in headless Chromium at 1280x800 by browser_bench.py (a fresh
page each time). Prints the medians as a Markdown table, with every load's figure beside them.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench  # noqa: E402
import browser_bench  # noqa: E402
from pass_curve import NOOP_EVERY  # noqa: E402

TARGETS_MS = {5000: 1000, 20000: 2000}  # issue 26, on a quiet machine


def write_tiny_dump(dump: Path, passes: int) -> Path:
    """pass_curve.py's tiny passes, each snapshot made from the one before: its writer replays every
    edit for each snapshot, which takes many minutes at 50,000 passes."""
    dump.mkdir(parents=True, exist_ok=True)
    body = [f"    t{i} = pl.add(t{i - 1 if i else 'a'}, {i})" for i in range(8)]

    def text() -> str:
        return "@pl.program\nclass Program:\n  def main(self, a):\n" + "\n".join(body) + "\n    return t7\n"

    (dump / "00_frontend.py").write_text(text(), encoding="utf-8")
    for step in range(1, passes + 1):
        if step % 5 not in NOOP_EVERY:
            line = step % 8
            body[line] = f"    t{line} = pl.add(t{line - 1 if line else 'a'}, {step})  # pass {step}"
        (dump / f"{step:02d}_after_Pass{step}.py").write_text(text(), encoding="utf-8")
    return dump


def render(count: int, workdir: Path) -> Path:
    here = bench.fresh(workdir / f"tiny{count}")
    dump = write_tiny_dump(here / "passes_dump", count)
    report = here / "report.html"
    run = bench.run_cli(bench.cli_args(dump, report, bench.fresh(here / "cache"), None), here)
    print(f"{count:>6} passes: rendered in {run.seconds:.1f} s", file=sys.stderr)
    return report


def load_report(report: Path, runs: int) -> dict:
    from playwright.sync_api import sync_playwright

    firsts, heaps = [], []
    with sync_playwright() as playwright:
        browser = browser_bench.launch_chromium(playwright)
        for _ in range(runs):
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.goto(report.resolve().as_uri())
            page.wait_for_function(
                "() => window.__irTrace && window.__irTrace.firstDiffPainted !== null", timeout=600_000
            )
            firsts.append(page.evaluate("window.__irTrace.firstDiffPainted"))
            heaps.append(browser_bench.js_heap_mb(page))
            page.close()
        browser.close()
    return {"first_ms": firsts, "heap_mb": heaps, "size_mb": report.stat().st_size / 1e6}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--passes", default="1000,2000,5000,10000,20000,50000", help="comma-separated pass counts")
    parser.add_argument("--runs", type=int, default=3, help="page loads per count (median reported)")
    parser.add_argument("--scratch", type=Path, help="work directory (default: a new one under /tmp, removed after)")
    args = parser.parse_args(argv)
    workdir = (args.scratch or Path(tempfile.mkdtemp(prefix="ir-trace-page-"))).absolute()
    rows = []
    try:
        for count in (int(n) for n in args.passes.split(",")):
            figures = load_report(render(count, workdir), args.runs)
            rows.append((count, figures))
            print(f"{count:>6} passes: first diff {figures['first_ms']} ms", file=sys.stderr)
    finally:
        if args.scratch is None:
            shutil.rmtree(workdir, ignore_errors=True)
    print(f"\nOpen to first painted diff, 1280x800 (median of {args.runs}; load average {os.getloadavg()[0]:.2f}):\n")
    print("| passes | report | first diff | every load | JS heap | heap per pass | target |")
    print("|---|---|---|---|---|---|---|")
    for count, f in rows:
        first, heap = statistics.median(f["first_ms"]), statistics.median(f["heap_mb"])
        target = TARGETS_MS.get(count)
        verdict = f"<= {target} ms: {'met' if first <= target else 'missed'}" if target else ""
        loads = ", ".join(f"{ms:.0f}" for ms in f["first_ms"])
        print(
            f"| {count:,} | {f['size_mb']:.1f} MB | {first:.0f} ms | {loads} | {heap:.1f} MB "
            f"| {1e6 * heap / count / 1024:.1f} KiB | {verdict} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

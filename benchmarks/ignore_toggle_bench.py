#!/usr/bin/env python3
"""Time toggling an ignore mode in a report, in headless Chromium (1280×800).

    python benchmarks/ignore_toggle_bench.py REPORT.html [--mode "Ignore SSA versions"] [--toggles 6]

Each toggle is a click on the mode's checkbox (on, then off, ...; the figures are the clicks turning
it on). The viewer records, from the
change to (performance.now(), window.__irTrace):
  ignores[]         the current pass's diff painted under the new modes
  ignoresSettled[]  every sidebar entry counted and repainted, and the overview, marks and filters
and `model.timings.recounts`, the entries it had to recount in the page (a report carrying the
counts, see ir_trace/report/ignore_counts.py, recounts none for the sets it carries). Prints medians.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))  # the shared Chromium set-up (tests/harness.py)
from harness import launch_chromium  # noqa: E402

SETTLED = "(n) => window.__irTrace.ignoresSettled.length > n"


def measure(page, report: Path, mode: str, toggles: int) -> dict:
    page.goto(report.resolve().as_uri())
    page.wait_for_function("() => window.__irTrace && window.__irTrace.firstDiffPainted !== null", timeout=60_000)
    box = page.get_by_label(mode, exact=True)
    for i in range(toggles):
        box.click()
        page.wait_for_function(SETTLED, arg=i, timeout=120_000)
    return page.evaluate(
        "() => ({ painted: __irTrace.ignores, settled: __irTrace.ignoresSettled,"
        " recounts: __irTrace.model.timings.recounts })"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report", type=Path)
    parser.add_argument("--mode", default="Ignore SSA versions", help="the checkbox's label")
    parser.add_argument("--toggles", type=int, default=6, help="clicks per page load (default 6)")
    parser.add_argument("--runs", type=int, default=2, help="page loads (default 2)")
    args = parser.parse_args(argv)
    if not args.report.is_file():
        parser.error(f"no such report: {args.report}")

    from playwright.sync_api import sync_playwright

    painted, settled, recounts = [], [], []
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        for _ in range(args.runs):
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            result = measure(page, args.report, args.mode, args.toggles)
            page.close()
            painted += result["painted"][0::2]  # the clicks turning the mode on (off restores the exact counts)
            settled += result["settled"][0::2]
            recounts.append(result["recounts"] if result["recounts"] is not None else -1)
        browser.close()
    summary = {
        "report": str(args.report),
        "mode": args.mode,
        "toggles": len(settled),
        "painted_ms_median": round(statistics.median(painted), 1),
        "settled_ms_median": round(statistics.median(settled), 1),
        "settled_ms_max": round(max(settled), 1),
        "recounts_per_load": recounts,  # -1: a report from before the counter
    }
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())

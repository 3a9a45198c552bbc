#!/usr/bin/env python3
"""Count plain Tab presses from a fresh page load to each diff pane, per report kind.

    python benchmarks/tab_stops.py OUT_DIR [--samples /work/shared/samples]

Builds four reports (PyPTO, MLIR, a whole pipeline with its Trace select, run against run) into
OUT_DIR, opens each in headless Chromium at 1280x800 and 1920x1080 and presses Tab until the
Before and then the After pane is focused. Prints one line per report kind and viewport.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))  # the shared Chromium set-up (tests/harness.py)
from harness import launch_chromium  # noqa: E402

SIZES = ((1280, 800), (1920, 1080))
LIMIT = 60


def build(out_dir: Path, samples: Path) -> dict[str, Path]:
    qwen3 = samples / "real" / "qwen3_decode_explicit" / "passes_dump"
    concise = samples / "real" / "qwen3_decode_concise" / "passes_dump"
    mlir = samples / "mlir" / "a4_lowering_mliropt19_matmul_to_llvm" / "tree"
    program = out_dir / "prog"
    if not program.exists():
        shutil.copytree(qwen3, program / "passes_dump")
        shutil.copytree(mlir, program / "ptoas_passes" / "a4")
    jobs = {"pypto": [qwen3], "mlir": [mlir], "pipeline": [program], "against": [qwen3, "--against", concise]}
    reports = {}
    for kind, args in jobs.items():
        report = out_dir / f"{kind}.html"
        command = [sys.executable, "-m", "ir_trace", *map(str, args), "-o", str(report), "-q"]
        subprocess.run(command, check=True, cwd=REPO)
        reports[kind] = report
    return reports


def tabs_to(page, target: str) -> int:
    for count in range(1, LIMIT + 1):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.id") == target:
            return count
    return -1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out_dir", type=Path)
    parser.add_argument("--samples", type=Path, default=Path("/work/shared/samples"))
    args = parser.parse_args()
    args.out_dir.mkdir(parents=True, exist_ok=True)
    reports = build(args.out_dir, args.samples)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        for kind, report in reports.items():
            for width, height in SIZES:
                page = browser.new_page(viewport={"width": width, "height": height})
                page.goto(report.resolve().as_uri())
                page.wait_for_function("() => window.__irTrace && window.__irTrace.firstDiffPainted !== null")
                before = tabs_to(page, "scroll-before")
                after = before + tabs_to(page, "scroll-after")
                print(f"{kind:9} {width}x{height}: Before pane {before:3} Tabs, After pane {after:3} Tabs")
                page.close()
        browser.close()


if __name__ == "__main__":
    main()

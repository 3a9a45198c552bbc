#!/usr/bin/env python3
"""How much of each pass's changed text a reader sees without scrolling sideways.

    python benchmarks/visible_changes.py REPORT.html [--size 1280x800] [--layout side] [--json]

Opens every changed pass of a report in headless Chromium and counts, on the first screen of
each pane (the rows in sight when the pass opens), the emphasised ranges (runs of adjacent
`.row .em` elements) that start inside the pane's visible code area, those that lie wholly
inside it (a change longer than the pane cannot), those a fold could bring into sight at all
(the line's ranges up to it, a chip between each two, are no wider than the pane) and how many
of these do, the changed lines whose first range starts in sight, and the scroll offset the
pass opened at.
Prints counts per pass and shares overall; --json prints one JSON object instead.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))  # the shared Chromium set-up (tests/harness.py)
from harness import launch_chromium  # noqa: E402

# A function, not an expression: the report's CSP forbids the eval Playwright uses for strings.
COUNT_VISIBLE = """() => {
  let starts = 0, whole = 0, total = 0, left = 0, lines = 0, firsts = 0, reachable = 0, reachedStarts = 0;
  const chip = document.querySelector('.row button.chip.fold');
  const chipWidth = chip ? chip.getBoundingClientRect().width : 0;
  for (const s of document.querySelectorAll('.scroller')) {
    if (!s.offsetParent) continue;   // the Before pane in the Unified layout
    const box = s.getBoundingClientRect(), code = s.querySelector('.row:not(.fold) .code');
    if (!code) continue;
    const from = code.getBoundingClientRect().left + s.scrollLeft - 1, to = box.left + s.clientWidth + 1;
    const inSight = (r) => r.left >= from - s.scrollLeft && r.right <= to;
    left = Math.max(left, s.scrollLeft);
    for (const row of s.querySelectorAll('.row')) {
      const r = row.getBoundingClientRect();
      if (r.top < box.top || r.bottom > box.top + s.clientHeight) continue;   // not on the first screen
      // A range: adjacent .em elements (colouring splits one range into several).
      // `need`: the width the line's ranges so far take with nothing between them but a chip each;
      // past the pane's width no fold can bring a range into sight (emphasis is never folded).
      let run = null, first = true, need = -chipWidth;
      const close = () => {
        if (!run) return;
        total++; starts += run.start; whole += run.whole;
        need += chipWidth + run.width;
        if (need <= to - from - s.scrollLeft) { reachable++; reachedStarts += run.start; }
        if (first) { lines++; firsts += run.start; first = false; }
        run = null;
      };
      for (const node of row.querySelectorAll('.code > *, .code > text')) {
        if (!node.classList.contains('em')) { close(); continue; }
        const rect = node.getBoundingClientRect(), inside = inSight(rect);
        if (!run || node.previousSibling !== run.last) { close(); run = { start: inside ? 1 : 0, whole: 1, width: 0 }; }
        if (!inside) run.whole = 0;
        run.width += rect.width;
        run.last = node;
      }
      close();
    }
  }
  return { starts, whole, total, left, lines, firsts, reachable, reachedStarts };
}"""


def measure(page, report: Path, layout: str) -> list[dict]:
    page.goto(f"{report.resolve().as_uri()}#layout={layout}")
    page.wait_for_function("() => window.__irTrace && window.__irTrace.firstDiffPainted !== null", timeout=60_000)
    # The sidebar's entries that changed something, in every trace: [k, label].
    passes = page.evaluate(
        "() => [...document.querySelectorAll('.pass-btn:not(.noop)')]"
        ".map((b) => [b.dataset.k, b.innerText.replace(/\\s+/g, ' ')])"
    )
    results = []
    for k, label in passes:
        page.evaluate(f"() => document.querySelector('.pass-btn[data-k=\"{k}\"]').click()")
        page.wait_for_function(
            f"() => document.querySelector('.pass-btn[aria-current=\"true\"]')?.dataset.k === '{k}'", timeout=60_000
        )
        page.wait_for_timeout(100)
        counts = page.evaluate(COUNT_VISIBLE)
        results.append({"pass": label, **counts})
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report", type=Path)
    parser.add_argument("--size", default="1280x800", help="viewport WIDTHxHEIGHT (default 1280x800)")
    parser.add_argument("--layout", default="side", choices=["side", "stacked", "unified"])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if not args.report.is_file():
        parser.error(f"no such report: {args.report}")
    width, height = (int(x) for x in args.size.split("x"))

    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        page = browser.new_page(viewport={"width": width, "height": height})
        results = measure(page, args.report, args.layout)
        browser.close()
    starts = sum(r["starts"] for r in results)
    whole = sum(r["whole"] for r in results)
    total = sum(r["total"] for r in results)
    lines = sum(r["lines"] for r in results)
    firsts = sum(r["firsts"] for r in results)
    reachable = sum(r["reachable"] for r in results)
    reached = sum(r["reachedStarts"] for r in results)
    summary = {
        "report": str(args.report),
        "size": args.size,
        "layout": args.layout,
        "total": total,
        "start_share": starts / total if total else 1.0,
        "whole_share": whole / total if total else 1.0,
        "reachable": reachable,
        "reachable_share": reached / reachable if reachable else 1.0,
        "lines": lines,
        "first_share": firsts / lines if lines else 1.0,
        "opened_sideways": sum(1 for r in results if r["left"] > 0),
        "passes": results,
    }
    if args.json:
        print(json.dumps(summary))
        return 0
    for r in results:
        counts = f"{r['starts']:>4} start, {r['whole']:>4} whole of {r['total']:<4}"
        print(f"{r['pass'][:40]:<40} {counts} scrollLeft {r['left']}")
    print(
        f"{args.report.name} {args.size} {args.layout}: of {total} emphasised ranges on first screens, "
        f"{summary['start_share']:.1%} start in sight, {summary['whole_share']:.1%} wholly in sight; "
        f"of the {reachable} a fold can bring into sight, {summary['reachable_share']:.1%} start in sight; "
        f"of {lines} changed lines, {summary['first_share']:.1%} show their first change; "
        f"{summary['opened_sideways']} passes opened sideways"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

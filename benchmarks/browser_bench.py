#!/usr/bin/env python3
"""Time a report in headless Chromium: open to first painted diff, pass switch, Expand all.

    python benchmarks/browser_bench.py REPORT.html [--runs 3] [--switches 30] [--json]
    python benchmarks/browser_bench.py REPORT.html... --every-pass [--spacing 0.5] [--json]

The viewer records its own timings in `window.__irTrace` (performance.now() once the DOM it
just built has been painted: a requestAnimationFrame followed by a task):
  firstDiffPainted  ms from navigation start to the first painted diff
  switches[]        ms from handling `j` to the new pass's diff being painted (also timed: `j`
                    from the pass listed before the largest one into it)
  expands[]         ms from clicking `Expand all` to the expanded rows being painted (none when the
                    largest pass folds nothing: the button is disabled then)
and the JS heap in use after opening (DevTools protocol, after a garbage collection). 1280x800.
Prints medians; --json prints one JSON object instead.

--every-pass walks each report from its first pass to its last with `j`, one press every
--spacing seconds (no press queues behind another), and times each press from the key event to
the new pass painted (the viewer's own afterPaint, so the frame that held the press back counts):
p50, p90 and max per report, and the press into the pass with the most changed lines.
--against OLD.html... (one per report) walks each old report beside its new one, each in its own
browser, pressed in turn: the way to compare two versions of the viewer on a machine whose load
changes from minute to minute.
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


def measure(page, report: Path, switches: int) -> dict:
    page.goto(report.resolve().as_uri())
    page.wait_for_function("() => window.__irTrace && window.__irTrace.firstDiffPainted !== null", timeout=60_000)
    first = page.evaluate("window.__irTrace.firstDiffPainted")
    heap = js_heap_mb(page)
    page.locator("body").click(position={"x": 2, "y": 2})  # focus the page, not a field
    remaining = page.evaluate(
        "window.__irTrace.model.lastEntry - Number(document.querySelector('.pass-btn[aria-current]').dataset.k)"
    )
    for i in range(min(switches, remaining)):
        page.keyboard.press("j")
        page.wait_for_function("(n) => window.__irTrace.switches.length > n", arg=i, timeout=60_000)
    switch_times = page.evaluate("window.__irTrace.switches")
    into_largest = largest_pass_switch(page)
    expand = largest_pass_expand(page)
    return {
        "first_diff_ms": first,
        "heap_mb": heap,
        "switch_ms": switch_times,
        "largest_switch_ms": into_largest,
        "expand_all_ms": expand,
    }


def js_heap_mb(page) -> float:
    """The page's JS heap in use after a garbage collection (Chromium's DevTools protocol), in MB."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("HeapProfiler.collectGarbage")
    used = cdp.send("Runtime.getHeapUsage")["usedSize"]
    cdp.detach()
    return round(used / 1e6, 1)


def largest_pass(page) -> int:
    """The entry with the most changed lines (entries of every trace of the report)."""
    return page.evaluate(
        """() => { const es = window.__irTrace.model.entries, size = (e) => (e ? e.inserted + e.deleted : -1);
                   let best = window.__irTrace.model.firstEntry;
                   for (let k = best; k < es.length; k++) if (size(es[k]) > size(es[best])) best = k;
                   return best; }"""
    )


def largest_pass_switch(page) -> float | None:
    """Select the pass listed before the largest one, then time `j` into the largest."""
    k = largest_pass(page)
    if k <= page.evaluate("window.__irTrace.model.firstEntry"):
        return None
    # The pass list draws only the rows in sight: the viewer's own hook selects a pass anywhere.
    page.evaluate("(k) => window.__irTrace.select(k)", k - 1)
    page.locator("body").click(position={"x": 2, "y": 2})
    done = page.evaluate("window.__irTrace.switches.length")
    page.keyboard.press("j")
    page.wait_for_function("(n) => window.__irTrace.switches.length > n", arg=done, timeout=60_000)
    return page.evaluate("window.__irTrace.switches[window.__irTrace.switches.length - 1]")


def largest_pass_expand(page) -> float | None:
    """Select the pass with the most changed lines, then time `Expand all` on it (None: it folds nothing)."""
    page.evaluate("(k) => window.__irTrace.select(k)", largest_pass(page))
    button = page.get_by_role("button", name="Expand all")
    # A pass of tiny snapshots folds nothing: the button is disabled, and a click on it waited until
    # the time-out (the Expand-all step of the 5,000-pass runs).
    if button.is_disabled():
        return None
    button.click()
    page.wait_for_function("() => window.__irTrace.expands.length > 0", timeout=60_000)
    return page.evaluate("window.__irTrace.expands[0]")


# Each `j`: from the keydown event (its timeStamp, on performance.now()'s clock) to the moment the viewer
# records the switch as painted (trace.switches.push, in its afterPaint callback).
PRESS_CLOCK = """() => {
  const bench = (window.__bench = { down: null, done: [] });
  document.addEventListener('keydown', (event) => { if (event.key === 'j') bench.down = event.timeStamp; }, true);
  const switches = window.__irTrace.switches, push = switches.push;
  switches.push = function (...times) {
    const shown = document.querySelector('.pass-btn[aria-current="true"]');
    if (bench.down !== null) bench.done.push([performance.now() - bench.down, shown ? Number(shown.dataset.k) : -1]);
    bench.down = null;
    return push.apply(this, times);
  };
}"""


# The entry `j` would open next, if any: the sidebar's rows after the current one that name a pass.
NEXT_PASS_SHOWN = """() => {
  const rows = [...document.querySelectorAll('#pass-list .pass-btn[data-k]')];
  const at = rows.findIndex((b) => b.getAttribute('aria-current') === 'true');
  return at >= 0 && at + 1 < rows.length ? Number(rows[at + 1].dataset.k) : null;
}"""


def open_first_pass(page, report: Path) -> None:
    """Open a report on its first entry, the page focused, each `j` from then on timed (PRESS_CLOCK)."""
    page.goto(report.resolve().as_uri())
    page.wait_for_function("() => window.__irTrace && window.__irTrace.firstDiffPainted !== null", timeout=120_000)
    first = page.evaluate("window.__irTrace.model.firstEntry")
    page.locator(f'.pass-btn[data-k="{first}"]').click()
    page.locator("body").click(position={"x": 2, "y": 2})  # focus the page, not a field
    page.evaluate(PRESS_CLOCK)


def press_next(page, spacing: float) -> bool:
    """`j` into the next pass, waiting until it is painted and `spacing` s more; False at the last row."""
    if page.evaluate(NEXT_PASS_SHOWN) is None:  # the last row (folded no-op runs are stepped over)
        return False
    done = page.evaluate("window.__bench.done.length")
    page.keyboard.press("j")
    page.wait_for_function("(n) => window.__bench.done.length > n", arg=done, timeout=120_000)
    page.wait_for_timeout(spacing * 1000)
    return True


def press_times(page, report: Path, largest: int) -> dict:
    """The presses' latencies so far: p50, p90, max and the press into the entry `largest`."""
    done = page.evaluate("window.__bench.done")
    times = [t for t, _k in done]
    into_largest = [t for t, k in done if k == largest]
    return {
        "report": str(report),
        "presses": len(times),
        "p50_ms": round(percentile(times, 50), 1),
        "p90_ms": round(percentile(times, 90), 1),
        "max_ms": round(max(times), 1),
        "largest_ms": round(into_largest[0], 1) if into_largest else None,
        "largest_pass": page.evaluate("(k) => window.__irTrace.model.entries[k].name", largest),
    }


def every_pass(page, report: Path, spacing: float) -> dict:
    """`j` from the first entry to the last, one press per `spacing` s: each press's latency."""
    open_first_pass(page, report)
    while press_next(page, spacing):
        pass
    return press_times(page, report, largest_pass(page))


def every_pass_against(pages: tuple, reports: tuple[Path, Path], spacing: float) -> tuple[dict, dict]:
    """`j` through two reports of the same dump (old, new), each in its own browser, pressed in turn
    (old then new, then new then old, ...): both see the same moments of a shared, noisy machine."""
    for page, report in zip(pages, reports):
        open_first_pass(page, report)
    turn = 0
    while all([press_next(page, spacing) for page in (pages if turn % 2 == 0 else pages[::-1])]):
        turn += 1
    return tuple(press_times(page, report, largest_pass(page)) for page, report in zip(pages, reports))


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile, nearest rank."""
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(q / 100 * len(ordered) + 0.5) - 1))]


def print_presses(r: dict, as_json: bool, label: str = "") -> None:
    if as_json:
        print(json.dumps({**r, "label": label} if label else r), flush=True)
        return
    print(
        f"{label}{Path(r['report']).name:32} {r['presses']:4} presses  p50 {r['p50_ms']:6} ms  p90 {r['p90_ms']:6} ms"
        f"  max {r['max_ms']:6} ms  into the largest ({r['largest_pass']}) {r['largest_ms']} ms",
        flush=True,
    )


def main_every_pass(reports: list[Path], spacing: float, as_json: bool, against: list[Path] | None) -> int:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browsers = [launch_chromium(playwright) for _ in range(2 if against else 1)]
        for i, report in enumerate(reports):
            pages = tuple(b.new_page(viewport={"width": 1280, "height": 800}) for b in browsers)
            if against:
                old, new = every_pass_against(pages, (against[i], report), spacing)
                print_presses(old, as_json, "old ")
                print_presses(new, as_json, "new ")
            else:
                print_presses(every_pass(pages[0], report, spacing), as_json)
            for page in pages:
                page.close()
        for browser in browsers:
            browser.close()
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report", type=Path, nargs="+")
    parser.add_argument("--runs", type=int, default=3, help="page loads (default 3)")
    parser.add_argument("--switches", type=int, default=30, help="j presses per load (default 30)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--every-pass", action="store_true", help="j through every pass, timed per press")
    parser.add_argument("--spacing", type=float, default=0.5, help="s between presses (default 0.5)")
    parser.add_argument("--against", type=Path, nargs="+", help="with --every-pass: old reports, one per report")
    args = parser.parse_args(argv)
    missing = [str(path) for path in args.report + (args.against or []) if not path.is_file()]
    if missing:
        parser.error(f"no such report: {missing[0]}")
    if args.against and (not args.every_pass or len(args.against) != len(args.report)):
        parser.error("--against needs --every-pass and one old report per report")
    if args.every_pass:
        return main_every_pass(args.report, args.spacing, args.json, args.against)
    if len(args.report) > 1:
        parser.error("several reports need --every-pass")
    args.report = args.report[0]

    from playwright.sync_api import sync_playwright

    firsts, switches, expands, largest, heaps = [], [], [], [], []
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        for _ in range(args.runs):
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            result = measure(page, args.report, args.switches)
            page.close()
            firsts.append(result["first_diff_ms"])
            heaps.append(result["heap_mb"])
            switches += result["switch_ms"]
            if result["expand_all_ms"] is not None:
                expands.append(result["expand_all_ms"])
            if result["largest_switch_ms"] is not None:
                largest.append(result["largest_switch_ms"])
        browser.close()

    summary = {
        "report": str(args.report),
        "size_mb": round(args.report.stat().st_size / 1e6, 2),
        "first_diff_ms_median": round(statistics.median(firsts), 1),
        "first_diff_ms_runs": firsts,
        "heap_mb_median": statistics.median(heaps),
        "switch_ms_median": round(statistics.median(switches), 1) if switches else None,
        "switch_ms_max": round(max(switches), 1) if switches else None,
        "switch_count": len(switches),
        "expand_all_ms_median": round(statistics.median(expands), 1) if expands else None,
        "largest_switch_ms_median": round(statistics.median(largest), 1) if largest else None,
    }
    if args.json:
        print(json.dumps(summary))
    else:
        print(f"report               {summary['report']} ({summary['size_mb']} MB)")
        print(f"open to first diff   {summary['first_diff_ms_median']} ms (median of {args.runs})")
        print(f"JS heap after open   {summary['heap_mb_median']} MB (median of {args.runs})")
        print(
            f"pass switch          {summary['switch_ms_median']} ms median, {summary['switch_ms_max']} ms max "
            f"({summary['switch_count']} switches)"
        )
        print(f"j into the largest   {summary['largest_switch_ms_median']} ms (median of {len(largest)})")
        print(f"Expand all (largest) {summary['expand_all_ms_median']} ms (median of {args.runs})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

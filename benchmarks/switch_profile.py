#!/usr/bin/env python3
"""Where one `j` into a pass spends its time, from Chromium's own tracing (CDP, through Playwright).

    python benchmarks/switch_profile.py REPORT.html [--pass-name InitMemRef] [--top 15]

Selects the pass listed before the named one (default: the pass with the most changed lines), then
traces one `j` into it: the main thread's time per trace event (script, style, layout, paint) and
the JavaScript functions with the most self time (V8's sampling profiler).
"""

from __future__ import annotations

import argparse
import collections
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO / "benchmarks"))
from browser_bench import largest_pass  # noqa: E402
from harness import launch_chromium  # noqa: E402

CATEGORIES = "devtools.timeline,disabled-by-default-devtools.timeline,v8.execute"
# The main thread's kinds of work, as the Performance panel groups them. Script events nest (a timer's
# FunctionCall): only the outermost counts. A layout forced by script counts in both.
SCRIPT = ("FunctionCall", "EvaluateScript", "TimerFire", "FireAnimationFrame", "RunMicrotasks", "EventDispatch")
RENDERING = ("UpdateLayoutTree", "Layout", "PrePaint", "Paint", "Layerize", "Commit", "HitTest")


def entry_named(page, name: str | None) -> int:
    if name is None:
        return largest_pass(page)
    return page.evaluate("(n) => window.__irTrace.model.entries.findIndex((e) => e && e.name === n)", name)


def trace_one_switch(page, k: int) -> tuple[list[dict], dict]:
    """Trace events and a CPU profile of `j` from the entry before k into k."""
    # The pass list draws only the rows in sight: the viewer's own hook selects a pass anywhere.
    page.evaluate("(k) => window.__irTrace.select(k - 1)", k)
    page.locator("body").click(position={"x": 2, "y": 2})
    page.wait_for_timeout(500)
    cdp = page.context.new_cdp_session(page)
    events: list[dict] = []
    cdp.on("Tracing.dataCollected", lambda data: events.extend(data["value"]))
    cdp.send("Profiler.enable")
    cdp.send("Profiler.setSamplingInterval", {"interval": 200})
    cdp.send("Tracing.start", {"categories": CATEGORIES, "transferMode": "ReportEvents"})
    cdp.send("Profiler.start")
    done = page.evaluate("window.__irTrace.switches.length")
    page.keyboard.press("j")
    page.wait_for_function("(n) => window.__irTrace.switches.length > n", arg=done, timeout=60_000)
    page.wait_for_timeout(200)
    profile = cdp.send("Profiler.stop")["profile"]
    finished = []
    cdp.on("Tracing.tracingComplete", lambda _: finished.append(True))
    cdp.send("Tracing.end")
    while not finished:
        page.wait_for_timeout(50)
    return events, profile


def main_thread_times(events: list[dict]) -> collections.Counter:
    """ms per kind of work on the renderer's main thread: outermost script, then each rendering step."""
    main = [e for e in events if e.get("name") == "thread_name" and e["args"].get("name") == "CrRendererMain"]
    tids = {(e["pid"], e["tid"]) for e in main}
    on_main = (e for e in events if (e.get("pid"), e.get("tid")) in tids and e.get("ph") == "X")
    spans = sorted(on_main, key=lambda e: e["ts"])
    times: collections.Counter = collections.Counter()
    script_until = -1
    for e in spans:
        name, end = e.get("name"), e["ts"] + e.get("dur", 0)
        if name in SCRIPT and e["ts"] >= script_until:
            times["script (outermost)"] += e.get("dur", 0) / 1000
            script_until = end
        elif name in RENDERING:
            times[name] += e.get("dur", 0) / 1000
    return times


def self_times(profile: dict) -> collections.Counter:
    """ms of self time per JavaScript function (name and line) in a CPU profile."""
    nodes = {n["id"]: n for n in profile["nodes"]}
    deltas = profile.get("timeDeltas", [])
    times: collections.Counter = collections.Counter()
    for sample, delta in zip(profile.get("samples", []), deltas[1:] + [0]):
        frame = nodes[sample]["callFrame"]
        times[f"{frame['functionName'] or '(anonymous)'}:{frame['lineNumber'] + 1}"] += delta / 1000
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report", type=Path)
    parser.add_argument("--pass-name", help="the pass to switch into (default: the one with the most changed lines)")
    parser.add_argument("--top", type=int, default=15)
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(args.report.resolve().as_uri())
        page.wait_for_function("() => window.__irTrace && window.__irTrace.firstDiffPainted !== null", timeout=120_000)
        k = entry_named(page, args.pass_name)
        events, profile = trace_one_switch(page, k)
        switch = page.evaluate("window.__irTrace.switches[window.__irTrace.switches.length - 1]")
        name = page.evaluate("(k) => window.__irTrace.model.entries[k].name", k)
        browser.close()
    print(f"j into {name}: {switch:.1f} ms (the viewer's own count)")
    for kind, ms in main_thread_times(events).most_common():
        print(f"  {kind:20} {ms:8.1f} ms")
    print("JavaScript self time:")
    for function, ms in self_times(profile).most_common(args.top):
        print(f"  {function:50} {ms:8.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())

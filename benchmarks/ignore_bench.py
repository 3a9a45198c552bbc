#!/usr/bin/env python3
"""What an ignore mode costs, measured both ways issue 14 allows (figures in BENCHMARKS.md):

    python benchmarks/ignore_bench.py [DUMP] [--runs 5] [--json]

1. In the page, on demand: Chromium runs normalize.js + linediff.js on every changed pass of
   the dump (keys memoised per line, as the viewer does); per-pass and whole-dump times.
2. In the viewer: on the pass with the most changed lines, each mode's checkbox ticked and
   unticked by real clicks; the viewer's own timing hook (window.__irTrace.ignores: click to
   the redrawn pass painted; ignoresSettled: to every sidebar entry recounted).
3. At build time in Python: the normalised diffs embedded per mode would grow the report by
   the size printed here (hunks in payload form, gzip + base64 as the page carries them).
DUMP defaults to ../shared/samples/real/qwen3_decode_explicit/passes_dump.
"""

from __future__ import annotations

import argparse
import base64
import gzip
import json
import statistics
import sys
import tempfile
import time
from itertools import combinations
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))
from harness import DIFF_SCRIPTS, launch_chromium  # noqa: E402

from ir_trace import api  # noqa: E402
from ir_trace.diffcore.linediff import diff_snapshots, hunks_to_json  # noqa: E402
from ir_trace.noise.normalize import MODES, IgnoreModes, line_key  # noqa: E402
from ir_trace.options import RunOptions  # noqa: E402
from ir_trace.report.pass_diff import PassDiff  # noqa: E402
from ir_trace.report.render import read_payload  # noqa: E402

DEFAULT_DUMP = REPO.parent / "shared" / "samples" / "real" / "qwen3_decode_explicit" / "passes_dump"
SPECS = [("ssa",), ("memref",), ("whitespace",), ("ssa", "memref", "whitespace")]

PAGE_TIMING = """([snaps, changed, modes, runs]) => {
  const N = IRTraceNormalize, D = IRTraceDiff;
  const perPass = [], wholeDump = [];
  for (let run = 0; run < runs; run++) {
    const memo = new Map(), norm = N.normaliser(N.cleanModes(modes, null));
    const key = (line) => { let k = memo.get(line); if (k === undefined) memo.set(line, (k = norm(line))); return k; };
    const ids = new Map();
    const snapshot = (k) => ({ lines: snaps[k].lines, fns: snaps[k].fns, eol: snaps[k].eol,
      ids: Int32Array.from(snaps[k].lines, (l) => { const x = key(l); let id = ids.get(x);
        if (id === undefined) ids.set(x, (id = ids.size)); return id; }) });
    const t0 = performance.now();
    for (const k of changed) {
      const t = performance.now();
      D.diffSnapshots(snapshot(k - 1), snapshot(k));
      if (run === 0) perPass.push(performance.now() - t);   // cold: nothing memoised yet
    }
    wholeDump.push(performance.now() - t0);
  }
  return { perPass, wholeDump };
}"""


def snapshots_of(payload: dict) -> list[dict]:
    passes, out = payload["passes"], []
    lines, fns = passes[0]["lines"], passes[0].get("functions")
    for k, entry in enumerate(passes):
        if k:
            lines = PassDiff.from_json(entry).apply(lines)
        fns = entry.get("functions", fns)
        out.append({"lines": lines, "fns": fns, "eol": entry["eol"]})
    return out


def page_costs(snaps: list[dict], changed: list[int], runs: int) -> dict:
    from playwright.sync_api import sync_playwright

    scripts = [(REPO / "ir_trace" / "report" / "assets" / name).read_text(encoding="utf-8") for name in DIFF_SCRIPTS]
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        page = browser.new_page()
        for script in scripts:
            page.add_script_tag(content=script)
        results = {}
        for spec in SPECS:
            timing = page.evaluate(PAGE_TIMING, [snaps, changed, list(spec), runs])
            results[",".join(spec)] = {
                "pass_median_ms": round(statistics.median(timing["perPass"]), 1),
                "pass_max_ms": round(max(timing["perPass"]), 1),
                "all_passes_cold_ms": round(timing["wholeDump"][0], 1),
                "all_passes_warm_ms": round(statistics.median(timing["wholeDump"][1:] or timing["wholeDump"]), 1),
            }
        browser.close()
    return results


LABELS = {"ssa": "Ignore SSA versions", "memref": "Ignore memory annotations", "whitespace": "Ignore whitespace"}


def viewer_toggles(report: Path, runs: int) -> dict:
    from playwright.sync_api import sync_playwright

    results = {}
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        for mode, label in LABELS.items():
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.goto(report.resolve().as_uri())
            page.wait_for_function("() => window.__irTrace && window.__irTrace.firstDiffPainted !== null")
            k = page.evaluate(
                """() => { const p = window.__irTrace.payload.passes; let best = 1;
                   const size = (q) => q.inserted + q.deleted;
                   for (let i = 1; i < p.length; i++) if (size(p[i]) > size(p[best])) best = i;
                   return best; }"""
            )
            page.locator(f'.pass-btn[data-k="{k}"]').click()
            box = page.get_by_label(label, exact=True)
            for i in range(2 * runs):
                box.click()
                page.wait_for_function("(n) => window.__irTrace.ignoresSettled.length > n", arg=i)
            ignores = page.evaluate("window.__irTrace.ignores")
            sync = page.evaluate("window.__irTrace.ignoresSync")
            settled = page.evaluate("window.__irTrace.ignoresSettled")
            results[mode] = {
                "pass": k,
                "redraw_on_ms": round(statistics.median(ignores[0::2]), 1),
                "redraw_off_ms": round(statistics.median(ignores[1::2]), 1),
                "redraw_max_ms": round(max(ignores), 1),
                "first_toggle_work_ms": round(sync[0], 1),
                "all_entries_ms": round(statistics.median(settled[0::2]), 1),
            }
            page.close()
        browser.close()
    return results


def build_time_costs(snaps: list[dict], changed: list[int], report_bytes: int) -> dict:
    """Report growth if Python embedded the normalised hunks of one mode, or of every combination."""
    singles, every = {}, 0
    memo: dict[tuple, dict] = {}
    for size in range(1, len(MODES) + 1):
        for names in combinations(MODES, size):
            modes = IgnoreModes.parse(names)
            started = time.perf_counter()
            hunks = {k: _normalised_hunks(snaps[k - 1], snaps[k], modes, memo) for k in changed}
            seconds = time.perf_counter() - started
            data = json.dumps(hunks, separators=(",", ":")).encode()
            grown = len(base64.b64encode(gzip.compress(data, compresslevel=6, mtime=0)))
            every += grown
            if size == 1 or size == len(MODES):
                singles[",".join(names)] = {"bytes": grown, "growth_pct": round(100 * grown / report_bytes, 1)}
                singles[",".join(names)]["python_s"] = round(seconds, 2)
    return {"per_mode": singles, "all_7_combinations_growth_pct": round(100 * every / report_bytes, 1)}


def _normalised_hunks(before: dict, after: dict, modes: IgnoreModes, memo: dict) -> list:
    key = line_key(modes, memo.setdefault(modes.spec(), {}))
    a, b = before["lines"], after["lines"]
    hunks = diff_snapshots(a, b, before["eol"], after["eol"], before["fns"], after["fns"], line_key=key)
    return hunks_to_json(hunks, b)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dump", type=Path, nargs="?", default=DEFAULT_DUMP)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "r.html"
        api.build(RunOptions.build(args.dump, report, context=3), Path(tmp) / "cache")
        report_bytes = report.stat().st_size
        payload = read_payload(report.read_text(encoding="utf-8"))
        toggles = viewer_toggles(report, args.runs)
    snaps = snapshots_of(payload)
    changed = [k for k in range(1, len(snaps)) if payload["passes"][k]["changed"]]
    result = {
        "dump": str(args.dump),
        "report_bytes": report_bytes,
        "changed_passes": len(changed),
        "page": page_costs(snaps, changed, args.runs),
        "viewer_toggle": toggles,
        "build_time": build_time_costs(snaps, changed, report_bytes),
    }
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

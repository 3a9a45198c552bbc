"""Helpers for the browser tests (real headless Chromium; the fixtures are in browser_plugin.py).

`open_report` records console errors, page errors and every request that would leave the file
(anything not file:/data:/blob:).
"""

from __future__ import annotations

import re
import signal
import sys
import warnings
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from conftest import REPO, SAMPLES, write_dump  # noqa: F401  (SAMPLES, write_dump: for the viewer tests)

LOCAL_SCHEMES = ("file:", "data:", "blob:")
# A function, not an expression: the report's CSP forbids the eval Playwright uses for strings.
PAINTED = """() => (window.__irTrace && window.__irTrace.firstDiffPainted !== null)
                   || !document.getElementById('only-frontend').hidden"""


def expect(target, *args, **kwargs):
    """Playwright's `expect`, imported at its first use: a machine without Playwright still collects
    the whole suite, and its browser tests fail at their `browser` fixture (they never skip)."""
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect(target, *args, **kwargs)


@dataclass
class PageLog:
    """What a page did that a self-contained, inert report must never do."""

    errors: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)

    def assert_clean(self) -> None:
        assert self.errors == [], f"console/page errors: {self.errors}"
        assert self.requests == [], f"requests outside the file: {self.requests}"


def watch(page) -> PageLog:
    log = PageLog()
    page.on("console", lambda msg: log.errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: log.errors.append(str(exc)))
    page.on("request", lambda req: None if req.url.startswith(LOCAL_SCHEMES) else log.requests.append(req.url))
    return log


def open_report(page, report: Path, fragment: str = "") -> PageLog:
    """Open a report via file:// and wait until the viewer has painted its first diff."""
    log = watch(page)
    page.goto(report.resolve().as_uri() + fragment)
    page.wait_for_function(PAINTED)
    return log


# ---------- building dumps and reports ----------


def build_report(dump: Path, out: Path, *extra: str) -> Path:
    """Build a report from the command's own arguments, in this process: the command's parser reads
    `extra` and `ir_trace.api.render` runs the pipeline, so a browser test pays no Python start-up and
    no Luigi import per report (test_cli.py and others run the real command as a subprocess)."""
    from ir_trace import api
    from ir_trace.app import cli

    args = cli.build_parser().parse_args([str(dump), "-o", str(out), *extra])
    with _luigi_left_as_found():
        result = api.render_options(cli.run_options(args))
    if args.json:
        cli.write_json_summary(args.json, result.summary.trace)
    return out


@contextmanager
def _luigi_left_as_found():
    """What a run changes in the process beyond Luigi's loggers (which `api.render` restores) put back:
    Luigi's configuration (the run sets the command's settings and its cache on it), the warning filter
    it adds, and the SIGUSR1 handler Luigi's worker installs, so no test sees an earlier test's run."""
    import luigi.configuration

    config = luigi.configuration.get_config()
    saved = {section: dict(config.items(section, raw=True)) for section in config.sections()}
    handler = signal.getsignal(signal.SIGUSR1)
    try:
        with warnings.catch_warnings():
            yield
    finally:
        signal.signal(signal.SIGUSR1, handler)
        _restore_config(config, saved)


def _restore_config(config, saved: dict[str, dict[str, str]]) -> None:
    for section in config.sections():
        if section not in saved:
            config.remove_section(section)
            continue
        for name in config.options(section):
            if name not in saved[section]:
                config.remove_option(section, name)
        for name, value in saved[section].items():
            config.set(section, name, value)


def render_payload(payload: dict, out: Path) -> Path:
    """Render a hand-built payload (for states a real dump cannot easily produce)."""
    sys.path.insert(0, str(REPO))
    from ir_trace.report.render import render_html

    out.write_text(render_html(payload), encoding="utf-8")
    return out


def program(functions: dict[str, list[str]], header: str = "# pypto.program: Program") -> str:
    """A PyPTO-like snapshot: one @pl.program class whose methods are @pl.function functions."""
    lines = [header, "import pypto.language as pl", "", "@pl.program", "class Program:"]
    for name, body in functions.items():
        lines.append("    @pl.function(type=pl.FunctionType.InCore)")
        lines.append(f"    def {name}(a: pl.Tensor[[64, 128], pl.FP32]) -> pl.Tensor[[64, 128], pl.FP32]:")
        lines.extend("        " + line for line in body)
    return "\n".join(lines) + "\n"


# ---------- page helpers ----------


def pass_button(page, index: int):
    """The sidebar button of the pass with this index."""
    return page.get_by_role("navigation", name="Passes").locator(f'button[data-k="{index}"]')


def pane(page, which: str):
    """The scroll container of the `Before snapshot` / `After snapshot` region."""
    return page.get_by_role("region", name=f"{which} snapshot").locator(".scroller")


@contextmanager
def viewing(page, report: Path):
    """The page showing `report`; on leaving, assert no console error and no outside request."""
    log = open_report(page, report)
    yield page
    log.assert_clean()


def nav(page):
    return page.get_by_role("navigation", name="Passes")


def current(page):
    """The sidebar's row of the pass on show."""
    return nav(page).locator('button[aria-current="true"]')


def function_select(page):
    return page.get_by_label("Function", exact=True)


def overview(page):
    """The overview chart (a canvas with the slider role)."""
    return page.get_by_role("slider", name=re.compile("^Overview"))


def overview_bar_x(page, k: int) -> float:
    """The x of entry k's bar in the overview chart, from its left edge (one bar per entry while they fit)."""
    chart = overview(page)
    box = chart.bounding_box()
    first, last = (int(chart.get_attribute(a)) for a in ("aria-valuemin", "aria-valuemax"))
    n = last - first + 1
    return (k - first + 0.5) * min(24.0, box["width"] / min(n, int(box["width"])))


def click_overview_bar(page, k: int) -> None:
    overview(page).click(position={"x": overview_bar_x(page, k), "y": 12})


def overview_bar(page, k: int) -> tuple[str, int]:
    """Hover entry k's bar of the overview chart: (its tooltip, its height in CSS px, 2 when flat)."""
    chart, x = overview(page), overview_bar_x(page, k)
    box = chart.bounding_box()
    page.mouse.move(box["x"] + x, box["y"] + box["height"] / 2)
    height = page.evaluate(
        """([x]) => { const c = document.querySelector('.overview-chart'), r = window.devicePixelRatio || 1;
                      const g = c.getContext('2d'), px = Math.floor(x * r);
                      let run = 0;
                      for (let y = c.height - 1; y >= 0 && g.getImageData(px, y, 1, 1).data[3] > 0; y--) run++;
                      return Math.round(run / r); }""",
        [x],
    )
    return chart.get_attribute("title") or "", height

"""Accessibility checks for the browser tests: axe-core (bundled by axe-playwright-python) and a
text-contrast audit of our own for what axe leaves unchecked (code on tinted rows and emphasis).

axe is injected with `page.evaluate` of its source, which the report's Content-Security-Policy
forbids (no eval): pages checked here come from a context made with `bypass_csp=True`.
"""

from __future__ import annotations

from pathlib import Path

# The audit is a JavaScript function kept in its own file: it runs in the page, its source read once.
CONTRAST_AUDIT = (Path(__file__).parent / "contrast_audit.js").read_text(encoding="utf-8")


def contrast_failures(page, minimum: float = 4.5) -> list:
    """Text on the page whose contrast with what lies under it is below `minimum`."""
    return page.evaluate(CONTRAST_AUDIT, minimum)


def serious_axe_violations(page) -> list[str]:
    """axe-core's serious and critical violations on the page, one line each."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    serious = [v for v in results.response["violations"] if v["impact"] in ("serious", "critical")]
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes'][:5]]} {v['nodes'][0]['html'][:200]}"
        for v in serious
    ]

"""The browser fixtures, loaded as a pytest plugin by conftest.py (`pytest_plugins`).

One headless Chromium for the whole session, a fresh context and page per test. Debian's
Chromium is driven through Playwright; a missing Playwright or Chromium is a broken set-up
and fails the browser tests, never skips them. Every test that takes one of these fixtures
(directly or through another fixture) carries the `browser` marker, so
`python -m pytest -m "not browser"` is the fast suite, without Chromium.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from harness import CHROMIUM, launch_chromium

VIEWPORT = {"width": 1280, "height": 720}
BROWSER_FIXTURES = frozenset({"browser", "context", "page"})


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects by marker
def pytest_collection_modifyitems(items):
    for item in items:
        if BROWSER_FIXTURES.intersection(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("Playwright is not installed: pip install '.[test]'")
    if not Path(CHROMIUM).exists():
        pytest.fail(f"chromium not found at {CHROMIUM}: apt-get install chromium (or set IR_TRACE_CHROMIUM)")
    with sync_playwright() as playwright:
        chromium = launch_chromium(playwright)
        yield chromium
        chromium.close()


@pytest.fixture
def context(browser):
    context = browser.new_context(viewport=VIEWPORT, color_scheme="light")
    yield context
    context.close()


@pytest.fixture
def page(context):
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    page.close()

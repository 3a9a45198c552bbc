"""The test suite's own set-up: sample tests skip (or fail under CI) without the corpus, the browser
fixtures come from one plugin, and no test waits a fixed time or skips a missing Playwright."""

from __future__ import annotations

import ast
import os
import subprocess
import sys

from conftest import REPO

TESTS = REPO / "tests"
A_SAMPLE_TEST = "tests/test_diff.py::test_counts_never_below_a_minimal_diff"


def run_pytest_without_samples(*, ci: bool) -> subprocess.CompletedProcess:
    """One sample test in a nested pytest, with the corpus pointed at a directory that does not exist."""
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    env["IR_TRACE_SHARED"] = str(REPO / "tests" / "no-such-shared-directory")
    if ci:
        env["CI"] = "true"
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rs", A_SAMPLE_TEST],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_without_the_corpus_a_sample_test_skips_with_one_line_saying_why():
    result = run_pytest_without_samples(ci=False)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "1 skipped" in result.stdout
    assert "SKIPPED [1]" in result.stdout and "the real sample dumps are not here" in result.stdout


def test_under_ci_a_missing_corpus_fails_the_sample_tests():
    result = run_pytest_without_samples(ci=True)
    assert result.returncode != 0
    assert "CI must run every sample test" in result.stdout
    assert "skipped" not in result.stdout.splitlines()[-1]


def calls_named(tree: ast.AST, name: str) -> list[int]:
    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", None)) == name
    ]


def test_no_test_skips_a_missing_playwright_or_waits_a_fixed_time():
    offenders = []
    for path in sorted(TESTS.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for name in ("importorskip", "wait_for_timeout"):
            offenders += [f"{path.name}:{line}: {name}" for line in calls_named(tree, name)]
    assert offenders == []


def test_the_browser_fixtures_come_only_from_the_plugin():
    """Test modules take `browser`, `context` and `page` by name; none imports or redefines them."""
    fixtures = {"browser", "context", "page"}
    offenders = []
    for path in sorted(TESTS.glob("*.py")):
        if path.name == "browser_plugin.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and fixtures & {alias.name for alias in node.names}:
                offenders.append(f"{path.name}:{node.lineno}: imports a browser fixture")
            if isinstance(node, ast.FunctionDef) and node.name in fixtures and node.decorator_list:
                offenders.append(f"{path.name}:{node.lineno}: defines a browser fixture")
    assert offenders == []


def names_in(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def test_no_sample_test_skips_itself_with_skipif():
    """A `skipif` on a missing sample skips under CI too: sample tests carry the `samples` marker."""
    offenders = []
    for path in sorted(TESTS.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        corpus = {"SAMPLES", "SHARED"}
        for node in tree.body:  # module-level names computed from the corpus's location
            if isinstance(node, ast.Assign) and names_in(node.value) & corpus:
                corpus |= {target.id for target in node.targets if isinstance(target, ast.Name)}
        for line in calls_named(tree, "skipif"):
            call = next(n for n in ast.walk(tree) if isinstance(n, ast.Call) and n.lineno == line)
            if names_in(call) & corpus or "sample" in ast.unparse(call).lower():
                offenders.append(f"{path.name}:{line}")
    assert offenders == []


def collected(*args: str) -> list[str]:
    """The test ids a nested pytest collects with `args`."""
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--collect-only", *args]
    result = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    return [line for line in result.stdout.splitlines() if "::" in line]


def test_not_browser_selects_the_tests_without_chromium():
    """`-m "not browser"` (the README's fast command) leaves out every test taking a browser fixture,
    whether by name (`page`) or through another fixture, and keeps the others."""
    files = ("tests/test_viewer_fold.py", "tests/test_roundtrip.py", "tests/test_layout.py")
    every, fast, browser = collected(*files), collected("-m", "not browser", *files), collected("-m", "browser", *files)
    assert fast and browser and sorted(fast + browser) == sorted(every)
    fold = [test for test in fast if test.startswith("tests/test_viewer_fold.py")]
    assert fold == ["tests/test_viewer_fold.py::test_the_fold_file_touches_no_dom"]  # the others take fold_page
    assert not any("test_copy_full_source" in test for test in fast)  # takes `browser` by name
    assert any("test_copy_full_source" in test for test in browser)
    assert any(test.startswith("tests/test_roundtrip.py::test_random_dump") for test in fast)
    assert not any(test.startswith("tests/test_layout.py") for test in browser)


def test_the_browser_marker_is_registered():
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--markers"]
    result = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=300)
    assert "@pytest.mark.browser:" in result.stdout

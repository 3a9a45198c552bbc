"""What the README and docs/sweeps.md tell a user to type or expect, held to the code."""

from __future__ import annotations

import re

from conftest import REPO
from luigi.configuration.cfg_parser import LuigiConfigParser

from ir_trace.cli import build_parser
from ir_trace.tasks.config import FAILURE_EXIT_CODES

README = (REPO / "README.md").read_text(encoding="utf-8")
README_ZH = (REPO / "README.zh-CN.md").read_text(encoding="utf-8")
SWEEPS = (REPO / "docs" / "sweeps.md").read_text(encoding="utf-8")
TEMPLATES = REPO / "templates"

# How the help overlay writes a key, and the name `event.key` gives it.
KEY_NAMES = {"↓": "ArrowDown", "↑": "ArrowUp", "Esc": "Escape"}
# Keys the help lists that the page leaves to the browser or to the focused text field.
BROWSER_KEYS = {"PgUp", "PgDn", "Home", "End", "Tab", "Enter", "Shift"}


def test_the_luigi_cfg_of_the_sweep_docs_reads_as_written(tmp_path):
    """Copied into a file Luigi reads, the documented settings mean what the text says: a comment
    after a value would become part of it (Luigi's parser knows no inline comments)."""
    block = re.search(r"```ini\n(.*?)```", SWEEPS, re.S).group(1)
    path = tmp_path / "luigi.cfg"
    path.write_text(block, encoding="utf-8")
    parser = LuigiConfigParser()
    parser.read([str(path)])
    assert parser.get("ir_trace", "cache_dir") == "/var/cache/pypto-ir-trace"
    assert {name: parser.get("retcode", name) for name in FAILURE_EXIT_CODES} == FAILURE_EXIT_CODES


def help_keys() -> set[str]:
    page = (TEMPLATES / "report.html.j2").read_text(encoding="utf-8")
    overlay = re.search(r'<div class="overlay" id="help".*?</dl>', page, re.S).group(0)
    return set(re.findall(r"<kbd>([^<]+)</kbd>", overlay))


def test_every_key_the_help_lists_is_handled_by_the_page():
    script = (TEMPLATES / "viewer_keys.js").read_text(encoding="utf-8")
    handler = script[script.index("function onKeyDown(") :]
    handled = set(re.findall(r"case '([^']+)':", handler))
    listed = {KEY_NAMES.get(key, key) for key in help_keys() - BROWSER_KEYS}
    assert listed and listed <= handled, sorted(listed - handled)
    assert handled <= listed, f"keys handled but missing from the ? help: {sorted(handled - listed)}"


def test_every_single_key_shortcut_the_readmes_name_is_in_the_help():
    listed = help_keys()
    for text in (README, README_ZH):
        table = text[text.index("| `j` / `k`") :]
        named = set(re.findall(r"\(`(.)`\)", table)) | {"j", "k", "]", "[", "n", "N", "v"}
        assert named <= listed, sorted(named - listed)


def test_every_flag_of_the_readme_synopsis_is_an_option_of_the_command():
    synopsis = re.search(r"## Command line\n\n```\n(.*?)python -m", README, re.S).group(1)
    documented = set(re.findall(r"(?<![\w-])(--?[a-z][a-z-]*)", synopsis))
    options = {opt for action in build_parser()._actions for opt in action.option_strings}
    assert documented and documented <= options, sorted(documented - options)
    assert documented | {"-h", "--help", "--output", "-q"} >= options

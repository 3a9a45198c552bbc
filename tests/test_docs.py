"""What the README and docs/sweeps.md tell a user to type or expect, held to the code."""

from __future__ import annotations

import re
import shlex

import pytest
from conftest import REPO
from luigi.cmdline_parser import CmdlineParser
from luigi.configuration.cfg_parser import LuigiConfigParser

from ir_trace.app.cli import build_parser
from ir_trace.noise.normalize import IgnoreModes
from ir_trace.pipeline import Sweep  # and the other tasks the documented `luigi --module` commands name
from ir_trace.pipeline.config import FAILURE_EXIT_CODES
from ir_trace.sweep.results import compile_ignores

README = (REPO / "README.md").read_text(encoding="utf-8")
README_ZH = (REPO / "README.zh-CN.md").read_text(encoding="utf-8")
SWEEPS = (REPO / "docs" / "sweeps.md").read_text(encoding="utf-8")
TEMPLATES = REPO / "ir_trace" / "report" / "assets"

# How the help overlay writes a key, and the name `event.key` gives it.
KEY_NAMES = {"↓": "ArrowDown", "↑": "ArrowUp", "←": "ArrowLeft", "→": "ArrowRight", "Esc": "Escape"}
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
    # <kbd>Alt</kbd>+<kbd>W</kbd> is one key, Alt+W, as the page's handler names it
    overlay = re.sub(r"<kbd>Alt</kbd>\+<kbd>([^<]+)</kbd>", r"<kbd>Alt+\1</kbd>", overlay)
    return set(re.findall(r"<kbd>([^<]+)</kbd>", overlay))


def test_every_key_the_help_lists_is_handled_by_the_page():
    script = (TEMPLATES / "viewer_keys.js").read_text(encoding="utf-8")
    handler = script[script.index("function onKeyDown(") :]
    handled = set(re.findall(r"case '([^']+)':", handler))
    # the pass list's own keys (folds, the list's ends and pages) are read by the sidebar's handler
    sidebar = (TEMPLATES / "viewer_sidebar.js").read_text(encoding="utf-8")
    in_list = set(re.findall(r"event\.key === '([^']+)'", sidebar))
    listed = {KEY_NAMES.get(key, key) for key in help_keys() - BROWSER_KEYS}
    assert listed and listed <= handled | in_list, sorted(listed - handled - in_list)
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


# ---------- the documents' command examples, held to the code ----------

RUNNABLE_BLOCK = re.compile(r"```(bash|sh|crontab)\n(.*?)```", re.S)
SEPARATORS = {"&&", "||", ";", "|", ">>", ">", "2>&1", "&"}


def documented_commands(markdown: str) -> list[list[str]]:
    """Every simple command of the document's bash and crontab blocks, as the shell would split it
    (continuation lines joined, comments dropped, a crontab line's schedule and `VAR=value`
    prefixes removed, the `[--flag value]` brackets of a synopsis opened)."""
    commands = []
    for language, block in RUNNABLE_BLOCK.findall(markdown):
        for line in re.sub(r"<([\w.-]+)>", r"\1", block.replace("\\\n", " ")).splitlines():  # <program>: a word
            lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
            lexer.whitespace_split, lexer.commenters = True, "#"
            tokens = list(lexer)[5 if language == "crontab" and line.strip() else 0 :]
            current: list[str] = []
            for token in [*tokens, ";"]:
                if token in SEPARATORS or token.startswith(">") or token.startswith("2>"):
                    if current:
                        commands.append(current)
                    current = []
                elif current or not re.fullmatch(r"\w+=.*", token):
                    current.append(token.removeprefix("[").removesuffix("]"))
    return commands


def tool_commands(markdown: str) -> list[tuple[str, list[str]]]:
    """("cli", args) for `pypto-ir-trace`/`python -m ir_trace`, ("luigi", args after the module)."""
    found = []
    for words in documented_commands(markdown):
        words = [word.replace("$mode", "ssa") for word in words]  # the README's for-loop variable
        if words[0] == "pypto-ir-trace":
            found.append(("cli", words[1:]))
        elif words[:3] == ["python", "-m", "ir_trace"]:
            found.append(("cli", words[3:]))
        elif words[:3] == ["luigi", "--module", "ir_trace.pipeline"]:
            found.append(("luigi", words[3:]))
    return found


def check_cli_arguments(args: list[str]) -> None:
    parser = build_parser()
    try:
        parsed = parser.parse_args(args)
    except SystemExit:
        raise AssertionError(f"pypto-ir-trace {' '.join(args)}: rejected by the argument parser") from None
    assert not (parsed.against and (parsed.ignore or parsed.ignore_regex)), args


def check_luigi_arguments(args: list[str]) -> None:
    try:
        with CmdlineParser.global_instance(args) as parsed:
            task = parsed.get_task_obj()
    except SystemExit:
        raise AssertionError(f"luigi ... {' '.join(args)}: rejected by Luigi's parser") from None
    if isinstance(task, Sweep):
        for value in task.ignore:
            IgnoreModes.parse(value)  # mode names: a regex there is the old spelling, --ignore-regex now
        compile_ignores(task.ignore_regex)
    else:
        IgnoreModes.from_spec(task.ignore)  # a report task's --ignore is the page's initial modes


@pytest.mark.parametrize("name", ["README.md", "README.zh-CN.md", "docs/sweeps.md"])
def test_every_command_the_docs_show_is_accepted_as_written(name):
    text = (REPO / name).read_text(encoding="utf-8")
    commands = tool_commands(text)
    assert len(commands) >= 3, commands
    for kind, args in commands:
        (check_cli_arguments if kind == "cli" else check_luigi_arguments)(args)


def test_the_command_checks_catch_a_bad_example():
    """The checks above can fail: an old-style regex in --ignore, an unknown flag, a bad mode."""
    bad = """```crontab
30 2 * * * cd /d && LUIGI_CONFIG_PATH=/d/c luigi --module ir_trace.pipeline Sweep --root b --out-dir r --ignore 'kb\\d+'
```
```bash
pypto-ir-trace d/passes_dump --ignore ssa,bogus
pypto-ir-trace d/passes_dump --no-such-flag
```"""
    commands = tool_commands(bad)
    assert [kind for kind, _ in commands] == ["luigi", "cli", "cli"]
    assert commands[0][1][-2:] == ["--ignore", "kb\\d+"]
    for kind, args in commands:
        with pytest.raises((AssertionError, ValueError)):
            (check_cli_arguments if kind == "cli" else check_luigi_arguments)(args)

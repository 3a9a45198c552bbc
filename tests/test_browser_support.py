"""The browser tests' `build_report` builds in the test's own process: the report the command writes,
and Luigi's process-wide state (configuration, loggers, signal handler, warning filters) left as found."""

from __future__ import annotations

import json
import logging
import signal
import warnings

import luigi.configuration
import pytest
from browser_support import build_report
from conftest import demo_passes, run_cli, write_dump

from ir_trace.api import LUIGI_LOGGERS, IRTraceError


def luigi_state() -> tuple:
    config = luigi.configuration.get_config()
    sections = {section: dict(config.items(section, raw=True)) for section in config.sections()}
    loggers = [(logging.getLogger(name).level, logging.getLogger(name).propagate) for name in LUIGI_LOGGERS]
    return sections, loggers, signal.getsignal(signal.SIGUSR1), list(warnings.filters)


def test_the_report_is_the_one_the_command_writes(tmp_path):
    dump = write_dump(tmp_path / "passes_dump", demo_passes())
    built = build_report(dump, tmp_path / "inproc.html", "--no-cache", "-q", "--json", str(tmp_path / "in.json"))
    command = run_cli(dump, "-o", tmp_path / "cli.html", "--no-cache", "-q", "--json", tmp_path / "cli.json")
    assert command.returncode == 0, command.stderr
    assert built.read_bytes() == (tmp_path / "cli.html").read_bytes()
    assert json.loads((tmp_path / "in.json").read_text()) == json.loads((tmp_path / "cli.json").read_text())


def test_runs_leave_luigi_state_as_found(tmp_path):
    first = write_dump(tmp_path / "a" / "passes_dump", demo_passes())
    second = write_dump(tmp_path / "b" / "passes_dump", demo_passes()[:3])
    before = luigi_state()
    build_report(first, tmp_path / "one.html", "--cache-dir", str(tmp_path / "cache"), "--ignore", "ssa")
    build_report(first, tmp_path / "cmp.html", "--against", str(second), "--no-cache", "-q")
    assert luigi_state() == before
    assert (tmp_path / "cmp.html").stat().st_size > 0


def test_a_refused_run_raises_the_commands_error(tmp_path):
    with pytest.raises(IRTraceError, match="input directory does not exist"):
        build_report(tmp_path / "missing", tmp_path / "r.html", "--no-cache")

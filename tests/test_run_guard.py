"""ir_trace/runsafety/run_guard.py: one RunGuard per working process, handed to every writer (issue 18, item 2).

The guarantees themselves are tried on the real command in test_signals.py; here, what the guard
says down a real pipe, what the supervisor's side makes of it, and that the guard reaches the writers.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import FRONTEND, write_dump

from ir_trace.pipeline import RenderReport
from ir_trace.pipeline.config import session
from ir_trace.runsafety.run_guard import Announcements, RunGuard, SupervisorGone
from ir_trace.runsafety.standard_streams import say
from ir_trace.runsafety.writes import write_output

REPO = Path(__file__).parents[1]


def announced(write) -> Announcements:
    """What a supervisor reads from the pipe after `write(guard)` ran with a guard on it."""
    read_end, write_end = os.pipe()
    try:
        write(RunGuard(os.getppid(), write_end))
    finally:
        os.close(write_end)
    records = Announcements()
    records.read_to_end(read_end, time.monotonic() + 5)
    os.close(read_end)
    return records


def test_a_replaced_file_is_announced_as_a_temp_then_as_written(tmp_path: Path):
    target = tmp_path / "r.html"
    records = announced(lambda guard: write_output(target, "report", guard=guard))
    assert len(records.temps) == 1 and Path(records.temps[0]).parent == tmp_path
    assert not os.path.exists(records.temps[0])  # renamed into place
    assert records.written() == [str(target)]


def test_a_file_renamed_over_afterwards_no_longer_counts_as_written(tmp_path: Path):
    """The supervisor's `interrupted after writing ...` names only what the run really published."""
    target = tmp_path / "r.html"
    records = announced(lambda guard: write_output(target, "report", guard=guard))
    (tmp_path / "other").write_text("someone else's")
    os.replace(tmp_path / "other", target)
    assert records.written() == []


def test_a_stream_is_announced_once_written(tmp_path: Path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        records = announced(lambda guard: write_output(fifo, "through", guard=guard))
        assert os.read(reader, 100) == b"through"
    finally:
        os.close(reader)
    assert (records.temps, records.written()) == ([], [str(fifo)])


def test_records_split_across_reads_are_joined():
    read_end, write_end = os.pipe()
    os.set_blocking(read_end, False)
    records = Announcements()
    for piece in (b"T/tmp/a.t", b"mp\0W/dev/", b"null\0T/tmp/b.tmp\0"):
        os.write(write_end, piece)
        records.read(read_end)
    os.close(write_end)
    records.read(read_end)
    os.close(read_end)
    assert (records.temps, records.streams, records.closed) == (["/tmp/a.tmp", "/tmp/b.tmp"], ["/dev/null"], True)


def test_a_guard_nobody_supervises_is_never_orphaned_and_writes_alone(tmp_path: Path):
    guard = RunGuard()
    assert not guard.orphaned()
    write_output(tmp_path / "r.html", "report", guard=guard)
    assert (tmp_path / "r.html").read_text() == "report" and guard.temps == set()


def test_an_orphaned_work_says_nothing_and_publishes_nothing(tmp_path: Path, capsys):
    """Its supervisor is not its parent any more (the kernel reparented it after a SIGKILL)."""
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    read_end, write_end = os.pipe()
    os.close(read_end)  # the dead supervisor's end
    guard = RunGuard(int(gone.stdout), write_end)
    try:
        assert guard.orphaned()
        say("pypto-ir-trace: wrote r.html", guard)
        with pytest.raises(SupervisorGone):
            write_output(tmp_path / "r.html", "late report", guard=guard)
    finally:
        os.close(write_end)
    assert capsys.readouterr().err == ""
    assert list(tmp_path.iterdir()) == []  # neither the report nor its temp file


def test_the_report_task_writes_through_the_sessions_guard_which_is_no_parameter(tmp_path: Path):
    dump = str(write_dump(tmp_path / "passes_dump", [FRONTEND]))
    guard = RunGuard()
    task = RenderReport(dump=dump, report=str(tmp_path / "r.html"))
    with session().guarding(guard):
        assert task.output().guard is guard
    assert task.output().guard is None  # the caller's guard is gone with its run
    assert "guard" not in task.to_str_params() and "guard" not in RenderReport.get_param_names(include_significant=True)


@pytest.mark.parametrize(
    "module", ["runsafety/writes.py", "runsafety/signals.py", "runsafety/run_guard.py", "app/cli.py", "app/launch.py"]
)
def test_the_guarantees_keep_no_module_level_state(module: str):
    """No `global` rebinding in the modules that keep them: the state lives in a RunGuard."""
    tree = ast.parse((REPO / "ir_trace" / module).read_text(encoding="utf-8"))
    assert [node.names for node in ast.walk(tree) if isinstance(node, ast.Global)] == []

"""Failures that say what went wrong and where, never an empty `unexpected MemoryError: `."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import run_cli
from hostile_support import assert_error_line
from multi_trace_support import CONST, DEAD, LOAD, mlir_header, mlir_module

from ir_trace.errors import one_line
from ir_trace.pipeline.base import explain


class Exhausting(str):
    """A text whose check runs out of memory, as a 100 MB line does under `ulimit -v`."""

    def isprintable(self):
        raise MemoryError


def test_a_memory_error_says_memory_ran_out_and_where():
    with pytest.raises(MemoryError) as info:
        one_line(Exhausting("x"))
    assert explain(info.value) == "ran out of memory in errors.one_line"


def test_an_unexpected_error_without_a_message_says_so():
    with pytest.raises(ValueError) as info:
        one_line(type("Odd", (str,), {"isprintable": lambda self: (_ for _ in ()).throw(ValueError())})("x"))
    assert explain(info.value) == "unexpected ValueError: no message in errors.one_line"


IMPORT_ONLY = """
import json, signal, sys
before = set(sys.modules)
import ir_trace.app.launch
print(signal.getsignal(signal.SIGINT) == ir_trace.app.launch._ON_IMPORT._record)
print(json.dumps(sorted(m for m in set(sys.modules) - before if m.startswith("ir_trace"))))
"""


def test_importing_the_entry_records_ctrl_c_before_anything_else_is_imported():
    """The console script's wrapper imports `ir_trace.app.launch` before calling main: a Ctrl-C in
    those imports must be recorded (one line, exit 130), not Python's KeyboardInterrupt traceback."""
    result = subprocess.run([sys.executable, "-c", IMPORT_ONLY], capture_output=True, text=True, timeout=60)
    installed, modules = result.stdout.splitlines()
    assert installed == "True", result.stderr
    expected = [
        "ir_trace",
        "ir_trace.app",
        "ir_trace.app.launch",
        "ir_trace.runsafety",
        "ir_trace.runsafety.early_signals",
    ]
    assert json.loads(modules) == expected


@pytest.mark.parametrize(
    "package", ["ir_trace/__init__.py", "ir_trace/app/__init__.py", "ir_trace/runsafety/__init__.py"]
)
def test_what_runs_before_the_recorder_stays_tiny(package):
    source = (Path(__file__).resolve().parent.parent / package).read_text(encoding="utf-8")
    tree = ast.parse(source)  # an import inside a function (the lazy API) runs later, on first use
    assert not [node for node in tree.body if isinstance(node, (ast.Import, ast.ImportFrom))]


def write_stream(path: Path, cut: bool) -> Path:
    """A --mlir-print-ir-after-all stream of two dumps; with `cut`, the second stops mid-print."""
    first = mlir_module([CONST, LOAD])
    second = mlir_module([CONST, DEAD, LOAD])
    if cut:
        second = second[: second.index(DEAD)]
    path.write_text(
        f"{mlir_header('After', 'CSE (cse)')}\n{first}\n\n\n{mlir_header('After', 'Canonicalizer (canonicalize)')}\n"
        f"{second}"
    )
    return path


def test_a_stream_whose_last_dump_was_cut_off_says_it_is_truncated(tmp_path):
    stream = write_stream(tmp_path / "cut.mlir", cut=True)
    result = run_cli(stream, "-o", tmp_path / "r.html", "--no-cache")
    assert result.returncode == 0, result.stderr
    assert f"warning: the last dump in {stream} (Canonicalizer (canonicalize)) is truncated" in result.stderr


def test_a_whole_stream_is_not_called_truncated(tmp_path):
    stream = write_stream(tmp_path / "whole.mlir", cut=False)
    result = run_cli(stream, "-o", tmp_path / "r.html", "--no-cache")
    assert result.returncode == 0 and "truncated" not in result.stderr, result.stderr


def test_against_between_an_mlir_trace_and_a_pypto_dump_is_refused(tmp_path, demo_dump):
    stream = write_stream(tmp_path / "run.mlir", cut=False)
    report = tmp_path / "r.html"
    for a, b in ((demo_dump, stream), (stream, demo_dump)):
        result = run_cli(a, "--against", b, "-o", report, "--no-cache")
        assert_error_line(result, "--against:", str(a), str(b), "same kind")
    assert not report.exists()


DYING_TASK = """
import os, signal
import luigi
from ir_trace.pipeline.base import PipelineTask

class Dying(PipelineTask):
    def output(self):
        return luigi.LocalTarget("never-written")

    def run(self):
        os.kill(os.getpid(), signal.SIGKILL)  # as the OOM killer or `kill -9` ends a worker
"""


def test_a_killed_worker_fails_the_run_with_exit_3_and_a_reason_line(tmp_path):
    (tmp_path / "dying_task.py").write_text(DYING_TASK)
    repo = Path(__file__).resolve().parent.parent
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(repo), str(tmp_path)])}
    command = [sys.executable, "-m", "luigi", "--module", "dying_task", "Dying", "--local-scheduler", "--workers", "2"]
    result = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300)
    assert result.returncode == 3, result.stderr[-2000:]
    assert "Dying() failed: its worker process was killed by signal 9" in result.stderr, result.stderr[-2000:]

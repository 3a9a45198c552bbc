"""The project's own synthetic dump generator (benchmarks/gen_dump.py), which tests and benchmarks build on."""

from __future__ import annotations

import ast
from pathlib import Path

from conftest import generate_dump

from ir_trace.inputs.discovery import discover_snapshots


def files_of(dump: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(dump.iterdir())}


def test_a_valid_dump_of_the_asked_size_in_python_syntax(tmp_path):
    dump = generate_dump(tmp_path / "p" / "passes_dump", "--functions", "5", "--lines", "12", "--passes", "30")
    manifest = discover_snapshots(dump)
    assert len(manifest.snapshots) == 31 and manifest.snapshots[0].file == "00_frontend.py"
    for snapshot in manifest.snapshots:
        ast.parse(manifest.path_of(snapshot).read_text(encoding="utf-8"), snapshot.file)
    frontend = (dump / "00_frontend.py").read_text(encoding="utf-8")
    assert [f"def kernel_{i}(" in frontend for i in range(5)] == [True] * 5 and "def main(" in frontend
    assert any(s.log for s in manifest.snapshots), "no pass wrote a warning log"


def test_the_same_arguments_write_the_same_bytes_and_the_seed_matters(tmp_path):
    options = ("--functions", "3", "--lines", "8", "--passes", "10")
    one = generate_dump(tmp_path / "one", *options, "--seed", "7")
    two = generate_dump(tmp_path / "two", *options, "--seed", "7")
    other = generate_dump(tmp_path / "other", *options, "--seed", "8")
    assert files_of(one) == files_of(two)
    assert files_of(one) != files_of(other)


def test_noop_ratio_zero_changes_every_pass_and_one_changes_none(tmp_path):
    options = ("--functions", "3", "--lines", "8", "--passes", "25")
    busy = discover_snapshots(generate_dump(tmp_path / "busy", *options, "--noop-ratio", "0"))
    idle = discover_snapshots(generate_dump(tmp_path / "idle", *options, "--noop-ratio", "1"))
    assert all(a.sha256 != b.sha256 for a, b in zip(busy.snapshots, busy.snapshots[1:]))
    assert len({s.sha256 for s in idle.snapshots}) == 1

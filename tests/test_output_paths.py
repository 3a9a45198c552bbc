"""ir_trace/runsafety/output_paths.py: the one output-path policy, in this process (the command's, the report
task's and the sweep's one-line refusals are tried end to end in test_cli.py and test_sweep*.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ir_trace.runsafety.output_paths import (
    Container,
    check_report_path,
    check_sweep_out_dir,
    refuse_inside,
    swept_containers,
)
from ir_trace.runsafety.writes import OutputError
from ir_trace.sweep.find import PASSES_DUMP_INPUT, PROGRAM_INPUT, STREAM_INPUT, TREE_INPUT


def test_inside_is_judged_after_dot_dot_and_links(tmp_path: Path):
    dump = tmp_path / "passes_dump"
    dump.mkdir()
    (tmp_path / "link").symlink_to(dump)
    for spelling in (tmp_path / "link" / "r.html", tmp_path / "x" / ".." / "passes_dump" / "r.html"):
        with pytest.raises(OutputError, match=r"^-o: .* is inside the dump directory .*; write it elsewhere$"):
            refuse_inside("-o:", spelling, [Container("dump directory", dump)])
    refuse_inside("-o:", tmp_path / "passes_dump2" / "r.html", [Container("dump directory", dump)])  # a prefix only


def test_a_report_task_names_what_is_wrong_with_its_path(tmp_path: Path):
    with pytest.raises(OutputError, match=f"^output directory does not exist: {tmp_path / 'nowhere'}$"):
        check_report_path(str(tmp_path / "nowhere" / "r.html"), [])
    with pytest.raises(OutputError, match="^the report .* is inside the dump directory .*; write it elsewhere$"):
        check_report_path(str(tmp_path / "r.html"), [str(tmp_path)])
    check_report_path(str(tmp_path / "r.html"), [str(tmp_path / "passes_dump")])


def test_what_a_sweep_reads_is_every_program_and_the_directory_of_a_lone_passes_dump_under_the_root(tmp_path):
    root = tmp_path / "root"
    programs = [
        (root / "prog", PROGRAM_INPUT),
        (root / "plain" / "passes_dump", PASSES_DUMP_INPUT),
        (root / "mlir" / "tree", TREE_INPUT),
        (root / "logs" / "opt.log", STREAM_INPUT),  # a file: nothing can be inside it
    ]
    assert swept_containers(root, programs) == [
        Container("program directory", root / "prog"),
        Container("dump directory", root / "plain" / "passes_dump"),
        Container("program directory", root / "plain"),
        Container("MLIR tree", root / "mlir" / "tree"),
    ]
    # The root itself a passes_dump/: its parent is outside what the sweep was pointed at.
    assert swept_containers(root, [(root, PASSES_DUMP_INPUT)]) == [Container("dump directory", root)]


def test_a_refused_out_dir_is_not_created(tmp_path: Path):
    tree = tmp_path / "tree"
    tree.mkdir()
    out = tree / "reports"
    with pytest.raises(OutputError, match=f"^--out-dir {out} is inside the MLIR tree {tree}; write it elsewhere$"):
        check_sweep_out_dir(out, [Container("MLIR tree", tree)])
    assert not out.exists()
    check_sweep_out_dir(tmp_path / "reports", [Container("MLIR tree", tree)])
    assert (tmp_path / "reports").is_dir()


def test_an_out_dir_below_any_passes_dump_is_refused_even_one_the_sweep_does_not_read(tmp_path: Path):
    out = tmp_path / "elsewhere" / "passes_dump" / "reports"
    with pytest.raises(OutputError, match="is inside the dump directory .*passes_dump; write it elsewhere$"):
        check_sweep_out_dir(out, [])

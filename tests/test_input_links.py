"""One rule for directory links in every input kind (a ptoas unit, a program's passes_dump/, an
op directory of an MLIR tree, a tree's top segment): refused in one line naming the link, or
followed with --follow-inner-symlinks when the target stays inside what was given. A report is
shared, so a link never brings in a file from elsewhere, and `/` is never walked."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from conftest import run_cli
from hostile_support import assert_error_line
from multi_trace_support import MODULE, write_program
from test_mlir_tree import ROOT, WRITES, write_tree

from ir_trace.errors import DumpError
from ir_trace.inputs.traces import discover_traces

FLAG = "--follow-inner-symlinks"


def error_of(path: Path, follow: bool = False) -> str:
    with pytest.raises(DumpError) as info:
        discover_traces(path, follow_inner_symlinks=follow)
    return str(info.value)


def program_with_outside_unit(tmp_path: Path) -> tuple[Path, Path]:
    """A program whose unit kernel_b is a link to a tree outside it holding a secret."""
    program = write_program(tmp_path)
    outside = tmp_path / "elsewhere" / "kernel_b"
    shutil.move(program / "ptoas_passes" / "kernel_b", outside)
    dump = next((outside / MODULE).iterdir())
    dump.write_text(dump.read_text() + "// TOPSECRET\n")
    (program / "ptoas_passes" / "kernel_b").symlink_to(outside)
    return program, program / "ptoas_passes" / "kernel_b"


def test_a_unit_linked_out_of_the_program_is_refused_and_nothing_of_it_is_written(tmp_path):
    program, link = program_with_outside_unit(tmp_path)
    report = tmp_path / "r.html"
    for extra in ([], [FLAG]):
        result = run_cli(program, "-o", report, "--no-cache", *extra)
        line = assert_error_line(result, str(link), "outside the dump")
        assert "TOPSECRET" not in line
    assert not report.exists()


@pytest.mark.parametrize("follow", [False, True])
def test_a_unit_linked_to_the_root_directory_is_refused_before_any_walk(tmp_path, follow):
    program = write_program(tmp_path)
    link = program / "ptoas_passes" / "kernel_c"
    link.symlink_to("/")
    message = error_of(program, follow)
    assert message.startswith(f"directory is a symlink to a directory outside the dump: {link} -> /")


def test_a_unit_linked_inside_the_program_needs_the_flag(tmp_path):
    program = write_program(tmp_path)
    store = program / "units_store"
    store.mkdir()
    shutil.move(program / "ptoas_passes" / "kernel_b", store / "kernel_b")
    (program / "ptoas_passes" / "kernel_b").symlink_to(store / "kernel_b")
    message = error_of(program)
    assert str(program / "ptoas_passes" / "kernel_b") in message and FLAG in message
    labels = [trace.label for trace in discover_traces(program, follow_inner_symlinks=True)]
    assert labels == ["pypto", "ptoas kernel_a", "ptoas kernel_b"]


def test_a_passes_dump_linked_out_of_the_program_is_refused(tmp_path):
    program = write_program(tmp_path)
    shutil.move(program / "passes_dump", tmp_path / "passes_dump")
    (program / "passes_dump").symlink_to(tmp_path / "passes_dump")
    assert str(program / "passes_dump") in error_of(program, True)


def tree_with_linked_op_directory(tmp_path: Path) -> tuple[Path, Path]:
    """The WRITES tree with its func_func_b op directory moved to a hidden place inside it and linked."""
    tree = write_tree(tmp_path / "tree", WRITES)
    store = tree / ".store"
    store.mkdir()
    shutil.move(tree / ROOT / "func_func_b", store / "func_func_b")
    (tree / ROOT / "func_func_b").symlink_to(store / "func_func_b")
    return tree, tree / ROOT / "func_func_b"


def test_a_linked_directory_inside_a_tree_is_not_dropped_silently(tmp_path):
    tree, link = tree_with_linked_op_directory(tmp_path)
    message = error_of(tree)
    assert message.startswith(f"directory is a symlink: {link} -> ") and FLAG in message
    [trace] = discover_traces(tree, follow_inner_symlinks=True)
    assert len(trace.manifest.snapshots) == len(WRITES)


def test_a_tree_whose_top_segment_is_a_link_says_so(tmp_path):
    tree = write_tree(tmp_path / "tree", WRITES)
    shutil.move(tree / ROOT, tmp_path / ROOT)
    (tree / ROOT).symlink_to(tmp_path / ROOT)
    for follow in (False, True):
        message = error_of(tree, follow)
        assert str(tree / ROOT) in message and "outside the dump" in message and "passes_dump" not in message
    result = run_cli(tree, "-o", tmp_path / "r.html", "--no-cache")
    assert_error_line(result, str(tree / ROOT), "outside the dump")


def test_a_tree_whose_top_segment_links_inside_it_reads_with_the_flag(tmp_path):
    tree = write_tree(tmp_path / "tree", WRITES)
    os.mkdir(tree / ".real")
    shutil.move(tree / ROOT, tree / ".real" / ROOT)
    (tree / ROOT).symlink_to(tree / ".real" / ROOT)
    assert FLAG in error_of(tree) and str(tree / ROOT) in error_of(tree)
    [trace] = discover_traces(tree, follow_inner_symlinks=True)
    assert len(trace.manifest.snapshots) == len(WRITES)


def test_a_directory_link_that_loops_is_refused(tmp_path):
    tree = write_tree(tmp_path / "tree", WRITES)
    link = tree / ROOT / "func_func_a" / "again"
    link.symlink_to(tree / ROOT)
    message = error_of(tree, True)
    assert str(link) in message and "loop" in message

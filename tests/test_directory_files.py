"""DirectoryFiles (inputs/discovery.py): a tree's files read with each directory opened once, under
read_dump_file's rules: no link followed (file or directory), no FIFO or device read, the same messages."""

from __future__ import annotations

import os
import threading

import pytest

from ir_trace.errors import DumpError
from ir_trace.inputs.dump_files import DirectoryFiles, read_dump_file
from ir_trace.inputs.traces import discover_traces

HEADER = "// -----// IR Dump After CSE (cse) ('builtin.module' operation) //----- //\n"


def tree(tmp_path, dumps: int = 3):
    root = tmp_path / "tree"
    folder = root / "builtin_module_no-symbol-name"
    folder.mkdir(parents=True)
    for k in range(dumps):
        (folder / f"{k}_cse.mlir").write_text(f"{HEADER}module {{\n  %c = arith.constant {k} : i32\n}}\n")
    return root, folder


def message(read, *args) -> str:
    with pytest.raises(DumpError) as caught:
        read(*args)
    return str(caught.value)


def open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def test_it_reads_what_read_dump_file_reads_and_closes_what_it_opened(tmp_path):
    root, folder = tree(tmp_path)
    (root / "top.mlir").write_text("top\n")
    before = open_fds()
    with DirectoryFiles(root) as below:
        for path in [*sorted(folder.iterdir()), root / "top.mlir"]:
            assert below.read(path) == read_dump_file(path, root)
    assert open_fds() == before


def linked_out(tmp_path, folder):
    """The tree's 1_cse.mlir made a link to a dump outside it."""
    outside = tmp_path / "outside.mlir"
    outside.write_text(HEADER + "module {}\n")
    link = folder / "1_cse.mlir"
    link.unlink()
    link.symlink_to(outside)
    return link


def test_a_symlinked_file_is_refused_with_read_dump_files_message(tmp_path):
    root, folder = tree(tmp_path)
    link = linked_out(tmp_path, folder)
    with DirectoryFiles(root) as below:
        said = message(below.read, link)
    assert said == message(read_dump_file, link, root) and str(link) in said
    with DirectoryFiles(root, follow_inner_symlinks=True) as below:  # followed, it still leads outside
        assert "outside the dump" in message(below.read, link)


def test_a_symlinked_directory_is_refused_and_followed_only_when_asked(tmp_path):
    root, folder = tree(tmp_path)
    alias = root / "alias"
    alias.symlink_to(folder, target_is_directory=True)
    inside = alias / "0_cse.mlir"
    with DirectoryFiles(root) as below:
        said = message(below.read, inside)
    assert said == message(read_dump_file, inside, root) and str(alias) in said
    with DirectoryFiles(root, follow_inner_symlinks=True) as below:  # a link inside the dump, allowed
        assert below.read(inside) == (folder / "0_cse.mlir").read_bytes()


def test_a_fifo_is_refused_without_blocking(tmp_path):
    root, folder = tree(tmp_path)
    fifo = folder / "2_cse.mlir"
    fifo.unlink()
    os.mkfifo(fifo)
    said: list[str] = []

    def read() -> None:
        with DirectoryFiles(root) as below:
            said.append(message(below.read, fifo))

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(timeout=30)
    assert not reader.is_alive(), "reading a FIFO blocked"
    assert said == [message(read_dump_file, fifo, root)] and "not a regular file" in said[0]


def test_more_directories_than_it_keeps_open_are_read_with_a_bounded_number_of_fds(tmp_path):
    root = tmp_path / "tree"
    paths = []
    for k in range(DirectoryFiles._KEPT + 16):
        folder = root / f"d{k}"
        folder.mkdir(parents=True)
        (folder / "0_cse.mlir").write_text(f"{k}\n")
        paths.append(folder / "0_cse.mlir")
    before = open_fds()
    with DirectoryFiles(root) as below:
        for path in paths + paths[:3]:  # the first directories again, after they were closed
            assert below.read(path) == path.read_bytes()
            assert open_fds() <= before + DirectoryFiles._KEPT
    assert open_fds() == before


def test_a_tree_with_a_linked_dump_is_refused_naming_it(tmp_path):
    root, folder = tree(tmp_path)
    linked_out(tmp_path, folder)
    with pytest.raises(DumpError, match="1_cse.mlir"):
        discover_traces(root)

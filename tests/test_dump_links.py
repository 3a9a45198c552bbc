"""Snapshots and logs that are symlinks or not regular files: a report is meant to be shared, so
it never carries a file from outside the dump (`ln -s /etc/shadow 05_after_X.py`); links that stay
inside it are read only with --follow-inner-symlinks; every refusal is one line naming the file."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest
from conftest import FRONTEND, demo_passes, run_cli, write_dump
from hostile_support import assert_error_line

from ir_trace.errors import DumpError
from ir_trace.inputs.discovery import discover_snapshots
from ir_trace.inputs.dump_files import read_dump_file

FLAG = "--follow-inner-symlinks"


def demo(tmp_path: Path) -> Path:
    return write_dump(tmp_path / "passes_dump", demo_passes())


def secret(tmp_path: Path) -> Path:
    path = tmp_path / "secret.txt"
    path.write_text("TOKEN=hunter2\n")
    return path


def error_of(dump: Path, **options) -> str:
    with pytest.raises(DumpError) as info:
        discover_snapshots(dump, **options)
    return str(info.value)


@pytest.mark.parametrize("follow", [False, True])
def test_a_snapshot_linked_outside_the_dump_is_refused_with_or_without_the_flag(tmp_path, follow):
    dump = demo(tmp_path)
    (dump / "04_after_Leak.py").symlink_to(secret(tmp_path))
    message = error_of(dump, follow_inner_symlinks=follow)
    assert str(dump / "04_after_Leak.py") in message and "outside the dump" in message
    assert "hunter2" not in message


def test_a_link_to_proc_is_refused_and_nothing_of_it_reaches_the_report(tmp_path):
    dump = demo(tmp_path)
    (dump / "04_after_Leak.py").symlink_to("/proc/self/environ")
    report = tmp_path / "r.html"
    for extra in ([], [FLAG]):
        result = run_cli(dump, "-o", report, "--no-cache", *extra)
        assert_error_line(result, str(dump / "04_after_Leak.py"), "outside the dump")
    assert not report.exists()


def test_a_log_linked_outside_the_dump_is_refused(tmp_path):
    dump = demo(tmp_path)
    (dump / "03_after_InsertSync.log").symlink_to(secret(tmp_path))
    assert str(dump / "03_after_InsertSync.log") in error_of(dump, follow_inner_symlinks=True)


def test_a_link_inside_the_dump_needs_the_flag(tmp_path):
    dump = demo(tmp_path)
    keep = dump / "kept"
    keep.mkdir()
    (keep / "simplified.py").write_text((dump / "02_after_Simplify.py").read_text())
    (dump / "02_after_Simplify.py").unlink()
    (dump / "02_after_Simplify.py").symlink_to("kept/simplified.py")
    message = error_of(dump)
    assert str(dump / "02_after_Simplify.py") in message and FLAG in message
    manifest = discover_snapshots(dump, follow_inner_symlinks=True)
    assert [s.file for s in manifest.snapshots][2] == "02_after_Simplify.py"

    report = tmp_path / "r.html"
    assert_error_line(run_cli(dump, "-o", report, "--cache-dir", tmp_path / "cache"), FLAG)
    ok = run_cli(dump, "-o", report, "--cache-dir", tmp_path / "cache", FLAG)
    assert ok.returncode == 0, ok.stderr
    # The validated manifest is cached under the flag: without it the same dump is refused again.
    assert_error_line(run_cli(dump, "-o", tmp_path / "r2.html", "--cache-dir", tmp_path / "cache"), FLAG)


def test_a_link_to_another_snapshot_of_the_dump_reads_with_the_flag(tmp_path):
    dump = demo(tmp_path)
    (dump / "02_after_Simplify.py").unlink()
    (dump / "02_after_Simplify.py").symlink_to("01_after_ConvertToSSA.py")
    manifest = discover_snapshots(dump, follow_inner_symlinks=True)
    assert manifest.snapshots[1].sha256 == manifest.snapshots[2].sha256


def test_a_link_through_a_directory_leaving_the_dump_is_refused(tmp_path):
    dump = demo(tmp_path)
    (dump / "sub").symlink_to(tmp_path, target_is_directory=True)  # sub/secret.txt is outside
    secret(tmp_path)
    (dump / "04_after_Leak.py").symlink_to("sub/secret.txt")
    assert "outside the dump" in error_of(dump, follow_inner_symlinks=True)


def test_the_dump_itself_may_be_a_symlink(tmp_path):
    dump = demo(tmp_path)
    alias = tmp_path / "latest"
    alias.symlink_to(dump, target_is_directory=True)
    assert len(discover_snapshots(alias).snapshots) == 4


@pytest.mark.parametrize("kind", ["fifo", "socket", "device link"])
def test_anything_not_a_regular_file_is_refused(tmp_path, kind):
    dump = demo(tmp_path)
    odd = dump / "04_after_Odd.py"
    if kind == "fifo":
        os.mkfifo(odd)
    elif kind == "socket":
        server = socket.socket(socket.AF_UNIX)
        server.bind(str(odd))
        server.close()
    else:
        odd.symlink_to("/dev/zero")
    message = error_of(dump, follow_inner_symlinks=True)
    assert str(odd) in message


def test_a_long_symlink_chain_to_the_dump_says_so(tmp_path):
    demo(tmp_path)
    previous = tmp_path / "passes_dump"
    for k in range(45):
        link = tmp_path / f"hop{k}"
        link.symlink_to(previous, target_is_directory=True)
        previous = link
    message = error_of(previous)
    assert "too many levels of symbolic links" in message.lower() and str(previous) in message
    assert "does not exist" not in message


def test_a_directory_named_like_a_log_is_not_called_a_snapshot(tmp_path):
    dump = demo(tmp_path)
    (dump / "03_after_InsertSync.log").mkdir()
    message = error_of(dump)
    assert "warning log is a directory" in message and "snapshot" not in message.split(":")[0]
    assert str(dump / "03_after_InsertSync.log") in message


def test_read_dump_file_is_the_one_safe_reader(tmp_path):
    """The reader other dump formats share: regular files below the root only."""
    dump = demo(tmp_path)
    assert read_dump_file(dump / "00_frontend.py", dump) == FRONTEND.encode()
    (dump / "05_after_Leak.py").symlink_to(secret(tmp_path))
    with pytest.raises(DumpError, match="outside the dump"):
        read_dump_file(dump / "05_after_Leak.py", dump, follow_inner_symlinks=True)
    with pytest.raises(DumpError, match="outside the dump"):
        read_dump_file(tmp_path / "secret.txt", dump)

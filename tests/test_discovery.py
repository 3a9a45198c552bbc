"""Dump discovery: order, names, and a clear error for every broken dump."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import FRONTEND, write_dump

from ir_trace.errors import DumpError
from ir_trace.inputs.discovery import discover_snapshots


def error_of(path: Path) -> str:
    with pytest.raises(DumpError) as info:
        discover_snapshots(path)
    return str(info.value)


def test_numeric_order_past_99(tmp_path):
    dump = write_dump(tmp_path / "passes_dump", [FRONTEND] * 102)
    manifest = discover_snapshots(dump)
    assert [s.index for s in manifest.snapshots] == list(range(102))
    assert manifest.snapshots[100].file == "100_after_Pass100.py"
    assert manifest.title == tmp_path.name


def test_logs_attach_to_their_snapshot(demo_dump):
    snapshots = discover_snapshots(demo_dump).snapshots
    assert [s.log for s in snapshots] == [None, None, None, "warning: sync added\n"]
    assert snapshots[3].log_file == "03_after_InsertSync.log"
    assert snapshots[1].name == "ConvertToSSA" and snapshots[0].name == "frontend"


def test_manifest_round_trips_through_json(demo_dump):
    manifest = discover_snapshots(demo_dump)
    assert type(manifest).from_json(manifest.to_json()) == manifest


def test_missing_directory(tmp_path):
    assert error_of(tmp_path / "nope") == f"input directory does not exist: {tmp_path / 'nope'}"


def test_file_instead_of_directory(tmp_path):
    (tmp_path / "f.py").write_text("x")
    assert "not a directory" in error_of(tmp_path / "f.py")


def test_build_output_directory_suggests_passes_dump(demo_dump):
    message = error_of(demo_dump.parent)
    assert f"did you mean {demo_dump}?" in message


def test_no_dump_at_all_explains_how_to_produce_one(tmp_path):
    (tmp_path / "kernel.cpp").write_text("")
    message = error_of(tmp_path)
    assert "dump_passes=" in message and "lower()" in message
    assert "ptoas_passes/" in message and "--mlir-print-ir-tree-dir" in message  # the MLIR forms it also reads


def test_missing_frontend(tmp_path):
    dump = write_dump(tmp_path / "d", [FRONTEND, FRONTEND])
    (dump / "00_frontend.py").unlink()
    assert "missing 00_frontend.py" in error_of(dump)


def test_gap_names_the_missing_index(tmp_path):
    dump = write_dump(tmp_path / "d", [FRONTEND] * 4)
    (dump / "02_after_Pass2.py").unlink()
    message = error_of(dump)
    assert "missing snapshot index 02" in message and "01_after_Pass1.py" in message and "03_after_Pass3.py" in message


def test_duplicate_index(tmp_path):
    dump = write_dump(tmp_path / "d", [FRONTEND] * 2)
    (dump / "01_after_Other.py").write_text(FRONTEND)
    message = error_of(dump)
    assert (
        "duplicate snapshot index 01" in message and "01_after_Other.py" in message and "01_after_Pass1.py" in message
    )


@pytest.mark.parametrize(
    "name",
    [
        "1_frontend.py",
        "03_before_X.py",
        "after_X.py",
        "00_after_X.py",
        "02_after_.py",
        "\u0660\u0661_after_ArabicIndicDigits.py",
    ],
)
def test_malformed_names(tmp_path, name):
    dump = write_dump(tmp_path / "d", [FRONTEND] * 2)
    (dump / name).write_text(FRONTEND)
    message = error_of(dump)
    assert "malformed snapshot name" in message and name in message


def test_not_utf8_names_the_file(tmp_path):
    dump = write_dump(tmp_path / "d", [FRONTEND] * 2)
    (dump / "01_after_Pass1.py").write_bytes(b"x = '\xff\xfe'\n")
    message = error_of(dump)
    assert "not UTF-8" in message and "01_after_Pass1.py" in message


def test_snapshot_that_is_a_directory(tmp_path):
    dump = write_dump(tmp_path / "d", [FRONTEND])
    (dump / "01_after_Pass1.py").mkdir()
    message = error_of(dump)
    assert "is a directory" in message and "01_after_Pass1.py" in message


def test_log_without_snapshot(tmp_path):
    dump = write_dump(tmp_path / "d", [FRONTEND] * 2)
    (dump / "05_after_X.log").write_text("w")
    assert "05_after_X.log" in error_of(dump)


def test_a_blank_log_is_no_log(tmp_path):
    dump = write_dump(tmp_path / "d", [FRONTEND] * 3, logs={1: "", 2: "\n \n"})
    assert [(s.log_file, s.log) for s in discover_snapshots(dump).snapshots] == [(None, None)] * 3


def test_frontend_only_is_valid(tmp_path):
    manifest = discover_snapshots(write_dump(tmp_path / "d", [FRONTEND]))
    assert len(manifest.snapshots) == 1


def test_unrelated_files_are_ignored(tmp_path):
    dump = write_dump(tmp_path / "d", [FRONTEND] * 2)
    (dump / ".DS_Store").write_text("")
    (dump / "notes.txt").write_text("")
    assert len(discover_snapshots(dump).snapshots) == 2

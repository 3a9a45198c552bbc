"""Near-miss snapshot names (`05_after_X.PY`, a trailing newline, `05_after_X.py~`, ...): never silently
skipped. One that would fill a missing index or add a second file for an index is an error; a stray copy
beside the very file it names is one warning line."""

from __future__ import annotations

import logging
import shutil
from pathlib import Path

import pytest
from conftest import FRONTEND, demo_passes, run_cli, write_dump

from ir_trace.errors import DumpError
from ir_trace.inputs.discovery import discover_snapshots, near_miss_of

PROG = "pypto-ir-trace"


@pytest.mark.parametrize(
    ("name", "nearly"),
    [
        ("05_after_X.PY", "05_after_X.py"),
        ("05_after_X.Py", "05_after_X.py"),
        ("05_after_X.py\n", "05_after_X.py"),
        ("05_after_X.py ", "05_after_X.py"),
        (" 05_after_X.py", "05_after_X.py"),
        ("05_after_X.py\r\n", "05_after_X.py"),
        ("05_after_X.py~", "05_after_X.py"),
        ("05_after_X.py.bak", "05_after_X.py"),
        ("05_after_X.py.orig", "05_after_X.py"),
        ("05_after_X.PY.old", "05_after_X.py"),
        ("05_after_X.LOG", "05_after_X.log"),
        ("00_frontend.PY", "00_frontend.py"),
        # one rule, case-insensitive, any number of backup suffixes in any order
        ("49_after_X.py.BAK", "49_after_X.py"),
        ("49_after_X.py.Bak", "49_after_X.py"),
        ("49_after_X.py~~", "49_after_X.py"),
        ("49_after_X.py.bak.orig", "49_after_X.py"),
        ("49_after_X.py.orig.bak", "49_after_X.py"),
        ("49_after_X.py.bak~", "49_after_X.py"),
        ("49_after_X.PY.OLD~.Orig", "49_after_X.py"),
        ("49_after_X.py.backup", "49_after_X.py"),
        ("49_after_X.py.save", "49_after_X.py"),
        ("49_after_X.py.swp", "49_after_X.py"),
        ("49_after_X.py.tmp", "49_after_X.py"),
        ("49_after_X.py.bak ", "49_after_X.py"),
        ("49_after_X.log.BAK", "49_after_X.log"),
        ("49_after_X.py.~1~", "49_after_X.py"),
        ("49_after_X.py.~12~.bak", "49_after_X.py"),
    ],
)
def test_near_miss_names_and_the_name_they_nearly_are(name, nearly):
    assert near_miss_of(name) == nearly


@pytest.mark.parametrize(
    "name",
    [
        "05_after_X.py",
        "notes.txt",
        "05_after_X.pyc",
        "README.md",
        "05_after_X.txt",
        "build.PY",
        "00_after_X.PY",
        "05_after_X.py.~~",
        "05_after_X.py~1~",
        "~1~",
    ],
)
def test_other_names_are_not_near_misses(name):
    assert near_miss_of(name) is None


def demo(tmp_path: Path) -> Path:
    return write_dump(tmp_path / "passes_dump", demo_passes())


def error_of(dump: Path) -> str:
    with pytest.raises(DumpError) as info:
        discover_snapshots(dump)
    return str(info.value)


@pytest.mark.parametrize(
    "variant",
    [
        "03_after_InsertSync.PY",
        "03_after_InsertSync.py\n",
        "03_after_InsertSync.py~",
        "03_after_InsertSync.py.BAK",
        "03_after_InsertSync.py.Bak",
        "03_after_InsertSync.py~~",
        "03_after_InsertSync.py.bak.orig",
    ],
)
def test_a_near_miss_for_the_last_pass_is_an_error_not_a_pass_fewer(tmp_path, variant):
    dump = demo(tmp_path)
    (dump / "03_after_InsertSync.py").rename(dump / variant)
    message = error_of(dump)
    assert message.startswith("near-miss snapshot name: ") and "\n" not in message
    assert "03_after_InsertSync.py, snapshot index 03, which the dump lacks" in message
    assert "rename it to 03_after_InsertSync.py" in message


def test_a_near_miss_filling_a_gap_is_named_instead_of_the_gap(tmp_path):
    dump = demo(tmp_path)
    (dump / "01_after_ConvertToSSA.py").rename(dump / "01_after_ConvertToSSA.PY")
    assert "01_after_ConvertToSSA.PY would be 01_after_ConvertToSSA.py, snapshot index 01" in error_of(dump)


def test_a_near_miss_frontend_is_named(tmp_path):
    dump = demo(tmp_path)
    (dump / "00_frontend.py").rename(dump / "00_frontend.py ")
    assert "would be 00_frontend.py, snapshot index 00, which the dump lacks" in error_of(dump)


def test_a_near_miss_only_dump_names_the_file_not_an_empty_dump(tmp_path):
    dump = tmp_path / "passes_dump"
    dump.mkdir()
    (dump / "00_frontend.PY").write_text(FRONTEND)
    assert "would be 00_frontend.py" in error_of(dump)


def test_a_near_miss_log_the_dump_lacks_is_an_error(tmp_path):
    dump = demo(tmp_path)
    (dump / "02_after_Simplify.LOG").write_text("warning: something\n")
    assert "would be 02_after_Simplify.log, the warning log of index 02, which the dump lacks" in error_of(dump)


def test_a_near_miss_with_a_second_name_for_an_index_is_an_error(tmp_path):
    dump = demo(tmp_path)
    shutil.copy(dump / "02_after_Simplify.py", dump / "02_after_Other.PY")
    message = error_of(dump)
    assert "02_after_Other.PY would be 02_after_Other.py, a second file for index 02 beside 02_after_Simplify.py" in (
        message
    )


def test_stray_copies_beside_their_files_are_one_warning_line(tmp_path, caplog):
    dump = demo(tmp_path)
    for name in ("01_after_ConvertToSSA.py", "02_after_Simplify.py", "03_after_InsertSync.py"):
        shutil.copy(dump / name, dump / f"{name}~")
    shutil.copy(dump / "00_frontend.py", dump / "00_frontend.py\n")
    shutil.copy(dump / "00_frontend.py", dump / "00_frontend.PY")
    with caplog.at_level(logging.WARNING, logger="ir_trace"):
        manifest = discover_snapshots(dump)
    assert [s.file for s in manifest.snapshots] == [
        "00_frontend.py",
        "01_after_ConvertToSSA.py",
        "02_after_Simplify.py",
        "03_after_InsertSync.py",
    ]
    assert len(caplog.records) == 1
    message = caplog.records[0].getMessage()
    assert "\n" not in message and message.startswith(f"ignoring 5 near-miss names in {dump} (")
    assert "'00_frontend.py\\n'" in message and message.count(", ") >= 2 and "and 2 more" in message


def test_hidden_files_and_other_extensions_are_silently_not_part_of_a_dump(tmp_path, caplog):
    dump = demo(tmp_path)
    for name in (".03_after_InsertSync.py.swp", "._01_after_ConvertToSSA.py", "notes.txt", "01_after_X.pyc"):
        (dump / name).write_text("junk")
    with caplog.at_level(logging.WARNING, logger="ir_trace"):
        assert len(discover_snapshots(dump).snapshots) == 4
    assert caplog.records == []


def test_the_command_prints_the_warning_once_and_exits_0_or_the_error_and_exits_1(tmp_path):
    dump = demo(tmp_path)
    shutil.copy(dump / "02_after_Simplify.py", dump / "02_after_Simplify.py~")
    ok = run_cli(dump, "-o", tmp_path / "r.html", "--cache-dir", tmp_path / "cache")
    lines = ok.stderr.strip().splitlines()
    assert ok.returncode == 0, ok.stderr
    assert len(lines) == 2 and lines[0].startswith(f"{PROG}: warning: ignoring 1 near-miss name in ")
    assert lines[1].startswith("wrote ")

    (dump / "03_after_InsertSync.py").rename(dump / "03_after_InsertSync.py\n")
    report_before = (tmp_path / "r.html").read_bytes()
    bad = run_cli(dump, "-o", tmp_path / "r.html", "--cache-dir", tmp_path / "cache")
    assert bad.returncode == 1
    assert bad.stderr.strip().splitlines()[-1].startswith(f"{PROG}: error: near-miss snapshot name: ")
    assert "Traceback" not in bad.stderr
    assert (tmp_path / "r.html").read_bytes() == report_before

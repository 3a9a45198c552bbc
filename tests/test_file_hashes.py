"""Snapshot hashes recalled by stat stamp: an unchanged file is not read again, an edited one
always is, even when the edit keeps its size and puts its mtime back."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from conftest import write_dump

from ir_trace.errors import DumpError
from ir_trace.inputs.discovery import discover_snapshots
from ir_trace.inputs.file_hashes import SETTLED_NS, FileHashes, FileStamp, snapshot_digest


def later() -> int:
    """A clock read long after every file of the test was written (as by the next day's run)."""
    return time.time_ns() + 10 * SETTLED_NS


def validate(dump: Path, hashes: FileHashes) -> tuple[list[str], list[str]]:
    """The snapshots' hashes, and the hashes of the texts actually read."""
    read: list[str] = []
    manifest = discover_snapshots(dump, on_text=lambda sha, _text: read.append(sha), hashes=hashes)
    return [s.sha256 for s in manifest.snapshots], read


def remembered(dump: Path) -> FileHashes:
    """What a first validation of `dump` leaves, through its JSON form as the cache keeps it."""
    first = FileHashes(clock=later)
    validate(dump, first)
    return FileHashes.from_json(first.to_json(), clock=later)


def test_an_unchanged_dump_is_validated_without_reading_a_snapshot(tmp_path):
    dump = write_dump(tmp_path / "passes_dump", ["a = 1\n", "a = 2\n", "a = 3\n"])
    shas, read = validate(dump, remembered(dump))
    assert read == []
    assert shas == [snapshot_digest(p.read_bytes()) for p in sorted(dump.glob("*.py"))]


def test_an_edit_that_keeps_size_and_mtime_is_read_again(tmp_path):
    dump = write_dump(tmp_path / "passes_dump", ["a = 1\n", "a = 2\n", "a = 3\n"])
    hashes = remembered(dump)
    edited = dump / "01_after_Pass1.py"
    before = os.stat(edited)
    edited.write_text("a = 9\n", encoding="utf-8")  # same size
    os.utime(edited, ns=(before.st_atime_ns, before.st_mtime_ns))  # and the mtime put back
    assert os.stat(edited).st_size == before.st_size and os.stat(edited).st_mtime_ns == before.st_mtime_ns
    shas, read = validate(dump, hashes)
    assert read == [snapshot_digest(b"a = 9\n")] and shas[1] == read[0]


def test_a_file_read_right_after_it_was_written_is_not_remembered(tmp_path):
    dump = write_dump(tmp_path / "passes_dump", ["a = 1\n", "a = 2\n"])
    now = FileHashes()  # the real clock: the files were written a moment ago
    validate(dump, now)
    assert now.to_json() == {}
    _shas, read = validate(dump, FileHashes.from_json(now.to_json(), clock=later))
    assert len(read) == 2


def test_a_replaced_file_is_read_again(tmp_path):
    dump = write_dump(tmp_path / "passes_dump", ["a = 1\n", "a = 2\n"])
    hashes = remembered(dump)
    replacement = tmp_path / "new.py"
    replacement.write_text("a = 7\n", encoding="utf-8")
    os.replace(replacement, dump / "01_after_Pass1.py")  # a new inode
    _shas, read = validate(dump, hashes)
    assert read == [snapshot_digest(b"a = 7\n")]


def test_a_snapshot_that_became_a_symlink_is_judged_by_reading(tmp_path):
    dump = write_dump(tmp_path / "passes_dump", ["a = 1\n", "a = 2\n"])
    hashes = remembered(dump)
    target = dump / "01_after_Pass1.py"
    kept = tmp_path / "kept.py"
    os.replace(target, kept)
    os.symlink(kept, target)
    with pytest.raises(DumpError, match="is a symlink to a file outside the dump"):
        discover_snapshots(dump, hashes=hashes)


def test_only_the_files_of_the_last_validation_are_kept(tmp_path):
    dump = write_dump(tmp_path / "passes_dump", ["a = 1\n", "a = 2\n", "a = 3\n"])
    hashes = remembered(dump)
    (dump / "02_after_Pass2.py").unlink()
    validate(dump, hashes)
    assert sorted(Path(path).name for path in hashes.to_json()) == ["00_frontend.py", "01_after_Pass1.py"]


def test_anything_but_the_json_it_wrote_remembers_nothing():
    for damaged in (None, [], "x", {"p": [1, 2]}, {"p": ["a", 1, 2, 3, "sha"]}):
        assert FileHashes.from_json(damaged).to_json() == {}
    stamp = FileStamp(1, 2, 3, 4)
    hashes = FileHashes.from_json({"p": [1, 2, 3, 4, "sha"]})
    assert hashes.recall("p", stamp) == "sha" and hashes.recall("p", FileStamp(1, 2, 3, 5)) is None

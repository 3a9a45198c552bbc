"""A text read again for the work after validation (its held copy let go) is not hashed again while its file's stamp
is the one validated (cache/session.py `Session.file_hashes`); a file rewritten since is hashed and refused."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import generate_dump

from ir_trace.cache.session import Session
from ir_trace.errors import DumpError
from ir_trace.inputs import discovery, file_hashes
from ir_trace.pipeline.config import session
from ir_trace.pipeline.snapshots import load_snapshot


@pytest.fixture
def counted(monkeypatch) -> list[int]:
    """Every text's hash worked out, by size; texts never held (each one read again), files settled at once."""
    hashed: list[int] = []
    digest = discovery.snapshot_digest
    monkeypatch.setattr(
        discovery,
        "snapshot_digest",
        lambda data: (hashed.append(len(data)), digest(data))[1],
    )
    monkeypatch.setattr(Session, "text_keeper", lambda self: lambda sha, text: None)
    monkeypatch.setattr(file_hashes, "SETTLED_NS", 0)
    session().forget()
    return hashed


def validated(dump: Path) -> discovery.Manifest:
    """The dump validated as `pipeline.snapshots.validate` does it, its hashes handed to this process's session."""
    hashes = file_hashes.FileHashes()
    manifest = discovery.discover_snapshots(dump, hashes=hashes)
    session().file_hashes.learn(hashes)
    return manifest


def test_texts_read_again_are_not_hashed_again(tmp_path: Path, counted: list[int]):
    dump = generate_dump(tmp_path / "gen" / "passes_dump", "--functions", "5", "--lines", "8", "--passes", "8")
    manifest = validated(dump)
    assert len(counted) == len(manifest.snapshots) == len(list(dump.glob("*.py")))
    for snapshot in manifest.snapshots:
        path = manifest.path_of(snapshot)
        assert load_snapshot(str(path), snapshot.sha256).text == path.read_text(encoding="utf-8")
    assert len(counted) == len(manifest.snapshots)  # each read again, known by its stamp: none hashed again


def test_a_file_rewritten_since_validation_is_hashed_and_refused(tmp_path: Path, counted: list[int]):
    dump = generate_dump(tmp_path / "gen" / "passes_dump", "--functions", "3", "--lines", "5", "--passes", "3")
    manifest = validated(dump)
    snapshot = manifest.snapshots[1]
    first = manifest.path_of(snapshot)
    assert load_snapshot(str(first), snapshot.sha256).text == first.read_text(encoding="utf-8")
    assert len(counted) == len(manifest.snapshots)  # read again, known by its stamp
    session().forget()
    first.write_bytes(first.read_bytes().replace(b"t", b"u", 1))  # the same size, a new ctime
    with pytest.raises(DumpError, match="changed while the report was being built"):
        load_snapshot(str(first), snapshot.sha256)
    assert len(counted) == len(manifest.snapshots) + 1

"""Validation keeps the first texts it reads, as many as fit (`Session.text_keeper`): the work takes them in that
order, so those are the ones it needs first; a text no one keeps is checked to be UTF-8 but not decoded."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import generate_dump

from ir_trace.errors import DumpError
from ir_trace.inputs import discovery
from ir_trace.pipeline.config import session


@pytest.fixture
def decoded(monkeypatch) -> list[int]:
    """The size of every text decoded; the session's texts emptied first and put back after."""
    sizes: list[int] = []
    decode = discovery._decoded
    monkeypatch.setattr(
        discovery, "_decoded", lambda data, path, offset: (sizes.append(len(data)), decode(data, path, offset))[1]
    )
    session().forget()
    yield sizes
    session().forget()


def snapshot_files(dump: Path) -> list[Path]:
    return sorted(dump.glob("*.py"), key=lambda path: int(path.name.split("_")[0]))


def test_the_first_texts_are_kept_and_the_rest_are_not_decoded(tmp_path: Path, decoded: list[int], monkeypatch):
    dump = generate_dump(
        tmp_path / "gen" / "passes_dump", "--functions", "4", "--lines", "6", "--passes", "9", "--noop-ratio", "0"
    )
    files = snapshot_files(dump)
    sizes = [len(path.read_text(encoding="utf-8")) for path in files]
    monkeypatch.setattr(session().texts, "limit", sum(sizes[:3]) + sizes[3] // 2)  # room for three, then half of one
    manifest = discovery.discover_snapshots(dump, session().text_keeper())
    kept = [snapshot.sha256 for snapshot in manifest.snapshots if session().texts.get(snapshot.sha256) is not None]
    assert kept == [snapshot.sha256 for snapshot in manifest.snapshots[:3]]
    assert decoded == [path.stat().st_size for path in files[:4]]  # the fourth did not fit: no more decoded after it


def test_a_text_no_one_keeps_is_still_refused_when_it_is_not_utf8(tmp_path: Path, decoded: list[int], monkeypatch):
    dump = generate_dump(
        tmp_path / "gen" / "passes_dump", "--functions", "2", "--lines", "4", "--passes", "4", "--noop-ratio", "0"
    )
    last = snapshot_files(dump)[-1]
    last.write_bytes(last.read_bytes() + b"# \xff\n")
    monkeypatch.setattr(session().texts, "limit", 1)  # keeps nothing
    with pytest.raises(DumpError, match=r"snapshot is not UTF-8: .*invalid byte at offset"):
        discovery.discover_snapshots(dump, session().text_keeper())
    first = snapshot_files(dump)[0]
    assert decoded == [first.stat().st_size, last.stat().st_size]  # the first did not fit: ASCII ones decoded no more


def test_a_second_dump_validated_in_the_process_keeps_its_own_texts(tmp_path: Path, decoded: list[int], monkeypatch):
    """The texts an earlier validation kept (another dump's, a sweep's or an API caller's) are let go for this one's."""
    first = generate_dump(
        tmp_path / "a" / "passes_dump", "--functions", "3", "--lines", "6", "--passes", "6", "--noop-ratio", "0"
    )
    second = generate_dump(
        tmp_path / "b" / "passes_dump",
        "--functions",
        "4",
        "--lines",
        "5",
        "--passes",
        "5",
        "--noop-ratio",
        "0",
        "--seed",
        "9",
    )
    sizes = [len(path.read_text(encoding="utf-8")) for path in snapshot_files(first)]
    monkeypatch.setattr(session().texts, "limit", sum(sizes))  # room for the first dump's texts, all of them
    discovery.discover_snapshots(first, session().text_keeper())
    manifest = discovery.discover_snapshots(second, session().text_keeper())
    held = [snapshot.sha256 for snapshot in manifest.snapshots if session().texts.get(snapshot.sha256) is not None]
    assert held and held == [snapshot.sha256 for snapshot in manifest.snapshots[: len(held)]]

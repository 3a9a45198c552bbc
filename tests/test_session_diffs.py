"""A cold run's report takes the diffs and slicings this process computed from memory (cache/session.py
`Session.results`), not back from the cache it has just written them to; what it takes equals what the cache
gives."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import generate_dump

from ir_trace import api
from ir_trace.cache.session import Recent
from ir_trace.cache.store import ResultCache, open_cache
from ir_trace.pipeline.config import session
from ir_trace.pipeline.snapshots import SliceResult
from ir_trace.report.model import PairDiff
from ir_trace.report.render import read_payload


@pytest.fixture
def dump(tmp_path: Path) -> Path:
    return generate_dump(tmp_path / "gen" / "passes_dump", "--functions", "6", "--lines", "12", "--passes", "9")


def _payload(report: Path) -> dict:
    return read_payload(report.read_text(encoding="utf-8"))


def test_the_report_takes_the_computed_diffs_which_equal_the_stored_ones(tmp_path, dump, monkeypatch):
    kept: dict[str, PairDiff] = {}
    read: list[str] = []
    put, get = Recent.put, ResultCache.get
    monkeypatch.setattr(Recent, "put", lambda self, key, value: (kept.__setitem__(key, value), put(self, key, value)))

    def got(self, key):
        found = get(self, key)
        if found is not None:  # looked up before being computed (a slicing a pair needs) is no read back
            read.append(key)
        return found

    monkeypatch.setattr(ResultCache, "get", got)
    api.render(str(dump), str(tmp_path / "r.html"), cache_dir=str(tmp_path / "cache"))
    diffs = {key: value for key, value in kept.items() if isinstance(value, PairDiff)}
    slicings = {key: value for key, value in kept.items() if isinstance(value, SliceResult)}
    assert len(diffs) >= 5 and len(slicings) >= 5  # the dump's changed pairs and distinct snapshots, computed here
    assert not (set(diffs) | set(slicings)) & set(read)  # none read back from the cache
    assert not (set(diffs) | set(slicings)) & set(session().results._values)  # each one taken by the report
    stored = open_cache(tmp_path / "cache")
    for key, diff in diffs.items():
        assert PairDiff.from_json(stored.get(key)) == diff
    for key, sliced in slicings.items():
        assert SliceResult.from_json(stored.get(key)) == sliced


def test_the_page_is_the_one_made_from_the_cache(tmp_path, dump, monkeypatch):
    api.render(str(dump), str(tmp_path / "cold.html"), cache_dir=str(tmp_path / "cache"))
    monkeypatch.setattr(Recent, "take", lambda self, key: None)  # every diff and slicing read from the cache
    api.render(str(dump), str(tmp_path / "from_cache.html"), cache_dir=str(tmp_path / "cache"))
    assert _payload(tmp_path / "cold.html") == _payload(tmp_path / "from_cache.html")


def test_at_most_the_limit_is_kept():
    recent: Recent[str, str] = Recent(10, len)
    for key in "abcd":
        recent.put(key, key * 4)
    assert recent.size == 8 and recent.take("a") is None and recent.take("d") == "dddd" and recent.size == 4
    assert recent.take("d") is None

"""A value too large for the cache's database goes to a value file as UTF-8 text, written from its
bytes (diskcache's own text path copies it into a StringIO, 4 bytes a character: a large summary's
peak memory), and reads back as the same value."""

from __future__ import annotations

import glob
import json
import os

from conftest import traced_peak

from ir_trace.cache.store import ResultCache


def test_a_large_value_reads_back_and_its_file_is_utf8_text(tmp_path):
    cache = ResultCache(tmp_path / "cache")
    value = {"passes": [{"name": f"pass «{k}» 漢字 \U0001f600", "lines": ["a\nb"] * 3} for k in range(5000)]}
    cache.put("large", value)
    assert cache.get("large") == value
    files = glob.glob(os.path.join(tmp_path, "cache", "**", "*.val"), recursive=True)
    assert len(files) == 1
    with open(files[0], encoding="utf-8") as stored:
        checksum, _, body = stored.read().partition("\n")
    assert json.loads(body) == value and len(checksum) == 32


def test_a_large_value_is_written_without_a_copy_four_bytes_a_character(tmp_path):
    cache = ResultCache(tmp_path / "cache")
    value = {"passes": ["x" * 100 for _ in range(100_000)]}  # about 10 MB of JSON
    _none, peak = traced_peak(lambda: cache.put("large", value))
    text_size = 10_500_000
    assert peak < 4 * text_size  # the StringIO alone was 4 x the text, beside the text and its bytes
    assert cache.get("large") == value


def test_a_large_value_is_read_back_without_copying_its_text(tmp_path):
    cache = ResultCache(tmp_path / "cache")
    value = {"passes": ["x" * 1000 for _ in range(10_000)]}  # about 10 MB of JSON, few objects
    cache.put("large", value)
    got, peak = traced_peak(lambda: cache.get("large"))
    assert got == value
    text_size = 10_000_000
    assert peak < 2.6 * text_size  # the text read, the values parsed; no body slice nor its UTF-8 bytes


def test_an_entry_with_text_after_its_value_is_damage(tmp_path):
    cache = ResultCache(tmp_path / "cache")
    cache.put("k", {"a": 1})
    body = '{"a":1}{"a":2}'
    from ir_trace.cache.on_disk import _checksum

    cache._cache.set("k", f"{_checksum(body)}\n{body}")  # the checksum right, the JSON not one value
    assert cache.get("k") is None
    assert "k" not in cache


def test_a_large_text_goes_to_its_value_file_a_window_at_a_time(tmp_path):
    """The stored text is encoded a window at a time, never as one UTF-8 copy beside it (a 100,000-pass
    summary's copy was a run's peak)."""
    cache = ResultCache(tmp_path / "cache")
    text = "é" * 5_000_000 + "x" * 5_000_000  # 15 MB as UTF-8
    _none, peak = traced_peak(lambda: cache._cache.set("k", text))
    assert peak < 8_000_000  # a few windows, not the 15 MB of bytes
    assert cache._cache.get("k") == text

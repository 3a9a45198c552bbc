"""The result cache read without diskcache (cache/read_only.py): what a rerun reads to find its report current.
It reads what `store.ResultCache` reads, and calls anything `ResultCache` would treat as damage unreadable."""

from __future__ import annotations

import sqlite3
from contextlib import closing

import diskcache.core
import pytest
from conftest import run_cli

from ir_trace.cache import read_only
from ir_trace.cache.read_only import ReadOnlyCache, Unreadable
from ir_trace.cache.report_record import configured_state, current_report, current_report_read_only
from ir_trace.cache.store import ResultCache


def test_its_modes_are_diskcaches():
    assert (read_only.MODE_RAW, read_only.MODE_TEXT) == (diskcache.core.MODE_RAW, diskcache.core.MODE_TEXT)


def test_it_reads_what_the_cache_holds_in_its_rows_and_in_value_files(tmp_path):
    cache = ResultCache(tmp_path)
    small, large = {"a": [1, "é"]}, {"text": "x\r\ny" * 50_000}  # the large one goes to a value file
    cache.put_many({"small": small, "large": large})
    with ReadOnlyCache(tmp_path) as peek:
        assert peek.get("small") == small == cache.get("small")
        assert peek.get("large") == large == cache.get("large")
        assert peek.get("absent") is None and "absent" not in peek and "small" in peek
    with closing(sqlite3.connect(tmp_path / "cache.db")) as db:
        assert {row[0] for row in db.execute("SELECT mode FROM Cache")} == {read_only.MODE_RAW, read_only.MODE_TEXT}


def test_what_the_cache_would_drop_is_unreadable_and_left_as_it_is(tmp_path):
    cache = ResultCache(tmp_path)
    cache.put_many({"good": 1, "bad": 2})
    with closing(sqlite3.connect(tmp_path / "cache.db")) as db, db:
        db.execute("UPDATE Cache SET value = ? WHERE key = 'bad'", ("0" * 32 + "\n2",))  # checksum mismatch
        db.execute(
            "INSERT INTO Cache (key, raw, store_time, access_time, access_count, mode, size, value) "
            "VALUES ('pickled', 1, 0, 0, 0, 4, 0, X'80')"
        )
    with ReadOnlyCache(tmp_path) as peek:
        assert peek.get("good") == 1
        for key in ("bad", "pickled"):
            with pytest.raises(Unreadable):
                peek.get(key)
    assert ResultCache(tmp_path).get("bad") is None  # the ordinary path: dropped as damaged, with its warning


def test_no_database_or_a_damaged_one_is_unreadable(tmp_path):
    with pytest.raises(Unreadable):
        ReadOnlyCache(tmp_path / "none")
    (tmp_path / "cache.db").write_bytes(b"not a database" * 100)
    with pytest.raises(Unreadable), ReadOnlyCache(tmp_path) as peek:
        peek.get("any")


def test_read_only_the_report_is_current_exactly_when_the_cache_says_so(tmp_path, demo_dump):
    report, cache_dir = tmp_path / "r.html", tmp_path / "cache"
    state = configured_state(str(demo_dump), False)

    def both(context: int = 3):
        args = (str(demo_dump), str(report), context, "", False, state)
        return current_report(ResultCache(cache_dir), *args), current_report_read_only(cache_dir, *args)

    assert current_report_read_only(cache_dir, str(demo_dump), str(report), 3, "", False, state) is None  # no cache
    assert run_cli(demo_dump, "-o", report, "--cache-dir", cache_dir).returncode == 0
    by_diskcache, read = both()
    assert read is not None and read == by_diskcache and read.summary == by_diskcache.summary
    assert both(context=5) == (None, None)
    report.write_text("edited", encoding="utf-8")
    assert both() == (None, None)

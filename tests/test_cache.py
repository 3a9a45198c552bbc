"""The result cache on disk (ir_trace/cache/store.py): JSON values in and out, presence in bulk, damage as a miss."""

from __future__ import annotations

import sqlite3

from ir_trace.cache.store import ResultCache, open_cache


def test_a_value_comes_back_as_the_json_that_was_put(tmp_path):
    cache = ResultCache(tmp_path / "c")
    cache.put("diff/x", {"hunks": [[0, 1, 0, 1, ["é"], []]], "inserted": 1, "deleted": 1})
    assert cache.get("diff/x") == {"hunks": [[0, 1, 0, 1, ["é"], []]], "inserted": 1, "deleted": 1}
    assert cache.get("diff/missing") is None
    assert "diff/x" in cache and "diff/missing" not in cache


def test_values_put_together_are_all_kept_and_survive_reopening(tmp_path):
    cache = ResultCache(tmp_path / "c")
    cache.put_many({f"k/{i}": {"i": i} for i in range(50)})
    cache.close()
    again = ResultCache(tmp_path / "c")
    assert [again.get(f"k/{i}") for i in range(50)] == [{"i": i} for i in range(50)]


def test_presence_in_bulk_names_exactly_the_keys_held(tmp_path):
    cache = ResultCache(tmp_path / "c")
    held = [f"diff/{i}" for i in range(0, 1200, 2)]  # more keys than one query takes
    cache.put_many({key: i for i, key in enumerate(held)})
    asked = [f"diff/{i}" for i in range(1200)]
    assert cache.present(asked) == set(held)
    assert cache.present([]) == set()


def test_a_value_whose_checksum_does_not_match_is_a_miss_and_is_dropped(tmp_path):
    cache = ResultCache(tmp_path / "c")
    cache.put("k", {"a": 1})
    cache._cache.set("k", '0000\n{"a": 2}')  # what a torn or edited entry looks like
    assert cache.get("k") is None
    assert "k" not in cache


def test_a_garbage_database_in_a_cache_we_created_is_moved_aside_and_replaced(tmp_path):
    directory = tmp_path / "c"
    ResultCache(directory).put("k", 1)
    (directory / "cache.db").write_bytes(b"not a database" * 100)
    cache = open_cache(directory)
    assert cache.get("k") is None
    cache.put("k", 2)
    assert cache.get("k") == 2
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith("c.damaged-")], "the damaged cache was not kept"
    with sqlite3.connect(directory / "cache.db") as connection:  # a real database again
        assert connection.execute("SELECT count(*) FROM Cache").fetchone()[0] == 1

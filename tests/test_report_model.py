"""The typed report model (report/model.py): JSON round trips, the page's positional form unchanged,
and a cached diff of another schema recomputed, never read nor a crash."""

from __future__ import annotations

import json
import sqlite3

import pytest
from conftest import run_cli, write_dump

from ir_trace.diffcore.linediff import count_changes, diff_snapshots, hunks_to_json, split_lines
from ir_trace.report.model import MODEL_SCHEMA, Hunk, PairDiff
from ir_trace.report.render import read_payload

CASES = {  # before, after: edits, insertions, a move, no final newline, a byte order mark
    "edit": ("a\nb\nc\n", "a\nB\nc\nd\n"),
    "move": ("def f():\n    x\n\ndef g():\n    y\n", "def g():\n    y\n\ndef f():\n    x\n"),
    "no_eol": ("a\nb\n", "a\nb2"),
    "bom": ("a\n", "\ufeffa\n"),
    "wide": ("x = '\U0001f600a'\n", "x = '\U0001f600b'\n"),
}


def diff(before: str, after: str):
    (a, a_eol), (b, b_eol) = split_lines(before), split_lines(after)
    return diff_snapshots(a, b, a_eol, b_eol), b


@pytest.mark.parametrize("case", CASES)
def test_a_hunks_page_form_is_the_line_diffs_payload_form(case):
    hunks, b = diff(*CASES[case])
    typed = [Hunk.from_diff(hunk, b) for hunk in hunks]
    assert json.dumps([h.to_page() for h in typed]) == json.dumps(hunks_to_json(hunks, b))


@pytest.mark.parametrize("case", CASES)
def test_a_hunk_and_a_pair_diff_survive_their_json_form(case):
    hunks, b = diff(*CASES[case])
    typed = tuple(Hunk.from_diff(hunk, b) for hunk in hunks)
    for hunk in typed:
        assert Hunk.from_json(json.loads(json.dumps(hunk.to_json()))) == hunk
    inserted, deleted = count_changes(hunks)
    pair = PairDiff(typed, inserted, deleted, CASES[case][1].endswith("\n"), {"ssa": (inserted, deleted)})
    stored = json.loads(json.dumps(pair.to_json()))
    assert PairDiff.from_json(stored) == pair
    assert stored["schema"] == MODEL_SCHEMA and all(isinstance(h, dict) for h in stored["hunks"])  # named fields
    assert PairDiff.from_json(stored).to_page() == json.loads(json.dumps(pair.to_page()))


@pytest.mark.parametrize(
    "damage",
    [
        lambda d: {**d, "schema": MODEL_SCHEMA + 1},
        lambda d: {key: value for key, value in d.items() if key != "schema"},
        lambda d: {**d, "hunks": [[0, 1, 0, 1, ["x"], []]]},  # the positional layout before the model
        lambda d: {**d, "hunks": [{"before": [0]}]},
        lambda d: "damaged",
        lambda d: None,
    ],
    ids=["newer-schema", "no-schema", "positional-hunks", "short-hunk", "text", "none"],
)
def test_anything_but_this_schemas_pair_diff_reads_as_none(damage):
    hunks, b = diff(*CASES["edit"])
    pair = PairDiff(tuple(Hunk.from_diff(h, b) for h in hunks), 2, 1, True, {})
    assert PairDiff.from_json(damage(pair.to_json())) is None


def test_a_cached_diff_of_another_schema_is_rediffed_and_the_report_is_the_same(tmp_path):
    dump = write_dump(tmp_path / "passes_dump", ["a\nb\n", "a\nB\n", "a\nB\nc\n"])
    cache_dir = tmp_path / "cache"
    first = run_cli(dump, "-o", tmp_path / "r.html", "--cache-dir", cache_dir)
    assert first.returncode == 0, first.stderr
    with sqlite3.connect(cache_dir / "cache.db") as database:
        keys = [key for (key,) in database.execute("SELECT key FROM Cache WHERE key LIKE 'diff/%'")]
    from ir_trace.cache.store import open_cache

    cache = open_cache(cache_dir)
    try:
        for key in keys:  # a valid entry of the next schema: not this code's to read
            cache.put(key, {**cache.get(key), "schema": MODEL_SCHEMA + 1})
    finally:
        cache.close()
    again = run_cli(dump, "-o", tmp_path / "r2.html", "--cache-dir", cache_dir)
    assert again.returncode == 0, again.stderr
    assert f"· {len(keys)} pairs rediffed, 0 from cache ·" in again.stderr, again.stderr
    payloads = [read_payload((tmp_path / name).read_text(encoding="utf-8")) for name in ("r.html", "r2.html")]
    assert payloads[0]["passes"] == payloads[1]["passes"]

"""The ignore-mode counts a pair's cached diff carries (report/ignore_counts.py): which sets, that they
equal what `--json` counts under the same modes, their cached form, and that an entry without them
(an older layout) is recomputed, never read as it is."""

from __future__ import annotations

import json
import sqlite3

import pytest
from conftest import demo_passes, run_cli, write_dump

from ir_trace.cache.fingerprints import IGNORE_COUNTS_VERSION, MODEL_VERSION, diff_key, source_version
from ir_trace.cache.store import open_cache
from ir_trace.noise.normalize import MODES, IgnoreModes
from ir_trace.report.ignore_counts import OFFERED, ignore_counts, precomputed_sets
from ir_trace.report.model import PairDiff
from ir_trace.report.render import read_payload

RENAMES = [  # pass 1 only renumbers SSA versions; pass 2 only reindents; pass 3 does both and adds a line
    "def f(x):\n    a__ssa_v0 = x\n    return a__ssa_v0\n",
    "def f(x):\n    a__ssa_v1 = x\n    return a__ssa_v1\n",
    "def f(x):\n      a__ssa_v1 = x\n      return a__ssa_v1\n",
    "def f(x):\n    a__ssa_v2 = x\n    b = a__ssa_v2\n    return b\n",
]


def test_each_offered_mode_then_the_languages_all_on_set_then_all_four():
    assert [m.spec() for m in precomputed_sets("pypto")] == [
        "ssa",
        "memref",
        "whitespace",
        "ssa,memref,whitespace",
        ",".join(MODES),
    ]
    assert [m.spec() for m in precomputed_sets("mlir")][:3] == list(OFFERED["mlir"])


def test_counts_follow_what_each_mode_ignores(tmp_path):
    dump = write_dump(tmp_path / "passes_dump", RENAMES)
    payload = _payload(dump, tmp_path)
    counts = [entry["ignore_counts"] for entry in payload["passes"][1:]]
    assert counts[0]["ssa"] == [0, 0] and counts[0]["whitespace"] == [2, 2]  # a renumbering only
    assert counts[1]["whitespace"] == [0, 0] and counts[1]["ssa"] == [2, 2]  # a reindent only
    assert counts[1]["ssa,memref,whitespace"] == [0, 0]
    assert counts[2]["ssa"] == [3, 2]  # reindented back: every line differs by its indentation
    assert counts[2]["ssa,memref,whitespace"] == [2, 1]  # `b = ...` and the return; the renumbered line did not


def test_counts_equal_the_json_summary_under_each_precomputed_set(tmp_path):
    dump = write_dump(tmp_path / "passes_dump", demo_passes() + RENAMES[1:])
    payload = _payload(dump, tmp_path)
    for modes in precomputed_sets("pypto"):
        summary = tmp_path / f"{modes.spec()}.json"
        result = run_cli(dump, "-o", tmp_path / "s.html", "--ignore", modes.spec(), "--json", summary)
        assert result.returncode == 0, result.stderr
        want = {p["index"]: [p["ignoring"]["inserted"], p["ignoring"]["deleted"]] for p in _passes(summary)}
        got = {p["index"]: p.get("ignore_counts", {}).get(modes.spec(), [0, 0]) for p in payload["passes"][1:]}
        assert got == want, modes.spec()


def test_a_set_that_merges_no_two_lines_gives_the_exact_counts_back():
    a, b = RENAMES[0].split("\n"), RENAMES[1].split("\n")
    exact = [_Span(1, 3, 1, 3)]
    counts = ignore_counts(a, b, True, True, [("f", 0, 3)], [("f", 0, 3)], exact, "pypto")
    assert counts["ssa"] == [0, 0]  # the renumbered lines key alike: diffed, and equal
    assert counts["whitespace"] == [2, 2] and counts["memref"] == [2, 2]  # keys kept apart: the exact hunks


def test_a_pair_diff_without_counts_is_refused_so_recomputed():
    result = PairDiff((), 0, 0, True, {"ssa": (0, 0), "whitespace": (1, 1)})
    assert PairDiff.from_json(json.loads(json.dumps(result.to_json()))) == result
    older = {key: value for key, value in result.to_json().items() if key != "ignore_counts"}
    assert PairDiff.from_json(older) is None  # the layout before the counts: recomputed
    assert PairDiff.from_json({**result.to_json(), "ignore_counts": {"ssa": "many"}}) is None


def test_the_cache_key_names_the_counts_version():
    assert IGNORE_COUNTS_VERSION == source_version("ignore-counts", "report.ignore_counts")
    assert f"/{IGNORE_COUNTS_VERSION}/{MODEL_VERSION}/" in diff_key("a", "b")


def test_a_cached_diff_without_counts_is_rediffed_and_the_report_gets_them(tmp_path):
    dump = write_dump(tmp_path / "passes_dump", RENAMES)
    cache_dir = tmp_path / "cache"
    assert run_cli(dump, "-o", tmp_path / "r.html", "--cache-dir", cache_dir).returncode == 0
    with sqlite3.connect(cache_dir / "cache.db") as database:
        keys = [key for (key,) in database.execute("SELECT key FROM Cache WHERE key LIKE 'diff/%'")]
    cache = open_cache(cache_dir)
    try:
        for key in keys:  # each entry rewritten (valid checksum) in the layout before the counts
            cache.put(key, {k: v for k, v in cache.get(key).items() if k != "ignore_counts"})
    finally:
        cache.close()
    result = run_cli(dump, "-o", tmp_path / "r2.html", "--cache-dir", cache_dir)
    assert result.returncode == 0, result.stderr
    assert f"· {len(keys)} pairs rediffed, 0 from cache ·" in result.stderr, result.stderr
    payload = read_payload((tmp_path / "r2.html").read_text(encoding="utf-8"))
    assert all("ssa" in entry["ignore_counts"] for entry in payload["passes"][1:])


@pytest.mark.parametrize("kind", ["pypto", "mlir"])
def test_the_all_four_set_is_counted_when_another_languages_marker_is_there(kind):
    """A PyPTO text holding `loc(`: the location mode might strip it, so all four modes are diffed
    rather than taken from the language's own three."""
    line = "    x = loc(a__ssa_v0)" if kind == "pypto" else '  %0 = "pl.MemRef(1)" : i32'
    a, b = [line, "y"], [line.replace("0", "1"), "y"]
    counts = ignore_counts(a, b, True, True, None, None, [_Span(0, 1, 0, 1)], kind)
    assert set(counts) == {m.spec() for m in precomputed_sets(kind)}
    assert IgnoreModes(frozenset(MODES)).spec() in counts


class _Span:
    def __init__(self, a0, a1, b0, b1):
        self.a0, self.a1, self.b0, self.b1 = a0, a1, b0, b1


def _payload(dump, tmp_path) -> dict:
    report = tmp_path / "r.html"
    result = run_cli(dump, "-o", report, "--cache-dir", tmp_path / "payload-cache")
    assert result.returncode == 0, result.stderr
    return read_payload(report.read_text(encoding="utf-8"))


def _passes(summary) -> list[dict]:
    return json.loads(summary.read_text(encoding="utf-8"))["passes"]

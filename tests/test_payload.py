"""The report payload (ir_trace/report/payload.py): what each pass carries, and the counts derived from it."""

from __future__ import annotations

from ir_trace.inputs.discovery import Manifest, Snapshot
from ir_trace.report.model import Hunk, PairDiff
from ir_trace.report.payload import PAYLOAD_SCHEMA, build_payload, detect_dump_level
from ir_trace.summaries.runs import RunCounts
from ir_trace.summaries.trace import run_counts

SLICES = {
    "s0": {"functions": [["main", 0, 2]], "eol": True},
    "s1": {"functions": None, "parse_error": "unbalanced", "eol": False},
}


def manifest() -> Manifest:
    return Manifest(
        "/d/passes_dump",
        "prog",
        (
            Snapshot(0, "frontend", "00_frontend.py", "s0"),
            Snapshot(1, "A", "01_after_A.py", "s1", "01_after_A.log", "warning: x"),
            Snapshot(2, "B", "02_after_B.py", "s1"),
        ),
    )


def test_the_first_pass_carries_its_lines_and_later_ones_their_hunks():
    diff = PairDiff((Hunk(1, 2, 1, 2, ("y = 2",)),), 1, 1, True, {"ssa": (1, 1)})
    payload = build_payload(manifest(), ["x = 1", "y = 1"], [diff, None], SLICES, 3).to_json()
    first, changed, same = payload["passes"]
    assert payload["schema"] == PAYLOAD_SCHEMA and payload["title"] == "prog" and payload["context"] == 3
    assert first["lines"] == ["x = 1", "y = 1"] and "hunks" not in first and first["functions"] == [["main", 0, 2]]
    assert changed["hunks"] == [[1, 2, 1, 2, ["y = 2"], []]] and changed["changed"] and changed["log"] == "warning: x"
    assert changed["ignore_counts"] == {"ssa": [1, 1]} and "ignore_counts" not in same
    assert changed["functions"] is None and changed["parse_error"] == "unbalanced" and changed["eol"] is False
    assert same["hunks"] == [] and not same["changed"]
    assert "functions" not in same  # equal to the previous snapshot: the page reuses its list


def test_the_summary_counts_passes_changes_and_warnings():
    diff = PairDiff((Hunk(1, 2, 1, 3, ("a", "b")),), 2, 1, True, {})
    payload = build_payload(manifest(), ["x", "y"], [diff, None], SLICES, 3)
    assert run_counts(payload) == RunCounts(passes=2, changed=1, noop=1, warnings=1, inserted=2, deleted=1)


def test_the_dump_level_is_read_from_tile_layouts():
    explicit = ["t: pl.Tile[[8], pl.FP32, pl.TileView(a)] = x"]
    concise = ["t: pl.Tile[[8], pl.FP32] = x"] * 5 + explicit
    assert detect_dump_level(explicit) == "EXPLICIT"
    assert detect_dump_level(concise) == "CONCISE"
    assert detect_dump_level(["x = 1"]) == "UNKNOWN"

"""A pass's diff read from a payload by name (ir_trace/report/pass_diff.py), written back byte for byte."""

from __future__ import annotations

import json

from ir_trace.diffcore.linediff import count_changes, diff_snapshots, hunks_to_json, split_lines
from ir_trace.report.pass_diff import PassDiff, PayloadHunk

BEFORE = "def f(x):\n    y = x + 1\n    return y\n\nold = 1\nkeep = 2\n"
AFTER = "def f(x):\n    y = x + 2\n    return y\nkeep = 2\nold = 1\nnew = 3"  # edited, moved, no final newline


def real_diff(before: str, after: str) -> dict:
    (a, a_eol), (b, b_eol) = split_lines(before), split_lines(after)
    hunks = diff_snapshots(a, b, a_eol, b_eol)
    inserted, deleted = count_changes(hunks)
    return {"hunks": hunks_to_json(hunks, b), "inserted": inserted, "deleted": deleted}


def test_a_real_diff_reads_by_name_and_writes_back_byte_for_byte():
    data = real_diff(BEFORE, AFTER)
    diff = PassDiff.from_json(data)
    assert json.dumps(diff.to_json()) == json.dumps(data)
    assert PassDiff.from_json(diff.to_json()) == diff
    assert sum(hunk.inserted for hunk in diff.hunks) == diff.inserted
    assert sum(hunk.deleted for hunk in diff.hunks) == diff.deleted
    assert any(hunk.extras and "no_eol" in hunk.extras for hunk in diff.hunks)  # the 7-element form is kept
    assert any(hunk.pairs for hunk in diff.hunks)  # `y = x + 1` -> `y = x + 2` is paired


def test_a_hunk_names_its_fields():
    hunk = PayloadHunk.from_json([1, 3, 1, 2, ["b"], [[1, 1, [[0, 1]], [[0, 1]]]]])
    assert (hunk.a0, hunk.a1, hunk.b0, hunk.b1, hunk.after_lines) == (1, 3, 1, 2, ("b",))
    assert (hunk.deleted, hunk.inserted, hunk.extras) == (2, 1, None)
    assert hunk.to_json() == [1, 3, 1, 2, ["b"], [[1, 1, [[0, 1]], [[0, 1]]]]]
    moved = PayloadHunk(0, 1, 0, 0, (), (), {"moved": [[0, 3]]})
    assert moved.to_json() == [0, 1, 0, 0, [], [], {"moved": [[0, 3]]}]
    assert PayloadHunk.from_json(moved.to_json()) == moved


def test_applying_a_diff_rebuilds_the_after_snapshot():
    (a, _), (b, _) = split_lines(BEFORE), split_lines(AFTER)
    assert PassDiff.from_json(real_diff(BEFORE, AFTER)).apply(a) == b
    assert PassDiff().apply(a) is a  # no hunks: the same lines, not a copy
    assert PassDiff().to_json() == {"hunks": [], "inserted": 0, "deleted": 0}

"""Per-pass records stay small constants (issue 29 item 2): a header, diff or count several passes hold is
one object in the model, the page's payload and the `--json` document, which still say what they said."""

from __future__ import annotations

import json

from ir_trace.inputs.discovery import Manifest, Snapshot
from ir_trace.inputs.mlir.headers import parse_header
from ir_trace.report.model import Hunk, PairDiff
from ir_trace.report.payload import build_payload
from ir_trace.summaries.trace import report_summary

HEADERS = [
    parse_header(f"// -----// IR Dump After {name} ({arg}) ('builtin.module' operation) //----- //")
    for name, arg in (("CSE", "cse"), ("Canonicalizer", "canonicalize"))
]
TEXTS = ["module {\n  %c = arith.constant 0 : i32\n}\n", "module {\n  %c = arith.constant 1 : i32\n}\n"]
PASSES = 40


def stream_manifest() -> Manifest:
    """A stream alternating two texts under two headers: pass k undoes pass k - 1."""
    snapshots = tuple(
        Snapshot(
            k,
            HEADERS[k % 2].display_name,
            "/d/s.txt",
            f"sha{k % 2}",
            header=HEADERS[k % 2],
            span=(k, 1),
            header_index=k,
        )
        for k in range(PASSES)
    )
    return Manifest("/d/s.txt", "s.txt", snapshots, kind="mlir")


def alternating_report():
    lines = [text.splitlines() for text in TEXTS]
    diffs = [PairDiff((Hunk(1, 2, 1, 2, (lines[b][1],)),), 1, 1, True, {"ssa": (0, 0)}) for _a, b in ((0, 1), (1, 0))]
    per_pass = [diffs[k % 2] for k in range(PASSES - 1)]  # one object per distinct pair, as the cache gives
    slices = {f"sha{k}": {"eol": True, "functions": [["@m", 0, 3]]} for k in range(2)}
    return build_payload(stream_manifest(), lines[0], per_pass, slices, 3)


def test_passes_of_one_pair_share_its_page_diff_and_counts():
    passes = alternating_report().traces[0].passes
    assert passes[1].diff is passes[3].diff and passes[2].diff is passes[4].diff
    assert passes[1].diff is not passes[2].diff
    assert passes[1].ignore_counts is passes[3].ignore_counts


def test_the_payload_shares_objects_and_writes_the_unshared_text():
    report = alternating_report()
    payload = report.to_json()
    rows = payload["passes"]
    assert rows[1]["header"] is rows[3]["header"] and rows[1]["hunks"] is rows[3]["hunks"]
    unshared = [record.to_json() for record in report.traces[0].passes]
    assert rows == unshared and rows[1]["header"] is not unshared[1]["header"]
    assert json.dumps(rows) == json.dumps(unshared)


def test_the_summary_shares_equal_counts_and_headers():
    report = alternating_report()
    rows = report_summary(report).trace["passes"]
    assert rows[0]["header"] is rows[2]["header"]
    assert rows[0]["outside_functions"] is rows[5]["outside_functions"]
    assert rows[0]["functions"] is rows[1]["functions"]  # both change one line of @m
    assert rows[0]["functions"] == {"@m": {"inserted": 1, "deleted": 1}}
    assert rows[0]["header"] == HEADERS[1].to_json()


def test_a_manifest_read_back_shares_its_strings_and_headers():
    manifest = stream_manifest()
    read = Manifest.from_json(json.loads(json.dumps(manifest.to_json())))
    assert read == manifest
    first, third = read.snapshots[0], read.snapshots[2]
    assert first.header is third.header and first.file is read.snapshots[1].file
    assert first.sha256 is third.sha256

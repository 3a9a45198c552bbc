"""A long stream's report in bounded memory (issue 29 item 2): the payload compressed as it is written, a
pass at a time, and one list for the functions of snapshots that share them; the page's bytes unchanged."""

from __future__ import annotations

import base64
import gzip
import json
from pathlib import Path

import pytest
from browser_support import build_report
from conftest import FRONTEND, traced_peak, write_dump
from test_mlir_tree import header

import ir_trace
from ir_trace.report.payload import shared_function_lists
from ir_trace.report.render import _walked, encode_payload, read_payload


def whole_encoding(payload: dict) -> str:
    """What the page carried before: the whole JSON at once, gzip, base64."""
    data = json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return base64.b64encode(gzip.compress(data, compresslevel=6, mtime=0)).decode("ascii")


@pytest.mark.parametrize(
    "payload",
    [
        {},
        {"passes": []},
        {"schema": 3, "passes": [{"a": 1.5, "b": None, "c": True, "é": "\u2028</script>"}], "x": [[1, [2, [3]]]]},
        {"traces": [{"passes": [{"functions": [["f", 0, 1]]}] * 3, "warnings": []}] * 2},
        {"odd keys": {1: "one", None: 2}, "tuple": (1, 2)},
        {"big": [{"text": "x" * 70_000, "k": k} for k in range(5)]},  # pieces larger than one compressed piece
        {"passes": [{"line": "é漢\U0001f600" * 700_000}, {"k": 1}]},  # a pass over one encoded window, split mid-line
    ],
)
def test_the_payload_is_encoded_as_gzip_of_its_whole_json(payload):
    assert encode_payload(payload) == whole_encoding(payload)


def test_equal_function_lists_of_consecutive_snapshots_are_one_list():
    slices = [
        ("s0", {"functions": [["f", 0, 3]], "eol": True}),
        ("s1", {"functions": [["f", 0, 3]], "eol": True}),
        ("s2", {"functions": None, "parse_error": "line 1", "eol": True}),
        ("s3", {"functions": [["f", 0, 3]], "eol": False}),
        ("s4", {"functions": [["f", 0, 4]], "eol": True}),
    ]
    found = shared_function_lists(iter(slices))
    assert found == dict(slices)  # the same values
    assert found["s1"]["functions"] is found["s0"]["functions"] is found["s3"]["functions"]
    assert found["s4"]["functions"] is not found["s0"]["functions"]


def long_stream(path: Path, dumps: int, functions: int) -> Path:
    """`dumps` snapshots of a module of `functions` functions, each pass editing one constant."""
    with path.open("w") as out:
        for number in range(dumps):
            edited = number % functions
            body = "".join(
                f"  func.func @f{k}() -> i32 {{\n    %c = arith.constant {number + 1000 if k == edited else k}"
                " : i32\n    return %c : i32\n  }\n"
                for k in range(functions)
            )
            out.write(header("CSE", "cse") + "module {\n" + body + "}\n\n\n")
    return path


def test_a_long_streams_report_is_written_in_memory_of_a_few_function_lists(tmp_path):
    stream = long_stream(tmp_path / "stream.txt", 150, 300)
    cache = ["--cache-dir", str(tmp_path / "cache")]
    first = build_report(stream, tmp_path / "first.html", *cache)  # diffs and slicings cached
    payload = read_payload(first.read_text())
    assert len(payload["passes"]) == 150 and all(len(p["functions"]) == 300 for p in payload["passes"])
    json_size = len(json.dumps(payload, separators=(",", ":")))
    again, peak = traced_peak(lambda: build_report(stream, tmp_path / "again.html", *cache))  # only the report
    assert read_payload(again.read_text()) == payload
    # Each snapshot's own lists, three times over, and the whole JSON twice took 12 times the JSON (now 1.8).
    assert peak < 4 * json_size, (peak, json_size)


def _parts_per_pass(payload: dict) -> float:
    passes = [p for trace in payload.get("traces") or [payload] for p in trace.get("passes", [])]
    runs = payload.get("runs") or []
    passes += [p for run in runs for trace in run.get("traces") or [run] for p in trace.get("passes", [])]
    return len(list(_walked(payload))) / max(len(passes), 1)


def test_each_pass_is_written_whole_by_one_dump_in_every_payload_shape(tmp_path: Path):
    """The walk stops at the passes: one level deeper wrote every field of every pass by its own json.dumps
    (100,000 passes cost seconds)."""
    texts = [FRONTEND] + [(f"P{k}", FRONTEND + f"# pass {k}\n" * (k % 3)) for k in range(1, 30)]
    dump = write_dump(tmp_path / "a" / "passes_dump", texts)
    other = write_dump(tmp_path / "b" / "passes_dump", texts[:20] + [("Extra", FRONTEND + "# b\n")])
    one = tmp_path / "one.html"
    against = tmp_path / "against.html"
    ir_trace.render(dump, one, cache_dir=tmp_path / "c")
    ir_trace.render(dump, against, against=other, cache_dir=tmp_path / "c")
    for page in (one, against):
        payload = read_payload(page.read_text(encoding="utf-8"))
        assert encode_payload(payload) == whole_encoding(payload)
        assert _parts_per_pass(payload) < 5, page.name


def test_a_pass_holding_a_huge_line_is_not_copied_whole_while_encoded():
    payload = {"passes": [{"line": "0123456789abcdef" * 1_000_000}]}  # 16 MB of JSON in one pass
    encoded, peak = traced_peak(lambda: encode_payload(payload))
    assert encoded == whole_encoding(payload)
    assert peak < 2.5 * 16_000_000  # its JSON once; not again joined, nor whole as bytes

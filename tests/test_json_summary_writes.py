"""The --json document is written in pieces (`cli.write_json_summary`): the same text json.dumps gives,
to a file or to standard output, without the whole indented document held in memory."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from conftest import traced_peak

from ir_trace.app import cli


def _trace(passes: int) -> dict:
    return {
        "kind": "pypto",
        "passes": [{"index": k, "name": f"Pass «{k}» 漢字", "inserted": k % 7} for k in range(passes)],
    }


def test_the_document_written_to_a_file_is_json_dumps_indented(tmp_path):
    trace = _trace(3000)
    cli.write_json_summary(str(tmp_path / "s.json"), trace)
    assert (tmp_path / "s.json").read_text(encoding="utf-8") == json.dumps(trace, ensure_ascii=False, indent=2) + "\n"


def test_the_document_written_to_standard_output_is_whole(tmp_path):
    trace = _trace(20_000)  # larger than a pipe's buffer and than one batch
    script = "import json, sys\nfrom ir_trace.app import cli\ncli.write_json_summary('-', json.load(sys.stdin))\n"
    done = subprocess.run(
        [sys.executable, "-c", script],
        input=json.dumps(trace),
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": os.getcwd()},
    )
    assert done.stdout == json.dumps(trace, ensure_ascii=False, indent=2) + "\n"


def test_a_large_document_is_never_held_whole(tmp_path):
    trace = _trace(60_000)
    size = len(json.dumps(trace, ensure_ascii=False, indent=2).encode("utf-8"))
    _none, peak = traced_peak(lambda: cli.write_json_summary(str(tmp_path / "s.json"), trace))
    assert (tmp_path / "s.json").stat().st_size == size + 1
    assert peak < size / 2  # json.dumps held its pieces, the text and its bytes: several times the size

"""Every real dump printed by the PyPTO compiler renders, and the report tells the truth about it."""

from __future__ import annotations

import re
import subprocess

import pytest
from conftest import real_dumps
from test_cli import payload_of

from ir_trace import api
from ir_trace.options import RunOptions

DEF_AFTER_DECORATOR = re.compile(r"^    @pl\.function\b.*\n    def (\w+)\(", re.M)


@pytest.mark.parametrize("dump", real_dumps(), ids=lambda p: p.parent.parent.name + "/" + p.parent.name)
def test_real_dump_report_is_faithful(dump, tmp_path):
    out = tmp_path / "r.html"
    outcome = api.build(RunOptions.build(dump, out, context=3), tmp_path / "cache")
    payload = payload_of(out)
    passes = payload["passes"]
    assert outcome.summary.counts.passes == len(passes) - 1 and outcome.report == str(out.absolute())
    assert payload["level"] == ("EXPLICIT" if dump.parent.name.endswith("_explicit") else "CONCISE")
    files = sorted(dump.glob("*.py"), key=lambda p: int(p.name.split("_")[0]))
    assert [p["file"] for p in passes] == [f.name for f in files]
    functions = None
    for index, (entry, path) in enumerate(zip(passes, files)):
        text = path.read_text(encoding="utf-8")
        functions = entry.get("functions", functions)
        methods = DEF_AFTER_DECORATOR.findall(text)
        assert functions is not None, f"{path.name}: {entry.get('parse_error')}"
        assert sorted(key.split(".")[-1] for key, _s, _e in functions) == sorted(methods), path.name
        if index == 0:
            continue
        previous = files[index - 1]
        assert entry["changed"] == (text != previous.read_text(encoding="utf-8")), path.name
        out_lines = subprocess.run(["diff", "-d", str(previous), str(path)], capture_output=True, text=True).stdout
        added = sum(line.startswith("> ") for line in out_lines.splitlines())
        removed = sum(line.startswith("< ") for line in out_lines.splitlines())
        assert entry["inserted"] >= added and entry["deleted"] >= removed, path.name
        assert (entry["inserted"] + entry["deleted"] == 0) == (not entry["changed"])


@pytest.mark.parametrize("dump", real_dumps(), ids=lambda p: p.parent.parent.name + "/" + p.parent.name)
def test_dump_level_is_recognised(dump):
    from ir_trace.diffcore.linediff import split_lines
    from ir_trace.report.payload import detect_dump_level

    lines = [line for path in sorted(dump.glob("*.py")) for line in split_lines(path.read_text(encoding="utf-8"))[0]]
    expected = "EXPLICIT" if dump.parent.name.endswith("_explicit") else "CONCISE"
    assert detect_dump_level(lines) == expected

"""Reports are shared (issue 28): the page and its payload hold no absolute path of the machine that
made them, while `--json` keeps the paths it documents. Through the real command line and cache."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from conftest import run_cli
from multi_trace_support import write_program

from ir_trace.report.payload import portable_payload
from ir_trace.report.render import read_payload


def render(dump: Path, tmp_path: Path, *extra: str | Path) -> tuple[str, dict, dict]:
    report, summary = tmp_path / "out" / "report.html", tmp_path / "out" / "summary.json"
    report.parent.mkdir(exist_ok=True)
    result = run_cli(dump, "-o", report, "--json", summary, "--cache-dir", tmp_path / "cache", "-q", *extra)
    assert result.returncode == 0, result.stderr
    page = report.read_text("utf-8")
    return page, read_payload(page), json.loads(summary.read_text("utf-8"))


def assert_portable(page: str, payload: dict, machine_path: Path) -> None:
    """Neither the page's text nor its decoded payload names where the dump lay on this machine."""
    assert str(machine_path) not in page
    assert str(machine_path) not in json.dumps(payload, ensure_ascii=False)


def test_a_one_trace_report_names_its_dump_by_name_and_json_keeps_the_path(tmp_path, demo_dump):
    page, payload, summary = render(demo_dump, tmp_path)
    assert_portable(page, payload, tmp_path)
    assert payload["dump"] == "passes_dump" and payload["title"] == "demo"
    assert summary["dump"] == str(demo_dump)  # --json documents the dump's path (README: The JSON summary)


def test_a_program_report_names_each_trace_relative_to_the_directory_given(tmp_path):
    program = write_program(tmp_path)
    page, payload, summary = render(program, tmp_path)
    assert_portable(page, payload, tmp_path)
    assert payload["dump"] == "prog"
    assert [t["dump"] for t in payload["traces"]] == ["passes_dump", "ptoas_passes/kernel_a", "ptoas_passes/kernel_b"]
    assert summary["dump"] == str(program) and summary["traces"][1]["dump"] == str(program / "ptoas_passes/kernel_a")


def test_a_run_against_run_report_is_portable_and_json_keeps_both_paths(tmp_path, demo_dump):
    other = tmp_path / "other" / "passes_dump"
    shutil.copytree(demo_dump, other)
    (other / "02_after_Simplify.py").write_text("# changed\n", "utf-8")
    page, payload, summary = render(demo_dump, tmp_path, "--against", other)
    assert_portable(page, payload, tmp_path)
    assert [run["dump"] for run in payload["runs"]] == payload["names"] == ["demo", "other"]
    assert (summary["a"], summary["b"]) == (str(demo_dump), str(other))


def test_remarks_on_the_dump_name_files_from_the_given_directory_on():
    payload = {"dump": "/home/u/run/tree", "title": "tree", "warnings": ["2 dumps share /home/u/run/tree/x.mlir"]}
    assert portable_payload(payload)["warnings"] == ["2 dumps share tree/x.mlir"]

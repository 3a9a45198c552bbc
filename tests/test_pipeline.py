"""The Luigi pipeline through its real scheduler: incremental reruns and the luigi entry point."""

from __future__ import annotations

import subprocess
import sys

import luigi
import pytest
from conftest import REPO, generate_dump

from ir_trace.cli import run_pipeline
from ir_trace.render import read_payload
from ir_trace.tasks import DiffPair, SliceFunctions


@pytest.fixture
def ran():
    """Names of the pipeline tasks that actually ran (in this process) during a test."""
    seen: list[str] = []

    def record(task):
        seen.append(f"{type(task).__name__}:{getattr(task, 'before', '')}>{getattr(task, 'after', '')}")

    for cls in (DiffPair, SliceFunctions):
        cls.event_handler(luigi.Event.SUCCESS)(record)
    yield seen
    for cls in (DiffPair, SliceFunctions):
        cls._event_callbacks[cls][luigi.Event.SUCCESS].discard(record)


def test_rerun_does_no_diff_work_and_one_change_rediffs_two_pairs(tmp_path, ran):
    dump = generate_dump(
        tmp_path / "p" / "passes_dump",
        "--functions",
        "6",
        "--lines",
        "12",
        "--passes",
        "12",
        "--seed",
        "5",
        "--noop-ratio",
        "0",
    )
    cache, out = tmp_path / "cache", tmp_path / "r.html"
    first = run_pipeline(dump, out, 3, cache)
    assert first["rediffed"] == first["pairs"] == 12 and len([r for r in ran if r.startswith("DiffPair")]) == 12

    ran.clear()
    second = run_pipeline(dump, out, 3, cache)
    assert ran == [] and second["rediffed"] == 0 and second["reused"]

    middle = dump / sorted(p.name for p in dump.glob("06_after_*.py"))[0]
    middle.write_text(middle.read_text() + "# recompiled\n")
    third = run_pipeline(dump, out, 3, cache)
    diffs = sorted(r for r in ran if r.startswith("DiffPair"))
    assert third["rediffed"] == 2 and len(diffs) == 2
    assert all(middle.name in r for r in diffs)
    assert [r for r in ran if r.startswith("SliceFunctions")] == ["SliceFunctions:>"]

    scratch = tmp_path / "scratch.html"
    run_pipeline(dump, scratch, 3, tmp_path / "fresh-cache")
    assert scratch.read_bytes() == out.read_bytes()


def test_context_changes_the_report_not_the_diffs(tmp_path, ran, demo_dump):
    cache, out = tmp_path / "cache", tmp_path / "r.html"
    run_pipeline(demo_dump, out, 3, cache)
    ran.clear()
    outcome = run_pipeline(demo_dump, out, 0, cache)
    assert ran == [] and not outcome["reused"]
    assert read_payload(out.read_text())["context"] == 0


def test_two_workers_build_the_same_report(tmp_path, demo_dump):
    one, two = tmp_path / "one.html", tmp_path / "two.html"
    run_pipeline(demo_dump, one, 3, tmp_path / "c1")
    outcome = run_pipeline(demo_dump, two, 3, tmp_path / "c2", workers=2)
    assert outcome["ok"] and one.read_text() == two.read_text()


def test_luigi_module_entry_point(tmp_path, demo_dump):
    out = tmp_path / "r.html"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "luigi",
            "--module",
            "ir_trace.tasks",
            "RenderReport",
            "--dump",
            str(demo_dump),
            "--report",
            str(out),
            "--local-scheduler",
            "--ir-trace-cache-dir",
            str(tmp_path / "cache"),
        ],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert out.is_file() and read_payload(out.read_text())["passes"][1]["name"] == "ConvertToSSA"


def test_a_copy_of_the_dump_elsewhere_rewrites_the_report(tmp_path, demo_dump):
    import shutil

    out, cache = tmp_path / "r.html", tmp_path / "cache"
    run_pipeline(demo_dump, out, 3, cache)
    copy = tmp_path / "elsewhere" / "passes_dump"
    shutil.copytree(demo_dump, copy)
    outcome = run_pipeline(copy, out, 3, cache)
    assert not outcome["reused"] and read_payload(out.read_text())["dump"] == str(copy)

"""The Luigi pipeline: incremental reruns, the report as the tasks' output, failures that fail,
and the real `luigi` command."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

import luigi
import pytest
from conftest import FRONTEND, REPO, generate_dump, run_cli, write_dump
from harness import start_luigid, stop_luigid

from ir_trace import api
from ir_trace.cache.fingerprints import file_state
from ir_trace.cache.store import open_cache
from ir_trace.inputs.file_hashes import SETTLED_NS
from ir_trace.options import RunOptions
from ir_trace.pipeline import DiffPair, RenderReport, ReportTarget, SliceFunctions
from ir_trace.pipeline import targets as targets_module
from ir_trace.pipeline.base import WORK_DONE, PipelineTask
from ir_trace.pipeline.config import adopt_cache
from ir_trace.report.render import read_payload
from ir_trace.runsafety.writes import write_output
from ir_trace.summaries.runs import ReportSummary, RunCounts


@pytest.fixture
def ran():
    """The diffs and slicings computed (in this process) during a test, as 'DiffPair:before>after'."""
    seen: list[str] = []

    def record(_batch, item):
        assert isinstance(item, (DiffPair, SliceFunctions))
        seen.append(f"{type(item).__name__}:{getattr(item, 'before', '')}>{getattr(item, 'after', '')}")

    PipelineTask.event_handler(WORK_DONE)(record)
    yield seen
    PipelineTask.remove_event_handler(WORK_DONE, record)


def luigi_run(*args: str | os.PathLike, cwd: Path = REPO, env: dict | None = None) -> subprocess.CompletedProcess:
    """The real `luigi` command on our tasks, reading the repository's shipped luigi.cfg (cwd)."""
    return subprocess.run(
        [sys.executable, "-m", "luigi", "--module", "ir_trace.pipeline", *map(str, args), "--local-scheduler"],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(REPO), **(env or {})},
        timeout=300,
    )


# ---------- incremental reruns through the CLI's pipeline ----------


def test_rerun_does_no_diff_work_and_one_change_rediffs_two_pairs(tmp_path, ran):
    dump = generate_dump(
        tmp_path / "p" / "passes_dump",
        *("--functions", "6", "--lines", "12", "--passes", "12", "--seed", "5", "--noop-ratio", "0"),
    )
    cache, out = tmp_path / "cache", tmp_path / "r.html"
    first = api.build(RunOptions.build(dump, out, context=3), cache)
    assert first.rediffed == first.pairs == 12 and len([r for r in ran if r.startswith("DiffPair")]) == 12
    assert not first.reused

    ran.clear()
    written = file_state(out)
    second = api.build(RunOptions.build(dump, out, context=3), cache)
    assert ran == [] and second.rediffed == 0 and second.reused
    assert file_state(out) == written and second.summary.counts.passes == first.summary.counts.passes

    middle = dump / sorted(p.name for p in dump.glob("06_after_*.py"))[0]
    middle.write_text(middle.read_text() + "# recompiled\n")
    third = api.build(RunOptions.build(dump, out, context=3), cache)
    diffs = sorted(r for r in ran if r.startswith("DiffPair"))
    assert third.rediffed == 2 and len(diffs) == 2 and not third.reused
    assert all(middle.name in r for r in diffs)
    assert [r for r in ran if r.startswith("SliceFunctions")] == ["SliceFunctions:>"]

    scratch = tmp_path / "scratch.html"
    api.build(RunOptions.build(dump, scratch, context=3), tmp_path / "fresh-cache")
    assert scratch.read_bytes() == out.read_bytes()


def test_an_edit_that_keeps_size_and_mtime_is_rediffed_beside_an_ordinary_one(tmp_path, ran):
    dump = generate_dump(
        tmp_path / "p" / "passes_dump",
        *("--functions", "4", "--lines", "10", "--passes", "10", "--seed", "3", "--noop-ratio", "0"),
    )
    cache, out = tmp_path / "cache", tmp_path / "r.html"
    time.sleep(SETTLED_NS / 1e9 + 0.1)  # files this old have their hashes remembered by stat stamp
    api.build(RunOptions.build(dump, out, context=3), cache)
    quiet = dump / sorted(p.name for p in dump.glob("03_after_*.py"))[0]
    loud = dump / sorted(p.name for p in dump.glob("07_after_*.py"))[0]
    before = os.stat(quiet)
    text = quiet.read_text()
    quiet.write_text(text[:-2] + ("x" if text[-2] != "x" else "y") + text[-1], encoding="utf-8")
    os.utime(quiet, ns=(before.st_atime_ns, before.st_mtime_ns))  # same size, same mtime: only ctime tells
    after = os.stat(quiet)
    assert (after.st_size, after.st_mtime_ns, after.st_ino) == (before.st_size, before.st_mtime_ns, before.st_ino)
    loud.write_text(loud.read_text() + "# recompiled\n", encoding="utf-8")
    ran.clear()
    outcome = api.build(RunOptions.build(dump, out, context=3), cache)
    diffs = [r for r in ran if r.startswith("DiffPair")]
    assert outcome.rediffed == 4 and sum(quiet.name in r for r in diffs) == 2
    api.build(RunOptions.build(dump, tmp_path / "fresh.html", context=3), tmp_path / "fresh-cache")
    assert (tmp_path / "fresh.html").read_bytes() == out.read_bytes()


def test_a_lone_edit_that_keeps_size_and_mtime_is_not_served_the_old_report(tmp_path, ran):
    dump = generate_dump(
        tmp_path / "p" / "passes_dump",
        *("--functions", "2", "--lines", "6", "--passes", "4", "--seed", "5", "--noop-ratio", "0"),
    )
    cache, out = tmp_path / "cache", tmp_path / "r.html"
    api.build(RunOptions.build(dump, out, context=3), cache)
    edited = dump / sorted(p.name for p in dump.glob("02_after_*.py"))[0]
    before, text = os.stat(edited), edited.read_text()
    edited.write_text(text[:-2] + ("x" if text[-2] != "x" else "y") + text[-1], encoding="utf-8")
    os.utime(edited, ns=(before.st_atime_ns, before.st_mtime_ns))  # only the ctime tells
    ran.clear()
    outcome = api.build(RunOptions.build(dump, out, context=3), cache)
    assert not outcome.reused and outcome.rediffed == 2
    api.build(RunOptions.build(dump, tmp_path / "fresh.html", context=3), tmp_path / "fresh-cache")
    assert (tmp_path / "fresh.html").read_bytes() == out.read_bytes()


def test_context_changes_the_report_not_the_diffs(tmp_path, ran, demo_dump):
    cache, out = tmp_path / "cache", tmp_path / "r.html"
    api.build(RunOptions.build(demo_dump, out, context=3), cache)
    ran.clear()
    outcome = api.build(RunOptions.build(demo_dump, out, context=0), cache)
    assert ran == [] and not outcome.reused
    assert read_payload(out.read_text())["context"] == 0


def test_a_rebuild_that_printed_the_same_text_revalidates_but_rewrites_nothing(tmp_path, ran, demo_dump):
    cache, out = tmp_path / "cache", tmp_path / "r.html"
    api.build(RunOptions.build(demo_dump, out, context=3), cache)
    written = file_state(out)
    ran.clear()
    for snapshot in demo_dump.iterdir():
        os.utime(snapshot, ns=(1, 1))  # new mtimes, same bytes
    outcome = api.build(RunOptions.build(demo_dump, out, context=3), cache)
    assert ran == [] and outcome.reused and outcome.rediffed == 0 and file_state(out) == written


def test_an_edited_report_is_written_again(tmp_path, demo_dump):
    cache, out = tmp_path / "cache", tmp_path / "r.html"
    api.build(RunOptions.build(demo_dump, out, context=3), cache)
    out.write_text("edited by hand", encoding="utf-8")
    outcome = api.build(RunOptions.build(demo_dump, out, context=3), cache)
    assert not outcome.reused and read_payload(out.read_text())["passes"][1]["name"] == "ConvertToSSA"


def test_two_workers_build_the_same_report(tmp_path, demo_dump):
    one, two = tmp_path / "one.html", tmp_path / "two.html"
    api.build(RunOptions.build(demo_dump, one, context=3), tmp_path / "c1")
    outcome = api.build(RunOptions.build(demo_dump, two, context=3, workers=2), tmp_path / "c2")
    assert outcome.rediffed == 2 == outcome.pairs and one.read_text() == two.read_text()


def test_a_copy_of_the_dump_elsewhere_rewrites_the_report(tmp_path, demo_dump):
    out, cache = tmp_path / "r.html", tmp_path / "cache"
    api.build(RunOptions.build(demo_dump, out, context=3), cache)
    copy = tmp_path / "elsewhere" / "passes_dump"
    shutil.copytree(demo_dump, copy)
    outcome = api.build(RunOptions.build(copy, out, context=3), cache)
    assert not outcome.reused and read_payload(out.read_text())["dump"] == "passes_dump"  # portable: its name


def test_the_cli_ignores_a_stray_luigi_cfg(tmp_path, demo_dump):
    stray = tmp_path / "elsewhere-cache"
    (tmp_path / "luigi.cfg").write_text(
        f"[ir_trace]\ncache_dir = {stray}\n\n[worker]\ncheck_complete_on_run = true\ntimeout = 1\n"
        "keep_alive = true\n\n[core]\nlog_level = DEBUG\nlocal_scheduler = false\n"
        "logging_conf_file = /nonexistent/logging.cfg\nsetting_for_other_tasks = 1\n\n"
        "[retcode]\ntask_failed = 7\n",
        encoding="utf-8",
    )
    quiet = run_cli(demo_dump, "-o", tmp_path / "q.html", "-q", "--cache-dir", tmp_path / "mine", cwd=tmp_path)
    assert quiet.returncode == 0 and quiet.stderr == ""  # no warning about settings it does not use
    result = run_cli(demo_dump, "-o", tmp_path / "r.html", "--cache-dir", tmp_path / "mine", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "mine").is_dir() and not stray.exists()
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("wrote r.html")  # no Luigi log


def test_a_malformed_luigi_cfg_is_one_line_naming_it_and_no_report(tmp_path, demo_dump):
    (tmp_path / "luigi.cfg").write_text("[core]\nlog_level = INFO\n[core]\nlog_level = DEBUG\n", encoding="utf-8")
    result = run_cli(demo_dump, "-o", tmp_path / "r.html", "--cache-dir", tmp_path / "cache", cwd=tmp_path)
    assert result.returncode == 1 and result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith("pypto-ir-trace: error: cannot read Luigi's configuration: ")
    assert "luigi.cfg" in result.stderr and "unexpected" not in result.stderr
    assert not (tmp_path / "r.html").exists()


# ---------- the report target ----------


NO_PASSES = ReportSummary({"passes": []}, counts=RunCounts(0, 0, 0, 0, 0, 0))


def test_a_report_renamed_over_ours_is_never_recorded_as_ours(tmp_path, monkeypatch):
    """A concurrent run renames its report over ours between our rename and our record: the
    record holds the state of the file we wrote, so the report is not current for our inputs."""
    adopt_cache(open_cache(tmp_path / "cache"))  # what the CLI does for its run
    out = tmp_path / "r.html"

    def write_then_lose_the_race(path, html, before_rename=None, **options):
        size = write_output(path, html, before_rename=before_rename, **options)
        write_output(path, "<html>dump B</html>")  # the other run's rename lands here
        return size

    monkeypatch.setattr(targets_module, "write_output", write_then_lose_the_race)
    ReportTarget(str(out), "fingerprint-of-A").write("<html>dump A</html>", NO_PASSES, 0)
    assert out.read_text() == "<html>dump B</html>"
    assert not ReportTarget(str(out), "fingerprint-of-A").exists()

    monkeypatch.undo()
    ReportTarget(str(out), "fingerprint-of-A").write("<html>dump A</html>", NO_PASSES, 0)
    assert ReportTarget(str(out), "fingerprint-of-A").exists()
    assert not ReportTarget(str(out), "fingerprint-of-B").exists()


# ---------- the real `luigi` command ----------


def test_luigi_command_writes_the_report_and_reruns_nothing_until_a_snapshot_changes(tmp_path, demo_dump):
    out, cache = tmp_path / "r.html", tmp_path / "cache"
    args = ("RenderReport", "--dump", demo_dump, "--report", out, "--ir-trace-cache-dir", cache)
    first = luigi_run(*args)
    assert first.returncode == 0, first.stderr[-2000:]
    assert read_payload(out.read_text())["passes"][1]["name"] == "ConvertToSSA"
    written, first_bytes = file_state(out), out.read_bytes()

    again = luigi_run(*args, "--log-level", "INFO")
    assert again.returncode == 0 and file_state(out) == written
    assert "Did not run any tasks" in again.stderr

    snapshot = next(demo_dump.glob("03_after_*.py"))
    snapshot.write_text(snapshot.read_text() + "# recompiled\n", encoding="utf-8")
    changed = luigi_run(*args)
    assert changed.returncode == 0 and file_state(out) != written and out.read_bytes() != first_bytes


@pytest.mark.parametrize(
    "case",
    [
        "missing dump",
        "invalid dump",
        "dump is a file",
        "missing report directory",
        "bad --against",
        "unknown --ignore mode",
        "report FIFO without a reader",
    ],
)
def test_luigi_command_fails_with_the_reason_and_a_non_zero_exit(tmp_path, demo_dump, case):
    broken = write_dump(tmp_path / "broken" / "passes_dump", [FRONTEND, FRONTEND])
    (broken / "00_frontend.py").unlink()
    report = tmp_path / "r.html"
    task, reason = {
        "dump is a file": (
            ["RenderReport", "--dump", broken / "01_after_Pass1.py"],
            f"not a directory: {broken / '01_after_Pass1.py'}",
        ),
        "unknown --ignore mode": (
            ["RenderReport", "--dump", demo_dump, "--ignore", "ssa,bogus"],
            "--ignore ssa,bogus: unknown ignore mode 'bogus' (choose from ssa, memref, loc, whitespace)",
        ),
        "missing dump": (
            ["RenderReport", "--dump", tmp_path / "nonexistent"],
            f"input directory does not exist: {tmp_path / 'nonexistent'}",
        ),
        "invalid dump": (["RenderReport", "--dump", broken], f"missing 00_frontend.py in {broken}"),
        "missing report directory": (["RenderReport", "--dump", demo_dump], "output directory does not exist"),
        "report FIFO without a reader": (
            ["RenderReport", "--dump", demo_dump],
            f"--report: nothing is reading the FIFO {tmp_path / 'r.fifo'}; start its reader first",
        ),
        "bad --against": (
            ["RenderComparison", "--dump", demo_dump, "--against", tmp_path / "nope"],
            f"input directory does not exist: {tmp_path / 'nope'}",
        ),
    }[case]
    if case == "missing report directory":
        report = tmp_path / "no-such-dir" / "r.html"
    if case == "report FIFO without a reader":
        report = tmp_path / "r.fifo"
        os.mkfifo(report)
    result = luigi_run(*task, "--report", report, "--ir-trace-cache-dir", tmp_path / "cache")
    assert result.returncode == 3, result.stderr[-2000:]  # [retcode] task_failed in the shipped luigi.cfg
    assert f"failed: {reason}" in result.stderr
    assert "Traceback" not in result.stderr  # the one-line reason, not Luigi's traceback of it
    assert not report.exists() or report.is_fifo()  # a FIFO stays itself, never replaced by a file


def test_luigi_command_keeps_the_traceback_of_a_failure_when_asked(tmp_path):
    missing = tmp_path / "nonexistent"
    args = ("RenderReport", "--dump", missing, "--report", tmp_path / "r.html", "--ir-trace-cache-dir", tmp_path)
    result = luigi_run(*args, "--log-level", "DEBUG")
    assert result.returncode == 3 and f"failed: input directory does not exist: {missing}" in result.stderr
    assert "Traceback" in result.stderr and "DumpError" in result.stderr


@pytest.mark.parametrize(("user_cfg", "code"), [(None, 3), ("[retcode]\ntask_failed = 7\n", 7)])
def test_a_failure_exits_non_zero_with_no_luigi_cfg_around_and_a_users_codes_win(tmp_path, user_cfg, code):
    """As after `pip install`: run from a directory without the shipped luigi.cfg."""
    if user_cfg:
        (tmp_path / "luigi.cfg").write_text(user_cfg, encoding="utf-8")
    args = ("RenderReport", "--dump", tmp_path / "nonexistent", "--report", tmp_path / "r.html")
    result = luigi_run(*args, "--ir-trace-cache-dir", tmp_path / "cache", cwd=tmp_path, env={"LUIGI_CONFIG_PATH": ""})
    assert result.returncode == code, result.stderr[-2000:]


def test_relative_paths_name_the_same_task_from_any_directory(tmp_path, demo_dump):
    """Two users, two working directories, one report: one task id, so one luigid never runs two
    tasks writing it, and the second run finds the first one's report complete."""
    out, cache = tmp_path / "r.html", tmp_path / "cache"
    first = luigi_run("RenderReport", "--dump", demo_dump, "--report", out, "--ir-trace-cache-dir", cache)
    assert first.returncode == 0, first.stderr[-2000:]
    written = file_state(out)
    shipped = {"LUIGI_CONFIG_PATH": str(REPO / "luigi.cfg")}  # luigi.cfg named from elsewhere
    args = ("RenderReport", "--dump", "./demo/passes_dump/", "--report", "r.html", "--ir-trace-cache-dir", cache)
    again = luigi_run(*args, "--log-level", "INFO", cwd=tmp_path, env=shipped)
    assert again.returncode == 0 and file_state(out) == written
    same_task = RenderReport(dump=str(demo_dump), report=str(out)).task_id  # made from absolute paths here
    assert re.search(rf"task\s+{re.escape(same_task)}\s+has status\s+DONE", again.stderr), again.stderr[-1500:]
    assert "Did not run any tasks" in again.stderr


def luigid_api(port: int, method: str, data: dict) -> dict:
    query = urllib.parse.quote(json.dumps(data))
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/{method}?data={query}", timeout=30) as response:
        return json.load(response)["response"]


def test_luigid_shows_a_failed_task_with_its_one_line_reason(tmp_path):
    state = tmp_path / "luigid"
    state.mkdir()
    luigid, port = start_luigid(state, cwd=tmp_path)
    try:
        result = subprocess.run(
            [
                *(sys.executable, "-m", "luigi", "--module", "ir_trace.pipeline", "RenderReport"),
                *("--dump", tmp_path / "nonexistent", "--report", tmp_path / "r.html"),
                *("--ir-trace-cache-dir", tmp_path / "cache", "--scheduler-port", str(port)),
                *("--scheduler-host", "127.0.0.1"),
            ],
            capture_output=True,
            text=True,
            cwd=REPO,
            env={**os.environ, "PYTHONPATH": str(REPO)},
            timeout=300,
        )
        failed = luigid_api(port, "task_list", {"status": "FAILED"})
        errors = [luigid_api(port, "fetch_error", {"task_id": task_id})["error"] for task_id in failed]
    finally:
        stop_luigid(luigid)
    assert result.returncode == 3, result.stderr[-2000:]
    assert [task["name"] for task in failed.values()] == ["ValidateDump"]
    assert errors == [json.dumps(f"input directory does not exist: {tmp_path / 'nonexistent'}")]


def test_a_snapshot_sliced_before_gives_the_diffs_its_functions_without_being_analysed_again(tmp_path):
    # A rerun after one pass changed rediffs its neighbours: their functions are in the cache already.
    from ir_trace.cache.fingerprints import slice_key
    from ir_trace.inputs.discovery import read_snapshot_text
    from ir_trace.pipeline.config import shared_cache
    from ir_trace.pipeline.snapshots import LoadedSnapshot

    adopt_cache(open_cache(tmp_path / "cache"))
    path = tmp_path / "00_frontend.py"
    path.write_text(FRONTEND, encoding="utf-8")
    text, sha = read_snapshot_text(path)
    sliced = LoadedSnapshot(text, "pypto", sha)
    assert sliced.functions and "structure" in sliced.__dict__  # nothing cached yet: worked out here
    shared_cache().put(slice_key(sha), SliceFunctions(str(path), sha).compute().to_json())
    again = LoadedSnapshot(text, "pypto", sha)
    assert again.functions == sliced.functions and again.functions
    assert "structure" not in again.__dict__  # taken from the cache
    shared_cache().put(slice_key(sha), {"functions": [["Demo.kernel"]], "eol": True})  # not [key, start, end]
    damaged = LoadedSnapshot(text, "pypto", sha)
    assert damaged.functions == sliced.functions and "structure" in damaged.__dict__


def test_the_pipeline_keeps_no_cache_of_its_own_at_module_level():
    """Whatever a process keeps between tasks is in its one Session (ir_trace/cache/session.py): no module of
    the pipeline binds a mutable container at module level (constants aside), nor rebinds a module global."""
    import ast

    containers = (ast.Dict, ast.List, ast.Set, ast.DictComp, ast.ListComp, ast.SetComp)
    kept = []
    for path in sorted((REPO / "ir_trace" / "pipeline").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
            factory = getattr(value.func, "id", "") if isinstance(value, ast.Call) else ""
            called = factory in ("dict", "list", "set", "OrderedDict")
            target = node.target if isinstance(node, ast.AnnAssign) else getattr(node, "targets", [None])[0]
            name = getattr(target, "id", "")
            constant = name.isupper() or name.startswith("__")  # FAILURE_EXIT_CODES, __all__
            if (isinstance(value, containers) or called) and not constant:
                kept.append(f"{path.name}:{node.lineno} {name}")
        kept += [f"{path.name}:{node.lineno} global" for node in ast.walk(tree) if isinstance(node, ast.Global)]
    assert kept == []


def test_each_tasks_parameters_found_once_are_luigis_own():
    """PipelineTask.get_params keeps the class's list (Luigi walks dir(cls) each time): the same list, each class
    its own, a fresh list each call."""
    import ir_trace.pipeline as tasks

    classes = [c for c in map(vars(tasks).get, tasks.__all__) if isinstance(c, type) and issubclass(c, luigi.Task)]
    assert len(classes) >= 6
    for task_class in classes:
        found = task_class.get_params()
        assert found == luigi.Task.get_params.__func__(task_class) == task_class.get_params()
        assert found is not task_class.get_params()

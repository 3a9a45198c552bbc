"""The command line: exit codes, one-line errors, atomic output, quiet stderr, the summary."""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import subprocess
import sys
import threading
from html import unescape
from pathlib import Path

import pytest
from conftest import EXAMPLE_DUMP, FRONTEND, REPO, run_cli, write_dump
from test_summaries import PASS_FIELDS

from ir_trace.report.render import read_payload


def payload_of(report: Path) -> dict:
    return read_payload(report.read_text(encoding="utf-8"))


def test_writes_a_self_contained_report(demo_dump, tmp_path, cache_dir):
    out = tmp_path / "report.html"
    result = run_cli(demo_dump, "-o", out, "--cache-dir", cache_dir)
    assert result.returncode == 0, result.stderr
    html = out.read_text(encoding="utf-8")
    assert '"ConvertToSSA"' not in html  # the data travels compressed
    csp = re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', html)
    assert csp and "default-src 'none'" in unescape(csp.group(1)) and "connect-src 'none'" in unescape(csp.group(1))
    assert not re.search(r'<(script|link|img)[^>]+(src|href)="(?!data:)', html)
    payload = payload_of(out)
    assert [p["name"] for p in payload["passes"]] == ["frontend", "ConvertToSSA", "Simplify", "InsertSync"]
    assert [p.get("changed") for p in payload["passes"][1:]] == [True, False, True]
    assert payload["passes"][3]["log"] == "warning: sync added\n"


def test_summary_line_and_nothing_else_on_stderr(demo_dump, tmp_path, cache_dir):
    result = run_cli(demo_dump, "-o", tmp_path / "r.html", "--cache-dir", cache_dir)
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert re.match(
        r"wrote .*r\.html: 3 passes \(2 changed, 1 no-op, 1 warning\) · 2 pairs rediffed, 0 from cache · "
        r"[\d.]+ [KM]?B · [\d.]+ s$",
        lines[0],
    ), lines[0]
    again = run_cli(demo_dump, "-o", tmp_path / "r.html", "--cache-dir", cache_dir)
    assert "0 pairs rediffed, 2 from cache" in again.stderr


def test_quiet_prints_nothing(demo_dump, tmp_path, cache_dir):
    result = run_cli(demo_dump, "-o", tmp_path / "r.html", "--cache-dir", cache_dir, "--quiet")
    assert result.returncode == 0 and result.stderr == "" and result.stdout == ""


def test_default_output_and_module_entry(demo_dump, tmp_path, cache_dir):
    result = run_cli(demo_dump, "--cache-dir", cache_dir, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "ir_trace.html").is_file()


@pytest.mark.skipif(shutil.which("pypto-ir-trace") is None, reason="console script not installed in this environment")
def test_console_script_matches_module_entry(demo_dump, tmp_path, cache_dir):

    result = subprocess.run(
        ["pypto-ir-trace", str(demo_dump), "-o", str(tmp_path / "r.html"), "--cache-dir", str(cache_dir)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert payload_of(tmp_path / "r.html")["passes"][1]["name"] == "ConvertToSSA"


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["--context", "-1"],
        ["--context", "x"],
        ["--context", "\u0663"],  # ARABIC-INDIC DIGIT THREE: int() would read it
        ["--workers", "0"],
        ["--bogus"],
        ["-q", "--verbose"],
        ["--quiet", "--verbose"],
        ["--cache-dir", "somewhere", "--no-cache"],
        ["-o", "-"],
        ["--output", "-"],
    ],
)
def test_argument_errors_exit_2(demo_dump, tmp_path, args):
    work = tmp_path / "work"
    work.mkdir()
    result = run_cli(*([demo_dump] if args else []), *args, cwd=work)
    assert result.returncode == 2
    assert "usage:" in result.stderr and "Traceback" not in result.stderr
    assert list(work.iterdir()) == [], "an argument error wrote something"


def test_conflicting_flags_name_both(demo_dump):
    assert "argument --verbose: not allowed with argument -q/--quiet" in run_cli(demo_dump, "-q", "--verbose").stderr
    assert "not allowed with argument --cache-dir" in run_cli(demo_dump, "--cache-dir", "x", "--no-cache").stderr
    assert "-o /dev/stdout" in run_cli(demo_dump, "-o", "-").stderr  # says how to get standard output


def expect_error(result, *fragments: str) -> None:
    assert result.returncode == 1, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("pypto-ir-trace: error: "), result.stderr
    for fragment in fragments:
        assert fragment in lines[0]


def test_dump_errors_exit_1_with_one_line(tmp_path, cache_dir):
    expect_error(run_cli(tmp_path / "missing", "--cache-dir", cache_dir), "input directory does not exist")
    dump = write_dump(tmp_path / "prog" / "passes_dump", [FRONTEND, FRONTEND])
    expect_error(run_cli(dump.parent, "-o", tmp_path / "r.html", "--cache-dir", cache_dir), "did you mean", str(dump))
    (dump / "01_after_Pass1.py").write_bytes(b"\xff")
    expect_error(run_cli(dump, "-o", tmp_path / "r.html", "--cache-dir", cache_dir), "not UTF-8", "01_after_Pass1.py")


def test_failed_run_keeps_the_earlier_report(demo_dump, tmp_path, cache_dir):
    out = tmp_path / "r.html"
    assert run_cli(demo_dump, "-o", out, "--cache-dir", cache_dir).returncode == 0
    before = out.read_bytes()
    (demo_dump / "02_after_Simplify.py").unlink()
    expect_error(run_cli(demo_dump, "-o", out, "--cache-dir", cache_dir), "missing snapshot index 02")
    assert out.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_output_directory_must_exist(demo_dump, tmp_path, cache_dir):
    expect_error(
        run_cli(demo_dump, "-o", tmp_path / "nope" / "r.html", "--cache-dir", cache_dir),
        "-o: output directory does not exist",
        str(tmp_path / "nope"),
    )


def bad_output_cases(tmp_path: Path, dump: Path) -> list[tuple[list, tuple[str, ...]]]:
    """(extra arguments, fragments of the one error line): each refused before anything runs."""
    (tmp_path / "sub").mkdir()
    (tmp_path / "link.json").symlink_to("r.html")
    return [
        (["--json", "/nonexistent/t.json"], ("--json: output directory does not exist: /nonexistent",)),
        (["--json", tmp_path / "sub"], ("--json: ", "is a directory")),
        (["--json", tmp_path / "r.html"], ("--json: ", "is the same file as -o")),
        (["--json", tmp_path / "sub" / ".." / "r.html"], ("--json: ", "is the same file as -o")),
        (["--json", tmp_path / "link.json"], ("--json: ", "is the same file as -o")),
        (["-o", dump / "00_frontend.py"], ("-o: ", "is inside the dump directory")),
        (["-o", dump / "new.html"], ("-o: ", "is inside the dump directory")),
        (["-o", dump / ".." / dump.name / "x.html"], ("-o: ", "is inside the dump directory")),
        (["--json", dump / "t.json"], ("--json: ", "is inside the dump directory")),
        (["-o", "/dev/stdout", "--json", "-"], ("--json: '-' is standard output, where -o /dev/stdout goes too",)),
    ]


def test_a_bad_output_is_refused_before_anything_is_written(demo_dump, tmp_path, cache_dir):
    report = tmp_path / "r.html"
    report.write_text("earlier report\n")
    dump_files = {p.name: p.read_bytes() for p in demo_dump.iterdir()}
    for extra, fragments in bad_output_cases(tmp_path, demo_dump):
        args = ["-o", report, *extra] if extra[0] != "-o" else extra
        result = run_cli(demo_dump, *args, "--cache-dir", cache_dir)
        expect_error(result, *fragments)
        assert report.read_text() == "earlier report\n", extra
        assert {p.name: p.read_bytes() for p in demo_dump.iterdir()} == dump_files, extra
        assert result.stdout == ""
    assert not cache_dir.exists(), "the run started although an output was refused"


def test_nothing_is_written_into_the_cache_directory_or_the_dump_by_mistake(demo_dump, tmp_path, cache_dir):
    """`-o CACHE/cache.db` would replace the cache's database with HTML (and the next run move the
    whole cache aside, report included); a cache inside the dump would write its files into the input."""
    report = tmp_path / "r.html"
    assert run_cli(demo_dump, "-o", report, "--cache-dir", cache_dir).returncode == 0
    database, dump_files = (cache_dir / "cache.db").read_bytes(), sorted(p.name for p in demo_dump.iterdir())
    cases = [
        (["-o", cache_dir / "cache.db"], ("-o: ", "is inside the cache directory")),
        (["-o", report, "--json", cache_dir / "x" / ".." / "s.json"], ("--json: ", "is inside the cache directory")),
    ]
    for extra, fragments in cases:
        expect_error(run_cli(demo_dump, *extra, "--cache-dir", cache_dir), *fragments)
    expect_error(
        run_cli(demo_dump, "-o", report, "--cache-dir", demo_dump / "cache"), "--cache-dir: ", "inside the dump"
    )
    expect_error(run_cli(demo_dump, "-o", report, "--cache-dir", demo_dump), "--cache-dir: ", "inside the dump")
    assert (cache_dir / "cache.db").read_bytes() == database
    assert sorted(p.name for p in demo_dump.iterdir()) == dump_files


def test_report_to_standard_output(demo_dump, tmp_path, cache_dir):

    for _run in range(2):  # a stream is never "current": the second run prints the report again
        result = subprocess.run(
            [sys.executable, "-m", "ir_trace", str(demo_dump), "-o", "/dev/stdout", "--cache-dir", str(cache_dir)],
            capture_output=True,
            timeout=300,
        )
        assert result.returncode == 0, result.stderr
        assert read_payload(result.stdout.decode("utf-8"))["passes"][1]["name"] == "ConvertToSSA"
        assert result.stderr.decode().startswith("wrote /dev/stdout: 3 passes")
        assert "report unchanged" not in result.stderr.decode()


def test_frontend_only_renders_and_says_so(tmp_path, cache_dir):
    dump = write_dump(tmp_path / "d", [FRONTEND])
    result = run_cli(dump, "-o", tmp_path / "r.html", "--cache-dir", cache_dir)
    assert result.returncode == 0 and "no pass snapshot exists" in result.stderr
    assert len(payload_of(tmp_path / "r.html")["passes"]) == 1


def test_no_cache_leaves_no_cache_behind(demo_dump, tmp_path, monkeypatch):
    result = run_cli(demo_dump, "-o", tmp_path / "r.html", "--no-cache")
    assert result.returncode == 0, result.stderr
    assert "2 pairs rediffed" in result.stderr


def test_a_luigi_cfg_in_the_working_directory_changes_nothing(demo_dump, tmp_path, cache_dir):
    (tmp_path / "luigi.cfg").write_text(
        "[core]\nlog_level=DEBUG\nno_configure_logging=false\n"
        "[ir_trace]\ncache_dir=/nonexistent/elsewhere\n[worker]\nkeep_alive=true\n"
    )
    result = run_cli(demo_dump, "-o", "r.html", "--cache-dir", cache_dir, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert len(result.stderr.splitlines()) == 1
    assert (cache_dir / "cache.db").is_file()


def test_bundled_example_renders(tmp_path, cache_dir):
    result = run_cli(EXAMPLE_DUMP, "-o", tmp_path / "r.html", "--cache-dir", cache_dir)
    assert result.returncode == 0, result.stderr
    payload = payload_of(tmp_path / "r.html")
    assert any(p.get("log") for p in payload["passes"]) and not all(p.get("changed", True) for p in payload["passes"])
    assert REPO in EXAMPLE_DUMP.parents


def test_bundled_example_program_is_the_whole_pipeline(tmp_path, cache_dir):
    """The README's first command: the example's PyPTO passes, then its MLIR unit, in one report."""
    out = tmp_path / "trace.json"
    result = run_cli(EXAMPLE_DUMP.parent, "-o", tmp_path / "r.html", "--cache-dir", cache_dir, "--json", out)
    assert result.returncode == 0, result.stderr
    assert "2 traces" in result.stderr.splitlines()[-1]
    traces = json.loads(out.read_text(encoding="utf-8"))["traces"]
    assert [(t["stage"], t["unit"]) for t in traces] == [("pypto", ""), ("ptoas", "softmax_rows")]
    mlir = traces[1]["passes"]
    assert mlir[-1]["file"].startswith("ptoas_passes/softmax_rows/") and any(p["changed"] for p in mlir)
    assert {p["header"]["argument"] for p in mlir} >= {"convert-func-to-llvm", "canonicalize"}


def test_json_summary_to_a_file_and_to_stdout(tmp_path, cache_dir):
    out = tmp_path / "trace.json"
    result = run_cli(EXAMPLE_DUMP, "-o", tmp_path / "r.html", "--cache-dir", cache_dir, "--json", out)
    assert result.returncode == 0, result.stderr
    trace = json.loads(out.read_text(encoding="utf-8"))
    assert trace["schema"] == 1 and trace["title"] == "softmax" and trace["level"] == "CONCISE"
    assert all(list(p) == PASS_FIELDS for p in trace["passes"])
    by_name = {p["name"]: p for p in trace["passes"]}
    outlined = by_name["OutlineIncoreScopes"]
    assert outlined["functions"]["SoftmaxProgram.main_incore_0"]["inserted"] > 0
    assert (
        sum(f["inserted"] for f in outlined["functions"].values()) + outlined["outside_functions"]["inserted"]
        == outlined["inserted"]
    )
    assert by_name["FlattenCallExpr"]["changed"] is False and by_name["FlattenCallExpr"]["functions"] == {}
    assert by_name["InitMemRef"]["warning"] and "MemRefAliasCheck" in by_name["InitMemRef"]["warning_text"]

    again = run_cli(EXAMPLE_DUMP, "-o", tmp_path / "r.html", "--cache-dir", cache_dir, "--json", "-", "-q")
    assert again.returncode == 0 and json.loads(again.stdout) == trace


def test_progress_bar_on_a_terminal_only(tmp_path, cache_dir):
    import os
    import pty

    from conftest import generate_dump

    dump = generate_dump(
        tmp_path / "p" / "passes_dump", "--functions", "4", "--lines", "8", "--passes", "6", "--noop-ratio", "0"
    )
    controller, terminal = pty.openpty()
    env = {**os.environ, "PYPTO_IR_TRACE_PROGRESS_DELAY": "0"}
    result = subprocess.run(
        [sys.executable, "-m", "ir_trace", str(dump), "-o", str(tmp_path / "r.html"), "--cache-dir", str(cache_dir)],
        stderr=terminal,
        stdout=subprocess.DEVNULL,
        env=env,
        timeout=120,
    )
    os.close(terminal)
    shown = b""
    while True:
        try:
            chunk = os.read(controller, 65536)
        except OSError:
            break
        if not chunk:
            break
        shown += chunk
    os.close(controller)
    assert result.returncode == 0
    text = shown.decode()
    assert re.search(r"\[[#.]{30}\] \d+/13 diffs and function slices", text), text
    assert text.rstrip().splitlines()[-1].lstrip("\r ").startswith("wrote ")


def test_a_fifo_gets_the_report_through_and_one_without_a_reader_fails_at_once(demo_dump, tmp_path, cache_dir):
    fifo = tmp_path / "report.fifo"
    os.mkfifo(fifo)
    alone = run_cli(demo_dump, "-o", fifo, "--cache-dir", cache_dir)  # nobody reads: an error, not a hang
    expect_error(alone, f"error: -o: nothing is reading the FIFO {fifo}")
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    try:
        result = run_cli(demo_dump, "-o", fifo, "--cache-dir", cache_dir)
    finally:
        if reader.is_alive():  # the command failed before opening the FIFO: release the reader
            with open(fifo, "wb"):
                pass
        reader.join()
    assert result.returncode == 0, result.stderr
    assert read_payload(received[0].decode("utf-8"))["passes"][3]["name"] == "InsertSync"
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_device_nodes_are_written_through_or_refused_never_replaced(demo_dump, tmp_path, cache_dir):
    if os.geteuid() != 0:
        pytest.skip("making device nodes needs root")
    null = tmp_path / "null"
    os.mknod(null, stat.S_IFCHR | 0o666, os.makedev(1, 3))  # /dev/null's numbers, inside the temp directory
    disk = tmp_path / "disk"
    os.mknod(disk, stat.S_IFBLK | 0o600, os.makedev(7, 0))  # a loop device's numbers: refused unopened
    result = run_cli(demo_dump, "-o", null, "--json", null.with_name("t.json"), "--cache-dir", cache_dir)
    assert result.returncode == 0, result.stderr
    assert stat.S_ISCHR(os.lstat(null).st_mode) and os.lstat(null).st_rdev == os.makedev(1, 3)
    expect_error(run_cli(demo_dump, "-o", disk, "--cache-dir", cache_dir), "-o: ", "is a block device")
    refused = run_cli(demo_dump, "-o", tmp_path / "r.html", "--json", disk, "--cache-dir", cache_dir)
    expect_error(refused, "--json: ", "is a block device")
    assert stat.S_ISBLK(os.lstat(disk).st_mode)

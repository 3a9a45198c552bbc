"""Hostile input, faults and concurrency, each tried for real on the real command.

Every run below goes through `python -m ir_trace` in a fresh process. A case either ends with
exit 0 and a report that gives back every snapshot exactly, or with exit 1 and one error line
naming the file; never a traceback, a hang, a half-written report or a leftover temp file.
"""

from __future__ import annotations

import ast
import contextlib
import ctypes
import hashlib
import os
import pickle
import random
import shutil
import sqlite3
import stat
import subprocess
import sys
import threading
import time
from contextlib import closing
from pathlib import Path

import pytest
from conftest import FRONTEND, demo_passes, write_dump
from hostile_support import (
    assert_error_line,
    assert_round_trip,
    chain_dump,
    command,
    read_payload,
    run,
    snapshot_texts,
    temp_files,
)

IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


def run_ok(dump: Path, report: Path, *extra) -> subprocess.CompletedProcess:
    result = run(dump, "-o", report, *extra)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    return result


def warnings_of(result: subprocess.CompletedProcess) -> list[str]:
    return [line for line in result.stderr.splitlines() if line.startswith("pypto-ir-trace: warning: ")]


# ---------- input it must survive ----------


def test_empty_snapshots_round_trip(tmp_path: Path):
    dump = write_dump(tmp_path / "passes_dump", ["", ("Grow", FRONTEND), ("Empty", ""), ("Still", "")])
    report = tmp_path / "r.html"
    run_ok(dump, report, "--no-cache")
    payload = assert_round_trip(report, dump)
    assert [p.get("changed") for p in payload["passes"]] == [None, True, True, False]


def test_crlf_mixed_endings_and_tabs_round_trip(tmp_path: Path):
    crlf = FRONTEND.replace("\n", "\r\n")
    mixed = "".join(line + ("\r\n", "\n", "\r")[i % 3] for i, line in enumerate(FRONTEND.split("\n")))
    tabs = FRONTEND.replace("    ", "\t").replace("t0", "t0\t\t")
    dump = write_dump(
        tmp_path / "passes_dump",
        [
            FRONTEND,
            ("ToCRLF", crlf),
            ("Mixed", mixed),
            ("Tabs", tabs),
            ("NoFinalNewline", tabs.rstrip("\n")),
            ("Back", FRONTEND),
        ],
    )
    report = tmp_path / "r.html"
    run_ok(dump, report, "--no-cache")
    assert_round_trip(report, dump)


def test_a_200k_character_line_round_trips(tmp_path: Path):
    rng = random.Random(200)
    pieces = ["pl.add(", "t", ", ", ")", " ", "😀", "中", "\t", "a_b", "[64, 128]"]
    long_line = "".join(rng.choice(pieces) for _ in range(120_000))[:200_000]
    assert len(long_line) == 200_000
    edited = list(long_line)
    for _ in range(300):
        edited[rng.randrange(len(edited))] = rng.choice("xyz😀")
    edited = "".join(edited)
    head = "def kernel(a):\n    x = "
    dump = write_dump(
        tmp_path / "passes_dump",
        [
            head + long_line + "\n",
            ("Edit", head + edited + "\n"),
            ("Twice", head + edited + "\n" + head + long_line + "\n"),
        ],
    )
    report = tmp_path / "r.html"
    run_ok(dump, report, "--no-cache")
    assert_round_trip(report, dump)


def test_a_50_mb_snapshot(tmp_path: Path):
    """One 50 MB frontend and a pass that edits three of its 630k lines."""
    body = [
        f"        t{i}: pl.Tile[[64, 128], pl.FP32] = pl.add(t{i - 1}, t{i - 2})  # padding padding" for i in range(200)
    ]
    parts = ["# pypto.program: Big\nimport pypto.language as pl\n\n@pl.program\nclass Big:\n"]
    size, f = len(parts[0]), 0
    while size < 50_000_000:
        chunk = (
            f"    @pl.function(type=pl.FunctionType.InCore)\n    def kernel_{f}(self, a):\n"
            + "\n".join(body)
            + "\n        return t199\n"
        )
        parts.append(chunk)
        size += len(chunk)
        f += 1
    text = "".join(parts)
    edited = text.replace("t7: pl.Tile[[64, 128], pl.FP32] = pl.add(", "t7: pl.Tile[[64, 128], pl.FP32] = pl.mul(", 3)
    dump = write_dump(tmp_path / "passes_dump", [text, ("Edit", edited)])
    del parts, body
    report = tmp_path / "r.html"
    started = time.monotonic()
    run_ok(dump, report, "--cache-dir", tmp_path / "cache")
    elapsed = time.monotonic() - started
    print(
        f"\n50 MB snapshot ({len(text) / 1e6:.1f} MB, {text.count(chr(10))} lines): report in {elapsed:.1f} s, "
        f"{report.stat().st_size / 1e6:.1f} MB"
    )
    payload = assert_round_trip(report, dump)
    assert payload["passes"][1]["inserted"] == 3 and payload["passes"][1]["deleted"] == 3


def test_1000_passes(tmp_path: Path):
    dump = chain_dump(tmp_path / "passes_dump", 1000, seed=1000)
    report = tmp_path / "r.html"
    started = time.monotonic()
    result = run_ok(dump, report, "--cache-dir", tmp_path / "cache")
    print(f"\n1,000 passes: report in {time.monotonic() - started:.1f} s; {result.stderr.strip()}")
    payload = assert_round_trip(report, dump)
    assert len(payload["passes"]) == 1001
    assert payload["passes"][1000]["file"] == "1000_after_Pass1000.py"  # numeric order past 99 and 999


def test_nul_bytes_and_control_characters_round_trip(tmp_path: Path):
    controls = "".join(chr(c) for c in range(32) if c not in (10,)) + "\x7f\x85\u2028\u2029\ufeff\u202e"
    texts = [
        FRONTEND,
        ("Nul", FRONTEND.replace("t0, t0", "t0,\x00t0")),
        ("Controls", FRONTEND + controls + "\n"),
        ("Escape", "\x1b[2J\x1b[31mred\x1b[0m\n" + FRONTEND),
    ]
    dump = write_dump(tmp_path / "passes_dump", texts, logs={2: "warning\x00 with \x1b[1m NUL\n"})
    report = tmp_path / "r.html"
    run_ok(dump, report, "--no-cache")
    payload = assert_round_trip(report, dump)
    assert payload["passes"][2]["log"] == "warning\x00 with \x1b[1m NUL\n"


def test_unusual_unicode_round_trips(tmp_path: Path):
    cjk = FRONTEND.replace("Demo", "演示程序").replace("# pypto.program", "# 程序 😀 👩\u200d💻 \U0010fffd")
    separators = cjk.replace("t1 = ", "t1\u2028=\u2029 ").replace("return", "return\u3000")
    combining = separators.replace("kernel", "ke\u0301rnel")
    dump = write_dump(
        tmp_path / "passes_dump", [FRONTEND, ("CJK", cjk), ("Separators", separators), ("Combining", combining)]
    )
    report = tmp_path / "r.html"
    run_ok(dump, report, "--no-cache")
    assert_round_trip(report, dump)


def test_invalid_utf8_exits_1_naming_the_file(tmp_path: Path):
    dump = write_dump(tmp_path / "passes_dump", demo_passes())
    bad = dump / "02_after_Simplify.py"
    bad.write_bytes(bad.read_bytes()[:40] + b"\xc3\x28" + bad.read_bytes()[40:])
    report = tmp_path / "r.html"
    assert_error_line(run(dump, "-o", report, "--no-cache"), "not UTF-8", str(bad))
    assert not report.exists()


@pytest.mark.parametrize(
    "name",
    [
        "Init MemRef",
        "a.b.c",
        "v1.2 fix",
        "Ünïcödé流水线",
        "<b>x<\\b>&amp;\"'",
        "{{ 7*7 }}",
        "javascript:alert(1)",
        " spaced ",
    ],
)
def test_pass_names_with_spaces_dots_unicode_html(tmp_path: Path, name: str):
    dump = write_dump(
        tmp_path / "passes_dump", [FRONTEND, (name, FRONTEND.replace("t1", "t9"))], logs={1: f"log of {name}\n"}
    )
    report = tmp_path / "r.html"
    run_ok(dump, report, "--no-cache")
    payload = assert_round_trip(report, dump)
    assert payload["passes"][1]["name"] == name
    assert payload["passes"][1]["log"] == f"log of {name}\n"


def test_code_nested_beyond_the_recursion_limit_leaves_the_rest_of_the_report_normal(tmp_path: Path):
    deep_unary = "    x = " + "-" * 5000 + "1"
    deep_sum = "    y = 1" + " + 1" * 20000
    deep_brackets = "    z = " + "[" * 3000 + "]" * 3000
    nested = FRONTEND + "\n\ndef deep(a):\n" + "\n".join([deep_unary, deep_sum, deep_brackets]) + "\n    return a\n"
    for source in (deep_unary, deep_sum):  # the hostile part: Python's own parser gives up on it
        with pytest.raises((RecursionError, MemoryError)):
            ast.parse("def f():\n" + source + "\n")
    dump = write_dump(
        tmp_path / "passes_dump",
        [FRONTEND, ("Deep", nested), ("Again", nested + "# end\n"), ("Back", FRONTEND.replace("t1", "t2"))],
    )
    report = tmp_path / "r.html"
    run_ok(dump, report, "--no-cache")
    payload = assert_round_trip(report, dump)
    passes = payload["passes"]
    for k in (0, 3):  # untouched passes keep their function index
        assert [f[0] for f in passes[k]["functions"]] == ["Demo.kernel", "Demo.main"]
    for k in (1, 2):  # the deep ones: sliced without recursion, or a whole-file fallback with a reason
        entry = passes[k]
        if entry["functions"] is None:
            assert entry["parse_error"]
        else:
            lines = nested.count("\n") + (k == 2)
            assert all(0 <= start < end <= lines for _key, start, end in entry["functions"])
            assert "deep" in [f[0] for f in entry["functions"]]


def test_symlinked_snapshot_inside_the_dump_is_read_through_the_link_when_asked(tmp_path: Path):
    dump = write_dump(tmp_path / "passes_dump", demo_passes())
    elsewhere = dump / "kept" / "elsewhere.py"
    elsewhere.parent.mkdir()
    elsewhere.write_text(FRONTEND.replace("t1", "linked"))
    target = dump / "02_after_Simplify.py"
    target.unlink()
    target.symlink_to(elsewhere)
    report = tmp_path / "r.html"
    run_ok(dump, report, "--no-cache", "--follow-inner-symlinks")
    assert_round_trip(report, dump)


def test_symlink_loops_inside_the_dump(tmp_path: Path):
    dump = write_dump(tmp_path / "passes_dump", demo_passes())
    (dump / "loop").symlink_to(".")  # a directory loop a recursive walk would fall into: ignored
    (dump / "up").symlink_to("../passes_dump")
    report = tmp_path / "r.html"
    run_ok(dump, report, "--no-cache")
    assert_round_trip(report, dump)
    looped = dump / "04_after_Loop.py"
    looped.symlink_to("04_after_Loop.py")  # a snapshot that is a loop: one error line naming it
    assert_error_line(run(dump, "-o", tmp_path / "r2.html", "--no-cache"), str(looped))
    assert not (tmp_path / "r2.html").exists()


@pytest.mark.parametrize("kind", ["fifo", "device", "dangling symlink"])
def test_a_snapshot_that_is_not_a_regular_file_is_refused_without_hanging(tmp_path: Path, kind: str):
    dump = write_dump(tmp_path / "passes_dump", demo_passes())
    odd = dump / "04_after_Odd.py"
    if kind == "fifo":
        os.mkfifo(odd)  # reading it would block until some writer appeared
    elif kind == "device":
        odd.symlink_to("/dev/zero")  # reading it would never end
    else:
        odd.symlink_to(tmp_path / "gone.py")
    result = run(dump, "-o", tmp_path / "r.html", "--no-cache", timeout=120)
    assert_error_line(result, str(odd))


def _drop_dac_capabilities() -> None:
    """In the child before exec: drop CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH from the bounding set,
    so root obeys file permissions like everyone else (PR_CAPBSET_DROP = 24)."""
    libc = ctypes.CDLL(None, use_errno=True)
    for capability in (1, 2):
        if libc.prctl(24, capability, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


def _permissions_bind(probe: Path) -> str | None:
    """None when chmod will stop a child process from reading `probe`, else why it will not."""
    if not IS_ROOT:
        return None
    try:
        result = subprocess.run(
            [sys.executable, "-c", f"open({str(probe)!r}).read()"],
            preexec_fn=_drop_dac_capabilities,
            capture_output=True,
            text=True,
            timeout=60,
        )
    except (OSError, subprocess.SubprocessError) as exc:
        return f"running as root and cannot drop CAP_DAC_OVERRIDE ({exc})"
    if "PermissionError" not in result.stderr:
        return "running as root and file permissions do not bind even without CAP_DAC_OVERRIDE"
    return None


def run_without_root_powers(*args) -> subprocess.CompletedProcess:
    return subprocess.run(
        command(*args),
        capture_output=True,
        text=True,
        timeout=300,
        preexec_fn=_drop_dac_capabilities if IS_ROOT else None,
    )


def test_an_unreadable_snapshot_exits_1_naming_it(tmp_path: Path):
    dump = write_dump(tmp_path / "passes_dump", demo_passes(), logs={3: "warning\n"})
    locked = dump / "02_after_Simplify.py"
    locked.chmod(0)
    reason = _permissions_bind(locked)
    if reason:
        pytest.skip(reason)
    result = run_without_root_powers(dump, "-o", tmp_path / "r.html", "--no-cache")
    assert_error_line(result, str(locked), "ermission denied")
    locked.chmod(0o644)
    (dump / "03_after_InsertSync.log").chmod(0)  # an unreadable warning log is named the same way
    result = run_without_root_powers(dump, "-o", tmp_path / "r.html", "--no-cache")
    assert_error_line(result, str(dump / "03_after_InsertSync.log"))
    assert not (tmp_path / "r.html").exists()


def test_a_non_utf8_file_name_or_path_is_one_error_line(tmp_path: Path):
    dump = write_dump(tmp_path / "passes_dump", demo_passes())
    with open(os.fsencode(dump) + b"/04_after_Caf\xe9.py", "wb") as handle:
        handle.write(b"x = 1\n")
    assert_error_line(run(dump, "-o", tmp_path / "r.html", "--no-cache"), "not UTF-8", "04_after_Caf\\xe9.py")
    odd_dir = os.fsencode(tmp_path) + b"/d\xffr"
    os.mkdir(odd_dir)
    with open(odd_dir + b"/00_frontend.py", "w") as handle:
        handle.write(FRONTEND)
    result = subprocess.run(
        [
            os.fsencode(sys.executable),
            b"-m",
            b"ir_trace",
            odd_dir,
            b"-o",
            os.fsencode(tmp_path / "r.html"),
            b"--no-cache",
        ],
        capture_output=True,
        text=True,
    )
    assert_error_line(result, "not valid UTF-8", "d\\xffr")
    result = subprocess.run(
        [
            os.fsencode(sys.executable),
            b"-m",
            b"ir_trace",
            os.fsencode(dump),
            b"-o",
            os.fsencode(tmp_path) + b"/r\xff.html",
            b"--no-cache",
        ],
        capture_output=True,
        text=True,
    )
    assert_error_line(result, "not valid UTF-8", "r\\xff.html")


def test_a_newline_or_escape_sequence_in_a_path_keeps_every_message_one_line(tmp_path: Path):
    """Control characters in a name are escaped: a newline would split the error, ESC drive the terminal."""
    odd = tmp_path / "two\nlines\x1b[2J"
    dump = write_dump(odd / "passes_dump", demo_passes())
    (dump / "02_after_Simplify.py~").write_text("stray copy\n")  # a warning naming the dump directory
    result = run_ok(dump, tmp_path / "r.html", "--no-cache")
    assert len(result.stderr.splitlines()) == 2 and "\x1b" not in result.stderr, result.stderr
    assert "two\\nlines\\x1b[2J" in warnings_of(result)[0]
    os.mkfifo(dump / "04_after_Extra.py")
    error = assert_error_line(run(dump, "-o", tmp_path / "r.html", "--no-cache"), "not a regular file")
    assert "two\\nlines\\x1b[2J" in error
    assert_error_line(run(odd / "missing", "-o", tmp_path / "r.html"), "input directory does not exist")


def test_a_snapshot_rewritten_during_the_run_gives_a_consistent_report_or_a_clean_failure(tmp_path: Path):
    """A writer swaps one snapshot between two versions (atomically) and another in place while
    the command runs; each report holds one version of each file, its hash matching its text."""
    dump = chain_dump(tmp_path / "passes_dump", 150, seed=7)
    swapped, torn = dump / "75_after_Pass75.py", dump / "120_after_Pass120.py"
    versions = {
        swapped: [swapped.read_bytes(), swapped.read_bytes().replace(b"pl.add", b"pl.sub")],
        torn: [torn.read_bytes(), torn.read_bytes() * 3],
    }
    stop, rewrites = threading.Event(), [0]

    def rewrite():
        flip = 0
        while not stop.is_set():
            flip ^= 1
            staging = tmp_path / "staging.py"
            staging.write_bytes(versions[swapped][flip])
            os.replace(staging, swapped)
            torn.write_bytes(versions[torn][flip])  # truncate, then write: readers may see anything between
            rewrites[0] += 1

    outcomes = []
    writer = threading.Thread(target=rewrite, daemon=True)
    writer.start()
    try:
        for attempt in range(3):
            report = tmp_path / f"r{attempt}.html"
            before = rewrites[0]
            result = run(dump, "-o", report, "--cache-dir", tmp_path / "cache")
            assert rewrites[0] > before, "the writer did not run during the command"
            assert "Traceback" not in result.stderr
            if result.returncode == 0:
                payload = read_payload(report.read_text(encoding="utf-8"))
                for entry, text in zip(payload["passes"], snapshot_texts(payload)):
                    data = text.encode("utf-8")
                    assert entry["sha256"] == hashlib.sha256(data).hexdigest(), entry["file"]
                    if entry["file"] == swapped.name:
                        assert data in versions[swapped]
                    elif entry["file"] != torn.name:
                        assert data == (dump / entry["file"]).read_bytes()
                outcomes.append("consistent")
            else:
                assert_error_line(result, "changed while the report was being built")
                assert not report.exists()
                outcomes.append("failed cleanly")
            assert temp_files(tmp_path) == []
    finally:
        stop.set()
        writer.join()
    print(f"\nrewritten during the run: {outcomes}")


# ---------- faults ----------


def mount_tmpfs(mount: Path, options: str) -> Path:
    """A real tmpfs mounted at `mount` (root only; the test is skipped, with the reason, elsewhere)."""
    if not IS_ROOT:
        pytest.skip("mounting a tmpfs needs root")
    mount.mkdir()
    result = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(mount)], capture_output=True, text=True
    )
    if result.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {result.stderr.strip()}")
    return mount


@contextlib.contextmanager
def tmpfs_mounted(mount: Path, options: str):
    """mount_tmpfs for the length of a `with`, unmounted after."""
    mount_tmpfs(mount, options)
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


@pytest.fixture
def small_tmpfs(tmp_path: Path):
    """A real 512 KiB filesystem, mounted for the test."""
    with tmpfs_mounted(tmp_path / "full", "size=512k,mode=0755") as mount:
        yield mount


def test_disk_full_while_writing_keeps_the_earlier_report_and_no_temp_file(tmp_path: Path, small_tmpfs: Path):
    small = write_dump(tmp_path / "small" / "passes_dump", demo_passes())
    report = small_tmpfs / "ir_trace.html"
    run_ok(small, report, "--cache-dir", tmp_path / "cache")
    earlier = report.read_bytes()
    noise = "\n".join(os.urandom(40).hex() for _ in range(20000)) + "\n"  # compresses badly: cannot fit
    big = write_dump(tmp_path / "big" / "passes_dump", [noise, ("Edit", noise.replace(noise[:80], "x" * 80))])
    result = run(big, "-o", report, "--cache-dir", tmp_path / "cache")
    assert_error_line(result, f"error: -o: cannot write {report}: No space left on device")
    assert report.read_bytes() == earlier
    assert temp_files(small_tmpfs) == []


def test_a_sweep_text_store_on_a_full_disk_fails_with_one_line_and_no_temp_file(small_tmpfs: Path):
    from ir_trace.errors import IRTraceError
    from ir_trace.sweep.results import keep_text

    store = small_tmpfs / "text"
    with pytest.raises(IRTraceError, match="No space left on device"):
        keep_text(store, "ab" * 32, os.urandom(1 << 20))  # random bytes stay 1 MiB compressed: cannot fit
    assert temp_files(store) == []


def test_several_runs_at_once_on_the_same_dump_output_and_cache(tmp_path: Path):
    dump = chain_dump(tmp_path / "passes_dump", 80, seed=80)
    lone = tmp_path / "lone.html"
    run_ok(dump, lone, "--no-cache", "-q")
    report, cache = tmp_path / "shared" / "ir_trace.html", tmp_path / "cache"
    report.parent.mkdir()
    processes = [
        subprocess.Popen(
            command(dump, "-o", report, "--cache-dir", cache, *extra),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for extra in ([], [], ["--workers", "2"], [], ["-q"], ["--workers", "2"])
    ]
    errors = [p.communicate(timeout=300)[1] for p in processes]
    for process, err in zip(processes, errors):
        assert process.returncode == 0, err
        assert "Traceback" not in err and "warning:" not in err, err
    assert report.read_bytes() == lone.read_bytes()
    assert temp_files(report.parent) == []
    assert_round_trip(report, dump)


# ---------- a damaged cache ----------


class _Planted:
    """Unpickling this creates the marker file: proof that something unpickled it."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return (open, (str(self.marker), "w"))


@pytest.fixture(scope="module")
def cached_dump(tmp_path_factory) -> tuple[Path, Path, bytes]:
    """A dump whose cache holds inline entries and a value file (a diff over 32 KB), its good
    cache directory and its report."""
    root = tmp_path_factory.mktemp("cached")
    base = "\n".join(f"x{i} = pl.add(y{i}, {i})" for i in range(1500)) + "\n"
    dump = write_dump(
        root / "passes_dump",
        [
            base,
            ("Rewrite", base.replace("pl.add", "pl.mul")),
            ("Small", base.replace("pl.add", "pl.mul").replace("x7 =", "z7 =")),
        ],
        logs={2: "warning: small\n"},
    )
    good = root / "good-cache"
    reference = root / "reference.html"
    run_ok(dump, reference, "--cache-dir", good, "-q")
    assert list(good.rglob("*.val")), "the cache should hold at least one value file"
    return dump, good, reference.read_bytes()


def _rows(cache: Path) -> sqlite3.Connection:
    return sqlite3.connect(cache / "cache.db")


def _garbage(cache: Path, _tmp: Path):
    (cache / "cache.db").write_bytes(random.Random(1).randbytes(64 * 1024))


def _truncated(cache: Path, _tmp: Path):
    data = (cache / "cache.db").read_bytes()
    (cache / "cache.db").write_bytes(data[: len(data) // 3])


def _deleted_value_file(cache: Path, _tmp: Path):
    for value in cache.rglob("*.val"):
        value.unlink()


def _altered_value_file(cache: Path, _tmp: Path):
    for value in cache.rglob("*.val"):
        data = bytearray(value.read_bytes())
        data[len(data) // 2] ^= 0x01
        value.write_bytes(bytes(data))


def _altered_inline_entries(cache: Path, _tmp: Path):
    with _rows(cache) as connection:
        connection.execute("UPDATE Cache SET value = replace(value, '1', '2') WHERE filename IS NULL")


def _planted_pickles(cache: Path, tmp: Path):
    """Every entry becomes a pickle (mode 4): inline ones in the table, the others in their value file."""
    with _rows(cache) as connection:
        blob = pickle.dumps(_Planted(tmp / "unpickled"))
        connection.execute("UPDATE Cache SET mode = 4, value = ? WHERE filename IS NULL", (blob,))
        for (filename,) in connection.execute("SELECT filename FROM Cache WHERE filename IS NOT NULL").fetchall():
            (cache / filename).write_bytes(blob)
        connection.execute("UPDATE Cache SET mode = 4 WHERE filename IS NOT NULL")


def _value_file_outside_the_cache(cache: Path, tmp: Path):
    """Entries that name a file outside the cache: reading or deleting it would be an escape."""
    victim = tmp / "victim" / "precious.txt"
    victim.parent.mkdir()
    victim.write_text("precious\n")
    with _rows(cache) as connection:
        connection.execute("UPDATE Cache SET mode = 3, value = NULL, filename = ?", (str(victim),))


def _planted_settings(cache: Path, _tmp: Path):
    with _rows(cache) as connection:
        connection.execute("INSERT INTO Settings VALUES ('disk_unknown', 1)")
        connection.execute(
            "UPDATE Settings SET value = 'wal; ATTACH ''/tmp/x'' AS x' WHERE key = 'sqlite_journal_mode'"
        )


@pytest.mark.parametrize(
    "damage",
    [
        _garbage,
        _truncated,
        _deleted_value_file,
        _altered_value_file,
        _altered_inline_entries,
        _planted_pickles,
        _value_file_outside_the_cache,
        _planted_settings,
    ],
    ids=lambda f: f.__name__.strip("_").replace("_", " "),
)
def test_a_damaged_cache_is_rebuilt_with_one_warning_and_nothing_unpickled(tmp_path: Path, cached_dump, damage):
    dump, good, reference = cached_dump
    cache = tmp_path / "cache"
    shutil.copytree(good, cache)
    damage(cache, tmp_path)
    report = tmp_path / "r.html"
    result = run_ok(dump, report, "--cache-dir", cache)
    assert report.read_bytes() == reference
    warnings = warnings_of(result)
    assert len(warnings) == 1 and "cache" in warnings[0], result.stderr
    assert not (tmp_path / "unpickled").exists(), "a planted pickle was unpickled"
    if damage is _value_file_outside_the_cache:
        assert (tmp_path / "victim" / "precious.txt").read_text() == "precious\n"
    again = run_ok(dump, tmp_path / "r2.html", "--cache-dir", cache)  # rebuilt: the next run is quiet
    assert warnings_of(again) == []
    assert (tmp_path / "r2.html").read_bytes() == reference


def test_several_runs_at_once_on_a_garbage_cache_all_succeed(tmp_path: Path, cached_dump):
    """Each run finds the database damaged at the same moment; none may move another's new cache
    away from under it or fail, and the cache they leave is sound."""
    dump, good, reference = cached_dump
    cache = tmp_path / "cache"
    shutil.copytree(good, cache)  # one the tool created, so it may be moved aside
    (cache / "cache.db").write_bytes(random.Random(2).randbytes(64 * 1024))
    report = tmp_path / "out" / "r.html"
    report.parent.mkdir()
    processes = [
        subprocess.Popen(
            command(dump, "-o", report, "--cache-dir", cache), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        for _ in range(4)
    ]
    errors = [p.communicate(timeout=300)[1] for p in processes]
    for process, err in zip(processes, errors):
        assert process.returncode == 0, err
        assert "Traceback" not in err
        assert all("cache" in w for w in warnings_of(subprocess.CompletedProcess([], 0, "", err))), err
    assert report.read_bytes() == reference
    assert temp_files(report.parent) == []
    again = run_ok(dump, tmp_path / "again.html", "--cache-dir", cache)
    assert warnings_of(again) == []


def tree(folder: Path) -> dict[str, bytes | None]:
    """Every entry under `folder` with its bytes (None for a directory)."""
    return {str(p.relative_to(folder)): None if p.is_dir() else p.read_bytes() for p in sorted(folder.rglob("*"))}


def test_a_damaged_cache_in_a_directory_the_tool_did_not_create_is_left_alone(tmp_path: Path, cached_dump):
    """Moving it aside would take the user's other files with it. (A cache inside the dump, where
    this once moved the dump itself aside, is refused before the run: tests/test_cli.py.)"""
    dump, _good, _reference = cached_dump
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "notes.txt").write_text("precious\n")
    (folder / "cache.db").write_bytes(random.Random(3).randbytes(64 * 1024))
    before = tree(folder)
    report = tmp_path / "r.html"
    result = run_ok(dump, report, "--cache-dir", folder)
    assert_round_trip(report, dump)
    assert tree(folder) == before, "the directory was changed"
    assert [p.name for p in tmp_path.iterdir() if ".damaged-" in p.name] == []
    (warning,) = warnings_of(result)
    assert "not created by pypto-ir-trace" in warning and "temporary cache" in warning and str(folder) in warning


def test_a_cache_directory_the_tool_creates_is_tagged(tmp_path: Path):
    dump = write_dump(tmp_path / "passes_dump", demo_passes())
    run_ok(dump, tmp_path / "r.html", "--cache-dir", tmp_path / "cache", "-q")
    tag = (tmp_path / "cache" / "CACHEDIR.TAG").read_text()
    assert tag.startswith("Signature: 8a477f597d28d172789f06886806bc55\n") and "pypto-ir-trace" in tag


# ---------- closed or full standard streams ----------


def run_with_streams(redirections: str, *args) -> subprocess.CompletedProcess:
    """The command under `sh` with shell redirections (`2>&-`, `>/dev/full`, ...) applied to it."""
    script = f'exec "$@" {redirections}'
    return subprocess.run(["sh", "-c", script, "sh", *map(str, command(*args))], capture_output=True, timeout=300)


@pytest.mark.parametrize(
    "redirections",
    ["2>&-", ">&-", "2>&- >&-", "<&- >&- 2>&-", "2>/dev/full", ">/dev/full", ">/dev/full 2>/dev/full"],
)
def test_closed_or_full_standard_streams_still_write_the_report(tmp_path: Path, redirections: str):
    if "/dev/full" in redirections and not Path("/dev/full").exists():
        pytest.skip("no /dev/full here")
    dump = write_dump(tmp_path / "passes_dump", demo_passes())
    report = tmp_path / "r.html"
    result = run_with_streams(redirections, dump, "-o", report, "--cache-dir", tmp_path / "cache")
    assert result.returncode == 0, result.stderr
    assert read_payload(report.read_text(encoding="utf-8"))["passes"][1]["name"] == "ConvertToSSA"
    if "2>" not in redirections:
        assert result.stderr.decode().startswith("wrote ")


def test_a_warning_with_stderr_closed_lands_nowhere_else(tmp_path: Path, cached_dump):
    """With descriptor 2 closed, the next file opened would take its number: a warning must not land
    in the cache database (the damaged cache below makes the run warn while it opens that database)."""
    dump, good, reference = cached_dump
    cache = tmp_path / "cache"
    shutil.copytree(good, cache)
    _altered_inline_entries(cache, tmp_path)
    report = tmp_path / "r.html"
    result = run_with_streams("2>&-", dump, "-o", report, "--cache-dir", cache)
    assert result.returncode == 0
    assert report.read_bytes() == reference
    with closing(sqlite3.connect(cache / "cache.db")) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    again = run_ok(dump, tmp_path / "r2.html", "--cache-dir", cache)
    assert warnings_of(again) == [] and (tmp_path / "r2.html").read_bytes() == reference


def test_json_to_a_closed_or_full_standard_output_is_one_clear_error(tmp_path: Path):
    dump = write_dump(tmp_path / "passes_dump", demo_passes())
    report = tmp_path / "r.html"
    closed = run_with_streams(">&-", dump, "-o", report, "--no-cache", "--json", "-")
    assert_error_line(_text(closed), "--json: standard output is closed")
    assert not report.exists()  # refused before the run
    if Path("/dev/full").exists():
        full = run_with_streams(">/dev/full", dump, "-o", report, "--no-cache", "--json", "-")
        assert_error_line(_text(full), "--json: cannot write the summary to standard output: No space left on device")
        assert report.exists()  # only the summary was lost


def test_json_to_a_reader_that_stops_early_is_one_clear_error(tmp_path: Path):
    """`--json - | head -c1`: the summary outgrows the pipe, the reader leaves after one byte. Python's
    buffered stdout once lost the rest without an error (exit 0, a truncated summary, no word)."""
    texts = [FRONTEND, *(FRONTEND + f"extra_{i} = {i}\n" for i in range(200))]  # a summary of ~110 KB
    dump = write_dump(tmp_path / "passes_dump", texts)
    read_end, write_end = os.pipe()
    process = subprocess.Popen(
        command(dump, "-o", tmp_path / "r.html", "--no-cache", "--json", "-"),
        stdout=write_end,
        stderr=subprocess.PIPE,
        text=True,
    )
    os.close(write_end)
    try:
        assert os.read(read_end, 1) == b"{"  # blocks until the summary starts
    finally:
        os.close(read_end)
    _out, err = process.communicate(timeout=300)
    result = subprocess.CompletedProcess(process.args, process.returncode, "", err)
    assert_error_line(result, "--json: cannot write the summary to standard output: Broken pipe")
    assert (tmp_path / "r.html").exists()  # only the summary was lost


def _text(result: subprocess.CompletedProcess) -> subprocess.CompletedProcess:
    return subprocess.CompletedProcess(result.args, result.returncode, result.stdout.decode(), result.stderr.decode())


def _unwritable_by_file(tmp: Path) -> tuple[Path, dict]:
    blocker = tmp / "a-file"
    blocker.write_text("not a directory\n")
    return blocker / "cache", {}


def _unwritable_by_mode(tmp: Path) -> tuple[Path, dict]:
    cache = tmp / "read-only-cache"
    cache.mkdir(mode=0o500)
    probe = tmp / "probe"
    probe.write_text("x")
    probe.chmod(0)
    reason = _permissions_bind(probe)
    if reason:
        pytest.skip(reason)
    return cache, {"preexec_fn": _drop_dac_capabilities if IS_ROOT else None}


def _unwritable_read_only_mount(tmp: Path) -> tuple[Path, dict]:
    return mount_tmpfs(tmp / "ro-mount", "ro,size=64k"), {}


@pytest.fixture
def read_only_tmpfs(tmp_path: Path):
    with tmpfs_mounted(tmp_path / "ro", "ro,size=64k") as mount:
        yield mount


def test_outputs_on_a_read_only_mount_are_refused_saying_why(tmp_path: Path, read_only_tmpfs: Path):
    """Root writes through any mode bits, so for root a read-only mount is the usual reason; the error says so."""
    mount = read_only_tmpfs
    dump = write_dump(tmp_path / "passes_dump", demo_passes())
    for label in ("-o", "--json"):
        target = ["-o", mount / "r.html"] if label == "-o" else ["-o", tmp_path / "r.html", "--json", mount / "s.json"]
        result = run(dump, *target, "--no-cache")
        assert_error_line(result, f"{label}: cannot write in {mount}: a read-only file system")
    assert not (tmp_path / "r.html").exists()


@pytest.mark.parametrize(
    "make",
    [_unwritable_by_file, _unwritable_by_mode, _unwritable_read_only_mount],
    ids=["below a regular file", "mode 0500", "read-only mount"],
)
def test_an_unwritable_cache_directory_runs_without_the_cache_and_says_so(tmp_path: Path, make):
    dump = write_dump(tmp_path / "passes_dump", demo_passes())
    lone = tmp_path / "lone.html"
    run_ok(dump, lone, "--no-cache", "-q")
    cache, extra = make(tmp_path)
    scratch = tmp_path / "tmpdir"
    scratch.mkdir(mode=0o777)
    scratch.chmod(0o777)
    try:
        result = subprocess.run(
            command(dump, "-o", tmp_path / "r.html", "--cache-dir", cache),
            capture_output=True,
            text=True,
            timeout=300,
            env={**os.environ, "TMPDIR": str(scratch)},
            **extra,
        )
    finally:
        if make is _unwritable_read_only_mount:
            subprocess.run(["umount", "-l", str(cache)], check=False)
    assert result.returncode == 0, result.stderr
    warnings = warnings_of(result)
    assert len(warnings) == 1 and "running without the cache" in warnings[0] and str(cache) in warnings[0]
    assert (tmp_path / "r.html").read_bytes() == lone.read_bytes()
    assert list(scratch.iterdir()) == [], "the temporary cache was left behind"
    if make is _unwritable_by_mode:
        assert stat.S_IMODE(cache.stat().st_mode) == 0o500 and list(cache.iterdir()) == []


def test_the_cache_directory_is_created_owner_only_and_an_existing_one_keeps_its_mode(tmp_path: Path):
    dump = write_dump(tmp_path / "passes_dump", demo_passes())
    fresh = tmp_path / "new" / "nested" / "cache"
    old_umask = os.umask(0)  # even a permissive umask must not widen it
    try:
        run_ok(dump, tmp_path / "r.html", "--cache-dir", fresh, "-q")
    finally:
        os.umask(old_umask)
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o700
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o755)
    run_ok(dump, tmp_path / "r.html", "--cache-dir", shared, "-q")
    assert stat.S_IMODE(shared.stat().st_mode) == 0o755, "the command changed the mode of a directory it did not create"
    xdg = tmp_path / "xdg"
    result = subprocess.run(
        command(dump, "-o", tmp_path / "r.html", "-q"),
        capture_output=True,
        text=True,
        env={**os.environ, "XDG_CACHE_HOME": str(xdg)},
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert stat.S_IMODE((xdg / "pypto-ir-trace").stat().st_mode) == 0o700

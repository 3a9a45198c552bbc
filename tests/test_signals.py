"""Stopping a run (ir_trace/runsafety/signals.py), tried for real on the real command.

A stopped run exits 130 (SIGINT) or 143 (SIGTERM) at once, leaves no temp file, keeps the earlier
report and a sound cache, and leaves no process of its own running. Each run gets its own session
(`start_new_session`), so the test can list every process the command started.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import random
import select
import signal
import sqlite3
import struct
import subprocess
import sys
import time
from contextlib import closing
from pathlib import Path

import pytest
from conftest import demo_passes, write_dump
from hostile_support import chain_dump, command, run, temp_files

INTERRUPTED = "pypto-ir-trace: interrupted; no report written"


def start(*args, **popen) -> subprocess.Popen:
    return subprocess.Popen(
        command(*args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True, **popen
    )


def work_process_of(process: subprocess.Popen) -> int | None:
    """The command's work process (with one worker, the writer), once it is there; None when the
    command finished before it was seen."""
    while process.poll() is None:
        work = [pid for pid in living_members(process.pid) if pid != process.pid]
        if work:
            return work[0]
        time.sleep(0.005)
    return None


def living_members(session: int) -> list[int]:
    """Processes of a session that have not exited (zombies waiting for a parent have)."""
    members = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        state, sid = fields[0], int(fields[3])  # after the name: state, ppid, pgrp, session
        if sid == session and state not in "ZX":
            members.append(int(entry))
    return members


def stop_signal_to(process: subprocess.Popen, signum: int) -> None:
    """SIGTERM to the command, as `kill` does; SIGINT to its process group, as Ctrl-C does."""
    try:
        if signum == signal.SIGINT:
            os.killpg(process.pid, signum)
        else:
            process.send_signal(signum)
    except ProcessLookupError:  # it has finished already
        pass


def cache_is_sound(cache: Path) -> bool:
    if not (cache / "cache.db").exists():
        return True
    with closing(sqlite3.connect(cache / "cache.db", timeout=60)) as connection:
        return connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def _cache_rows(cache_dir: Path) -> int:
    try:
        with closing(sqlite3.connect(f"file:{cache_dir / 'cache.db'}?mode=ro", uri=True, timeout=1)) as connection:
            return connection.execute("SELECT count(*) FROM Cache").fetchone()[0]
    except sqlite3.Error:
        return 0


@pytest.fixture(scope="module")
def interrupt_dump(tmp_path_factory) -> tuple[Path, bytes]:
    """A dump long enough to interrupt in the middle, and its report from a lone, cache-less run."""
    root = tmp_path_factory.mktemp("interrupt")
    dump = chain_dump(root / "passes_dump", 400, seed=600)
    reference = root / "reference.html"
    result = run(dump, "-o", reference, "--no-cache", "-q")
    assert result.returncode == 0, result.stderr
    return dump, reference.read_bytes()


@pytest.mark.parametrize("workers", ["1", "2"])
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT to the group"])
def test_a_stopped_run_exits_at_once_keeping_the_report_and_the_cache(
    tmp_path: Path, interrupt_dump, signum: int, workers: str
):
    dump, reference = interrupt_dump
    report, cache = tmp_path / "ir_trace.html", tmp_path / "cache"
    report.write_text("earlier report\n")
    process = start(dump, "-o", report, "--cache-dir", cache, "--workers", workers)
    try:
        while _cache_rows(cache) < 20 and process.poll() is None:  # wait until well into the work
            time.sleep(0.02)
        assert process.poll() is None, "the run ended before it could be interrupted"
        stop_signal_to(process, signum)
        _out, err = process.communicate(timeout=60)  # a hang fails here
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == 128 + signum, err
    assert err.strip().splitlines() == [INTERRUPTED], err
    assert report.read_text() == "earlier report\n"
    assert temp_files(tmp_path) == []
    assert living_members(process.pid) == [], "a process of the stopped run is still running"
    again = run(dump, "-o", report, "--cache-dir", cache)  # the cache the stopped run left is sound
    assert again.returncode == 0 and "warning:" not in again.stderr, again.stderr
    assert report.read_bytes() == reference


def _inotify(folder: Path) -> int | None:
    """An inotify descriptor reporting files created in `folder` (Linux, through libc), or None."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        fd = libc.inotify_init1(os.O_CLOEXEC)
        if fd < 0 or libc.inotify_add_watch(fd, os.fsencode(folder), 0x100) < 0:  # IN_CREATE
            return None
    except (OSError, AttributeError):
        return None
    return fd


def _created_names(events: bytes) -> list[str]:
    names, offset = [], 0
    while offset + 16 <= len(events):
        _wd, _mask, _cookie, length = struct.unpack_from("iIII", events, offset)
        names.append(events[offset + 16 : offset + 16 + length].rstrip(b"\0").decode("utf-8", "replace"))
        offset += 16 + length
    return names


def _wait_for_temp_file(fd: int) -> None:
    while True:
        ready, _, _ = select.select([fd], [], [], 120)
        assert ready, "no temp report was created in the output directory"
        if any(name.endswith(".tmp") for name in _created_names(os.read(fd, 65536))):
            return


def _wait_until_stopped(pid: int) -> None:
    """SIGSTOP takes effect asynchronously: wait until the process is really stopped (or gone)."""
    while True:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            return
        if state in "TtZX":
            return
        time.sleep(0.001)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_signal_while_the_temp_report_exists_removes_it(tmp_path: Path, interrupt_dump, signum: int):
    """Freeze the writer the moment its temp report appears (SIGSTOP on every process of the run
    but the command itself), then signal the command: the temp file must go, the earlier report stay."""
    dump, _reference = interrupt_dump
    out, cache = tmp_path / "out", tmp_path / "cache"
    out.mkdir()
    # Diffs cached: the run is mostly the write.
    warm = run(dump, "-o", tmp_path / "warm.html", "--cache-dir", cache, "-q")
    assert warm.returncode == 0, warm.stderr
    report = out / "ir_trace.html"
    for _attempt in range(8):
        report.write_text("earlier report\n")
        fd = _inotify(out)
        if fd is None:
            pytest.skip("inotify is not available to watch for the temp report")
        process = start(dump, "-o", report, "--cache-dir", cache)
        try:
            work = work_process_of(process)
            if work is None:  # finished before its work process was seen: try again
                process.communicate(timeout=60)
                continue
            _wait_for_temp_file(fd)
            try:
                os.killpg(work, signal.SIGSTOP)  # one call freezes the work's whole process group
            except ProcessLookupError:  # it had finished already: nothing to catch this time
                pass
            for pid in living_members(process.pid):
                if pid != process.pid:
                    _wait_until_stopped(pid)
            caught = temp_files(out) != []  # frozen before its rename
            stop_signal_to(process, signum)
            _out, err = process.communicate(timeout=60)
        finally:
            os.close(fd)
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
        finished = process.returncode == 0 or _while_exiting(process.returncode, signum, err)
        assert process.returncode == 128 + signum or (finished and not caught), err
        assert "Traceback" not in err
        assert temp_files(out) == []
        assert living_members(process.pid) == []
        if caught:
            assert report.read_text() == "earlier report\n"
            assert err.strip().splitlines() == [INTERRUPTED], err
            return
    pytest.fail("the temp report was never caught before its rename")


_PAUSED_WRITER = """
import sys
from pathlib import Path
from ir_trace.runsafety.writes import write_output

def wait_for_the_test(_finished):
    print("temp written", flush=True)
    sys.stdin.readline()

write_output(Path(sys.argv[1]), "new report", before_rename=wait_for_the_test)
"""


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_an_unsupervised_writer_removes_its_temp_file_and_still_dies_of_the_signal(tmp_path: Path, signum: int):
    """A `luigi --module ir_trace.pipeline ...` process has no supervisor: killed while its temp report
    exists, it must remove it itself, and die of the signal as Luigi expects."""
    report = tmp_path / "r.html"
    report.write_text("earlier report\n")
    writer = subprocess.Popen(
        [sys.executable, "-c", _PAUSED_WRITER, str(report)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[1])},
    )
    try:
        assert writer.stdout.readline() == "temp written\n"
        assert len(temp_files(tmp_path)) == 1
        writer.send_signal(signum)
        writer.wait(timeout=60)
    finally:
        if writer.poll() is None:
            writer.kill()
    assert writer.returncode == -signum
    assert temp_files(tmp_path) == []
    assert report.read_text() == "earlier report\n"


def _before_our_code(code: int, signum: int, err: str) -> bool:
    """The signal came while the interpreter started, before the command could install its handlers:
    Python's defaults apply (SIGTERM kills; SIGINT is a KeyboardInterrupt, or a fatal error in `site`)."""
    if "pypto-ir-trace" in err or err.startswith("wrote "):
        return False
    return code == -signum or (signum == signal.SIGINT and code in (1, -signum) and "KeyboardInterrupt" in err)


def _while_exiting(code: int, signum: int, err: str) -> bool:
    """The work was done and reported; the signal came as the interpreter was shutting down, when
    Python has put the default handlers back (so the process ends by the signal)."""
    return code == -signum and err.startswith("wrote ")


class _Attempt:
    """One command of the random-moment test, with everything needed to judge how it ended."""

    def __init__(self, rng: random.Random, dumps: list, folder: Path, shared: Path, scratch: Path):
        dump, self.reference, self.duration = rng.choice(dumps)
        self.signum = rng.choice([signal.SIGINT, signal.SIGTERM])
        self.cache = shared if rng.random() < 0.5 else folder / "cache"
        self.out = folder / "out"
        self.out.mkdir(parents=True)
        self.report = self.out / "r.html"
        self.report.write_text("earlier report\n")
        self.after_start = rng.random() < 0.8  # mostly once the work has started, few in Python's own startup
        self.delay = rng.uniform(0, self.duration / 2 if self.after_start else self.duration)
        workers = rng.choice(["1", "2"])
        env = {**os.environ, "TMPDIR": str(scratch)}
        self.process = start(dump, "-o", self.report, "--cache-dir", self.cache, "--workers", workers, env=env)
        self.started = time.monotonic()
        self.signalled: float | None = None

    def moment(self) -> float | None:
        """When to send the signal (monotonic clock), or None while the work has not started yet."""
        if self.after_start and self.process.poll() is None and len(living_members(self.process.pid)) < 2:
            return None
        if self.after_start and not hasattr(self, "work_started"):
            self.work_started = time.monotonic()
        return (self.work_started if self.after_start else self.started) + self.delay

    def outcome(self) -> str:
        """Wait for the exit, check everything the stop promises, and name what happened."""
        _out, err = self.process.communicate(timeout=60)  # a hang fails here
        code, kept, why = self.process.returncode, self.report.read_bytes(), (self.signum, self.process.returncode, err)
        assert temp_files(self.out) == [], why
        assert living_members(self.process.pid) == [], why
        assert cache_is_sound(self.cache), why
        if code == -self.signum and err.startswith("wrote "):  # the signal came as the finished command exited
            assert kept == self.reference, why
            return "finished first"
        if _before_our_code(code, self.signum, err):  # Python was still starting: nothing was done
            assert kept == b"earlier report\n", why
            return "hit Python's startup"
        if err.startswith("Exception ignored in") and "KeyboardInterrupt" in err:
            # Python itself dropped the interrupt (raised in an import's weakref callback) before the
            # command could install its handlers; the run then went on as if never signalled.
            assert code == 0 and kept == self.reference, why
            return "lost by Python's startup"
        assert "Traceback" not in err, why
        if code == 0 or _while_exiting(code, self.signum, err):  # done before the signal came
            assert kept == self.reference, why
            return "finished first"
        assert code == 128 + self.signum, why
        last = err.strip().splitlines()[-1]
        assert last == INTERRUPTED or last.startswith("pypto-ir-trace: interrupted after writing"), why
        assert kept == (b"earlier report\n" if last == INTERRUPTED else self.reference), why
        return "stopped"


def test_fifty_signals_at_random_moments(tmp_path: Path):
    """SIGINT or SIGTERM at a random moment of a short run (startup, scheduling, diffing, writing),
    with one or two workers and a cold or warm cache. Two commands run at a time, each under the
    other's load, each signalled at its own moment."""
    rng = random.Random(50)
    dumps = []
    for name, passes in (("demo", None), ("chain", 12)):
        folder = tmp_path / name / "passes_dump"
        dump = write_dump(folder, demo_passes()) if passes is None else chain_dump(folder, passes, seed=12)
        reference = tmp_path / f"{name}.html"
        started = time.monotonic()
        result = run(dump, "-o", reference, "--no-cache", "-q")
        assert result.returncode == 0, result.stderr
        dumps.append((dump, reference.read_bytes(), time.monotonic() - started))
    scratch, shared = tmp_path / "tmpdir", tmp_path / "shared-cache"
    scratch.mkdir()
    outcomes: dict[str, int] = {}
    slowest = 0.0
    for pair in range(25):
        attempts = [_Attempt(rng, dumps, tmp_path / f"attempt{pair}-{k}", shared, scratch) for k in (0, 1)]
        try:
            waiting = list(attempts)
            while waiting:  # signal each at its moment; the checks below wait for the exits
                for attempt in list(waiting):
                    moment = attempt.moment()
                    if moment is not None and time.monotonic() >= moment:
                        stop_signal_to(attempt.process, attempt.signum)
                        attempt.signalled = time.monotonic()
                        waiting.remove(attempt)
                time.sleep(0.005)
            deadline = time.monotonic() + 60
            running = list(attempts)
            while running and time.monotonic() < deadline:  # how long each took to exit after its signal
                for attempt in list(running):
                    if attempt.process.poll() is not None:
                        slowest = max(slowest, time.monotonic() - attempt.signalled)
                        running.remove(attempt)
                time.sleep(0.005)
            for attempt in attempts:
                name = attempt.outcome()
                outcomes[name] = outcomes.get(name, 0) + 1
        finally:
            for attempt in attempts:
                if attempt.process.poll() is None:
                    os.killpg(attempt.process.pid, signal.SIGKILL)
        assert list(scratch.iterdir()) == [], f"temporary files left behind by pair {pair}"
    print(f"\n50 signals at random moments: {outcomes}; slowest exit after its signal {slowest:.2f} s")
    assert outcomes.get("stopped", 0) >= 10, outcomes  # most signals hit a running command
    report = tmp_path / "final.html"
    final = run(dumps[1][0], "-o", report, "--cache-dir", shared)
    assert final.returncode == 0 and "warning:" not in final.stderr, final.stderr
    assert report.read_bytes() == dumps[1][1]


def test_a_signal_the_command_was_started_ignoring_stays_ignored(tmp_path: Path):
    """`nohup` ignores SIGHUP for the command: a hangup must not stop the run."""
    dump = write_dump(tmp_path / "passes_dump", demo_passes())
    report = tmp_path / "r.html"
    process = start(dump, "-o", report, "--no-cache", preexec_fn=lambda: signal.signal(signal.SIGHUP, signal.SIG_IGN))
    try:
        while process.poll() is None and not living_members(process.pid)[1:]:  # wait for the worker process
            time.sleep(0.01)
        for pid in living_members(process.pid):
            try:
                os.kill(pid, signal.SIGHUP)
            except ProcessLookupError:  # ended since it was listed
                pass
        _out, err = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == 0, err
    assert report.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def _state_and_parent(pid: int) -> tuple[str, int] | None:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return fields[0], int(fields[1])


def test_ctrl_z_suspends_the_work_with_the_command_and_fg_resumes_it(tmp_path: Path, interrupt_dump):
    """Ctrl-Z reaches only the command's own process group; the work in its child group must stop too.
    (The command runs in a process group of the test's session: an orphaned group would ignore SIGTSTP.)"""
    dump, reference = interrupt_dump
    report = tmp_path / "r.html"
    process = subprocess.Popen(
        command(dump, "-o", report, "--cache-dir", tmp_path / "cache"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        process_group=0,
    )
    try:
        children: list[int] = []
        while not children and process.poll() is None:  # wait for the work process
            children = [int(p) for p in os.listdir("/proc") if p.isdigit() and _is_child(int(p), process.pid)]
            time.sleep(0.005)
        os.kill(process.pid, signal.SIGTSTP)
        for pid in (process.pid, *children):
            _wait_until_stopped(pid)
        assert all(_state_and_parent(pid)[0] in "Tt" for pid in (process.pid, *children))
        assert not report.exists()  # the work really is suspended: it cannot have finished
        os.kill(process.pid, signal.SIGCONT)  # what `fg` does
        _out, err = process.communicate(timeout=300)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            for pid in children:
                os.kill(pid, signal.SIGKILL)
    assert process.returncode == 0, err
    assert report.read_bytes() == reference


def _is_child(pid: int, parent: int) -> bool:
    found = _state_and_parent(pid)
    return found is not None and found[1] == parent


@pytest.mark.parametrize(
    ("signum", "code", "line"),
    [
        (signal.SIGTERM, 143, INTERRUPTED),  # `pkill`, or a service manager signalling every process
        (signal.SIGKILL, 1, "pypto-ir-trace: error: the run was killed by signal 9; no report written"),  # OOM
    ],
    ids=["SIGTERM", "SIGKILL"],
)
def test_a_signal_to_the_work_process_itself_is_reported_and_cleaned_up(
    tmp_path: Path, interrupt_dump, signum: int, code: int, line: str
):
    dump, _reference = interrupt_dump
    report, cache = tmp_path / "r.html", tmp_path / "cache"
    report.write_text("earlier report\n")
    process = start(dump, "-o", report, "--cache-dir", cache)
    try:
        while _cache_rows(cache) < 20 and process.poll() is None:  # wait until well into the work
            time.sleep(0.02)
        work = [pid for pid in living_members(process.pid) if pid != process.pid]
        assert work, "the run ended before its work process could be signalled"
        os.kill(work[0], signum)
        _out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == code, err
    assert err.strip().splitlines() == [line], err
    assert report.read_text() == "earlier report\n" and temp_files(tmp_path) == []
    assert living_members(process.pid) == []


# A harness, not the tool: runs the real `python -m ir_trace` (runpy, as -m does) after arming an
# import hook that sends the process a signal the moment a given module starts importing.
_SIGNAL_DURING_IMPORT = """
import os, runpy, signal, sys
module, signum = sys.argv[1], int(sys.argv[2])

class SignalOnImport:
    def find_spec(self, name, path=None, target=None):
        if name == module:
            sys.meta_path.remove(self)
            os.kill(os.getpid(), signum)
        return None

sys.meta_path.insert(0, SignalOnImport())
sys.argv = ["ir_trace", *sys.argv[3:]]
runpy.run_module("ir_trace", run_name="__main__", alter_sys=True)
"""


@pytest.mark.parametrize(
    "module", ["argparse", "ir_trace.app.cli", "ir_trace.noise.normalize", "ir_trace.runsafety.signals"]
)
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGHUP, signal.SIGTERM], ids=["INT", "HUP", "TERM"])
def test_a_signal_while_the_command_is_still_importing_is_one_line_and_128_plus_it(tmp_path, module, signum):
    """Issue 20 item 4: a Ctrl-C in the first ~50 ms printed a traceback; a SIGHUP killed silently."""
    dump = write_dump(tmp_path / "passes_dump", demo_passes())
    report = tmp_path / "r.html"
    script = [sys.executable, "-c", _SIGNAL_DURING_IMPORT, module, str(int(signum))]
    result = subprocess.run(
        [*script, str(dump), "-o", str(report), "--cache-dir", str(tmp_path / "cache")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (result.returncode, result.stderr) == (128 + signum, INTERRUPTED + "\n")
    assert not report.exists()


def _catches(pid: int, signum: int) -> bool | None:
    """Whether the process has a handler for `signum` (SigCgt in /proc), None once it has gone."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    caught = next(line for line in status.splitlines() if line.startswith("SigCgt:"))
    return bool(int(caught.split()[1], 16) >> (signum - 1) & 1)


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGHUP], ids=["INT", "HUP"])
def test_signals_at_several_early_delays_are_one_line_and_128_plus_it(tmp_path, signum):
    """The real command, signalled 0 to 80 ms after its first handler is in place (Python never
    catches SIGHUP itself, so a caught SIGHUP is the tool's): mid-import, mid-parse, mid-start."""
    dump = write_dump(tmp_path / "passes_dump", demo_passes())
    for delay in (0.0, 0.002, 0.005, 0.01, 0.02, 0.04, 0.08):
        process = start(dump, "-o", tmp_path / "r.html", "--cache-dir", tmp_path / "cache")
        while _catches(process.pid, signal.SIGHUP) is False:
            time.sleep(0.0002)
        time.sleep(delay)
        process.send_signal(signum)
        _out, err = process.communicate(timeout=120)
        assert (process.returncode, err) == (128 + signum, INTERRUPTED + "\n"), (delay, err)
        assert not (tmp_path / "r.html").exists()


def _wait_until_all_gone(session: int, seconds: float = 60) -> list[int]:
    deadline = time.monotonic() + seconds
    while living_members(session) and time.monotonic() < deadline:
        time.sleep(0.01)
    return living_members(session)


def _scratch_rows(tmpdir: Path) -> int:
    return sum(_cache_rows(cache) for cache in tmpdir.glob("pypto-ir-trace-run-*/pypto-ir-trace-cache-*"))


@pytest.mark.parametrize("workers", ["1", "2"])
@pytest.mark.parametrize("caching", ["--no-cache", "--cache-dir"])
def test_sigkill_of_the_command_takes_the_work_with_it(tmp_path: Path, interrupt_dump, workers: str, caching: str):
    """Issue 20 item 1: `timeout -s KILL` left the work running; it replaced the report ~15 s later,
    printed `wrote ...` and left an empty /tmp/pypto-ir-trace-run-*."""
    dump, _reference = interrupt_dump
    out, tmpdir, cache = tmp_path / "out", tmp_path / "tmpdir", tmp_path / "cache"
    out.mkdir()
    tmpdir.mkdir()
    report = out / "r.html"
    report.write_text("earlier report\n")
    cache_args = ["--no-cache"] if caching == "--no-cache" else ["--cache-dir", cache]
    env = {**os.environ, "TMPDIR": str(tmpdir)}
    process = start(dump, "-o", report, *cache_args, "--workers", workers, env=env)
    try:
        rows = (lambda: _scratch_rows(tmpdir)) if caching == "--no-cache" else (lambda: _cache_rows(cache))
        while rows() < 20 and process.poll() is None:  # well into the work
            time.sleep(0.02)
        assert process.poll() is None, "the run ended before it could be killed"
        process.kill()  # SIGKILL to the command alone, as `timeout -s KILL` does
        assert process.wait(timeout=60) == -signal.SIGKILL
        assert _wait_until_all_gone(process.pid) == [], "the work outlived the command"
        err = process.stderr.read()
    finally:
        os.killpg(process.pid, signal.SIGKILL) if living_members(process.pid) else None
    assert err == ""  # no `wrote ...`, no error: the terminal hears nothing after the kill
    assert report.read_text() == "earlier report\n"
    assert temp_files(out) == [] and list(tmpdir.rglob("*")) == []


def test_a_report_is_never_published_after_the_command_is_gone(tmp_path: Path, interrupt_dump):
    """Freeze the work the moment its temp report appears, SIGKILL the command, let the work go on:
    it must notice before the rename, publish nothing and remove what it made."""
    dump, _reference = interrupt_dump
    out, tmpdir, cache = tmp_path / "out", tmp_path / "tmpdir", tmp_path / "cache"
    out.mkdir()
    tmpdir.mkdir()
    warm = run(dump, "-o", tmp_path / "warm.html", "--cache-dir", cache, "-q")  # the run is then mostly the write
    assert warm.returncode == 0, warm.stderr
    report = out / "r.html"
    env = {**os.environ, "TMPDIR": str(tmpdir)}
    for _attempt in range(12):
        report.write_text("earlier report\n")
        watch = _inotify(out)
        assert watch is not None, "inotify is not available"
        process = start(dump, "-o", report, "--cache-dir", cache, env=env)
        try:
            work = work_process_of(process)
            if work is None:  # finished before its work process was seen: try again
                process.communicate(timeout=60)
                continue
            _wait_for_temp_file(watch)
            with contextlib.suppress(ProcessLookupError):
                os.killpg(work, signal.SIGSTOP)  # the work's whole process group
            for pid in living_members(process.pid):
                if pid != process.pid:
                    _wait_until_stopped(pid)
            caught = temp_files(out) != []  # frozen before its rename
            process.kill()
            assert process.wait(timeout=60) == -signal.SIGKILL
            with contextlib.suppress(ProcessLookupError):
                os.killpg(work, signal.SIGCONT)
            assert _wait_until_all_gone(process.pid) == [], "the work outlived the command"
            err = process.stderr.read()
        finally:
            os.close(watch)
            if living_members(process.pid):
                os.killpg(process.pid, signal.SIGKILL)
        assert err == ""  # no `wrote ...`, no error: the terminal hears nothing after the kill
        assert temp_files(out) == [] and list(tmpdir.iterdir()) == []
        if caught:
            assert report.read_text() == "earlier report\n"
            return
    pytest.fail("the temp report was never caught before its rename")

"""A sweep rerun while a real luigid still counts the killed sweep's worker as running its tasks (issue 30,
item 9): it did nothing, so it must not exit 0, and it says why and when it can run."""

from __future__ import annotations

import json
import subprocess
import time
import urllib.parse
import urllib.request
from pathlib import Path

from conftest import REPO, generate_dump
from harness import start_luigid, stop_luigid
from test_sweep import luigi_command, luigi_env

BIG = ("--functions", "30", "--lines", "30", "--passes", "60")  # seconds per dump: killed mid-sweep


def running_tasks(port: int) -> dict:
    query = urllib.parse.quote(json.dumps({"status": "RUNNING", "upstream_status": "", "search": ""}))
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/task_list?data={query}", timeout=30) as response:
        return json.load(response)["response"]


def wait_for_a_running_dump(port: int, sweep: subprocess.Popen) -> None:
    for _ in range(600):
        if any(task["name"] == "SweepDump" for task in running_tasks(port).values()):
            return
        assert sweep.poll() is None, "the sweep ended before it could be killed mid-run"
        time.sleep(0.1)
    raise AssertionError("no SweepDump ever ran")


def test_a_rerun_while_luigid_counts_the_killed_sweep_as_running_fails_and_says_when(tmp_path: Path):
    env, root, out = luigi_env(tmp_path), tmp_path / "root", tmp_path / "out"
    for seed in (1, 2, 3):
        generate_dump(root / f"prog{seed}" / "passes_dump", *BIG, "--seed", str(seed))
    state = tmp_path / "luigid"
    state.mkdir()
    luigid, port = start_luigid(state, env=env, cwd=tmp_path)
    command = luigi_command(
        *("--root", root, "--out-dir", out, "--workers", "1"),
        *("--scheduler-host", "127.0.0.1", "--scheduler-port", port),
    )
    try:
        killed = subprocess.Popen(command, env=env, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for_a_running_dump(port, killed)
        killed.kill()
        killed.wait(timeout=30)
        again = subprocess.run(command, env=env, cwd=REPO, capture_output=True, text=True, timeout=120)
    finally:
        stop_luigid(luigid)
    assert again.returncode == 4, again.stderr[-2000:]  # [retcode] scheduling_error
    lines = [line for line in again.stderr.splitlines() if line.startswith("error: ")]
    assert len(lines) == 1 and "still counts a stopped worker as running Sweep" in lines[0], again.stderr[-2000:]
    assert "worker_disconnect_delay" in lines[0] and lines[0].endswith("run again then")
    assert not (out / "index.html").exists() and not (out / "sweep.json").exists()

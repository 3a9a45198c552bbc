"""`luigi --module ir_trace.pipeline ...` run where no luigi.cfg is around (a pip-installed package
in cron, say): the package's own defaults apply, and a user's configuration or flag wins."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conftest import REPO, demo_passes, write_dump


def luigi_report(cwd: Path, dump: Path, *extra: str, module: str = "ir_trace.pipeline") -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "LUIGI_CONFIG_PATH"}
    env["PYTHONPATH"] = str(REPO)
    command = [sys.executable, "-m", "luigi", "--module", module, "RenderReport"]
    command += ["--dump", str(dump), "--report", str(cwd / "r.html"), "--local-scheduler", *extra]
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def test_without_a_luigi_cfg_luigi_logs_warnings_only(tmp_path):
    dump = write_dump(tmp_path / "passes_dump", demo_passes())
    cwd = tmp_path / "elsewhere"
    cwd.mkdir()
    result = luigi_report(cwd, dump, "--ir-trace-cache-dir", str(tmp_path / "cache"))
    assert result.returncode == 0, result.stderr[-3000:]
    assert (cwd / "r.html").exists()
    assert "DEBUG" not in result.stderr and "INFO" not in result.stderr, result.stderr[-3000:]
    assert len(result.stderr.splitlines()) <= 3, result.stderr[-3000:]

    failed = luigi_report(cwd, tmp_path / "missing")
    assert failed.returncode == 3  # the packaged [retcode] default
    assert "DEBUG" not in failed.stderr and "input directory does not exist" in failed.stderr


def test_the_log_level_flag_and_a_users_luigi_cfg_still_win(tmp_path):
    dump = write_dump(tmp_path / "passes_dump", demo_passes())
    cwd = tmp_path / "elsewhere"
    cwd.mkdir()
    flagged = luigi_report(cwd, dump, "--ir-trace-cache-dir", str(tmp_path / "cache"), "--log-level", "INFO")
    assert flagged.returncode == 0 and "INFO" in flagged.stderr, flagged.stderr[-3000:]
    (cwd / "luigi.cfg").write_text(f"[core]\nlog_level = DEBUG\n\n[ir_trace]\ncache_dir = {tmp_path / 'cache'}\n")
    configured = luigi_report(cwd, dump)
    assert configured.returncode == 0 and "DEBUG" in configured.stderr, configured.stderr[-3000:]


def test_the_design_cards_module_name_runs_the_same_tasks(tmp_path):
    """`luigi --module ir_trace.tasks ...` (SPEC's spelling) runs the pipeline's tasks, with its defaults."""
    dump = write_dump(tmp_path / "passes_dump", demo_passes())
    cwd = tmp_path / "elsewhere"
    cwd.mkdir()
    result = luigi_report(cwd, dump, "--ir-trace-cache-dir", str(tmp_path / "cache"), module="ir_trace.tasks")
    assert result.returncode == 0, result.stderr[-3000:]
    assert "pypto-ir-trace" in (cwd / "r.html").read_text(encoding="utf-8")
    failed = luigi_report(cwd, tmp_path / "missing", module="ir_trace.tasks")
    assert failed.returncode == 3 and "input directory does not exist" in failed.stderr

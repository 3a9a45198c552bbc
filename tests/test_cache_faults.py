"""Faults of the cache's disk never cost the report nor make a run lie: a file system that fills
mid-run (a real tmpfs, mounted for the test), a file size limit (`ulimit -f`), runs sharing one
cache. Results the disk does not take are kept for the run in memory, with one warning."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import run_cli
from test_mlir_tree import ROOT, WRITES, header, module, write_tree

from ir_trace.cache.store import ResultCache

NOT_KEPT = "results are not kept"


def big_tree(folder: Path, passes: int = 24) -> Path:
    """A module-scope tree whose pairs' results are tens of kilobytes each."""
    body = "\n".join(f"    // line {i} " + "x" * 60 for i in range(1500))
    dumps = [(f"{ROOT}/{i}_cse.mlir", header("CSE", "cse"), module(f"{body}\n    // a{i}", "b")) for i in range(passes)]
    return write_tree(folder, dumps)


@pytest.fixture
def small_disk(tmp_path):
    """A 1 MiB tmpfs inside the test's directory, unmounted afterwards."""
    mount = tmp_path / "disk"
    mount.mkdir()
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a tmpfs needs root")
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mount)]).returncode != 0:
        pytest.skip("cannot mount a tmpfs here")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def fill(disk: Path, leave_kib: int) -> None:
    """Fill `disk` but `leave_kib` KiB."""
    filler = disk / "filler"
    filler.unlink(missing_ok=True)
    free = os.statvfs(disk).f_bavail * os.statvfs(disk).f_frsize
    with open(filler, "wb") as out:
        out.truncate(0)
        out.write(b"\0" * max(0, free - leave_kib * 1024))


def test_a_cache_disk_that_fills_mid_run_warns_and_writes_the_report(tmp_path, small_disk):
    tree, small = big_tree(tmp_path / "tree"), write_tree(tmp_path / "small", WRITES)
    cache = small_disk / "cache"
    said_not_kept = False
    for leave in (8, 16, 24, 32, 48, 64, 96):
        shutil.rmtree(cache, ignore_errors=True)
        (small_disk / "filler").unlink(missing_ok=True)
        assert run_cli(small, "-o", tmp_path / "s.html", "--cache-dir", cache, "-q").returncode == 0
        fill(small_disk, leave)
        report = tmp_path / f"r{leave}.html"
        result = run_cli(tree, "-o", report, "--cache-dir", cache)  # hung at 24 KiB before (timeout: 300 s)
        assert result.returncode == 0, (leave, result.stderr)
        assert report.stat().st_size > 0 and "changed while" not in result.stderr
        said_not_kept = said_not_kept or NOT_KEPT in result.stderr
    assert said_not_kept  # at least one run lost its disk mid-run


def test_results_the_disk_refused_are_still_seen_by_the_run(tmp_path, small_disk):
    cache = ResultCache(small_disk / "cache")
    fill(small_disk, 0)
    cache.put_many({"report": {"text": "x" * 200_000}})
    assert "report" in cache and cache.get("report") == {"text": "x" * 200_000}
    assert cache.present(["report", "other"]) == {"report"}


LIMITED_RUN = """
import logging, resource, sys
from pathlib import Path
from ir_trace.cache.store import open_cache
logging.basicConfig(format="%(message)s")
resource.setrlimit(resource.RLIMIT_FSIZE, (100, resource.RLIM_INFINITY))
cache = open_cache(Path(sys.argv[1]))
cache.put("k", [1])
print(cache.get("k"), "k" in cache)
"""


def test_a_file_size_limit_that_fails_every_cache_keeps_results_in_memory_and_says_why(tmp_path):
    command = [sys.executable, "-c", LIMITED_RUN, str(tmp_path / "cache")]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0 and result.stdout.split() == ["[1]", "True"], result.stderr
    assert "ulimit -f" in result.stderr and "kept in memory" in result.stderr


def test_damaged_diffs_recomputed_are_counted_as_rediffed_not_from_cache(tmp_path, demo_dump):
    cache = tmp_path / "cache"
    assert run_cli(demo_dump, "-o", tmp_path / "r.html", "--cache-dir", cache).returncode == 0
    with sqlite3.connect(cache / "cache.db") as database:  # every diff's stored text altered: checksums fail
        assert database.execute("UPDATE Cache SET value = 'damaged' WHERE key LIKE 'diff/%'").rowcount > 0
    result = run_cli(demo_dump, "-o", tmp_path / "r2.html", "--cache-dir", cache)
    assert result.returncode == 0 and "damaged entries" in result.stderr
    assert "· 2 pairs rediffed, 0 from cache ·" in result.stderr, result.stderr

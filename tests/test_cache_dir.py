"""What the command says about its cache directory: a damaged cache moved aside is said even
under -q, and only the newest moved-aside copy is kept; a --cache-dir that is someone's
non-empty directory, not a cache, gets a warning before the cache's files go among its own."""

from __future__ import annotations

import random
from pathlib import Path

from conftest import demo_passes, run_cli, write_dump

PROG = "pypto-ir-trace"


def damage(cache: Path, seed: int) -> None:
    (cache / "cache.db").write_bytes(random.Random(seed).randbytes(64 * 1024))


def moved_aside(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if ".damaged-" in p.name)


def test_a_damaged_cache_moved_aside_is_said_even_under_quiet_and_only_one_copy_is_kept(tmp_path):
    dump = write_dump(tmp_path / "passes_dump", demo_passes())
    cache = tmp_path / "cache"
    first = run_cli(dump, "-o", tmp_path / "r.html", "--cache-dir", cache, "-q")
    assert (first.returncode, first.stderr) == (0, "")
    for seed in (1, 2, 3):
        damage(cache, seed)
        result = run_cli(dump, "-o", tmp_path / "r.html", "--cache-dir", cache, "-q")
        assert result.returncode == 0, result.stderr
        (line,) = result.stderr.splitlines()
        assert line.startswith(f"{PROG}: warning: the cache {cache} was damaged") and "moved it to" in line
        kept = moved_aside(tmp_path)
        assert len(kept) == 1 and kept[0] in line, (kept, line)
        if seed > 1:
            assert "removed the older damaged copy" in line
    quiet_again = run_cli(dump, "-o", tmp_path / "r.html", "--cache-dir", cache, "-q")
    assert (quiet_again.returncode, quiet_again.stderr) == (0, "")


def test_a_cache_dir_that_is_a_non_empty_folder_of_other_files_warns(tmp_path):
    dump = write_dump(tmp_path / "passes_dump", demo_passes())
    work = tmp_path / "project"
    work.mkdir()
    (work / "notes.txt").write_text("mine\n")
    result = run_cli(dump, "-o", tmp_path / "r.html", "--cache-dir", ".", cwd=work)
    assert result.returncode == 0, result.stderr
    warning = next(line for line in result.stderr.splitlines() if ": warning: " in line)
    assert warning.startswith(f"{PROG}: warning: --cache-dir ") and "not a pypto-ir-trace cache" in warning
    assert "notes.txt" not in warning or str(work) in warning
    again = run_cli(dump, "-o", tmp_path / "r.html", "--cache-dir", ".", cwd=work)  # a cache now: said once
    assert ": warning: " not in again.stderr, again.stderr
    assert (work / "notes.txt").read_text() == "mine\n"


def test_an_empty_or_new_cache_dir_is_not_warned_about(tmp_path):
    dump = write_dump(tmp_path / "passes_dump", demo_passes())
    (tmp_path / "empty").mkdir()
    for folder in (tmp_path / "empty", tmp_path / "new"):
        result = run_cli(dump, "-o", tmp_path / "r.html", "--cache-dir", folder)
        assert result.returncode == 0 and ": warning: " not in result.stderr, result.stderr

"""Runs sharing one cache and one -o at once (issue 30, item 2): each says what it built, and none calls its
unchanged dump changed. The other run is made to land between this run's write and its reading back the
outcome (a Luigi SUCCESS handler of the report task), the window 20 runs at once hit by chance."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import luigi
import pytest
from conftest import FRONTEND, run_cli, write_dump

import ir_trace
from ir_trace.cache.store import ResultCache
from ir_trace.pipeline import RenderReport


@pytest.fixture
def other_dump(tmp_path: Path) -> Path:
    """A dump of one pass, unlike the demo dump's three."""
    return write_dump(tmp_path / "other" / "passes_dump", [FRONTEND, ("Grow", FRONTEND + "# grown\n")])


def when_the_report_is_written(action):
    """Run `action` in this run's worker right after the report task succeeds, before the run reads back
    what it wrote."""

    def handler(task):
        if isinstance(task, RenderReport):
            action()

    luigi.Task.event_handler(luigi.Event.SUCCESS)(handler)
    return handler


@pytest.fixture
def after_write():
    handlers = []
    yield lambda action: handlers.append(when_the_report_is_written(action))
    for handler in handlers:
        luigi.Task.remove_event_handler(luigi.Event.SUCCESS, handler)


def test_another_dump_written_to_the_same_output_meanwhile_does_not_become_this_runs_summary(
    demo_dump: Path, other_dump: Path, tmp_path: Path, cache_dir: Path, after_write, caplog
):
    out = tmp_path / "shared.html"
    other_run = []
    after_write(lambda: other_run.append(run_cli(other_dump, "--cache-dir", cache_dir, "-o", out)))
    with caplog.at_level(logging.WARNING, logger="ir_trace"):
        result = ir_trace.render(demo_dump, out, cache_dir=cache_dir)
    assert other_run[0].returncode == 0, other_run[0].stderr
    assert result.summary.counts.passes == 3  # the demo dump's, not the other run's report now at `out`
    assert f"{out} was replaced by a concurrent run" in caplog.text


def test_reports_renamed_over_this_one_are_no_change_of_the_dump(
    demo_dump: Path, other_dump: Path, tmp_path: Path, cache_dir: Path, after_write, caplog
):
    """A run of another dump has written and recorded its report at the path, and a third has renamed its
    own file into place and not yet recorded it: neither the path's record nor its file is this run's,
    which says nothing about this run's dump (it was called changed)."""
    out = tmp_path / "shared.html"
    theirs = tmp_path / "theirs.html"

    def two_other_runs():
        assert run_cli(other_dump, "--cache-dir", cache_dir, "-o", out).returncode == 0
        theirs.write_text("<html>a third run's report</html>", encoding="utf-8")
        os.replace(theirs, out)

    after_write(two_other_runs)
    with caplog.at_level(logging.WARNING, logger="ir_trace"):
        result = ir_trace.render(demo_dump, out, cache_dir=cache_dir)
    assert result.summary.counts.passes == 3 and result.pairs == 2
    assert f"{out} was replaced by a concurrent run" in caplog.text


def test_the_same_report_renamed_over_this_one_before_it_is_recorded_is_no_replacement(
    demo_dump: Path, tmp_path: Path, cache_dir: Path, after_write, caplog
):
    """A run of the same dump and options has renamed its equal report into place and not yet recorded it
    (the window six runs at once hit in CI): the file is still this run's report, nothing to warn of."""
    out, theirs = tmp_path / "shared.html", tmp_path / "theirs.html"

    def an_equal_run_renames_first():
        assert run_cli(demo_dump, "--no-cache", "-q", "-o", theirs).returncode == 0
        os.replace(theirs, out)

    after_write(an_equal_run_renames_first)
    with caplog.at_level(logging.WARNING, logger="ir_trace"):
        result = ir_trace.render(demo_dump, out, cache_dir=cache_dir)
    assert result.summary.counts.passes == 3 and not theirs.exists()
    assert "replaced" not in caplog.text


def test_a_rerun_alone_finds_its_report_current_without_a_warning(
    demo_dump: Path, tmp_path: Path, cache_dir: Path, caplog
):
    out = tmp_path / "mine.html"
    first = ir_trace.render(demo_dump, out, cache_dir=cache_dir)
    with caplog.at_level(logging.WARNING, logger="ir_trace"):
        again = ir_trace.render(demo_dump, out, cache_dir=cache_dir)
    assert again.reused and again.summary == first.summary and again.bytes == first.bytes
    assert "replaced" not in caplog.text


def test_an_entry_replaced_between_its_row_and_its_value_file_reads_as_the_new_value(tmp_path: Path):
    """Another process overwriting an entry deletes the old value file right after this one read its row
    (the real diskcache, the file removed in that window): a read of the new value, never damage."""
    mine, theirs = ResultCache(tmp_path / "cache"), ResultCache(tmp_path / "cache")
    big = "x" * 100_000  # above diskcache's inline size: kept in a value file
    theirs.put("key", {"v": 1, "text": big})
    disk = mine._cache._disk
    real_fetch = type(disk).fetch
    overwritten = []

    def fetch_after_their_overwrite(mode, filename, value, read):
        if not overwritten:
            overwritten.append(True)
            theirs.put("key", {"v": 2, "text": big})  # deletes the file `filename` names
            assert filename and not (tmp_path / "cache" / filename).exists()
        return real_fetch(disk, mode, filename, value, read)

    disk.fetch = fetch_after_their_overwrite
    assert mine.get("key") == {"v": 2, "text": big}
    assert "key" in theirs and theirs.get("key")["v"] == 2  # not dropped as damaged

"""How a dump's diffs and slicings become Luigi tasks (ir_trace/pipeline/snapshots.py): a bounded number of
batches, each item cached on its own, items that round-trip through Luigi's parameters."""

from __future__ import annotations

import json

import luigi
import pytest

from ir_trace.errors import IRTraceError
from ir_trace.pipeline.snapshots import (
    MAX_BATCHES,
    MIN_BATCH,
    DiffPair,
    SliceFunctions,
    SliceResult,
    WorkBatch,
    batches,
    work_from_json,
)
from ir_trace.report.model import Hunk, PairDiff


def items(count: int) -> list:
    return [
        DiffPair(f"/d/{i}.py", f"{i:064x}", f"/d/{i + 1}.py", f"{i + 1:064x}")
        if i % 2
        else SliceFunctions(f"/d/{i}.py", f"{i:064x}")
        for i in range(count)
    ]


def test_thousands_of_items_make_a_bounded_number_of_batches_in_order():
    for count in (1, MIN_BATCH, MIN_BATCH + 1, 500, 10_000):
        work = items(count)
        made = batches(work)
        assert len(made) <= MAX_BATCHES
        assert [item for batch in made for item in batch.work] == work
        assert all(len(batch.work) >= min(MIN_BATCH, count) for batch in made[:-1])
    assert batches([]) == []


def test_an_item_round_trips_through_json_and_keys_by_content_only():
    pair = DiffPair("/a/1.py", "a" * 64, "/a/2.py", "b" * 64)
    assert work_from_json(pair.to_json()) == pair
    moved = DiffPair("/elsewhere/1.py", "a" * 64, "/elsewhere/2.py", "b" * 64)
    assert moved.key == pair.key and SliceFunctions("/x.py", "a" * 64).key != pair.key


def test_a_batch_is_one_task_named_by_its_items_whose_parameter_is_a_key_not_a_list():
    work = items(5)
    [batch] = batches(work)
    parsed = WorkBatch.from_str_params(batch.to_str_params())
    assert batch.task_id == parsed.task_id == batches(list(work))[0].task_id  # the same items: the same task
    assert parsed.work == tuple(work)
    assert isinstance(batch, luigi.Task)
    assert len(json.dumps(batch.to_str_params())) < 100  # the items stay in the cache, not in the scheduler
    assert batches(work[:4])[0].task_id != batch.task_id


def test_a_batch_whose_items_left_the_cache_fails_with_one_line():
    with pytest.raises(IRTraceError, match="not in the cache"):
        _ = WorkBatch(items="work/" + "0" * 64).work


def test_a_dump_of_hundreds_of_passes_runs_as_a_bounded_number_of_tasks(tmp_path):
    from ir_trace import api
    from ir_trace.options import RunOptions

    dump = tmp_path / "p" / "passes_dump"
    dump.mkdir(parents=True)
    for step in range(301):  # every third pass prints what the one before did: no work for it
        body = "\n".join(f"    t{i} = pl.add(a, {i if i != step % 5 else step - step % 3})" for i in range(5))
        name = "00_frontend.py" if step == 0 else f"{step:02d}_after_Pass{step}.py"
        (dump / name).write_text(f"def main(a):\n{body}\n    return t4\n", encoding="utf-8")
    ran: list[str] = []

    def record(task):
        ran.append(type(task).__name__)

    luigi.Task.event_handler(luigi.Event.SUCCESS)(record)
    try:
        outcome = api.build(RunOptions.build(dump, tmp_path / "r.html", context=3), tmp_path / "cache")
    finally:
        luigi.Task.remove_event_handler(luigi.Event.SUCCESS, record)
    assert outcome.summary.counts.passes == 300 and outcome.rediffed == outcome.pairs > 150
    assert 1 < ran.count("WorkBatch") <= MAX_BATCHES
    assert ran.count("ValidateDump") == 1 and ran.count("RenderReport") == 1


def test_results_round_trip_and_a_foreign_cached_value_is_no_result():
    diff = PairDiff((Hunk(0, 1, 0, 1, ("x",)),), 1, 1, True, {"ssa": (1, 1)})  # a pair's result: report/model.py
    assert PairDiff.from_json(diff.to_json()) == diff
    sliced = SliceResult((("main", 0, 3),), None, False)
    assert SliceResult.from_json(sliced.to_json()) == sliced and "parse_error" not in sliced.to_json()
    unsliceable = SliceResult(None, "line 3: unterminated string", True)
    assert SliceResult.from_json(unsliceable.to_json()) == unsliceable
    assert SliceResult.from_json(json.loads(json.dumps(sliced.to_json()))) == sliced  # as the cache gives it back
    assert SliceResult.from_json({"functions": [["main", 0]], "eol": True}) is None  # not a triple: sliced again
    for foreign in (None, [], {"hunks": []}, {"functions": "x", "eol": True}):
        assert PairDiff.from_json(foreign) is None or SliceResult.from_json(foreign) is None
    assert PairDiff.from_json({"hunks": [], "inserted": 0}) is None


def test_a_batch_names_itself_by_its_count_and_first_and_last_files_not_every_item():
    batch = batches(items(300))[0]
    shown = repr(batch)
    assert shown == "WorkBatch(38 items: slice 0.py .. diff 37.py > 38.py)"
    assert f"{150:064x}" not in shown and len(shown) < 100


def test_a_slicing_equal_to_the_last_holds_that_very_list():
    from ir_trace.pipeline.snapshots import _sharing

    first = SliceResult((("main", 0, 3), ("f", 4, 9)), None, True)
    equal = SliceResult((("main", 0, 3), ("f", 4, 9)), None, False)
    kept = _sharing(equal, first)
    assert kept == SliceResult(first.functions, None, False) and kept.functions is first.functions
    moved = SliceResult((("main", 0, 3), ("f", 5, 10)), None, True)
    assert _sharing(moved, first) is moved and _sharing(first, None) is first

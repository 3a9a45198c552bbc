"""How a dump's diffs and slicings become Luigi tasks (ir_trace/tasks/snapshots.py): a bounded number of
batches, each item cached on its own, items that round-trip through Luigi's parameters."""

from __future__ import annotations

import luigi

from ir_trace.tasks.snapshots import (
    MAX_BATCHES,
    MIN_BATCH,
    DiffPair,
    SliceFunctions,
    WorkBatch,
    batches,
    work_from_json,
)


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


def test_a_batch_is_one_task_whatever_form_its_items_are_given_in():
    work = items(5)
    from_items = WorkBatch(work=tuple(work))
    from_json = WorkBatch(work=[item.to_json() for item in work])
    parsed = WorkBatch.from_str_params({"work": from_items.to_str_params()["work"]})
    assert from_items.task_id == from_json.task_id == parsed.task_id
    assert parsed.work == tuple(work)
    assert isinstance(from_items, luigi.Task)

"""Function lists as runs over the list before them (report/function_runs.py): what they stand for, exactly."""

from __future__ import annotations

import random

import pytest

from ir_trace.report.function_runs import expand, function_runs, listed_functions


def layout(names: list[str], lengths: dict[str, int], gap: int = 1) -> tuple:
    found, line = [], 3
    for name in names:
        found.append((name, line, line + lengths[name]))
        line += lengths[name] + gap
    return tuple(found)


def test_a_pass_that_moves_functions_is_a_few_runs():
    lengths = {f"k{i}": 10 + i for i in range(100)}
    base = layout(list(lengths), lengths)
    lengths["k40"] += 3  # a pass grows one function: the 59 after it move by 3
    runs = function_runs(base, layout(list(lengths), lengths))
    assert runs == [[40, 0], ["k40", base[40][1], base[40][2] + 3], [59, 3, 1]]
    assert expand(base, runs) == layout(list(lengths), lengths)


def test_added_and_removed_functions_are_matched_by_key():
    lengths = {f"k{i}": 5 for i in range(30)} | {"new": 7}
    names = [f"k{i}" for i in range(30)]
    base = layout(names, lengths)
    later = names[:10] + ["new"] + names[10:20] + names[21:]
    runs = function_runs(base, layout(later, lengths))
    assert runs is not None and len(runs) <= 4
    assert expand(base, runs) == layout(later, lengths)


@pytest.mark.parametrize("seed", range(4))
def test_random_lists_read_back_exactly(seed):
    rng = random.Random(seed)
    for _ in range(2000):
        lengths = {f"f{k}": rng.randrange(1, 6) for k in range(10)} | {f"g{k}": rng.randrange(1, 6) for k in range(3)}
        base = layout(rng.sample(sorted(lengths), rng.randrange(0, 12)), lengths, rng.randrange(0, 3))
        names = [key for key, _start, _end in base if rng.random() > 0.15]
        for _ in range(rng.randrange(3)):
            names.insert(rng.randrange(len(names) + 1), rng.choice(sorted(lengths)))
        if rng.random() < 0.2:
            rng.shuffle(names)
        for name in rng.sample(sorted(lengths), 2):
            lengths[name] += rng.choice([0, 1])
        functions = layout(names, lengths, rng.randrange(0, 3))
        runs = function_runs(base, functions)
        assert runs is None or (len(runs) < len(functions) and expand(base, runs) == functions)


def test_runs_that_do_not_fit_their_base_are_refused():
    base = (("a", 0, 2), ("b", 3, 5))
    with pytest.raises(ValueError):
        expand(base, [[3, 0]])
    with pytest.raises(ValueError):
        expand(base, [[1, 0, 2]])


def test_a_payload_is_read_with_every_list_whole():
    base = [["a", 0, 2], ["b", 3, 5]]
    payload = {"passes": [{"functions": base}, {}, {"functions": {"shifted": [[2, 4]]}}, {"functions": None}]}
    assert listed_functions(payload)["passes"][2]["functions"] == [["a", 4, 6], ["b", 7, 9]]
    several = {"traces": [{"passes": [{"functions": base}, {"functions": {"shifted": [[1, 1, 1]]}}]}]}
    assert listed_functions(several)["traces"][0]["passes"][1]["functions"] == [["b", 4, 6]]

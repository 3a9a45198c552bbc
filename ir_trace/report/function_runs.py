"""A snapshot's function list written as runs over the list before it, in the payload.

Between adjacent snapshots nearly every function keeps its key and its length and moves by the lines a pass
inserted or deleted above it: a 1,000-pass dump of 570 functions listed each snapshot's functions whole, 25 MB
of its 31 MB of JSON (most of the time spent writing and compressing the page). Written as runs, a list is a
few entries: `[n, d]` takes the base list's next n functions moved by d lines (`[n, d, s]`: after passing over
the next s, functions the pass removed), `[key, start, end]` is a function of its own (one the pass added or
changed the length of). The page (viewer_model.js `functionList`) and `expand` here read them back.
"""

from __future__ import annotations

from itertools import compress, islice
from itertools import count as count_from
from operator import eq, itemgetter, ne, not_, sub

Function = tuple[str, int, int]  # key ("name" or "Class.method"), first line, end line (exclusive; decorators in)


def function_runs(base: tuple[Function, ...], functions: tuple[Function, ...]) -> list[list] | None:
    """`functions` as runs over `base`, or None when the runs would be no shorter than the list itself.

    Each stretch that lines up with the base (same keys, same lengths, each moved some lines) is measured and cut
    into runs with C iterators; Python runs once per function a pass added, removed or resized, not per function."""
    if len(functions) < _FEWEST:
        return None
    runs: list[list] = []
    shape, base_shape = _shapes(functions), _shapes(base)
    where: dict[str, int] | None = None  # key -> its place in base, built at the first function out of line
    done = here = taken = 0  # functions written; the base's function they are lined up with; the runs' base
    while done < len(functions):
        lined_up = map(eq, islice(shape, done, None), islice(base_shape, here, None))
        count = next(compress(count_from(), map(not_, lined_up)), min(len(functions) - done, len(base) - here))
        if count:
            runs += _aligned_runs(base[here : here + count], functions[done : done + count], here - taken)
            done, here = done + count, here + count
            taken = here
            continue
        if where is None:
            where = dict(zip(map(itemgetter(0), base), range(len(base))))
        key, start, end = functions[done]
        found = where.get(key, -1)
        if found > here and base_shape[found] == shape[done]:
            here = found  # the base's functions before it were removed: passed over
            continue
        runs.append([key, start, end])  # added, or resized (the base's of that key then passed over)
        done, here = done + 1, here + (here < len(base) and base[here][0] == key)
    return runs if len(runs) < len(functions) else None


_FEWEST = 4  # a shorter list is written whole: runs would save little (a stream of 100,000 one-function dumps)


def _shapes(functions: tuple[Function, ...]) -> list[tuple[str, int]]:
    """Each function's key and length: what stays when a pass only moves it."""
    lengths = map(sub, map(itemgetter(2), functions), map(itemgetter(1), functions))
    return list(zip(map(itemgetter(0), functions), lengths))


def _aligned_runs(base, functions, skip: int) -> list[list]:
    """Runs taking all of `base` (the next `skip` base functions passed over first), each function in its place."""
    shifts = list(map(sub, map(itemgetter(1), functions), map(itemgetter(1), base)))
    ends = [*compress(range(1, len(shifts)), map(ne, shifts[1:], shifts)), len(shifts)]
    runs = [[end - start, shifts[start]] for start, end in zip([0, *ends], ends)]
    if skip:
        runs[0].append(skip)
    return runs


def expand(base: tuple[Function, ...], runs: list) -> tuple[Function, ...]:
    """The function list `runs` stand for over `base`; ValueError when they do not fit it."""
    found: list[Function] = []
    taken = 0
    for run in runs:
        if isinstance(run[0], str):
            key, start, end = run
            found.append((key, int(start), int(end)))
            continue
        count, shift = int(run[0]), int(run[1])
        taken += int(run[2]) if len(run) > 2 else 0
        if count < 0 or taken + count > len(base):
            raise ValueError("a run of functions past its base list")
        found += ((key, start + shift, end + shift) for key, start, end in base[taken : taken + count])
        taken += count
    return tuple(found)


def read_functions(functions: list | dict, base: tuple[Function, ...] | None) -> tuple[Function, ...]:
    """A sliced record's functions as the payload holds them (a list, or `{"shifted": runs}` over `base`, the
    sliced record's before it); ValueError for runs with no list before them."""
    if isinstance(functions, dict):
        if base is None:
            raise ValueError("function runs with no function list before them")
        return expand(base, functions["shifted"])
    return tuple((str(key), int(start), int(end)) for key, start, end in functions)


def listed_functions(payload: dict) -> dict:
    """`payload` (a page's, as `render.read_payload` decodes it) with every function list written out whole, as
    the page works them out: a report's passes, its traces' and, run against run, each run's."""
    for report in payload.get("runs") or [payload]:
        for trace in report.get("traces") or [report]:
            base: tuple[Function, ...] | None = None
            for record in trace.get("passes", ()):
                if record.get("functions") is None:
                    base = None if "functions" in record else base
                    continue
                base = read_functions(record["functions"], base)
                record["functions"] = [list(function) for function in base]
    return payload

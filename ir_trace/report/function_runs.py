"""A snapshot's function list written as runs over the list before it, in the payload.

Between adjacent snapshots nearly every function keeps its key and its length and moves by the lines a pass
inserted or deleted above it: a 1,000-pass dump of 570 functions listed each snapshot's functions whole, 25 MB
of its 31 MB of JSON (most of the time spent writing and compressing the page). Written as runs, a list is a
few entries: `[n, d]` takes the base list's next n functions moved by d lines (`[n, d, s]`: after passing over
the next s, functions the pass removed), `[key, start, end]` is a function of its own (one the pass added or
changed the length of). The page (viewer_model.js `functionList`) and `expand` here read them back.
"""

from __future__ import annotations

from itertools import compress
from operator import and_, eq, itemgetter, ne, not_, sub

Function = tuple[str, int, int]  # key ("name" or "Class.method"), first line, end line (exclusive; decorators in)


def function_runs(base: tuple[Function, ...], functions: tuple[Function, ...]) -> list[list] | None:
    """`functions` as runs over `base`, or None when the runs would be no shorter than the list itself.

    The ends that line up with the base's (same keys, same lengths, each moved some lines) are cut into runs
    with C iterators; only between them, where a pass added or removed functions, is each function matched
    by its key in Python."""
    head = _kept_count(base, functions)
    tail = _kept_count(base[head:][::-1], functions[head:][::-1])
    runs = _aligned_runs(base[:head], functions[:head], 0)
    middle_base, middle = base[head : len(base) - tail], functions[head : len(functions) - tail]
    taken = _match_middle(middle_base, middle, runs)
    runs += _aligned_runs(base[len(base) - tail :], functions[len(functions) - tail :], len(middle_base) - taken)
    return runs if len(runs) < len(functions) else None


def _kept_count(base, functions) -> int:
    """How many leading functions keep the key and length of the base's at their place."""
    size = min(len(base), len(functions))
    kept = map(
        and_,
        map(eq, map(itemgetter(0), functions[:size]), map(itemgetter(0), base[:size])),
        map(
            eq,
            map(sub, map(itemgetter(2), functions[:size]), map(itemgetter(1), functions[:size])),
            map(sub, map(itemgetter(2), base[:size]), map(itemgetter(1), base[:size])),
        ),
    )
    return next(compress(range(size), map(not_, kept)), size)


def _aligned_runs(base, functions, skip: int) -> list[list]:
    """Runs taking all of `base` (the next `skip` base functions passed over first), each function in its place."""
    if not functions:
        return []
    shifts = list(map(sub, map(itemgetter(1), functions), map(itemgetter(1), base)))
    ends = [*compress(range(1, len(shifts)), map(ne, shifts[1:], shifts)), len(shifts)]
    runs = [[end - start, shifts[start]] for start, end in zip([0, *ends], ends)]
    if skip:
        runs[0].append(skip)
    return runs


def _match_middle(base, functions, runs: list[list]) -> int:
    """Runs for `functions` over `base` (appended to `runs`), each matched by key in order; the base taken so far."""
    where = {key: k for k, (key, _start, _end) in enumerate(base)}
    taken = 0
    for function in functions:
        key, start, end = function
        k = where.get(key, -1)
        if k < taken or base[k][2] - base[k][1] != end - start:
            runs.append(list(function))
            continue
        shift = start - base[k][1]
        last = runs[-1] if runs else None
        if k == taken and last is not None and not isinstance(last[0], str) and last[1] == shift:
            last[0] += 1
        else:
            runs.append([1, shift] if k == taken else [1, shift, k - taken])
        taken = k + 1
    return taken


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


def listed_functions(payload: dict) -> dict:
    """`payload` (a page's, as `render.read_payload` decodes it) with every function list written out whole, as
    the page works them out: a report's passes, its traces' and, run against run, each run's."""
    for report in payload.get("runs") or [payload]:
        for trace in report.get("traces") or [report]:
            base: tuple[Function, ...] | None = None
            for record in trace.get("passes", ()):
                if "functions" not in record:
                    continue
                found = record["functions"]
                if isinstance(found, dict):
                    found = record["functions"] = [list(f) for f in expand(base or (), found["shifted"])]
                base = None if found is None else tuple(map(tuple, found))
    return payload

"""Warm time of one pair's diff and of one snapshot's structure + slicing (min of 15 `timeit` rounds of 2).

    PYTHONPATH=. python benchmarks/pair_speed.py BEFORE AFTER

The functions are given to the diff (as the pipeline does); the chunk memo is warm, so this is the cost a
snapshot pays when its chunks were seen before. Alternate trees A B A B to compare them.
"""

from __future__ import annotations

import sys
import timeit

from ir_trace.diffcore.linediff import diff_snapshots, split_lines
from ir_trace.syntax.functions import analyse_structure, slice_functions


def functions_of(lines: list[str], text: str) -> list:
    found = slice_functions(lines, analyse_structure(lines, text)).functions or ()
    return [tuple(f) for f in found]


def fastest_ms(work) -> float:
    return min(timeit.repeat(work, number=2, repeat=15)) / 2 * 1000


def main() -> None:
    before, after = (open(path, encoding="utf-8").read() for path in sys.argv[1:3])
    (a, a_eol), (b, b_eol) = split_lines(before), split_lines(after)
    fns_a, fns_b = functions_of(a, before), functions_of(b, after)
    diff = fastest_ms(lambda: diff_snapshots(a, b, a_eol, b_eol, fns_a, fns_b))
    structure = fastest_ms(lambda: functions_of(b, after))
    print(f"diff {diff:.1f} ms, structure + slicing {structure:.1f} ms")


if __name__ == "__main__":
    main()

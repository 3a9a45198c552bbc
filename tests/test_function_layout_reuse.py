"""A pair's layout shared by its exact and keyed diffs (issue 29): reused only for the very same function
lists and sizes while every function stays in order, and then what a fresh layout gives."""

from __future__ import annotations

from ir_trace.diffcore import structure
from ir_trace.diffcore.structure import function_layout

A_FUNCTIONS = [("f", 0, 3), ("g", 3, 6), ("h", 6, 9)]
B_FUNCTIONS = [("f", 0, 3), ("g", 3, 7), ("h", 7, 10)]
A_LINES = ["def f", "x = 1", "end", "def g", "y = 1", "end", "def h", "z = 1", "end"]
B_LINES = ["def f", "x = 1", "end", "def g", "y = 2", "w = 3", "end", "def h", "z = 1", "end"]


def fresh(n, m, a_keys, b_keys, fns_a, fns_b):
    """The layout with no earlier pair to share: copies of the lists, so nothing is known of them."""
    structure._last_in_order[:] = [None, None]
    return function_layout(n, m, a_keys, b_keys, list(fns_a), list(fns_b), 100)


def test_the_keyed_diff_shares_the_exact_diffs_segments():
    exact = function_layout(9, 10, A_LINES, B_LINES, A_FUNCTIONS, B_FUNCTIONS, 100)
    keyed_a, keyed_b = [line.replace("1", "N") for line in A_LINES], [line.replace("2", "N") for line in B_LINES]
    keyed = function_layout(9, 10, keyed_a, keyed_b, A_FUNCTIONS, B_FUNCTIONS, 100)
    assert keyed.segments is exact.segments
    assert keyed.a_keys is keyed_a and keyed.b_keys is keyed_b  # the keys are the call's own
    assert keyed == fresh(9, 10, keyed_a, keyed_b, A_FUNCTIONS, B_FUNCTIONS)


def test_other_function_lists_or_sizes_are_laid_out_afresh():
    function_layout(9, 10, A_LINES, B_LINES, A_FUNCTIONS, B_FUNCTIONS, 100)
    shorter = B_FUNCTIONS[:2]
    assert function_layout(9, 10, A_LINES, B_LINES, A_FUNCTIONS, shorter, 100) == fresh(
        9, 10, A_LINES, B_LINES, A_FUNCTIONS, shorter
    )
    function_layout(9, 10, A_LINES, B_LINES, A_FUNCTIONS, B_FUNCTIONS, 100)
    assert function_layout(9, 12, A_LINES, B_LINES + ["", ""], A_FUNCTIONS, B_FUNCTIONS, 100) == fresh(
        9, 12, A_LINES, B_LINES + ["", ""], A_FUNCTIONS, B_FUNCTIONS
    )


def test_moved_functions_are_never_taken_from_a_pair_in_order():
    function_layout(9, 10, A_LINES, B_LINES, A_FUNCTIONS, B_FUNCTIONS, 100)
    swapped = [("h", 0, 3), ("g", 3, 7), ("f", 7, 10)]
    lines = ["def h", "z = 1", "end", *B_LINES[3:7], "def f", "x = 1", "end"]
    layout = function_layout(9, 10, A_LINES, lines, A_FUNCTIONS, swapped, 100)
    assert layout.moved_a and layout == fresh(9, 10, A_LINES, lines, A_FUNCTIONS, swapped)

"""Sequence matching (ir_trace/matching.py): a common subsequence, increasing on both sides, bounded on any input."""

from __future__ import annotations

import random

from ir_trace.matching import common_prefix, common_suffix, match_sequences


def is_common_subsequence(a, b, pairs) -> bool:
    increasing = all(i1 < i2 and j1 < j2 for (i1, j1), (i2, j2) in zip(pairs, pairs[1:]))
    return increasing and all(a[i] == b[j] for i, j in pairs)


def lcs_length(a, b) -> int:
    row = [0] * (len(b) + 1)
    for x in a:
        previous = 0
        for j, y in enumerate(b):
            previous, row[j + 1] = row[j + 1], previous + 1 if x == y else max(row[j + 1], row[j])
    return max(row)


def test_equal_sequences_match_whole():
    a = list("abcdef")
    assert match_sequences(a, a, 10) == [(i, i) for i in range(6)]


def test_a_few_edits_give_the_longest_common_subsequence():
    rng = random.Random(4)
    for _ in range(200):
        a = [rng.choice("abcd") for _ in range(rng.randrange(0, 30))]
        b = list(a)
        for _ in range(rng.randrange(0, 4)):
            b.insert(rng.randrange(0, len(b) + 1), rng.choice("abcdxy"))
        pairs = match_sequences(a, b, 50)
        assert is_common_subsequence(a, b, pairs)
        assert len(pairs) == lcs_length(a, b), (a, b)


def test_a_window_matches_only_inside_it():
    a, b = list("xxabcxx"), list("yyabcyy")
    assert match_sequences(a, b, 10, 2, 5, 2, 5) == [(2, 2), (3, 3), (4, 4)]


def test_unique_lines_anchor_a_match_too_big_for_the_edit_budget():
    a = [f"line {i}" for i in range(400)]
    b = [f"new {i}" if i % 2 else line for i, line in enumerate(a)]
    pairs = match_sequences(a, b, 5)  # far more edits than the budget allows
    assert is_common_subsequence(a, b, pairs)
    assert len(pairs) == 200  # every unchanged line still found through the unique anchors


def test_common_ends_are_counted_within_the_window():
    a, b = list("abXcd"), list("abYYcd")
    assert common_prefix(a, b, 0, 5, 0, 6) == 2
    assert common_suffix(a, b, 0, 5, 0, 6) == 2
    assert common_prefix(a, b, 2, 3, 2, 4) == 0

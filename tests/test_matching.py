"""Sequence matching (diffcore/matching.py): a common subsequence, increasing on both sides, bounded on any input."""

from __future__ import annotations

import random

from ir_trace.diffcore.matching import QUICK_EDITS, _myers, common_items, common_prefix, common_suffix, match_sequences


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


def test_common_items_count_with_multiplicity():
    assert common_items(list("aabbc"), list("abbbd"), 0, 5, 0, 5) == 3  # a, b, b
    assert common_items(list("xaab"), list("ab"), 1, 3, 0, 2) == 1  # only inside the windows
    assert common_items(list("abc"), list("xyz"), 0, 3, 0, 3) == 0


def test_a_long_search_stops_early_exactly_where_myers_would_fail_or_match_nothing():
    """The linear bound before a long search changes no result: None exactly when the shortest
    edit script is over budget, [] when nothing is shared, else a longest common subsequence."""
    rng = random.Random(17)
    for _ in range(300):
        a = [rng.choice("abcdefgh") for _ in range(rng.randrange(1, 40))]
        b = [rng.choice(rng.choice(["abcdefgh", "stuvwxyz"])) for _ in range(rng.randrange(1, 40))]
        budget = rng.randrange(QUICK_EDITS + 1, 90)
        found = _myers(a, b, 0, len(a), 0, len(b), budget)
        edits = len(a) + len(b) - 2 * lcs_length(a, b)
        if edits > budget:
            assert found is None, (a, b, budget)
        else:
            assert found is not None and is_common_subsequence(a, b, found), (a, b, budget)
            assert len(found) == lcs_length(a, b)


def test_nothing_shared_is_matched_at_once_within_the_budget():
    a, b = [f"old {i}" for i in range(300)], [f"new {i}" for i in range(200)]
    assert _myers(a, b, 0, 300, 0, 200, 500) == []
    assert _myers(a, b, 0, 300, 0, 200, 499) is None

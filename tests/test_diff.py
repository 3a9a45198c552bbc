"""The line diff, SPEC's alignment rules and intra-line ranges."""

from __future__ import annotations

import random
import subprocess

import pytest
from conftest import FRONTEND, real_dumps

from ir_trace.diffcore.linediff import (
    align_replace_block,
    changed_ranges,
    count_changes,
    diff_snapshots,
    join_lines,
    split_lines,
)


def apply(a: list[str], b: list[str], hunks) -> list[str]:
    out, pos = [], 0
    for h in hunks:
        out += a[pos : h.a0] + b[h.b0 : h.b1]
        pos = h.a1
    return out + a[pos:]


@pytest.mark.parametrize("text", ["", "\n", "a", "a\n", "a\n\nb", "a\r\nb\r\n", "\n\n"])
def test_split_and_join_are_lossless(text):
    assert join_lines(*split_lines(text)) == text


def test_identical_texts_have_no_hunks():
    lines = FRONTEND.splitlines()
    assert diff_snapshots(lines, list(lines)) == []


def test_missing_final_newline_is_a_change():
    hunks = diff_snapshots(["a", "b"], ["a", "b"], True, False)
    assert [(h.a0, h.a1, h.b0, h.b1) for h in hunks] == [(1, 2, 1, 2)]


def test_indentation_only_change_pairs_and_shows_the_whitespace():
    pairs = align_replace_block(["    x = pl.add(a, b)"], ["        x = pl.add(a, b)"])
    assert pairs == [(0, 0)]
    a_ranges, b_ranges = changed_ranges("    x = pl.add(a, b)", "        x = pl.add(a, b)")
    assert a_ranges == ((0, 4),) and b_ranges == ((0, 8),)  # the indentation token, replaced


def test_lines_calling_the_same_operation_pair_up():
    before = ["t1 = pl.add(a, b)", "t2 = pl.mul(t1, c)"]
    after = ["u9 = pl.exp(z)", "t1_3 = pl.mul(t1, c)", "t1_3b = pl.add(a, b, out=o)"]
    assert align_replace_block(before, after) == [(1, 1)] or align_replace_block(before, after) == [(0, 2)]


def test_stripped_equality_wins_over_operation():
    before = ["  y = pl.add(a, b)", "z = pl.add(c, d)"]
    after = ["z = pl.add(c, d) "[:-1], "y = pl.add(a, q)"]
    assert (1, 0) in align_replace_block(before, after)


def test_unrelated_lines_stay_unpaired():
    assert align_replace_block(["import os"], ["return 42 + x"]) == []


def test_changed_characters_are_exact():
    a = "t: pl.Tile[[16, 128], pl.FP32, pl.MemRef(pl.Mem.Vec, 0, 8192)] = pl.load(x)"
    b = "t: pl.Tile[[16, 128], pl.FP32, pl.MemRef(pl.Mem.Vec, 512, 8192)] = pl.load(x)"
    a_ranges, b_ranges = changed_ranges(a, b)
    assert [a[s:e] for s, e in a_ranges] == ["0"] and [b[s:e] for s, e in b_ranges] == ["512"]


def test_long_lines_emphasise_one_annotation():
    a = "x = f(" + ", ".join(f"arg{i}" for i in range(300)) + ")"
    b = a.replace("arg150", "arg150_v0")
    a_ranges, b_ranges = changed_ranges(a, b)
    assert [a[s:e] for s, e in a_ranges] == ["arg150"]  # a short renamed identifier is marked whole
    assert [b[s:e] for s, e in b_ranges] == ["arg150_v0"]


def test_ranges_count_utf16_units_like_javascript():
    a_ranges, b_ranges = changed_ranges("# 😀 x = 1", "# 😀 x = 2")
    assert b_ranges == ((9, 10),)  # the emoji is two UTF-16 units


def test_pairs_reference_lines_inside_their_hunk():
    a = FRONTEND.splitlines()
    b = [line.replace("t1", "t1__ssa_v0") for line in a]
    hunks = diff_snapshots(a, b)
    assert count_changes(hunks) == (2, 2)
    for h in hunks:
        for p in h.pairs:
            assert h.a0 <= p.a < h.a1 and h.b0 <= p.b < h.b1
            assert a[p.a].replace("t1", "t1__ssa_v0") == b[p.b]


def test_random_edits_apply_exactly():
    rng = random.Random(7)
    pool = FRONTEND.splitlines() + ["    def extra(self):", "        return 1", "", "# note"]
    for _ in range(200):
        a = [rng.choice(pool) for _ in range(rng.randrange(0, 40))]
        b = list(a)
        for _ in range(rng.randrange(0, 6)):
            op = rng.random()
            pos = rng.randrange(0, len(b) + 1)
            if op < 0.4:
                b.insert(pos, rng.choice(pool))
            elif b and op < 0.7:
                del b[min(pos, len(b) - 1)]
            elif b:
                b[min(pos, len(b) - 1)] += " # edited"
        hunks = diff_snapshots(a, b)
        assert apply(a, b, hunks) == b


@pytest.mark.parametrize("dump", real_dumps()[:4], ids=lambda p: p.parent.name)
def test_counts_never_below_a_minimal_diff(dump):
    files = sorted(dump.glob("*.py"), key=lambda p: int(p.name.split("_")[0]))
    for before, after in zip(files, files[1:]):
        a, a_eol = split_lines(before.read_text(encoding="utf-8"))
        b, b_eol = split_lines(after.read_text(encoding="utf-8"))
        hunks = diff_snapshots(a, b, a_eol, b_eol)
        assert apply(a, b, hunks) == b
        out = subprocess.run(["diff", "-d", str(before), str(after)], capture_output=True, text=True).stdout
        minimal = (sum(x.startswith("> ") for x in out.splitlines()), sum(x.startswith("< ") for x in out.splitlines()))
        inserted, deleted = count_changes(hunks)
        assert inserted >= minimal[0] and deleted >= minimal[1]


def test_a_line_without_an_operation_after_matched_ones_still_pairs():
    before = ["    out = pl.store(y, [i, 0], out)", "    return out"]
    after = ["    out__ssa_v1 = pl.store(y, [i, 0], out)", "    return out__ssa_v1"]
    assert align_replace_block(before, after) == [(0, 0), (1, 1)]


def test_line_key_makes_lines_with_equal_keys_unchanged():
    def without_ssa(line: str) -> str:
        return line.replace("__ssa_v0", "")

    before = ["x = pl.add(a, b)", "y = pl.mul(x, c)", "return y"]
    after = ["x__ssa_v0 = pl.add(a, b)", "y = pl.mul(x__ssa_v0, d)", "return y"]
    assert len(diff_snapshots(before, after)) == 1 and diff_snapshots(before, after)[0].a0 == 0
    hunks = diff_snapshots(before, after, line_key=without_ssa)
    assert [(h.a0, h.a1, h.b0, h.b1) for h in hunks] == [(1, 2, 1, 2)]

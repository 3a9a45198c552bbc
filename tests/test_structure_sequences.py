"""Structure, slicing and the diff's layout on mutated snapshot sequences: the result that reuses what
the snapshots before left (chunks memoised with their facts, segments compared in C) equals the one
worked out from scratch."""

from __future__ import annotations

import random

import pytest

from ir_trace.diffcore import structure
from ir_trace.diffcore.linediff import _unequal, split_lines
from ir_trace.diffcore.matching import match_sequences
from ir_trace.syntax import TextMemo, functions
from ir_trace.syntax.chunks import split_chunks
from ir_trace.syntax.functions import Structure, UnsafeToSlice, analyse_structure, slice_functions, statement_boundaries
from ir_trace.syntax.pypto_outline import outline

START = [
    "# pypto.program: P",
    "import pypto.language as pl",
    "",
    "",
    "@pl.program",
    "class Program:",
    "    @pl.function(type=pl.FunctionType.InCore)",
    "    def kernel_0(self, a: pl.Tensor[[64, 128], pl.FP32]) -> pl.Tensor[[64, 128], pl.FP32]:",
    "        t0 = pl.load(a, [0, 0], [64, 128])",
    "        for i in pl.range(0, 4):",
    "            t1 = pl.add(t0, 1.0)",
    "        return t1",
    "",
    "    def kernel_1(self, a):",
    "        return pl.mul(a, a)",
    "",
    "def helper(x):",
    "    return x",
]

BALANCED = [
    "        t{n} = pl.add(t0, {n})",
    "    # comment at the class body",
    "# comment at the top",
    "",
    "     ",
    "    @pl.function(type=pl.FunctionType.Orchestration)",
    "    def kernel_{n}(self, a):",
    "class Other{n}:",
    "    class Inner{n}:",
    "    @staticmethod",
    "@decorated",
    "    x = 1",
    "def top_{n}(y):",
    "@pl.program",
    "         odd_indent_{n} = 3",
    "\tdef tabbed_{n}(self):",
    "      def six_{n}(self):",
    "        y = (1, [2], {{3: '(#'}})  # ) ]",
    "        z = 1  # a NUL: \0",  # such a text is cut into chunks from its lines, not from the text
]
UNBALANCED = [  # each opens or closes what another line may balance
    "        x = (",
    "        )",
    '        s = """',
    '        """',
    "            deep_{n} = [1,",
    "                2]",
    "        s = 'unclosed",
    "        y = 1 + \\",
]


def unbalanced(line: str) -> bool:
    return line in UNBALANCED or any(mark in line for mark in ("deep_", "2]", "unclosed", "\\"))


def mutate(rng: random.Random, lines: list[str], step: int) -> list[str]:
    """A few random edits: lines inserted, deleted, changed, moved, inside and across functions; now and
    then an unbalanced bracket or string appears, or every one goes."""
    lines = list(lines)
    for _ in range(rng.randint(1, 4)):
        roll = rng.random()
        at = rng.randrange(len(lines) + 1)
        last = min(at, len(lines) - 1)
        piece = rng.choice(UNBALANCED if rng.random() < 0.12 else BALANCED).format(n=f"{step}_{at}")
        if roll < 0.45 or not lines:
            lines.insert(at, piece)
        elif roll < 0.65:
            del lines[last : last + rng.randint(1, 3)]
        elif roll < 0.8:
            lines[last] = piece
        elif roll < 0.9:  # a block of lines moved elsewhere
            block = lines[last : last + rng.randint(1, 6)]
            del lines[last : last + len(block)]
            spot = rng.randrange(len(lines) + 1)
            lines[spot:spot] = block
        else:  # the unbalanced lines disappear
            lines = [line for line in lines if not unbalanced(line)]
    return lines


def from_scratch(lines: list[str]):
    try:
        boundaries = statement_boundaries(lines)
    except UnsafeToSlice as exc:
        return str(exc)
    return Structure(boundaries, outline(lines, boundaries))


@pytest.mark.parametrize("seed", range(12))
def test_structure_along_a_mutated_sequence_equals_the_plain_scan(seed):
    rng = random.Random(seed)
    lines = list(START)
    chunked = 0
    for step in range(60):
        lines = mutate(rng, lines, step)
        text = "\n".join(lines) + ("\n" if rng.random() < 0.9 else "")
        split = split_lines(text)[0]
        expected = from_scratch(split)
        try:
            found = analyse_structure(split, text)
        except UnsafeToSlice as exc:
            found = str(exc)
        assert found == expected, (seed, step, text)
        chunked_lines, eol, pieces = split_chunks(text)
        assert (chunked_lines, eol) == split_lines(text)
        try:
            assert analyse_structure(chunked_lines, None, pieces) == expected
        except UnsafeToSlice as exc:
            assert str(exc) == expected
        if isinstance(expected, Structure):
            plain = slice_functions(split, expected).functions
            assert slice_functions(split, found).functions == plain
            chunked += functions._structure_by_chunks(split, text) is not None
    assert chunked >= 10  # the chunks' path, not only the plain scan it falls back to, was compared


def test_a_sequence_survives_the_chunk_memo_starting_again(monkeypatch):
    # The memo is dropped when it holds too much text: what follows is analysed afresh, equally.
    monkeypatch.setattr(functions, "_chunks", TextMemo(200))
    rng = random.Random(99)
    lines = list(START)
    for step in range(40):
        lines = mutate(rng, lines, step)
        text = "\n".join(lines) + "\n"
        split = split_lines(text)[0]
        try:
            found = analyse_structure(split, text)
        except UnsafeToSlice as exc:
            found = str(exc)
        assert found == from_scratch(split)


def unequal_by_definition(a_keys, b_keys, segments):
    return [s for s in segments if a_keys[s[0] : s[1]] != b_keys[s[2] : s[3]]]


def test_segments_that_differ_are_those_whose_slices_differ():
    rng = random.Random(5)
    for _ in range(300):
        a = [rng.choice("abc") for _ in range(rng.randint(0, 12))]
        b = [rng.choice("abc") for _ in range(rng.randint(0, 12))]
        segments = []
        for _ in range(rng.randint(0, 6)):
            a0, b0 = rng.randint(0, len(a)), rng.randint(0, len(b))
            segments.append((a0, rng.randint(a0, len(a)), b0, rng.randint(b0, len(b))))
        assert _unequal(a, b, segments) == unequal_by_definition(a, b, segments)


def once_by_definition(fns):
    where = {}
    for k, f in enumerate(fns):
        where[f[0]] = -1 if f[0] in where else k
    return where


def ranges_by_definition(n, m, fns_a, fns_b, max_edits):
    if not fns_a or not fns_b:
        return [(0, n, 0, m)]
    ranges, pa, pb = [], 0, 0
    for i, j in match_sequences([f[0] for f in fns_a], [f[0] for f in fns_b], max_edits):
        (_ka, sa, ea), (_kb, sb, eb) = fns_a[i], fns_b[j]
        ranges += [(pa, sa, pb, sb), (sa, ea, sb, eb)]
        pa, pb = ea, eb
    return ranges + [(pa, n, pb, m)]


def random_functions(rng: random.Random, size: int) -> list:
    """Ordered functions of a text of `size` lines, keys drawn from a few (so some repeat)."""
    fns, line = [], 0
    while line < size and rng.random() < 0.85:
        start = line + rng.randint(0, 3)
        end = start + rng.randint(1, 5)
        if end > size:
            break
        make = list if rng.random() < 0.3 else tuple  # the cache gives lists, slicing tuples
        fns.append(make((rng.choice("fghijk"), start, end)))
        line = end
    return fns


def test_keys_held_once_and_segment_ranges_equal_their_definitions():
    rng = random.Random(7)
    for _ in range(400):
        n, m = rng.randint(0, 40), rng.randint(0, 40)
        fns_a, fns_b = random_functions(rng, n), random_functions(rng, m)
        assert structure._once(fns_a) == once_by_definition(fns_a)
        assert list(structure._once(fns_a)) == list(once_by_definition(fns_a))  # same order too
        assert structure._segment_ranges(n, m, fns_a, fns_b, 500) == ranges_by_definition(n, m, fns_a, fns_b, 500)


def moved_by_definition(a_keys, b_keys, fns_a, fns_b):
    """`_moved_functions` as it was written first, a loop per function (the heaviest run as it is)."""
    once_a, once_b = once_by_definition(fns_a), once_by_definition(fns_b)
    by_key = sorted((fi, once_b[key]) for key, fi in once_a.items() if fi >= 0 and once_b.get(key, -1) >= 0)
    after = [fj for _fi, fj in by_key]
    if all(x < y for x, y in zip(after, after[1:])):
        return []
    weights, unchanged = [], len(a_keys) + len(b_keys) + 1
    for fi, fj in by_key:
        (_ka, sa, ea), (_kb, sb, eb) = fns_a[fi], fns_b[fj]
        size = ea - sa + eb - sb
        weights.append(size * unchanged if a_keys[sa:ea] == b_keys[sb:eb] else size)
    kept = set(structure._heaviest_increasing(after, weights, len(fns_b)))
    return [pair for k, pair in enumerate(by_key) if k not in kept]


def test_functions_matched_by_key_are_those_of_the_plain_definition():
    rng = random.Random(11)
    moves = 0
    for _ in range(400):
        n, m = rng.randint(1, 40), rng.randint(1, 40)
        fns_a, fns_b = random_functions(rng, n), random_functions(rng, m)
        rng.shuffle(fns_b)  # out of order: some move
        a_keys = [rng.choice("xy") for _ in range(n)]
        b_keys = [rng.choice("xy") for _ in range(m)]
        moved = structure._moved_functions(a_keys, b_keys, fns_a, fns_b)
        assert moved == moved_by_definition(a_keys, b_keys, fns_a, fns_b)
        moves += len(moved)
    assert moves  # the shuffles did move functions


@pytest.mark.parametrize("seed", range(30))
def test_the_same_order_shortcut_finds_what_the_move_search_finds(seed, monkeypatch):
    """Keys both sides hold in one order (functions added, removed, repeated): no move, as the heaviest-run search
    says; keys out of order: the search runs (`structure._same_order` only ever says "nothing moved")."""
    rng = random.Random(seed)
    names = [f"k{n}" for n in range(8)]
    fns_a = [(rng.choice(names), 2 * k, 2 * k + 2) for k in range(rng.randint(1, 12))]
    keys_b = [key for key, _s, _e in fns_a if rng.random() < 0.8]
    for _ in range(rng.randint(0, 3)):
        keys_b.insert(rng.randint(0, len(keys_b)), rng.choice(names))
    if seed % 3 == 0 and len(keys_b) > 1:
        i, j = rng.sample(range(len(keys_b)), 2)
        keys_b[i], keys_b[j] = keys_b[j], keys_b[i]
    fns_b = [(key, 2 * k, 2 * k + 2) for k, key in enumerate(keys_b)]
    a_keys = [f"line {rng.randrange(4)}" for _ in range(2 * len(fns_a))]
    b_keys = [f"line {rng.randrange(4)}" for _ in range(2 * len(fns_b))]
    found = structure._moved_functions(a_keys, b_keys, fns_a, fns_b)
    monkeypatch.setattr(structure, "_same_order", lambda _a, _b: False)
    assert found == structure._moved_functions(a_keys, b_keys, fns_a, fns_b)

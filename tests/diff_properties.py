"""Random IR-like snapshot pairs and the invariants every diff of them must satisfy.

Shared by tests/test_diff_properties.py (Python) and the Chromium parity test: the cases are
seeded, so both languages see the very same texts.
"""

from __future__ import annotations

import random

from ir_trace.diffcore.linediff import Hunk, diff_snapshots, split_lines

WORD = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")

# Few distinct lines, so a random text repeats lines, has near-duplicates and moves.
VOCABULARY = [
    "def main(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32]):",
    "    x__ssa_v0: pl.Tile[[16, 128], pl.FP32, pl.Mem.Vec] = pl.load(a, [0, 0], [16, 128])",
    "    x__ssa_v1: pl.Tile[[16, 128], pl.FP32, pl.MemRef(mem_vec_3, pl.const(0, pl.INT64), 4096), pl.Mem.Vec]"
    " = pl.add(x__ssa_v0, x__ssa_v0)",
    "    y_tile_1: pl.Tile[[16], pl.FP32] = pl.yield_(y_phi)",
    "    y_tile: pl.Tile[[16], pl.FP32] = pl.yield_(y_phi)",
    '@pl.func_attr({"split_aiv": True, "split": 2, "core": "aic"})',
    '@pl.func_attr({"split": 2, "split_aiv": True, "core": "aic"})',
    "    pl.sync_src(pipe=pl.Pipe.V, event=0)",
    "    pl.sync_dst(pipe=pl.Pipe.V, event=0)",
    "    return x__ssa_v1",
    "        )",
    "",
    "    ",
    "\t# 😀 note: é ü 中文",
    "    s = '😀😃 a'",
    "class Program:",
    "    y = pl.concat([x, x, x], [1, 1, 1], (a.b, a.b), f(1,1,1))",
    "    def f(" + ", ".join(f"arg{k}__ssa_v0: pl.Tensor[[{k}], pl.FP32]" for k in range(12)) + "):",
    "    t = '" + "😀é" * 40 + "' + '" + "中😃" * 40 + "'",
]
# Edits of one line: near-duplicates, renames, whitespace, line endings, astral characters.
LINE_EDITS = [
    ("__ssa_v0", "__ssa_v1"),
    ("__ssa_v1", "__ssa_v2"),
    ("mem_vec_3", "mem_vec_5"),
    ("pl.Mem.Vec]", "pl.MemRef(mem_vec_9, pl.const(0, pl.INT64), 512), pl.Mem.Vec]"),
    ("    ", "        "),
    ("    ", "\t"),
    (", ", ","),
    ("😀", "😃"),
    ("😃", "x"),
    ("é", "e\u0301"),
    ("[16", "[32"),
    ("arg3__ssa_v0", "arg3__ssa_v1"),
    ("arg0__ssa_v0", "arg0__ssa_v1"),
    ("é😀é", "é😃é"),
    ("中😃中", "中😃😃中"),
    ("y_tile", "y_tile_1"),
    ("x, x", "x, x, x"),  # repeats: an insertion that can slide, ranked by the boundaries around it
    ("[1, 1", "[1, 1, 1"),
    ("(1,1", "(1,1,1"),
    ("(a.b", "(a.b, a.b"),
    ("16, 16]", "16, 16, 16]"),
]


def random_line(rng: random.Random) -> str:
    line = rng.choice(VOCABULARY)
    if rng.random() < 0.3:
        line = edit_line(rng, line)
    return line


def edit_line(rng: random.Random, line: str) -> str:
    for old, new in rng.sample(LINE_EDITS, len(LINE_EDITS)):
        if old in line:
            return line.replace(old, new, 1 if rng.random() < 0.7 else -1)
    return line + rng.choice([" ", "\r", "  # x", "😀"])


def mutate(rng: random.Random, lines: list[str]) -> list[str]:
    """A few edits of the kinds passes make: edit, insert, delete, move a line or a block."""
    out = list(lines)
    for _ in range(rng.randrange(1, 7)):
        roll, k = rng.random(), rng.randrange(len(out) + 1)
        if roll < 0.35 and k < len(out):
            out[k] = edit_line(rng, out[k])
        elif roll < 0.55:
            out.insert(k, random_line(rng))
        elif roll < 0.7 and k < len(out):
            del out[k]
        elif len(out) > 1:
            size = rng.randrange(1, min(4, len(out)) + 1)
            start = rng.randrange(len(out) - size + 1)
            block = out[start : start + size]
            del out[start : start + size]
            at = rng.randrange(len(out) + 1)
            out[at:at] = block
    return out


def random_text(rng: random.Random, lines: list[str]) -> str:
    text = "\n".join(lines)
    if lines and rng.random() < 0.8:
        text += "\n"
    if rng.random() < 0.15:
        text = "\ufeff" + text
    if rng.random() < 0.1:
        text = text.replace("\n", "\r\n")
    return text


def random_case(rng: random.Random) -> tuple[str, str]:
    """Before and after texts of one pass."""
    before = [random_line(rng) for _ in range(rng.randrange(0, 14))]
    after = mutate(rng, before)
    a, b = random_text(rng, before), random_text(rng, after)
    if rng.random() < 0.1:  # only the end of file or the BOM changes
        b = a.rstrip("\n") if a.endswith("\n") else a + "\n"
        if rng.random() < 0.5:
            b = b[1:] if b.startswith("\ufeff") else "\ufeff" + b
    return a, b


def cases(seed: int, count: int) -> list[tuple[str, str]]:
    rng = random.Random(seed)
    return [random_case(rng) for _ in range(count)]


def python_diff(
    before: str, after: str, line_key=None, functions=(None, None), line_pieces=None
) -> tuple[list, list, list[Hunk]]:
    """Lines of each side and the hunks; `functions`: each side's (key, start, end) list or None."""
    (a, a_eol), (b, b_eol) = split_lines(before), split_lines(after)
    return a, b, diff_snapshots(a, b, a_eol, b_eol, *functions, line_key, line_pieces)


# ---------- invariants ----------


def apply_hunks(a: list[str], b: list[str], hunks: list[Hunk]) -> list[str]:
    """`a` with each hunk's before lines replaced by its after lines."""
    out, at = [], 0
    for h in hunks:
        out += a[at : h.a0] + b[h.b0 : h.b1]
        at = h.a1
    return out + a[at:]


def check_hunks(before: str, after: str, a: list[str], b: list[str], hunks: list[Hunk], key=None, pieces=None) -> None:
    """Every invariant of one diff; AssertionError names the first broken one. `key` and
    `pieces`: an ignore mode's normaliser and kept pieces (normalize.IgnoreModes)."""
    key = key or (lambda line: line)
    if not hunks:
        assert [key(x) for x in a] == [key(y) for y in b], "no hunk, yet the lines differ"
        return
    check_cover(a, b, hunks, key)
    if before != after:
        applied = apply_hunks(a, b, hunks)
        assert [key(x) for x in applied] == [key(y) for y in b], "the hunks do not turn before into after"
    for h in hunks:
        check_pairs(a, b, h, pieces)
        check_moves(a, b, h, hunks, key)
    check_end_of_file(before, after, a, b, hunks, key)
    moves = [m for h in hunks for m in h.moved]
    assert len({i for i, _ in moves}) == len({j for _, j in moves}) == len(set(moves)), "a line moved twice"


def check_cover(a: list[str], b: list[str], hunks: list[Hunk], key) -> None:
    """Hunks in order, not touching, each non-empty; the lines between them are equal."""
    ia = ib = 0
    for h in hunks:
        assert ia <= h.a0 <= h.a1 <= len(a) and ib <= h.b0 <= h.b1 <= len(b), f"hunk out of order {h[:4]}"
        assert h.a1 > h.a0 or h.b1 > h.b0, "empty hunk"
        assert h.a0 - ia == h.b0 - ib, "unequal context between hunks"
        assert [key(x) for x in a[ia : h.a0]] == [key(y) for y in b[ib : h.b0]], "context lines differ"
        ia, ib = h.a1, h.b1
    assert len(a) - ia == len(b) - ib and [key(x) for x in a[ia:]] == [key(y) for y in b[ib:]]


def check_pairs(a: list[str], b: list[str], h: Hunk, pieces=None) -> None:
    last = (h.a0 - 1, h.b0 - 1)
    for p in h.pairs:
        assert h.a0 <= p.a < h.a1 and h.b0 <= p.b < h.b1, "a pair leaves its hunk"
        assert p.a > last[0] and p.b > last[1], "pairs cross or repeat"
        last = (p.a, p.b)
        x, y = a[p.a], b[p.b]
        kept = (None, None) if pieces is None else (kept_units(x, pieces(x)), kept_units(y, pieces(y)))
        check_ranges(x, y, p.a_ranges, p.b_ranges, *kept)


def utf16(line: str) -> str:
    """The line as UTF-16 code units, one str character each (the offsets ranges count)."""
    data = line.encode("utf-16-le", "surrogatepass")
    return "".join(chr(int.from_bytes(data[k : k + 2], "little")) for k in range(0, len(data), 2))


def kept_units(line: str, pieces) -> list[bool]:
    """Per UTF-16 unit of `line`: whether an ignore mode keeps it (`pieces`: its kept pieces, None: all)."""
    if pieces is None:
        return [True] * len(utf16(line))
    kept = [False] * len(line)
    for s, e in pieces:
        kept[s:e] = [True] * (e - s)
    return [flag for c, flag in zip(line, kept) for _unit in range(2 if ord(c) > 0xFFFF else 1)]


def check_ranges(x: str, y: str, x_ranges, y_ranges, x_kept=None, y_kept=None) -> None:
    """Ranges sorted, disjoint, inside the line, on code point edges; the unmarked text is common.

    Under an ignore mode (`x_kept` / `y_kept` from `kept_units`): no range lies wholly in ignored
    text or starts or ends inside a word (a long name's changed part may start or end beside its
    `_`: intraline's trimming), and the unmarked text the mode keeps is common."""
    unmarked, whole = [], []  # per side: the kept text not marked, and all the kept text
    for line, ranges, kept in ((x, x_ranges, x_kept), (y, y_ranges, y_kept)):
        units, end = utf16(line), 0
        kept = [True] * len(units) if kept is None else kept
        marked = [False] * len(units)
        for s, e in ranges:
            assert end <= s < e <= len(units), f"range {s, e} out of order or outside {line!r}"
            for edge in (s, e):
                assert not (0 < edge < len(units) and 0xDC00 <= ord(units[edge]) <= 0xDFFF), "splits a surrogate pair"
            assert any(kept[s:e]), f"range {s, e} lies wholly in ignored text of {line!r}"
            if x_kept is not None:
                assert not _in_word(units, s) and not _in_word(units, e), f"range {s, e} cuts a word of {line!r}"
            marked[s:e] = [True] * (e - s)
            end = e
        unmarked.append("".join(u for u, k, m in zip(units, kept, marked) if k and not m))
        whole.append("".join(u for u, k in zip(units, kept) if k))
    assert unmarked[0] == unmarked[1], f"unmarked text differs: {x!r} {x_ranges} / {y!r} {y_ranges}"
    assert bool(x_ranges or y_ranges) == (whole[0] != whole[1]), f"marked iff the kept text differs: {x!r} / {y!r}"


def _in_word(units: str, edge: int) -> bool:
    """Whether `edge` falls between two ASCII letters or digits."""
    pair = units[edge - 1 : edge + 1]
    return 0 < edge < len(units) and "_" not in pair and pair[0] in WORD and pair[1] in WORD


def check_moves(a: list[str], b: list[str], h: Hunk, hunks: list[Hunk], key) -> None:
    paired_a = {p.a for g in hunks for p in g.pairs}
    paired_b = {p.b for g in hunks for p in g.pairs}
    in_a = lambda i: any(g.a0 <= i < g.a1 for g in hunks)  # noqa: E731
    in_b = lambda j: any(g.b0 <= j < g.b1 for g in hunks)  # noqa: E731
    for i, j in h.moved:
        assert h.a0 <= i < h.a1 or h.b0 <= j < h.b1, "a move listed in a hunk holding neither end"
        assert in_a(i) and in_b(j) and i not in paired_a and j not in paired_b, "a moved line is context or paired"
        assert key(a[i]) == key(b[j]), "a moved line changed"
        for g in hunks:  # listed in the hunk of each end
            if g.a0 <= i < g.a1 or g.b0 <= j < g.b1:
                assert (i, j) in g.moved, "a move is missing from the hunk of one end"


def check_end_of_file(before: str, after: str, a: list[str], b: list[str], hunks: list[Hunk], key) -> None:
    """A final-newline or BOM change is flagged on a hunk."""
    a_open, b_open = not before.endswith("\n") and bool(a), not after.endswith("\n") and bool(b)
    if a_open != b_open:
        flags = [h.no_eol for h in hunks if h.no_eol]
        assert flags, "a final newline change with no marker"
    bom_a, bom_b = before.startswith("\ufeff"), after.startswith("\ufeff")
    if bom_a != bom_b and key(a[0] if a else "") != key(b[0] if b else ""):  # ignoring whitespace ignores a BOM
        assert [h.bom for h in hunks if h.bom] == [(bom_a, bom_b)], "a BOM change with no marker"

"""With an ignore mode on, an edited line's emphasis marks only what survives normalisation.

The same small cases run through ir_trace (intraline.changed_ranges_ignoring, normalize's kept
pieces) and through linediff.js + normalize.js in Chromium, which must agree to the offset.
"""

from __future__ import annotations

import pytest
from conftest import REPO, SAMPLES
from diff_properties import utf16
from harness import template_scripts
from test_normalize_js import SPECS, TRICKY

from ir_trace.diffcore.intraline import changed_ranges, changed_ranges_ignoring
from ir_trace.diffcore.linediff import diff_snapshots
from ir_trace.noise.normalize import IgnoreModes, line_key, line_pieces

MEMREF_A = "x: pl.Tile[[16], pl.FP32, pl.MemRef(mem_left_20, pl.const(0, pl.INT64), 4096), pl.Mem.Left] = f(a)"
MEMREF_B = "x: pl.Tile[[16], pl.FP16, pl.MemRef(mem_left_11, pl.const(0, pl.INT64), 4096), pl.Mem.Left] = f(a)"
# (modes, regex, before, after, marked before, marked after)
CASES = [
    ("memref", None, MEMREF_A, MEMREF_B, ["FP32"], ["FP16"]),
    ("ssa", None, "y__ssa_v1 = pl.add(x__ssa_v0, a)", "y__ssa_v2 = pl.add(x__ssa_v1, b)", ["a"], ["b"]),
    ("ssa", None, "y__ssa_v1 = pl.add(x__ssa_v0, a)", "y__ssa_v2 = pl.add(z__ssa_v1, a)", ["x__ssa_v0"], ["z__ssa_v1"]),
    ("whitespace", None, "return  a + b", "return a+c", ["b"], ["c"]),
    ("", r"#.*", "x = 1  # t1", "x = 2  # t2", ["1"], ["2"]),
    ("", r"_v\d+", "😀 = f(a_v1, b) + 中", "😀 = f(a_v2, c) + 中", ["b"], ["c"]),
    (
        "ssa,memref,whitespace",
        None,
        "t__ssa_v3: pl.Tile[[8], pl.BF16, pl.MemRef(mem_vec_1, 0, 64)] = pl.exp( u__ssa_v0 )",
        "t__ssa_v4: pl.Tile[[8], pl.BF16, pl.MemRef(mem_vec_7, 64, 64)] = pl.log(u__ssa_v2)",
        ["exp"],
        ["log"],
    ),
]
IDS = ["memref", "ssa", "ssa_name_changes", "whitespace", "regex", "regex_astral", "all"]


def marked(line: str, ranges) -> list[str]:
    """The marked pieces of `line` (ranges count UTF-16 units)."""
    units = utf16(line)
    return ["".join(units[s:e]).encode("utf-16-le", "surrogatepass").decode("utf-16-le") for s, e in ranges]


def python_ranges(modes: str, regex: str | None, a: str, b: str):
    pieces = IgnoreModes.parse(modes, regex).kept_pieces()
    return changed_ranges_ignoring(a, b, pieces(a), pieces(b))


@pytest.mark.parametrize("modes, regex, a, b, want_a, want_b", CASES, ids=IDS)
def test_only_the_difference_that_survives_the_mode_is_marked(modes, regex, a, b, want_a, want_b):
    got_a, got_b = python_ranges(modes, regex, a, b)
    assert (marked(a, got_a), marked(b, got_b)) == (want_a, want_b)
    exact_a, exact_b = changed_ranges(a, b)
    assert marked(a, exact_a) + marked(b, exact_b) != want_a + want_b  # the exact diff marks the ignored part too


def test_a_line_the_modes_leave_alone_is_marked_exactly():
    a, b = "x = pl.add(a, [1, 2])", "x = pl.sub(a, [1, 2, 3])"
    pieces = IgnoreModes.parse("ssa,memref").kept_pieces()
    assert pieces(a) is None and pieces(b) is None
    assert changed_ranges_ignoring(a, b, None, None) == changed_ranges(a, b)


def test_the_diff_marks_pairs_under_the_modes_given_their_pieces():
    modes = IgnoreModes.parse("memref")
    before, after = ["def f():", "    " + MEMREF_A], ["def f():", "    " + MEMREF_B]
    exact_key = diff_snapshots(before, after, line_key=line_key(modes))
    ignoring = diff_snapshots(before, after, line_key=line_key(modes), line_pieces=line_pieces(modes))
    assert [(p.a, p.b) for h in ignoring for p in h.pairs] == [(1, 1)]
    (pair,) = ignoring[0].pairs
    assert marked(after[1], pair.b_ranges) == ["FP16"]
    assert "mem_left_11" in marked(after[1], exact_key[0].pairs[0].b_ranges)  # without the pieces: as printed


@pytest.mark.parametrize("modes, regex", SPECS)
def test_kept_pieces_make_up_the_key(modes, regex):
    """Joined, a line's kept pieces are its key; they are sorted, disjoint and non-empty."""
    ignore = IgnoreModes.parse(modes, regex)
    key, pieces = ignore.normaliser(), ignore.kept_pieces()
    lines = TRICKY + sorted({line for path in SAMPLES.glob("real/*/passes_dump/0[0-5]_*.py") for line in path.open()})
    for line in lines:
        kept = pieces(line)
        if kept is None:
            assert key(line) == line
            continue
        assert all(s < e for s, e in kept) and all(x[1] < y[0] for x, y in zip(kept, kept[1:])), (line, kept)
        assert "".join(line[s:e] for s, e in kept) == key(line), line


# ---------- the same in the page ----------

SCRIPTS = template_scripts()


def test_the_page_marks_the_same_ranges(page):
    page.add_script_tag(content=SCRIPTS + "\nwindow.IRTraceDiff = IRTraceDiff;")
    got = page.evaluate(
        """(cases) => cases.map(([modes, regex, a, b]) => {
             const N = IRTraceNormalize, pieces = N.keptPieces(N.cleanModes(modes, regex));
             return IRTraceDiff.changedRangesIgnoring(a, b, pieces(a), pieces(b));
           })""",
        [[[m for m in modes.split(",") if m], regex, a, b] for modes, regex, a, b, *_ in CASES],
    )
    expected = [[list(map(list, side)) for side in python_ranges(*case[:4])] for case in CASES]
    assert got == expected


@pytest.mark.parametrize("modes, regex", SPECS)
def test_the_page_keeps_the_same_pieces(page, modes, regex):
    """Pieces in UTF-16 units (the page's offsets) equal Python's, astral characters included."""
    page.add_script_tag(content=(REPO / "ir_trace" / "report" / "assets" / "normalize.js").read_text(encoding="utf-8"))
    got = page.evaluate(
        """([lines, modes, regex]) => {
             const N = IRTraceNormalize, pieces = N.keptPieces(N.cleanModes(modes, regex));
             return lines.map(pieces);
           }""",
        [TRICKY, [m for m in modes.split(",") if m], regex],
    )
    pieces = IgnoreModes.parse(modes, regex).kept_pieces()
    units = lambda line, k: len(line[:k].encode("utf-16-le", "surrogatepass")) // 2  # noqa: E731
    expected = [
        None if (kept := pieces(line)) is None else [[units(line, s), units(line, e)] for s, e in kept]
        for line in TRICKY
    ]
    assert got == expected
    assert any(e is not None for e in expected)

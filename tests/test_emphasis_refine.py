"""A long replaced name shows only its changed part (intraline's trimming, linediff.js in step),
and the fold can then hide the rest of the name, so the change fits a 1280 px side-by-side pane."""

from __future__ import annotations

import random

import pytest
from browser_support import build_report, open_report, pane, program, write_dump
from diff_properties import check_ranges
from test_linediff_js import js_page  # noqa: F401 - the fixture
from test_viewer_fold import fold_page, shown  # noqa: F401 - the fixture

from ir_trace.diffcore import intraline
from ir_trace.diffcore.intraline import changed_ranges


def marked(line: str, ranges) -> list[str]:
    return [line[s:e] for s, e in ranges]


def emphasis(a: str, b: str) -> tuple[list[str], list[str]]:
    ra, rb = changed_ranges(a, b)
    return marked(a, ra), marked(b, rb)


def test_a_long_renamed_name_marks_only_its_changed_part():
    a = "x = pl.tile.matmul(down_acc_inline86__tile_1, b)"
    b = "x = pl.tile.matmul(down_acc_inline86__tile_l0_c_first, b)"
    assert emphasis(a, b) == (["1"], ["l0_c_first"])
    assert emphasis("y = inline86__tile_1", "y = inline87__tile_1") == (["inline86"], ["inline87"])


def test_a_suffix_added_to_a_long_name_is_an_insertion():
    assert emphasis("f(hidden_states, y)", "f(hidden_states__ssa_v0, y)") == ([], ["__ssa_v0"])


def test_short_names_names_without_separators_and_little_common_text_stay_whole():
    assert emphasis("f(x_v0)", "f(x_v1)") == (["x_v0"], ["x_v1"])  # shorter than REFINE_MIN
    assert emphasis("f(abcdefghijklmnop)", "f(abcdefghijklmnoq)") == (["abcdefghijklmnop"], ["abcdefghijklmnoq"])
    assert emphasis("f(ab_cdefghijklmn)", "f(ab_xyzuvwrstqpo)") == (["ab_cdefghijklmn"], ["ab_xyzuvwrstqpo"])


def test_an_indentation_change_stays_marked_apart_from_the_trimmed_name():
    a = "    down_acc_inline86__tile_1 = x"
    b = "        down_acc_inline86__tile_2 = x"
    assert emphasis(a, b) == (["    ", "1"], ["        ", "2"])
    assert emphasis("    x = 1", "        x = 1") == (["    "], ["        "])


def _name(rng: random.Random) -> str:
    parts = ["down", "acc", "inline86", "", "tile", "l0", "c", "first", "ssa", "v0", "iter", "x", "😀"]
    return "_".join(rng.choice(parts) for _ in range(rng.randrange(1, 7)))


def _edited(rng: random.Random, name: str) -> str:
    pieces = name.split("_")
    k = rng.randrange(len(pieces))
    choice = rng.random()
    if choice < 0.4:
        pieces[k] = _name(rng)
    elif choice < 0.7:
        pieces.insert(k, _name(rng))
    else:
        del pieces[k]
    return "_".join(pieces)


def _line(names: list[str], indent: int) -> str:
    return " " * indent + f"{names[0]}: pl.Tile[[16, 256]] = pl.tile.matmul(" + ", ".join(names[1:]) + ")"


def random_name_edits(seed: int, count: int):
    rng = random.Random(seed)
    for _ in range(count):
        names = [_name(rng) for _ in range(rng.randrange(2, 5))]
        edited = [_edited(rng, n) if rng.random() < 0.6 else n for n in names]
        yield _line(names, rng.choice([4, 8])), _line(edited, rng.choice([4, 8]))


def test_trimming_only_narrows_the_token_marks_never_splits_a_run_and_cuts_at_separators(monkeypatch):
    for a, b in random_name_edits(7, 400):
        refined = changed_ranges(a, b)
        check_ranges(a, b, *refined)  # sorted, disjoint, and the unmarked text is common
        monkeypatch.setattr(intraline, "REFINE_MIN", 10**9)
        whole = changed_ranges(a, b)
        monkeypatch.undo()
        for line, mine, theirs in ((a, refined[0], whole[0]), (b, refined[1], whole[1])):
            units = line.encode("utf-16-le", "surrogatepass")
            unit = lambda k: units[2 * k : 2 * k + 2].decode("utf-16-le", "surrogatepass")  # noqa: E731, B023
            for s, e in mine:
                run = next(r for r in theirs if r[0] <= s and e <= r[1])  # inside one token run
                # at most one range a run, besides the run's own leading spaces
                assert len([r for r in mine if run[0] <= r[0] and r[1] <= run[1] and not unit(r[0]).isspace()]) <= 1
                for edge, outer in ((s, run[0]), (e, run[1])):
                    beside = unit(edge - 1) + unit(edge) if 0 < edge < len(units) // 2 else ""
                    assert edge == outer or any(c in "_ (),[]:=" for c in beside), (line, s, e)


def test_javascript_trims_exactly_as_python(js_page):  # noqa: F811
    cases = list(random_name_edits(11, 300)) + [
        ("f(down_acc_inline86__tile_1, b)", "f(down_acc_inline86__tile_l0_c_first, b)"),
        ("f(hidden_states, y)", "f(hidden_states__ssa_v0, y)"),
        ("    down_acc_inline86__tile_1 = x", "        down_acc_inline86__tile_2 = x"),
        ("s = '😀😀_abcdefgh_x😀'", "s = '😀😀_abcdefgh_y😀'"),
        ("a_😀_bcdefghijk_😃", "a_😀_bcdefghijk_😀"),
    ]
    expected = [[[list(r) for r in side] for side in changed_ranges(a, b)] for a, b in cases]
    found = js_page.evaluate("(cases) => cases.map(([a, b]) => IRTraceDiff.changedRanges(a, b))", cases)
    assert found == expected


STATEMENT = (
    "        down_acc_inline86__tile_1: pl.Tile[[16, 256], pl.FP32, pl.Mem.Acc] = "
    "pl.tile.matmul(mlp_chunk_inline89__tile, w_chunk_inline85__tile_l0_b_transposed_for_the_cube_unit_v0)"
)


def test_the_fold_hides_the_unchanged_part_of_a_name_with_a_change_inside(fold_page):  # noqa: F811
    edited = STATEMENT.replace("_v0)", "_v1)")
    ranges = [list(r) for r in changed_ranges(STATEMENT, edited)[1]]
    assert marked(edited, ranges) == ["v1"]
    result = shown(fold_page, edited, ranges, "changed", 53)
    assert len(result["text"]) <= 53 and "unit_v1)" in result["text"]  # the change, with the piece before it
    assert "w_chunk_inline85" not in result["text"]  # the name's unchanged start folds
    for s, e in result["hidden"]:  # cut only at a token edge, an emphasis edge or after a `_`
        for at in (s, e):
            assert not (edited[at - 1 : at].isalnum() and edited[at : at + 1].isalnum()) or at == ranges[0][0], at


def test_the_changed_part_of_a_long_name_is_in_sight_at_1280_without_scrolling(browser, tmp_path):
    body = ["a = pl.load(b, [0, 0], [64, 128])", STATEMENT.strip(), "return a"]
    after = [line.replace("_v0)", "_v1)") for line in body]
    dump = write_dump(tmp_path / "passes_dump", [("frontend", program({"k": body})), ("Rename", program({"k": after}))])
    report = build_report(dump, tmp_path / "r.html", "--no-cache", "-q")
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    try:
        log = open_report(page, report)
        for which, text in (("Before", "v0"), ("After", "v1")):
            scroller = pane(page, which)
            em = scroller.locator(".row .em")
            assert [t for t in em.all_text_contents()] == [text]
            assert scroller.evaluate("(s) => s.scrollLeft") == 0
            box, code, mark = (
                scroller.bounding_box(),
                scroller.locator(".row:not(.fold) .code").first.bounding_box(),
                em.bounding_box(),
            )
            assert code["x"] - 1 <= mark["x"] and mark["x"] + mark["width"] <= box["x"] + box["width"] + 1, which
        log.assert_clean()
    finally:
        page.close()


@pytest.mark.parametrize("line", ["'ab_' * 333_333", "'x_' * 250_000 + 'a' * 500_000"])
def test_trimming_a_megabyte_name_stays_linear(line):
    """A 1 MB name edited in the middle: the prefix and suffix scans are single passes (the
    token diff's own bounds apply); a quadratic scan would not finish in the test's lifetime."""
    a = eval(line)  # noqa: S307 - the parameter is this file's literal
    b = a[: len(a) // 2] + "Z" + a[len(a) // 2 + 1 :]
    ra, rb = changed_ranges(a, b)
    assert ra and rb and all(e - s < len(a) for s, e in ra)

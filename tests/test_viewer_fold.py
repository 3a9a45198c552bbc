"""The pure parts of reading long lines, run in Chromium on their own (no report DOM):
ir_trace/report/assets/viewer_fold.js (what a line hides) and viewer_layout.js's rewrite rows."""

from __future__ import annotations

import pytest
from browser_support import REPO
from test_viewer_model import MODEL_JS, page_of_scripts

LAYOUT_JS = REPO / "ir_trace" / "report" / "assets" / "viewer_layout.js"
FOLD_JS = REPO / "ir_trace" / "report" / "assets" / "viewer_fold.js"
STATEMENT = (
    "        t7: pl.Tile[[64, 128], pl.BF16, pl.MemRef(pl.MemorySpace.Vec, 229376, 32768), pl.Mem.Vec, "
    'pl.TileView(valid_shape=[64, 128], stride=[128, 1], name="tile buffer", fractal=512)] = pl.add(t6, t6)'
)


@pytest.fixture
def fold_page(page):
    page_of_scripts(page, MODEL_JS, LAYOUT_JS, FOLD_JS, title="fold")
    assert page.evaluate("() => typeof IRTraceFold") == "object"
    return page


def shown(page, text: str, ranges, role: str, cols: int, **options) -> dict:
    """The plan and the shown text ('_' runs stand for chips) of one line."""
    return page.evaluate(
        """([text, ranges, role, cols, options]) => {
             const plan = IRTraceFold.planFolds(text, ranges, role, cols, options);
             const line = IRTraceFold.displayLine(text, plan);
             return { hidden: plan.hidden, cut: plan.cut, text: line ? line.text : text,
                      chips: line ? line.chips.map((c) => c.kind) : [] };
           }""",
        [text, ranges, role, cols, options],
    )


def test_the_fold_file_touches_no_dom():
    source = FOLD_JS.read_text(encoding="utf-8")
    for name in ("document", "window", "getElementById", "addEventListener"):
        assert name not in source, name


def test_a_change_far_right_comes_within_the_pane_with_the_statement_start_and_whole_tokens(fold_page):
    start = STATEMENT.index("pl.add")
    result = shown(fold_page, STATEMENT, [[start, start + 6]], "changed", 53)
    assert len(result["text"]) <= 53
    assert result["text"].startswith("        t7: pl.Tile[[")  # the statement's start stays
    assert "pl.add(t6, t6)" in result["text"]  # the change, with context
    for s, e in result["hidden"]:
        for at in (s, e):  # never inside a word, a dotted name, a number or the string
            assert not (STATEMENT[at - 1 : at].isalnum() and STATEMENT[at : at + 1].isalnum()), at
            assert not (STATEMENT[:at].count('"') % 2), at


def test_lines_that_fit_or_are_wholly_new_fold_nothing(fold_page):
    assert shown(fold_page, "    x = 1", [[8, 9]], "changed", 53)["hidden"] == []
    assert shown(fold_page, STATEMENT, None, "whole", 53)["hidden"] == []
    assert shown(fold_page, STATEMENT, [[10, 12]], "changed", 53, fold=False)["hidden"] == []


def test_an_unchanged_line_keeps_what_fits_and_folds_its_tail(fold_page):
    result = shown(fold_page, STATEMENT, None, "context", 53)
    assert len(result["hidden"]) == 1 and result["hidden"][0][1] == len(STATEMENT)
    assert len(result["text"]) <= 53 and result["text"].endswith("___")


def test_invisible_characters_become_chips_and_huge_lines_are_cut(fold_page):
    text = 'name = "user\u202etxt"\u200b'
    result = shown(fold_page, text, None, "context", 80)
    assert result["chips"] == ["control", "control"]
    assert "\u202e" not in result["text"] and len(result["text"]) == len(text) - 2 + 2 * 8
    huge = "y = f(" + ", ".join(str(i) for i in range(5000)) + ")"
    cut = shown(fold_page, huge, None, "whole", 80)
    assert cut["cut"] == 2000 and cut["chips"] == ["huge"]
    edited = huge.index(" 4000,") + 1
    around = shown(fold_page, huge, [[edited, edited + 4]], "changed", 80)
    assert huge[edited : edited + 4] in around["text"] and len(around["text"]) <= 80


def test_rewrite_rows_share_rows_and_leave_the_rest_unpaired(fold_page):
    rows = fold_page.evaluate(
        """() => { const M = IRTraceModel;
             const display = [{ kind: M.EQ, a: 0, b: 0 }, { kind: M.DEL, a: 1, b: -1 }, { kind: M.DEL, a: 2, b: -1 },
                              { kind: M.DEL, a: 3, b: -1 }, { kind: M.INS, a: -1, b: 1, moveFrom: 9 },
                              { kind: M.INS, a: -1, b: 2 }, { kind: M.CHG, a: 4, b: 3, ar: [[0, 1]], br: [[0, 1]] }];
             return IRTraceLayout.shareRewriteRows(display)
               .map((r) => [r.kind, r.a, r.b, !!r.rewrite, r.moveFrom ?? null]); }"""
    )
    eq, dele, chg = 0, 1, 3
    assert rows == [
        [eq, 0, 0, False, None],
        [chg, 1, 1, True, 9],  # the i-th removed line beside the i-th added one, its notes kept
        [chg, 2, 2, True, None],
        [dele, 3, -1, False, None],  # one more removed than added: it faces a filler
        [chg, 4, 3, False, None],  # a paired edit is left as it is
    ]


def test_many_changes_inside_one_long_string_plan_in_linear_time(fold_page):
    """A hostile line: 100,000 changed words inside one 600,000-character string literal. Snapping
    each change to the string's edges must not walk the string once per change (quadratic: hours)."""
    plan = fold_page.evaluate(
        """() => { const text = '    s = "' + 'ab '.repeat(200000) + '"';
             const ranges = []; for (let i = 9; i < text.length - 3; i += 6) ranges.push([i, i + 2]);
             const tokens = [8, text.length, 2];   // one string token, as the colouring reads it
             const plan = IRTraceFold.planFolds(text, ranges, 'changed', 53, { tokensOf: () => tokens });
             return { cut: plan.cut, hidden: plan.hidden.length }; }"""
    )
    assert plan["cut"] <= 2000 and plan["hidden"] == 0  # the string stays whole up to the huge-line cut


def test_several_changes_inside_dotted_names_all_come_within_the_pane(fold_page):
    # A real EXPLICIT line (qwen3 pass 18): five small edits, each inside a dotted name.
    line = (
        "            down_acc_inline86__tile: pl.Tile[[16, 256], pl.FP32, pl.Mem.Vec, pl.TileView("
        "blayout=pl.TileLayout.row_major, slayout=pl.TileLayout.none_box, fractal=512)] = "
        "pl.tile.create([16, 256], dtype=pl.FP32, target_memory=pl.Mem.Vec)"
    )
    ranges, at = [], 0
    for word in ("Vec", "row_major", "none_box", "512", "Vec"):
        at = line.index(word, at)
        ranges.append([at, at + len(word)])
        at += len(word)
    # The colouring reads each `pl.x.y` as one token; the fold may still cut it at its dots.
    tokens = fold_page.evaluate(
        """(text) => { const out = []; const re = /\\bpl(?:\\.[A-Za-z_]\\w*)+/g; let m;
             while ((m = re.exec(text)) !== null) out.push(m.index, m.index + m[0].length, 4);
             return out; }""",
        line,
    )
    result = shown(fold_page, line, ranges, "changed", 53, tokensOf=None)
    with_tokens = fold_page.evaluate(
        """([text, ranges, tokens]) => {
             const plan = IRTraceFold.planFolds(text, ranges, 'changed', 53, { tokensOf: () => tokens });
             return IRTraceFold.displayLine(text, plan).text; }""",
        [line, ranges, tokens],
    )
    for text in (result["text"], with_tokens):
        assert text.rindex("Vec") + 3 <= 53, text  # every change in sight (the pane edge may cut a `)`)
        assert "row_major" in text and "none_box" in text and "512" in text and text.count("Vec") == 2, text
    # Numbers stay whole: a dot between digits is no place to cut.
    number = shown(fold_page, "    x = " + "y" * 60 + " + 3.25", [[73, 74]], "changed", 20)
    assert number["text"].endswith("_3.25") or number["text"].endswith(" 3.25"), number


def test_a_last_resort_folds_the_indentation_and_short_runs_between_changes(fold_page):
    # Four edits a few columns apart, deep in a block: only folding the 7-column runs between
    # them (and the indentation) brings the last into a 40-column pane.
    words = ("alpha_1", "beta__2", "gamma_3", "delta_4")
    line = " " * 16 + "x = f(" + "a" * 40 + ", " + ", k=1, ".join(words) + ")"
    ranges = [[line.index(w), line.index(w) + len(w)] for w in words]
    result = shown(fold_page, line, ranges, "changed", 40)
    text = result["text"]
    assert all(w in text for w in words), text
    assert text.index("delta_4") + len("delta_4") <= 40, text
    # A pane wide enough for the usual plan keeps the indentation and the runs between changes.
    roomy = shown(fold_page, line, ranges, "changed", 80)["text"]
    assert roomy.startswith(" " * 16) and ", k=1, " in roomy, roomy


def test_a_highlighted_indentation_never_folds_a_marked_one_may(fold_page):
    # Re-indented by 32 columns, plus an edit far right: only a deep fold would bring it in.
    words = ("alpha_1", "beta__2", "gamma_3", "delta_4")
    line = " " * 36 + "x = f(" + "a" * 40 + ", " + ", k=1, ".join(words) + ")"
    ranges = [[4, 36]] + [[line.index(w), line.index(w) + len(w)] for w in words]
    marked = shown(fold_page, line, ranges, "changed", 40)
    assert marked["hidden"][0][0] < 36  # drawn as a mark: the indentation may fold
    highlighted = shown(fold_page, line, ranges, "changed", 40, highlightIndent=True)
    assert highlighted["hidden"][0][0] >= 36 and highlighted["text"].startswith(" " * 36)

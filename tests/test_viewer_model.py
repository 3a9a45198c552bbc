"""Unit tests of the viewer's model (report/assets/viewer_model.js, viewer_find.js) in real Chromium, without the page.

Each test loads a blank page holding only the model scripts and calls `IRTraceModel` (and
`IRTraceFind`) through `page.evaluate`: the model needs no report DOM, so none is given.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from browser_support import REPO

MODEL_JS = REPO / "ir_trace" / "report" / "assets" / "viewer_model.js"
HUNKS_JS = REPO / "ir_trace" / "report" / "assets" / "viewer_hunks.js"  # the model's pure helpers on hunks and rows
TRACES_JS = (
    REPO / "ir_trace" / "report" / "assets" / "viewer_traces.js"
)  # the model builds several traces' entries with it
FIND_JS = REPO / "ir_trace" / "report" / "assets" / "viewer_find.js"
FOLD_JS = REPO / "ir_trace" / "report" / "assets" / "viewer_fold.js"  # names shown inert (inertText)


def page_of_scripts(page, *paths: Path, title: str):
    """A page holding only these viewer scripts, no report DOM: the pure parts run on their own. The
    model comes with the helpers it builds on (viewer_hunks.js) when they are not given."""
    if MODEL_JS in paths and HUNKS_JS not in paths:
        paths = (*paths[: paths.index(MODEL_JS)], HUNKS_JS, *paths[paths.index(MODEL_JS) :])
    scripts = "".join(f"<script>{path.read_text(encoding='utf-8')}</script>" for path in paths)
    page.set_content(f"<!DOCTYPE html><title>{title}</title>{scripts}")
    return page


@pytest.fixture
def model_page(page):
    page_of_scripts(page, FOLD_JS, TRACES_JS, MODEL_JS, FIND_JS, title="model")
    assert page.evaluate("() => typeof IRTraceModel + typeof IRTraceFind") == "objectobject"
    return page


def snapshot(index: int, name: str, **fields) -> dict:
    return {
        "index": index,
        "name": name,
        "file": f"{index:02d}_after_{name}.py" if index else "00_frontend.py",
        "sha256": "",
        "eol": True,
        "changed": True,
        "inserted": 0,
        "deleted": 0,
        "log": None,
        "log_file": None,
        **fields,
    }


# frontend: f (lines 0-2) and g (3-5); pass 1 edits f's return and adds h; pass 2 deletes g.
BASE = ["def f():", "    x = 1", "    return x", "def g():", "    y = 2", "    return y"]
PAYLOAD = {
    "schema": 1,
    "title": "t",
    "dump": "/d",
    "context": 1,
    "level": "UNKNOWN",
    "passes": [
        snapshot(0, "frontend", lines=BASE, changed=False, functions=[["f", 0, 3], ["g", 3, 6]]),
        snapshot(
            1,
            "AddH",
            hunks=[
                [2, 3, 2, 3, ["    return x + 1"], [[2, 2, [], [[12, 16]]]]],
                [6, 6, 6, 8, ["def h():", "    return 0"], []],
            ],
            inserted=3,
            deleted=1,
            functions=[["f", 0, 3], ["g", 3, 6], ["h", 6, 8]],
            log="passes_dump/01_after_AddH.py:7:1: warning: Unused function [DeadCode]\n",
            log_file="01_after_AddH.log",
        ),
        snapshot(
            2,
            "DropG",
            hunks=[[3, 6, 3, 3, [], []]],
            deleted=3,
            functions=[["f", 0, 3], ["h", 3, 5]],
            log="passes_dump/02_after_DropG.py:4:1: warning: Unused function [DeadCode]\n",
            log_file="02_after_DropG.log",
        ),
        snapshot(3, "Noop", hunks=[], changed=False),
    ],
}


def evaluate(page, body: str, arg=None):
    """Run `body` (statements ending in a return) with `M` = IRTraceModel and `arg` in scope."""
    return page.evaluate(f"(arg) => {{ const M = IRTraceModel; {body} }}", arg)


@pytest.mark.parametrize("path", [HUNKS_JS, MODEL_JS, FIND_JS], ids=lambda p: p.name)
def test_the_model_files_touch_no_dom(path):
    source = path.read_text(encoding="utf-8")
    for name in ("document", "window", "getElementById", "addEventListener"):
        assert name not in source, name


def test_apply_hunks_replays_a_pass(model_page):
    hunks = PAYLOAD["passes"][1]["hunks"]
    after = evaluate(model_page, "return M.applyHunks(arg.base, arg.hunks);", {"base": BASE, "hunks": hunks})
    assert after == BASE[:2] + ["    return x + 1"] + BASE[3:] + ["def h():", "    return 0"]


def test_align_hunks_pairs_edits_and_leaves_insertions_unpaired(model_page):
    rows = evaluate(model_page, "return M.alignHunks(arg.hunks, 6);", {"hunks": PAYLOAD["passes"][1]["hunks"]})
    kinds = [(r["kind"], r["a"], r["b"]) for r in rows]
    eq, ins, chg = 0, 2, 3
    assert kinds == [(eq, 0, 0), (eq, 1, 1), (chg, 2, 2), (eq, 3, 3), (eq, 4, 4), (eq, 5, 5)] + [
        (ins, -1, 6),
        (ins, -1, 7),
    ]
    assert rows[2]["br"] == [[12, 16]]


def test_fold_rows_keeps_context_and_opens_expanded_folds(model_page):
    script = """
      const rows = [];
      for (let i = 0; i < 10; i++) rows.push({ kind: M.EQ, a: i, b: i });
      rows.push({ kind: M.DEL, a: 10, b: -1 });
      for (let i = 11; i < 20; i++) rows.push({ kind: M.EQ, a: i, b: i - 1 });
      const shape = (display) => display.map((r) => (r.kind === M.FOLD ? `fold ${r.start}-${r.end}` : r.a));
      return {
        folded: shape(M.foldRows(rows, 2, new Set(), false)),
        opened: shape(M.foldRows(rows, 2, new Set([0]), false)),
        all: M.foldRows(rows, 2, new Set(), true).length,
      };
    """
    result = evaluate(model_page, script)
    assert result["folded"] == ["fold 0-8", 8, 9, 10, 11, 12, "fold 13-20"]
    assert result["opened"] == list(range(13)) + ["fold 13-20"]
    assert result["all"] == 20


def test_restrict_rows_shows_a_one_sided_function_as_wholly_added(model_page):
    script = """
      const rows = M.alignHunks(arg.hunks, 6);
      return {
        h: M.restrictRows(rows, { key: 'h', a: null, b: [6, 8] }).map((r) => [r.kind, r.a, r.b]),
        f: M.restrictRows(rows, { key: 'f', a: [0, 3], b: [0, 3] }).map((r) => r.a),
      };
    """
    result = evaluate(model_page, script, {"hunks": PAYLOAD["passes"][1]["hunks"]})
    assert result["h"] == [[2, -1, 6], [2, -1, 7]]
    assert result["f"] == [0, 1, 2]


def test_model_entries_specs_and_function_history(model_page):
    script = """
      const m = M.createModel(arg, () => { throw new Error('no range diff expected'); });
      const fmt = (s) => s && `${s.ins}+ ${s.del}- ${s.created ? 'created' : ''}${s.removed ? 'removed' : ''}`;
      const choices = m.functionChoices(m.specOf(2)).choices.map((c) => c.label);
      return {
        entries: m.entries.slice(1).map((e) => `${e.index} ${e.name} ${e.changed}`),
        first: m.firstEntry, last: m.lastEntry,
        lines2: m.runs[0].lines(2),
        spec2: m.specOf(2).key,
        h1: fmt(m.fnChange(1, 'h')), f1: fmt(m.fnChange(1, 'f')), g2: fmt(m.fnChange(2, 'g')),
        f2: m.fnChange(2, 'f'), choices,
        warnings: [...m.warningMarks(m.specOf(1)).keys()],
        carried: m.runs[0].warnings(2).map((w) => w.carried),
      };
    """
    r = evaluate(model_page, script, PAYLOAD)
    assert r["entries"] == ["1 AddH true", "2 DropG true", "3 Noop false"]
    assert (r["first"], r["last"]) == (1, 3)
    assert r["lines2"] == BASE[:2] + ["    return x + 1", "def h():", "    return 0"]
    assert r["spec2"] == "0:1>0:2"
    assert r["h1"] == "2+ 0- created"
    assert r["f1"] == "1+ 1- "
    assert r["g2"] == "0+ 3- removed"
    assert r["f2"] is None
    assert r["choices"] == ["f", "h", "g (removed)"]
    assert r["warnings"] == [6]
    assert r["carried"] == [True]


def test_compare_with_uses_the_in_browser_diff_and_caches_it(model_page):
    script = """
      let calls = 0;
      const whole = (a, b) => { calls++; return [[0, a.lines.length, 0, b.lines.length, b.lines, []]]; };
      const m = M.createModel(arg, whole);
      const spec = m.specOf(3, { from: 0 });
      m.specOf(3, { from: 0 });
      return { key: spec.key, before: spec.before.pos, calls, previous: m.specOf(3, { from: 2 }).key };
    """
    r = evaluate(model_page, script, PAYLOAD)
    assert r == {"key": "0:0>0:3", "before": 0, "calls": 1, "previous": "0:2>0:3"}


def test_finder_counts_matches_per_snapshot_and_labels_changes(model_page):
    script = """
      const m = M.createModel(arg, null), f = IRTraceFind.createFinder(m);
      f.set('return', false, false);
      const plain = { series: f.series(0), changes: [1, 2, 3].map((k) => f.change(k)) };
      f.set('def [gh]', true, true);
      const regex = { series: f.series(0), labels: [1, 2, 3].map((k) => f.change(k) && f.change(k).label) };
      f.set('(', true, false);
      return { plain, regex, error: f.error, re: f.re };
    """
    r = evaluate(model_page, script, PAYLOAD)
    assert r["plain"]["series"] == [2, 3, 2, 2]
    assert [c and c["label"] for c in r["plain"]["changes"]] == ["count 2 \u2192 3", "count 3 \u2192 2", None]
    assert r["regex"]["series"] == [1, 2, 1, 1]
    assert r["regex"]["labels"] == ["count 1 \u2192 2", "count 2 \u2192 1", None]
    assert r["error"].startswith("Not a valid regular expression")
    assert r["re"] is None


def test_parse_warnings_reads_both_log_forms(model_page):
    log = (
        "passes_dump/05_after_X.py:12:9: warning: Unused variable 'm' [UnusedVariableCheck]\n"
        "warning: 05_after_X.py:3: old style message\n"
        "note: not a warning\n"
    )
    found = evaluate(model_page, "return M.parseWarnings(arg);", log)
    assert [(w["file"], w["line"], w["col"], w["message"], w["check"]) for w in found] == [
        ("05_after_X.py", 12, 9, "Unused variable 'm'", "UnusedVariableCheck"),
        ("05_after_X.py", 3, None, "old style message", ""),
    ]


def test_every_viewer_file_is_inlined_in_order_in_one_hashed_script_and_fingerprinted():
    from ir_trace.report.render import REPORT_SCRIPTS, TEMPLATE_FILES, content_security_policy, render_html

    viewer_files = sorted(path.name for path in (REPO / "ir_trace" / "report" / "assets").glob("viewer*.js"))
    assert sorted(name for name in REPORT_SCRIPTS if name.startswith("viewer")) == viewer_files
    assert set(REPORT_SCRIPTS) <= set(TEMPLATE_FILES)
    html = render_html(PAYLOAD)
    scripts = re.findall(r"<script>(.*?)</script>", html, re.S)
    assert len(scripts) == 1
    namespaces = [
        "const IRTraceDiff",
        "const IRTraceNormalize",
        "const IRTraceModel",
        "const IRTraceFind",
        "const IRTracePainter",
        "const IRTraceSidebar",
        "const IRTracePanels",
        "const IRTraceIgnore",
    ]
    positions = [scripts[0].index(name) for name in namespaces]
    assert positions == sorted(positions)
    script_source = re.search(r"script-src (&#39;|')(sha256-[^&']+)", content_security_policy(scripts[0])).group(2)
    assert f"script-src &#39;{script_source}&#39;" in html  # the page's CSP allows exactly this script


# ---------- display layout (viewer_layout.js): pure as well ----------

LAYOUT_JS = REPO / "ir_trace" / "report" / "assets" / "viewer_layout.js"


@pytest.fixture
def layout_page(page):
    page_of_scripts(page, FOLD_JS, TRACES_JS, MODEL_JS, LAYOUT_JS, title="layout")
    assert page.evaluate("() => typeof IRTraceLayout") == "object"
    return page


def layout(page, body: str, arg=None):
    return page.evaluate(f"(arg) => {{ const M = IRTraceModel, L = IRTraceLayout; {body} }}", arg)


def test_the_layout_file_touches_no_dom():
    source = LAYOUT_JS.read_text(encoding="utf-8")
    for name in ("document", "window", "getElementById", "addEventListener"):
        assert name not in source, name


def test_unified_rows_put_a_blocks_removals_before_its_additions(layout_page):
    script = """
      const rows = [{ kind: M.EQ, a: 0, b: 0 }, { kind: M.CHG, a: 1, b: 1, ar: [[0, 1]], br: [[0, 2]] },
                    { kind: M.DEL, a: 2, b: -1 }, { kind: M.INS, a: -1, b: 2 }, { kind: M.EQ, a: 3, b: 3 }];
      return L.unifyRows(rows).map((r) => [r.kind, r.a, r.b, r.ar || r.br || null]);
    """
    eq, dele, ins = 0, 1, 2
    assert layout(layout_page, script) == [
        [eq, 0, 0, None],
        [dele, 1, -1, [[0, 1]]],
        [dele, 2, -1, None],
        [ins, -1, 1, [[0, 2]]],
        [ins, -1, 2, None],
        [eq, 3, 3, None],
    ]


def test_change_blocks_and_hunk_headers_name_the_enclosing_function(layout_page):
    script = """
      const rows = M.alignHunks(arg.hunks, 6);
      const display = L.labelHunks(M.foldRows(rows, 0, new Set(), false), arg.fa, arg.fb, rows);
      const folds = display.filter((r) => r.kind === M.FOLD);
      return { blocks: L.changeBlocks(display), heads: folds.map((r) => [L.hunkHeader(r.hunk), r.hunk.fn]) };
    """
    arg = {
        "hunks": PAYLOAD["passes"][1]["hunks"],
        "fa": [["f", 0, 3], ["g", 3, 6]],
        "fb": [["f", 0, 3], ["g", 3, 6], ["h", 6, 8]],
    }
    result = layout(layout_page, script, arg)
    # rows: fold(0-2), CHG 2, fold(3-6), INS 6, INS 7
    assert result["blocks"] == [[1, 2], [3, 5]]
    assert result["heads"] == [["@@ \u22123,1 +3,1 @@", "f"], ["@@ \u22126,0 +7,2 @@", "h"]]  # git's -6,0: after line 6


def test_the_context_line_names_the_function_of_the_first_line_shown_past_its_def(layout_page):
    """Before: f (decorated) at 0-3 and g at 4-6 with a module-level line between; After inserts
    line 2 into f. Rows: fold, 2 (body of f), filler / INS, 3, 4 (module), 5 (def g), 6 (body of g)."""
    script = """
      const [EQ, INS, FOLD] = [M.EQ, M.INS, M.FOLD];
      const a = ['@dec', 'def f():', '    x = 1', '    return x', 'y = 0', 'def g():', '    pass'];
      const b = [...a.slice(0, 2), '    w = 0', ...a.slice(2)];
      const fns = { a: [['f', 0, 4], ['g', 5, 7]], b: [['f', 0, 5], ['g', 6, 8]] };
      const sources = { a: { fns: fns.a, lines: a }, b: { fns: fns.b, lines: b } };
      const items = [{ kind: FOLD, start: 0, end: 2 }, { kind: EQ, a: 1, b: 1 }, { kind: INS, a: -1, b: 2 },
                     { kind: EQ, a: 2, b: 3 }, { kind: EQ, a: 4, b: 5 }, { kind: EQ, a: 5, b: 6 },
                     { kind: EQ, a: 6, b: 7 }];
      const at = (top, side, src = sources) => {
        const found = L.enclosingFunction(items, top, items.length, side, src);
        return found && [found.key, found.side, found.def];
      };
      const unsliced = { ...sources, a: { fns: null, lines: a } };
      return { fold: at(0, 'b'), def: at(1, 'b'), inserted: at(2, 'b'), filler: at(2, 'a'), unified: at(2, 'u'),
               module: at(4, 'a'), defG: at(5, 'b'), bodyG: at(6, 'a'), unsliced: at(3, 'a', unsliced) };
    """
    found = layout(layout_page, script)
    assert found["fold"] is None  # a fold heads the pane: its hunk header names the function
    assert found["def"] is None  # the def line is on top: nothing to pin
    assert found["inserted"] == ["f", "b", 1]  # the def line after the decorator
    assert found["filler"] == ["f", "a", 1]  # a filler reads as the next line of its side
    assert found["unified"] == ["f", "b", 1]
    assert found["module"] is None and found["defG"] is None
    assert found["bodyG"] == ["g", "a", 5]
    assert found["unsliced"] is None  # a side without a function index names nothing


def test_wrap_breaks_fall_between_tokens_with_a_hanging_indent(layout_page):
    line = "        t1: pl.Tile[[64, 128], pl.BF16, pl.MemRef(pl.MemorySpace.Vec, 25600, 32768)] = pl.add(t0, t0)"
    result = layout(layout_page, "return L.wrapBreaks(arg, 40);", line)
    assert result["hang"] == 12
    pieces = [line[i:j] for i, j in zip([0, *result["breaks"]], [*result["breaks"], len(line)])]
    assert len(pieces[0]) <= 40 and all(len(p) <= 40 - 12 for p in pieces[1:])
    for piece in pieces[1:]:
        assert piece[0] not in ", )]" and not piece.startswith(("0", "l.", "BF16"))
    assert "".join(pieces) == line
    assert all("25600" in p or "25600" not in line[: len(p)] for p in pieces)  # numbers stay whole
    assert layout(layout_page, "return L.wrapBreaks(arg, 120);", line)["breaks"] == []
    # A single token longer than a line is cut where it must be.
    long_token = "x" * 100
    assert layout(layout_page, "return L.wrapBreaks(arg, 40).breaks;", long_token) == [40, 76]


def test_a_folded_line_wraps_beside_its_chips_never_inside_a_name_or_a_chip(layout_page):
    """A chip's placeholder is `_` (a word character): names joined by chips still break beside them."""
    names = [f"name{i}__ssa_v0" for i in range(8)]
    shown, src = "", []
    for i, name in enumerate(names):
        if i:
            shown += "___"
            src += [-i] * 3  # chip i-1's units
        src += range(len(shown) - 3 * i + 100 * i, len(shown) - 3 * i + 100 * i + len(name))
        shown += name
    script = "return [L.wrapBreaks(arg[0], 40, Int32Array.from(arg[1])).breaks, L.wrapBreaks(arg[0], 40).breaks];"
    with_chips, as_text = layout(layout_page, script, [shown, src])
    assert with_chips and all(src[b] < 0 or src[b - 1] < 0 for b in with_chips)  # beside a chip
    assert all(not (src[b] < 0 and src[b] == src[b - 1]) for b in with_chips)  # never inside one
    assert any(src[b] >= 0 and src[b - 1] >= 0 for b in as_text)  # read as one long word it is cut inside a name

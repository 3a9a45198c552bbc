"""The ignore-mode counts worked out at the cost of the change (report/ignore_counts.py: keys per snapshot,
collisions checked among the lines a pass adds, one keyed diff per alike sets) equal the straightforward
ones: every set's keyed diff of the pair, unless its keys keep all the pair's lines apart. Checked on
every adjacent pair of the real samples and on random mutations of their snapshots."""

from __future__ import annotations

import random

import pytest
from conftest import mlir_sample, mlir_samples, real_dumps

from ir_trace.diffcore.linediff import changed_spans, diff_snapshots
from ir_trace.noise.normalize import line_key
from ir_trace.pipeline.snapshots import LoadedSnapshot
from ir_trace.report import ignore_counts as counts_module
from ir_trace.report.ignore_counts import ignore_counts, precomputed_sets


def reference_counts(a, b, a_eol, b_eol, a_functions, b_functions, exact, kind) -> dict[str, list[int]]:
    """The counts as first built: for each set, the exact hunks when its keys merge no two different lines
    of the pair, else the keyed diff; all four modes keyed as the language's three when the fourth strips
    nothing of any line."""
    distinct = {*a, *b}
    counts = {}
    *own, every = precomputed_sets(kind)
    for modes in [*own, every]:
        key = line_key(modes, {}, kind)
        if len({key(line) for line in distinct}) == len(distinct):
            spans = [(h.a0, h.a1, h.b0, h.b1) for h in exact]
        else:
            spans = changed_spans(a, b, a_eol, b_eol, a_functions, b_functions, key)
        counts[modes.spec()] = [sum(b1 - b0 for _a0, _a1, b0, b1 in spans), sum(a1 - a0 for a0, a1, _b0, _b1 in spans)]
    if _fourth_mode_inert(distinct, kind):
        counts[every.spec()] = counts[own[-1].spec()]
    return counts


def _fourth_mode_inert(distinct: set[str], kind: str) -> bool:
    if kind == "mlir":
        return not any("pl.MemRef(" in line for line in distinct)
    without_memrefs = line_key(precomputed_sets(kind)[1], {}, kind)
    return not any("loc(" in without_memrefs(line) for line in distinct)


@pytest.mark.parametrize("dump", real_dumps())
def test_every_real_pair_counts_as_the_straightforward_way(dump):
    files = sorted(path for path in dump.iterdir() if path.is_file() and path.suffix == ".py")
    _check_in_order([path.read_text(encoding="utf-8") for path in files], "pypto")


@pytest.mark.parametrize("sample", mlir_samples("tree")[:3])
def test_every_mlir_pair_counts_as_the_straightforward_way(sample):
    files = sorted((mlir_sample(sample) / "tree").rglob("*.mlir"))
    _check_in_order([path.read_text(encoding="utf-8") for path in files], "mlir")


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("dump", real_dumps()[:3])
def test_random_mutations_count_as_the_straightforward_way(dump, seed):
    files = sorted(path for path in dump.iterdir() if path.is_file() and path.suffix == ".py")
    rng = random.Random(seed)
    texts = []
    for path in rng.sample(files, min(6, len(files))):
        text = path.read_text(encoding="utf-8")
        texts += [text, _mutated(text, rng)]
    _check_in_order(texts, "pypto")


def test_the_mutations_reach_the_keyed_diff_and_its_sharing():
    """The shortcuts are exercised, not skipped: pairs whose keys collide, and sets sharing one keyed diff."""
    a = ["def f(x):", "    a__ssa_v0 = x", "    b__ssa_v0 = a__ssa_v0", "    return b__ssa_v0", ""]
    b = ["def f(x):", "    a__ssa_v1 = x", "      b__ssa_v1 = a__ssa_v1", "    return b__ssa_v1", ""]
    exact = diff_snapshots(a, b, True, True, [("f", 0, 4)], [("f", 0, 4)])
    got = ignore_counts(a, b, True, True, [("f", 0, 4)], [("f", 0, 4)], exact, "pypto")
    assert got == reference_counts(a, b, True, True, [("f", 0, 4)], [("f", 0, 4)], exact, "pypto")
    assert got["ssa"] == [1, 1] and got["ssa,memref,whitespace"] == [0, 0]


def test_sets_telling_the_same_lines_equal_share_no_diff_when_one_ignores_a_line_whole():
    """SSA alone and the language's three merge the same lines of this MLIR pair, but only the three (with
    locations) ignore the location alias line the pass adds: sharing SSA's keyed diff would count it."""
    a = ["func.func @f() {", "  %0 = arith.constant 1 : i32", "  %1 = arith.constant 1 : i32", "  return", "}"]
    b = [*a, '#loc1 = loc("a.py":1:2)']
    exact = diff_snapshots(a, b, True, True, None, None)
    got = ignore_counts(a, b, True, True, None, None, exact, "mlir")
    assert got == reference_counts(a, b, True, True, None, None, exact, "mlir")
    assert got["ssa"] == [1, 0] and got["ssa,loc,whitespace"] == [0, 0]


def _check_in_order(texts: list[str], kind: str) -> None:
    """Each adjacent pair, in order, so the keys remembered across pairs are used as a run uses them."""
    for memo in (counts_module._memos, counts_module._step_memos):
        memo.clear()
    snapshots = [LoadedSnapshot(text, kind) for text in texts]
    checked = 0
    for before, after in zip(snapshots, snapshots[1:]):
        (a, a_eol), (b, b_eol) = before.split, after.split
        exact = diff_snapshots(a, b, a_eol, b_eol, before.functions, after.functions)
        pair = (a, b, a_eol, b_eol, before.functions, after.functions, exact, kind)
        assert ignore_counts(*pair) == reference_counts(*pair), (checked, kind)
        checked += 1
    assert checked == len(texts) - 1


def _mutated(text: str, rng: random.Random) -> str:
    """A few edits of the kinds the modes see: renumbered SSA versions, reindented or blank lines, memory
    annotations and locations added, lines deleted, duplicated or swapped."""
    lines = text.split("\n")
    for _ in range(rng.randint(1, 12)):
        if not lines:
            break
        i = rng.randrange(len(lines))
        edit = rng.randrange(7)
        if edit == 0:
            lines[i] = lines[i].replace("_v0", "_v7").replace("_v1", "_v0")
        elif edit == 1:
            lines[i] = "  " + lines[i] + "  "
        elif edit == 2:
            lines.insert(i, rng.choice(["", "   ", "\t"]))
        elif edit == 3:
            lines[i] += rng.choice([", pl.MemRef(0, 64)", "  # loc(1)", " loc(#x)"])
        elif edit == 4:
            del lines[i]
        elif edit == 5:
            lines.insert(i, lines[rng.randrange(len(lines))])
        else:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines)


@pytest.mark.parametrize("dump", real_dumps()[:2])
def test_counts_hold_when_the_run_forgets_the_lines_it_saw(dump, monkeypatch):
    """The run's collision registries start afresh every few lines (a tiny limit): a snapshot seen by an
    earlier registry is seen again whole, so pairs still count as the straightforward way."""
    monkeypatch.setattr(counts_module, "_MEMO_LIMIT", 50)
    files = sorted(path for path in dump.iterdir() if path.is_file() and path.suffix == ".py")
    rng = random.Random(7)
    texts = []
    for path in files[:8]:
        text = path.read_text(encoding="utf-8")
        texts += [text, _mutated(text, rng)]
    _check_in_order(texts, "pypto")


def _check_pair(a, b, a_functions, b_functions, kind="pypto", a_eol=True, b_eol=True) -> dict[str, list[int]]:
    exact = diff_snapshots(a, b, a_eol, b_eol, a_functions, b_functions)
    pair = (a, b, a_eol, b_eol, a_functions, b_functions, exact, kind)
    got = ignore_counts(*pair)
    assert got == reference_counts(*pair)
    return got


def test_a_moved_function_keys_its_layout_from_all_lines():
    """Functions out of order: which one moved depends on the keys, so the whole layout is keyed."""
    f = ["def f(x):", "    a__ssa_v0 = x", "    return a__ssa_v0"]
    g = ["def g(y):", "    b__ssa_v0 = y", "    return b__ssa_v0"]
    g2 = ["def g(y):", "    b__ssa_v1 = y", "    return b__ssa_v1"]
    got = _check_pair([*f, *g], [*g2, *f], [("f", 0, 3), ("g", 3, 6)], [("g", 0, 3), ("f", 3, 6)])
    assert got["ssa"] != [0, 0] or got["whitespace"] != [0, 0]


def test_a_pass_no_mode_sees_anything_of_is_counted_from_its_exact_hunks(monkeypatch):
    """Every line of the segments a pass changed keeps apart under each set's keys: the counts are the exact ones
    and no segment is keyed from its hunks (`_Keys.keep_apart`)."""
    keyed: list[str] = []
    piece = counts_module._Keys.changed_piece
    monkeypatch.setattr(
        counts_module._Keys, "changed_piece", lambda self, *at: (keyed.append(self.modes.spec()), piece(self, *at))[1]
    )
    f = ["def f(x):", "    y = x + 1", "    return y", ""]
    g = ["def g(a__ssa_v0):", "    return a__ssa_v1", ""]  # apart as printed, alike without SSA versions: unchanged
    fns = [("f", 0, 4), ("g", 4, 7)]
    got = _check_pair([*f, *g], [f[0], "    y = x + 2", *f[2:], *g], fns, fns)
    assert set(map(tuple, got.values())) == {(1, 1)} and keyed == []


def test_a_block_ignored_whole_is_left_out_by_keys_that_merge_lines_elsewhere():
    """The changed function's lines keep apart, but a location alias added to it is ignored whole by `loc`: left
    out where the set's keys merge two lines of an unchanged function (the keyed diff's answer), counted where
    they keep every line apart (the exact hunks' answer)."""
    f = ["func.func @f() {", "  %0 = arith.constant 1 : i32", "  return", "}"]
    g = ["func.func @g() {", "  %1 = arith.constant 2 : i32", "  %2 = arith.constant 2 : i32", "  return", "}"]
    f2 = [*f[:3], '#loc1 = loc("a.py":1:2)', f[3]]
    got = _check_pair([*f, *g], [*f2, *g], [("@f", 0, 4), ("@g", 4, 9)], [("@f", 0, 5), ("@g", 5, 10)], "mlir")
    assert got["loc"] == [1, 0] and got["ssa,loc,whitespace"] == [0, 0] and got["ssa"] == [1, 0]


def test_a_block_ignored_whole_counts_as_exact_when_the_keys_keep_lines_apart():
    """Only location alias lines added, every other line distinct under the modes: the exact hunks count
    (the keyed diff would leave the block out)."""
    a = ["func.func @f() {", "  %0 = arith.constant 1 : i32", "  return", "}"]
    b = [*a, '#loc1 = loc("a.py":1:2)']
    got = _check_pair(a, b, None, None, "mlir")
    assert got["loc"] == [1, 0]


def test_a_cut_that_would_change_the_keyed_diff_keys_the_whole_segment():
    """A line inserted before one it keys alike: keyed from the hunk alone the insertion stands at line 1, in
    the whole segment's keyed diff at line 2 (its common start runs on), so the whole segment is keyed."""
    a = ["func.func @f() {", "  %0 = arith.constant 1 : i32", "  return", "}"]
    b = ["func.func @f() {", "  %1 = arith.constant 1 : i32", "  %0 = arith.constant 1 : i32", "  return", "}"]
    for a_eol, b_eol in [(True, True), (False, True), (True, False)]:
        _check_pair(a, b, None, None, "mlir", a_eol, b_eol)
    segment, (hunk,) = (0, 4, 0, 5), diff_snapshots(a, b, True, True, None, None)
    cut = counts_module._cut(segment, hunk, hunk)
    keys = counts_module._Keys(precomputed_sets("mlir")[0], "mlir", a, b, True, True)
    keys.know(counts_module._lines_in(a, b, [cut]))
    assert cut == (1, 1, 1, 2) and keys.changed_piece(segment, cut)[:2] == (0, 0)  # the whole segment


@pytest.mark.parametrize("seed", range(40))
def test_changed_segments_are_those_whose_lines_differ(seed):
    """The segments found by bisecting the exact hunks are exactly those whose lines differ."""
    from ir_trace.diffcore.linediff import MAX_LINE_EDITS
    from ir_trace.diffcore.structure import function_layout

    rng = random.Random(seed)
    a = [f"    line {rng.randrange(6)}" for _ in range(rng.randint(5, 40))]
    starts = sorted(rng.sample(range(len(a)), min(len(a), rng.randint(1, 5))))
    a_functions = [(f"f{k}", s, e) for k, (s, e) in enumerate(zip(starts, [*starts[1:], len(a)]))]
    b, b_functions = list(a), list(a_functions)
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(len(b))
        b[i] = f"    line {rng.randrange(9)}"
    layout = function_layout(len(a), len(b), a, b, a_functions, b_functions, MAX_LINE_EDITS)
    exact = diff_snapshots(a, b, True, True, a_functions, b_functions)
    found = [segment for segment, _first, _last in counts_module._changed_segments(layout.segments, exact)]
    assert found == [s for s in layout.segments if a[s[0] : s[1]] != b[s[2] : s[3]]]
    _check_pair(a, b, a_functions, b_functions)

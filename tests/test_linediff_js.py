"""ir_trace/report/assets/linediff.js (IRTraceDiff, the diff behind `Compare with`) run in real Chromium."""

from __future__ import annotations

import json
import random
import shutil
import subprocess

import pytest
from conftest import REPO, SAMPLES, real_dumps
from harness import DIFF_SCRIPTS, template_scripts
from test_diff_rules import OUT_OF_LOOP

from ir_trace.diffcore.linediff import diff_snapshots, hunks_to_json, split_lines
from ir_trace.noise.mlir_normalize import IGNORED_LINE
from ir_trace.syntax.functions import slice_functions

LINEDIFF = template_scripts(DIFF_SCRIPTS[:2])


@pytest.fixture
def js_page(page):
    """A blank page (the session's Chromium) with IRTraceDiff loaded."""
    page.add_script_tag(content=LINEDIFF + "\nwindow.IRTraceDiff = IRTraceDiff;" + SNAPSHOTS)
    return page


# Snapshots as the viewer builds them: interned line ids, a last line without "\n" kept apart.
SNAPSHOTS = """
window.snapshotPair = (a, b, aEol, bEol) => {
  const interned = new Map();
  const id = (s) => {
    if (!interned.has(s)) interned.set(s, interned.size);
    return interned.get(s);
  };
  const snap = (lines, eol) => {
    const last = lines.length - 1;
    return { lines, eol, fns: null, ids: Int32Array.from(lines, (l, i) => id((i === last && !eol ? '\\0' : '') + l)) };
  };
  return [snap(a, aEol), snap(b, bEol)];
};
"""


def js_diff(page, a: list[str], b: list[str], key_script: str | None = None, a_eol=True, b_eol=True) -> list:
    """Hunks from IRTraceDiff.diffSnapshots; `key_script` is the source of a lineKey function."""
    return page.evaluate(
        """([a, b, keySrc, aEol, bEol]) => {
            const [A, B] = snapshotPair(a, b, aEol, bEol);
            return IRTraceDiff.diffSnapshots(A, B, keySrc ? { lineKey: eval(keySrc) } : {});
        }""",
        [a, b, key_script, a_eol, b_eol],
    )


def test_line_key_option_makes_lines_with_equal_keys_unchanged(js_page):
    before = ["x = pl.add(a, b)", "y = pl.mul(x, c)", "return y"]
    after = ["x__ssa_v0 = pl.add(a, b)", "y = pl.mul(x__ssa_v0, d)", "return y"]
    assert [h[:4] for h in js_diff(js_page, before, after)] == [[0, 2, 0, 2]]
    keyed = js_diff(js_page, before, after, "(line) => line.replaceAll('__ssa_v0', '')")
    assert [h[:4] for h in keyed] == [[1, 2, 1, 2]]


def python_hunks(a: list[str], b: list[str], a_eol=True, b_eol=True, fns=(None, None)) -> list:
    return json.loads(json.dumps(hunks_to_json(diff_snapshots(a, b, a_eol, b_eol, *fns), b)))


def js_snapshot_hunks(page, a, b, a_eol, b_eol, fns_a, fns_b) -> list:
    return page.evaluate(
        """([a, b, aEol, bEol, fnsA, fnsB]) => {
            const [A, B] = snapshotPair(a, b, aEol, bEol);
            A.fns = fnsA; B.fns = fnsB;
            return IRTraceDiff.diffSnapshots(A, B);
        }""",
        [a, b, a_eol, b_eol, fns_a, fns_b],
    )


def functions_of(lines: list[str]):
    found = slice_functions(lines).functions
    return None if found is None else [[f.key, f.start, f.end] for f in found]


@pytest.mark.parametrize("dump", real_dumps(), ids=lambda p: p.parent.name)
def test_same_hunks_pairs_ranges_and_moves_as_python_on_real_samples(js_page, dump):
    files = sorted(dump.glob("*.py"), key=lambda p: int(p.name.split("_")[0]))
    texts = [f.read_text(encoding="utf-8") for f in files]
    compared = 0
    for before, after in zip(texts, texts[1:]):
        if before == after:
            continue
        (a, a_eol), (b, b_eol) = split_lines(before), split_lines(after)
        fns_a, fns_b = functions_of(a), functions_of(b)
        expected = python_hunks(a, b, a_eol, b_eol, (fns_a, fns_b))
        assert js_snapshot_hunks(js_page, a, b, a_eol, b_eol, fns_a, fns_b) == expected
        compared += 1
    assert compared > 0


MLIR_TREES = ["a1_short_mliropt19_calls_loops", "a4_lowering_mliropt19_matmul_to_llvm", "b3_full_ireecompile_conv"]
MLIR_TREES += ["d2_ireeopt_affine_tile16", "e3_debuginfo_mliropt22_calls_loops"]


def mlir_in_write_order(sample: str) -> list[str]:
    """The IR of a module-scope MLIR sample's snapshots (header line dropped), in the order written."""
    root = SAMPLES / "mlir" / sample
    order = dict.fromkeys(line for line in (root / "write_order.txt").read_text().splitlines() if line)
    return [(root / "tree" / name).read_text(encoding="utf-8").split("\n", 1)[1] for name in order]


@pytest.mark.samples
@pytest.mark.parametrize("sample", MLIR_TREES)
def test_same_hunks_as_python_on_real_mlir_dumps(js_page, sample):
    # MLIR's renumbered `%12`, `^bb2`, `#map3` and symbol ops as functions, in both languages alike.
    texts = mlir_in_write_order(sample)
    pairs = [(x, y) for x, y in zip(texts, texts[1:]) if x != y][:80]
    assert pairs
    for before, after in pairs:
        (a, a_eol), (b, b_eol) = split_lines(before), split_lines(after)
        fns_a, fns_b = mlir_functions_of(a), mlir_functions_of(b)
        expected = python_hunks(a, b, a_eol, b_eol, (fns_a, fns_b))
        assert js_snapshot_hunks(js_page, a, b, a_eol, b_eol, fns_a, fns_b) == expected


def mlir_functions_of(lines: list[str]):
    found = slice_functions(lines, kind="mlir").functions
    return None if found is None else [[f.key, f.start, f.end] for f in found]


SYNTHETIC = [
    # (before lines, after lines, before ends with "\n", after ends with "\n")
    (["a", "b"], ["a", "b"], True, False),
    (["import x", "y = 1"], ["\ufeffimport x", "y = 1"], True, True),
    (
        ["def f(a, b, c):", "    x = pl.add(a, b)", "    y = pl.mul(x, c)", "    z = pl.exp(y)", "    return z"],
        ["def f(a, b, c):", "    z = pl.exp(y)", "    x = pl.add(a, b)", "    y = pl.mul(x, c)", "    return z"],
        True,
        True,
    ),
    (["x = f(a,b)", "\tx = 1", "x = 1\r"], ["x = f(a, b)", "    x = 1", "x = 1"], True, True),
    (["# 😀 x = 1", "s = '😀😀 a'"], ["# 😀 x = 2", "s = '😀😃 a'"], False, False),
    (*OUT_OF_LOOP, True, True),  # a line dedented out of a loop keeps its own copy
    (
        ["^bb11:  // pred: ^bb9", "  cf.br ^bb9(%17 : index)"],
        ["^bb10:  // pred: ^bb8", "  cf.br ^bb8(%2 : index)"],
        True,
        True,
    ),
]


@pytest.mark.parametrize("case", range(len(SYNTHETIC)))
def test_same_result_as_python_on_end_of_file_bom_moves_whitespace_and_astral_cases(js_page, case):
    a, b, a_eol, b_eol = SYNTHETIC[case]
    expected = python_hunks(a, b, a_eol, b_eol)
    assert expected  # every case is a change
    assert js_snapshot_hunks(js_page, a, b, a_eol, b_eol, None, None) == expected


def test_same_result_as_python_on_random_edits_of_real_looking_lines(js_page):
    rng = random.Random(10)
    pool = [
        "    t{n}: pl.Tile[[16, 128], pl.FP32, pl.Mem.Vec] = pl.load(x{n}, [0, 0], [16, 128])",
        "    y{n}__ssa_v0 = pl.add(t{n}, t{n})",
        "    pl.sync_src(pipe=pl.Pipe.V, event={n})",
        "    return out{n}",
        "        )",
        "",
    ]
    edits = [("pl.Mem.Vec", "pl.MemRef(m{n}, 0, 8), pl.Mem.Vec"), ("__ssa_v0", "__ssa_v1"), ("    ", "        ")]
    for _ in range(40):
        a = [rng.choice(pool).format(n=rng.randrange(5)) for _ in range(rng.randrange(1, 30))]
        b = list(a)
        for _ in range(rng.randrange(1, 8)):
            k = rng.randrange(len(b))
            choice = rng.random()
            if choice < 0.5:
                old, new = rng.choice(edits)
                b[k] = b[k].replace(old, new.format(n=k), 1)
            elif choice < 0.75:
                b.insert(k, rng.choice(pool).format(n=rng.randrange(5)))
            else:
                b.insert(rng.randrange(len(b)), b.pop(k))
        assert js_snapshot_hunks(js_page, a, b, True, True, None, None) == python_hunks(a, b)


HOSTILE_JS = """
const fs = require('fs');
const read = (files) => files.map((f) => fs.readFileSync(f, 'utf8')).join('\\n');
const load = (files, name) => new Function(`${read(files)}; return ${name};`)();
const IRTraceDiff = load(process.argv.slice(2, 4), 'IRTraceDiff');
const IRTraceNormalize = load([process.argv[4]], 'IRTraceNormalize');
const emoji = (i) => String.fromCodePoint(0x1F600 + (i % 64)) + (i % 7 ? 'x' : ' ');
const lines = {
  word: 'a'.repeat(1000000), dotted: 'a.'.repeat(500000), brackets: '('.repeat(1000000),
  calls: 'a.b('.repeat(250000), percent: '%'.repeat(1000000), ssaSuffixes: '_ssa_v'.repeat(170000),
  ssaNames: 'x__ssa_v0'.repeat(110000), memrefNames: 'mem_vec_'.repeat(125000),
  memrefCalls: 'pl.MemRef('.repeat(100000), emoji: Array.from({ length: 100000 }, (_, i) => emoji(i)).join(''),
  spaced: 'a '.repeat(500000),
};
const all = { modes: ['ssa', 'memref', 'whitespace'], regex: '_v\\d+' };
const ignoreAll = IRTraceNormalize.normaliser(all), piecesAll = IRTraceNormalize.keptPieces(all);
const ids = new Map();
const id = (line) => ids.get(line) ?? (ids.set(line, ids.size), ids.size - 1);
const snap = (ls) => ({ lines: ls, ids: Int32Array.from(ls, id), fns: null });
for (const options of [{}, { lineKey: ignoreAll, linePieces: piecesAll }]) {
  for (const [name, line] of Object.entries(lines)) {
    const half = line.length >> 1, edited = line.slice(0, half) + 'Z' + line.slice(half + 1);
    const before = snap(['def f():', line, '    return 1']), after = snap(['def f():', edited, '    return 2']);
    if (IRTraceDiff.diffSnapshots(before, after, options).length !== 1) throw new Error(name);
    IRTraceDiff.diffSnapshots(snap(['x = pl.add(a, b)', line]), snap(['x = pl.add(a, c)', 'y = 1']), options);
    const moved = IRTraceDiff.diffSnapshots(snap([line, 'b = 1']), snap(['b = 1', line]), options);
    if (!moved.some((h) => h[6] && h[6].moved)) throw new Error(`${name}: no move`);
  }
}
console.log('done');
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="node (V8 outside the browser) is not installed")
def test_hostile_lines_diff_in_a_couple_of_seconds_in_javascript(tmp_path):
    """The same 1 MB lines as the Python test, exact and with every ignore mode on, through
    intraline.js, linediff.js and normalize.js in V8 (node), under a timeout."""
    script = tmp_path / "hostile.js"
    script.write_text(HOSTILE_JS, encoding="utf-8")
    templates = REPO / "ir_trace" / "report" / "assets"
    result = subprocess.run(
        ["node", str(script), *(str(templates / name) for name in DIFF_SCRIPTS)],
        capture_output=True,
        text=True,
        timeout=90,
    )
    assert result.returncode == 0 and result.stdout.strip() == "done", result.stderr


def test_line_key_gives_the_same_hunks_in_both_languages(js_page):
    before = ["def f(x):", "    y = pl.add(x, x)", "    z = pl.mul(y, x)", "    return z"]
    after = ["def f(x__ssa_v0):", "    y__ssa_v0 = pl.add(x__ssa_v0, x)", "    z = pl.mul(y, q)", "    return z"]
    expected = json.loads(
        json.dumps(hunks_to_json(diff_snapshots(before, after, line_key=lambda s: s.replace("__ssa_v0", "")), after))
    )
    assert [h[:4] for h in expected] == [[2, 3, 2, 3]]
    assert js_diff(js_page, before, after, "(line) => line.replaceAll('__ssa_v0', '')") == expected


def test_a_change_made_only_of_ignored_lines_is_none_in_both_languages(js_page):
    # normalize's `loc` mode keys a `#loc3 = loc(...)` table line as IGNORED_LINE.
    before = ["#loc1 = loc(1)", "a", "b", "#loc2 = loc(2)", "c"]
    after = ["#loc1 = loc(1)", "#loc5 = loc(5)", "a", "B", "c", "#loc9 = loc(9)"]

    def key(line: str) -> str:
        return IGNORED_LINE + line if line.startswith("#loc") else line

    expected = json.loads(json.dumps(hunks_to_json(diff_snapshots(before, after, line_key=key), after)))
    assert [h[:4] for h in expected] == [[2, 4, 3, 4]]  # `b` -> `B` beside a table line; the others are none
    script = f"(line) => line.startsWith('#loc') ? {json.dumps(IGNORED_LINE)} + line : line"
    assert js_diff(js_page, before, after, script) == expected
    assert len(js_diff(js_page, before, after)) == 3  # as printed, every table line counts


def shuffled_program(rng: random.Random, names: list[str]) -> list[str]:
    """Functions in a random order, some edited, some dropped, a new one now and then (issue 28)."""
    lines = ["import pypto.language as pl", ""]
    order = names[:]
    rng.shuffle(order)
    for name in order:
        if rng.random() < 0.15:
            continue
        value = rng.choice(["1", "1", "1", "2"])
        lines += ["", f"def {name}(x):", f"    y = pl.add(x, {value})", f'    return "{name}"']
    if rng.random() < 0.3:
        lines += ["", "def fresh():", "    return 0"]
    return lines


def test_same_hunks_as_python_when_functions_are_reordered(js_page):
    rng = random.Random(28)
    names = [f"f{k}" for k in range(6)]
    for _ in range(60):
        a, b = shuffled_program(rng, names), shuffled_program(rng, names)
        fns_a, fns_b = functions_of(a), functions_of(b)
        expected = python_hunks(a, b, True, True, (fns_a, fns_b))
        assert js_snapshot_hunks(js_page, a, b, True, True, fns_a, fns_b) == expected
    mlir_a = ["module {", "  func.func @a() {", "    return", "  }", "  func.func @b() {", "    %0 = x", "  }", "}"]
    mlir_b = ["module {", "  func.func @b() {", "    %0 = y", "  }", "  func.func @a() {", "    return", "  }", "}"]
    fns_a, fns_b = mlir_functions_of(mlir_a), mlir_functions_of(mlir_b)
    expected = python_hunks(mlir_a, mlir_b, True, True, (fns_a, fns_b))
    assert any(len(hunk) > 6 and hunk[6].get("moved") for hunk in expected)
    assert js_snapshot_hunks(js_page, mlir_a, mlir_b, True, True, fns_a, fns_b) == expected

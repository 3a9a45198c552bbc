"""Property tests of the line diff: seeded random IR-like pairs, every invariant, both languages.

The cases (tests/diff_properties.py) repeat, move and nearly duplicate lines, and change
blank lines, indentation, line endings, the final newline, the BOM and astral characters.
"""

from __future__ import annotations

import json

import pytest
from diff_properties import cases, check_hunks, python_diff
from harness import template_scripts

from ir_trace.diffcore.linediff import hunks_to_json
from ir_trace.noise.normalize import IgnoreModes
from ir_trace.syntax.functions import slice_functions

SPECS = ["", "ssa", "memref", "whitespace", "ssa,memref,whitespace"]
CASES = 300


def mode_functions(spec: str):
    """(line key, kept pieces) of the modes in `spec`; (None, None) for the exact diff."""
    if not spec:
        return None, None
    modes = IgnoreModes.parse(spec)
    return modes.normaliser(), modes.kept_pieces()


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s or "exact")
def test_every_invariant_holds_on_random_pairs(spec):
    """Under a mode also: no emphasis lies wholly in ignored text or cuts a word, the unmarked
    kept text is common, and a pair is marked exactly when its keys differ."""
    key, pieces = mode_functions(spec)
    changed = touched = 0
    for before, after in cases(seed=14, count=CASES):
        a, b, hunks = python_diff(before, after, key, line_pieces=pieces)
        check_hunks(before, after, a, b, hunks, key, pieces)
        changed += bool(hunks)
        touched += sum(bool(pieces(a[p.a]) or pieces(b[p.b])) for h in hunks for p in h.pairs) if pieces else 0
    assert changed > CASES // 2  # the generator makes real changes
    assert touched > 20 or not spec  # and pairs holding text the mode ignores


def test_random_pairs_exercise_pairs_moves_and_end_of_file_markers():
    """The invariants above would pass vacuously on a generator that never makes these."""
    seen = {"pairs": 0, "moved": 0, "no_eol": 0, "bom": 0, "astral": 0}
    for before, after in cases(seed=14, count=CASES):
        a, b, hunks = python_diff(before, after)
        for h in hunks:
            seen["pairs"] += len(h.pairs)
            seen["moved"] += len(h.moved)
            seen["no_eol"] += h.no_eol is not None
            seen["bom"] += h.bom is not None
            seen["astral"] += sum(not (a[p.a] + b[p.b]).isascii() for p in h.pairs if p.a_ranges)
    assert all(count >= 5 for count in seen.values()), seen


# ---------- the same cases through linediff.js ----------

SCRIPTS = template_scripts()
BATCH = """(cases) => cases.map(([before, after, modes, fnsA, fnsB]) => {
  const snap = (text, fns) => {
    const lines = text.split('\\n'), eol = text.endsWith('\\n');
    if (lines[lines.length - 1] === '') lines.pop();
    return { lines, eol, fns };
  };
  const N = IRTraceNormalize, spec = N.cleanModes(modes, null);
  const lineKey = N.isOn(spec) ? N.normaliser(spec) : (line) => line;
  const linePieces = N.isOn(spec) ? N.keptPieces(spec) : undefined;
  return IRTraceDiff.diffSnapshots(snap(before, fnsA), snap(after, fnsB), { lineKey, linePieces });
})"""


def functions_of(text: str):
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    found = slice_functions(lines).functions
    return None if found is None else [[f.key, f.start, f.end] for f in found]


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s or "exact")
def test_linediff_js_gives_the_same_hunks_on_random_pairs(page, spec):
    page.add_script_tag(content=SCRIPTS + "\nwindow.IRTraceDiff = IRTraceDiff;")
    key, pieces = mode_functions(spec)
    batch, expected = [], []
    for before, after in cases(seed=14, count=CASES):
        fns_a, fns_b = functions_of(before), functions_of(after)
        a, b, hunks = python_diff(before, after, key, (fns_a, fns_b), pieces)
        batch.append([before, after, [m for m in spec.split(",") if m], fns_a, fns_b])
        expected.append(json.loads(json.dumps(hunks_to_json(hunks, b))))
    got = page.evaluate(BATCH, batch)
    differing = [k for k in range(CASES) if got[k] != expected[k]]
    assert not differing, f"{len(differing)} cases differ, first {batch[differing[0]][:2]!r}"

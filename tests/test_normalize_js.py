"""ir_trace/report/assets/normalize.js in Chromium gives the same keys as ir_trace/noise/normalize.py, and accepts and
refuses the same custom regexes."""

from __future__ import annotations

import pytest
from conftest import REPO, SAMPLES
from test_normalize import HOSTILE, REGEX_SEMANTICS

from ir_trace.noise.normalize import JS_SPACES, IgnoreModes, IgnoreRegexError, check_regex

REAL = sorted(SAMPLES.glob("real*/*/passes_dump"))
SPECS = [("ssa", None), ("memref", None), ("whitespace", None), ("ssa,memref,whitespace", r"_\d+\b"), ("", r"\s+")]
TRICKY = [
    "x__ssa_v0 = y__iter_v12 + k0_inline5__ssa_v1_3",
    "x__a_b_v1_v2 a__b__c_v1 a___b_v1 x__ssa_v0__ssa_v1 q__a1_v2 é__ssa_v0 x__ssa_v0x",
    'pl.Tensor[[16], pl.FP32, pl.MemRef("mem_ddr_0", pl.const(0, pl.INT64), 4096)], b',
    "f(x, pl.MemRef('a\\')', y)) pl.MemRef(a), pl.MemRef(b), c xpl.MemRef(a)",
    "pl.MemRef(unclosed, (",
    "  a\tb" + JS_SPACES + "c \x1c\u200b\u180e",
    "emoji 😀__ssa_v1 x😀__ssa_v1",
]
REGEXES = [
    r"_v\d+",
    r"(a+)+",
    r"((a*)b)*",
    r"(?=a)",
    r"(?:ab|cd)+?",
    r"[\s-x]",
    r"[z-a]",
    r"\1",
    r"a{2,1}",
    r"a{,3}",
    r"a{2}",
    r"x{",
    r"a]",
    r"[]",
    r"[^\s,]+",
    r"\-",
    r"[a\-z]",
    r"[\b]",
    r"\bx\B",
    r"\/",
    "a\\",
    r"(?:a|b)*c",
    r"^x$",
    r"\S+",
    r"[\S]",
    r"\p{L}",
]


@pytest.fixture
def js(page):
    page.add_script_tag(content=(REPO / "ir_trace" / "report" / "assets" / "normalize.js").read_text(encoding="utf-8"))
    return page


def _js_keys(js, lines: list[str], modes: str, regex: str | None) -> list[str]:
    return js.evaluate(
        """([lines, modes, regex]) => {
             const N = IRTraceNormalize, key = N.normaliser(N.cleanModes(modes, regex));
             return lines.map(key);
           }""",
        [lines, [m for m in modes.split(",") if m], regex],
    )


@pytest.mark.parametrize("modes, regex", SPECS)
def test_tricky_lines_normalise_alike(js, modes, regex):
    python = IgnoreModes.parse(modes, regex).normaliser()
    assert _js_keys(js, TRICKY, modes, regex) == [python(line) for line in TRICKY]


@pytest.mark.samples
@pytest.mark.parametrize("modes, regex", SPECS)
def test_every_real_line_normalises_alike(js, modes, regex):
    lines = sorted({line for dump in REAL for path in dump.glob("*.py") for line in path.read_text().split("\n")})
    python = IgnoreModes.parse(modes, regex).normaliser()
    expected = [python(line) for line in lines]
    got = _js_keys(js, lines, modes, regex)
    mismatches = [(line, e, g) for line, e, g in zip(lines, expected, got) if e != g]
    assert not mismatches[:3], f"{len(mismatches)} lines differ"
    assert sum(e != line for line, e in zip(lines, expected)) > 0 or modes == ""


MLIR = sorted(SAMPLES.glob("mlir/*/tree"))
MLIR_SPECS = [("ssa", None), ("loc", None), ("ssa,loc,whitespace", r"_\d+\b")]
TRICKY_MLIR = [
    "%12 = arith.addi %arg3, %c0_i32 : i32 loc(#loc4)",
    "test.use %0#1, %x.y-z, ^bb2(%3 : index), #map3, #hal.target1<x>, x#map2, {-# r #-}",
    '%s = "test.op"() {note = "%12 ^bb3 #map4 \\"%7 loc(x)"} : () -> i32 loc("f(":1:2)',
    '} loc(callsite("f"("a.mlir":1:2) at fused["b.mlir":3:4, "c)":5:6]))',
    '#loc3 = loc("inputs/calls_loops.mlir":4:37)',
    "%0 = memref.alloc() loc(unclosed ( loc(#loc1)",
    'emoji 😀 %😀 %a😀 #m😀1 "😀',
]


def _js_mlir_keys(js, lines: list[str], modes: str, regex: str | None) -> list[str]:
    return js.evaluate(
        """([lines, modes, regex]) => {
             const N = IRTraceNormalize, key = N.normaliser(N.cleanModes(modes, regex), 'mlir');
             return lines.map(key);
           }""",
        [lines, [m for m in modes.split(",") if m], regex],
    )


@pytest.mark.parametrize("modes, regex", MLIR_SPECS)
def test_tricky_mlir_lines_normalise_alike(js, modes, regex):
    python = IgnoreModes.parse(modes, regex).normaliser("mlir")
    assert _js_mlir_keys(js, TRICKY_MLIR, modes, regex) == [python(line) for line in TRICKY_MLIR]


@pytest.mark.samples
@pytest.mark.parametrize("modes, regex", MLIR_SPECS)
def test_every_real_mlir_line_normalises_alike(js, modes, regex):
    lines = sorted({line for tree in MLIR for path in tree.rglob("*.mlir") for line in _short_lines(path)})
    assert len(lines) > 5_000
    python = IgnoreModes.parse(modes, regex).normaliser("mlir")
    expected = [python(line) for line in lines]
    got = _js_mlir_keys(js, lines, modes, regex)
    mismatches = [(line, e, g) for line, e, g in zip(lines, expected, got) if e != g]
    assert not mismatches[:3], f"{len(mismatches)} lines differ"
    assert sum(e != line for line, e in zip(lines, expected)) > 500


def _short_lines(path) -> list[str]:
    """The file's lines but its blobs (kilobytes of hex that no mode touches twice)."""
    return [line for line in path.read_text(encoding="utf-8").split("\n") if len(line) < 4000]


def test_the_same_regexes_are_accepted_and_refused(js):
    verdicts = js.evaluate("(patterns) => patterns.map((p) => IRTraceNormalize.checkRegex(p) === null)", REGEXES)
    python = []
    for pattern in REGEXES:
        try:
            check_regex(pattern)
            python.append(True)
        except IgnoreRegexError:
            python.append(False)
    assert dict(zip(REGEXES, verdicts)) == dict(zip(REGEXES, python))
    assert 4 < sum(python) < len(python) - 4  # both kinds are exercised


# A refused pattern and the 1-based position of the character at fault.
REFUSED_AT = [
    ("(", 1),
    ("a(b(c)", 2),
    (")", 1),
    ("[", 1),
    ("[]", 1),
    ("a{2", 2),
    ("*a", 1),
    ("a**", 3),
    ("(a*)*", 5),
    ("(?<", 1),
    ("\\", 1),
    ("x\\q", 2),
]


@pytest.mark.parametrize("pattern, position", REFUSED_AT)
def test_a_refused_regex_names_the_position_at_fault_alike(js, pattern, position):
    with pytest.raises(IgnoreRegexError) as refused:
        check_regex(pattern)
    assert str(refused.value).endswith(f" at position {position}")
    assert js.evaluate("(p) => IRTraceNormalize.checkRegex(p)", pattern) == str(refused.value)


@pytest.mark.parametrize("pattern, line, expected", REGEX_SEMANTICS)
def test_regex_semantics_match_javascript(js, pattern, line, expected):
    assert _js_keys(js, [line], "", pattern) == [expected]


@pytest.mark.parametrize("unit, times", HOSTILE, ids=[f"{u!r}x{t}" for u, t in HOSTILE])
def test_hostile_megabyte_lines_normalise_alike_in_the_page(js, unit, times):
    """Built in the page (no megabyte crosses the wire); a quadratic scan would not finish."""
    line = unit * times
    python = IgnoreModes.parse("ssa,memref,whitespace", r"_v\d+").normaliser()(line)
    got = js.evaluate(
        """([unit, times, regex]) => {
             const N = IRTraceNormalize, key = N.normaliser(N.cleanModes(['ssa', 'memref', 'whitespace'], regex));
             const out = key(unit.repeat(times));
             return [out.length, out.slice(0, 64)];
           }""",
        [unit, times, r"_v\d+"],
    )
    assert got == [len(python), python[:64]]


MLIR_HOSTILE = [
    ("%", 300_000),
    ("%a#", 100_000),
    ("#m1", 100_000),
    ('"', 299_999),
    ("loc(", 250_000),
    (" loc(()", 100_000),
]


@pytest.mark.parametrize("unit, times", MLIR_HOSTILE, ids=[f"{u!r}x{t}" for u, t in MLIR_HOSTILE])
def test_hostile_mlir_lines_normalise_alike_in_the_page(js, unit, times):
    line = unit * times
    python = IgnoreModes.parse("ssa,loc").normaliser("mlir")(line)
    got = js.evaluate(
        """([unit, times]) => {
             const N = IRTraceNormalize, key = N.normaliser(N.cleanModes(['ssa', 'loc'], null), 'mlir');
             const out = key(unit.repeat(times));
             return [out.length, out.slice(0, 64)];
           }""",
        [unit, times],
    )
    assert got == [len(python), python[:64]]

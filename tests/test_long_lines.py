"""Huge lines worked out a window at a time (diffcore/long_lines.py, noise/long_keys.py): the same answers as
the whole-line code, with windows and limits made tiny so that short random lines cross them."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest

from ir_trace import syntax
from ir_trace.diffcore import intraline, linediff, long_lines, matching
from ir_trace.noise.long_keys import LongKey, bounded_key
from ir_trace.noise.mlir_normalize import IGNORED_LINE
from ir_trace.noise.normalize import MODES, IgnoreModes

WINDOW = 7
ALPHABET = "ab_1 %^#x.=(\t\u00e9\U0001f600"


def random_lines(seed: int, count: int, longest: int = 40) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, longest))) for _ in range(count)]


@pytest.fixture
def tiny_windows(monkeypatch):
    for module in (syntax, long_lines, linediff):
        monkeypatch.setattr(module, "WINDOW_CHARS", WINDOW)


KEYED = [
    '  %cst = arith.constant dense<"0xAB AB">  loc(#loc3)',
    '#loc3 = loc("a.mlir":1:2)',
    "x__ssa_v1 = pl.MemRef(a, 1) ",
    "   ",
    "",
    IGNORED_LINE + "abc",
    "a\u2028 b",
    "\ud800x y",
    *random_lines(3, 12),
]


@pytest.mark.parametrize("kind", ["mlir", "pypto"])
def test_bounded_keys_compare_as_the_keys_do(kind):
    for size in range(len(MODES) + 1):
        for modes in map(IgnoreModes, map(frozenset, combinations(MODES, size))):
            key = modes.normaliser(kind)
            for limit in (0, 3, 100):
                bounded = bounded_key(modes, kind, limit)
                for x in KEYED:
                    found = bounded(x)
                    if isinstance(found, str):
                        assert found == key(x)
                    else:  # only a key longer than a line within the limit may key is a digest
                        assert len(key(x)) > limit + len(IGNORED_LINE)
                        assert found.ignored == key(x).startswith(IGNORED_LINE)
                    assert [bounded(y) == found for y in KEYED] == [key(y) == key(x) for y in KEYED]


def test_a_long_key_never_equals_a_line_key_or_a_last_lines_key():
    long = bounded_key(IgnoreModes(frozenset(["whitespace"])), "mlir", 2)("a b c d e f g h i j k l")
    assert isinstance(long, LongKey)
    assert long != "abcdefghijkl" and long != ("abcdefghijkl", "no newline at end of file")


def test_words_split_a_window_at_a_time_are_the_words_of_the_whole(tiny_windows):
    rng = random.Random(5)
    for _ in range(2000):
        text = bytes(rng.choice(b"ab  ") for _ in range(rng.randint(0, 30)))
        cuts = sorted(
            {*rng.sample(range(len(text) + 1), min(len(text) + 1, rng.randint(0, 6))), *range(0, len(text), WINDOW)}
        )
        windows = [text[i:j] for i, j in zip([0, *cuts], [*cuts, len(text)])]  # none longer than a window
        expected = [word if len(word) <= WINDOW else None for word in text.split()]
        found = long_lines.split_words(windows)
        assert [None if word.startswith(b"\x00") else word for word in found] == expected
        digests = {word: found[k] for k, word in enumerate(text.split()) if len(word) > WINDOW}
        assert all(found[k] == digests[word] for k, word in enumerate(text.split()) if word in digests)


def test_a_long_profile_pairs_as_the_whole_lines_profile(tiny_windows):
    lines = random_lines(6, 400)
    for line in lines:
        body = line.lstrip(" \t")
        indent = len(line) - len(body)
        text = linediff._VALUE_NAME.sub(linediff._without_digits, body)
        words = text.encode("utf-8", "surrogatepass").translate(linediff._WORDS_ONLY).split()
        profile = linediff._long_profile(line, indent)
        assert profile[2] == len(words)
        short = {(word, count) for word, count in Counter(words).items() if len(word) <= WINDOW}
        assert {(word, count) for word, count in profile[1] if not word.startswith(b"\x00")} == short
        assert profile[4] == linediff.operation(body)
        subwords = body.encode("utf-8", "surrogatepass").translate(linediff._SUBWORDS_ONLY).split()
        assert {word for word in profile[3] if not word.startswith(b"\x00")} == {
            w for w in subwords if len(w) <= WINDOW
        }
    bodies = [line.lstrip(" \t") for line in lines]
    keys = [linediff._profile(line)[0] for line in lines]
    for x in range(0, 400, 7):
        assert [keys[x] == key for key in keys] == [bodies[x] == body for body in bodies]


def test_the_operation_is_found_in_place():
    for line in [*random_lines(7, 500), "x = pl.add(a, b)", "%0 = arith.addi %a, %b", "  y: T = m.f (x)"]:
        for start in range(0, len(line) + 1, 3):
            assert linediff.operation(line, start) == linediff.operation(line[start:])


def test_common_ends_found_a_step_at_a_time_are_the_common_ends(monkeypatch):
    monkeypatch.setattr(matching, "PREFIX_STEP", 3)
    rng = random.Random(8)
    for _ in range(2000):
        a = "".join(rng.choice("ab") for _ in range(rng.randint(0, 20)))
        b = a[: rng.randint(0, len(a))] + "".join(rng.choice("ab") for _ in range(rng.randint(0, 5)))
        head = next((k for k, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
        tail = next((k for k, (x, y) in enumerate(zip(a[::-1], b[::-1])) if x != y), min(len(a), len(b)))
        assert matching.common_prefix(a, b, 0, len(a), 0, len(b)) == head
        assert matching.common_suffix(a, b, 0, len(a), 0, len(b)) == tail


def test_a_run_start_found_a_window_at_a_time_is_rstrips(monkeypatch):
    monkeypatch.setattr(intraline, "WINDOW_CHARS", 4)
    for line in random_lines(9, 300):
        for p in range(len(line) + 1):
            for chars in (" \t", "ab_1"):
                assert intraline._run_start(line, p, chars) == len(line[:p].rstrip(chars))


def test_a_changed_huge_token_is_marked_where_it_differs(monkeypatch):
    monkeypatch.setattr(intraline, "WINDOW_CHARS", 16)
    a = 'x = dense<"0x' + "5A" * 20 + "00" + "5A" * 20 + '">'
    b = a.replace("00", "11")
    (range_a,), (range_b,) = intraline.changed_ranges(a, b)
    assert a[range_a[0] : range_a[1]] == "00" and b[range_b[0] : range_b[1]] == "11"
    assert intraline.changed_ranges(a, a + "7") == ((), ((len(a), len(a) + 1),))

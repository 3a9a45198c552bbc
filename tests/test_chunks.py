"""A PyPTO snapshot split chunk by chunk: the lines `split_lines` gives, shared with the snapshots before it."""

from __future__ import annotations

import random

import pytest

from ir_trace.diffcore.linediff import split_lines
from ir_trace.syntax import TextMemo, chunks
from ir_trace.syntax.chunks import split_chunks

EDGES = ["", "\n", "\n\n", "a", "a\n", "a\n\n", "  x\n     y\nz", "\r\n", "def f():\n     deep\n\n", "\n     deep"]


@pytest.mark.parametrize("text", EDGES)
def test_the_lines_and_final_newline_are_split_lines(text):
    lines, eol, pieces = split_chunks(text)
    assert (lines, eol) == split_lines(text)
    assert "\n".join(pieces) == "\n".join(lines)  # the chunks hold every line, in order


def test_random_texts_split_as_split_lines_does():
    rng = random.Random(7)
    alphabet = ["\n", " ", "     ", "x", "def f():", "\r", "#"]
    for _ in range(500):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(40)))
        lines, eol, _pieces = split_chunks(text)
        assert (lines, eol) == split_lines(text), repr(text)


def snapshot(bodies: list[str]) -> str:
    return "".join(f"def f{k}():\n     {body}\n     return x\n\n" for k, body in enumerate(bodies))


def test_a_chunk_seen_before_hands_back_its_very_strings():
    before, _eol, _pieces = split_chunks(snapshot(["a = 1", "b = 2", "c = 3"]))
    after, _eol, _pieces = split_chunks(snapshot(["a = 1", "b = 20", "c = 3"]))
    assert before != after
    shared = [k for k, (x, y) in enumerate(zip(before, after)) if x is y]
    unshared = [k for k, (x, y) in enumerate(zip(before, after)) if x is not y]
    assert unshared == [4, 5, 6]  # the edited function's chunk alone is new (its blank line: Python's one "")
    assert len(shared) == len(before) - 3


def test_a_long_chunk_is_split_but_not_kept(monkeypatch):
    monkeypatch.setattr(chunks, "_PIECE_CHARS", 10)
    text = "def f():\n     " + "y" * 50 + "\n"
    first, _eol, _pieces = split_chunks(text)
    again, _eol, _pieces = split_chunks(text)
    assert first == again == split_lines(text)[0]
    assert first[1] is not again[1]  # not remembered: each text splits its own


def test_the_memo_starts_again_when_full_and_still_splits_right(monkeypatch):
    monkeypatch.setattr(chunks, "_known", TextMemo(40))
    rng = random.Random(3)
    for _ in range(50):
        text = snapshot([f"v = {rng.randrange(5)}" for _ in range(rng.randrange(1, 6))])
        lines, eol, _pieces = split_chunks(text)
        assert (lines, eol) == split_lines(text)
        assert chunks._known.chars <= 40


def test_an_empty_line_stays_with_the_chunk_before_it():
    _lines, _eol, pieces = split_chunks("def f():\n     x\n\n\n  y\n     z\n")
    assert pieces == ["def f():\n     x\n\n", "  y\n     z"]  # a line with code in its first 5 columns starts one

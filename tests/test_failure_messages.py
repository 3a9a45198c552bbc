"""Failures that say what went wrong and where, never an empty `unexpected MemoryError: `."""

from __future__ import annotations

import pytest

from ir_trace.errors import one_line
from ir_trace.pipeline.base import explain


class Exhausting(str):
    """A text whose check runs out of memory, as a 100 MB line does under `ulimit -v`."""

    def isprintable(self):
        raise MemoryError


def test_a_memory_error_says_memory_ran_out_and_where():
    with pytest.raises(MemoryError) as info:
        one_line(Exhausting("x"))
    assert explain(info.value) == "ran out of memory in errors.one_line"


def test_an_unexpected_error_without_a_message_says_so():
    with pytest.raises(ValueError) as info:
        one_line(type("Odd", (str,), {"isprintable": lambda self: (_ for _ in ()).throw(ValueError())})("x"))
    assert explain(info.value) == "unexpected ValueError: no message in errors.one_line"

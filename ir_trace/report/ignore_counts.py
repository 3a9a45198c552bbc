"""A pair's line counts under the ignore modes, worked out once with its cached diff.

The page's sidebar shows every pass's +/- counts; ticking an ignore mode used to recount every pass
in the browser (2.5 s at 716 passes). The pair's diff step computes them instead, cached with its
hunks under the pair's content hashes, and the payload carries them (`ignore_counts` of a pass).

Which mode sets (the page lets a user tick any of them, so 2^n sets exist): each single mode the
page offers for the pair's language (`OFFERED`), the set of all of those, and the set of all four
modes (a report of PyPTO and MLIR traces offers all four, so "everything on" is that set there).
The page recounts any other set, and always a user-typed regex (which cannot be precomputed), pass
by pass in the browser as before (viewer_ignore.js, viewer_model.js `refreshEntry`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple, Protocol

from ir_trace.diffcore.linediff import changed_spans
from ir_trace.noise.normalize import MODES, IgnoreModes, line_key

OFFERED = {"pypto": ("ssa", "memref", "whitespace"), "mlir": ("ssa", "loc", "whitespace")}  # the page's checkboxes


class LineSpan(Protocol):
    """A hunk's before lines [a0, a1) and after lines [b0, b1) (`linediff.Hunk`, `pass_diff.PayloadHunk`)."""

    @property
    def a0(self) -> int: ...
    @property
    def a1(self) -> int: ...
    @property
    def b0(self) -> int: ...
    @property
    def b1(self) -> int: ...


def precomputed_sets(kind: str) -> list[IgnoreModes]:
    """The mode sets whose counts a pair of `kind` snapshots carries (see the module's rule)."""
    offered = OFFERED.get(kind, OFFERED["pypto"])
    sets = [IgnoreModes(frozenset([mode])) for mode in offered]
    sets += [IgnoreModes(frozenset(offered)), IgnoreModes(frozenset(MODES))]
    return sets


class Span(NamedTuple):
    """A hunk's before lines [a0, a1) replaced by after lines [b0, b1): all a count needs of it."""

    a0: int
    a1: int
    b0: int
    b1: int


def keyed_spans(
    a: list[str],
    b: list[str],
    a_eol: bool,
    b_eol: bool,
    a_functions,
    b_functions,
    exact: Sequence[LineSpan],
    key: Callable[[str], str],
    distinct: set[str] | None = None,
) -> Sequence[LineSpan]:
    """The spans of the hunks of a → b with lines compared by `key` (`line_key` of some modes). When the
    keys keep every two different lines apart, lines compare as printed and the exact hunks are the answer
    (the common case: a mode that touches nothing the pass changed costs one pass over the lines).
    `distinct`: the set of both snapshots' lines, when the caller has it already."""
    if keys_keep_lines_apart(distinct if distinct is not None else {*a, *b}, key):
        return exact
    return [Span(*span) for span in changed_spans(a, b, a_eol, b_eol, a_functions, b_functions, key)]


def keys_keep_lines_apart(distinct: set[str], key: Callable[[str], str]) -> bool:
    """Whether `key` maps no two of these different lines to one key."""
    return len(set(map(key, distinct))) == len(distinct)


def ignore_counts(
    a: list[str], b: list[str], a_eol: bool, b_eol: bool, a_functions, b_functions, exact: Sequence[LineSpan], kind: str
) -> dict[str, list[int]]:
    """`IgnoreModes.spec()` -> [inserted, deleted] under it, for each precomputed set."""
    counts: dict[str, list[int]] = {}
    distinct = {*a, *b}
    *own, every = precomputed_sets(kind)
    for modes in own:
        key = _shared_key(modes, kind)
        spans = keyed_spans(a, b, a_eol, b_eol, a_functions, b_functions, exact, key, distinct)
        counts[modes.spec()] = [sum(h.b1 - h.b0 for h in spans), sum(h.a1 - h.a0 for h in spans)]
    if _other_modes_inert(distinct, kind):  # every mode on keys each line as the language's own modes do
        counts[every.spec()] = counts[own[-1].spec()]
    else:
        key = _shared_key(every, kind)
        spans = keyed_spans(a, b, a_eol, b_eol, a_functions, b_functions, exact, key, distinct)
        counts[every.spec()] = [sum(h.b1 - h.b0 for h in spans), sum(h.a1 - h.a0 for h in spans)]
    return counts


def _other_modes_inert(distinct: set[str], kind: str) -> bool:
    """Whether the mode the language does not offer strips nothing of any line, so all four modes key every
    line as the language's own three do. The steps run memory, then locations, then SSA and whitespace
    (IgnoreModes._steps): on MLIR the memory step comes first, so a line without `pl.MemRef(` is left as it
    is; on PyPTO the location step sees the line without its memory annotations, and strips nothing of a
    text without `loc(` (loc_spans and the alias table's lines both need it)."""
    if kind == "mlir":
        return not any("pl.MemRef(" in line for line in distinct)
    without_memrefs = _shared_key(IgnoreModes(frozenset(["memref"])), kind)  # memoised: the memref set's keys
    return not any("loc(" in without_memrefs(line) for line in distinct)


def _shared_key(modes: IgnoreModes, kind: str) -> Callable[[str], str]:
    """The modes' line key, remembering keys across the pairs of a run: adjacent pairs share a snapshot,
    so each line is normalised once per set, not once per pair it is in."""
    spec = (modes.spec(), kind)
    memo = _memos.setdefault(spec, {})
    if len(memo) > _MEMO_LIMIT:
        memo.clear()
    return line_key(modes, memo, kind)


_memos: dict[tuple[str, str], dict[str, str]] = {}
_MEMO_LIMIT = 1 << 17  # lines remembered per set (then forgotten at once: a run's next pairs refill it)

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

from ir_trace.diffcore.linediff import MAX_LINE_EDITS, changed_spans
from ir_trace.diffcore.matching import match_sequences
from ir_trace.diffcore.structure import function_layout
from ir_trace.noise.mlir_normalize import IGNORED_LINE
from ir_trace.noise.normalize import MODES, IgnoreModes, untouched_without

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
    """`IgnoreModes.spec()` -> [inserted, deleted] under it, for each precomputed set.

    The counts are those of `keyed_spans` over both snapshots' lines, set by set, worked out at the cost
    of the change. The keyed diff is the exact one wherever the keys keep lines apart, and with every
    function in order its segments (`structure.function_layout`) do not depend on the keys, while a segment
    whose lines are equal has equal keys and is skipped: so only the segments the pass changed are keyed and
    diffed (`_keyed_blocks`). That diff is the answer whether or not the keys keep the lines apart, but for
    one difference: a keyed diff leaves out a block of lines ignored whole, the exact hunks keep it. Only
    when it left one out is `keys_keep_lines_apart` asked, of both snapshots' lines."""
    layout = function_layout(len(a), len(b), a, b, a_functions, b_functions, MAX_LINE_EDITS)
    keys_free = layout.a_keys is a and layout.b_keys is b  # no function moved: the segments hold for any keys
    changed = [seg for seg in layout.segments if a[seg[0] : seg[1]] != b[seg[2] : seg[3]]] if keys_free else []
    counts: dict[str, list[int]] = {}
    done: list[tuple[list, list[list]]] = []  # each set's keyed pieces and the blocks they gave
    for modes in precomputed_sets(kind):
        memo = _filled_memo(modes, kind, a, b, changed if keys_free else None)
        if keys_free:
            pieces = [(seg[0], seg[2], *_segment_keys(a, b, a_eol, b_eol, seg, memo)) for seg in changed]
        else:
            pieces = _moved_layout_pieces(a, b, a_eol, b_eol, a_functions, b_functions, memo)
        blocks = next((found for earlier, found in done if earlier == pieces), None)
        if blocks is None:
            blocks = _keyed_blocks(pieces)
            done.append((pieces, blocks))
        kept = [block for block in blocks if not block[4]]
        if len(kept) < len(blocks) and _apart(a, b, modes, kind, memo):
            spans: Sequence[LineSpan] = exact
        else:
            spans = [Span(*block[:4]) for block in kept]
        counts[modes.spec()] = [sum(h.b1 - h.b0 for h in spans), sum(h.a1 - h.a0 for h in spans)]
    return counts


def _apart(a: list[str], b: list[str], modes: IgnoreModes, kind: str, memo: dict[str, str]) -> bool:
    """`keys_keep_lines_apart` of both snapshots' lines (their keys put in `memo` first)."""
    distinct = {*a, *b}
    _remember_keys(list(distinct.difference(memo)), modes, kind, memo)
    return keys_keep_lines_apart(distinct, memo.__getitem__)


def _filled_memo(modes: IgnoreModes, kind: str, a: list[str], b: list[str], changed) -> dict[str, str]:
    """The set's remembered keys, holding every line of the changed segments (of all lines: `changed` None)."""
    memo = _key_memo(modes, kind)
    if changed is None:
        lines = {*a, *b}
    else:
        lines = set()
        for a0, a1, b0, b1 in changed:
            lines.update(a[a0:a1], b[b0:b1])
    _remember_keys(list(lines.difference(memo)), modes, kind, memo)
    return memo


def _segment_keys(a, b, a_eol, b_eol, segment, memo: dict[str, str]) -> tuple[list, list]:
    """The keys of one segment's lines on each side, as `linediff._line_keys` makes them (a last line
    without its newline keyed apart)."""
    a0, a1, b0, b1 = segment
    return _keys_of(a, a0, a1, a_eol, memo), _keys_of(b, b0, b1, b_eol, memo)


def _keys_of(lines: list[str], start: int, end: int, eol: bool, memo: dict[str, str]) -> list:
    keys: list = list(map(memo.__getitem__, lines[start:end]))
    if keys and not eol and end == len(lines):
        keys[-1] = (keys[-1], "no newline at end of file")
    return keys


def _moved_layout_pieces(a, b, a_eol, b_eol, a_functions, b_functions, memo: dict[str, str]) -> list:
    """The keyed pieces of every segment when a function moved (which ones moved depends on the keys):
    the layout `changed_key_spans` makes of all lines' keys, nothing when the keys are equal."""
    a_keys, b_keys = _keys_of(a, 0, len(a), a_eol, memo), _keys_of(b, 0, len(b), b_eol, memo)
    if a_keys == b_keys:
        return []
    layout = function_layout(len(a), len(b), a_keys, b_keys, a_functions, b_functions, MAX_LINE_EDITS)
    return [(a0, b0, layout.a_keys[a0:a1], layout.b_keys[b0:b1]) for a0, a1, b0, b1 in layout.segments]


def _keyed_blocks(pieces: list) -> list[list]:
    """`linediff._changed_blocks` of the keyed segments (a0, b0, a_keys, b_keys) given, in order: the blocks
    [a0, a1, b0, b1, ignored] of lines their keys do not match, touching ones merged; `ignored`: the block
    is made only of lines ignored whole (a keyed diff leaves it out)."""
    blocks: list[list] = []
    for a0, b0, a_keys, b_keys in pieces:
        if a_keys == b_keys:
            continue
        i = j = 0
        for mi, mj in [*match_sequences(a_keys, b_keys, MAX_LINE_EDITS), (len(a_keys), len(b_keys))]:
            if mi > i or mj > j:
                ignored = all(map(_ignored, a_keys[i:mi])) and all(map(_ignored, b_keys[j:mj]))
                if blocks and blocks[-1][1] == a0 + i and blocks[-1][3] == b0 + j:
                    blocks[-1][1], blocks[-1][3] = a0 + mi, b0 + mj
                    blocks[-1][4] = blocks[-1][4] and ignored
                else:
                    blocks.append([a0 + i, a0 + mi, b0 + j, b0 + mj, ignored])
            i, j = mi + 1, mj + 1
    return blocks


def _ignored(key) -> bool:
    """A key (a str, or a tuple for a last line without "\\n") of a line an ignore mode ignores whole."""
    return isinstance(key, str) and key.startswith(IGNORED_LINE)


def _key_memo(modes: IgnoreModes, kind: str) -> dict[str, str]:
    """The modes' remembered keys (line -> key), forgotten at once when full."""
    memo = _memos.setdefault((modes.spec(), kind), {})
    if len(memo) > _MEMO_LIMIT:
        memo.clear()
    return memo


def _remember_keys(lines: list[str], modes: IgnoreModes, kind: str, memo: dict[str, str]) -> None:
    """Put the keys of `lines` in `memo` (`_shared_key`'s, all at once): each step runs on the texts it has not
    seen, and a text without what its mode looks for (`normalize.untouched_without`) is its own output unscanned."""
    texts = lines
    for strip in modes.strips(kind):
        step_memo = _step_memo(strip)
        unseen = [text for text in dict.fromkeys(texts) if text not in step_memo]
        needle = untouched_without(strip)
        if needle is not None:
            step_memo.update((text, text) for text in unseen if needle not in text)
            unseen = [text for text in unseen if needle in text]
        step_memo.update(zip(unseen, map(strip, unseen)))
        texts = list(map(step_memo.__getitem__, texts))
    memo.update(zip(lines, texts))


def _step_memo(strip: Callable[[str], str]) -> dict[str, str]:
    memo = _step_memos.setdefault(strip, {})
    if len(memo) > _MEMO_LIMIT:
        memo.clear()
    return memo


_memos: dict[tuple[str, str], dict[str, str]] = {}
_step_memos: dict[Callable[[str], str], dict[str, str]] = {}
_MEMO_LIMIT = 1 << 17  # lines remembered per set and per step (then forgotten at once: the next pairs refill it)

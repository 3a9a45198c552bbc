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

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import NamedTuple, Protocol

from ir_trace.diffcore.linediff import MAX_LINE_EDITS, changed_spans, ignored_key
from ir_trace.diffcore.matching import common_prefix, common_suffix, match_sequences
from ir_trace.diffcore.structure import function_layout
from ir_trace.noise.long_keys import LongKey, bounded_key
from ir_trace.noise.normalize import MODES, IgnoreModes, untouched_without
from ir_trace.syntax import MEMO_LINE_CHARS

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
    key: Callable[[str], str | LongKey],
    distinct: set[str] | None = None,
) -> Sequence[LineSpan]:
    """The spans of the hunks of a → b with lines compared by `key` (`line_key` of some modes). When the
    keys keep every two different lines apart, lines compare as printed and the exact hunks are the answer
    (the common case: a mode that touches nothing the pass changed costs one pass over the lines).
    `distinct`: the set of both snapshots' lines, when the caller has it already."""
    if keys_keep_lines_apart(distinct if distinct is not None else {*a, *b}, key):
        return exact
    return [Span(*span) for span in changed_spans(a, b, a_eol, b_eol, a_functions, b_functions, key)]


def keys_keep_lines_apart(distinct: set[str], key: Callable[[str], str | LongKey]) -> bool:
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
    diffed (`_keyed_blocks`), each from its first exact hunk to its last where that is the same (`changed_piece`).
    That diff is the answer whether or not the keys keep the lines apart, but for
    one difference: a keyed diff leaves out a block of lines ignored whole, the exact hunks keep it. Only
    when it left one out is `keys_keep_lines_apart` asked, of both snapshots' lines."""
    layout = function_layout(len(a), len(b), a, b, a_functions, b_functions, MAX_LINE_EDITS)
    keys_free = layout.a_keys is a and layout.b_keys is b  # no function moved: the segments hold for any keys
    segments = _changed_segments(layout.segments, exact) if keys_free else []
    changed = [(segment, _cut(segment, first, last)) for segment, first, last in segments]
    counts: dict[str, list[int]] = {}
    done: list[tuple[list, list[list]]] = []  # each set's keyed pieces and the blocks they gave
    lines = _Lines(a, b, a_eol, b_eol)  # the pieces as the exact lines cut them, their matches once for the sets
    in_changed = _lines_in(a, b, [segment for segment, _cut in changed]) if keys_free else set()
    for modes in precomputed_sets(kind):
        keys = _Keys(modes, kind, a, b, a_eol, b_eol)
        spans: Sequence[LineSpan]
        if keys_free and keys.keep_apart(in_changed):  # the keyed diff's blocks are the exact hunks
            left = [hunk for hunk in exact if not keys.ignored_whole(hunk)]
            spans = exact if len(left) == len(exact) or keys.apart() else left
            counts[modes.spec()] = [sum(h.b1 - h.b0 for h in spans), sum(h.a1 - h.a0 for h in spans)]
            continue  # else its keys of the changed segments are known: `keep_apart` asked for them
        if keys_free:
            found = [keys.changed_piece(*where) for where in changed]
            pieces = [piece for piece in found if piece is not None]
        else:
            pieces = keys.moved_layout_pieces(a_functions, b_functions)
        blocks = next((given for earlier, given in done if earlier == pieces), None)
        if blocks is None:
            apart = keys_free and lines.apart_in(found, changed)
            blocks = _keyed_blocks(pieces, lines.matches(changed) if apart else _matches(pieces))
            done.append((pieces, blocks))
        kept = [block for block in blocks if not block[4]]
        if len(kept) < len(blocks) and keys.apart():
            spans = exact
        else:
            spans = [Span(*block[:4]) for block in kept]
        counts[modes.spec()] = [sum(h.b1 - h.b0 for h in spans), sum(h.a1 - h.a0 for h in spans)]
    return counts


def _changed_segments(
    segments, exact: Sequence[LineSpan]
) -> list[tuple[tuple[int, int, int, int], LineSpan, LineSpan]]:
    """(segment, its first hunk, its last hunk) of each segment an exact hunk has lines in, in order: the exact
    diff (of the same layout) found the other segments' lines equal, so their keys are too."""
    found: dict[int, list[LineSpan]] = {}
    for hunk in exact:  # the segments ending after the hunk starts and starting before it ends, on either side
        first = min(bisect_right(segments, hunk.a0, key=_A1), bisect_right(segments, hunk.b0, key=_B1))
        last = max(bisect_left(segments, hunk.a1, key=_A0), bisect_left(segments, hunk.b1, key=_B0))
        for at in range(first, last):
            a0, a1, b0, b1 = segments[at]
            if max(hunk.a0, a0) < min(hunk.a1, a1) or max(hunk.b0, b0) < min(hunk.b1, b1):
                found.setdefault(at, []).append(hunk)
    return [(segments[at], hunks[0], hunks[-1]) for at, hunks in sorted(found.items())]


_A0, _A1, _B0, _B1 = (itemgetter(at) for at in range(4))  # a segment's (a0, a1, b0, b1), for bisect


def _cut(segment, first: LineSpan, last: LineSpan) -> tuple[int, int, int, int]:
    """The segment from its first exact hunk to its last: the lines around are equal on both sides."""
    a0, a1, b0, b1 = segment
    head = max(0, min(first.a0 - a0, first.b0 - b0))
    tail = max(0, min(a1 - last.a1, b1 - last.b1))
    return a0 + head, a1 - tail, b0 + head, b1 - tail


def _lines_in(a: list[str], b: list[str], ranges) -> set[str]:
    """The lines of these (a0, a1, b0, b1) ranges, both sides."""
    lines: set[str] = set()
    for a0, a1, b0, b1 in ranges:
        lines.update(a[a0:a1], b[b0:b1])
    return lines


class _Keys:
    """One mode set's keys of a pair's lines, taken only where asked (the key memo of the run filled as it goes)."""

    def __init__(self, modes: IgnoreModes, kind: str, a: list[str], b: list[str], a_eol: bool, b_eol: bool):
        self.modes, self.kind = modes, kind
        self.a, self.b, self.a_eol, self.b_eol = a, b, a_eol, b_eol
        self.shared = self.memo = _key_memo(modes, kind)

    def know(self, lines) -> None:
        """Make sure the memo holds the keys of these lines. A pair with a huge line (past MEMO_LINE_CHARS)
        keys its lines in a memo of its own from then on, gone with it: the run's memo would keep the line for
        the whole process (its key is a digest, and no step memo sees it: `_remember_keys`)."""
        unseen = (lines if isinstance(lines, set) else set(lines)).difference(self.memo)
        if not unseen:
            return
        if self.memo is self.shared and max(map(len, unseen)) > MEMO_LINE_CHARS:
            self.memo = dict(self.shared)
        _remember_keys(list(unseen), self.modes, self.kind, self.memo)

    def of(self, lines: list[str], start: int, end: int, eol: bool) -> list:
        """The keys of lines[start:end] (known already) as `linediff._line_keys` makes them (a last line without
        its newline keyed apart)."""
        keys: list = list(map(self.memo.__getitem__, lines[start:end]))
        if keys and not eol and end == len(lines):
            keys[-1] = (keys[-1], "no newline at end of file")
        return keys

    def changed_piece(self, segment, cut: tuple[int, int, int, int]) -> tuple | None:
        """(a0, b0, a_keys, b_keys) of a segment the pass changed, None when its keys are equal. Keyed from its
        first hunk to its last only (the lines around are equal, so are their keys), when that leaves the
        keyed diff as it is: its first step strips the keys' common ends, and with something left on each side
        after that, what is left is the same, cut or not (else the whole segment is keyed)."""
        a_keys = self.of(self.a, cut[0], cut[1], self.a_eol)
        b_keys = self.of(self.b, cut[2], cut[3], self.b_eol)
        if a_keys == b_keys:
            return None
        same = common_prefix(a_keys, b_keys, 0, len(a_keys), 0, len(b_keys))
        same += common_suffix(a_keys, b_keys, same, len(a_keys), same, len(b_keys))
        if same < len(a_keys) and same < len(b_keys):
            return (cut[0], cut[2], a_keys, b_keys)
        a0, a1, b0, b1 = segment
        self.know(_lines_in(self.a, self.b, [segment]))
        return (a0, b0, self.of(self.a, a0, a1, self.a_eol), self.of(self.b, b0, b1, self.b_eol))

    def moved_layout_pieces(self, a_functions, b_functions) -> list:
        """The keyed pieces of every segment when a function moved (which ones moved depends on the keys):
        the layout `changed_key_spans` makes of all lines' keys, nothing when the keys are equal."""
        self.know({*self.a, *self.b})
        a_keys, b_keys = self.of(self.a, 0, len(self.a), self.a_eol), self.of(self.b, 0, len(self.b), self.b_eol)
        if a_keys == b_keys:
            return []
        layout = function_layout(len(a_keys), len(b_keys), a_keys, b_keys, a_functions, b_functions, MAX_LINE_EDITS)
        return [(a0, b0, layout.a_keys[a0:a1], layout.b_keys[b0:b1]) for a0, a1, b0, b1 in layout.segments]

    def keep_apart(self, lines: set[str]) -> bool:
        """Whether the keys of these lines (every line of the segments a pass changed, both sides) keep them apart:
        the keys are then the lines under other names, and the keyed diff of each segment makes the blocks its exact
        diff makes (matching looks at nothing but which keys are equal). Nearly every mode set on nearly every pass:
        a pass rarely changes only what a mode ignores."""
        self.know(lines)
        return len(set(map(self.memo.__getitem__, lines))) == len(lines)

    def ignored_whole(self, hunk: LineSpan) -> bool:
        """Whether a hunk's lines are all ignored whole (a keyed diff leaves such a block out)."""
        a_keys, b_keys = self.of(self.a, hunk.a0, hunk.a1, self.a_eol), self.of(self.b, hunk.b0, hunk.b1, self.b_eol)
        return all(map(ignored_key, a_keys)) and all(map(ignored_key, b_keys))

    def apart(self) -> bool:
        """`keys_keep_lines_apart` of both snapshots' lines."""
        distinct = {*self.a, *self.b}
        self.know(distinct)
        return keys_keep_lines_apart(distinct, self.memo.__getitem__)


class _Lines(_Keys):
    """The pair's lines as their own keys: a set whose keys keep a piece's lines apart matches them as these do,
    so the sets that do share one line diff of each piece (`apart_in`, `matches`)."""

    def __init__(self, a: list[str], b: list[str], a_eol: bool, b_eol: bool):
        self.a, self.b, self.a_eol, self.b_eol = a, b, a_eol, b_eol
        self._pieces: list | None = None
        self._sizes: list[int] = []
        self._matches: list | None = None

    def know(self, lines) -> None:
        return None

    def of(self, lines: list[str], start: int, end: int, eol: bool) -> list:
        found: list = lines[start:end]
        if found and not eol and end == len(lines):
            found[-1] = (found[-1], "no newline at end of file")
        return found

    def pieces(self, changed) -> list:
        if self._pieces is None:
            self._pieces = [self.changed_piece(*where) for where in changed]
            self._sizes = [-1 if piece is None else len({*piece[2], *piece[3]}) for piece in self._pieces]
        return self._pieces

    def apart_in(self, found: list, changed) -> bool:
        """Whether these keyed pieces (`changed_piece` of each changed segment) are the lines' own pieces with
        no two different lines keyed alike in any."""
        own = self.pieces(changed)
        return all(
            piece is not None
            and line_piece is not None
            and piece[:2] == line_piece[:2]
            and len(piece[2]) == len(line_piece[2])
            and len(piece[3]) == len(line_piece[3])
            and len({*piece[2], *piece[3]}) == size
            for piece, line_piece, size in zip(found, own, self._sizes)
        )

    def matches(self, changed) -> list:
        if self._matches is None:
            self._matches = _matches(self.pieces(changed))
        return self._matches


def _matches(pieces: list) -> list:
    """Each piece's matched (i, j), None for a piece whose two sides are equal."""
    return [
        None if a_keys == b_keys else match_sequences(a_keys, b_keys, MAX_LINE_EDITS)
        for _a0, _b0, a_keys, b_keys in pieces
    ]


def _keyed_blocks(pieces: list, matches: list) -> list[list]:
    """`linediff._changed_blocks` of the keyed segments (a0, b0, a_keys, b_keys) given, in order: the blocks
    [a0, a1, b0, b1, ignored] of lines their keys do not match, touching ones merged; `ignored`: the block
    is made only of lines ignored whole (a keyed diff leaves it out)."""
    blocks: list[list] = []
    for (a0, b0, a_keys, b_keys), matched in zip(pieces, matches):
        if matched is None:
            continue
        i = j = 0
        for mi, mj in [*matched, (len(a_keys), len(b_keys))]:
            if mi > i or mj > j:
                ignored = all(map(ignored_key, a_keys[i:mi])) and all(map(ignored_key, b_keys[j:mj]))
                if blocks and blocks[-1][1] == a0 + i and blocks[-1][3] == b0 + j:
                    blocks[-1][1], blocks[-1][3] = a0 + mi, b0 + mj
                    blocks[-1][4] = blocks[-1][4] and ignored
                else:
                    blocks.append([a0 + i, a0 + mi, b0 + j, b0 + mj, ignored])
            i, j = mi + 1, mj + 1
    return blocks


def _key_memo(modes: IgnoreModes, kind: str) -> dict[str, str | LongKey]:
    """The modes' remembered keys (line -> key), forgotten at once when full."""
    memo = _memos.setdefault((modes.spec(), kind), {})
    if len(memo) > _MEMO_LIMIT:
        memo.clear()
    return memo


def _remember_keys(
    lines: list[str],
    modes: IgnoreModes,
    kind: str,
    memo: dict[str, str | LongKey],
) -> None:
    """Put the keys of `lines` in `memo` (`_shared_key`'s, all at once): each step runs on the texts it has not
    seen (in the run's memo of that step), and a text without what its mode looks for (`normalize.untouched_without`)
    is its own output unscanned. A line past MEMO_LINE_CHARS is keyed alone, its long key a digest (long_keys)."""
    if lines and max(map(len, lines)) > MEMO_LINE_CHARS:
        huge = [line for line in lines if len(line) > MEMO_LINE_CHARS]
        memo.update(zip(huge, map(bounded_key(modes, kind, MEMO_LINE_CHARS), huge)))
        lines = [line for line in lines if len(line) <= MEMO_LINE_CHARS]
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


_memos: dict[tuple[str, str], dict[str, str | LongKey]] = {}
_step_memos: dict[Callable[[str], str], dict[str, str]] = {}
_MEMO_LIMIT = 1 << 17  # lines remembered per set and per step (then forgotten at once: the next pairs refill it)

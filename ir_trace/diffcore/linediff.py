"""Line diff of two snapshots: hunks, the edited lines paired inside them, moved lines.

`ir_trace/report/assets/linediff.js` (`IRTraceDiff`, behind `Compare with`) computes the very same hunks,
pairs, ranges and moves; `tests/test_linediff_js.py` holds the two to each other on every
real sample. The steps, each bounded so any input diffs in near-linear time:

1. Top-level functions (and MLIR symbol ops) are matched by key (`Class.method`, `@f`) whatever
   their order. The heaviest set of them still in order (by size, unchanged ones first) stays in
   place; lines are matched only inside those and in the stretches between them
   (`matching.match_sequences`). A function matched by key but out of that order moved: its lines
   are deleted where it was and inserted where it is, never matched or paired with another's, and
   its lines equal in both copies are moved lines.
2. In each replaced block, lines are paired to maximise their total similarity without
   crossing (a dynamic programme); among equally similar pairings, lines equal but for their
   indentation, then lines calling the same qualified operation, are preferred.
3. A paired line's changed characters come from `intraline.changed_ranges`.
4. A deleted line whose exact text is inserted elsewhere (once each, unpaired) is moved.

A replaced block made only of lines an ignore mode ignores whole (keys starting `IGNORED_LINE`, as
MLIR's `#loc3 = loc(...)` under `loc`) is no change.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass
from itertools import compress, islice, repeat
from operator import itemgetter, ne

from ir_trace.diffcore.intraline import changed_ranges, changed_ranges_ignoring
from ir_trace.diffcore.long_lines import digest_text, split_words
from ir_trace.diffcore.matching import match_sequences
from ir_trace.diffcore.structure import Layout, function_layout
from ir_trace.noise.mlir_normalize import IGNORED_LINE
from ir_trace.syntax import MEMO_LINE_CHARS, WINDOW_CHARS, text_windows
from ir_trace.syntax.functions import slice_functions

MAX_LINE_EDITS = 500  # Myers budget for lines; beyond it unique lines anchor the match
MAX_PAIRING_CELLS = 250_000  # a bigger replaced block is paired in diagonal chunks of this size...
WORDS_PER_CELL = 64  # ...counting a pair of lines as one cell per 64 words the block's lines average
SIMILAR = 1000  # of 2000: lines sharing less than half their words are never paired...
RENAMED = 1600  # ...unless 80 % of their subwords (`x`, `ssa`, `v0` of `x__ssa_v0`) agree
OPERATION_TOKENS = 500  # the operation a line calls is looked for among its first tokens only
_WORD_BYTES = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_"
_WORDS_ONLY = bytes(c if c in _WORD_BYTES else 32 for c in range(256))  # all else becomes a space
_SUBWORDS_ONLY = _WORDS_ONLY.replace(b"_", b" ")
_VALUE_NAME = re.compile(r"[%^#][A-Za-z0-9_$.\-]+")  # MLIR values, blocks, aliases: `%12`, `^bb2`, `#map3`
_DIGITS = re.compile(r"[0-9]+")
_INDENT = re.compile(r"[ \t]*")
_LEADING_CALL = re.compile(r"([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+)[ \t\r\f\v]*\(")
_CALL_TOKEN = re.compile(r"[A-Za-z0-9_]+|[ \t\r\f\v]+|.", re.DOTALL)
_COMPUTE = object()  # default for the function lists: slice the snapshot here

Ranges = tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class LinePair:
    """Before line `a` and after line `b` (absolute indices) are one line, edited."""

    a: int
    b: int
    a_ranges: Ranges
    b_ranges: Ranges


@dataclass(frozen=True)
class Hunk:
    """Before lines [a0, a1) are replaced by after lines [b0, b1).

    `moved`: (before line, after line) of the moved lines with either end in this hunk;
    `no_eol`: whether each side's last line is in this hunk and lacks its final newline;
    `bom`: whether each side starts with a byte order mark, when that differs and line 0 is here.
    """

    a0: int
    a1: int
    b0: int
    b1: int
    pairs: tuple[LinePair, ...] = ()
    moved: tuple[tuple[int, int], ...] = ()
    no_eol: tuple[bool, bool] | None = None
    bom: tuple[bool, bool] | None = None


def split_lines(text: str) -> tuple[list[str], bool]:
    """Lines without their "\\n", and whether the text ends with one (so joining is lossless)."""
    lines = text.split("\n")
    eol = text.endswith("\n")
    if lines[-1] == "":
        lines.pop()
    return lines, eol


def join_lines(lines: list[str], eol: bool) -> str:
    return "\n".join(lines) + ("\n" if eol else "")


def diff_snapshots(
    a: list[str],
    b: list[str],
    a_eol: bool = True,
    b_eol: bool = True,
    a_functions=_COMPUTE,
    b_functions=_COMPUTE,
    line_key: Callable[[str], str] | None = None,
    line_pieces: Callable[[str], list[tuple[int, int]] | None] | None = None,
) -> list[Hunk]:
    """Hunks turning `a` into `b`.

    `a_functions` / `b_functions`: the snapshots' (key, start, end) functions as in the report
    (None when a snapshot cannot be sliced); sliced here when not given. `line_key` maps a line
    to the key it is compared by (lines with equal keys count as unchanged), so an ignore mode
    can normalise lines; by default a line is its own key. `line_pieces` (with `line_key`: the
    same modes' `IgnoreModes.kept_pieces`) keeps the emphasis of edited lines off ignored text.
    """
    a_keys, b_keys = _line_keys(a, a_eol, line_key), _line_keys(b, b_eol, line_key)
    if a_keys == b_keys:
        return []
    fns_a = _functions(a) if a_functions is _COMPUTE else a_functions
    fns_b = _functions(b) if b_functions is _COMPUTE else b_functions
    layout = function_layout(len(a), len(b), a_keys, b_keys, fns_a, fns_b, MAX_LINE_EDITS)
    blocks = _changed_blocks(layout.a_keys, layout.b_keys, layout.segments, keyed=line_key is not None)
    paired = [(block[:4], [p for piece in block[4] for p in _pair_apart(a, b, piece, layout)]) for block in blocks]
    moves = _MovesByEnd(sorted(_moves(a, b, layout.a_keys, layout.b_keys, paired) + layout.moved_lines))
    emphasis = _emphasis(line_pieces)
    return [_hunk(a, b, a_eol, b_eol, block, pairs, moves, emphasis) for block, pairs in paired]


def changed_spans(
    a: list[str], b: list[str], a_eol: bool, b_eol: bool, a_functions, b_functions, line_key: Callable[[str], Hashable]
) -> list[tuple[int, int, int, int]]:
    """The (a0, a1, b0, b1) of the hunks `diff_snapshots` gives with `line_key`, without pairing their
    lines (what counting the lines changed needs: a pass's counts under an ignore mode)."""
    keys_a, keys_b = [line_key(line) for line in a], [line_key(line) for line in b]
    return changed_key_spans(keys_a, keys_b, a_eol, b_eol, a_functions, b_functions)


def changed_key_spans(
    keys_a: list, keys_b: list, a_eol: bool, b_eol: bool, a_functions, b_functions
) -> list[tuple[int, int, int, int]]:
    """`changed_spans` of the lines' keys, given (a caller that keeps them per snapshot keys each line once)."""
    a_keys, b_keys = _line_keys(keys_a, a_eol), _line_keys(keys_b, b_eol)
    if a_keys == b_keys:
        return []
    layout = function_layout(len(a_keys), len(b_keys), a_keys, b_keys, a_functions, b_functions, MAX_LINE_EDITS)
    return [block[:4] for block in _changed_blocks(layout.a_keys, layout.b_keys, layout.segments, keyed=True)]


def _emphasis(line_pieces) -> Callable[[str, str], tuple[Ranges, Ranges]]:
    """Changed ranges of a paired line: exact, or skipping what `line_pieces` leaves out."""
    if line_pieces is None:
        return changed_ranges
    return lambda x, y: changed_ranges_ignoring(x, y, line_pieces(x), line_pieces(y))


def _line_keys(lines: list[str], eol: bool, line_key: Callable[[str], str] | None = None) -> list:
    """A last line without "\\n" differs from the same line with one."""
    if line_key is not None:
        lines = [line_key(line) for line in lines]
    if lines and not eol:
        return lines[:-1] + [(lines[-1], "no newline at end of file")]
    return lines


_sliced: dict[tuple[str, ...], list[tuple[str, int, int]] | None] = {}


def _functions(lines: list[str]) -> list[tuple[str, int, int]] | None:
    """Memoised for the last few texts: diffing adjacent snapshots slices each one twice."""
    key = tuple(lines)
    if key not in _sliced:
        found = slice_functions(lines).functions
        if len(_sliced) >= 4:
            del _sliced[next(iter(_sliced))]
        _sliced[key] = None if found is None else [(f.key, f.start, f.end) for f in found]
    return _sliced[key]


def _changed_blocks(a_keys: list, b_keys: list, segments, keyed: bool = False) -> list[tuple]:
    """Non-equal blocks (a0, a1, b0, b1, pieces), touching ones merged: lines matched within each
    segment (a function in place, a stretch between). `pieces`: the block's part in each segment, paired
    apart (a function's line is never paired with a line of the text around it). `keyed` (lines compared
    by an ignore mode's keys): a block of lines the modes ignore whole is left out."""
    blocks: list[list] = []
    for a0, a1, b0, b1 in _unequal(a_keys, b_keys, segments):
        i, j = a0, b0
        for mi, mj in [*match_sequences(a_keys, b_keys, MAX_LINE_EDITS, a0, a1, b0, b1), (a1, b1)]:
            if mi > i or mj > j:
                if blocks and blocks[-1][1] == i and blocks[-1][3] == j:
                    blocks[-1][1], blocks[-1][3] = mi, mj
                    blocks[-1][4].append((i, mi, j, mj))
                else:
                    blocks.append([i, mi, j, mj, [(i, mi, j, mj)]])
            i, j = mi + 1, mj + 1
    kept = [
        block
        for block in blocks
        if not (keyed and _all_ignored(a_keys, block[0], block[1], b_keys, block[2], block[3]))
    ]
    return [tuple(block) for block in kept]


def _unequal(a_keys: list, b_keys: list, segments) -> list[tuple[int, int, int, int]]:
    """The segments whose lines differ, in order. Compared with C iterators (no bytecode per segment:
    a pair has thousands, and a pass changes a few), each side's slices cut by `map(slice, ...)`."""
    sides_a = map(a_keys.__getitem__, map(slice, map(itemgetter(0), segments), map(itemgetter(1), segments)))
    sides_b = map(b_keys.__getitem__, map(slice, map(itemgetter(2), segments), map(itemgetter(3), segments)))
    return list(compress(segments, map(ne, sides_a, sides_b)))


def _all_ignored(a_keys: list, a0: int, a1: int, b_keys: list, b0: int, b1: int) -> bool:
    return all(map(ignored_key, a_keys[a0:a1])) and all(map(ignored_key, b_keys[b0:b1]))


def ignored_key(key) -> bool:
    """A key (a str, a long key's digest (noise.long_keys.LongKey), or a tuple for a last line without "\\n")
    of a line an ignore mode ignores whole."""
    return key.startswith(IGNORED_LINE) if isinstance(key, str) else getattr(key, "ignored", False)


# ---------- pairing inside a replaced block ----------


def _pair_apart(a: list[str], b: list[str], block, layout: Layout) -> list[tuple[int, int]]:
    """A block's pairs, a moved function's lines left out (they belong to no line here)."""
    a0, a1, b0, b1 = block
    if not any(i in layout.moved_a for i in range(a0, a1)) and not any(j in layout.moved_b for j in range(b0, b1)):
        return _pair_block(a, b, a0, a1, b0, b1)
    rows_a = [i for i in range(a0, a1) if i not in layout.moved_a]
    rows_b = [j for j in range(b0, b1) if j not in layout.moved_b]
    pairs = _pair_block([a[i] for i in rows_a], [b[j] for j in rows_b], 0, len(rows_a), 0, len(rows_b))
    return [(rows_a[i], rows_b[j]) for i, j in pairs]


def align_replace_block(a: list[str], b: list[str]) -> list[tuple[int, int]]:
    """Pairs (i, j) of the lines of one replaced block that are the same line edited."""
    return _pair_block(a, b, 0, len(a), 0, len(b))


def _pair_block(a: list[str], b: list[str], a0: int, a1: int, b0: int, b1: int) -> list[tuple[int, int]]:
    """Lines only re-indented are paired first (a line moved out of a loop keeps its own copy
    rather than the line that took its place at the old indent); the rest between them."""
    pairs, i, j = [], a0, b0
    for ai, bj in _reindented(a, b, a0, a1, b0, b1):
        pairs += _pair_between(a, b, i, ai, j, bj)
        pairs.append((ai, bj))
        i, j = ai + 1, bj + 1
    return pairs + _pair_between(a, b, i, a1, j, b1)


def _reindented(a: list[str], b: list[str], a0: int, a1: int, b0: int, b1: int) -> list[tuple[int, int]]:
    """(i, j) of lines equal but for their indentation, each the only line of its text on its
    side of the block and more than a bracket or two: the longest set of them that do not cross."""
    if a1 == a0 or b1 == b0:
        return []
    only_a: dict[str, int] = {}
    for i in range(a0, a1):
        body = _profile(a[i])[0]
        only_a[body] = -1 if body in only_a else i
    only_b: dict[str, int] = {}
    for j in range(b0, b1):
        body = _profile(b[j])[0]
        only_b[body] = -1 if body in only_b else j
    found = sorted(
        (i, only_b[body])
        for body, i in only_a.items()
        if i >= 0 and only_b.get(body, -1) >= 0 and a[i] != b[only_b[body]] and _substantial(a[i])
    )
    return _increasing(found)


def _increasing(pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The longest run of `pairs` (sorted by i) whose j increase too (patience sorting)."""
    tails: list[int] = []  # tails[k]: index of the pair ending the best run of length k + 1
    before = [-1] * len(pairs)
    for k, (_i, j) in enumerate(pairs):
        lo, hi = 0, len(tails)
        while lo < hi:
            mid = (lo + hi) // 2
            if pairs[tails[mid]][1] < j:
                lo = mid + 1
            else:
                hi = mid
        before[k] = tails[lo - 1] if lo else -1
        if lo == len(tails):
            tails.append(k)
        else:
            tails[lo] = k
    run, k = [], tails[-1] if tails else -1
    while k >= 0:
        run.append(pairs[k])
        k = before[k]
    return run[::-1]


def _pair_between(a: list[str], b: list[str], a0: int, a1: int, b0: int, b1: int) -> list[tuple[int, int]]:
    """Optimal pairing; a block whose work (line pairs, weighted by the lines' word counts)
    exceeds MAX_PAIRING_CELLS is cut into diagonal chunks first, so its cost stays bounded."""
    n, m = a1 - a0, b1 - b0
    if not n or not m:
        return []
    words = sum(len(_profile(line)[1]) for line in a[a0:a1]) + sum(len(_profile(line)[1]) for line in b[b0:b1])
    work = n * m * (1 + words // (WORDS_PER_CELL * (n + m)))
    chunks = min(-(-work // MAX_PAIRING_CELLS), max(n, m))
    pairs = []
    for c in range(chunks):
        pairs += _pair_chunk(
            a, b, a0 + n * c // chunks, a0 + n * (c + 1) // chunks, b0 + m * c // chunks, b0 + m * (c + 1) // chunks
        )
    return pairs


def _pair_chunk(a: list[str], b: list[str], a0: int, a1: int, b0: int, b1: int) -> list[tuple[int, int]]:
    """Non-crossing pairs of maximal total weight (a weighted longest common subsequence)."""
    n, m = a1 - a0, b1 - b0
    if not n or not m:
        return []
    prof_a, prof_b = [_profile(line) for line in a[a0:a1]], [_profile(line) for line in b[b0:b1]]
    scale = 3 * min(n, m) + 1  # preferences add at most 3 per pair: they only break ties
    best = [[0] * (m + 1)]
    weights: dict[tuple[int, int], int] = {}
    # _similarity inlined, each profile's fields read once: the loop runs n * m times
    bodies_b = [pb[0] for pb in prof_b]
    words_b = [pb[1] for pb in prof_b]
    sizes_b = [len(pb[1]) for pb in prof_b]
    counts_b = [pb[2] for pb in prof_b]
    for i, pa in enumerate(prof_a):
        above, row = best[i], [0]
        body_a, words_a, count_a = pa[0], pa[1], pa[2]
        size_a = len(words_a)
        for j in range(m):
            score = above[j + 1] if above[j + 1] > row[j] else row[j]
            if body_a == bodies_b[j]:
                similarity = 2000
            else:
                size_b = sizes_b[j]
                total = size_a + size_b
                if size_a and size_b and 4 * (size_a if size_a < size_b else size_b) >= total:
                    similarity = 4000 * len(words_a & words_b[j]) // total
                else:
                    similarity = 0
                if similarity < SIMILAR:
                    if count_a != counts_b[j]:  # a rename keeps the number of words
                        similarity = 0
                    else:
                        similarity = SIMILAR if _dice(_subwords(pa), _subwords(prof_b[j])) >= RENAMED else 0
            if similarity:
                w = weights[i, j] = similarity * scale + _preference(a[a0 + i], b[b0 + j], pa, prof_b[j])
                if above[j] + w > score:
                    score = above[j] + w
            row.append(score)
        best.append(row)
    return _trace_pairs(best, weights, a0, b0)


def _trace_pairs(best: list[list[int]], weights: dict, a0: int, b0: int) -> list[tuple[int, int]]:
    """Walk the table back from its corner, preferring a pair, then skipping a line of `a`."""
    pairs = []
    i, j = len(best) - 1, len(best[0]) - 1
    while i and j:
        w = weights.get((i - 1, j - 1), 0)
        if w and best[i][j] == best[i - 1][j - 1] + w:
            i, j = i - 1, j - 1
            pairs.append((a0 + i, b0 + j))
        elif best[i][j] == best[i - 1][j]:
            i -= 1
        else:
            j -= 1
    pairs.reverse()
    return pairs


_profiles: dict[str, list] = {}
_operations: dict[str, str | None] = {}


def _profile(line: str) -> list:
    """(line without indentation, its (word, count) pairs, how many words, its subwords
    or None until needed), memoised: a line deleted by one pass was usually inserted by the
    one before. Words come from bytes.translate + split, C speed; the digits of MLIR value, block
    and alias names are no part of them (the printer renumbers `%12` after every inserted op)."""
    found = _profiles.get(line)
    if found is None:
        if len(line) > WINDOW_CHARS and len(line) - (indent := _indent_of(line)) > WINDOW_CHARS:
            return _long_profile(line, indent)
        body = line.lstrip(" \t")
        text = _VALUE_NAME.sub(_without_digits, body) if "%" in body or "^" in body or "#" in body else body
        words = text.encode("utf-8", "surrogatepass").translate(_WORDS_ONLY).split()
        found = [body, frozenset(Counter(words).items()), len(words), None]
        if len(_profiles) >= 1 << 15:
            _profiles.clear()
        if len(line) <= MEMO_LINE_CHARS:
            _profiles[line] = found
    return found


def _indent_of(line: str) -> int:
    """How many spaces and tabs start the line, found in place (`lstrip` would copy a huge line)."""
    found = _INDENT.match(line)
    return found.end() if found else 0


def _long_profile(line: str, indent: int) -> list:
    """`_profile` of a line whose body is past a window, worked out a window at a time (long_lines): its body
    as a digest, so its subwords and operation are found here too (a fifth field)."""
    words = split_words(
        window.encode("utf-8", "surrogatepass").translate(_WORDS_ONLY) for window in _named(line, indent)
    )
    subwords = split_words(
        window.encode("utf-8", "surrogatepass").translate(_SUBWORDS_ONLY) for window in text_windows(line, indent)
    )
    body = digest_text(text_windows(line, indent))
    return [body, frozenset(Counter(words).items()), len(words), frozenset(subwords), operation(line, indent)]


def _named(line: str, start: int) -> Iterator[str]:
    """line[start:] in windows, the digits of its MLIR value, block and alias names left out (`_profile`)."""
    at = start
    if any(line.find(sigil, start) >= 0 for sigil in "%^#"):
        for name in _VALUE_NAME.finditer(line, start):
            yield from text_windows(line, at, name.start())
            yield from map(_DIGITS.sub, repeat(""), text_windows(line, name.start(), name.end()))
            at = name.end()
    yield from text_windows(line, at)


def _without_digits(match: re.Match) -> str:
    return _DIGITS.sub("", match.group())


def _subwords(profile: list) -> frozenset:
    if profile[3] is None:
        profile[3] = frozenset(profile[0].encode("utf-8", "surrogatepass").translate(_SUBWORDS_ONLY).split())
    return profile[3]


def _similarity(pa: list, pb: list) -> int:
    """How alike two lines are, in 2000ths; 0 when they must not pair.

    2000 for lines equal but for indentation; else the Dice coefficient of their (word, count)
    sets when at least SIMILAR; else SIMILAR, the least pairable, when their subwords agree
    (RENAMED) and their number of words is the same: every argument of a `def` renamed
    `x` -> `x__ssa_v0` still makes one line.
    """
    if pa[0] == pb[0]:
        return 2000
    words = _dice(pa[1], pb[1])
    if words >= SIMILAR:
        return words
    if pa[2] != pb[2]:  # a rename keeps the number of words
        return 0
    return SIMILAR if _dice(_subwords(pa), _subwords(pb)) >= RENAMED else 0


def _dice(x: frozenset, y: frozenset) -> int:
    """2|x & y| / (|x| + |y|) in 2000ths; 0 when the sizes alone rule out half of that."""
    total = len(x) + len(y)
    if not x or not y or 4 * min(len(x), len(y)) < total:
        return 0
    return 4000 * len(x & y) // total


def _preference(x: str, y: str, px: list, py: list) -> int:
    """Tie-breakers: 2 for lines equal but for indentation, 1 for calling the same operation."""
    op_x = _operations[x] if x in _operations else _operation_of(x, px)
    op_y = _operations[y] if y in _operations else _operation_of(y, py)
    return (2 if px[0] == py[0] else 0) + (1 if op_x is not None and op_x == op_y else 0)


def _operation_of(line: str, profile: list) -> str | None:
    found = profile[4] if len(profile) > 4 else operation(profile[0])
    if len(_operations) >= 1 << 15:
        _operations.clear()
    if len(line) <= MEMO_LINE_CHARS:
        _operations[line] = found
    return found


def operation(line: str, start: int = 0) -> str | None:
    """The first qualified operation line[start:] calls (`pl.add`), right of an assignment when there
    is one: a dotted chain of names followed by "(", found in one pass over the tokens (in place: no
    copy of the line's right-hand side)."""
    assigned = line.find(" = ", start)
    at = assigned + 3 if assigned >= 0 else start
    leading = _LEADING_CALL.match(line, at)
    if leading:  # the usual `x: T = pl.op(...)`, without walking the tokens
        return leading[1]
    if line.find("(", at) < 0:  # no call at all (`%0 = arith.constant 0 : index`): no walk over its tokens
        return None
    state, start, end, names = 0, 0, 0, 0  # state: 0 nothing, 1 after a name, 2 after its ".", 3 after spaces
    for match in islice(_CALL_TOKEN.finditer(line, at), OPERATION_TOKENS):
        tok = match[0]
        first = tok[0]
        if first.isalpha() and first.isascii() or first == "_":
            if state == 2:
                names += 1
            else:
                start, names = match.start(), 1
            state, end = 1, match.end()
        elif tok == "." and state == 1:
            state = 2
        elif first in " \t\r\f\v" and state == 1:
            state = 3
        elif tok == "(" and state in (1, 3) and names >= 2:
            return match.string[start:end]
        else:
            state = 0
    return None


# ---------- moved lines, end-of-file and byte-order marks ----------


def _moves(a: list[str], b: list[str], a_keys: list, b_keys: list, paired: list) -> list[tuple[int, int]]:
    """(deleted line, inserted line) pairs of one text moved: unpaired on both sides, the only
    such line with that text on each side, and more than a bracket or two."""
    gone: dict = {}
    come: dict = {}
    for (a0, a1, b0, b1), pairs in paired:
        paired_a, paired_b = {i for i, _ in pairs}, {j for _, j in pairs}
        for i in range(a0, a1):
            if i not in paired_a and _substantial(a[i]):
                gone[a_keys[i]] = -1 if a_keys[i] in gone else i
        for j in range(b0, b1):
            if j not in paired_b and _substantial(b[j]):
                come[b_keys[j]] = -1 if b_keys[j] in come else j
    return sorted((i, come[key]) for key, i in gone.items() if i >= 0 and come.get(key, -1) >= 0)


class _MovesByEnd:
    """Moved lines found by either end with two bisections: a hunk's own moves without a scan of all."""

    def __init__(self, moves: list[tuple[int, int]]):
        self.by_a = moves  # sorted by before line
        self.by_b = sorted(moves, key=lambda m: m[1])
        self.a_ends, self.b_ends = [m[0] for m in self.by_a], [m[1] for m in self.by_b]

    def touching(self, a0: int, a1: int, b0: int, b1: int) -> tuple[tuple[int, int], ...]:
        """The moves with their before line in [a0, a1) or their after line in [b0, b1), by before line."""
        found = set(self.by_a[bisect_left(self.a_ends, a0) : bisect_left(self.a_ends, a1)])
        found.update(self.by_b[bisect_left(self.b_ends, b0) : bisect_left(self.b_ends, b1)])
        return tuple(sorted(found))


def _substantial(line: str) -> bool:
    return len(line) - line.count(" ") - line.count("\t") >= 3


def _hunk(a, b, a_eol: bool, b_eol: bool, block, pairs, moves, emphasis) -> Hunk:
    a0, a1, b0, b1 = block
    moved = moves.touching(a0, a1, b0, b1)
    a_open = a1 == len(a) and a1 > a0 and not a_eol
    b_open = b1 == len(b) and b1 > b0 and not b_eol
    bom_a, bom_b = bool(a) and a[0].startswith("\ufeff"), bool(b) and b[0].startswith("\ufeff")
    at_top = (a0 == 0 and a1 > 0) or (b0 == 0 and b1 > 0)
    return Hunk(
        a0,
        a1,
        b0,
        b1,
        tuple(LinePair(i, j, *emphasis(a[i], b[j])) for i, j in pairs),
        moved,
        (a_open, b_open) if a_open or b_open else None,
        (bom_a, bom_b) if at_top and bom_a != bom_b else None,
    )


def count_changes(hunks: list[Hunk]) -> tuple[int, int]:
    """(inserted, deleted) lines."""
    return sum(h.b1 - h.b0 for h in hunks), sum(h.a1 - h.a0 for h in hunks)


def hunks_to_json(hunks: list[Hunk], b: list[str]) -> list:
    """Payload form: [a0, a1, b0, b1, after_lines, pairs] plus, when there is any, an object of
    extras: {"moved": [[ai, bj], ...], "no_eol": [a, b], "bom": [a, b]} (see `Hunk`)."""
    out = []
    for h in hunks:
        row = [h.a0, h.a1, h.b0, h.b1, b[h.b0 : h.b1], [[p.a, p.b, p.a_ranges, p.b_ranges] for p in h.pairs]]
        extras = {"moved": h.moved, "no_eol": h.no_eol, "bom": h.bom}
        extras = {key: value for key, value in extras.items() if value}
        if extras:
            row.append(extras)
        out.append(row)
    return out

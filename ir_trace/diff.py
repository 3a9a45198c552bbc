"""Line diff of two snapshots, with SPEC's alignment rules and intra-line change ranges.

The diff compares the printed text only. To stay fast on 10k-line snapshots it first matches
top-level items (see `outline`) by name and diffs lines only inside items whose text
differs; any valid edit script is correct, this one is just cheap to find.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable
from dataclasses import dataclass
from difflib import SequenceMatcher

from ir_trace.outline import Segment, outline

ALGORITHM_VERSION = "diff-3"
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")
_TOKEN = re.compile(r"\w+|\s+|[^\w\s]")
_QUALIFIED_CALL = re.compile(r"([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)\s*\(")
_MAX_TOKEN_PRODUCT = 250_000  # bounds the intra-line diff of very long lines
_MAX_BLOCK_PRODUCT = 4_000_000  # bounds pairing inside one huge replaced block


@dataclass(frozen=True)
class LinePair:
    """Before line `a` and after line `b` (absolute indices) are one line, edited."""

    a: int
    b: int
    a_ranges: tuple[tuple[int, int], ...]
    b_ranges: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Hunk:
    """Before lines [a0, a1) are replaced by after lines [b0, b1)."""

    a0: int
    a1: int
    b0: int
    b1: int
    pairs: tuple[LinePair, ...] = ()


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
    a_outline: list[Segment] | None = None,
    b_outline: list[Segment] | None = None,
    line_key: Callable[[str], str] | None = None,
) -> list[Hunk]:
    """Hunks turning `a` into `b`, each replaced block aligned line by line.

    Outlines of the two sides may be passed in when the caller already has them. `line_key`
    maps a line to the key it is compared by (lines with equal keys count as unchanged), so
    an ignore mode can normalise lines; by default a line is its own key.
    """
    a_keys, b_keys = _line_keys(a, a_eol, line_key), _line_keys(b, b_eol, line_key)
    if a_keys == b_keys:
        return []
    seg_a = a_outline if a_outline is not None else outline(a)
    seg_b = b_outline if b_outline is not None else outline(b)
    hunks = []
    for a0, a1, b0, b1 in _merge_touching(_changed_blocks(a, b, a_keys, b_keys, seg_a, seg_b)):
        pairs = tuple(
            LinePair(a0 + i, b0 + j, *changed_ranges(a[a0 + i], b[b0 + j]))
            for i, j in align_replace_block(a[a0:a1], b[b0:b1])
        )
        hunks.append(Hunk(a0, a1, b0, b1, pairs))
    return hunks


def _line_keys(lines: list[str], eol: bool, line_key: Callable[[str], str] | None = None) -> list:
    """A last line without "\\n" differs from the same line with one."""
    if line_key is not None:
        lines = [line_key(line) for line in lines]
    if lines and not eol:
        return lines[:-1] + [(lines[-1], "no newline at end of file")]
    return lines


def _changed_blocks(
    a: list[str], b: list[str], a_keys: list, b_keys: list, seg_a: list[Segment], seg_b: list[Segment]
) -> list[tuple[int, int, int, int]]:
    """Non-equal blocks: items matched by name, lines diffed only inside items that differ."""
    names_a = [_segment_key(a, s) for s in seg_a]
    names_b = [_segment_key(b, s) for s in seg_b]
    blocks = []
    for tag, i0, i1, j0, j1 in SequenceMatcher(None, names_a, names_b, autojunk=False).get_opcodes():
        if tag == "equal":  # the same items in order: compare them one by one
            spans = [((sa.start, sa.end), (sb.start, sb.end)) for sa, sb in zip(seg_a[i0:i1], seg_b[j0:j1])]
        else:  # items added, removed or renamed: diff the lines of the whole stretch
            spans = [(_lines_of(seg_a, i0, i1, len(a)), _lines_of(seg_b, j0, j1, len(b)))]
        for (a0, a1), (b0, b1) in spans:
            if a_keys[a0:a1] != b_keys[b0:b1]:
                blocks += _line_blocks(a_keys, b_keys, a0, a1, b0, b1)
    return blocks


def _segment_key(lines: list[str], seg: Segment) -> str:
    return f"{seg.kind}:{seg.cls}.{seg.name}" if seg.name else lines[seg.start].strip() if seg.end > seg.start else ""


def _lines_of(segments: list[Segment], i0: int, i1: int, total: int) -> tuple[int, int]:
    """Lines of segments [i0, i1); an empty range at the insertion point when there are none."""
    if i0 < i1:
        return segments[i0].start, segments[i1 - 1].end
    at = segments[i0].start if i0 < len(segments) else total
    return at, at


def _line_blocks(a_keys: list, b_keys: list, a0: int, a1: int, b0: int, b1: int) -> list:
    matcher = SequenceMatcher(None, a_keys[a0:a1], b_keys[b0:b1], autojunk=(a1 - a0) + (b1 - b0) > 4000)
    return [(a0 + i0, a0 + i1, b0 + j0, b0 + j1) for tag, i0, i1, j0, j1 in matcher.get_opcodes() if tag != "equal"]


def _merge_touching(blocks: list[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
    merged: list[list[int]] = []
    for a0, a1, b0, b1 in sorted(blocks):
        if merged and merged[-1][1] == a0 and merged[-1][3] == b0:
            merged[-1][1], merged[-1][3] = a1, b1
        else:
            merged.append([a0, a1, b0, b1])
    return [tuple(m) for m in merged]


def align_replace_block(a: list[str], b: list[str]) -> list[tuple[int, int]]:
    """Pairs (i, j) of lines of a replaced block that are the same line edited.

    1. lines equal after removing leading whitespace pair up;
    2. between those, lines calling the same qualified operation (`pl.add`) pair up;
    3. what is left pairs in order when the lines share most of their tokens.
    """
    if not a or not b or len(a) * len(b) > _MAX_BLOCK_PRODUCT:
        return []
    pairs: list[tuple[int, int]] = []
    for gap in _anchored_gaps([s.lstrip() for s in a], [s.lstrip() for s in b], 0, len(a), 0, len(b), pairs):
        ops_a = [_operation(line) or object() for line in a[gap[0] : gap[1]]]  # object(): never equal
        ops_b = [_operation(line) or object() for line in b[gap[2] : gap[3]]]
        for sub in _anchored_gaps(ops_a, ops_b, *gap, pairs, offset=True):
            pairs += _similar_in_order(a, b, *sub)
    return sorted(pairs)


def _anchored_gaps(keys_a, keys_b, a0, a1, b0, b1, pairs, offset=False):
    """Pair equal keys and yield the unpaired gaps between them."""
    if offset:
        base_a, base_b = a0, b0
    else:
        base_a = base_b = 0
        keys_a, keys_b = keys_a[a0:a1], keys_b[b0:b1]
    i = j = 0
    for bi, bj, size in SequenceMatcher(None, keys_a, keys_b, autojunk=False).get_matching_blocks():
        yield base_a + i, base_a + bi, base_b + j, base_b + bj
        pairs += [(base_a + bi + k, base_b + bj + k) for k in range(size)]
        i, j = bi + size, bj + size


def _operation(line: str) -> str | None:
    """The qualified operation a line calls (`pl.add`), looked for right of an assignment first."""
    _lhs, sep, rhs = line.partition(" = ")
    match = _QUALIFIED_CALL.search(rhs if sep else line)
    return match[1] if match else None


def _similar_in_order(a: list[str], b: list[str], a0: int, a1: int, b0: int, b1: int) -> list[tuple[int, int]]:
    pairs = []
    for i, j in zip(range(a0, a1), range(b0, b1)):
        if _shares_most_tokens(a[i], b[j]):
            pairs.append((i, j))
    return pairs


def _shares_most_tokens(x: str, y: str) -> bool:
    if not x.strip() or not y.strip():
        return False
    return SequenceMatcher(None, _TOKEN.findall(x), _TOKEN.findall(y), autojunk=False).quick_ratio() >= 0.6


def changed_ranges(a: str, b: str) -> tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]:
    """Character ranges (UTF-16 offsets, as JavaScript counts) that differ between two lines."""
    prefix = _common_prefix(a, b)
    suffix = _common_prefix(a[prefix:][::-1], b[prefix:][::-1])
    mid_a, mid_b = a[prefix : len(a) - suffix], b[prefix : len(b) - suffix]
    tokens_a, tokens_b = _TOKEN.findall(mid_a), _TOKEN.findall(mid_b)
    if not tokens_a or not tokens_b or len(tokens_a) * len(tokens_b) > _MAX_TOKEN_PRODUCT:
        ranges_a = [(prefix, prefix + len(mid_a))] if mid_a else []
        ranges_b = [(prefix, prefix + len(mid_b))] if mid_b else []
    else:
        ranges_a, ranges_b = _token_ranges(tokens_a, tokens_b, prefix)
    return _utf16(a, ranges_a), _utf16(b, ranges_b)


def _common_prefix(x: str, y: str) -> int:
    n = min(len(x), len(y))
    if x[:n] == y[:n]:
        return n
    lo, hi = 0, n  # binary search on slices: C speed for 1,000-character lines
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if x[:mid] == y[:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _token_ranges(tokens_a: list[str], tokens_b: list[str], offset: int):
    starts_a, starts_b = _starts(tokens_a, offset), _starts(tokens_b, offset)
    ranges_a, ranges_b = [], []
    for tag, i0, i1, j0, j1 in SequenceMatcher(None, tokens_a, tokens_b, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        if i1 > i0:
            _extend(ranges_a, starts_a[i0], starts_a[i1])
        if j1 > j0:
            _extend(ranges_b, starts_b[j0], starts_b[j1])
    return ranges_a, ranges_b


def _starts(tokens: list[str], offset: int) -> list[int]:
    starts = [offset]
    for token in tokens:
        starts.append(starts[-1] + len(token))
    return starts


def _extend(ranges: list[tuple[int, int]], start: int, end: int) -> None:
    if ranges and ranges[-1][1] == start:
        ranges[-1] = (ranges[-1][0], end)
    else:
        ranges.append((start, end))


def _utf16(line: str, ranges: list[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """Code point offsets to UTF-16 ones: each astral character before an offset counts twice."""
    astral = [] if line.isascii() else [m.start() for m in _ASTRAL.finditer(line)]
    if not astral:
        return tuple(ranges)
    return tuple((s + bisect_left(astral, s), e + bisect_left(astral, e)) for s, e in ranges)


def count_changes(hunks: list[Hunk]) -> tuple[int, int]:
    """(inserted, deleted) lines."""
    return sum(h.b1 - h.b0 for h in hunks), sum(h.a1 - h.a0 for h in hunks)


def hunks_to_json(hunks: list[Hunk], b: list[str]) -> list:
    """Payload form: [a0, a1, b0, b1, after_lines, [[ai, bi, a_ranges, b_ranges], ...]]."""
    return [
        [h.a0, h.a1, h.b0, h.b1, b[h.b0 : h.b1], [[p.a, p.b, p.a_ranges, p.b_ranges] for p in h.pairs]] for h in hunks
    ]

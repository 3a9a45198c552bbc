"""Matching two sequences: the longest common subsequence when it is cheap, anchors when not.

One algorithm for lines and for the tokens of a line, mirrored step for step by
`ir_trace/report/assets/intraline.js` (`matchSeq`) so the report and `Compare with` agree: trim the common
ends; Myers' O(ND) search when a few edits suffice; otherwise items that occur once on each
side anchor the middle (patience diff) and each gap is matched the same way; a gap with no
such anchor gets Myers again, within a larger budget. A gap with no anchor and too many edits
stays unmatched, which bounds the time on any input.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Sequence

QUICK_EDITS = 16  # a gap this close to its other side is matched exactly at once
MAX_DEPTH = 8  # anchor levels; each level is linear, so the whole search stays near-linear
PREFIX_STEP = 1 << 16  # common_prefix / common_suffix compare a long run this many items at a time


def match_sequences(a: Sequence, b: Sequence, max_edits: int, a0=0, a1=None, b0=0, b1=None) -> list[tuple[int, int]]:
    """Matched (i, j) of a[a0:a1] and b[b0:b1], increasing on both sides."""
    out: list[tuple[int, int]] = []
    _match(a, b, a0, len(a) if a1 is None else a1, b0, len(b) if b1 is None else b1, out, max_edits, 0)
    return out


def _match(a, b, a0: int, a1: int, b0: int, b1: int, out: list, max_edits: int, depth: int) -> None:
    head = common_prefix(a, b, a0, a1, b0, b1)
    out += zip(range(a0, a0 + head), range(b0, b0 + head))
    a0, b0 = a0 + head, b0 + head
    tail = common_suffix(a, b, a0, a1, b0, b1)
    a1, b1 = a1 - tail, b1 - tail
    if a0 < a1 and b0 < b1:
        found = _myers(a, b, a0, a1, b0, b1, QUICK_EDITS)
        anchors = _unique_anchors(a, b, a0, a1, b0, b1) if found is None and depth < MAX_DEPTH else []
        if anchors:
            i, j = a0, b0
            for ai, bj in anchors:
                _match(a, b, i, ai, j, bj, out, max_edits, depth + 1)
                out.append((ai, bj))
                i, j = ai + 1, bj + 1
            _match(a, b, i, a1, j, b1, out, max_edits, depth + 1)
        else:
            if found is None and max_edits > QUICK_EDITS:
                found = _myers(a, b, a0, a1, b0, b1, max_edits)
            out += found or ()
    out += zip(range(a1, a1 + tail), range(b1, b1 + tail))


def common_prefix(a, b, a0: int, a1: int, b0: int, b1: int) -> int:
    """Length of the common start of a[a0:a1] and b[b0:b1]: slice comparisons halve the range,
    so a million equal items cost C-speed work, not a Python loop."""
    n = min(a1 - a0, b1 - b0)
    lo = 0
    while n - lo > PREFIX_STEP and a[a0 + lo : a0 + lo + PREFIX_STEP] == b[b0 + lo : b0 + lo + PREFIX_STEP]:
        lo += PREFIX_STEP  # a long equal start a step at a time: no slice of a huge line's half
    hi = min(n, lo + PREFIX_STEP)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[a0 + lo : a0 + mid] == b[b0 + lo : b0 + mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def common_suffix(a, b, a0: int, a1: int, b0: int, b1: int) -> int:
    n = min(a1 - a0, b1 - b0)
    lo = 0
    while n - lo > PREFIX_STEP and a[a1 - lo - PREFIX_STEP : a1 - lo] == b[b1 - lo - PREFIX_STEP : b1 - lo]:
        lo += PREFIX_STEP
    hi = min(n, lo + PREFIX_STEP)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[a1 - mid : a1 - lo] == b[b1 - mid : b1 - lo]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _myers(a, b, a0: int, a1: int, b0: int, b1: int, max_edits: int) -> list[tuple[int, int]] | None:
    """Matches of a shortest edit script, or None when it needs more than `max_edits` edits."""
    n, m = a1 - a0, b1 - b0
    limit = min(n + m, max_edits)
    if abs(n - m) > limit:  # at least |n - m| edits: the search would only fail, slowly
        return None
    if limit > QUICK_EDITS:  # a long search is worth a linear bound first (whole MLIR ops rewritten)
        common = common_items(a, b, a0, a1, b0, b1)
        if n + m - 2 * common > limit:  # every item not in common is an edit
            return None
        if not common:  # the only edit script deletes everything and inserts everything
            return []
    off = limit + 1
    v = [0] * (2 * limit + 3)
    trace = []
    found = -1
    sa, sb = a[a0:a1], b[b0:b1]  # indexed from 0: no offsets in the innermost loop
    for d in range(limit + 1):
        for kk in range(off - d, off + d + 1, 2):  # kk = off + k
            if kk == off - d or (kk != off + d and v[kk - 1] < v[kk + 1]):
                x = v[kk + 1]
            else:
                x = v[kk - 1] + 1
            y = x - kk + off
            while x < n and y < m and sa[x] == sb[y]:
                x += 1
                y += 1
            v[kk] = x
            if x >= n and y >= m:
                found = d
                break
        trace.append(v[off - d : off + d + 1])
        if found >= 0:
            break
    if found < 0:
        return None
    return _myers_path(trace, found, n, m, a0, b0)


def common_items(a, b, a0: int, a1: int, b0: int, b1: int) -> int:
    """How many items a[a0:a1] and b[b0:b1] share, counted with multiplicity: no common
    subsequence is longer."""
    return sum((Counter(a[a0:a1]) & Counter(b[b0:b1])).values())


def _myers_path(trace: list[list[int]], found: int, n: int, m: int, a0: int, b0: int) -> list[tuple[int, int]]:
    back = []
    x, y = n, m
    for d in range(found, 0, -1):
        prev, k = trace[d - 1], x - y
        down = k == -d or (k != d and prev[k - 1 + d - 1] < prev[k + 1 + d - 1])
        pk = k + 1 if down else k - 1
        px = prev[pk + d - 1]
        py = px - pk
        while x > px and y > py:
            x, y = x - 1, y - 1
            back.append((a0 + x, b0 + y))
        x, y = px, py
    while x > 0 and y > 0:
        x, y = x - 1, y - 1
        back.append((a0 + x, b0 + y))
    back.reverse()
    return back


def _unique_anchors(a, b, a0: int, a1: int, b0: int, b1: int) -> list[tuple[int, int]]:
    """Items occurring once on each side, reduced to their longest run increasing on both sides."""
    count_a, count_b = Counter(a[a0:a1]), Counter(b[b0:b1])
    where_b = {b[j]: j for j in range(b0, b1) if count_b[b[j]] == 1 and count_a.get(b[j]) == 1}
    candidates = [(i, where_b[a[i]]) for i in range(a0, a1) if a[i] in where_b]
    tails: list[int] = []  # smallest b position ending an increasing run of each length
    tail_at: list[int] = []
    prev = []
    for c, (_i, bj) in enumerate(candidates):
        lo = bisect_left(tails, bj)
        if lo == len(tails):
            tails.append(bj)
            tail_at.append(c)
        else:
            tails[lo], tail_at[lo] = bj, c
        prev.append(tail_at[lo - 1] if lo else -1)
    chain = []
    c = tail_at[-1] if tail_at else -1
    while c >= 0:
        chain.append(candidates[c])
        c = prev[c]
    chain.reverse()
    return chain

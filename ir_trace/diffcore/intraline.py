"""The changed characters of an edited line: a token diff, slid to word and separator boundaries.

Tokens are runs of ASCII word characters, runs of spaces and tabs, and single other
characters, so an emphasis always starts and ends on a token edge and a renamed identifier
is marked whole wherever it occurs. The tokens are matched with `matching.match_sequences`
(exact while a line needs at most MAX_TOKEN_EDITS token edits between unique anchors), then
each pure insertion or deletion is slid, among the positions that cost the same, to the one
whose ends sit on the strongest boundaries (after a space, inside a bracket), as git's
diff-slider heuristics do for lines. A long replaced run that keeps much of its text (a
renamed `down_acc_inline86__tile_1`) is then trimmed to its changed part, cut only just after and
just before a separator (`_`, punctuation, space), so the folded view can hide the rest.
`ir_trace/report/assets/intraline.js` does the same, step for step.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from itertools import accumulate

from ir_trace.diffcore.matching import common_prefix, common_suffix, match_sequences
from ir_trace.syntax import WINDOW_CHARS

MAX_TOKEN_EDITS = 200  # per gap between unique anchors; beyond, that gap is marked whole
TOKEN = re.compile(r"[A-Za-z0-9_]+|[ \t\r\f\v]+|.", re.DOTALL)
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")
_SPACE = frozenset(" \t\r\f\v")
_OPENERS, _CLOSERS = frozenset("([{"), frozenset(")]}")

Ranges = tuple[tuple[int, int], ...]
Spans = list[tuple[int, int]]  # normalize.Spans: the pieces of a line an ignore mode keeps


_WORD_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_"
_SPACE_CHARS = " \t\r\f\v"
CONTEXT_SPACES = 2  # equal text kept around the change, up to this many spaces away, to slide into
CONTEXT_UNITS = 64  # and at most this many UTF-16 units (a line with few spaces)
REFINE_MIN = 12  # UTF-16 units: a shorter replaced run is marked whole
REFINE_COMMON = 6  # and one whose trimmed start and end are shorter together
# Separators: `_` and ASCII that is no letter or digit. The last in a kept start (matched from its
# far end) and the first in a kept end: one linear pass each.
_LAST_SEPARATOR = re.compile(r".*[\x00-\x2f\x3a-\x40\x5b-\x60\x7b-\x7f]", re.DOTALL)
_SEPARATOR = re.compile(r"[\x00-\x2f\x3a-\x40\x5b-\x60\x7b-\x7f]")
_WORD_RUN = re.compile(r"[A-Za-z0-9_]*")
_SPACE_RUN = re.compile(r"[ \t\r\f\v]*")


def tokens(line: str) -> list[str]:
    return TOKEN.findall(line)


def changed_ranges(a: str, b: str) -> tuple[Ranges, Ranges]:
    """Character ranges (UTF-16 offsets, as JavaScript counts) that differ between two lines.

    Only a window is tokenised: the differing middle, snapped out to token edges, plus the
    equal text up to CONTEXT_SPACES spaces (at most CONTEXT_UNITS) around it, room for sliding,
    so an edit in a long line costs its own size, not the line's.
    """
    if a == b:
        return (), ()
    head = common_prefix(a, b, 0, len(a), 0, len(b))
    tail = common_suffix(a, b, head, len(a), head, len(b))
    start = _window_start(a, _token_start(a, b, head))
    end_a, end_b = _window_end(a, b, len(a) - tail, len(b) - tail)
    if max(end_a, end_b) - start > WINDOW_CHARS:  # a huge token changed: the characters that differ, untokenised
        return _utf16(a, _nonempty(head, len(a) - tail)), _utf16(b, _nonempty(head, len(b) - tail))
    ta, tb = tokens(a[start:end_a]), tokens(b[start:end_b])
    changed_a, changed_b = bytearray(b"\1") * len(ta), bytearray(b"\1") * len(tb)
    for i, j in match_sequences(ta, tb, MAX_TOKEN_EDITS):
        changed_a[i] = changed_b[j] = 0
    edges = (4 if start == 0 else 3, 4 if end_a == len(a) else 3)
    _slide_runs(ta, tb, changed_a, changed_b, edges)
    ranges_a, ranges_b = _refined_ranges(a, b, ta, tb, changed_a, changed_b, start)
    return _utf16(a, ranges_a), _utf16(b, ranges_b)


def changed_ranges_ignoring(a: str, b: str, kept_a: Spans | None, kept_b: Spans | None) -> tuple[Ranges, Ranges]:
    """`changed_ranges` when an ignore mode is on: `kept_a` / `kept_b` are the pieces of each
    line its key is made of (None: all of it). Tokens are the printed line's; each is compared
    by its kept characters and one with none is skipped, so a difference in ignored text is
    never marked while a changed token is marked whole, at the printed line's word edges.
    Exactly `changed_ranges` when the modes remove nothing from either line."""
    if kept_a is None and kept_b is None:
        return changed_ranges(a, b)
    texts_a, edges_a = _kept_tokens(a, kept_a)
    texts_b, edges_b = _kept_tokens(b, kept_b)
    changed_a, changed_b = bytearray(b"\1") * len(texts_a), bytearray(b"\1") * len(texts_b)
    for i, j in match_sequences(texts_a, texts_b, MAX_TOKEN_EDITS):
        changed_a[i] = changed_b[j] = 0
    _slide_runs(texts_a, texts_b, changed_a, changed_b, (4, 4))
    return _utf16(a, _run_ranges(edges_a, changed_a)), _utf16(b, _run_ranges(edges_b, changed_b))


def _kept_tokens(line: str, kept: Spans | None) -> tuple[list[str], list[int]]:
    """The kept characters of each token of `line` that keeps any, and its [start, end) in the
    line (flat). One merge of tokens and pieces: each piece is read once per token it overlaps."""
    kept = [(0, len(line))] if kept is None else kept
    texts: list[str] = []
    edges: list[int] = []
    k = 0
    for match in TOKEN.finditer(line):
        start, end = match.span()
        while k < len(kept) and kept[k][1] <= start:
            k += 1
        if k < len(kept) and kept[k][0] <= start and end <= kept[k][1]:  # the usual case: all kept
            texts.append(match.group())
            edges += (start, end)
            continue
        parts, q = [], k
        while q < len(kept) and kept[q][0] < end:
            parts.append(line[max(start, kept[q][0]) : min(end, kept[q][1])])
            q += 1
        if parts:
            texts.append("".join(parts))
            edges += (start, end)
    return texts, edges


def _run_ranges(edges: list[int], changed: bytearray) -> list[tuple[int, int]]:
    """Each run of changed tokens as one range, from its first token's start to its last's end
    (ignored text between them included)."""
    ranges = []
    start = changed.find(1)
    while start >= 0:
        end = _run_end(changed, start)
        ranges.append((edges[2 * start], edges[2 * end - 1]))
        start = changed.find(1, end)
    return ranges


def _nonempty(start: int, end: int) -> list[tuple[int, int]]:
    return [(start, end)] if end > start else []


def _run_start(line: str, p: int, chars: str) -> int:
    """Where the run of `chars` ending at p starts (`len(line[:p].rstrip(chars))`, a window at a time)."""
    while p > 0:
        window = line[max(0, p - WINDOW_CHARS) : p]
        kept = len(window.rstrip(chars))
        if kept:
            return p - len(window) + kept
        p -= len(window)
    return 0


def _token_start(a: str, b: str, p: int) -> int:
    """The largest position <= p (a[:p] == b[:p]) that starts a token in both lines."""
    if p == 0:
        return 0
    following = a[p : p + 1] + b[p : p + 1]  # the first characters that differ (none at a line's end)
    for chars in (_WORD_CHARS, _SPACE_CHARS):
        if a[p - 1] in chars and any(c in chars for c in following):
            return _run_start(a, p, chars)
    return p


def _window_start(a: str, p: int) -> int:
    """Back CONTEXT_SPACES spaces from token start p, to the start of that run of spaces, but
    no further than CONTEXT_UNITS UTF-16 units (then forward to a token start)."""
    q = p
    for _ in range(CONTEXT_SPACES):
        q = a.rfind(" ", 0, q) if q > 0 else -1
        if q < 0:
            q = 0
            break
    else:
        q = _run_start(a, q, _SPACE_CHARS)
    cap = _units_back(a, p)
    if q >= cap:
        return q
    if cap and a[cap - 1] in _WORD_CHARS and a[cap] in _WORD_CHARS:
        return _match_end(_WORD_RUN, a, cap)
    if cap and a[cap - 1] in _SPACE_CHARS and a[cap] in _SPACE_CHARS:
        return _match_end(_SPACE_RUN, a, cap)
    return cap


def _match_end(run: re.Pattern[str], a: str, at: int) -> int:
    """Where the run of `run` (which matches the empty string too, so always matches) from `at` ends."""
    match = run.match(a, at)
    assert match is not None
    return match.end()


def _window_end(a: str, b: str, ea: int, eb: int) -> tuple[int, int]:
    """Forward CONTEXT_SPACES spaces from where the common suffix starts (ea in a, eb in b),
    then past that run of spaces, but no further than CONTEXT_UNITS UTF-16 units (then back to
    a token end); the same offset from each line's end."""
    if ea < len(a) and a[ea] in _WORD_CHARS + _SPACE_CHARS:
        chars = _WORD_CHARS if a[ea] in _WORD_CHARS else _SPACE_CHARS
        if (ea and a[ea - 1] in chars) or (eb and b[eb - 1] in chars):
            run = _match_end(_WORD_RUN if chars is _WORD_CHARS else _SPACE_RUN, a, ea) - ea
            ea, eb = ea + run, eb + run
    q = ea - 1
    for _ in range(CONTEXT_SPACES):
        q = a.find(" ", q + 1)
        if q < 0:
            q = len(a)
            break
    else:
        q = _match_end(_SPACE_RUN, a, q)
    cap = _units_forward(a, ea)
    if q > cap:
        for chars in (_WORD_CHARS, _SPACE_CHARS):
            if cap < len(a) and a[cap - 1] in chars and a[cap] in chars:
                cap = _run_start(a, cap, chars)
                break
        q = cap
    return q, eb + q - ea


def _units_back(a: str, p: int) -> int:
    """The smallest r with a[r:p] at most CONTEXT_UNITS UTF-16 units long."""
    r = max(0, p - CONTEXT_UNITS)
    if a[r:p].isascii():
        return r
    units, r = 0, p
    while r > 0 and units + (2 if ord(a[r - 1]) > 0xFFFF else 1) <= CONTEXT_UNITS:
        units += 2 if ord(a[r - 1]) > 0xFFFF else 1
        r -= 1
    return r


def _units_forward(a: str, p: int) -> int:
    """The largest r with a[p:r] at most CONTEXT_UNITS UTF-16 units long."""
    r = min(len(a), p + CONTEXT_UNITS)
    if a[p:r].isascii():
        return r
    units, r = 0, p
    while r < len(a) and units + (2 if ord(a[r]) > 0xFFFF else 1) <= CONTEXT_UNITS:
        units += 2 if ord(a[r]) > 0xFFFF else 1
        r += 1
    return r


def _slide_runs(ta: list[str], tb: list[str], changed_a: bytearray, changed_b: bytearray, edges: tuple) -> None:
    """Move each pure deletion (insertion) to its best-scoring equal-cost position.

    Walking both sides in step, unchanged tokens pair up in order; a run changed on one side
    only may rotate through the equal tokens around it while the token leaving the run equals
    the one joining it, which keeps the number of changed tokens.
    """
    i = j = 0
    while True:
        i, j = _next_change(changed_a, changed_b, i, j)
        if i >= len(ta) and j >= len(tb):
            return
        run_a, run_b = _run_end(changed_a, i) - i, _run_end(changed_b, j) - j
        if run_a and not run_b:
            shift = _slide(ta, changed_a, changed_b, i, i + run_a, j, edges)
        elif run_b and not run_a:
            shift = _slide(tb, changed_b, changed_a, j, j + run_b, i, edges)
        else:  # a replacement stays; (0, 0) cannot happen while unchanged tokens pair up
            shift = 0 if run_a or run_b else 1
        i, j = i + run_a + shift, j + run_b + shift


def _next_change(changed_a: bytearray, changed_b: bytearray, i: int, j: int) -> tuple[int, int]:
    """Skip the equal tokens before the next change on either side (bytes.find: C speed)."""
    next_a, next_b = changed_a.find(1, i), changed_b.find(1, j)
    step_a = (len(changed_a) if next_a < 0 else next_a) - i
    step_b = (len(changed_b) if next_b < 0 else next_b) - j
    step = min(step_a, step_b)
    return i + step, j + step


def _run_end(changed: bytearray, start: int) -> int:
    end = changed.find(0, start)
    return len(changed) if end < 0 else end


def _slide(toks: list[str], changed: bytearray, other: bytearray, s: int, e: int, at: int, edges: tuple) -> int:
    """Slide the run toks[s:e] (its side's flags `changed`; the other side stands at `at`);
    returns how far it moved (negative: left)."""
    left = 0
    while (
        s - left > 0
        and at - left > 0
        and not changed[s - left - 1]
        and not other[at - left - 1]
        and toks[s - left - 1] == toks[e - left - 1]
    ):
        left += 1
    right = 0
    while (
        e + right < len(toks)
        and at + right < len(other)
        and not changed[e + right]
        and not other[at + right]
        and toks[s + right] == toks[e + right]
    ):
        right += 1
    if not left and not right:
        return 0
    score = lambda o: (_strength(toks, s + o, edges) + _strength(toks, e + o, edges), -o)  # noqa: E731
    best = max(range(-left, right + 1), key=score)
    changed[s:e] = bytes(e - s)
    changed[s + best : e + best] = b"\1" * (e - s)
    return best


def _refined_ranges(
    a: str, b: str, ta: list[str], tb: list[str], changed_a: bytearray, changed_b: bytearray, offset: int
) -> tuple[Spans, Spans]:
    """Each side's runs of changed tokens as character ranges (the tokens start at `offset` of
    the line), a run replaced by one on the other side trimmed by `_trimmed`."""
    edges_a = list(accumulate(map(len, ta), initial=offset))
    edges_b = list(accumulate(map(len, tb), initial=offset))
    ranges_a: list[tuple[int, int]] = []
    ranges_b: list[tuple[int, int]] = []
    i = j = 0
    while True:
        i, j = _next_change(changed_a, changed_b, i, j)
        if i >= len(ta) and j >= len(tb):
            return ranges_a, ranges_b
        end_a, end_b = _run_end(changed_a, i), _run_end(changed_b, j)
        run_a, run_b = (edges_a[i], edges_a[end_a]), (edges_b[j], edges_b[end_b])
        if end_a > i and end_b > j:
            lead_a = edges_a[i + 1] if ta[i][0] in _SPACE else run_a[0]
            lead_b = edges_b[j + 1] if tb[j][0] in _SPACE else run_b[0]
            found_a, found_b = _replaced(a, b, run_a, run_b, lead_a, lead_b)
            ranges_a += found_a
            ranges_b += found_b
        else:
            ranges_a += [run_a] if end_a > i else []
            ranges_b += [run_b] if end_b > j else []
        i, j = end_a, end_b


def _replaced(a: str, b: str, run_a: tuple, run_b: tuple, lead_a: int, lead_b: int) -> tuple[Spans, Spans]:
    """The ranges of a replaced run pair: its leading spaces (up to `lead_a` / `lead_b`, an
    indentation change) stay marked, the rest is `_trimmed` when both sides have a rest."""
    rest_a, rest_b = (lead_a, run_a[1]), (lead_b, run_b[1])
    if rest_a[1] > rest_a[0] and rest_b[1] > rest_b[0]:
        rest_a, rest_b = _trimmed(a, b, rest_a, rest_b)
    return _joined((run_a[0], lead_a), rest_a), _joined((run_b[0], lead_b), rest_b)


def _joined(lead: tuple[int, int], rest: tuple[int, int]) -> Spans:
    """The non-empty ones of two ranges, one range when they touch (a trimmed rest may be empty:
    an insertion in a name leaves nothing on the other side)."""
    if lead[1] == rest[0]:
        return [(lead[0], rest[1])] if rest[1] > lead[0] else []
    return [r for r in (lead, rest) if r[1] > r[0]]


def _trimmed(a: str, b: str, run_a: tuple[int, int], run_b: tuple[int, int]) -> tuple[tuple[int, int], ...]:
    """A replaced run pair without its common start and end, when the longer run is at least
    REFINE_MIN UTF-16 units and the two cut parts at least REFINE_COMMON; else the runs as they
    are. Each part is cut at a separator: after one, or where both runs end or go on with one
    (`hidden_states` / `hidden_states__ssa_v0` leaves only `__ssa_v0`, an insertion). One range
    a run at most: never confetti."""
    (sa, ea), (sb, eb) = run_a, run_b
    if max(_units(a, sa, ea), _units(b, sb, eb)) < REFINE_MIN:
        return run_a, run_b
    head = common_prefix(a, b, sa, ea, sb, eb)
    if head and not (_cut_before(a, sa + head, ea) and _cut_before(b, sb + head, eb)):
        found = _LAST_SEPARATOR.match(a, sa, sa + head)
        head = found.end() - sa if found else 0
    tail = common_suffix(a, b, sa + head, ea, sb + head, eb)
    if tail and not (_cut_after(a, ea - tail, sa + head) and _cut_after(b, eb - tail, sb + head)):
        found = _SEPARATOR.search(a, ea - tail, ea)
        tail = ea - found.start() if found else 0
    if _units(a, sa, sa + head) + _units(a, ea - tail, ea) < REFINE_COMMON:
        return run_a, run_b
    return (sa + head, ea - tail), (sb + head, eb - tail)


def _cut_before(line: str, p: int, end: int) -> bool:
    """Whether a kept start may end at p: its run ends there or goes on with a separator."""
    return p == end or _is_separator(line[p])


def _cut_after(line: str, p: int, start: int) -> bool:
    """Whether a kept end may start at p: its run starts there or a separator comes before."""
    return p == start or _is_separator(line[p - 1])


def _is_separator(char: str) -> bool:
    return char < "\x80" and not char.isalnum()


def _units(line: str, start: int, end: int) -> int:
    """UTF-16 units of line[start:end] (JavaScript's length of it)."""
    text = line[start:end]
    return len(text) if text.isascii() else len(text.encode("utf-16-le", "surrogatepass")) // 2


def _strength(toks: list[str], p: int, edges: tuple) -> int:
    """How good a place the gap before token p is for an emphasis to start or end; `edges`:
    the strengths of the window's ends (the line's ends, or just after a space)."""
    if p == 0:
        return edges[0]
    if p == len(toks):
        return edges[1]
    before, after = toks[p - 1], toks[p]
    if before[0] in _SPACE:
        return 3
    if after[0] in _SPACE or before in _OPENERS or after in _CLOSERS:
        return 2
    if before == "," or after == ",":
        return 1
    return 0


def _utf16(line: str, ranges: list[tuple[int, int]]) -> Ranges:
    """Code point offsets to UTF-16 ones: each astral character before an offset counts twice."""
    astral = [] if line.isascii() else [m.start() for m in _ASTRAL.finditer(line)]
    if not astral:
        return tuple(ranges)
    return tuple((s + bisect_left(astral, s), e + bisect_left(astral, e)) for s, e in ranges)

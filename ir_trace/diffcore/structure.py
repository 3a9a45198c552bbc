"""Structure first: the functions of two snapshots matched by key before their lines are.

A function whose key is held once on each side is matched wherever it stands; those still in order
(the heaviest such set, unchanged functions weighing most) stay in place and split the snapshots into
the segments lines are matched in; the others moved, and their lines are paired with nothing where
they stand. Pure; the line diff (`linediff.py`) and its JavaScript twin use it the same way.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from itertools import compress, repeat
from operator import and_, ge, itemgetter, le, lt

from ir_trace.diffcore.matching import match_sequences


@dataclass(frozen=True)
class Layout:
    """How two snapshots' functions line up. `segments`: the (a0, a1, b0, b1) ranges lines are matched
    in; `a_keys` / `b_keys`: the line keys, those of moved functions' lines made unique to their side
    (so they match nothing); `moved_a` / `moved_b`: those lines; `moved_lines`: (i, j) of the lines
    equal in both copies of a moved function."""

    segments: list[tuple[int, int, int, int]]
    a_keys: list
    b_keys: list
    moved_a: frozenset[int] = frozenset()
    moved_b: frozenset[int] = frozenset()
    moved_lines: list[tuple[int, int]] = field(default_factory=list)


def function_layout(n: int, m: int, a_keys: list, b_keys: list, fns_a, fns_b, max_edits: int) -> Layout:
    """How the functions (key, start, end) of two snapshots of n and m lines line up, matched by key."""
    known = _in_order_segments(n, m, fns_a, fns_b, max_edits)  # these very lists, found in order just now
    if known is not None:
        return Layout(known, a_keys, b_keys)
    if not fns_a or not fns_b or not _ordered(fns_a) or not _ordered(fns_b):
        return Layout([(0, n, 0, m)], a_keys, b_keys)
    if list(map(itemgetter(0), fns_a)) == list(map(itemgetter(0), fns_b)):  # the same functions (most passes)
        segments = _ranges(n, m, fns_a, fns_b)
        _last_in_order[:] = [(fns_a, fns_b, n, m, max_edits), segments]
        return Layout(segments, a_keys, b_keys)
    moved = _moved_functions(a_keys, b_keys, fns_a, fns_b)
    moved_a = frozenset(i for fi, _fj in moved for i in range(fns_a[fi][1], fns_a[fi][2]))
    moved_b = frozenset(j for _fi, fj in moved for j in range(fns_b[fj][1], fns_b[fj][2]))
    moved_lines = []
    for fi, fj in moved:
        (_ka, sa, ea), (_kb, sb, eb) = fns_a[fi], fns_b[fj]
        moved_lines += match_sequences(a_keys, b_keys, max_edits, sa, ea, sb, eb)
    if moved:  # a moved function's lines match nothing where they are
        a_keys = [(_MOVED, 0, i) if i in moved_a else key for i, key in enumerate(a_keys)]
        b_keys = [(_MOVED, 1, j) if j in moved_b else key for j, key in enumerate(b_keys)]
    gone_a, gone_b = {fi for fi, _ in moved}, {fj for _, fj in moved}
    kept_a = [f for k, f in enumerate(fns_a) if k not in gone_a] if moved else fns_a
    kept_b = [f for k, f in enumerate(fns_b) if k not in gone_b] if moved else fns_b
    segments = _segment_ranges(n, m, kept_a, kept_b, max_edits)
    if not moved:
        _last_in_order[:] = [(fns_a, fns_b, n, m, max_edits), segments]
    return Layout(segments, a_keys, b_keys, moved_a, moved_b, moved_lines)


# The segments of the last pair whose functions stayed in order. With every function in order nothing
# in the layout depends on the lines' keys, so the exact diff of a pair and its keyed diffs under the ignore
# modes (ignore_counts.py), which pass the very same function lists, share one (issue 29: four per pair).
_last_in_order: list = [None, None]


def _in_order_segments(n: int, m: int, fns_a, fns_b, max_edits: int) -> list[tuple[int, int, int, int]] | None:
    known = _last_in_order[0]
    if known is None or known[0] is not fns_a or known[1] is not fns_b or known[2:] != (n, m, max_edits):
        return None
    return _last_in_order[1]


_MOVED = "\0moved"  # first item of the key given to a moved function's line


def _moved_functions(a_keys: list, b_keys: list, fns_a, fns_b) -> list[tuple[int, int]]:
    """(index in fns_a, index in fns_b) of the functions matched by key (a key once on each side)
    that are out of order: all but the heaviest set still in order. A function weighs its lines, an
    unchanged one its lines times more than all lines together: as many unchanged lines as can be stay
    in place (of two swapped functions the edited one moves, so the other counts no change)."""
    if _same_order(list(map(itemgetter(0), fns_a)), list(map(itemgetter(0), fns_b))):
        return []  # nearly every pass that adds or removes functions: the keys both hold stand in one order
    once_a, once_b = _once(fns_a), _once(fns_b)
    in_b = list(map(once_b.get, once_a, repeat(-1)))  # each key's index in fns_b (C iterators: thousands)
    by_key = sorted(
        compress(zip(once_a.values(), in_b), map(and_, map(ge, once_a.values(), repeat(0)), map(ge, in_b, repeat(0))))
    )
    after = list(map(itemgetter(1), by_key))
    if all(map(lt, after, after[1:])):
        return []  # all in order (nearly every pass): the heaviest run is all of them, whatever they weigh
    weights, unchanged = [], len(a_keys) + len(b_keys) + 1
    for fi, fj in by_key:
        (_ka, sa, ea), (_kb, sb, eb) = fns_a[fi], fns_b[fj]
        size = ea - sa + eb - sb
        weights.append(size * unchanged if a_keys[sa:ea] == b_keys[sb:eb] else size)
    kept = set(_heaviest_increasing(after, weights, len(fns_b)))
    return [pair for k, pair in enumerate(by_key) if k not in kept]


def _same_order(keys_a: list[str], keys_b: list[str]) -> bool:
    """Whether the keys both sides hold come in the same order on each (with their repeats): those held once on
    each side are then in order, the heaviest set is all of them and nothing moved (checked in C)."""
    held_a, held_b = set(keys_a), set(keys_b)
    return list(compress(keys_a, map(held_b.__contains__, keys_a))) == list(
        compress(keys_b, map(held_a.__contains__, keys_b))
    )


def _once(fns) -> dict[str, int]:
    """Each key's function index, -1 for a key held by several functions (built in C: thousands a pair)."""
    keys = list(map(itemgetter(0), fns))
    where = dict(zip(keys, range(len(keys))))
    if len(where) < len(keys):
        where.update(dict.fromkeys([key for key, count in Counter(keys).items() if count > 1], -1))
    return where


def _heaviest_increasing(values: list[int], weights: list[int], size: int) -> list[int]:
    """Indices of the subsequence of `values` (distinct, in [0, size)) that increases and has the
    largest total weight: a Fenwick tree of prefix maxima, O(k log k)."""
    tree_best, tree_at = [0] * (size + 1), [-1] * (size + 1)
    total, before = [0] * len(values), [-1] * len(values)
    for k, value in enumerate(values):
        best, at, p = 0, -1, value  # the best run ending below `value`
        while p > 0:
            if tree_best[p] > best:
                best, at = tree_best[p], tree_at[p]
            p -= p & -p
        total[k], before[k] = best + weights[k], at
        p = value + 1
        while p <= size:
            if total[k] > tree_best[p]:
                tree_best[p], tree_at[p] = total[k], k
            p += p & -p
    k = max(range(len(values)), key=lambda t: (total[t], -t), default=-1)
    run = []
    while k >= 0:
        run.append(k)
        k = before[k]
    return run[::-1]


def _segment_ranges(n: int, m: int, fns_a, fns_b, max_edits: int) -> list[tuple[int, int, int, int]]:
    """The matched functions' ranges and the stretches between them, in order (built with C iterators:
    a pair has thousands of functions)."""
    if not fns_a or not fns_b:
        return [(0, n, 0, m)]
    matched = match_sequences(list(map(itemgetter(0), fns_a)), list(map(itemgetter(0), fns_b)), max_edits)
    kept_a = list(map(fns_a.__getitem__, map(itemgetter(0), matched)))
    kept_b = list(map(fns_b.__getitem__, map(itemgetter(1), matched)))
    return _ranges(n, m, kept_a, kept_b)


def _ranges(n: int, m: int, kept_a, kept_b) -> list[tuple[int, int, int, int]]:
    """The ranges of functions matched one to one, in order, and the stretches between them."""
    starts_a, ends_a = list(map(itemgetter(1), kept_a)), list(map(itemgetter(2), kept_a))
    starts_b, ends_b = list(map(itemgetter(1), kept_b)), list(map(itemgetter(2), kept_b))
    ranges: list = [None] * (2 * len(kept_a) + 1)
    ranges[0::2] = zip([0, *ends_a], [*starts_a, n], [0, *ends_b], [*starts_b, m])  # the stretches
    ranges[1::2] = zip(starts_a, ends_a, starts_b, ends_b)  # the functions
    return ranges


def _ordered(fns) -> bool:
    """Whether each function's lines are a range, after the one before (compared in C: thousands a pair)."""
    starts, ends = list(map(itemgetter(1), fns)), list(map(itemgetter(2), fns))
    return all(map(le, starts, ends)) and all(map(ge, starts[1:], ends))

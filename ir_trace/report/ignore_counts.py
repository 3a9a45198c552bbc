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

from ir_trace.diffcore.linediff import changed_key_spans, changed_spans
from ir_trace.noise.mlir_normalize import IGNORED_LINE
from ir_trace.noise.normalize import MODES, IgnoreModes, remembered

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
    of the change: each snapshot's keys are taken once (adjacent pairs share a snapshot), whether they
    keep its lines apart is known per snapshot, so a pair checks only the lines the after side adds; and
    sets that key both sides alike share one keyed diff."""
    before, after = _snapshot_keys(a, kind), _snapshot_keys(b, kind)
    added = after.distinct - before.distinct  # every line of `b` that `a` lacks: few, unless the pass rewrote all
    counts: dict[str, list[int]] = {}
    diffed: list[tuple[list[str], list[str], Sequence[LineSpan]]] = []  # the key lists each keyed diff came from
    *own, every = precomputed_sets(kind)
    for modes in own if before.other_modes_inert and after.other_modes_inert else [*own, every]:
        a_keys, b_keys = before.keys(modes), after.keys(modes)
        if _apart(before, after, modes, added):
            spans = exact
        else:
            alike = [found for ka, kb, found in diffed if _keyed_alike(ka, kb, a_keys, b_keys)][:1]
            spans = (
                alike[0]
                if alike
                else [Span(*span) for span in changed_key_spans(a_keys, b_keys, a_eol, b_eol, a_functions, b_functions)]
            )
            diffed.append((a_keys, b_keys, spans))
        counts[modes.spec()] = [sum(h.b1 - h.b0 for h in spans), sum(h.a1 - h.a0 for h in spans)]
    if every.spec() not in counts:  # every mode on keys each line as the language's own modes do
        counts[every.spec()] = counts[own[-1].spec()]
    return counts


def _keyed_alike(a_keys: list[str], b_keys: list[str], a_other: list[str], b_other: list[str]) -> bool:
    """Whether two sets' keys of both snapshots tell the same lines equal and the same lines ignored whole: the
    keyed diff compares keys only for equality and asks only that of them, so it gives the same spans."""
    if a_keys is a_other and b_keys is b_other:
        return True
    pairs = set(zip(a_keys, a_other))
    pairs.update(zip(b_keys, b_other))
    keys, others = {key for key, _ in pairs}, {other for _, other in pairs}
    if not len(pairs) == len(keys) == len(others):
        return False
    return all(key.startswith(IGNORED_LINE) == other.startswith(IGNORED_LINE) for key, other in pairs)


def _apart(before: _SnapshotKeys, after: _SnapshotKeys, modes: IgnoreModes, added: set[str]) -> bool:
    """Whether the modes key no two different lines of the two snapshots alike (`keys_keep_lines_apart` of
    their lines together). With each side's lines apart, two lines sharing a key are one of each side, and
    one of them is missing from the other side (else it would share its key with itself there): so a line
    only `b` has, keyed as a different line of `a`."""
    a_owners, b_owners = before.owners(modes), after.owners(modes)
    if a_owners is None or b_owners is None:
        return False
    key = after.key(modes)
    return all(a_owners.get(key(line), line) == line for line in added)


class _SnapshotKeys:
    """One snapshot's lines keyed under each precomputed set, remembered while its pairs are counted."""

    def __init__(self, lines: list[str], kind: str):
        self.lines = lines  # held: while remembered, no other list can take its id
        self.kind = kind
        self.distinct = set(lines)
        self._keys: dict[str, list[str]] = {}
        self._owners: dict[str, dict[str, str] | None] = {}
        self.other_modes_inert = _other_modes_inert(self.distinct, kind)

    def key(self, modes: IgnoreModes) -> Callable[[str], str]:
        return _shared_key(modes, self.kind)

    def keys(self, modes: IgnoreModes) -> list[str]:
        """Each line's key, the list of an earlier set when it keys every line alike (so it is diffed once)."""
        spec = modes.spec()
        if spec not in self._keys:
            key = self.key(modes)
            memo = _memos[spec, self.kind]  # the memo `key` fills (cleared only when a key is made)
            for line in self.distinct - memo.keys():  # the lines no snapshot before had: few
                key(line)
            keys = list(map(memo.__getitem__, self.lines))
            self._keys[spec] = next((earlier for earlier in self._keys.values() if earlier == keys), keys)
        return self._keys[spec]

    def owners(self, modes: IgnoreModes) -> dict[str, str] | None:
        """key -> its line, or None when two different lines of the snapshot share a key."""
        spec = modes.spec()
        if spec not in self._owners:
            owners = dict(zip(self.keys(modes), self.lines))
            self._owners[spec] = owners if len(owners) == len(self.distinct) else None
        return self._owners[spec]


def _snapshot_keys(lines: list[str], kind: str) -> _SnapshotKeys:
    """The remembered keys of this very list of lines (a snapshot's `split`, shared by its two pairs)."""
    found = _snapshots.get((id(lines), kind))
    if found is None or found.lines is not lines:
        found = _snapshots[id(lines), kind] = _SnapshotKeys(lines, kind)
        while len(_snapshots) > _SNAPSHOTS_KEPT:
            del _snapshots[next(iter(_snapshots))]
    return found


_snapshots: dict[tuple[int, str], _SnapshotKeys] = {}
_SNAPSHOTS_KEPT = 4  # a pair's two snapshots and the next pair's; pairs are diffed in order


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
    so each line is normalised once per set, not once per pair it is in. A key runs the modes' steps one
    after the other, each remembered on its own (`_step`): the sets share steps, and a step that changes
    nothing of a line hands the next one a text it has seen, so each line goes through each step about once."""
    spec = (modes.spec(), kind)
    memo = _memos.setdefault(spec, {})
    if len(memo) > _MEMO_LIMIT:
        memo.clear()
    steps = [_step(strip) for strip in modes.strips(kind)]

    def key(line: str) -> str:
        for step in steps:
            line = step(line)
        return line

    return remembered(key, memo)


def _step(strip: Callable[[str], str]) -> Callable[[str], str]:
    """`strip`, remembering its output for each text it was given."""
    memo = _step_memos.setdefault(strip, {})
    if len(memo) > _MEMO_LIMIT:
        memo.clear()

    return remembered(strip, memo)


_memos: dict[tuple[str, str], dict[str, str]] = {}
_step_memos: dict[Callable[[str], str], dict[str, str]] = {}
_MEMO_LIMIT = 1 << 17  # lines remembered per set and per step (then forgotten at once: the next pairs refill it)

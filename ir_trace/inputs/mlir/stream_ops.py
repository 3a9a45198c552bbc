"""Which op each dump of a stream without module scope holds, where several ops print alike.

Without module scope a dump holds only the op its pass ran on; a symbol tells `util.func @mlp` from
`util.func @scale`, but IREE's `util.initializer`s have none, so their dumps all read
`util.initializer`. The pass manager tells them apart: between two dumps of an op holding them (the
module), an adaptor runs its nested pipeline on each of them in turn, in module order, so a run
restarts at the pipeline's first pass for the next op. Each run then continues the op whose last
text it continues best, keeping module order (a pass that changed nothing continues its op's
text exactly, so a no-op never shows a diff); an op no run continues is gone, a run that continues
no op is a new one. This works on dumps already parsed (after reading), as the tree's
`ops_of_shared_directory` does with the counters a stream lacks.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

ROOT_KIND = "builtin.module"  # the op the pipeline runs on: one trace, never split
_SIMILAR = 0.5  # a run continues an op only when they share at least this share of lines
_MOST_PAIRS = 10_000  # runs x ops of one gap compared by content; past it, run i continues op i


@dataclass(frozen=True)
class StreamDump:
    """What grouping needs of one parsed dump: the op it holds, its pass, its IR."""

    unit: str  # `util.initializer`, `func.func @f`
    pass_key: str  # the pass as its header names it (argument and options)
    text: str


@dataclass
class _Op:
    dumps: list[int]
    last_text: str


def ops_of_stream(dumps: list[StreamDump]) -> tuple[list[int], int]:
    """For each dump, the number of its op among the ops of its unit (in order of first dump; 0
    where a unit names one op), and how many runs could as well have continued another op."""
    numbers = [0] * len(dumps)
    unsure = 0
    for kind in _kinds_to_split(dumps):
        ops, kind_unsure = _split_kind(dumps, kind)
        unsure += kind_unsure
        for number, op in enumerate(sorted(ops, key=lambda op: op.dumps[0])):
            for index in op.dumps:
                numbers[index] = number
    return numbers, unsure


def _kinds_to_split(dumps: list[StreamDump]) -> list[str]:
    """Units without a symbol, the root module aside: several ops may share the name."""
    kinds = {dump.unit for dump in dumps if "@" not in dump.unit and dump.unit != ROOT_KIND}
    return sorted(kinds)


def _split_kind(dumps: list[StreamDump], kind: str) -> tuple[list[_Op], int]:
    nested = re.compile(rf"^[ \t]+{re.escape(kind)}(?:[ {{(]|$)", re.MULTILINE)
    ops: list[_Op] = []
    previous: list[_Op] = []  # the ops the last gap ran on, in module order
    unsure = 0
    for gap in _gaps(dumps, kind, nested):
        runs = _runs(dumps, gap)
        matched, gap_unsure = _continue(runs, previous, dumps)
        unsure += gap_unsure
        current = []
        for run, op in zip(runs, matched):
            if op is None:
                op = _Op([], "")
                ops.append(op)
            op.dumps.extend(run)
            op.last_text = dumps[run[-1]].text
            current.append(op)
        previous = current
    return ops, unsure


def _gaps(dumps: list[StreamDump], kind: str, nested) -> list[list[int]]:
    """The kind's dumps cut where a dump of an op holding such ops (their parent) comes between."""
    gaps: list[list[int]] = []
    open_gap = False
    for index, dump in enumerate(dumps):
        if dump.unit == kind:
            if not open_gap:
                gaps.append([])
                open_gap = True
            gaps[-1].append(index)
        elif open_gap and nested.search(dump.text):
            open_gap = False
    return gaps


def _runs(dumps: list[StreamDump], gap: list[int]) -> list[list[int]]:
    """A gap's dumps cut into one run per op: each restarts at the gap's first pass."""
    first_pass = dumps[gap[0]].pass_key
    runs: list[list[int]] = []
    for index in gap:
        if not runs or dumps[index].pass_key == first_pass:
            runs.append([])
        runs[-1].append(index)
    return runs


def _continue(runs: list[list[int]], previous: list[_Op], dumps: list[StreamDump]) -> tuple[list[_Op | None], int]:
    """The op each run continues (None: a new op), in module order on both sides: the alignment
    with the most lines in common (quadratic in the ops of one gap, a handful), and how many runs
    tied with another op whose text differs."""
    if len(runs) * len(previous) > _MOST_PAIRS:  # thousands of such ops: module order alone, kept linear
        return [previous[i] if i < len(previous) else None for i in range(len(runs))], 0
    firsts = [Counter(dumps[run[0]].text.splitlines()) for run in runs]
    lasts = [Counter(op.last_text.splitlines()) for op in previous]
    score = [[_similarity(first, last) for last in lasts] for first in firsts]
    best = [[0.0] * (len(previous) + 1) for _ in range(len(runs) + 1)]
    for i in range(len(runs) - 1, -1, -1):
        for j in range(len(previous) - 1, -1, -1):
            pair = score[i][j] + best[i + 1][j + 1] if score[i][j] >= _SIMILAR else -1.0
            best[i][j] = max(pair, best[i + 1][j], best[i][j + 1])
    matched: list[_Op | None] = []
    unsure = 0
    i = j = 0
    while i < len(runs):
        if j < len(previous) and score[i][j] >= _SIMILAR and best[i][j] == score[i][j] + best[i + 1][j + 1]:
            unsure += _tied(score[i], j, previous)
            matched.append(previous[j])
            i, j = i + 1, j + 1
        elif j < len(previous) and best[i][j] == best[i][j + 1]:
            j += 1
        else:
            matched.append(None)
            i += 1
    return matched, unsure


def _tied(scores: list[float], chosen: int, previous: list[_Op]) -> int:
    """1 when another op with another text fits the run as well as the chosen one."""
    text = previous[chosen].last_text
    return int(any(s == scores[chosen] and op.last_text != text for s, op in zip(scores, previous)))


def _similarity(first: Counter, last: Counter) -> float:
    """The share of lines two texts have in common (as multisets)."""
    total = sum(first.values()) + sum(last.values())
    return 2 * sum((first & last).values()) / total if total else 1.0

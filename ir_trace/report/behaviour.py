"""What each aligned pass did in run A against what it did in run B (run against run).

A pass's change is the multiset of lines it deleted and the multiset it inserted (its input's lines
against its output's, counted, so context and line numbers do not matter). Where the two runs'
inputs differ, A's change is first carried into B's terms: tokens that differ between paired lines
of the two inputs (`139328` in A where B has `139840`) are replaced in A's deleted and inserted
lines (those B's change lacks as they are), so a pass that rewrites a line carrying the upstream
difference still made the same change.
"""

from __future__ import annotations

import re
from collections import Counter

_TOKEN = re.compile(r"[^\W\d]+|\d+|\s+|[^\w\s]")  # words and numbers apart: `%c16` is `%`, `c`, `16`

SAME = "same"
CARRIED_OVER = "carried-over"
DIFFERENT = "different"


def pass_behaviour(in_a: list[str], out_a: list[str], in_b: list[str], out_b: list[str]) -> str:
    """ "same", "carried-over" or "different" for one pass present in both runs."""
    if in_a == in_b:
        return SAME if out_a == out_b else DIFFERENT
    tokens = _upstream_tokens(in_a, in_b)
    deleted_a, inserted_a = _change(in_a, out_a)
    deleted_b, inserted_b = _change(in_b, out_b)
    carried = (_carried(deleted_a, tokens, deleted_b), _carried(inserted_a, tokens, inserted_b))
    return CARRIED_OVER if carried == (deleted_b, inserted_b) else DIFFERENT


def _change(before: list[str], after: list[str]) -> tuple[Counter, Counter]:
    """The lines a pass deleted and the lines it inserted, counted."""
    old, new = Counter(before), Counter(after)
    return old - new, new - old


def _upstream_tokens(in_a: list[str], in_b: list[str]) -> dict[str, str]:
    """Token replacements turning A's input lines into B's: the k-th line only in A is paired with
    the k-th line only in B; where both split into as many tokens, each differing token maps.
    A token seen mapping two ways is dropped (ambiguous)."""
    only_a, only_b = _change(in_a, in_b)
    lines_a, lines_b = _in_order(in_a, only_a), _in_order(in_b, only_b)
    mapping: dict[str, str] = {}
    clashing: set[str] = set()
    for line_a, line_b in zip(lines_a, lines_b):
        tokens_a, tokens_b = _TOKEN.findall(line_a), _TOKEN.findall(line_b)
        if len(tokens_a) != len(tokens_b):
            continue
        for token_a, token_b in zip(tokens_a, tokens_b):
            if token_a != token_b and mapping.setdefault(token_a, token_b) != token_b:
                clashing.add(token_a)
    return {token: to for token, to in mapping.items() if token not in clashing}


def _in_order(lines: list[str], wanted: Counter) -> list[str]:
    """The lines counted in `wanted`, in the order `lines` has them (the first occurrences)."""
    left = Counter(wanted)
    picked = []
    for line in lines:
        if left[line] > 0:
            left[line] -= 1
            picked.append(line)
    return picked


def _carried(lines: Counter, tokens: dict[str, str], theirs: Counter) -> Counter:
    """`lines` of A in B's terms: a line B's change also has stays as it is (a number like `16`
    in `%16` need not be the upstream `16`); the others get A's upstream tokens replaced by B's."""
    if not tokens:
        return lines
    carried: Counter = Counter()
    for line, count in lines.items():
        kept = min(count, theirs[line])
        carried[line] += kept
        if count > kept:
            carried["".join(tokens.get(token, token) for token in _TOKEN.findall(line))] += count - kept
    return carried

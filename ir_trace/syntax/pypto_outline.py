"""Split printed IR into top-level items without parsing it.

A segment is a run of lines that starts at a statement boundary of the module or of a
top-level class body: a function (decorators included), a class header, or any other
statement. Comments and blank lines stay with the segment before them. The diff uses the
segments to compare only what changed; `functions.slice_functions` names them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from itertools import compress, repeat
from operator import and_, itemgetter, not_, or_, sub
from typing import NamedTuple

# Python identifiers: a letter (of any script) or `_`, then word characters.
_NAME = r"([^\W\d]\w*)"
_DEF = re.compile(r"(?:async\s+)?def\s+" + _NAME)
_CLASS = re.compile(r"class\s+" + _NAME)


class Segment(NamedTuple):
    """Lines [start, end) of one item; `name` is the function or class name, else None.

    A named tuple: a snapshot has thousands, built at a third of a frozen dataclass's cost."""

    start: int
    end: int
    kind: str  # "function", "class" or "statement"
    name: str | None
    cls: str | None  # the enclosing top-level class of a method
    indent: int


def outline(lines: list[str], boundaries: list[bool] | None = None) -> list[Segment]:
    """Segments of `lines`; `boundaries[i]` False forbids a segment starting at line i
    (a line inside brackets or a string), None allows any line."""
    indents = list(map(statement_indent, lines))
    return outline_of_candidates(lines, _candidate_lines(lines, indents, boundaries), indents)


def outline_of_candidates(
    lines: list[str], candidates: list[int], indents: Mapping[int, int] | list[int]
) -> list[Segment]:
    """Segments of `lines` from the lines that may start one (`_candidate_lines`) and their indents
    (`indents[i]` is read only for those lines, so a caller that found them otherwise passes a dict)."""
    their_indents = [indents[i] for i in candidates]
    facts = [line_facts(lines[i][indent:]) for i, indent in zip(candidates, their_indents)]
    return outline_of_facts(len(lines), candidates, their_indents, facts)


Facts = tuple[bool, str | None, str | None]  # a statement's: decorator?, the def's name, the class's name


def outline_of_facts(size: int, candidates: list[int], indents: list[int], facts: list[Facts]) -> list[Segment]:
    """Segments of a text of `size` lines from the lines that may start one, each line's indent and
    `line_facts` (a caller that memoised them per chunk passes them without touching the lines)."""
    segments: list[list] = []  # [start, kind, name, cls, indent, awaiting_def]
    cls_name: str | None = None
    body_indent: int | None = None
    current: list | None = None
    for i, indent, (decorator, def_name, class_name) in zip(candidates, indents, facts):
        if indent == 0:
            cls_name, body_indent = None, None
        elif cls_name is not None and body_indent is None:
            body_indent = indent
        elif indent != body_indent:
            continue
        if current and current[5]:
            if current[4] == indent and (decorator or def_name):
                if def_name:  # a decorator run continues until its def / class
                    current[1], current[2], current[5] = "function", def_name, False
                elif indent == 0 and class_name:
                    current[1], current[2], current[5] = "class", class_name, False
                continue
            if indent == 0 and class_name:
                current[1], current[2], current[5] = "class", class_name, False
                cls_name = class_name
                continue
        kind, name, awaiting = _classify(decorator, def_name, class_name)
        current = [i, kind, name, cls_name if indent else None, indent, awaiting]
        segments.append(current)
        if kind == "class" and indent == 0:
            cls_name = name
    if not segments or segments[0][0] != 0:
        segments.insert(0, [0, "statement", None, None, 0, False])
    ends = [s[0] for s in segments[1:]] + [size]
    return [Segment(s[0], end, s[1], s[2], s[3], s[4]) for s, end in zip(segments, ends) if end > s[0] or not size]


def outline_of_members(size: int, candidates: list[int], indents: list[int], facts: list[Facts]) -> list[Segment]:
    """`outline_of_facts` for candidates whose only indented ones are the members of a class, all at that
    class's body indent (what `functions._chunk_candidates` picks): the few top-level lines go through the
    same steps one by one, a class's thousands of members are decided at once with C iterators. Among
    members, one after a decorator continues its segment when it is a decorator or a def (and nothing
    else does), and a segment is what its last member makes it (`_classify`: a def names a function)."""
    tops = list(compress(range(len(indents)), map(not_, indents)))
    if not tops or tops[0]:
        return outline_of_facts(size, candidates, indents, facts)  # members before any class: not this shape
    columns: tuple[list, list, list, list, list] = (
        [],
        [],
        [],
        [],
        [],
    )  # each segment's start, kind, name, class, indent
    starts, kinds, names, owners, levels = columns
    awaiting, pending = False, 0  # the last segment awaits its def (a decorator run), at that indent
    for k, top in enumerate(tops):
        decorator, def_name, class_name = facts[top]
        if awaiting and (class_name or (pending == 0 and (decorator or def_name))):
            if def_name or class_name:  # a decorator run ends at its def or class
                kinds[-1], names[-1], awaiting = (
                    ("function", def_name, False) if def_name else ("class", class_name, False)
                )
        else:
            kind, name, awaiting = _classify(decorator, def_name, class_name)
            for column, value in zip(columns, (candidates[top], kind, name, None, 0)):
                column.append(value)
            pending = 0
        end = tops[k + 1] if k + 1 < len(tops) else len(indents)
        if top + 1 == end:
            continue
        if not class_name:
            return outline_of_facts(size, candidates, indents, facts)  # members of no class: not this shape
        member_facts = facts[top + 1 : end]
        decorators = list(map(itemgetter(0), member_facts))
        continues = map(
            and_, [False, *decorators[:-1]], map(or_, decorators, map(bool, map(itemgetter(1), member_facts)))
        )
        firsts = list(compress(range(top + 1, end), map(not_, continues)))
        made = list(map(_kind_and_name, map(facts.__getitem__, [*map(sub, firsts[1:], repeat(1)), end - 1])))
        starts += map(candidates.__getitem__, firsts)
        kinds += map(itemgetter(0), made)
        names += map(itemgetter(1), made)
        owners += repeat(class_name, len(firsts))
        levels += repeat(indents[top + 1], len(firsts))
        awaiting, pending = decorators[-1], indents[top + 1]
    if starts[0] != 0:
        for column, value in zip(columns, (0, "statement", None, None, 0)):
            column.insert(0, value)
    ends = [*starts[1:], size]
    return list(map(tuple.__new__, repeat(Segment), zip(starts, ends, kinds, names, owners, levels)))


@lru_cache(maxsize=1 << 16)
def _kind_and_name(facts: Facts) -> tuple[str, str | None]:
    """The kind and name of a segment whose last candidate has these facts (memoised: C-speed lookups)."""
    return _classify(*facts)[:2]


def _candidate_lines(lines: list[str], indents: list[int], boundaries: list[bool] | None) -> list[int]:
    """Lines that may start a segment: code at column 0, and code at the body indent of a class.

    Picking them with comprehensions keeps the per-line work in C; `outline` then looks only
    at these few hundred lines of an 11k-line snapshot.
    """
    allowed = boundaries if boundaries is not None else [True] * len(lines)
    tops = [i for i, indent in enumerate(indents) if indent == 0 and allowed[i]]
    found = []
    for k, top in enumerate(tops):
        found.append(top)
        if not _CLASS.match(lines[top]):
            continue
        end = tops[k + 1] if k + 1 < len(tops) else len(lines)
        body = next((indents[j] for j in range(top + 1, end) if indents[j] > 0 and allowed[j]), None)
        found += [j for j in range(top + 1, end) if indents[j] == body and allowed[j]]
    return found


@lru_cache(maxsize=1 << 16)
def statement_indent(line: str) -> int:
    """Indentation of a line that holds code; -1 for blank and comment lines (memoised per line)."""
    stripped = line.lstrip(" \t")
    return -1 if not stripped or stripped.startswith("#") else len(line) - len(stripped)


def starts_class(line: str) -> bool:
    return _CLASS.match(line) is not None


@lru_cache(maxsize=1 << 16)
def line_facts(stripped: str) -> tuple[bool, str | None, str | None]:
    """Does a statement (indent removed) start a decorator, a def (its name), a class (its name)?
    Memoised: the same def and decorator lines come back in every snapshot."""
    def_match, class_match = _DEF.match(stripped), _CLASS.match(stripped)
    return stripped.startswith("@"), def_match and def_match[1], class_match and class_match[1]


def _classify(decorator: bool, def_name: str | None, class_name: str | None) -> tuple[str, str | None, bool]:
    if decorator:
        return "statement", None, True
    if def_name:
        return "function", def_name, False
    if class_name:
        return "class", class_name, False
    return "statement", None, False

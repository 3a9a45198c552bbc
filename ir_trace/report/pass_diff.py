"""A pass's diff as a report payload carries it (payload.py), read by name instead of by position.

The payload keeps each hunk in the compact list form the page's script reads
(`[a0, a1, b0, b1, after_lines, pairs]`, plus an extras object when one applies, see
`diff.hunks_to_json`); Python code reads it through `PayloadHunk` and writes it back unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class PayloadHunk:
    """Before lines [a0, a1) replaced by after lines [b0, b1), whose texts are `after_lines`.

    `pairs` are the payload's [ai, bi, a_ranges, b_ranges] rows (lines edited in place); `extras`
    the payload's {"moved", "no_eol", "bom"} object, None when none applies.
    """

    a0: int
    a1: int
    b0: int
    b1: int
    after_lines: tuple[str, ...]
    pairs: tuple[list, ...] = ()
    extras: dict | None = None

    @property
    def inserted(self) -> int:
        return self.b1 - self.b0

    @property
    def deleted(self) -> int:
        return self.a1 - self.a0

    def to_json(self) -> list:
        row = [self.a0, self.a1, self.b0, self.b1, list(self.after_lines), list(self.pairs)]
        return row if self.extras is None else [*row, self.extras]

    @classmethod
    def from_json(cls, row: list) -> PayloadHunk:
        a0, a1, b0, b1, after_lines, pairs, *extras = row
        return cls(a0, a1, b0, b1, tuple(after_lines), tuple(pairs), extras[0] if extras else None)


@dataclass(frozen=True, slots=True)
class PassDiff:
    """The edit script turning one snapshot into the next, and its line counts."""

    hunks: tuple[PayloadHunk, ...] = ()
    inserted: int = 0
    deleted: int = 0

    def to_json(self) -> dict:
        return {"hunks": [hunk.to_json() for hunk in self.hunks], "inserted": self.inserted, "deleted": self.deleted}

    @classmethod
    def from_json(cls, data: dict) -> PassDiff:
        """From anything holding "hunks", "inserted" and "deleted": a payload's pass, a cached diff."""
        return cls(tuple(map(PayloadHunk.from_json, data["hunks"])), data["inserted"], data["deleted"])

    def apply(self, before: list[str]) -> list[str]:
        """The after snapshot's lines, from the before snapshot's."""
        if not self.hunks:
            return before
        out: list[str] = []
        position = 0
        for hunk in self.hunks:
            out += before[position : hunk.a0]
            out += hunk.after_lines
            position = hunk.a1
        out += before[position:]
        return out

"""The typed report model after the diff: what a pair's diff step returns and the cache keeps.

Each object has one `to_json` / `from_json`. The JSON forms name their fields (no positional lists)
and carry `MODEL_SCHEMA`; `from_json` gives None for anything else (another schema, an older layout,
a damaged entry), which the cache's reader takes as "recompute", never as an error.

The page reads hunks in its own compact positional form (`[a0, a1, b0, b1, after_lines, pairs,
extras?]`, report/payload.py); `Hunk.to_page` writes it, so the page's JSON is what it always was.
"""

from __future__ import annotations

from dataclasses import dataclass

from ir_trace.diffcore import linediff

MODEL_SCHEMA = 1  # the JSON layout of every object below; a stored object of another schema is recomputed
Ranges = tuple[tuple[int, int], ...]  # [start, end) character ranges, in UTF-16 code units


def _ranges(ranges) -> Ranges:
    return tuple((int(start), int(end)) for start, end in ranges)


@dataclass(frozen=True, slots=True)
class Hunk:
    """Before lines [a0, a1) replaced by after lines [b0, b1), whose texts are `after_lines`.

    `pairs`: (before line, after line, before ranges, after ranges) of each line edited in place, the
    ranges [start, end) in UTF-16 code units of the characters that changed; `moved`: (before line,
    after line) of unchanged lines moved with either end here; `no_eol` / `bom`: whether each side's last
    line lacks its final newline / each side starts with a byte order mark, when that applies here.
    """

    a0: int
    a1: int
    b0: int
    b1: int
    after_lines: tuple[str, ...]
    pairs: tuple[tuple[int, int, Ranges, Ranges], ...] = ()
    moved: tuple[tuple[int, int], ...] = ()
    no_eol: tuple[bool, bool] | None = None
    bom: tuple[bool, bool] | None = None

    @classmethod
    def from_diff(cls, hunk: linediff.Hunk, after: list[str]) -> Hunk:
        """From the line diff's hunk and the after snapshot's lines."""
        pairs = tuple((p.a, p.b, _ranges(p.a_ranges), _ranges(p.b_ranges)) for p in hunk.pairs)
        lines = tuple(after[hunk.b0 : hunk.b1])
        return cls(hunk.a0, hunk.a1, hunk.b0, hunk.b1, lines, pairs, hunk.moved, hunk.no_eol, hunk.bom)

    def to_json(self) -> dict:
        data: dict = {
            "before": [self.a0, self.a1],
            "after": [self.b0, self.b1],
            "after_lines": list(self.after_lines),
            "pairs": [_pair_json(pair) for pair in self.pairs],
        }
        data.update(self._extras())
        return data

    @classmethod
    def from_json(cls, data: dict) -> Hunk:
        """KeyError / TypeError / ValueError on anything not written by `to_json`."""
        (a0, a1), (b0, b1) = data["before"], data["after"]
        pairs = tuple((int(a), int(b), _ranges(ra), _ranges(rb)) for a, b, ra, rb in data["pairs"])
        moved = tuple((int(a), int(b)) for a, b in data.get("moved", ()))
        no_eol, bom = data.get("no_eol"), data.get("bom")
        return cls(
            int(a0),
            int(a1),
            int(b0),
            int(b1),
            tuple(str(line) for line in data["after_lines"]),
            pairs,
            moved,
            (bool(no_eol[0]), bool(no_eol[1])) if no_eol else None,
            (bool(bom[0]), bool(bom[1])) if bom else None,
        )

    def to_page(self) -> list:
        """The page's positional form (report/payload.py `hunk`)."""
        row = [self.a0, self.a1, self.b0, self.b1, list(self.after_lines), [_pair_json(pair) for pair in self.pairs]]
        extras = self._extras()
        return [*row, extras] if extras else row

    def _extras(self) -> dict:
        found = {"moved": [list(move) for move in self.moved], "no_eol": self.no_eol, "bom": self.bom}
        return {key: list(value) for key, value in found.items() if value}


@dataclass(frozen=True, slots=True)
class PairDiff:
    """The diff turning one snapshot into the next, as the pair's diff step returns it and the cache
    keeps it: its hunks, line counts, the after side's final newline, and the line counts under each
    precomputed ignore-mode set (`IgnoreModes.spec()` -> (inserted, deleted), report/ignore_counts.py)."""

    hunks: tuple[Hunk, ...]
    inserted: int
    deleted: int
    eol: bool
    ignore_counts: dict[str, tuple[int, int]]

    def to_json(self) -> dict:
        return {
            "schema": MODEL_SCHEMA,
            "hunks": [hunk.to_json() for hunk in self.hunks],
            "inserted": self.inserted,
            "deleted": self.deleted,
            "eol": self.eol,
            "ignore_counts": {spec: list(counts) for spec, counts in self.ignore_counts.items()},
        }

    @classmethod
    def from_json(cls, data) -> PairDiff | None:
        """The diff, or None for anything else (another schema, a damaged or foreign entry: recomputed)."""
        try:
            if data["schema"] != MODEL_SCHEMA:
                return None
            counts = {str(spec): (int(ins), int(dels)) for spec, (ins, dels) in data["ignore_counts"].items()}
            hunks = tuple(Hunk.from_json(hunk) for hunk in data["hunks"])
            return cls(hunks, int(data["inserted"]), int(data["deleted"]), bool(data["eol"]), counts)
        except (KeyError, TypeError, ValueError, AttributeError):
            return None

    def to_page(self) -> dict:
        """What a payload's pass takes of it (report/payload.py `pass`): hunks in the page's form."""
        return {
            "hunks": [hunk.to_page() for hunk in self.hunks],
            "inserted": self.inserted,
            "deleted": self.deleted,
            "ignore_counts": {spec: list(counts) for spec, counts in self.ignore_counts.items()},
        }


def _pair_json(pair: tuple[int, int, Ranges, Ranges]) -> list:
    a, b, a_ranges, b_ranges = pair
    return [a, b, [list(r) for r in a_ranges], [list(r) for r in b_ranges]]

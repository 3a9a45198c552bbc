"""Typed rows of the summaries, pass by pass: what `--json` says of each pass of a report, and of
each matched pass of a run against run. Each has one `to_json` (the field names `--json` has always
had, in the same order) and one `from_json`."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class LineCounts:
    """Lines inserted and deleted (in one function, or outside every function)."""

    inserted: int = 0
    deleted: int = 0

    def to_json(self) -> dict:
        return {"inserted": self.inserted, "deleted": self.deleted}

    @classmethod
    def from_json(cls, data: dict) -> LineCounts:
        return cls(data["inserted"], data["deleted"])


def _counts_json(counts: LineCounts, shared: dict | None) -> dict:
    if shared is None:
        return counts.to_json()
    found = shared.get(counts)  # LineCounts is frozen, so hashable by value
    if found is None:
        found = shared[counts] = counts.to_json()
    return found


@dataclass(frozen=True, slots=True)
class ChangeCounts:
    """How a pass changed its input: in all, by function touched (sorted by key), outside functions."""

    changed: bool
    inserted: int
    deleted: int
    functions: dict[str, LineCounts] = field(default_factory=dict)
    outside_functions: LineCounts = LineCounts()

    def to_json(self, shared: dict | None = None) -> dict:
        """`shared`: one dict for a document's rows, where equal counts give one object."""
        functions = {key: _counts_json(counts, shared) for key, counts in self.functions.items()}
        if shared is not None and functions:
            functions = shared.setdefault(("functions", *self.functions.items()), functions)
        return {
            "changed": self.changed,
            "inserted": self.inserted,
            "deleted": self.deleted,
            "functions": functions,
            "outside_functions": _counts_json(self.outside_functions, shared),
        }

    @classmethod
    def from_json(cls, data: dict) -> ChangeCounts:
        return cls(
            data["changed"],
            data["inserted"],
            data["deleted"],
            {key: LineCounts.from_json(counts) for key, counts in data["functions"].items()},
            LineCounts.from_json(data["outside_functions"]),
        )


@dataclass(frozen=True, slots=True)
class PassSummary:
    """One pass of a report's `--json`: its snapshot, its changes, its log, and (with ignore modes)
    its changes once the lines compare by their keys. `file` is a path, or a stream's header index."""

    index: int
    name: str
    file: str | int
    sha256: str
    changes: ChangeCounts
    warning_text: str | None = None
    header: dict | None = None  # MLIR only: the dump's header line (mlir/headers.py PassHeader)
    ignoring: ChangeCounts | None = None

    @property
    def warning(self) -> bool:
        return self.warning_text is not None

    def to_json(self, shared: dict | None = None) -> dict:
        """`shared` as `ChangeCounts.to_json` takes it."""
        changes = self.changes.to_json(shared)
        row = {"index": self.index, "name": self.name, "file": self.file, "sha256": self.sha256}
        row.update(changes)
        row.update(warning=self.warning, warning_text=self.warning_text)
        if self.header is not None:
            row["header"] = self.header
        if self.ignoring is not None:
            row["ignoring"] = self.ignoring.to_json(shared)
        return row

    @classmethod
    def from_json(cls, data: dict) -> PassSummary:
        ignoring = data.get("ignoring")
        return cls(
            data["index"],
            data["name"],
            data["file"],
            data["sha256"],
            ChangeCounts.from_json(data),
            data["warning_text"],
            data.get("header"),
            ChangeCounts.from_json(ignoring) if ignoring is not None else None,
        )


@dataclass(frozen=True, slots=True)
class PassRef:
    """A pass named in a comparison: its index in its run, its name, its snapshot's hash."""

    index: int
    name: str
    sha256: str

    def to_json(self) -> dict:
        return {"index": self.index, "name": self.name, "sha256": self.sha256}

    @classmethod
    def from_json(cls, data: dict | None) -> PassRef | None:
        return None if data is None else cls(data["index"], data["name"], data["sha256"])


@dataclass(frozen=True, slots=True)
class MatchSummary:
    """One matched pass of a run against run: its pass in A and in B (None where the run lacks it),
    how it matched, whether the outputs differ and (both present) by how many lines."""

    a: PassRef | None
    b: PassRef | None
    status: str  # "matched", "renamed", "only-a" or "only-b"
    differs: bool
    inserted: int | None = None
    deleted: int | None = None
    behaviour: str | None = None  # behaviour.py: "same", "carried-over", "different", "only-in-a", ...
    differs_ignoring: bool | None = None  # whether the outputs differ under the ignore modes (when on)

    def to_json(self) -> dict:
        row = {
            "a": self.a.to_json() if self.a else None,
            "b": self.b.to_json() if self.b else None,
            "status": self.status,
            "differs": self.differs,
            "inserted": self.inserted,
            "deleted": self.deleted,
            "behaviour": self.behaviour,
        }
        return row if self.differs_ignoring is None else {**row, "ignoring": {"differs": self.differs_ignoring}}

    @classmethod
    def from_json(cls, data: dict) -> MatchSummary:
        return cls(
            PassRef.from_json(data["a"]),
            PassRef.from_json(data["b"]),
            data["status"],
            data["differs"],
            data["inserted"],
            data["deleted"],
            data.get("behaviour"),
            (data.get("ignoring") or {}).get("differs"),
        )

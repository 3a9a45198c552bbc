"""The typed report model the page is made from: a Report of Traces of PassRecords.

`payload.build_payload` builds it from the diffs; `summaries/` derive the `--json` document and the
summary line from it; its `to_json` is the page's payload, byte for byte what the page's script reads
(PAYLOAD_SCHEMA). Each object has one `to_json` / `from_json`; `from_json` raises KeyError / TypeError
/ ValueError on anything else. Paths are as built (absolute); `payload.portable_payload` makes the
page's copy name no directory of this machine.

Hunks keep the page's compact positional form (`pass_diff.PayloadHunk`; `model.Hunk.to_page` writes it):
`[a0, a1, b0, b1, after_lines, pairs]`, plus an extras object when one applies: before lines [a0, a1)
replaced by after lines [b0, b1) (0-based, absolute). `pairs`: `[ai, bi, a_ranges, b_ranges]`, the same
line edited, in increasing order on both sides, ranges `[start, end]` in UTF-16 code units (JavaScript
string offsets) of the characters that changed; unpaired lines are plain deletions / insertions. Extras
(readers of six-element hunks can ignore them): "moved" `[[ai, bj], ...]` (an unchanged line moved,
listed in the hunk of each end), "no_eol" `[a, b]` (the side's last line is here and has no final
newline), "bom" `[a, b]` (the sides' byte order marks differ; line 0 is here).

A sliced record's functions are `[[key, start, end], ...]`, or `{"shifted": runs}` over the sliced record's before
it (function_runs.py), which most lists are: adjacent snapshots' functions move by the lines inserted above them.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from ir_trace.inputs.mlir.headers import PassHeader
from ir_trace.noise.normalize import IgnoreModes
from ir_trace.report.function_runs import Function, function_runs, read_functions
from ir_trace.report.pass_diff import PassDiff
from ir_trace.report.payload_schema import PAYLOAD_SCHEMA


@dataclass(frozen=True, slots=True)
class PassRecord:
    """One snapshot of a trace: its first (the base, carrying its `lines`) or a pass's output.

    `file`: the path below the trace's dump (a stream's snapshot: its header index); `sha256`: of the
    snapshot's bytes; `eol`: the text ends with a newline; `lines`: the base's text split at newlines
    (without the empty piece after a final one); `log`: the pass's remarks and `log_file` their file;
    `header`: the MLIR dump header.
    A pass (not the base) carries `diff`, the edit script from the previous snapshot, `changed` (the text
    differs from it) and, when changed, `ignore_counts`: IgnoreModes.spec() -> (inserted, deleted) under
    each precomputed mode set (ignore_counts.py). `sliced`: the record carries its snapshot's functions
    (sorted, disjoint) or, when None, the `parse_error`; a snapshot equal to the previous carries none
    (the previous list holds).
    """

    index: int
    name: str
    file: str | int
    sha256: str
    eol: bool
    log: str | None = None
    log_file: str | None = None
    header: PassHeader | None = None
    lines: tuple[str, ...] | None = None
    diff: PassDiff | None = None
    changed: bool = False
    ignore_counts: dict[str, tuple[int, int]] | None = None
    sliced: bool = False
    functions: tuple[Function, ...] | None = None
    parse_error: str | None = None

    def to_json(self, shared: dict | None = None, base: tuple[Function, ...] | None = None) -> dict:
        """`shared`: one dict for a whole payload, so a header, diff, counts or functions object several passes
        hold gives one JSON object they all hold (100,000 passes of a stream share a few headers). `base`: the
        functions of the sliced record before it, which its own are written as runs over (function_runs.py)."""
        data: dict = {
            "index": self.index,
            "name": self.name,
            "file": self.file,
            "sha256": self.sha256,
            "eol": self.eol,
            "log": self.log,
            "log_file": self.log_file,
        }
        if self.header is not None:
            data["header"] = made_once(self.header, _header_json, shared)
        if self.diff is None:
            data["lines"] = list(self.lines or ())
        else:
            data.update(made_once(self.diff, _diff_json, shared), changed=self.changed)
            if self.ignore_counts is not None:
                data["ignore_counts"] = made_once(self.ignore_counts, _counts_json, shared)
        if self.sliced:
            data["functions"] = None if self.functions is None else _functions_form(self.functions, base, shared)
            if self.functions is None:
                data["parse_error"] = self.parse_error
        return data

    @classmethod
    def from_json(cls, data: dict, base: tuple[Function, ...] | None = None) -> PassRecord:
        """`base` as in `to_json` (the functions its own runs are over, when they are written so)."""
        header = PassHeader.from_json(data["header"]) if "header" in data else None
        is_base = "hunks" not in data
        counts = data.get("ignore_counts")
        functions = data.get("functions")
        return cls(
            index=data["index"],
            name=data["name"],
            file=data["file"],
            sha256=data["sha256"],
            eol=bool(data["eol"]),
            log=data.get("log"),
            log_file=data.get("log_file"),
            header=header,
            lines=tuple(data["lines"]) if is_base else None,
            diff=None if is_base else PassDiff.from_json(data),
            changed=bool(data.get("changed", False)),
            ignore_counts=None if counts is None else {s: (int(i), int(d)) for s, (i, d) in counts.items()},
            sliced="functions" in data,
            functions=None if functions is None else read_functions(functions, base),
            parse_error=data.get("parse_error"),
        )


def made_once(value, make, memo: dict | None):
    """`make(value)`, made once per object when `memo` is given: objects several records hold (a header, a
    diff, a functions tuple kept from pass to pass) give one result they all hold. Keyed by id, so the
    caller keeps the objects alive while `memo` lives."""
    if memo is None:
        return make(value)
    found = memo.get(id(value))
    if found is None:
        found = memo[id(value)] = make(value)
    return found


def _header_json(header: PassHeader) -> dict:
    return header.to_json()


def _diff_json(diff: PassDiff) -> dict:
    return diff.to_json()


def _functions_json(functions: tuple) -> list[list]:
    return [list(function) for function in functions]


def _functions_form(functions: tuple[Function, ...], base: tuple[Function, ...] | None, shared: dict | None):
    """A record's functions in the payload: runs over `base` when that is shorter, else the list."""
    runs = None if base is None else function_runs(base, functions)
    return {"shifted": runs} if runs is not None else made_once(functions, _functions_json, shared)


def _counts_json(counts: dict[str, tuple[int, int]]) -> dict:
    return {spec: list(pair) for spec, pair in counts.items()}


def _records_from_json(passes: list[dict]) -> tuple[PassRecord, ...]:
    found, base = [], None
    for data in passes:
        record = PassRecord.from_json(data, base)
        found.append(record)
        if record.sliced:
            base = record.functions
    return tuple(found)


@dataclass(frozen=True, slots=True)
class Trace:
    """One chain of snapshots in one language (`kind`: "pypto" | "mlir", which decides what a function
    is and what the ignore modes remove). `passes[0]` is the base, then execution order; no diff crosses
    a trace boundary. `dump`: the directory or stream file read (`stream`: MLIR streams only, the file the
    dumps are in); `level`: "EXPLICIT" | "CONCISE" | "UNKNOWN", guessed from the text; `warnings`: the
    reader's remarks (dumps that overwrote each other). In a report of several traces `stage`
    ("pypto" | "ptoas" | "mlir") and `unit` say where it comes from."""

    title: str
    dump: str
    kind: str
    level: str
    passes: tuple[PassRecord, ...]
    warnings: tuple[str, ...] = ()
    stream: str | None = None
    stage: str | None = None
    unit: str | None = None

    def to_json(self) -> dict:
        """The trace's entry in a report of several traces."""
        origin = {"stage": self.stage, "unit": self.unit, "kind": self.kind, "warnings": list(self.warnings)}
        return {**origin, **self._own_json()}

    @classmethod
    def from_json(cls, data: dict) -> Trace:
        return cls(
            title=data["title"],
            dump=data["dump"],
            kind=data.get("kind", "pypto"),
            level=data["level"],
            passes=_records_from_json(data["passes"]),
            warnings=tuple(data.get("warnings") or ()),
            stream=data.get("stream"),
            stage=data.get("stage"),
            unit=data.get("unit"),
        )

    def _own_json(self) -> dict:
        stream = {"stream": self.stream} if self.stream is not None else {}
        return {"title": self.title, "dump": self.dump, **stream, "level": self.level, "passes": self.passes_json()}

    def passes_json(self) -> list[dict]:
        """Its records in the payload, each sliced one's functions written over the sliced one's before it."""
        shared: dict = {}
        found, base = [], None
        for record in self.passes:
            found.append(record.to_json(shared, base))
            if record.sliced:
                base = record.functions
        return found

    def functions_per_snapshot(self) -> Iterator[tuple[Function, ...] | None]:
        """Each snapshot's functions; one not sliced shares (is) its predecessor's."""
        current = None
        for record in self.passes:
            current = record.functions if record.sliced else current
            yield current


@dataclass(frozen=True, slots=True)
class Report:
    """A report: one trace, or several (a program directory: PyPTO's passes_dump/ first, then each ptoas
    unit's MLIR passes in name order; `several`). `dump` is the path given, `title` the program directory
    (the parent of passes_dump/), `level` the first PyPTO trace's; `context` (--context: unchanged lines kept
    around a change) and `ignore` (--ignore: the page's initial ignore modes; hunks are always the exact
    diff) are the report options."""

    generator: str
    title: str
    dump: str
    context: int
    level: str
    traces: tuple[Trace, ...]
    ignore: IgnoreModes = IgnoreModes()
    several: bool = False
    schema: int = PAYLOAD_SCHEMA

    def to_json(self) -> dict:
        """The page's payload: a one-trace report holds its trace's fields at the top, "passes" included."""
        top = {"schema": self.schema, "generator": self.generator, "title": self.title, "dump": self.dump}
        options = {"context": self.context, "level": self.level, "ignore": self.ignore.to_json()}
        if self.several:
            return {**top, **options, "traces": [trace.to_json() for trace in self.traces]}
        trace = self.traces[0]
        stream = {"stream": trace.stream} if trace.stream is not None else {}
        shown = {"kind": trace.kind, "warnings": list(trace.warnings)}
        return {**top, **stream, **shown, **options, "passes": trace.passes_json()}

    @classmethod
    def from_json(cls, data: dict) -> Report:
        if data["schema"] != PAYLOAD_SCHEMA:
            raise ValueError(f"payload schema {data['schema']!r}, not {PAYLOAD_SCHEMA}")
        several = "traces" in data
        traces = tuple(map(Trace.from_json, data["traces"])) if several else (Trace.from_json(data),)
        return cls(
            generator=data["generator"],
            title=data["title"],
            dump=data["dump"],
            context=data["context"],
            level=data["level"],
            traces=traces,
            ignore=IgnoreModes.from_json(data.get("ignore")),
            several=several,
            schema=data["schema"],
        )

    def all_passes(self) -> Iterator[PassRecord]:
        """Every pass of every trace (each trace's base is no pass)."""
        for trace in self.traces:
            yield from trace.passes[1:]

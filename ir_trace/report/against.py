"""Run against run: match the passes of two dumps of one program and describe how they differ.

Passes are matched by position in the pipeline and by name: equal names line up, a pass
present in only one run is reported as inserted or removed, and two different names at the
same place in the pipeline as a rename.
"""

from __future__ import annotations

from dataclasses import dataclass
from difflib import SequenceMatcher
from pathlib import PurePath

from ir_trace import __version__
from ir_trace.inputs.traces import Trace
from ir_trace.noise.mlir_normalize import IGNORED_LINE
from ir_trace.noise.normalize import IgnoreModes
from ir_trace.report.behaviour import pass_behaviour
from ir_trace.report.page_model import PAYLOAD_SCHEMA, Report
from ir_trace.report.pass_diff import PassDiff


@dataclass(frozen=True)
class PassMatch:
    """Positions of one pass in run A and run B (None where the run lacks it)."""

    a: int | None
    b: int | None
    status: str  # "matched", "renamed", "only-a" or "only-b"


def match_passes(names_a: list[str], names_b: list[str]) -> list[PassMatch]:
    """Align two pipelines' pass names (position 0, the frontend, always matches)."""
    matches = [PassMatch(0, 0, "matched")]
    tail_a, tail_b = names_a[1:], names_b[1:]
    for tag, i0, i1, j0, j1 in SequenceMatcher(None, tail_a, tail_b, autojunk=False).get_opcodes():
        if tag == "equal":
            matches += [PassMatch(1 + i0 + k, 1 + j0 + k, "matched") for k in range(i1 - i0)]
            continue
        common = min(i1 - i0, j1 - j0)
        matches += [PassMatch(1 + i0 + k, 1 + j0 + k, "renamed") for k in range(common)]
        matches += [PassMatch(1 + i, None, "only-a") for i in range(i0 + common, i1)]
        matches += [PassMatch(None, 1 + j, "only-b") for j in range(j0 + common, j1)]
    return matches


TracePairs = tuple[list[tuple[Trace, Trace]], list[Trace], list[Trace]]  # pairs, only in A, only in B


def pair_traces(traces_a: list[Trace], traces_b: list[Trace]) -> TracePairs:
    """Which trace of run A is compared with which of run B, and the traces left in A alone and in B
    alone. One trace on each side is one pair whatever each is called (two passes_dump/, a tree
    against a stream); otherwise traces pair by stage and unit (as a sweep pairs a program's traces
    with the baseline's: PyPTO's with PyPTO's, each ptoas unit with its namesake), in A's order."""
    if len(traces_a) == 1 and len(traces_b) == 1:
        return [(traces_a[0], traces_b[0])], [], []
    keys_a = {trace_key(trace) for trace in traces_a}
    in_b = {trace_key(trace): trace for trace in traces_b}
    pairs = [(trace, in_b[trace_key(trace)]) for trace in traces_a if trace_key(trace) in in_b]
    only_a = [trace for trace in traces_a if trace_key(trace) not in in_b]
    return pairs, only_a, [trace for trace in traces_b if trace_key(trace) not in keys_a]


def trace_key(trace: Trace) -> str:
    """A trace as `--json` and sweep.json name it: `stage:unit` (`pypto:`, `ptoas:kernel_a`)."""
    return f"{trace.stage}:{trace.unit}"


def shown_pair(comparisons: list[Comparison]) -> int:
    """Which pair of traces a comparison of several shows (its page holds one pair, `comparisons` are
    each pair's): the first with a pass that behaved differently, else the first whose outputs
    differ, else the first. The frontend is no pass."""

    def behaved_differently(comparison: Comparison) -> bool:
        return any(row.behaviour == "different" for row in comparison.matches[1:])

    def outputs_differ(comparison: Comparison) -> bool:
        return any(row.differs for row in comparison.matches[1:])

    for test in (behaved_differently, outputs_differ):
        found = next((number for number, comparison in enumerate(comparisons) if test(comparison)), None)
        if found is not None:
            return found
    return 0


_UNPAIRED_BEHAVIOUR = {"renamed": "renamed", "only-a": "only-in-a", "only-b": "only-in-b"}


def match_behaviours(matches: list[PassMatch], lines_a: list[list[str]], lines_b: list[list[str]]) -> list[str]:
    """What each match's pass did in A against B (behaviour.py); `lines_x[p]` is run x's snapshot p.
    A pass's input is its run's previous snapshot (the frontend's is empty)."""

    def input_of(lines: list[list[str]], position: int) -> list[str]:
        return lines[position - 1] if position else []

    behaviours = []
    for match in matches:
        if match.status != "matched" or match.a is None or match.b is None:
            behaviours.append(_UNPAIRED_BEHAVIOUR[match.status])
            continue
        in_a, in_b = input_of(lines_a, match.a), input_of(lines_b, match.b)
        behaviours.append(pass_behaviour(in_a, lines_a[match.a], in_b, lines_b[match.b]))
    return behaviours


def keyed_snapshots(snapshots: list[list[str]], modes: IgnoreModes, kind: str) -> list[list[str]]:
    """Each snapshot's lines as the ignore modes see them (their keys); a line they ignore whole is
    left out, so it neither makes a pass's change nor a difference between the runs."""
    if not modes:
        return snapshots
    key = modes.normaliser(kind)
    return [[keyed for keyed in map(key, lines) if not keyed.startswith(IGNORED_LINE)] for lines in snapshots]


def match_differs(matches: list[PassMatch], keyed_a: list[list[str]], keyed_b: list[list[str]]) -> list[bool | None]:
    """Whether each match's outputs differ once the ignore modes have normalised both (None where one
    run lacks the pass)."""
    return [keyed_a[m.a] != keyed_b[m.b] if m.a is not None and m.b is not None else None for m in matches]


@dataclass(frozen=True, slots=True)
class MatchRow:
    """One match of a comparison: the pass's positions in run A and run B (None where the run lacks it),
    `status` (match_passes'), whether the outputs differ (True where one run lacks the pass),
    `behaviour` (match_behaviours': the report's behaviours, None in one without), `differs_ignoring`
    (whether they differ under the ignore modes, when on and both runs have the pass) and `diff`, the
    edit script turning A's snapshot into B's where both runs have the pass."""

    a: int | None
    b: int | None
    status: str
    differs: bool = True
    behaviour: str | None = None
    differs_ignoring: bool | None = None
    diff: PassDiff | None = None

    def to_json(self) -> dict:
        data: dict = {"a": self.a, "b": self.b, "status": self.status, "differs": self.differs}
        if self.behaviour is not None:
            data["behaviour"] = self.behaviour
        if self.differs_ignoring is not None:
            data["ignoring"] = {"differs": self.differs_ignoring}
        if self.diff is not None:
            data.update(self.diff.to_json())
        return data

    @classmethod
    def from_json(cls, data: dict) -> MatchRow:
        ignoring = data.get("ignoring")
        return cls(
            a=data["a"],
            b=data["b"],
            status=data["status"],
            differs=bool(data["differs"]),
            behaviour=data.get("behaviour"),
            differs_ignoring=None if ignoring is None else bool(ignoring["differs"]),
            diff=PassDiff.from_json(data) if "hunks" in data else None,
        )


@dataclass(frozen=True, slots=True)
class Comparison:
    """Run A against run B, as its page shows it (payload mode "against"): each run's own report
    (`runs`, page_model.Report), how their passes match (`matches`, the frontend's first), what the
    page calls each run (`names`) and the report options (`context`; `ignore`, the ignore modes the
    runs were compared under, None when none is on). Its `to_json` is the page's payload."""

    generator: str
    title: str
    names: tuple[str, str]
    context: int
    level: str
    runs: tuple[Report, Report]
    matches: tuple[MatchRow, ...]
    ignore: IgnoreModes | None = None
    schema: int = PAYLOAD_SCHEMA

    def ignore_json(self) -> dict | None:
        """The modes as the payload and `--json` write them (None: none on)."""
        return self.ignore.to_json() if self.ignore is not None else None

    def to_json(self) -> dict:
        return {
            "schema": self.schema,
            "mode": "against",
            "generator": self.generator,
            "title": self.title,
            "names": list(self.names),
            "context": self.context,
            "level": self.level,
            "runs": [run.to_json() for run in self.runs],
            "matches": [match.to_json() for match in self.matches],
            "ignore": self.ignore_json(),
        }

    @classmethod
    def from_json(cls, data: dict) -> Comparison:
        if data["schema"] != PAYLOAD_SCHEMA or data["mode"] != "against":
            raise ValueError(f"not a run-against-run payload of schema {PAYLOAD_SCHEMA}")
        name_a, name_b = data["names"]
        run_a, run_b = data["runs"]
        return cls(
            generator=data["generator"],
            title=data["title"],
            names=(name_a, name_b),
            context=data["context"],
            level=data["level"],
            runs=(Report.from_json(run_a), Report.from_json(run_b)),
            matches=tuple(map(MatchRow.from_json, data["matches"])),
            ignore=IgnoreModes.from_json(data["ignore"]) if data["ignore"] is not None else None,
            schema=data["schema"],
        )


def build_comparison(
    run_a: Report,
    run_b: Report,
    cross: dict[tuple[str, str], PassDiff],
    context: int,
    behaviours: list[str] | None = None,
    ignoring: tuple[IgnoreModes, list[bool | None]] | None = None,
) -> Comparison:
    """Run A against run B from each run's report (one trace each) and `cross[(sha_a, sha_b)]`, the
    diff turning A's snapshot into B's at a matched pass: a MatchRow per match of match_passes, with
    its behaviour when `behaviours` (match_behaviours, in the same order) is given and, with
    `ignoring` (the modes, match_differs' answers), whether each pair differs under the modes too
    (the behaviours are then those under the modes)."""
    passes_a, passes_b = run_a.traces[0].passes, run_b.traces[0].passes
    matches = []
    aligned = match_passes([p.name for p in passes_a], [p.name for p in passes_b])
    for number, match in enumerate(aligned):
        behaviour = behaviours[number] if behaviours is not None else None
        differs_ignoring = ignoring[1][number] if ignoring is not None else None
        row = MatchRow(match.a, match.b, match.status, True, behaviour, differs_ignoring)
        if match.a is not None and match.b is not None:
            sha_a, sha_b = passes_a[match.a].sha256, passes_b[match.b].sha256
            diff = PassDiff() if sha_a == sha_b else cross[(sha_a, sha_b)]
            row = MatchRow(match.a, match.b, match.status, sha_a != sha_b, behaviour, differs_ignoring, diff)
        matches.append(row)
    name_a, name_b = run_names(run_a, run_b)
    return Comparison(
        generator=f"pypto-ir-trace {__version__}",
        title=f"{name_a} against {name_b}",
        names=(name_a, name_b),
        context=context,
        level=run_a.level if run_a.level != "UNKNOWN" else run_b.level,
        runs=(run_a, run_b),
        matches=tuple(matches),
        ignore=ignoring[0] if ignoring is not None else None,
    )


def run_names(run_a: Report, run_b: Report) -> tuple[str, str]:
    """What the report calls each run: its title, or, where the titles are equal (two MLIR trees both
    named `tree`), the shortest ends of their paths that tell them apart (`tile16/tree`, `tile32/tree`)."""
    if run_a.title != run_b.title:
        return run_a.title, run_b.title
    parts_a, parts_b = _program_parts(run_a.dump), _program_parts(run_b.dump)
    for length in range(2, max(len(parts_a), len(parts_b)) + 1):
        end_a, end_b = parts_a[-length:], parts_b[-length:]
        if end_a != end_b:
            return "/".join(end_a), "/".join(end_b)
    return run_a.title, run_b.title


def _program_parts(dump: str) -> tuple[str, ...]:
    """The names along a dump's path, to its program (a PyPTO dump's passes_dump/ left out)."""
    path = PurePath(dump)
    if path.name == "passes_dump":
        path = path.parent
    return path.parts[1:] if path.anchor else path.parts

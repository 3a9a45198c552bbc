"""The machine-readable trace summary behind `--json`: stable field names, one entry per pass.

{
  "schema": 1, "generator": "pypto-ir-trace 0.1.0",
  "title": "...", "dump": "/abs/passes_dump", "kind": "pypto" | "mlir", "warnings": [...],
  "level": "CONCISE", "context": 3,
  "passes": [
    {"index": 1, "name": "ConvertToSSA", "file": "01_after_ConvertToSSA.py",
     "sha256": "...",            # of this pass's output snapshot
     "header": {...},            # MLIR only: the dump header's parts (kind, pass_name, argument, ...)
     "changed": true, "inserted": 7, "deleted": 7,
     "functions": {"Program.main": {"inserted": 7, "deleted": 7}},   # only functions it touched
     "outside_functions": {"inserted": 0, "deleted": 0},             # lines in no function
     "warning": false, "warning_text": null,
     "ignoring": {"changed": false, "inserted": 0, "deleted": 0,   # only when "ignore" is not null:
                  "functions": {}, "outside_functions": {...}}}   # the same counts, lines compared
  ],                                                             # after the ignore modes' normalisation
  "ignore": {"modes": ["ssa"], "regex": null} | null               # --ignore / --ignore-regex
}

A pass of an MLIR trace also has "header" (payload.py: the dump's header line, e.g. its options and
whether it failed). A report of several traces (PyPTO, then each ptoas unit) has, instead of
"passes" and "level":

  "traces": [{"stage": "pypto" | "ptoas" | "mlir", "unit": "...", "dump": "/abs/dir", "level": "...",
              "warnings": ["..."],     # the reader's notes on the trace (overwritten dumps, ...)
              "passes": [...]}]        # each pass as above; "file" is relative to the top "dump",
                                       # the path given (passes_dump/01_after_X.py, ptoas_passes/...)
"""

from __future__ import annotations

import os
from bisect import bisect_right

from ir_trace.diff import diff_snapshots
from ir_trace.fingerprints import SUMMARY_SCHEMA
from ir_trace.normalize import IgnoreModes, line_key
from ir_trace.output import shown_path
from ir_trace.payload import trace_payloads


def trace_summary(payload: dict, given: str | None = None) -> dict:
    """Summarise a report payload (see payload.py) pass by pass, trace by trace when it has several.

    Each pass's "file" is relative to `given`, the path the report was asked for (default: the dump).
    """
    if "traces" not in payload:
        summary = _one_trace_summary(payload)
        _files_relative_to(summary["passes"], payload["dump"], given or payload["dump"])
        return summary
    traces = []
    for trace in trace_payloads(payload):
        summary = _one_trace_summary(trace)
        _files_relative_to(summary["passes"], trace["dump"], given or payload["dump"])
        shown = {key: trace[key] for key in ("stage", "unit", "dump", "level")}
        traces.append({**shown, "warnings": trace.get("warnings", []), "passes": summary["passes"]})
    return {
        "schema": SUMMARY_SCHEMA,
        "generator": payload["generator"],
        "title": payload["title"],
        "dump": payload["dump"],
        "context": payload["context"],
        "traces": traces,
        "ignore": IgnoreModes.from_json(payload.get("ignore")).to_json(),
    }


def _files_relative_to(rows: list[dict], dump: str, given: str) -> None:
    """Snapshot files named from `given` rather than from their own trace's directory (a stream's
    snapshots keep their header index: they are all in the one file given)."""
    if dump == given:
        return
    folder = os.path.relpath(dump, given)
    for row in rows:
        if isinstance(row["file"], str):
            row["file"] = os.path.normpath(os.path.join(folder, row["file"]))


def _one_trace_summary(payload: dict) -> dict:
    passes = payload["passes"]
    functions = [passes[0].get("functions")]
    for entry in passes[1:]:  # "functions" is absent where the snapshot equals the previous one
        functions.append(entry["functions"] if "functions" in entry else functions[-1])
    modes = IgnoreModes.from_json(payload.get("ignore"))
    ignoring = _ignoring_hunks(passes, functions, modes, payload.get("kind", "pypto")) if modes else None
    result = []
    for k, entry in enumerate(passes[1:], start=1):
        per_function, outside = _count_by_function(entry["hunks"], functions[k - 1], functions[k])
        row = {
            "index": entry["index"],
            "name": entry["name"],
            "file": entry["file"],
            "sha256": entry["sha256"],
            "changed": entry["changed"],
            "inserted": entry["inserted"],
            "deleted": entry["deleted"],
            "functions": per_function,
            "outside_functions": outside,
            "warning": entry["log"] is not None,
            "warning_text": entry["log"],
        }
        if "header" in entry:
            row["header"] = entry["header"]
        if ignoring is not None:
            row["ignoring"] = _counts(ignoring[k], functions[k - 1], functions[k])
        result.append(row)
    return {
        "schema": SUMMARY_SCHEMA,
        "generator": payload["generator"],
        "title": payload["title"],
        "dump": payload["dump"],
        "kind": payload.get("kind", "pypto"),
        "warnings": payload.get("warnings", []),
        "level": payload["level"],
        "context": payload["context"],
        "passes": result,
        "ignore": modes.to_json(),
    }


def _counts(hunks: list, before: list | None, after: list | None) -> dict:
    per_function, outside = _count_by_function(hunks, before, after)
    inserted = sum(b1 - b0 for _a0, _a1, b0, b1, *_rest in hunks)
    deleted = sum(a1 - a0 for a0, a1, *_rest in hunks)
    return {
        "changed": bool(hunks),
        "inserted": inserted,
        "deleted": deleted,
        "functions": per_function,
        "outside_functions": outside,
    }


def _ignoring_hunks(passes: list, functions: list, modes: IgnoreModes, kind: str) -> list:
    """Per pass, the hunks of a diff whose lines compare by their keys under `modes`.

    The snapshots are rebuilt from the payload's exact hunks; the diff keeps the printed lines
    and their indices, so the counts by function use the same function ranges.
    """
    key = line_key(modes, kind=kind)
    lines, eol = passes[0]["lines"], passes[0]["eol"]
    result: list = [None]
    done: dict[tuple[str, str], list] = {}
    for k in range(1, len(passes)):
        after = apply_hunks(lines, passes[k]["hunks"])
        pair = (passes[k - 1]["sha256"], passes[k]["sha256"])
        if not passes[k]["changed"]:
            result.append([])
        else:
            if pair not in done and _keys_keep_lines_apart(lines, after, key):
                done[pair] = passes[k]["hunks"]  # lines compare as printed: the exact diff is the answer
            elif pair not in done:
                hunks = diff_snapshots(
                    lines, after, eol, passes[k]["eol"], functions[k - 1], functions[k], line_key=key
                )
                done[pair] = [(h.a0, h.a1, h.b0, h.b1) for h in hunks]
            result.append(done[pair])
        lines, eol = after, passes[k]["eol"]
    return result


def _keys_keep_lines_apart(a: list[str], b: list[str], key) -> bool:
    """Whether `key` maps no two different lines of the two snapshots to one key."""
    line_of: dict[str, str] = {}
    for line in (*a, *b):
        seen = line_of.setdefault(key(line), line)
        if seen != line:
            return False
    return True


def apply_hunks(before: list[str], hunks: list) -> list[str]:
    """The after snapshot's lines, from the before snapshot's and payload hunks."""
    if not hunks:
        return before
    out: list[str] = []
    position = 0
    for a0, a1, _b0, _b1, b_lines, *_pairs in hunks:
        out += before[position:a0]
        out += b_lines
        position = a1
    out += before[position:]
    return out


def _count_by_function(hunks: list, before: list | None, after: list | None) -> tuple[dict, dict]:
    counts: dict[str, dict[str, int]] = {}
    outside = {"inserted": 0, "deleted": 0}
    owner_before, owner_after = _owner_lookup(before), _owner_lookup(after)
    for a0, a1, b0, b1, *_rest in hunks:
        for line in range(a0, a1):
            _bump(counts, outside, owner_before(line), "deleted")
        for line in range(b0, b1):
            _bump(counts, outside, owner_after(line), "inserted")
    return dict(sorted(counts.items())), outside


def _owner_lookup(functions: list | None):
    """line -> key of the function whose [start, end) holds it (functions are sorted and disjoint)."""
    functions = functions or []
    starts = [start for _key, start, _end in functions]

    def owner(line: int) -> str | None:
        at = bisect_right(starts, line) - 1
        return functions[at][0] if at >= 0 and line < functions[at][2] else None

    return owner


def _bump(counts: dict, outside: dict, key: str | None, field: str) -> None:
    if key is None:
        outside[field] += 1
    else:
        counts.setdefault(key, {"inserted": 0, "deleted": 0})[field] += 1


# ---------- the command's closing line ----------


def summary_line(outcome: dict, seconds: float) -> str:
    """The one line a successful run ends with: what was written, what changed, what came from the cache."""
    if "compared" in outcome:
        body = _comparison_body(outcome)
    elif outcome["passes"] == 0:
        only = "one MLIR dump" if (outcome.get("trace") or {}).get("kind") == "mlir" else "00_frontend.py"
        body = f"no pass snapshot exists (only {only})"
    else:
        passes = outcome["passes"]
        traces = f"{outcome['traces']} traces, " if "traces" in outcome else ""
        body = (
            f"{traces}{passes} passes ({outcome['changed']} changed, {outcome['noop']} no-op, "
            f"{outcome['warnings']} warning{'s' if outcome['warnings'] != 1 else ''}{_ignoring_note(outcome)})"
        )
    rediffed, pairs = outcome["rediffed"], outcome["pairs"]
    reuse = f"{rediffed} pairs rediffed, {pairs - rediffed} from cache"
    if outcome.get("reused"):
        reuse += ", report unchanged"
    return f"wrote {shown_path(outcome['report'])}: {body} · {reuse} · {_size(outcome['bytes'])} · {seconds:.1f} s"


def _ignoring_note(outcome: dict) -> str:
    """ "; 3 changed when ignoring SSA versions" when the report starts with ignore modes on."""
    trace = outcome.get("trace") or {}
    if not trace.get("ignore"):
        return ""
    passes = [p for one in trace.get("traces", [trace]) for p in one["passes"]]
    changed = sum(1 for p in passes if p["ignoring"]["changed"])
    return f"; {changed} changed when ignoring {IgnoreModes.from_json(trace['ignore']).describe()}"


def _comparison_body(outcome: dict) -> str:
    first = outcome["first_difference"]
    if first:
        where = f"first at pass {first['index']:02d} {first['name']}"
    else:
        where = (
            "identical pass outputs, the frontends differ" if outcome.get("frontends_differ") else "identical outputs"
        )
    return (
        f"{outcome['compared']} passes compared ({outcome['differ']} differ, {outcome['renamed']} renamed, "
        f"{outcome['only_a']} only in A, {outcome['only_b']} only in B; {where})"
    )


def _size(count: int) -> str:
    if count < 1000:
        return f"{count} B"
    return f"{count / 1000:.0f} KB" if count < 1_000_000 else f"{count / 1_000_000:.1f} MB"

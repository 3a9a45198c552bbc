"""The machine-readable trace summary behind `--json`: stable field names, one entry per pass.

{
  "schema": 1, "generator": "pypto-ir-trace 0.1.0",
  "title": "...", "dump": "/abs/passes_dump", "level": "CONCISE", "context": 3,
  "passes": [
    {"index": 1, "name": "ConvertToSSA", "file": "01_after_ConvertToSSA.py",
     "sha256": "...",            # of this pass's output snapshot
     "changed": true, "inserted": 7, "deleted": 7,
     "functions": {"Program.main": {"inserted": 7, "deleted": 7}},   # only functions it touched
     "outside_functions": {"inserted": 0, "deleted": 0},             # lines in no function
     "warning": false, "warning_text": null}
  ]
}
"""

from __future__ import annotations

from bisect import bisect_right

from ir_trace.fingerprints import SUMMARY_SCHEMA


def trace_summary(payload: dict) -> dict:
    """Summarise a report payload (see payload.py) pass by pass."""
    passes = payload["passes"]
    functions = [passes[0].get("functions")]
    for entry in passes[1:]:  # "functions" is absent where the snapshot equals the previous one
        functions.append(entry["functions"] if "functions" in entry else functions[-1])
    result = []
    for k, entry in enumerate(passes[1:], start=1):
        per_function, outside = _count_by_function(entry["hunks"], functions[k - 1], functions[k])
        result.append(
            {
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
        )
    return {
        "schema": SUMMARY_SCHEMA,
        "generator": payload["generator"],
        "title": payload["title"],
        "dump": payload["dump"],
        "level": payload["level"],
        "context": payload["context"],
        "passes": result,
    }


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

"""The report payload: plain JSON data the viewer turns into rows in the browser.

Schema (version 1). The page carries it through `portable_payload`: every "dump" below is then the
path's name (a trace's: its path relative to the path given), so a shared page names no directory of
the machine that made it; the `--json` summary is made from the payload as built here. Nothing here
is HTML: the page builds every row itself, so the payload grows with the changes, not with passes x
lines. In the page it travels as gzip + base64
(`render.encode_payload`; `render.read_payload` reads it back).

    {
      "schema": 1,
      "generator": "pypto-ir-trace 0.1.0",
      "title": "qwen3_decode_explicit",   # the program directory (parent of passes_dump/)
      "dump": "/abs/path/passes_dump",
      "stream": "stream.txt",             # MLIR streams only: the file the dumps are in (names them in the page)
      "warnings": ["..."],                # remarks on the whole dump (MLIR dumps that overwrote each other)
      "context": 3,                       # --context: unchanged lines kept around a change
      "level": "EXPLICIT" | "CONCISE" | "UNKNOWN",   # dump level guessed from the text
      "kind": "pypto" | "mlir",           # the language the snapshots are printed in: it decides
                                          # what a function is and what the ignore modes remove
      "ignore": {"modes": ["ssa", ...], "regex": "..." | null} | null,   # --ignore: the page's initial
                                          # ignore modes (normalize.py); hunks are always the exact diff
      "passes": [pass, ...]               # passes[0] is 00_frontend.py, then execution order
    }

    pass = {
      "index": 12, "name": "InitMemRef", "file": "12_after_InitMemRef.py",
                                          # file: the path below "dump"; a stream's dump: its header index
      "header": {"kind": "after", "pass_name", "argument", "options", "op", "symbol", "failed"},
                                          # MLIR only (mlir/headers.py PassHeader)
      "sha256": "...",                    # of the snapshot's bytes
      "eol": true,                        # the snapshot text ends with "\\n"
      "lines": [...],                     # passes[0] only: text.split("\\n") minus the piece after a final "\\n"
      "hunks": [hunk, ...],               # passes[k>0]: edit script turning passes[k-1]'s text into this one
      "changed": true,                    # text differs from the previous snapshot
      "inserted": 5, "deleted": 2,        # lines
      "ignore_counts": {"ssa": [3, 1], "ssa,memref,whitespace": [0, 0], ...},
                                          # changed passes: [inserted, deleted] under each precomputed
                                          # ignore-mode set, keyed by IgnoreModes.spec() (ignore_counts.py)
      "log": "text" | null, "log_file": "12_after_InitMemRef.log" | null,
      "functions": [[key, start, end], ...] | null,   # top-level functions / class methods
      "parse_error": "reason",            # present when functions is null
      "header": {"kind": "after" | "before", "pass_name": "Canonicalizer", "argument": "canonicalize",
                 "options": "{max-iterations=10}" | "", "op": "func.func" | "", "symbol": "@f" | "",
                 "failed": false}         # MLIR snapshots only: the dump's header line
    }
    # "functions" is absent when the snapshot equals the previous one (reuse the previous list).
    # key is "name" or "Class.method"; start/end are 0-based line indices, end exclusive,
    # decorators included.

    hunk = [a0, a1, b0, b1, b_lines, pairs] or [a0, a1, b0, b1, b_lines, pairs, extras]
    # before lines [a0, a1) are replaced by after lines [b0, b1) whose texts are b_lines.
    # pairs = [[ai, bi, a_ranges, b_ranges], ...]: before line ai and after line bi (absolute
    # 0-based indices) are the same line edited; ranges are [[start, end], ...] in UTF-16 code
    # units (JavaScript string offsets) of the characters that changed. Pairs are in increasing
    # order on both sides; unpaired lines of a hunk are plain deletions / insertions.
    # extras, only when one applies (readers of 6-element hunks can ignore it):
    #   "moved": [[ai, bj], ...]  before line ai was moved, unchanged, to after line bj (listed in
    #                             the hunk of each end; both lines are unpaired)
    #   "no_eol": [a, b]          the side's last line is in this hunk and has no final "\n"
    #   "bom": [a, b]             the side starts with a byte order mark (they differ; line 0 is here)

Several traces (a program output directory: PyPTO's passes_dump/, then each ptoas unit's MLIR
passes) make one report whose top level holds the same "schema", "generator", "title", "context",
"ignore" and "level" (the first PyPTO trace's), "dump" is the path given, and "traces" replaces
"passes":

      "traces": [trace, ...]              # PyPTO first, then each unit in name order
    trace = {"stage": "pypto" | "ptoas" | "mlir", "unit": "qwen3" | "<codegen unit>",
             "kind": "pypto" | "mlir", "title": "...", "dump": "/abs/dir", "level": "...",
             "warnings": ["..."],         # the reader's notes on this trace (overwritten dumps, ...)
             "passes": [pass, ...]}       # as above; passes[0] is the trace's own base
    # No diff crosses a trace boundary (PyPTO's DSL and MLIR are different languages): each trace's
    # passes[0] carries its "lines" and the rest diff from it, as in a one-trace report.
"""

from __future__ import annotations

from pathlib import PurePath

from ir_trace import __version__
from ir_trace.inputs.discovery import Manifest
from ir_trace.report.pass_diff import PassDiff

PAYLOAD_SCHEMA = 1  # the layout of the report's embedded data, as this docstring describes it
EMPTY_DIFF = {"hunks": [], "inserted": 0, "deleted": 0}


def detect_dump_level(lines_seen) -> str:
    """EXPLICIT dumps give every tile a layout (`pl.TileView(`); CONCISE ones print only the
    layouts that differ from the default, so most of their tiles carry none."""
    tiles = views = 0
    for line in lines_seen:
        if "pl.Tile" in line:
            tiles += line.count("pl.Tile[")
            views += line.count("pl.TileView(")
    if not tiles:
        return "UNKNOWN"
    return "EXPLICIT" if views >= 0.9 * tiles else "CONCISE"


def build_payload(
    manifest: Manifest,
    base_lines: list[str],
    diffs: list[dict],
    slices: dict[str, dict],
    context: int,
    ignore: dict | None = None,
) -> dict:
    """Assemble the report data.

    `diffs[k]` is the diff result turning snapshot k into k+1 (EMPTY_DIFF when equal);
    `slices` maps a snapshot sha256 to its functions (or parse_error) and final-newline flag;
    `ignore` is the initial ignore modes (`IgnoreModes.to_json()`).
    """
    passes = []
    previous_sha = None
    for position, snapshot in enumerate(manifest.snapshots):
        entry = {
            "index": snapshot.index,
            "name": snapshot.name,
            "file": snapshot.shown_file,
            "sha256": snapshot.sha256,
            "eol": slices[snapshot.sha256]["eol"],
            "log": snapshot.log,
            "log_file": snapshot.log_file,
        }
        if snapshot.header is not None:
            entry["header"] = snapshot.header.to_json()
        if position == 0:
            entry["lines"] = base_lines
        else:
            diff = diffs[position - 1]
            entry.update(
                hunks=diff["hunks"],
                inserted=diff["inserted"],
                deleted=diff["deleted"],
                changed=snapshot.sha256 != previous_sha,
            )
            if "ignore_counts" in diff:
                entry["ignore_counts"] = diff["ignore_counts"]
        if snapshot.sha256 != previous_sha:
            entry.update(slices[snapshot.sha256])
        passes.append(entry)
        previous_sha = snapshot.sha256
    stream = {"stream": manifest.snapshots[0].file} if manifest.snapshots[0].header_index is not None else {}
    return {
        "schema": PAYLOAD_SCHEMA,
        "generator": f"pypto-ir-trace {__version__}",
        "title": manifest.title,
        "dump": manifest.dump,
        **stream,
        "kind": manifest.kind,
        "warnings": list(manifest.warnings),
        "context": context,
        "level": detect_dump_level(_all_printed_lines(base_lines, diffs)),
        "ignore": ignore,
        "passes": passes,
    }


TRACE_FIELDS = ("title", "dump", "stream", "level", "passes")  # what a trace keeps of its own one-trace payload


def combine_traces(path: str, title: str, traces: list[tuple[str, str, Manifest, dict]]) -> dict:
    """One report of several traces: (stage, unit, manifest, its one-trace payload) each, in order."""
    first = traces[0][3]
    levels = [payload["level"] for stage, _unit, _manifest, payload in traces if stage == "pypto"]
    return {
        "schema": first["schema"],
        "generator": first["generator"],
        "title": title,
        "dump": path,
        "context": first["context"],
        "level": levels[0] if levels else "UNKNOWN",
        "ignore": first["ignore"],
        "traces": [
            {
                "stage": stage,
                "unit": unit,
                "kind": manifest.kind,
                "warnings": list(manifest.warnings),
                **{field: payload[field] for field in TRACE_FIELDS if field in payload},
            }
            for stage, unit, manifest, payload in traces
        ],
    }


def portable_payload(payload: dict) -> dict:
    """The payload as the page carries it: no absolute path of this machine. A report is made to be
    attached to bugs and CI artifacts, so each "dump" becomes the given path's name, a trace's its path
    relative to the path given, and a run's (run against run) its own name. The `--json` summary is made
    from the full payload and keeps the paths it documents."""
    if payload.get("mode") == "against":  # each run named as the page calls it (`run_names`)
        runs = [{**portable_payload(run), "dump": name} for run, name in zip(payload["runs"], payload["names"])]
        return {**payload, "runs": runs}
    given = payload["dump"]
    portable = {**payload, "dump": _path_name(given), "warnings": _portable_notes(payload.get("warnings"), given)}
    if "traces" in payload:
        portable["traces"] = [
            {
                **trace,
                "dump": _relative_to(trace["dump"], given),
                "warnings": _portable_notes(trace.get("warnings"), given),
            }
            for trace in payload["traces"]
        ]
    return portable


def _path_name(path: str) -> str:
    return PurePath(path).name or path


def _relative_to(path: str, given: str) -> str:
    """`path` below `given` ("unit/tree"), or its name when it is `given` itself or lies elsewhere."""
    try:
        relative = PurePath(path).relative_to(given)
    except ValueError:
        return _path_name(path)
    return str(relative) if relative.parts else _path_name(given)


def _portable_notes(notes: list[str] | None, given: str) -> list[str] | None:
    """Remarks name files by their absolute path: show them from the given directory's name on."""
    if not notes:
        return [] if notes is not None else notes
    root = str(PurePath(given).parent)
    prefix = root if root.endswith(("/", "\\")) else root + "/"
    return [note.replace(prefix, "") if root not in ("", ".") else note for note in notes]


def trace_payloads(payload: dict) -> list[dict]:
    """Each trace of a report as a one-trace payload (a one-trace report is its own only trace)."""
    if "traces" not in payload:
        return [payload]
    shared = {key: value for key, value in payload.items() if key != "traces"}
    return [{**shared, **trace} for trace in payload["traces"]]


def _all_printed_lines(base_lines: list[str], diffs: list[dict]):
    yield from base_lines
    for diff in diffs:
        for hunk in PassDiff.from_json(diff).hunks:
            yield from hunk.after_lines

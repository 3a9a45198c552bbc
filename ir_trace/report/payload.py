"""The report payload: plain JSON data the viewer turns into rows in the browser.

Its schema is the typed model in `page_model.py` (Report -> Trace -> PassRecord, hunks in the page's
positional form, PAYLOAD_SCHEMA): `build_payload` / `combine_traces` build it from the diffs and
`Report.to_json` writes the payload. The page carries it through `portable_payload`: every "dump" is then
the path's name (a trace's: its path relative to the path given), so a shared page names no directory
of the machine that made it; the `--json` summary is made from the model as built here. Nothing here
is HTML: the page builds every row itself, so the payload grows with the changes, not with passes x
lines. In the page it travels as gzip + base64 (`render.encode_payload`; `render.read_payload` reads it
back).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from pathlib import PurePath

from ir_trace import __version__
from ir_trace.inputs.discovery import Manifest
from ir_trace.noise.normalize import IgnoreModes
from ir_trace.report.model import PairDiff
from ir_trace.report.page_model import PAYLOAD_SCHEMA as PAYLOAD_SCHEMA  # where the cache keys and summaries read it
from ir_trace.report.page_model import PassRecord, Report, Trace, made_once
from ir_trace.report.pass_diff import PassDiff

NO_MODES = IgnoreModes()
NO_DIFF = PassDiff()  # the diff of a pass that changed nothing (frozen: one for every such pass)
EMPTY_DIFF = {"hunks": [], "inserted": 0, "deleted": 0}  # the page's diff between equal snapshots


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
    diffs: list[PairDiff | None],
    slices: dict[str, dict],
    context: int,
    ignore: IgnoreModes = NO_MODES,
) -> Report:
    """The report of one dump.

    `diffs[k]` is the diff turning snapshot k into k+1 (None when they are equal); `slices` maps a
    snapshot sha256 to its functions (or parse_error) and final-newline flag (the slicing step's JSON);
    `ignore` is the initial ignore modes.
    """
    records = []
    previous_sha = None
    made: dict = {}  # id -> its form here, for the function lists and diffs passes share (`made_once`)
    for position, snapshot in enumerate(manifest.snapshots):
        sliced = slices[snapshot.sha256]
        shared = {
            "index": snapshot.index,
            "name": snapshot.name,
            "file": snapshot.shown_file,
            "sha256": snapshot.sha256,
            "eol": sliced["eol"],
            "log": snapshot.log,
            "log_file": snapshot.log_file,
            "header": snapshot.header,
            **(_slice_fields(sliced, made) if snapshot.sha256 != previous_sha else {}),
        }
        if position == 0:
            records.append(PassRecord(**shared, lines=tuple(base_lines)))
        else:
            changed = snapshot.sha256 != previous_sha
            records.append(_pass_record(shared, diffs[position - 1], changed, made))
        previous_sha = snapshot.sha256
    records_tuple = tuple(records)
    stream = manifest.snapshots[0].file if manifest.snapshots[0].header_index is not None else None
    level = detect_dump_level(_all_printed_lines(records_tuple))
    trace = Trace(manifest.title, manifest.dump, manifest.kind, level, records_tuple, tuple(manifest.warnings), stream)
    generator = f"pypto-ir-trace {__version__}"
    return Report(generator, manifest.title, manifest.dump, context, level, (trace,), ignore)


def _slice_fields(sliced: dict, made: dict) -> dict:
    """A record's functions (a snapshot equal to the previous one carries none: the page reuses its list),
    one tuple for the snapshots that hold the very same list (`shared_function_lists`): thousands of
    snapshots, one tuple while nothing moves."""
    functions = sliced["functions"]
    listed = None if functions is None else made_once(functions, _functions_tuple, made)
    return {"sliced": True, "functions": listed, "parse_error": sliced.get("parse_error")}


def _functions_tuple(functions: list | tuple) -> tuple:
    """A slicing's functions as triples: a `SliceResult`'s are already, a JSON list's are made so in C."""
    return functions if isinstance(functions, tuple) else tuple(map(tuple, functions))


def shared_function_lists(slices: Iterable[tuple[str, dict]]) -> dict[str, dict]:
    """sha256 -> a snapshot's slicing (`SliceResult.to_json`), given in the dump's order, each function list
    equal to the one before being that very list: a pass that moves no line keeps the list, and a 1 GB stream
    of 4,612 snapshots of 526 functions held each one's, 2.4 million lists (most of its memory)."""
    found: dict[str, dict] = {}
    last: list | None = None
    for sha, sliced in slices:
        functions = sliced.get("functions")
        if functions is not None and functions == last:
            sliced = {**sliced, "functions": last}
        elif functions is not None:
            last = functions
        found[sha] = sliced
    return found


def _pass_record(shared: dict, diff: PairDiff | None, changed: bool, made: dict) -> PassRecord:
    if diff is None:
        return PassRecord(**shared, diff=NO_DIFF, changed=changed)
    page_diff, counts = made_once(diff, _page_form, made)  # a pair repeated is one object
    return PassRecord(**shared, diff=page_diff, changed=changed, ignore_counts=counts)


def _page_form(diff: PairDiff) -> tuple[PassDiff, dict[str, tuple[int, int]]]:
    counts = {spec: (inserted, deleted) for spec, (inserted, deleted) in diff.ignore_counts.items()}
    return PassDiff.from_json(diff.to_page()), counts


def combine_traces(path: str, title: str, traces: list[tuple[str, str, Report]]) -> Report:
    """One report of several traces: (stage, unit, its one-trace report) each, in order."""
    first = traces[0][2]
    levels = [report.level for stage, _unit, report in traces if stage == "pypto"]
    combined = tuple(replace(report.traces[0], stage=stage, unit=unit) for stage, unit, report in traces)
    level = levels[0] if levels else "UNKNOWN"
    return Report(first.generator, title, path, first.context, level, combined, first.ignore, several=True)


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


def _all_printed_lines(records: tuple[PassRecord, ...]):
    for record in records:
        yield from record.lines or ()
        for hunk in record.diff.hunks if record.diff else ():
            yield from hunk.after_lines

"""Regression sweeps without Luigi: find dumps, name reports, compare with a baseline, build
sweep.json and the index page. `ir_trace.pipeline.sweep` only wires these together.

Layout of a sweep's output directory:

    OUT/NAME.html                      one report per program (written by RenderReport)
    OUT/index.html                     the overview page
    OUT/sweep.json                     machine-readable results (schema below, docs/sweeps.md)
    OUT/.sweep/records/NAME.json       one program's result, written by its per-dump task
    OUT/.sweep/text/SHA256.txt.gz      each distinct snapshot text, so a later sweep that
                                       uses this one as --baseline can diff text, not just hashes
    OUT/.sweep/claims/NAME.claim       present while a worker writes NAME.html (or the index)
"""

from __future__ import annotations

import gzip
import json
import re
import time
import warnings
import zlib
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

from ir_trace import __version__
from ir_trace.cache.fingerprints import SWEEP_SCHEMA
from ir_trace.diffcore.linediff import count_changes, diff_snapshots, split_lines
from ir_trace.errors import IRTraceError
from ir_trace.inputs.dump_files import printable_path
from ir_trace.noise.normalize import MODES, CustomRegex, IgnoreModes, IgnoreRegexError, normalise_lines
from ir_trace.report.against import match_behaviours, match_passes
from ir_trace.report.render import payload_to_script_json, render_page
from ir_trace.runsafety.run_guard import RunGuard
from ir_trace.runsafety.writes import read_regular_file, replace_file, write_output
from ir_trace.summaries.passes import LineCounts
from ir_trace.summaries.runs import RunCounts
from ir_trace.sweep.find import DUMP_DIR, FoundDump, find_dumps, safe_name, unique_report_names
from ir_trace.sweep.program_traces import pass_rows, passes_by_trace, trace_link, traces_problem
from ir_trace.sweep.summary import (
    BaselineComparison,
    TraceDivergence,
    against_invalid_baseline,
    baseline_comparison,
    index_payload,
    program_counts,
    sweep_totals,
)

# Kept importable from here: finding programs and their pass rows moved to their own modules.
__all__ = ["DUMP_DIR", "FoundDump", "find_dumps", "pass_rows", "safe_name", "unique_report_names"]

STATE_DIR = ".sweep"
INDEX_FILES = ("index.html.j2", "index.js", "index.css")
_IGNORED = ""  # --ignore matches are deleted before two texts are compared (so insertions can be ignored too)


# ---------- snapshot texts kept for later comparisons ----------


def text_store(out_dir: Path) -> Path:
    return Path(out_dir) / STATE_DIR / "text"


def records_dir(out_dir: Path) -> Path:
    return Path(out_dir) / STATE_DIR / "records"


def claims_dir(out_dir: Path) -> Path:
    return Path(out_dir) / STATE_DIR / "claims"


def keep_text(store: Path, sha256: str, data: bytes, guard: RunGuard | None = None) -> None:
    """Store a snapshot's bytes under its hash (gzip, deterministic), once.

    Idempotent under races: workers storing the same text at once each rename identical bytes
    into place; a damaged file (or anything planted there) is replaced, never followed.
    """
    target = store / f"{sha256}.txt.gz"
    if _stored_bytes(target) != data:
        store.mkdir(parents=True, exist_ok=True)
        # A registered temp file, removed on failure or a signal; no fsync: the dump keeps the original.
        replace_file(target, gzip.compress(data, mtime=0), guard=guard)


def _stored_bytes(target: Path) -> bytes | None:
    """What `target` holds, or None when it is missing, not a regular file or not whole gzip."""
    stored = read_regular_file(target)
    try:
        return None if stored is None else gzip.decompress(stored)
    except (OSError, EOFError, zlib.error):
        return None


def load_text(store: Path, sha256: str) -> str | None:
    try:
        return gzip.decompress((store / f"{sha256}.txt.gz").read_bytes()).decode("utf-8")
    except (OSError, EOFError, UnicodeDecodeError, gzip.BadGzipFile):
        return None


def prune_texts(store: Path, wanted: set[str]) -> None:
    """Drop stored texts no program of this sweep refers to (older sweeps' leftovers)."""
    if not store.is_dir():
        return
    for path in store.glob("*.txt.gz"):
        if path.name.removesuffix(".txt.gz") not in wanted:
            path.unlink(missing_ok=True)


# ---------- one program's record ----------


def valid_record(
    name: str, dump: str, report: str, counts: RunCounts, traces: tuple[list[dict], list[dict]], work: dict
) -> dict:
    """A program's result for sweep.json: its report, its counts, its traces and their passes
    (`traces`: `sweep_traces.record_traces`)."""
    listed, passes = traces
    return {
        "name": name,
        "dump": dump,
        "report": report,
        "ok": True,
        "error": None,
        "summary": program_counts(counts, len(listed)).to_json(),
        "traces": listed,
        "passes": passes,
        "work": work,
    }


def invalid_record(name: str, dump: str, error: str, work: dict | None = None) -> dict:
    """A dump that could not be reported on: a result too, listed with its one-line error."""
    return {
        "name": name,
        "dump": printable_path(dump),
        "report": None,
        "ok": False,
        "error": error,
        "summary": None,
        "traces": None,
        "passes": None,
        "work": work or {},
    }


def not_utf8_record(found: FoundDump) -> dict:
    what = "file" if found.dump.is_file() else "directory"  # a stream file, or a directory of dumps
    return invalid_record(
        found.name, str(found.dump), f"{what} name is not UTF-8: {printable_path(found.dump)} (rename it)"
    )


# ---------- comparing with a baseline ----------


def split_ignore_options(ignore: Iterable[str], ignore_regex: Iterable[str]) -> tuple[IgnoreModes, list[str]]:
    """The sweep's ignore modes and regexes from --ignore and --ignore-regex.

    --ignore takes mode names ("ssa,memref", as the CLI). A value that is not a list of mode
    names is still read as a regex, as --ignore meant before ignore modes existed (old crontabs),
    with a FutureWarning (shown on stderr) naming the form to use instead: --ignore-regex.
    """
    names: set[str] = set()
    regexes = []
    for value in ignore:
        try:
            names |= IgnoreModes.parse(value).modes
        except ValueError:
            warnings.warn(regex_in_ignore_deprecated(value), FutureWarning, stacklevel=2)
            regexes.append(value)
    return IgnoreModes(frozenset(names)), regexes + list(ignore_regex)


def regex_in_ignore_deprecated(value: str) -> str:
    return (
        f"--ignore {value!r} is not ignore mode names ({', '.join(MODES)}), so it is read as a regex; "
        f"this reading is deprecated and will be removed: pass --ignore-regex {value!r} instead "
        "(the form pypto-ir-trace itself takes)"
    )


def report_ignore_modes(modes: IgnoreModes, regexes: list[str]) -> IgnoreModes:
    """The reports' initial modes: several regexes become one alternation (the page has one field)."""
    regex = regexes[0] if len(regexes) == 1 else "|".join(f"(?:{r})" for r in regexes) or None
    return IgnoreModes(modes.modes, regex)


def report_ignore_spec(modes: IgnoreModes, regexes: list[str]) -> str:
    """`report_ignore_modes` in its text form (`IgnoreModes.spec()`)."""
    return report_ignore_modes(modes, regexes).spec()


def compile_ignores(patterns: Iterable[str]) -> list[re.Pattern]:
    """Regexes in the subset the reports read alike (normalize.CustomRegex), compiled for Python."""
    compiled = []
    for pattern in patterns:
        try:
            compiled.append(CustomRegex(pattern).compiled())
        except IgnoreRegexError as exc:
            raise IRTraceError(f"invalid --ignore regex {pattern!r}: {exc}") from None
    return compiled


def normalise(
    text: str, ignores: list[re.Pattern], modes: IgnoreModes | None = None, memo: dict | None = None
) -> tuple[list[str], bool]:
    """The text's lines with every regex match deleted, then normalised by the ignore modes."""
    lines, eol = split_lines(text)
    for pattern in ignores:
        lines = [pattern.sub(_IGNORED, line) for line in lines]
    if modes:
        lines = normalise_lines(lines, modes, memo)
    return lines, eol


def load_baseline(path: Path) -> dict:
    """A previous sweep.json, or IRTraceError saying why it cannot be used."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise IRTraceError(f"baseline does not exist: {path} (pass the sweep.json of an earlier sweep)") from None
    except IsADirectoryError:
        raise IRTraceError(f"baseline is a directory: {path} (pass the sweep.json inside it)") from None
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise IRTraceError(f"cannot read baseline {path}: {exc}") from None
    if not isinstance(data, dict) or data.get("schema") != SWEEP_SCHEMA or not isinstance(data.get("programs"), list):
        raise IRTraceError(f"not a sweep.json of schema {SWEEP_SCHEMA}: {path}")
    for position, program in enumerate(data["programs"]):
        problem = _baseline_program_problem(program)
        if problem:
            raise IRTraceError(f"baseline {path} is damaged: programs[{position}] {problem}")
    return data


_PASS_KEYS = {"index": int, "name": str, "sha256": str}


def _baseline_program_problem(program) -> str | None:
    """What makes a baseline entry unusable for the comparison (a hand edit, a truncated copy), if anything."""
    if not isinstance(program, dict):
        return "is not an object"
    if not isinstance(program.get("name"), str):
        return "has no name"
    if not isinstance(program.get("ok"), bool):
        return f"({program['name']}) has no ok flag"
    passes = program.get("passes")
    if program["ok"] and not isinstance(passes, list):
        return f"({program['name']}) has no passes"
    for row in passes or []:
        if not isinstance(row, dict) or any(not isinstance(row.get(k), kind) for k, kind in _PASS_KEYS.items()):
            return f"({program['name']}) has a pass without index, name or sha256"
    problem = traces_problem(program) if program["ok"] else None
    return f"({program['name']}) {problem}" if problem else None


class TextSource:
    """Snapshot texts by hash from a sweep's store, normalised and remembered for this run."""

    def __init__(self, store: Path, ignores: list[re.Pattern], modes: IgnoreModes | None = None):
        self.store, self.ignores, self.modes = store, ignores, modes or IgnoreModes()
        self._seen: dict[str, tuple[list[str], bool] | None] = {}
        self._memo: dict = {}

    @property
    def active(self) -> bool:
        """Whether anything is ignored (else only hashes need comparing)."""
        return bool(self.ignores) or bool(self.modes)

    def lines(self, sha256: str) -> tuple[list[str], bool] | None:
        if sha256 not in self._seen:
            text = load_text(self.store, sha256)
            self._seen[sha256] = None if text is None else normalise(text, self.ignores, self.modes, self._memo)
        return self._seen[sha256]


def compare_passes(now: list[dict], then: list[dict], now_texts: TextSource, then_texts: TextSource) -> TraceDivergence:
    """How a program's passes differ from the baseline's, pass by pass at equal index.

    A pass differs when it exists on one side only, is renamed, or its text differs after the
    ignore regexes and modes; a difference that vanishes after them is counted as ignored
    (with --ignore ssa, a pass that only renames SSA versions is not a divergence).
    Without the baseline's stored text a hash difference counts (nothing can be ignored).
    """
    differing, ignored, first = 0, 0, None
    for index in range(max(len(now), len(then))):
        a = then[index] if index < len(then) else None
        b = now[index] if index < len(now) else None
        verdict = _pass_verdict(a, b, now_texts, then_texts)
        if verdict == "ignored":
            ignored += 1
        elif verdict == "differs":
            differing += 1
            first = index if first is None else first
    if first is None:
        return TraceDivergence(differing, ignored)
    a, b = (then[first] if first < len(then) else None), (now[first] if first < len(now) else None)
    named = b or a
    assert named is not None  # the first differing pass is in one run at least
    size = _diff_size(a, b, now_texts, then_texts)
    different = _first_different(then, now, then_texts, now_texts)
    return TraceDivergence(differing, ignored, first, named["name"], size, different)


def _first_different(then: list[dict], now: list[dict], then_texts: TextSource, now_texts: TextSource) -> dict | None:
    """The first pass (after the frontend) that behaved differently now than in the baseline, as
    {index, name} of this sweep's run (behaviour.py); None when none did, the baseline kept only
    hashes or the trace exists on one side only (its divergence says so)."""
    if not then or not now:
        return None
    lines_then = [then_texts.lines(p["sha256"]) for p in then]
    lines_now = [now_texts.lines(p["sha256"]) for p in now]
    if any(lines is None for lines in lines_then + lines_now):
        return None
    matches = match_passes([p["name"] for p in then], [p["name"] for p in now])
    texts_then = [lines[0] for lines in lines_then if lines is not None]
    texts_now = [lines[0] for lines in lines_now if lines is not None]
    for match, behaviour in list(zip(matches, match_behaviours(matches, texts_then, texts_now)))[1:]:
        if behaviour in ("different", "only-in-a", "only-in-b", "renamed"):
            position, run = (match.b, now) if match.b is not None else (match.a, then)
            assert position is not None  # a match has a pass in one run at least
            return {"index": position, "name": run[position]["name"]}
    return None


def compare_program(now: dict, then: dict, now_texts: TextSource, then_texts: TextSource) -> BaselineComparison:
    """How a valid program differs from its valid baseline, trace by trace (matched by stage and
    unit; a trace on one side only differs in every pass)."""
    now_traces, then_traces = dict(passes_by_trace(now)), dict(passes_by_trace(then))
    keys = [*now_traces, *(key for key in then_traces if key not in now_traces)]
    per_trace = {
        key: compare_passes(now_traces.get(key, []), then_traces.get(key, []), now_texts, then_texts) for key in keys
    }
    return baseline_comparison(per_trace, {key: len(rows) for key, rows in now_traces.items()})


def _pass_verdict(a: dict | None, b: dict | None, now_texts: TextSource, then_texts: TextSource) -> str:
    if a is None or b is None or a["name"] != b["name"]:
        return "differs"
    if a["sha256"] == b["sha256"]:
        return "same"
    if not now_texts.active:
        return "differs"
    before, after = then_texts.lines(a["sha256"]), now_texts.lines(b["sha256"])
    return "ignored" if before is not None and before == after else "differs"


def _diff_size(a: dict | None, b: dict | None, now_texts: TextSource, then_texts: TextSource) -> LineCounts | None:
    """Lines inserted/deleted between the baseline's and this sweep's output of one pass."""
    before = then_texts.lines(a["sha256"]) if a else ([], True)
    after = now_texts.lines(b["sha256"]) if b else ([], True)
    if before is None or after is None:
        return None  # the baseline kept only hashes
    inserted, deleted = count_changes(diff_snapshots(before[0], after[0], before[1], after[1]))
    return LineCounts(inserted, deleted)


# ---------- sweep.json ----------


def program_entry(
    record: dict, baseline_entry: dict | None, has_baseline: bool, now_texts: TextSource, then_texts: TextSource
) -> dict:
    """One element of sweep.json's "programs" from a per-dump record."""
    keys = ("name", "dump", "input", "report", "ok", "error", "summary", "traces", "passes")
    entry = {key: record.get(key) for key in keys}
    entry["baseline"] = compared = None
    if not record["ok"]:
        entry["status"] = "invalid"
    elif not has_baseline:
        entry["status"] = "ok"
    elif baseline_entry is None or not baseline_entry.get("ok"):
        entry["status"] = "new" if baseline_entry is None else "diverged"
        if baseline_entry is not None:
            compared = against_invalid_baseline(record["passes"], len(record.get("traces") or [None]))
    else:
        compared = compare_program(record, baseline_entry, now_texts, then_texts)
        entry["status"] = "diverged" if compared.diverged else "same"
    if compared is not None:
        different = _with_link(record, compared.first_different)
        compared = replace(compared, link=_divergence_link(record, compared), first_different=different)
    entry["baseline"] = None if compared is None else compared.to_json()
    return entry


def _with_link(record: dict, different: dict | None) -> dict | None:
    """The first pass that behaved differently with the report opened at it (`"link"`)."""
    if different is None:
        return None
    key, index = different.get("trace"), different["index"]
    if key is None:
        return {**different, "link": deep_link(record["report"], index, record["passes"])}
    rows = dict(passes_by_trace(record)).get(key)
    return {**different, "link": trace_link(record["report"], key, index, rows) if rows else record["report"]}


def _divergence_link(record: dict, compared: BaselineComparison) -> str | None:
    """The report opened where the program first diverged, if it did (a trace the report no longer
    has: the report's start)."""
    first, key = compared.first_divergent_pass, compared.first_divergent_trace
    if first is None:
        return None
    if key is None:
        return deep_link(record["report"], first, record["passes"])
    rows = dict(passes_by_trace(record)).get(key)
    return trace_link(record["report"], key, first, rows) if rows else record["report"]


def deep_link(report: str, index: int, passes: list[dict]) -> str:
    """The report opened at a pass; pass 0 (the frontend) has no diff of its own to open. A pass
    only the baseline had (the pipeline got shorter) opens the last pass this run has, where the
    two part: the report has no page for a pass it lacks."""
    index = min(index, len(passes) - 1)
    return f"{report}#pass={index}" if index > 0 else report


def build_sweep(
    records: list[dict],
    options: dict,
    baseline: dict | None,
    now_store: Path,
    baseline_store: Path | None,
    ignores: list[re.Pattern],
    inputs: str = "",
    created: float | None = None,
    modes: IgnoreModes | None = None,
) -> dict:
    """The whole sweep.json document; `inputs` identifies what it was built from."""
    now_texts = TextSource(now_store, ignores, modes)
    then_texts = TextSource(baseline_store or now_store, ignores, modes)
    previous = {p["name"]: p for p in (baseline or {}).get("programs", [])}
    programs = [
        program_entry(r, previous.get(r["name"]), baseline is not None, now_texts, then_texts)
        for r in sorted(records, key=lambda r: r["name"])
    ]
    names = {p["name"] for p in programs}
    gone = [{"name": p["name"], "dump": p.get("dump")} for p in previous.values() if p["name"] not in names]
    return {
        "schema": SWEEP_SCHEMA,
        "generator": f"pypto-ir-trace {__version__}",
        "created": _utc(created if created is not None else time.time()),
        "inputs": inputs,
        "options": options,
        "baseline": None if baseline is None else {"path": options.get("baseline"), "created": baseline.get("created")},
        "totals": sweep_totals([p["status"] for p in programs], len(gone)).to_json(),
        "programs": programs,
        "gone": sorted(gone, key=lambda g: g["name"]),
    }


def _utc(seconds: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(seconds))


def referenced_texts(sweep: dict) -> set[str]:
    return {p["sha256"] for program in sweep["programs"] for p in program["passes"] or []}


# ---------- the index page ----------


def render_index(payload: dict) -> str:
    """index.html: template, styles, script and rows inline, like the reports."""
    return render_page(
        "index.html.j2",
        ("index.js",),
        "index.css",
        title=f"pypto-ir-trace sweep · {payload['created']}",
        payload_json=payload_to_script_json(payload),
    )


def write_sweep(out_dir: Path, sweep: dict, guard: RunGuard | None = None) -> None:
    """index.html first, sweep.json last: sweep.json's presence marks the sweep complete."""
    write_output(Path(out_dir) / "index.html", render_index(index_payload(sweep)), guard=guard)
    text = json.dumps(sweep, indent=1, ensure_ascii=False) + "\n"
    write_output(Path(out_dir) / "sweep.json", text, guard=guard)

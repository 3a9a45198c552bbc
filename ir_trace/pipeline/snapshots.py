"""Per-snapshot and per-pair work: validation, then diffs and function slicing in batches."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import luigi

from ir_trace.cache.fingerprints import diff_key, file_hashes_key, manifest_key, slice_key, work_plan_key
from ir_trace.diffcore.linediff import count_changes, diff_snapshots, join_lines, split_lines
from ir_trace.errors import DumpError, IRTraceError
from ir_trace.inputs.discovery import read_snapshot_text
from ir_trace.inputs.file_hashes import FileHashes
from ir_trace.inputs.traces import Trace, discover_traces, traces_from_json
from ir_trace.pipeline.base import WORK_DONE, WORK_REDONE, AbsolutePath, PipelineTask
from ir_trace.pipeline.config import follow_inner_symlinks, observed_state, session, shared_cache
from ir_trace.pipeline.targets import CacheTarget
from ir_trace.report.ignore_counts import ignore_counts
from ir_trace.report.model import Hunk, PairDiff
from ir_trace.syntax.chunks import split_chunks
from ir_trace.syntax.functions import Slices, Structure, UnsafeToSlice, analyse_structure, slice_functions


class LoadedSnapshot:
    """One snapshot's text, with its lines, structure and functions worked out once, when first needed.

    `kind` is the language it is printed in ("pypto" or "mlir"): it decides what a function is;
    `sha256` (its bytes' hash) finds its functions in the cache, sliced by an earlier run or batch."""

    def __init__(self, text: str, kind: str = "pypto", sha256: str | None = None):
        self._text: str | None = text
        self._pieces: list[str] | None = None  # its chunks, from `split` until `structure` takes them
        self.chars = len(text)
        self.kind = kind
        self.sha256 = sha256

    @property
    def text(self) -> str:
        """Its text: held, or joined again from its lines once a huge one has let it go (`worked_out`)."""
        return self._text if self._text is not None else join_lines(*self.split)

    @cached_property
    def split(self) -> tuple[list[str], bool]:
        """Its lines and final newline; PyPTO's are split chunk by chunk (`chunks.split_chunks`), so the lines
        it shares with the snapshots before it are their very strings, and its chunks are kept for `structure`."""
        if self.kind != "pypto":
            return split_lines(self.text)
        lines, eol, self._pieces = split_chunks(self.text)
        return lines, eol

    def worked_out(self) -> LoadedSnapshot:
        """It, with its lines and functions worked out; a huge one (a 100 MB `dense<>` line) then keeps
        its lines alone, not its text too, so a pair of them costs their lines and little more."""
        _lines, _functions = self.split, self.functions
        self.let_text_go()
        return self

    def let_text_go(self) -> None:
        """A huge snapshot whose lines are worked out lets its text go (here and in `Session.texts`)."""
        if self.chars > HELD_TEXT_CHARS and "split" in self.__dict__:
            self._text = self._pieces = None
            if self.sha256 is not None:
                session().texts.take(self.sha256)

    @cached_property
    def structure(self) -> Structure | None:
        """PyPTO's statement outline (MLIR's symbol ops need none)."""
        if self.kind != "pypto":
            return None
        lines = self.split[0]
        pieces, self._pieces = self._pieces, None  # needed once: the structure's chunks are these
        try:
            return analyse_structure(lines, self.text, pieces)
        except UnsafeToSlice:
            return None

    @cached_property
    def slices(self) -> Slices:
        """Its functions, shared by the slicing task and the diffs (which match functions first)."""
        return slice_functions(self.split[0], self.structure, self.kind, self.text)  # MLIR's chunks cut from the text

    @cached_property
    def functions(self) -> list[tuple[str, int, int]] | None:
        """(key, start, end) of each function, as the report lists them (None: cannot be sliced).

        Taken from the cache when its slicing is there (same bytes, same slicer version), so a rerun
        that rediffs a pass's neighbours does not analyse their structure again."""
        cached = self._cached_slices()
        if cached is not None:
            return None if cached.functions is None else list(cached.functions)
        found = self.slices.functions
        return None if found is None else list(map(tuple, found))  # type: ignore[arg-type]  # plain tuples, made in C

    def _cached_slices(self) -> SliceResult | None:
        if self.sha256 is None or "slices" in self.__dict__:  # worked out here already: no lookup
            return None
        return SliceResult.from_json(shared_cache().get(slice_key(self.sha256, self.kind)))


HELD_TEXT_CHARS = 1 << 24  # a snapshot past this size holds its lines alone once they are worked out


def _triples(functions: list | tuple) -> bool:
    """Whether cached functions are [key, start, end] each (anything else is sliced again)."""
    return all(map(_is_triple, functions))


def _is_triple(function) -> bool:
    return isinstance(function, (list, tuple)) and len(function) == 3 and isinstance(function[0], str)


def span_parameter(span: tuple[int, int] | None) -> str:
    """A snapshot's span as a task parameter: "offset,length", or "" for the whole file."""
    return "" if span is None else f"{span[0]},{span[1]}"


def parse_span(span: str | tuple[int, int] | None) -> tuple[int, int] | None:
    """A span given as a task parameter ("offset,length", "" for the whole file) or as a Snapshot holds it."""
    if not span or isinstance(span, tuple):
        return span or None
    offset, _comma, length = span.partition(",")
    return int(offset), int(length)


def load_snapshot(
    path: str, sha256: str, span: str | tuple[int, int] | None = None, kind: str = "pypto"
) -> LoadedSnapshot:
    """The snapshot whose bytes hash to `sha256` (at `span` inside `path`: `Snapshot.span` or its
    `span_parameter` form), read as `kind`, refusing a file rewritten since validation.

    A text already read in this process under that hash is the same text, so it is reused.
    """
    memory = session()
    loaded: LoadedSnapshot | None = memory.snapshots.get((sha256, kind))
    if loaded is None:
        text = memory.texts.get(sha256)
        if text is None:
            where = parse_span(span)
            memory.make_room(where[1] if where else _file_size(path))
            follow = memory.follow_links if memory.follow_links is not None else follow_inner_symlinks()
            text, actual = read_snapshot_text(
                Path(path), where, follow_inner_symlinks=follow, hashes=memory.file_hashes
            )
            if actual != sha256:
                raise DumpError(f"snapshot changed while the report was being built: {path}; run again")
            memory.texts.put(sha256, text)
        loaded = LoadedSnapshot(text, kind, sha256)
        memory.snapshots.put((sha256, kind), loaded)
    return loaded


def _file_size(path: str) -> int:
    try:
        return os.stat(path).st_size
    except OSError:
        return 0  # the read that follows says why


# A report task takes its dump's state as a parameter, so its output (and its inputs' outputs) are
# functions of its parameters and the dump is scanned once per run, not at every completeness check.
STATE_HELP = (
    "the dump's files as the file system saw them before scheduling (fingerprints.dump_state); "
    "empty: looked at whenever the task's output is asked for"
)


class ValidateDump(PipelineTask):
    """Validate a dump (every trace under the path: `traces.discover_traces`) and cache the
    manifests for as long as its files stay as they are.

    An invalid dump fails the task with the one-line reason.
    """

    dump = AbsolutePath(description="a passes_dump/, MLIR tree or stream, ptoas_passes/ or program output directory")
    state = luigi.Parameter(default="", description=STATE_HELP)

    def output(self):
        return CacheTarget(manifest_key(self.dump, self.state or observed_state(self.dump)))

    def run(self):
        validate(self.dump, self.output())


def validate(dump: str, target: CacheTarget) -> dict:
    """Validate `dump` into `target` (a target named before reading, so a file rewritten meanwhile
    leaves the manifests under the old state, where nothing finds it).

    The snapshots' hashes are kept by stat stamp beside the manifests, so the next validation (one
    pass rewritten, say) reads only the files whose stamp changed."""
    cache, hashes_key = shared_cache(), file_hashes_key(dump)
    hashes = FileHashes.from_json(cache.get(hashes_key))
    traces = discover_traces(dump, session().text_keeper(), follow_inner_symlinks(), hashes)
    session().file_hashes.learn(hashes)  # a text read again later is known by its file's stamp
    data = {"traces": [trace.to_json() for trace in traces]}
    cache.put_many({hashes_key: hashes.to_json(), target.key: data})
    return data


def current_traces(dump: str, state: str = "") -> list[Trace]:
    """The traces under `dump` for its files in `state` (empty: as they are now): cached, else validated here."""
    target = ValidateDump(dump=dump, state=state).output()
    return validated_traces(target) or _remember_traces(target.key, traces_from_json(validate(dump, target)))


def validated_traces(target: CacheTarget) -> list[Trace] | None:
    """The traces a validation left under `target` (a ValidateDump's output), if any; never validates.

    Kept per process under its key (`Session.traces`), which names the dump's files' state, so the same
    state always gives the same traces: Luigi's completeness checks ask for them several times a run,
    and a thousand-snapshot manifest is worth decoding once.
    """
    known = session().traces.get(target.key)
    if known is not None:
        return known
    data = target.read()
    return _remember_traces(target.key, traces_from_json(data)) if data is not None else None


def _remember_traces(key: str, traces: list[Trace]) -> list[Trace]:
    session().traces.put(key, traces)
    return traces


@dataclass(frozen=True)
class SliceResult:
    """A snapshot's functions ((key, start, end) each, cached as [key, start, end]; None with the reason when it
    cannot be sliced) and its final newline."""

    functions: tuple[tuple[str, int, int], ...] | None
    parse_error: str | None
    eol: bool

    def to_json(self) -> dict:
        found: dict = {"functions": self.functions} if self.functions is not None else {"functions": None}
        if self.functions is None:
            found["parse_error"] = self.parse_error
        return {**found, "eol": self.eol}

    @classmethod
    def from_json(cls, data) -> SliceResult | None:
        try:
            functions = data["functions"]
            if functions is not None and not (isinstance(functions, (list, tuple)) and _triples(functions)):
                return None  # anything else is sliced again
            listed = None if functions is None else tuple(map(tuple, functions))
            return cls(listed, data.get("parse_error"), bool(data["eol"]))
        except (KeyError, TypeError, AttributeError):
            return None


@dataclass(frozen=True)
class DiffPair:
    """The diff of two adjacent snapshots, cached under their content hashes (one item of a WorkBatch)."""

    before: str
    before_sha: str
    after: str
    after_sha: str
    before_span: str = ""  # "offset,length" inside a stream file (see span_parameter)
    after_span: str = ""
    kind: str = "pypto"  # the snapshots' language: functions are matched first

    @property
    def key(self) -> str:
        return diff_key(self.before_sha, self.after_sha, self.kind)

    result_type = PairDiff

    def compute(self) -> PairDiff:
        before = load_snapshot(self.before, self.before_sha, self.before_span, self.kind).worked_out()
        after = load_snapshot(self.after, self.after_sha, self.after_span, self.kind).worked_out()
        (a, a_eol), (b, b_eol) = before.split, after.split
        hunks = diff_snapshots(a, b, a_eol, b_eol, before.functions, after.functions)
        inserted, deleted = count_changes(hunks)
        counts = ignore_counts(a, b, a_eol, b_eol, before.functions, after.functions, hunks, self.kind)
        typed = tuple(Hunk.from_diff(hunk, b) for hunk in hunks)
        return PairDiff(typed, inserted, deleted, b_eol, {spec: (ins, dels) for spec, (ins, dels) in counts.items()})

    def to_json(self) -> list:
        fields = [self.before, self.before_sha, self.after, self.after_sha, self.before_span, self.after_span]
        return ["diff", *fields, self.kind]  # work_from_json reads them back in this order (no astuple: it deep-copies)


@dataclass(frozen=True)
class SliceFunctions:
    """The functions of one snapshot, cached under its content hash (one item of a WorkBatch)."""

    snapshot: str
    sha: str
    span: str = ""
    kind: str = "pypto"  # the snapshot's language: what a function is

    @property
    def key(self) -> str:
        return slice_key(self.sha, self.kind)

    result_type = SliceResult

    def compute(self) -> SliceResult:
        snapshot = load_snapshot(self.snapshot, self.sha, self.span, self.kind)
        _lines, eol = snapshot.split
        slices = snapshot.slices
        snapshot.let_text_go()
        functions = None if slices.functions is None else tuple(map(tuple, slices.functions))
        return SliceResult(functions, slices.error, eol)  # type: ignore[arg-type]  # plain triples, made in C

    def to_json(self) -> list:
        return ["slice", self.snapshot, self.sha, self.span, self.kind]


WorkItem = DiffPair | SliceFunctions


def work_from_json(data) -> WorkItem:
    kind, *fields = data
    if kind == "diff":
        return DiffPair(*fields)
    if kind == "slice":
        return SliceFunctions(*fields)
    raise ValueError(f"unknown work item {kind!r}")


def cached_result(item: WorkItem, task: luigi.Task | None = None) -> PairDiff | SliceResult:
    """An item's cached result, recomputed (and cached again) if the cache lost it meanwhile
    or holds something that is not one; `task` (the one assembling the report) then fires
    WORK_REDONE, so a repaired pair is counted as rediffed, not as taken from the cache."""
    result = session().results.take(item.key)
    if result is None:
        result = item.result_type.from_json(shared_cache().get(item.key))
    if result is None:
        result = item.compute()
        shared_cache().put(item.key, result.to_json())
        if task is not None:
            task.trigger_event(WORK_REDONE, task, item)
    return result


def cached_diff(item: DiffPair, task: luigi.Task | None = None) -> PairDiff:
    """A pair's cached diff (`cached_result`, typed)."""
    result = cached_result(item, task)
    assert isinstance(result, PairDiff)  # a DiffPair's result_type
    return result


def missing_work(work: list[WorkItem]) -> list[WorkItem]:
    """The items whose result the cache does not hold yet."""
    done = shared_cache().present([item.key for item in work])
    return [item for item in work if item.key not in done]


def do_work(work: list[WorkItem] | tuple[WorkItem, ...], on_item: Callable[[WorkItem], None]) -> None:
    """Compute the items the cache lacks, here; `on_item(item)` after each one."""
    cache, memory = shared_cache(), session()
    done = cache.present([item.key for item in work])  # by another worker meanwhile, say
    results: dict = {}
    sliced: SliceResult | None = None  # the last slicing: an equal function list is kept as that one object
    memory.follow_links = follow_inner_symlinks()  # read once for the batch (see Session.follow_links)
    try:
        for item in work:
            if item.key not in done:
                result = item.compute()
                if isinstance(result, SliceResult):
                    result = sliced = _sharing(result, sliced)
                results[item.key] = result.to_json()
                memory.results.put(item.key, result)
                on_item(item)
    finally:
        memory.follow_links = None
    cache.put_many(results)  # one commit for the batch: thousands of commits were most of a tiny dump's time


def _sharing(result: SliceResult, last: SliceResult | None) -> SliceResult:
    """`result`, holding `last`'s function list when the two are equal (a stream of thousands of snapshots whose
    passes move no function holds one list while their results wait for the report, not thousands)."""
    if last is None or result.functions is None or result.functions != last.functions:
        return result
    return SliceResult(last.functions, result.parse_error, result.eol)


class BatchTarget(luigi.Target):
    """Complete when the cache holds a result for every item of a batch."""

    def __init__(self, keys: list[str]):
        self.keys = keys

    def exists(self) -> bool:
        return len(shared_cache().present(self.keys)) == len(set(self.keys))


class WorkBatch(PipelineTask):
    """Diffs and slicings of one dump, run as one task: Luigi's scheduler costs grow with the square of the
    task count, so a dump of thousands of passes is at most MAX_BATCHES tasks, never thousands.

    Each item is cached on its own (under the content hashes of its inputs), so a rerun after a rebuild
    recomputes only the items whose inputs changed, whatever batch they fall in. Every item computed
    fires WORK_DONE (the progress bar and the count of rediffed pairs listen to it).

    Its parameter stays small: `batches` stores the batch's items in the cache under a key made of
    their content, and the batch is that key (no list of work items travels to the scheduler).
    """

    items = luigi.Parameter(description="the cache key of the batch's items (`batches` stores them)")

    @cached_property
    def work(self) -> tuple[WorkItem, ...]:
        """The batch's items, as `batches` stored them."""
        stored = shared_cache().get(self.items)
        if not isinstance(stored, str):
            raise IRTraceError(f"the work items {self.items} are not in the cache (removed meanwhile?); run again")
        return tuple(work_from_json(data) for data in json.loads(stored))

    def output(self):
        return BatchTarget([item.key for item in self.work])

    def __repr__(self):
        # Luigi's logs and run summary name a task by its repr, which would spell out every item.
        first, last = self.work[0], self.work[-1]
        return f"WorkBatch({len(self.work)} items: {_shown(first)} .. {_shown(last)})"

    def run(self):
        do_work(self.work, lambda item: self.trigger_event(WORK_DONE, self, item))


MAX_BATCHES = 8  # Luigi's share of a cold 1,000-pass run: 11 % with 24, 10 % with 16, 9 % with 8 (BENCHMARKS.md)
MIN_BATCH = 32


def _shown(item: WorkItem) -> str:
    """A work item in a task's repr: its snapshot file names."""
    if isinstance(item, DiffPair):
        return f"diff {os.path.basename(item.before)} > {os.path.basename(item.after)}"
    return f"slice {os.path.basename(item.snapshot)}"


def batches(work: list[WorkItem]) -> list[WorkBatch]:
    """`work` cut into consecutive batches: at most MAX_BATCHES (scheduling stays a small share of any run),
    at least MIN_BATCH items each (a short dump is one or a few tasks, still shared between workers).
    Each batch's items are stored in the cache (one commit for all) and the batch names them by key."""
    size = max(MIN_BATCH, -(-len(work) // MAX_BATCHES))
    # Stored as the JSON text the key is made of: one encoding of the items, as Luigi's parameter was.
    texts = [
        json.dumps([item.to_json() for item in work[i : i + size]], separators=(",", ":"))
        for i in range(0, len(work), size)
    ]
    stored = {work_plan_key(text): text for text in texts}
    shared_cache().put_many(stored)
    made = [WorkBatch(items=key) for key in stored]
    for batch, start in zip(made, range(0, len(work), size)):
        batch.work = tuple(work[start : start + size])  # known here: this process (and its forks) need not read it back
    return made

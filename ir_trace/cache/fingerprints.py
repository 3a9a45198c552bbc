"""Every fingerprint and version: what decides whether a cached result, a report or a sweep is current.

One word per idea, used by the CLI, the tasks and the sweeps alike:

- a *version* names an algorithm or a data layout; a new one makes every result built with
  the old one stale. The diff's, the slicer's and the normalisers' are the hashes of their
  source files (and of every ir_trace module those import), so no change to them can go out
  without one (`DIFF_VERSION`, `SLICER_VERSION`, `NORMALIZE_VERSION`); the data layouts are
  numbered by hand (`PAYLOAD_SCHEMA`, `SUMMARY_SCHEMA`, `SWEEP_SCHEMA`, the tool's own version);
- a *digest* is a hash of content (a snapshot's bytes, a dump's manifest, the templates);
- a *state* is what the file system says about files without reading them (names, sizes,
  mtimes, inode): cheap, and enough to notice a rewrite;
- a *fingerprint* combines digests, options and versions into the identity of one output
  (a report, a comparison, a sweep's per-dump record, a whole sweep);
- a *key* names a result in the cache.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
import weakref
from functools import lru_cache
from pathlib import Path

from ir_trace import __version__
from ir_trace.report.payload_schema import PAYLOAD_SCHEMA
from ir_trace.report.render import TEMPLATE_FILES, templates_dir
from ir_trace.summaries.runs import SUMMARY_SCHEMA

PACKAGE = Path(__file__).parent.parent  # ir_trace/


def module_sources(root: str) -> list[Path]:
    """The source of ir_trace module `root` and of every ir_trace module it imports, at any depth."""
    found: dict[str, Path] = {}
    waiting = [root]
    while waiting:
        name = waiting.pop()
        path = _module_path(name)
        if name in found or path is None:
            continue
        found[name] = path
        waiting += _module_source(path)[1]
    return [found[name] for name in sorted(found)]


def _module_source(path: Path) -> tuple[bytes, list[str]]:
    """A module's bytes and the ir_trace modules it imports, read once per process while its file keeps its
    state: the versions' module trees share most of their files (a warm run hashed each one five times)."""
    where = str(path)  # plain strings and os calls: pathlib's cost was most of this on a warm run
    stat_result = os.stat(where)
    state = (stat_result.st_ino, stat_result.st_size, stat_result.st_mtime_ns)
    found = _module_sources.get(where)
    if found is None or found[0] != state:
        with open(where, "rb") as file:
            data = file.read()
        text = data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")  # as read_text reads it
        found = _module_sources[where] = (state, data, _imported_modules(text))
    return found[1], found[2]


_module_sources: dict[str, tuple[tuple[int, int, int], bytes, list[str]]] = {}


def _module_path(name: str) -> Path | None:
    """The file of ir_trace module `name` (dotted below the package: `syntax.functions`), if it is one.
    Looked up once per process and package (the version trees name the same modules and names again)."""
    key = (str(PACKAGE), name)
    if key not in _module_paths:
        base = os.path.join(key[0], *name.split("."))
        found = (where for where in (base + ".py", os.path.join(base, "__init__.py")) if os.path.isfile(where))
        where = next(found, None)
        _module_paths[key] = Path(where) if where is not None else None
    return _module_paths[key]


_module_paths: dict[tuple[str, str], Path | None] = {}


def _imported_modules(source: str) -> list[str]:
    """The ir_trace modules a source imports, at any place in it (`from ir_trace.syntax import functions`
    names `syntax` and `syntax.functions`: an imported name may be a module or not; only files count).

    Read from the import statements' text, not a syntax tree: every run computes the versions,
    and parsing a dozen modules cost a warm run an eighth of its time."""
    names = []
    for statement in _IMPORT_STATEMENT.finditer(source):
        package, imported, plain = statement.group("package", "names", "modules")
        if plain is not None:
            modules = _imported_names(plain)
            names += [name.removeprefix("ir_trace.") for name in modules if name.startswith("ir_trace.")]
            continue
        package = package.removeprefix("ir_trace").lstrip(".")
        prefix = f"{package}." if package else ""
        names += ([package] if package else []) + [prefix + name for name in _imported_names(imported)]
    return names


def _imported_names(text: str) -> list[str]:
    """The names of `a, b as c`, or of a parenthesised list over several lines with comments."""
    text = _COMMENT.sub("", text).strip().strip("()")
    return [part.split()[0] for part in text.split(",") if part.strip()]


# `from ir_trace.x import a, b`, `from ir_trace import (a,\n b)`, `import ir_trace.x as y`, at any indent
_IMPORT_STATEMENT = re.compile(
    r"^[ \t]*(?:from[ \t]+(?P<package>ir_trace(?:\.[\w.]+)?)[ \t]+import[ \t]+(?P<names>\([^)]*\)|[^\n]*)"
    r"|import[ \t]+(?P<modules>[^\n]*))",
    re.MULTILINE,
)
_COMMENT = re.compile(r"#[^\n]*")


def source_version(name: str, root: str) -> str:
    """`name-<hash>`: the hash of the sources `module_sources(root)` lists, names included."""
    hashed = hashlib.sha256()
    for path in module_sources(root):
        hashed.update(path.name.encode() + b"\0" + _module_source(path)[0] + b"\0")
    return f"{name}-{hashed.hexdigest()[:16]}"


DIFF_VERSION = source_version("diff", "diffcore.linediff")  # the line diff, its pairing rules and its JSON layout
SLICER_VERSION = source_version("slice", "syntax.functions")  # function slicing and its JSON layout
NORMALIZE_VERSION = source_version("normalize", "noise.normalize")  # the ignore modes
# the counts a pair's cached diff carries under the precomputed ignore-mode sets (which sets, how counted)
IGNORE_COUNTS_VERSION = source_version("ignore-counts", "report.ignore_counts")
MODEL_VERSION = source_version("model", "report.model")  # the typed report model: what a pair's diff caches
SUMMARY_VERSION = source_version("summary", "summaries.trace")  # the --json summary a report record keeps
DISCOVERY_VERSION = "discover-10"  # what validation caches (3: backup names, MLIR dumps; 4: a list of traces;
# 5: one MLIR op-line reader for ordering and outlines: `@a::@b` defines no symbol, any keywords skipped;
# 6: MLIR trees in the pass manager's order, overwrite warnings on evidence, stream diagnostics as logs;
# 7: an MLIR dump named `tree`, `stream.txt`... is titled by its program; 8: MLIR shared directories replayed,
# mtimes as a signal, ambiguity remarks, lost dumps from the replay; 9: without module scope, ops sharing a
# directory one trace each; separate adaptors' walks one after the other; 10: a stream's ops without a symbol
# one trace each, a tree's op counting on from another's number its own, both numbered in module order)
SWEEP_SCHEMA = 1  # sweep.json
SWEEP_RECORD_VERSION = "sweep-record-2"  # a sweep's per-program record (2: its traces, any input kind)
COMPARISON_VERSION = "compare-4"  # a comparison's summary (2: the frontend is never its first difference;
# 3: runs of one title are named by the ends of their paths; 4: each pass's behaviour)
BEHAVIOUR_VERSION = source_version("behaviour", "report.behaviour")  # what a pass did in A against B


def versions() -> tuple[str, ...]:
    """Every version an output depends on: one list, so no output can forget one."""
    return (
        DIFF_VERSION,
        SLICER_VERSION,
        DISCOVERY_VERSION,
        NORMALIZE_VERSION,
        IGNORE_COUNTS_VERSION,
        MODEL_VERSION,
        f"payload-{PAYLOAD_SCHEMA}",
        f"summary-{SUMMARY_SCHEMA}",
        SUMMARY_VERSION,
        __version__,
    )


# ---------- digests ----------


def digest(*parts: str) -> str:
    """A short hash of text parts (separated, so ("ab", "c") and ("a", "bc") differ)."""
    return hashlib.sha256("\0".join(parts).encode("utf-8", "surrogateescape")).hexdigest()[:32]


def dump_digest(manifest) -> str:
    """Everything a report shows of a dump: where it is, its title, every snapshot and log. Worked out once per
    manifest (frozen) while it lives: Luigi's checks ask for a report's fingerprint several times a run, and a
    100,000-dump stream's digest is a second of work each time."""
    held = _dump_digests.get(id(manifest))
    if held is not None and held[0]() is manifest:
        return held[1]
    found = _dump_digest(manifest)
    if len(_dump_digests) >= 16:
        _dump_digests.clear()
    _dump_digests[id(manifest)] = (weakref.ref(manifest), found)
    return found


_dump_digests: dict[int, tuple[weakref.ref, str]] = {}  # id(manifest) -> (the manifest, its digest)


def _dump_digest(manifest) -> str:
    parts = [manifest.dump, manifest.title]
    for s in manifest.snapshots:
        parts += [str(s.index), s.name, s.sha256, str(s.log_file), str(s.log), str(s.shown_file)]
        if s.header is not None:
            parts.append(repr(s.header))
    return digest(*parts, manifest.kind, *manifest.warnings)


def template_digest(files: tuple[str, ...] = TEMPLATE_FILES) -> str:
    """Every template source, so editing the viewer can never serve a stale page.

    Hashed once per process for as long as the files keep their state (Luigi asks for report
    fingerprints many times in a run; reading and hashing the templates each time cost 4 ms).
    """
    folder = templates_dir()
    states = tuple((name, tuple(file_state(folder / name) or ())) for name in files)
    return _hash_templates(str(folder), states)


@lru_cache(maxsize=16)
def _hash_templates(folder: str, states: tuple) -> str:
    hashed = hashlib.sha256()
    for name, _state in states:
        hashed.update(name.encode() + b"\0" + (Path(folder) / name).read_bytes() + b"\0")
    return hashed.hexdigest()


def file_digest(path: str | os.PathLike) -> str:
    """A file's content (a sweep's baseline), or a marker saying it could not be read."""
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError as exc:
        return f"unreadable:{exc.errno}"


def traces_digest(traces) -> str:
    """Everything a report shows of several traces (`traces.Trace`): each one's stage, unit and dump."""
    parts = []
    for trace in traces:
        manifest = trace.manifest
        parts += [trace.stage, trace.unit, manifest.kind, *manifest.warnings, dump_digest(manifest)]
    return digest(*parts)


# ---------- states ----------


def file_state(path: str | os.PathLike) -> list[int] | None:
    """Inode, size and mtime of a file, or None when absent: a replaced or edited file changes it.

    A rename keeps all three, so the state of a temporary file taken before it is renamed into
    place identifies exactly the file that was written (os.stat_result works too, see `state_of`).
    """
    try:
        return state_of(os.stat(path))
    except OSError:
        return None


def state_of(info: os.stat_result) -> list[int]:
    return [info.st_ino, info.st_size, info.st_mtime_ns]


def dump_state(dump: str | os.PathLike) -> str:
    """A dump as the file system sees it: every entry's path, kind, size, mtime and ctime,
    recursively (an MLIR tree nests its files; a stream is one file). The ctime catches a rewrite
    that keeps the size and the mtime (within the file system's timestamp tick, or restored).

    Nothing is read, and every host that sees the same files computes the same value (no inode,
    no device: the ctime is the file system's own, shared like the mtime), so Luigi workers on
    several hosts agree on task identities. Names are hashed as
    bytes, so any name, UTF-8 or not, is fine.
    """
    hashed = hashlib.sha256()
    root = os.fsencode(dump)
    try:
        info = os.stat(root)
    except OSError as exc:
        info = None
        hashed.update(f"unreadable:{exc.errno}".encode())
    if info is not None and not stat.S_ISDIR(info.st_mode):
        hashed.update(b"file\0" + _stamp(info))
    elif info is not None:
        _hash_directory(hashed, root, b"")
    return hashed.hexdigest()[:32]


def _stamp(info: os.stat_result) -> bytes:
    return f"{info.st_size}\0{info.st_mtime_ns}\0{info.st_ctime_ns}\n".encode()


def _hash_directory(hashed, folder: bytes, prefix: bytes) -> None:
    try:
        entries = sorted(os.scandir(folder), key=lambda entry: entry.name)
    except OSError as exc:
        hashed.update(prefix + f"unreadable:{exc.errno}\n".encode())
        return
    for entry in entries:
        try:
            info = entry.stat(follow_symlinks=True)
        except OSError:
            hashed.update(prefix + entry.name + b"\0?\n")
            continue
        kind = b"d" if stat.S_ISDIR(info.st_mode) else b"f"
        hashed.update(prefix + entry.name + b"\0" + kind + b"\0" + _stamp(info))
        if kind == b"d" and not entry.is_symlink():
            _hash_directory(hashed, entry.path, prefix + entry.name + b"/")


# ---------- fingerprints ----------


def report_fingerprint(dump: str, context: int, ignore: str = "") -> str:
    """A report of one dump (`dump` is its dump_digest) at this --context and initial ignore modes
    (`IgnoreModes.spec()`), templates and versions."""
    return digest("report", dump, str(context), ignore, template_digest(), *versions())


def comparison_fingerprint(dump_a: str, dump_b: str, context: int, ignore: str = "") -> str:
    """A run-against-run report of two dumps (their dump_digests) under the ignore modes' spec."""
    versioned = (template_digest(), COMPARISON_VERSION, BEHAVIOUR_VERSION, *versions())
    return digest("comparison", dump_a, dump_b, str(context), ignore, *versioned)


def sweep_dump_fingerprint(state: str, dump: str, context: int, ignore: str = "") -> str:
    """One dump's record in a sweep: its files' state, where it is, and what its report depends on."""
    return digest("sweep-dump", state, dump, str(context), ignore, template_digest(), SWEEP_RECORD_VERSION, *versions())


def sweep_fingerprint(
    dumps: list[str], baseline: str, ignore: list[str], context: int, index_files: tuple[str, ...]
) -> str:
    """A whole sweep: its dumps' fingerprints, the baseline file's content, the options, the index page."""
    return digest(
        "sweep",
        *dumps,
        file_digest(baseline) if baseline else "",
        json.dumps(list(ignore)),
        str(context),
        template_digest(index_files),
        f"sweep-{SWEEP_SCHEMA}",
        *versions(),
    )


# ---------- cache keys ----------


def manifest_key(dump: str, state: str) -> str:
    """A dump's validated manifest, for as long as its files are in this state."""
    return f"manifest/{DISCOVERY_VERSION}/{digest(dump, state)}"


def file_hashes_key(dump: str) -> str:
    """The sha256 of a dump's snapshot files by stat stamp (`file_hashes.FileHashes`), whatever its state."""
    return f"file-hashes/1/{digest(dump)}"


def diff_key(before_sha: str, after_sha: str, kind: str = "pypto") -> str:
    """`kind`: the snapshots' language, which decides the functions a diff matches first. The cached
    result (report/model.py `PairDiff`) holds the exact diff and the counts under the precomputed ignore
    modes: the three versions name it."""
    return f"diff/{DIFF_VERSION}/{IGNORE_COUNTS_VERSION}/{MODEL_VERSION}/{kind}/{before_sha}/{after_sha}"


def ignoring_key(before_sha: str, after_sha: str, kind: str, ignore: str) -> str:
    """A pair's hunks under the ignore modes of `ignore` (`IgnoreModes.spec()`, its regex included) that a
    report's `--json` counts by function (summaries/trace.py): the keyed diff, over the sliced functions."""
    versions = f"{DIFF_VERSION}/{IGNORE_COUNTS_VERSION}/{NORMALIZE_VERSION}/{SLICER_VERSION}"
    return f"ignoring/{versions}/{kind}/{digest(ignore)}/{before_sha}/{after_sha}"


def slice_key(sha: str, kind: str = "pypto") -> str:
    return f"functions/{SLICER_VERSION}/{kind}/{sha}"


def work_plan_key(items_json: str) -> str:
    """One batch's work items (pipeline/snapshots.py `batches`), named by their content."""
    return f"work/{hashlib.sha256(items_json.encode('utf-8')).hexdigest()}"


def summary_key(fingerprint: str) -> str:
    """The summary of the report (or comparison) with this fingerprint."""
    return f"summary/{fingerprint}"


def report_key(path: str) -> str:
    """The record of the report last written at `path` by this host (fingerprint + file state)."""
    return f"report/{digest(str(Path(path).absolute()))}"


def written_key(path: str, fingerprint: str) -> str:
    """The record of the last report with `fingerprint` written at `path`: kept apart from `report_key`'s,
    which the next write at the path replaces (a concurrent run of another dump to the same `-o`)."""
    return f"written/{digest(str(Path(path).absolute()), fingerprint)}"

"""Where a run may write: the output-path policy of the command, the report tasks and the sweep.

One set of rules, checked before any work, each refusal one line naming the argument:

- nothing is written inside what the run reads: a dump (a passes_dump/, an MLIR tree or stream, a
  program directory) stays as the compiler left it, and a file written there could be read as a
  snapshot next time;
- a report's directory exists and can be written (a read-only mount is named as such);
- the command's outputs do not land in its cache, nor on each other (-o and --json, --json - and stdout);
- a sweep's --out-dir is a directory (or can be made one) outside every program it sweeps, and
  its sweep.json is not the --baseline being read;
- every path named is UTF-8: paths end up in cache keys and in the report's UTF-8 text.

How a single file is then written (atomically, a FIFO through) is `ir_trace.runsafety.writes`'s business.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from ir_trace.errors import IRTraceError
from ir_trace.inputs.dump_files import printable_path
from ir_trace.inputs.traces import PASSES_DUMP, PASSES_DUMP_INPUT, PROGRAM_INPUT, TREE_INPUT
from ir_trace.runsafety.writes import OutputError, OutputPlan, is_inside, plan_output

OVERWRITES_INPUT = "it would overwrite a snapshot or be read as one"
FILLS_INPUT = "the cache would write its files into it"


@dataclass(frozen=True)
class Container:
    """Something a run reads and so must never write into: its kind in words, and its path."""

    kind: str  # "dump directory", "program directory", "MLIR tree", "cache directory"
    path: Path


def dumps_read(paths: Iterable[str | os.PathLike]) -> list[Container]:
    """The dumps a command or a report task reads, as containers."""
    return [Container("dump directory", Path(path)) for path in paths]


def refuse_inside(subject: str, path: str | os.PathLike, containers: Iterable[Container], why: str = "") -> None:
    """OutputError when `path` is inside one of `containers`; `subject` opens the message
    (`-o:`, `the report`, `--out-dir`), `why` says what would go wrong there."""
    for container in containers:
        if is_inside(path, container.path):
            reason = f"{why}; " if why else ""
            raise OutputError(
                f"{subject} {path} is inside the {container.kind} {container.path}; {reason}write it elsewhere"
            )


def check_printable(named: Iterable[tuple[str, str | None]]) -> None:
    """IRTraceError for the first (what, path) whose bytes are not UTF-8 (`what`: "output path", "--root path")."""
    for what, value in named:
        if value is not None and printable_path(value) != value:
            raise IRTraceError(f"the {what} is not valid UTF-8: {printable_path(value)} (rename it)")


# ---------- the command line: -o, --json, --cache-dir ----------


@dataclass(frozen=True)
class CommandPaths:
    """The paths a command line names (strings as given; None when not given)."""

    output: str
    json: str | None  # "-" for standard output
    cache_dir: Path | None  # the cache the run will write (None for --no-cache)
    cache_given: bool  # --cache-dir was on the command line
    dumps: tuple[str, ...]  # PASSES_DUMP and --against


def check_command_paths(paths: CommandPaths, stdout_was_open: bool = True) -> None:
    """Everything about the command's outputs that can be known wrong before the run (OutputError)."""
    dumps = dumps_read(paths.dumps)
    outputs = [("-o", plan_output(Path(paths.output), "-o"))]
    if paths.json not in (None, "-"):
        outputs.append(("--json", plan_output(Path(paths.json), "--json")))
    if paths.cache_given and paths.cache_dir is not None:
        refuse_inside("--cache-dir:", paths.cache_dir, dumps, FILLS_INPUT)
    cache = [Container("cache directory", paths.cache_dir)] if paths.cache_dir is not None else []
    for label, plan in outputs:
        check_writable(label, plan)
        refuse_inside(f"{label}:", plan.path, dumps, OVERWRITES_INPUT)
        refuse_inside(f"{label}:", plan.path, cache, "it could replace the cache's files")
    if len(outputs) == 2 and outputs[0][1].identity() == outputs[1][1].identity():
        raise OutputError(f"--json: {paths.json} is the same file as -o {paths.output}; give the summary its own name")
    if paths.json == "-":
        if not stdout_was_open:
            raise OutputError("--json: standard output is closed; give a file name instead of '-'")
        if outputs[0][1].identity() == _stdout_identity():
            raise OutputError(f"--json: '-' is standard output, where -o {paths.output} goes too")


def check_writable(label: str, plan: OutputPlan) -> None:
    where = plan.target if plan.stream else plan.target.parent
    if not os.access(where, os.W_OK):
        why = "a read-only file system" if on_read_only_mount(where) else "permission denied"
        raise OutputError(f"{label}: cannot write {'to' if plan.stream else 'in'} {where}: {why}")


def on_read_only_mount(path: Path) -> bool:
    """Root passes every permission check, so a read-only mount is what stops it: say so."""
    try:
        return bool(os.statvfs(path).f_flag & getattr(os, "ST_RDONLY", 0))
    except OSError:
        return False


def _stdout_identity() -> tuple:
    info = os.fstat(1)
    return ("file", info.st_dev, info.st_ino)


# ---------- a report task run on its own (luigi --module ir_trace.pipeline RenderReport ...) ----------


def check_report_path(report: str, dumps: list[str]) -> None:
    """Fail before any work when the report could not be written anyway, or would land in a dump
    (over a snapshot, or where the next run reads it as one)."""
    directory = Path(report).absolute().parent
    if not directory.is_dir():
        raise OutputError(f"output directory does not exist: {directory}")
    refuse_inside("the report", report, dumps_read(dumps))


# ---------- a sweep's --out-dir ----------


def check_sweep_out_dir(out_dir: Path, swept: Iterable[Container]) -> None:
    """--out-dir is a directory or can be made one, outside any passes_dump/ (wherever it is) and
    outside every program the sweep reads (`swept_containers`); it is created here, once, rather
    than failing every dump's task on its own."""
    if out_dir.exists() and not out_dir.is_dir():
        raise OutputError(f"--out-dir is not a directory: {out_dir}")
    refuse_inside("--out-dir", out_dir, [*_enclosing_dumps(out_dir), *swept])
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"--out-dir cannot be created: {out_dir}: {exc.strerror or exc}") from None


def refuse_overwriting_baseline(baseline: str, out_dir: Path) -> None:
    """The --baseline being read cannot be the sweep.json this sweep writes (by path or by inode)."""
    if _same_file(Path(baseline), out_dir / "sweep.json"):
        raise OutputError(
            f"--baseline {baseline} is the sweep.json this sweep overwrites; copy the "
            "previous --out-dir aside and pass the copy's sweep.json"
        )


def _same_file(a: Path, b: Path) -> bool:
    """Whether two paths name one file: after resolving `..` and symlinks, or as the same inode."""
    if a.resolve() == b.resolve():
        return True
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def swept_containers(root: Path, programs: Iterable[tuple[Path, str]]) -> list[Container]:
    """What a sweep under `root` reads, from its programs (path, kind of input as `inputs.traces` names
    it): every passes_dump/, program directory and MLIR tree, and the directory under the root that
    holds a passes_dump/ found alone (its program's directory). A stream is a file: nothing goes inside it."""
    kinds = {PASSES_DUMP_INPUT: "dump directory", PROGRAM_INPUT: "program directory", TREE_INPUT: "MLIR tree"}
    containers = []
    for path, kind in programs:
        if kind not in kinds:
            continue
        containers.append(Container(kinds[kind], path))
        if kind == PASSES_DUMP_INPUT and is_inside(path.parent, root):
            containers.append(Container("program directory", path.parent))
    return containers


def _enclosing_dumps(path: Path) -> list[Container]:
    """A passes_dump/ `path` is in (after resolving links), even one the sweep does not read."""
    real = Path(os.path.realpath(path))
    return [Container("dump directory", p) for p in (real, *real.parents) if p.name == PASSES_DUMP][:1]

"""Shared fixtures: dumps built in a temporary directory, the real samples, a private cache.

The real sample corpus lives outside the repository (`../shared/samples`, or $IR_TRACE_SHARED/samples).
Tests that need it carry the `samples` marker: without the corpus they skip with one line saying
so, except under CI (`CI` set), where the corpus is part of the set-up and its absence fails them.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("IR_TRACE_SHARED", REPO.parent / "shared"))
SAMPLES = SHARED / "samples"
GEN_DUMP = REPO / "benchmarks" / "gen_dump.py"  # the project's own synthetic dumps
EXAMPLE_DUMP = REPO / "examples" / "softmax" / "passes_dump"
SAMPLES_ABSENT = f"the real sample dumps are not here: {SAMPLES}/real*/*/passes_dump"

pytest_plugins = ["browser_plugin"]


RUNTIME = ("luigi", "diskcache", "jinja2")  # pyproject.toml's dependencies
RUNTIME_ABSENT = [name for name in RUNTIME if importlib.util.find_spec(name) is None]


def pytest_pycollect_makemodule(module_path, parent):
    """Without the runtime dependencies (a bare `pytest` before `pip install ".[test]"`) a module that
    imports them is collected as skipped with one line, not as an import error; under CI it fails."""
    if RUNTIME_ABSENT and not os.environ.get("CI"):
        return _NeedsRuntime.from_parent(parent, path=module_path)
    return None


class _NeedsRuntime(pytest.Module):
    def collect(self):
        try:
            return super().collect()
        except self.CollectError as error:
            missing = [name for name in RUNTIME_ABSENT if f"No module named '{name}" in str(error)]
            if not missing:
                raise
            reason = f"{', '.join(missing)} not installed: pip install '.[test]' first"
            raise pytest.skip.Exception(reason, allow_module_level=True) from None


def pytest_configure(config):
    config.addinivalue_line("markers", "samples: needs the real sample corpus (skipped without it, failed in CI)")


def pytest_runtest_setup(item):
    if item.get_closest_marker("samples") and not samples_present():
        if os.environ.get("CI"):
            pytest.fail(f"{SAMPLES_ABSENT}, and CI must run every sample test", pytrace=False)
        pytest.skip(SAMPLES_ABSENT)


def samples_present() -> bool:
    return any(SAMPLES.glob("real*/*/passes_dump"))


FRONTEND = """\
# pypto.program: Demo
import pypto.language as pl

@pl.program
class Demo:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, a: pl.Tensor[[16, 16], pl.FP32]) -> pl.Tensor[[16, 16], pl.FP32]:
        t0: pl.Tile[[16, 16], pl.FP32] = pl.load(a, [0, 0], [16, 16])
        t1: pl.Tile[[16, 16], pl.FP32] = pl.add(t0, t0)
        return pl.store(t1, [0, 0], a)
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[16, 16], pl.FP32]) -> pl.Tensor[[16, 16], pl.FP32]:
        return self.kernel(a)
"""


def write_dump(folder: Path, texts: list[str | tuple[str, str]], logs: dict[int, str] | None = None) -> Path:
    """A passes_dump/ of `texts` (index 0 is the frontend); an item may be (pass name, text)."""
    folder.mkdir(parents=True, exist_ok=True)
    for index, item in enumerate(texts):
        name, text = item if isinstance(item, tuple) else (f"Pass{index}", item)
        stem = "00_frontend" if index == 0 else f"{index:02d}_after_{name}"
        (folder / f"{stem}.py").write_text(text, encoding="utf-8")
        if logs and index in logs:
            (folder / f"{stem}.log").write_text(logs[index], encoding="utf-8")
    return folder


def demo_passes() -> list[str | tuple[str, str]]:
    """Frontend, a renaming pass, a no-op pass, a pass that adds a line."""
    ssa = FRONTEND.replace("t1", "t1__ssa_v0")
    grown = ssa.replace(
        "        return pl.store", "        pl.sync_src(pipe=pl.Pipe.V, event=0)\n        return pl.store"
    )
    return [FRONTEND, ("ConvertToSSA", ssa), ("Simplify", ssa), ("InsertSync", grown)]


@pytest.fixture
def demo_dump(tmp_path: Path) -> Path:
    return write_dump(tmp_path / "demo" / "passes_dump", demo_passes(), logs={3: "warning: sync added\n"})


@pytest.fixture(scope="session", autouse=True)
def private_default_cache(tmp_path_factory):
    """A run that names no --cache-dir (the tests' own and every subprocess they start) caches in a
    temporary directory, never in the user's ~/.cache."""
    saved = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = str(tmp_path_factory.mktemp("xdg-cache"))
    yield
    if saved is None:
        os.environ.pop("XDG_CACHE_HOME", None)
    else:
        os.environ["XDG_CACHE_HOME"] = saved


@pytest.fixture
def cache_dir(tmp_path: Path) -> Path:
    return tmp_path / "cache"


def run_cli(*args: str | os.PathLike, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """`python -m ir_trace ARGS` in a fresh process, as a user would run it."""
    return subprocess.run(
        [sys.executable, "-m", "ir_trace", *map(str, args)], capture_output=True, text=True, cwd=cwd, timeout=300
    )


def real_dumps() -> list:
    """The real sample dumps, to parametrize over; without them one placeholder that the marker skips."""
    found = sorted(SAMPLES.glob("real*/*/passes_dump"))
    return found or [pytest.param(None, id="no-samples", marks=pytest.mark.samples)]


def generate_dump(out: Path, *args: str) -> Path:
    """A synthetic dump from benchmarks/gen_dump.py with its command-line options."""
    subprocess.run([sys.executable, str(GEN_DUMP), str(out), *args], check=True)
    return out


MLIR_OPT_CANDIDATES = ("mlir-opt-19", "/usr/lib/llvm-19/bin/mlir-opt", "mlir-opt")
MLIR_OPT_ABSENT = "mlir-opt is not installed (Debian: apt-get install mlir-19-tools)"


@pytest.fixture(scope="session")
def mlir_opt() -> str:
    """The real mlir-opt (LLVM >= 19 writes --mlir-print-ir-tree-dir). Without it the test skips
    with one line, except under CI, where .ci/run installs it and its absence fails the test."""
    for candidate in MLIR_OPT_CANDIDATES:
        found = shutil.which(candidate)
        if found:
            return found
    if os.environ.get("CI"):
        pytest.fail(f"{MLIR_OPT_ABSENT}, and CI must run every mlir-opt test", pytrace=False)
    pytest.skip(MLIR_OPT_ABSENT)


MLIR_SAMPLES = SAMPLES / "mlir"


def mlir_samples(what: str) -> list:
    """The real MLIR sample directories holding `what` (tree, stream.txt), to parametrize over;
    without them one placeholder that `mlir_sample` turns into a skip (a failure under CI)."""
    found = sorted(path.parent for path in MLIR_SAMPLES.glob(f"*/{what}"))
    return found or [pytest.param(None, id="no-mlir-samples", marks=pytest.mark.samples)]


def mlir_sample(sample: Path | None) -> Path:
    """`sample`, or the samples policy when the MLIR corpus is absent though the PyPTO one is there."""
    if sample is None:
        absent = f"the real MLIR sample dumps are not here: {MLIR_SAMPLES}/*/tree"
        if os.environ.get("CI"):
            pytest.fail(f"{absent}, and CI must run every sample test", pytrace=False)
        pytest.skip(absent)
    return sample


def traced_peak(call):
    """`call()`'s result and the most memory Python's allocations held meanwhile (tracemalloc), in bytes."""
    tracemalloc.start()
    try:
        result = call()
        return result, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()

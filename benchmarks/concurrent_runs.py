"""Many `python -m ir_trace` runs at once over unchanged MLIR trees, sharing one --cache-dir and one -o
(issue 30, item 2): counts exit codes, error lines and runs whose summary is not their own dump's.

    nice python benchmarks/concurrent_runs.py [--runs 20] [--rounds 3] [TREE ...]

Each round starts from an empty cache and no report; the trees are the MLIR samples' by default.
"""

from __future__ import annotations

import argparse
import collections
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

SAMPLES = Path("/work/shared/samples/mlir")
DEFAULT_TREES = ("a1_short_mliropt19_calls_loops", "c1_nomodscope_mliropt19_calls_loops", "e1_edge_names_mliropt22")


def one_round(trees: list[Path], runs: int, scratch: Path) -> list[tuple[Path, subprocess.CompletedProcess]]:
    cache, out = scratch / "cache", scratch / "out.html"
    shutil.rmtree(cache, ignore_errors=True)
    out.unlink(missing_ok=True)
    started = []
    for index in range(runs):
        tree = trees[index % len(trees)]
        command = [sys.executable, "-m", "ir_trace", str(tree), "--cache-dir", str(cache), "-o", str(out)]
        started.append((tree, subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)))
    return [(tree, subprocess.CompletedProcess(p.args, p.wait(), *p.communicate())) for tree, p in started]


def summary_of(result: subprocess.CompletedProcess) -> str | None:
    found = re.search(r"wrote .*?: (.*?) ·", result.stdout + result.stderr)
    return found[1] if found else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trees", nargs="*", type=Path)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    trees = args.trees or [SAMPLES / name / "tree" for name in DEFAULT_TREES]
    codes: collections.Counter = collections.Counter()
    lines: collections.Counter = collections.Counter()
    summaries: dict[Path, collections.Counter] = collections.defaultdict(collections.Counter)
    with tempfile.TemporaryDirectory(prefix="concurrent-runs-") as scratch:
        for _ in range(args.rounds):
            for tree, result in one_round(trees, args.runs, Path(scratch)):
                codes[result.returncode] += 1
                lines.update(line.split(" (")[0] for line in result.stderr.splitlines() if ": error: " in line)
                summaries[tree][summary_of(result)] += 1
    print("exit codes:", dict(codes))
    for line, count in lines.items():
        print(f"{count} x {line}")
    # A tree whose runs print more than one summary printed another dump's for some of them.
    mixed = {tree.parent.name: dict(found) for tree, found in summaries.items() if len([s for s in found if s]) > 1}
    print("trees whose runs printed more than one summary:", mixed or "none")


if __name__ == "__main__":
    main()

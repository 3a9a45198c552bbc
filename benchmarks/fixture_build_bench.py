"""What one browser test pays to build its report: the command as a subprocess (the browser helpers
before issue 24 item 7) against `build_report` in the test's process (after).

    python benchmarks/fixture_build_bench.py [--runs N]

Prints the median of N builds (--no-cache) per dump and way, after one untimed in-process build
(a pytest session imports Luigi once).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from browser_support import build_report  # noqa: E402
from conftest import EXAMPLE_DUMP, demo_passes, write_dump  # noqa: E402


def by_command(dump: Path, out: Path) -> None:
    command = [sys.executable, "-m", "ir_trace", str(dump), "-o", str(out), "--no-cache", "-q"]
    subprocess.run(command, check=True, capture_output=True)


def in_process(dump: Path, out: Path) -> None:
    build_report(dump, out, "--no-cache", "-q")


def median_ms(build, dump: Path, scratch: Path, runs: int) -> float:
    times = []
    for index in range(runs):
        started = time.monotonic()
        build(dump, scratch / f"{build.__name__}{index}.html")
        times.append(time.monotonic() - started)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    with tempfile.TemporaryDirectory() as scratch_name:
        scratch = Path(scratch_name)
        demo = write_dump(scratch / "demo" / "passes_dump", demo_passes())
        in_process(demo, scratch / "warm.html")
        for name, dump in (("demo (4 snapshots)", demo), ("examples/softmax", EXAMPLE_DUMP)):
            for build in (by_command, in_process):
                median = median_ms(build, dump, scratch, runs)
                print(f"{name:20} {build.__name__:11} median {median:6.0f} ms ({runs} runs)")


if __name__ == "__main__":
    main()

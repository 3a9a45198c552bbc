"""Real local services shared by the tests and the benchmarks: Debian's Chromium and a luigid.

Benchmarks import this file too (`sys.path` gets `tests/`), so it needs nothing but the
standard library at import time.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

TEMPLATES = Path(__file__).resolve().parents[1] / "ir_trace" / "report" / "assets"
# The page's diff in the order the report inlines it: each file's namespace is used by the next.
DIFF_SCRIPTS = ("intraline.js", "linediff.js", "normalize.js")


def template_scripts(names: tuple[str, ...] = DIFF_SCRIPTS) -> str:
    """The named template scripts joined as one classic script."""
    return "\n".join((TEMPLATES / name).read_text(encoding="utf-8") for name in names)


CHROMIUM = os.environ.get("IR_TRACE_CHROMIUM", "/usr/bin/chromium")
# Headless as root, with no background connections: the machine's closed network refuses them.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]


def launch_chromium(playwright):
    """Debian's Chromium through Playwright (downloading a browser build is not possible here)."""
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_luigid(state: Path, **popen) -> tuple[subprocess.Popen, int]:
    """A real luigid on a free loopback port, its state in `state`; returns once it listens."""
    port = free_port()
    command = [
        sys.executable,
        "-c",
        "from luigi.cmdline import luigid; luigid()",
        "--address",
        "127.0.0.1",
        "--port",
        str(port),
        "--state-path",
        str(state / "state.pickle"),
        "--logdir",
        str(state),
    ]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **popen)
    for _ in range(300):
        if process.poll() is not None:
            raise RuntimeError("luigid exited early")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return process, port
        except OSError:
            time.sleep(0.1)
    stop_luigid(process)
    raise RuntimeError(f"luigid never listened on 127.0.0.1:{port}")


def stop_luigid(process: subprocess.Popen) -> None:
    """SIGTERM, then SIGKILL: luigid's own SIGTERM handler (dump state, stop the loop) has been
    seen to hang on a loaded CI machine, and no test needs its state saved on the way out."""
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=30)

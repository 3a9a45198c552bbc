"""Helpers for the robustness, security and round-trip tests: running the real command,
reading a report's payload back, rebuilding every snapshot from it, and seeded random dumps.

Nothing here imports the code under test: the payload is decoded from the HTML as a browser
would find it, so a report that only our own reader could decode would fail these tests.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import html.parser
import json
import os
import random
import subprocess
import sys
from pathlib import Path

from conftest import FRONTEND

from ir_trace.report.function_runs import listed_functions

PROG = "pypto-ir-trace"
DATA_ID = "ir-trace-data"  # ir_trace/report/assets/report.html.j2: <script ... id="ir-trace-data">


def command(*args: str | os.PathLike) -> list[str]:
    """`python -m ir_trace ARGS`, as `conftest.run_cli` runs it (same interpreter, inherited environment)."""
    return [sys.executable, "-m", "ir_trace", *map(str, args)]


def run(*args: str | os.PathLike, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run(command(*args), capture_output=True, text=True, timeout=timeout)


def assert_error_line(result: subprocess.CompletedProcess, *needles: str) -> str:
    """Exit 1 with one `pypto-ir-trace: error: ...` line (warnings may precede it), no traceback."""
    assert result.returncode == 1, (result.returncode, result.stderr)
    assert "Traceback" not in result.stderr, result.stderr
    lines = result.stderr.strip().splitlines()
    errors = [line for line in lines if line.startswith(f"{PROG}: error: ")]
    assert len(errors) == 1 and errors[0] == lines[-1], result.stderr
    assert all(line.startswith(f"{PROG}: warning: ") for line in lines[:-1]), result.stderr
    for needle in needles:
        assert needle in errors[0], (needle, errors[0])
    return errors[0]


def temp_files(folder: Path) -> list[str]:
    """Leftovers of an atomic write (write_output names them .<report>.<random>.tmp)."""
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


# ---------- reading a report back ----------


class _DataElement(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=False)
        self.attrs: dict | None = None
        self.text: list[str] = []
        self._inside = False

    def handle_starttag(self, tag, attrs):
        if tag == "script" and dict(attrs).get("id") == DATA_ID:
            self.attrs, self._inside = dict(attrs), True

    def handle_endtag(self, tag):
        if tag == "script":
            self._inside = False

    def handle_data(self, data):
        if self._inside:
            self.text.append(data)


def read_payload(page_html: str) -> dict:
    """The payload element's content decoded as the page declares it (gzip+base64, or plain JSON), function lists
    written out whole as the page works them out (`function_runs.listed_functions`)."""
    parser = _DataElement()
    parser.feed(page_html)
    assert parser.attrs is not None, f"no <script id={DATA_ID}> in the report"
    body = "".join(parser.text)
    if parser.attrs.get("data-encoding") == "gzip+base64":
        return listed_functions(json.loads(gzip.decompress(base64.b64decode(body, validate=True)).decode("utf-8")))
    assert parser.attrs.get("type") == "application/json", parser.attrs
    return listed_functions(json.loads(body))


def snapshot_texts(payload: dict) -> list[str]:
    """Every snapshot's text rebuilt from the payload, exactly as the viewer does it:
    passes[0].lines, then each pass's hunks applied to the previous lines; joined with "\\n",
    plus "\\n" when the pass's `eol` says the file ended with one."""
    passes = payload["passes"]
    lines = list(passes[0]["lines"])
    texts = [_join(lines, passes[0]["eol"])]
    for entry in passes[1:]:
        out, position = [], 0
        for a0, a1, _b0, _b1, after_lines, *_pairs_and_extras in entry.get("hunks", []):
            assert a0 >= position and a1 >= a0, f"hunks out of order in pass {entry['index']}"
            out += lines[position:a0]
            out += after_lines
            position = a1
        lines = out + lines[position:]
        texts.append(_join(lines, entry["eol"]))
    return texts


def _join(lines: list[str], eol: bool) -> str:
    return "\n".join(lines) + ("\n" if eol else "")


def assert_round_trip(report: Path, dump: Path) -> dict:
    """Each snapshot rebuilt from the report equals its file's text, in order, with its name and hash."""
    payload = read_payload(report.read_text(encoding="utf-8"))
    files = sorted((p for p in dump.iterdir() if p.suffix == ".py"), key=lambda p: int(p.name.split("_")[0]))
    texts = snapshot_texts(payload)
    assert [p["file"] for p in payload["passes"]] == [p.name for p in files]
    assert len(texts) == len(files)
    for entry, text, path in zip(payload["passes"], texts, files):
        data = path.read_bytes()
        assert text == data.decode("utf-8"), f"{path.name}: the report gives back a different text"
        assert entry["sha256"] == hashlib.sha256(data).hexdigest(), path.name
    return payload


# ---------- seeded random dumps ----------


def chain_dump(folder: Path, passes: int, seed: int = 0) -> Path:
    """A dump of `passes` small snapshots, each a few lines off the previous one (some no-ops)."""
    rng = random.Random(seed)
    text = FRONTEND
    folder.mkdir(parents=True)
    (folder / "00_frontend.py").write_text(text)
    for index in range(1, passes + 1):
        if rng.random() < 0.6:
            lines = text.split("\n")
            lines.insert(rng.randrange(6, len(lines) - 1), f"        t{index} = pl.add(t0, t0)  # {index}")
            if len(lines) > 40:
                del lines[rng.randrange(6, len(lines) - 1)]
            text = "\n".join(lines)
        (folder / f"{index:02d}_after_Pass{index}.py").write_text(text)
    return folder


# Pieces a compiler crash, a printer bug or a hostile file could put in a line.
PIECES = [
    "t0",
    "t1__ssa_v0",
    " = ",
    "pl.add(",
    "pl.mul(",
    ", ",
    ")",
    "[",
    "]",
    "(",
    "{",
    "}",
    ":",
    "    ",
    "\t",
    "# comment",
    '"',
    "'",
    '"""',
    "\\",
    "@pl.function",
    "def kernel(self, a):",
    "class Program:",
    "return t0",
    "\x00",
    "\x01",
    "\x1b[31m",
    "\x7f",
    "\x0b",
    "\x0c",
    "\x1c",
    "\x1d",
    "\x1e",
    "\x85",
    "\u2028",
    "\u2029",
    "\ufeff",
    "\u200b",
    "\u202e",
    "中文",
    "注释",
    "😀",
    "👩\u200d💻",
    "\U0010fffd",
    "é",
    "e\u0301",
    "</script>",
    "<!--",
    "-->",
    "<script>",
    "<img src=x onerror=alert(1)>",
    "&amp;",
    "&lt;",
    "{{ 7*7 }}",
    "{% raw %}",
    "javascript:alert(1)",
    "${x}",
    "`",
    "\r",
]
PASS_NAMES = [
    "ConvertToSSA",
    "Init MemRef",
    "a.b.c",
    "Ünïcödé",
    "流水线",
    "<b>bold<\\b>",
    "&amp;",
    "{{ name }}",
    "javascript:alert(1)",
    "x'\"",
    "Pass 100%",
    "emoji😀",
    "dots...",
    " lead and trail ",
    "InsertSync",
]


def random_line(rng: random.Random) -> str:
    return "".join(rng.choice(PIECES) for _ in range(rng.choice((0, 1, 2, 3, 5, 8, 13))))


def random_text(rng: random.Random, previous: str | None) -> str:
    """A snapshot: a fresh text, or the previous one edited a few lines at a time."""
    if previous is None or rng.random() < 0.15:
        if rng.random() < 0.1:
            return ""
        lines = [random_line(rng) for _ in range(rng.randrange(1, 40))]
    else:
        lines = previous.split("\n")
        for _ in range(rng.randrange(1, 6)):
            action = rng.random()
            at = rng.randrange(len(lines) + 1)
            if action < 0.35:
                lines.insert(at, random_line(rng))
            elif action < 0.6 and lines:
                del lines[min(at, len(lines) - 1)]
            elif action < 0.85 and lines:
                i = min(at, len(lines) - 1)
                lines[i] = lines[i] + random_line(rng) if rng.random() < 0.5 else random_line(rng)
            elif lines:
                i = min(at, len(lines) - 1)
                lines[i] = ("    " + lines[i]) if rng.random() < 0.5 else lines[i].lstrip()
    ending = rng.choice(("\n", "\n", "\n", "\r\n", "\r"))
    text = ending.join(lines)
    if rng.random() < 0.8 and text:
        text += ending
    return text


def random_dump(root: Path, seed: int) -> tuple[Path, list[str]]:
    """A passes_dump/ of random snapshots (about a third are no-ops), with some logs; returns its texts."""
    rng = random.Random(seed)
    dump = root / f"seed{seed}" / "passes_dump"
    dump.mkdir(parents=True)
    texts: list[str] = []
    for index in range(rng.randrange(1, 14)):
        if texts and rng.random() < 0.3:
            text = texts[-1]
        else:
            text = random_text(rng, texts[-1] if texts else None)
        texts.append(text)
        stem = "00_frontend" if index == 0 else f"{index:02d}_after_{rng.choice(PASS_NAMES)}"
        (dump / f"{stem}.py").write_bytes(text.encode("utf-8"))
        if index and rng.random() < 0.2:
            (dump / f"{stem}.log").write_bytes(random_line(rng).encode("utf-8") + b"\n")
    return dump, texts

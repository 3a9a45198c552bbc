"""Turn a report payload into one self-contained HTML page (written by `ir_trace.runsafety.writes`)."""

from __future__ import annotations

import base64
import gzip
import hashlib
import itertools
import json
import re
import struct
import zlib
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from ir_trace.report.function_runs import listed_functions
from ir_trace.report.scripts import script_order

if TYPE_CHECKING:
    import jinja2


def templates_dir() -> Path:
    """The page's templates, scripts and styles: package data beside this module."""
    return Path(__file__).parent / "assets"


# Inlined in this order, as one script element: viewer.js and what it needs, each script after the ones
# its `// needs:` line names (scripts.py).
REPORT_SCRIPTS = script_order(templates_dir(), "viewer.js")
TEMPLATE_FILES = ("report.html.j2", *REPORT_SCRIPTS, "viewer.css")

# JSON inside <script type="application/json"> must never close the element or start a comment;
# U+2028/2029 are escaped so the text is also safe if ever pasted into a JS literal.
_SCRIPT_SAFE = (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"), ("\u2028", "\\u2028"), ("\u2029", "\\u2029"))


@lru_cache(maxsize=1)
def _environment() -> jinja2.Environment:
    import jinja2  # here, not at the top: a rerun that finds its report current renders nothing

    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates_dir())),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
    )


def payload_to_script_json(payload: dict) -> str:
    """Compact JSON that is inert inside a <script type="application/json"> element."""
    text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
    for char, escaped in _SCRIPT_SAFE:  # str.replace runs at C speed; str.translate with a dict does not
        text = text.replace(char, escaped)
    return text


def encode_payload(payload: dict) -> str:
    """Compact JSON, gzip-compressed (fixed mtime, so equal payloads give equal bytes), base64.

    Printed IR compresses about tenfold, and base64 text cannot close or escape its element. The JSON is
    compressed as it is written, a pass at a time (`_json_pieces`), never held whole: a stream of thousands
    of dumps lists every snapshot's functions, and its JSON is a hundred times the page. The bytes are
    those of `gzip.compress` of the whole JSON (tests/test_payload_encoding.py)."""
    deflate = zlib.compressobj(_GZIP_LEVEL, zlib.DEFLATED, -zlib.MAX_WBITS, zlib.DEF_MEM_LEVEL, 0)
    compressed, crc, size = [_GZIP_HEADER], 0, 0
    for piece in _json_pieces(payload):
        for start in range(0, len(piece), _ENCODED_CHARS):  # a pass holding a huge line: a window at a time
            data = piece[start : start + _ENCODED_CHARS].encode("utf-8")
            crc, size = zlib.crc32(data, crc), size + len(data)
            compressed.append(deflate.compress(data))
    compressed += [deflate.flush(), struct.pack("<LL", crc, size & 0xFFFFFFFF)]
    return base64.b64encode(b"".join(compressed)).decode("ascii")


_GZIP_LEVEL = 6
_GZIP_HEADER = gzip.compress(b"", compresslevel=_GZIP_LEVEL, mtime=0)[:10]  # the header this Python's gzip writes
_PIECE_CHARS = 1 << 16  # pieces joined up to about this size before they are compressed
_ENCODED_CHARS = 1 << 20  # characters encoded to UTF-8 at a time (a larger piece is not copied whole)


def _json_pieces(value):
    """`json.dumps(value, ensure_ascii=False, separators=(",", ":"))` in pieces of about _PIECE_CHARS: the
    report's dicts walked here down to its passes and its run-against-run matches, each of those written
    whole by json.dumps (its C encoder). A walk one level deeper wrote every field of every pass by its own
    json.dumps: 100,000 passes cost seconds."""
    pending: list[str] = []
    held = 0
    for part in _walked(value):
        if len(part) >= _PIECE_CHARS:  # on its own: a pass with a 100 MB line is not copied into a join
            if pending:
                yield "".join(pending)
                pending, held = [], 0
            yield part
            continue
        pending.append(part)
        held += len(part)
        if held >= _PIECE_CHARS:
            yield "".join(pending)
            pending, held = [], 0
    yield "".join(pending)


def _walked(value):
    """A report, a run of a run against run, or a trace: its lists of units written a unit at a time."""
    if not (isinstance(value, dict) and all(isinstance(key, str) for key in value)):
        yield _compact_json(value)
        return
    yield "{"
    for k, (key, item) in enumerate(value.items()):
        yield f"{',' if k else ''}{_compact_json(key)}:"
        if isinstance(item, (list, tuple)) and key in _WALKED_LISTS:
            yield "["
            for n, unit in enumerate(item):
                yield "," if n else ""
                yield from _walked(unit) if _WALKED_LISTS[key] else _unit_pieces(unit)
            yield "]"
        else:
            yield _compact_json(item)
    yield "}"


_WALKED_LISTS = {"traces": True, "runs": True, "passes": False, "matches": False}  # key -> its units walked too


def _unit_pieces(unit):
    """A pass (or match) as JSON: one json.dumps, unless it holds a line too long for that, whose JSON (and
    the C encoder's join of it) would be copies of it; that pass is walked, the line written a window at a time."""
    if _longest_text(unit) < _PIECE_CHARS:
        yield _compact_json(unit)
    else:
        yield from _windowed(unit)


def _longest_text(unit) -> int:
    """The longest line or log a pass holds (its base lines, its hunks' after lines), else 0."""
    if not isinstance(unit, dict):
        return 0
    hunks = unit.get("hunks")
    hunk_lines = (hunk[4] for hunk in hunks if isinstance(hunk, list)) if isinstance(hunks, list) else ()
    texts = itertools.chain(unit.get("lines") or (), *hunk_lines, (unit.get("log") or "",))
    return max(map(len, texts), default=0)


def _windowed(value):
    """`_compact_json(value)` in pieces, every string longer than a window written a window at a time
    (JSON escapes one character at a time, so the windows' escapes joined are the whole string's)."""
    if isinstance(value, str) and len(value) > _ENCODED_CHARS:
        yield '"'
        for start in range(0, len(value), _ENCODED_CHARS):
            yield _compact_json(value[start : start + _ENCODED_CHARS])[1:-1]
        yield '"'
    elif isinstance(value, dict):
        yield "{"
        for k, (key, item) in enumerate(value.items()):
            yield f"{',' if k else ''}{_compact_json(str(key))}:"
            yield from _windowed(item)
        yield "}"
    elif isinstance(value, (list, tuple)):
        yield "["
        for n, item in enumerate(value):
            yield "," if n else ""
            yield from _windowed(item)
        yield "]"
    else:
        yield _compact_json(value)


def _compact_json(value) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def read_payload(html: str, as_written: bool = False) -> dict:
    """The payload embedded in a report page (for tests, benchmarks and other tools), each function list written
    out whole (`function_runs.listed_functions`: the page carries most as runs over the list before them), or
    `as_written`."""
    match = re.search(r'<script type="application/octet-stream" id="ir-trace-data"[^>]*>([^<]*)</script>', html)
    if match is None:
        raise ValueError("no report payload in this page")
    payload = json.loads(gzip.decompress(base64.b64decode(match.group(1))))
    return payload if as_written else listed_functions(payload)


def content_security_policy(script: str) -> str:
    """Forbid every fetch; allow only our own inline script (by hash) and inline styles."""
    script_hash = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode()
    return (
        "default-src 'none'; "
        f"script-src 'sha256-{script_hash}'; "
        "style-src 'unsafe-inline'; img-src data:; "
        "connect-src 'none'; base-uri 'none'; form-action 'none'"
    )


def render_page(template: str, scripts: tuple[str, ...], style_file: str, **context) -> str:
    """A self-contained page: the template with its scripts and styles inline, under our CSP."""
    from ir_trace.report.shared_constants import with_shared_constants  # the diff modules: not before a page is made

    folder = templates_dir()
    script = "\n".join(with_shared_constants(name, (folder / name).read_text(encoding="utf-8")) for name in scripts)
    return (
        _environment()
        .get_template(template)
        .render(
            css=(folder / style_file).read_text(encoding="utf-8"),
            js=script,
            csp=content_security_policy(script),
            **context,
        )
    )


def render_html(payload: dict, fingerprint: str = "") -> str:
    """The whole report page: template, styles, script and data inline; `fingerprint` (what the page is
    current for) in a meta tag near its start, so a run can tell its own report from another run's."""
    from ir_trace.report.payload import portable_payload  # here: a warm rerun imports this module, not the diff

    return render_page(
        "report.html.j2",
        REPORT_SCRIPTS,
        "viewer.css",
        title=inert_text(payload.get("title", "pypto-ir-trace")),
        payload_data=encode_payload(portable_payload(payload)),
        fingerprint=fingerprint,
    )


# The characters viewer_fold.js shows as their code point (CONTROL_CHARS there; tests/test_viewer_bidi_names.py
# holds the two lists equal): they show nothing, or reorder what follows (bidi overrides, isolates).
_CONTROLS = re.compile(
    "[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f"
    "\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]"
)


FINGERPRINT_META = '<meta name="ir-trace-fingerprint" content="{}">'


def inert_text(text: str) -> str:
    """`text` with each control character as `[U+202E]`, as the page shows names: a bidi override in
    a dump's name must not reorder the window's title (`<title>` is plain text, no box possible)."""
    return _CONTROLS.sub(lambda match: f"[U+{ord(match.group()):04X}]", text)

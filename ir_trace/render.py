"""Turn a report payload into one self-contained HTML page and write it atomically."""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import os
import re
import tempfile
from functools import lru_cache
from pathlib import Path

import jinja2

from ir_trace.errors import IRTraceError

# Inlined in this order, as one script element: each file's namespace is used by the ones after it.
REPORT_SCRIPTS = (
    "linediff.js",
    "viewer_model.js",
    "viewer_layout.js",
    "viewer_rows.js",
    "viewer_paint.js",
    "viewer_sidebar.js",
    "viewer_panels.js",
    "viewer.js",
)
TEMPLATE_FILES = ("report.html.j2", *REPORT_SCRIPTS, "viewer.css")

# JSON inside <script type="application/json"> must never close the element or start a comment;
# U+2028/2029 are escaped so the text is also safe if ever pasted into a JS literal.
_SCRIPT_SAFE = (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"), ("\u2028", "\\u2028"), ("\u2029", "\\u2029"))


def templates_dir() -> Path:
    """The templates shipped in the wheel (ir_trace/templates), else the source checkout's templates/."""
    packaged = Path(__file__).parent / "templates"
    return packaged if packaged.is_dir() else Path(__file__).parent.parent / "templates"


@lru_cache(maxsize=1)
def _environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates_dir())),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
    )


def template_digest(files: tuple[str, ...] = TEMPLATE_FILES) -> str:
    """Hash of every template source, so editing the viewer can never serve a stale report."""
    digest = hashlib.sha256()
    for name in files:
        digest.update(name.encode() + b"\0" + (templates_dir() / name).read_bytes() + b"\0")
    return digest.hexdigest()


def payload_to_script_json(payload: dict) -> str:
    """Compact JSON that is inert inside a <script type="application/json"> element."""
    text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
    for char, escaped in _SCRIPT_SAFE:  # str.replace runs at C speed; str.translate with a dict does not
        text = text.replace(char, escaped)
    return text


def encode_payload(payload: dict) -> str:
    """Compact JSON, gzip-compressed (fixed mtime, so equal payloads give equal bytes), base64.

    Printed IR compresses about tenfold, and base64 text cannot close or escape its element.
    """
    data = json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return base64.b64encode(gzip.compress(data, compresslevel=6, mtime=0)).decode("ascii")


def read_payload(html: str) -> dict:
    """The payload embedded in a report page (for tests, benchmarks and other tools)."""
    match = re.search(r'<script type="application/octet-stream" id="ir-trace-data"[^>]*>([^<]*)</script>', html)
    if match is None:
        raise ValueError("no report payload in this page")
    return json.loads(gzip.decompress(base64.b64decode(match.group(1))))


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
    folder = templates_dir()
    script = "\n".join((folder / name).read_text(encoding="utf-8") for name in scripts)
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


def render_html(payload: dict) -> str:
    """The whole report page: template, styles, script and data inline."""
    return render_page(
        "report.html.j2",
        REPORT_SCRIPTS,
        "viewer.css",
        title=payload.get("title", "pypto-ir-trace"),
        payload_data=encode_payload(payload),
    )


# Temp reports being written, for a signal handler that must exit without unwinding (see cli).
PARTIAL_FILES: set[str] = set()


def _file_mode() -> int:
    """0o666 less the umask: a report is as private as the user's other new files."""
    umask = os.umask(0o022)
    os.umask(umask)
    return 0o666 & ~umask


def write_atomically(path: Path, text: str) -> int:
    """Write via a temp file in the target directory, then rename; returns bytes written.

    A failure at any point leaves an earlier file at `path` untouched and no temp file behind.
    """
    data = text.encode("utf-8")
    directory = path.parent
    if not directory.is_dir():
        raise IRTraceError(f"output directory does not exist: {directory}")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    except OSError as exc:
        raise IRTraceError(f"cannot write report {path}: {exc.strerror or exc}") from exc
    PARTIAL_FILES.add(tmp)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, _file_mode())
        os.replace(tmp, path)
    except BaseException as exc:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise IRTraceError(f"cannot write report {path}: {exc.strerror or exc}") from exc
        raise
    finally:
        PARTIAL_FILES.discard(tmp)
    return len(data)

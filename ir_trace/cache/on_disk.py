"""The result cache as it lies on disk, free of diskcache: where it lives unless told, how an entry is
written (checksummed JSON text) and how diskcache names a value file. `store.ResultCache` writes and reads
through it, and so does a warm rerun's read-only reader (`read_only.py`), which must not import diskcache."""

from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path

# How diskcache names value files (Disk.filename): anything else in the database was planted.
VALUE_FILE = re.compile(r"[0-9a-f]{2}/[0-9a-f]{2}/[0-9a-f]{28}\.val")


def default_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "pypto-ir-trace"


def encode_entry(value) -> str:
    """`value` as stored: the checksum of its compact JSON, a newline, the JSON."""
    body = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return f"{_checksum(body)}\n{body}"


def decode_entry(stored: str):
    """The value `encode_entry` stored; ValueError when the text is not what it wrote (damage).

    Parsed where it lies and hashed a piece at a time: no copy of the body, neither as text nor as bytes
    (a 100,000-pass run's --json document is tens of megabytes, read back while the run's peak holds)."""
    start = stored.find("\n") + 1
    if not start or stored[: start - 1] != _checksum(stored, start):
        raise ValueError("checksum mismatch")
    value, end = _DECODER.raw_decode(stored, start)
    if end != len(stored):
        raise ValueError("text after the value")
    return value


_DECODER = json.JSONDecoder()
_HASHED_PIECE = 1 << 20  # characters encoded at a time for the checksum


def _checksum(text: str, start: int = 0) -> str:
    """The checksum of `text[start:]`'s UTF-8 bytes."""
    digest = hashlib.sha256()
    for piece in range(start, len(text), _HASHED_PIECE):
        digest.update(text[piece : piece + _HASHED_PIECE].encode("utf-8"))
    return digest.hexdigest()[:32]

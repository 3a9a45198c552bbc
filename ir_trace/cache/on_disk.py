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
    """The value `encode_entry` stored; ValueError when the text is not what it wrote (damage)."""
    checksum, _, body = stored.partition("\n")
    if checksum != _checksum(body):
        raise ValueError("checksum mismatch")
    return json.loads(body)


def _checksum(body: str) -> str:
    return hashlib.sha256(body.encode("utf-8")).hexdigest()[:32]

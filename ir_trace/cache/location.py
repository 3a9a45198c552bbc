"""Where the result cache lives unless told: a module of its own, so a rerun learns it without importing diskcache."""

from __future__ import annotations

import os
from pathlib import Path


def default_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "pypto-ir-trace"

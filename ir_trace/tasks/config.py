"""The `[ir_trace]` configuration section shared by every task (see luigi.cfg)."""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

import luigi

from ir_trace.cache import ResultCache, default_cache_dir, open_cache


class ir_trace(luigi.Config):  # noqa: N801 - the section name users write in luigi.cfg
    cache_dir = luigi.Parameter(default="", description="result cache directory (default: the user's cache)")


def cache_directory() -> Path:
    configured = ir_trace().cache_dir
    return Path(configured).expanduser() if configured else default_cache_dir()


def shared_cache() -> ResultCache:
    """This process's handle on the configured cache (each worker process opens its own)."""
    return _open_for(os.getpid(), str(cache_directory()))


@lru_cache(maxsize=8)
def _open_for(_pid: int, directory: str) -> ResultCache:
    return open_cache(Path(directory))

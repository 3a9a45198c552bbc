"""The `[ir_trace]` configuration section shared by every task (see luigi.cfg)."""

from __future__ import annotations

import os
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
    key = (os.getpid(), str(cache_directory()))
    if key not in _handles:
        _handles[key] = open_cache(Path(key[1]))
    return _handles[key]


def adopt_cache(cache: ResultCache) -> None:
    """Use a cache this process has already opened (and checked) as its handle for that directory."""
    _handles[(os.getpid(), str(cache.directory))] = cache


_handles: dict[tuple[int, str], ResultCache] = {}

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
    """This process's handle on the configured cache (each worker process opens its own).

    The directory is looked up once per process: instantiating the `ir_trace` section costs about
    a millisecond, and Luigi asks every task's target whether it exists, some of them many times.
    """
    pid = os.getpid()
    if pid not in _handles:
        _handles[pid] = open_cache(cache_directory())
    return _handles[pid]


def adopt_cache(cache: ResultCache) -> None:
    """Use a cache this process has already opened (and checked) from now on (the CLI, each run)."""
    _handles[os.getpid()] = cache


_handles: dict[int, ResultCache] = {}

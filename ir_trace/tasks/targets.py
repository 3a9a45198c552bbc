"""CacheTarget: a Luigi target that is one JSON entry of the result cache."""

from __future__ import annotations

import luigi

from ir_trace.tasks.config import shared_cache


class CacheTarget(luigi.Target):
    """Complete when the cache holds an intact value under `key`; writing marks completion."""

    def __init__(self, key: str, expire: float | None = None):
        self.key = key
        self.expire = expire

    def exists(self) -> bool:
        return self.key in shared_cache()

    def read(self):
        return shared_cache().get(self.key)

    def write(self, value) -> None:
        shared_cache().put(self.key, value, expire=self.expire)

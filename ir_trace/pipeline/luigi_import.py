"""Import Luigi without what only its central-scheduler client uses.

`luigi` imports `luigi.rpc`, which binds `tenacity` (its retry helpers, which import asyncio and tornado) and
`urllib.request` (http.client, ssl, email) at import: about a quarter of a small dump's cold run here, and a run
on the local scheduler never calls them. While Luigi is imported, those two names resolve to stand-ins whose
callables import the real module on their first call; every other attribute loads the real module at once. The
stand-ins are removed from `sys.modules` afterwards, so any later `import tenacity` gets the real thing, and a
run against `luigid` (a sweep) imports both on its first request, as before.
"""

from __future__ import annotations

import importlib
import sys
import types

__all__ = ["import_luigi"]

# The names luigi.rpc takes from each module, all of them only ever called.
DEFERRED = {
    "tenacity": ("Retrying", "stop_after_attempt", "wait_fixed"),
    "urllib.request": ("Request", "urlopen"),
}


def import_luigi() -> None:
    """`import luigi` with DEFERRED's modules left unimported (nothing when Luigi is already imported)."""
    if "luigi" in sys.modules:
        return
    absent = [name for name in DEFERRED if name not in sys.modules]
    for name in absent:
        sys.modules[name] = _stand_in(name, DEFERRED[name])
    try:
        import luigi  # noqa: F401  (the statement, not importlib: `-X importtime` lists it)
    finally:
        for name in absent:
            if isinstance(sys.modules.get(name), _StandIn):
                del sys.modules[name]


class _StandIn(types.ModuleType):
    """A module whose listed callables defer to the real module; any other public attribute loads it now."""

    def __getattr__(self, attribute: str) -> object:
        if attribute.startswith("__"):  # the import system asks for `__path__` and the like: not the module's names
            raise AttributeError(attribute)
        return getattr(_real(self.__name__), attribute)


def _stand_in(name: str, callables: tuple[str, ...]) -> _StandIn:
    module = _StandIn(name, f"stand-in for {name} while Luigi is imported (ir_trace.pipeline.luigi_import)")
    for attribute in callables:
        setattr(module, attribute, _deferred(name, attribute))
    return module


def _deferred(name: str, attribute: str):
    def call(*args, **kwargs):
        return getattr(_real(name), attribute)(*args, **kwargs)

    call.__name__ = call.__qualname__ = attribute
    return call


def _real(name: str) -> types.ModuleType:
    """The real module, imported now if only the stand-in was there."""
    module = sys.modules.get(name)
    if isinstance(module, _StandIn):
        del sys.modules[name]
    return importlib.import_module(name)


import_luigi()  # on import: ir_trace/pipeline/__init__.py imports this module before any that imports Luigi

"""Luigi, imported without the optional packages it would load and this tool never uses.

`import luigi` loads jsonschema (only for `DictParameter` schemas) and requests (only for a
remote scheduler) when they are installed: about 0.1 s of CPU, a third of a cold run's imports.
Hidden while Luigi loads, they leave it on its own fallbacks (no schema validation, urllib),
and are importable again right after. Imported first by `ir_trace.tasks` and the command line.
"""

import sys

_UNUSED = ("jsonschema", "requests_unixsocket", "requests")
_hidden = [] if "luigi" in sys.modules else [name for name in _UNUSED if name not in sys.modules]
for _name in _hidden:
    sys.modules[_name] = None  # an import of it raises ImportError
try:
    import luigi
    import luigi.execution_summary
finally:
    for _name in _hidden:
        if sys.modules.get(_name, False) is None:
            del sys.modules[_name]

__all__ = ["luigi"]

"""Stop signals recorded, not acted on, while the command is still importing (`ir_trace.app.launch`).

Imported before anything heavy: `runsafety.signals.Supervisor` takes the record over.
"""

from __future__ import annotations

import signal
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable
    from types import FrameType
    from typing import Any

    # What signal.signal takes and returns (a function, SIG_DFL / SIG_IGN, or None: not set from Python)
    SignalHandler = Callable[[int, FrameType | None], Any] | int | signal.Handlers | None

_NAMES = ("SIGINT", "SIGTERM", "SIGHUP")


class EarlySignals:
    """The first stop signal received before the supervisor was installed, and the handlers it replaced."""

    def __init__(self):
        self.received: int | None = None
        self.replaced: dict[int, SignalHandler] = {}

    def install(self) -> EarlySignals:
        for name in _NAMES:
            signum = getattr(signal, name, None)
            if signum is not None and signal.getsignal(signum) is not signal.SIG_IGN:
                self.replaced[signum] = signal.signal(signum, self._record)
        return self

    def in_place(self) -> bool:
        """Whether its handlers are still the ones installed (no supervisor has taken them over)."""
        return any(signal.getsignal(signum) == self._record for signum in self.replaced)

    def _record(self, signum, _frame) -> None:
        if self.received is None:
            self.received = signum

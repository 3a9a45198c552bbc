"""Claims: one writer per output in a directory several hosts share (a sweep's reports and index)."""

from __future__ import annotations

import os
import socket
import time
import uuid
from pathlib import Path

from ir_trace.errors import IRTraceError

CLAIM_WAIT = 600.0  # seconds a worker waits for another to finish writing the same output
CLAIM_STALE = 3600.0  # a claim this old was left by a worker that died: it is broken
_CLAIM_POLL = 0.2


class Claim:
    """The exclusive right to write one output in a directory that several hosts share.

    Taken by creating a claim file with O_CREAT | O_EXCL, which is atomic on a local file system
    and on NFS v3 or later: of two workers, exactly one creates it. The file names its holder
    (host, pid, a random token); it is removed on release, only if it is still ours. A claim left
    by a worker that died is broken (by renaming it aside, so only one worker breaks it) at once
    when that worker ran on this host, else once older than `stale` seconds. `waited` tells the
    caller another worker held the claim first, so the output may be complete by now.
    """

    def __init__(self, path: Path, wait: float = CLAIM_WAIT, stale: float = CLAIM_STALE):
        self.path, self.wait, self.stale = Path(path), wait, stale
        self.token = f"{socket.gethostname()} pid {os.getpid()} {uuid.uuid4().hex}"
        self.waited = False

    def __enter__(self) -> Claim:
        deadline = time.monotonic() + self.wait
        while not self._take():
            self.waited = True
            if self._break_if_stale():
                continue  # its holder is gone: take it now
            if time.monotonic() >= deadline:
                raise IRTraceError(
                    f"{self.path.stem} is still being written by {self._holder()} after {self.wait:.0f} s "
                    f"(claim {self.path}); run again later, or delete the claim if that worker is gone"
                )
            time.sleep(_CLAIM_POLL)
        return self

    def __exit__(self, *_exc) -> None:
        if self._holder() == self.token:
            self.path.unlink(missing_ok=True)

    def _take(self) -> bool:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        except FileExistsError:
            return False
        except OSError as exc:
            raise IRTraceError(f"cannot write to {self.path.parent}: {exc.strerror or exc}") from None
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(self.token)
        return True

    def _holder_died_here(self) -> bool:
        """Whether the claim's holder ran on this host and its process is gone (a killed `luigi`,
        say): then the claim is broken at once instead of after `stale` seconds, so a sweep resumed
        right after an interrupted one does not wait. A holder on another host cannot be checked."""
        words = (self._holder() or "").split(" ")  # "HOST pid PID TOKEN", as written by __init__
        if len(words) != 4 or words[:2] != [socket.gethostname(), "pid"] or not words[2].isdigit():
            return False
        try:
            os.kill(int(words[2]), 0)
        except ProcessLookupError:
            return True
        except OSError:
            return False  # alive, another user's
        return False

    def _holder(self) -> str | None:
        try:
            return self.path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return None

    def _break_if_stale(self) -> bool:
        """Break the claim if its holder is gone; whether it may be free now (broken or released)."""
        try:
            seen = os.stat(self.path)
        except OSError:
            return True  # released meanwhile
        if time.time() - seen.st_mtime < self.stale and not self._holder_died_here():
            return False
        aside = self.path.with_name(f"{self.path.name}.stale-{uuid.uuid4().hex}")
        try:
            os.rename(self.path, aside)
        except OSError:
            return True  # another worker broke it first
        if os.stat(aside).st_ino != seen.st_ino:  # a fresh claim was taken meanwhile: give it back
            try:
                os.link(aside, self.path)
            except OSError:
                pass
        aside.unlink(missing_ok=True)
        return True

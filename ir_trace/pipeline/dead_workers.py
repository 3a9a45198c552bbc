"""A `luigi` run left nothing to do because luigid counts a dead worker as running its tasks.

A worker killed mid-sweep (SIGKILL, the OOM killer, a reboot) says nothing to luigid, which keeps its
tasks RUNNING until the worker has been silent for `[scheduler] worker_disconnect_delay` and the next
prune (every 60 s) fails them. A rerun meanwhile is never granted those tasks, cannot finish, and Luigi exits it 0
(`[retcode] already_running` and `not_run` stay 0, because a sweep shared by live workers on one luigid
looks the same to each of them). Told apart here by asking luigid who runs what and whether that worker
lives: such a run exits with `[retcode] scheduling_error` and one line saying why and when to rerun.

Luigi gives a `--module` no hook after its run, so `luigi.interface._run`, which `luigi.retcodes` calls
by name once the module is imported, is wrapped.
"""

from __future__ import annotations

import logging
import os
import socket
import sys
import time

import luigi
import luigi.execution_summary
import luigi.interface
import luigi.retcodes

log = logging.getLogger("luigi-interface")

PRUNE_INTERVAL = 60  # seconds between luigid's prunes (luigi.server's PeriodicCallback)
SILENT_PINGS = 3  # a live worker pings luigid every ping interval: this many missed, it is stopped


def stalled_by_dead_workers(result: luigi.interface.LuigiRunResult) -> str | None:
    """The one line for a run whose root task is not done because luigid counts a stopped worker as
    running what it needs; None for any other run (done, failed, or left to live workers)."""
    worker = result.worker
    sets = luigi.execution_summary._summary_dict(worker)
    root = luigi.execution_summary._root_task(worker)
    if root in sets["completed"] or root in sets["already_done"] or sets["failed"]:
        return None
    blocked = luigi.execution_summary._get_external_workers(worker)
    if not blocked or not hasattr(worker._scheduler, "_url"):  # a local scheduler has no other workers
        return None
    dead = _stopped_workers(worker._scheduler, set(blocked), worker._config.ping_interval)
    if not dead:
        return None
    tasks = sorted({_shown(task) for worker_id in dead for task in blocked[worker_id]})
    shown = ", ".join(tasks[:2]) + (f" and {len(tasks) - 2} more" if len(tasks) > 2 else "")
    where = worker._scheduler._url
    return (
        f"luigid at {where} still counts a stopped worker as running {shown}, so this run could not finish; "
        f"luigid frees it once that worker has been silent for its [scheduler] worker_disconnect_delay "
        f"(60 s by default) and its next prune (up to {PRUNE_INTERVAL} s later); run again then"
    )


def _shown(task: luigi.Task) -> str:
    """A task by its family and, for a sweep's dump, its name (its full repr spells out every path)."""
    name = getattr(task, "name", None)
    return f"{task.task_family}({name})" if isinstance(name, str) else task.task_family


def _stopped_workers(scheduler, worker_ids: set[str], ping_interval: float) -> set[str]:
    """Which of `worker_ids` luigid still lists but that no longer ping it: a live worker pings every ping
    interval, so one whose last ping did not move over a few is stopped. A process of this host that is
    still there is live without waiting (the workers sharing a sweep on one host)."""
    here = socket.gethostname()
    listed = [entry for entry in scheduler.worker_list(include_running=False) if entry["name"] in worker_ids]
    silent = {
        entry["name"]: entry["last_active"]
        for entry in listed
        if entry.get("host") != here or not _alive(entry.get("pid"))
    }
    if not silent:
        return set()
    time.sleep(SILENT_PINGS * ping_interval)
    later = {entry["name"]: entry["last_active"] for entry in scheduler.worker_list(include_running=False)}
    return {name for name, seen in silent.items() if later.get(name) == seen}


def _alive(pid) -> bool:
    try:
        os.kill(int(pid), 0)
    except (TypeError, ValueError, ProcessLookupError):
        return False
    except PermissionError:  # another user's process: alive
        return True
    return True


def refuse_runs_stalled_by_dead_workers() -> None:
    """Make `luigi --module ir_trace.pipeline ...` exit non-zero, with its line, when it could not
    finish because of a stopped worker (see the module's docstring)."""
    run = luigi.interface._run
    if getattr(run, "ir_trace_wrapped", False):
        return

    def checked_run(*args, **kwargs):
        result = run(*args, **kwargs)
        try:
            reason = stalled_by_dead_workers(result)
        except Exception as exc:  # luigid unreachable now, or Luigi's internals moved: Luigi's own verdict stands
            log.debug("could not ask luigid about stopped workers: %s", exc)
            return result
        if reason is None:
            return result
        print(f"error: {reason}", file=sys.stderr, flush=True)
        sys.exit(luigi.retcodes.retcode().scheduling_error)

    checked_run.ir_trace_wrapped = True  # type: ignore[attr-defined]
    luigi.interface._run = checked_run

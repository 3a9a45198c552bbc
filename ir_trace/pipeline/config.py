"""The `[ir_trace]` configuration section shared by every task (see luigi.cfg)."""

from __future__ import annotations

import configparser
from pathlib import Path

import luigi

from ir_trace.cache.on_disk import default_cache_dir
from ir_trace.cache.report_record import configured_state
from ir_trace.cache.session import Session
from ir_trace.cache.store import ResultCache, open_cache

# Luigi exits 0 after a failed task unless `[retcode]` says otherwise, and a pip-installed
# package carries no luigi.cfg: without these defaults `luigi --module ir_trace.pipeline ...` run
# from any other directory would tell cron and CI that a failed report succeeded.
FAILURE_EXIT_CODES = {"task_failed": "3", "scheduling_error": "4", "unhandled_exception": "5"}


def default_failure_exit_codes() -> None:
    """Give `[retcode]` the codes above where the user's configuration sets none (theirs wins).

    Luigi imports `--module` before it reads `[retcode]`, so importing ir_trace.pipeline is early enough.
    """
    config = luigi.configuration.get_config()
    for name, code in FAILURE_EXIT_CODES.items():
        if not config.has_option("retcode", name):
            config.set("retcode", name, code)


COMMAND_CONFIG = Path(__file__).with_name("command.cfg")


def configure_command_run(cache_dir: Path, verbose: bool, follow_inner_symlinks: bool = False) -> None:
    """Apply the command's Luigi settings (command.cfg, plus this run's cache and logging) through
    Luigi's config API: values `set` on its parser take precedence over every file it read, so a
    luigi.cfg around changes nothing a command-line run does. Nothing is removed from it."""
    packaged = configparser.ConfigParser(interpolation=None)
    packaged.read(COMMAND_CONFIG, encoding="utf-8")
    config = luigi.configuration.get_config()
    for section in packaged.sections():
        for name, value in packaged.items(section):
            config.set(section, name, value)
    config.set("ir_trace", "cache_dir", str(cache_dir))
    config.set("ir_trace", "follow_inner_symlinks", str(follow_inner_symlinks).lower())
    config.set("core", "no_configure_logging", str(not verbose).lower())  # our handlers print Luigi's log


# Luigi logs at DEBUG unless told otherwise: hundreds of lines for one report. A package carries
# no luigi.cfg, so this is its default; a user's `[core] log_level` or `--log-level` wins.
DEFAULT_LOG_LEVEL = "WARNING"


def default_log_level() -> None:
    """Give `[core] log_level` the level above where the user's configuration sets none.

    Luigi sets up its logging from `[core]` after importing `--module`, so importing ir_trace.pipeline is early enough.
    """
    config = luigi.configuration.get_config()
    if not config.has_option("core", "log_level"):
        config.set("core", "log_level", DEFAULT_LOG_LEVEL)


class ir_trace(luigi.Config):  # noqa: N801 - the section name users write in luigi.cfg
    cache_dir = luigi.Parameter(default="", description="result cache directory (default: the user's cache)")
    follow_inner_symlinks = luigi.BoolParameter(
        default=False, description="read snapshots that are symlinks to files inside their dump (never outside)"
    )
    sweep_tasks = luigi.IntParameter(
        default=64,
        description="most tasks a sweep's dumps are scheduled as: beyond it, consecutive dumps go in batches "
        "(luigid's cost grows with the square of its task count)",
    )


def follow_inner_symlinks() -> bool:
    """Whether snapshot links that stay inside their dump are read (`[ir_trace] follow_inner_symlinks`)."""
    return ir_trace().follow_inner_symlinks


def sweep_tasks() -> int:
    """`[ir_trace] sweep_tasks`, at least 1."""
    return max(1, ir_trace().sweep_tasks)


def observed_state(dump: str) -> str:
    """The dump's state (`dump_state`) as this configuration reads it: whether links are followed
    changes what a dump validates to, so a result kept under one setting is not served under the other."""
    return configured_state(dump, follow_inner_symlinks())


def cache_directory() -> Path:
    configured = ir_trace().cache_dir
    return Path(configured).expanduser() if configured else default_cache_dir()


def session() -> Session:
    """This process's caches and guard (`ir_trace.cache.session`): the one place a run keeps anything."""
    return _SESSION


def shared_cache() -> ResultCache:
    """This process's handle on the configured cache (each worker process opens its own).

    The directory is looked up once per process: instantiating the `ir_trace` section costs about
    a millisecond, and Luigi asks every task's target whether it exists, some of them many times.
    """
    return _SESSION.cache


def adopt_cache(cache: ResultCache) -> None:
    """Use a cache this process has already opened (and checked) from now on (the CLI, each run)."""
    _SESSION.adopt(cache)


_SESSION = Session(lambda: open_cache(cache_directory()))

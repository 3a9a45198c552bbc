"""The progress bar: fits any terminal width, never wraps, and is erased before every message.

The end-to-end tests run the real command on a pseudo-terminal 40 columns wide and replay what it
wrote on a small terminal model (carriage return, newline, wrap at the last column), so a bar that
wrapped or was left behind shows up on the final screen exactly as a user would see it.
"""

from __future__ import annotations

import fcntl
import io
import logging
import os
import re
import select
import signal
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest
from conftest import generate_dump

from ir_trace.app import progress
from ir_trace.app.progress import MessageHandler, ProgressBar, progress_line, terminal_columns

PROG = "pypto-ir-trace"
BAR = re.compile(r"\[[#.]+\] \d+/\d+")


# ---------- the line itself ----------


def test_the_line_never_exceeds_the_width_it_is_given():
    for width in range(0, 130):
        for done, total in ((0, 1), (7, 13), (999, 1000), (123456, 123456)):
            assert len(progress_line(done, total, width)) <= width, (width, done, total)


def test_a_wide_terminal_gets_the_full_bar_and_a_narrow_one_keeps_the_count():
    assert progress_line(15, 30, 79) == f"[{'#' * 15}{'.' * 15}] 15/30 diffs and function slices"
    assert progress_line(15, 30, 39) == f"[{'#' * 15}{'.' * 15}] 15/30"
    assert progress_line(5, 10, 20) == f"[{'#' * 6}{'.' * 7}] 5/10"  # exactly 20
    assert progress_line(5, 10, 5) == "5/10"


def test_columns_come_from_columns_env_then_the_terminal_then_80(monkeypatch):
    monkeypatch.setenv("COLUMNS", "52")
    assert terminal_columns(io.StringIO()) == 52
    monkeypatch.delenv("COLUMNS")
    assert terminal_columns(io.StringIO()) == 80  # no terminal behind it
    controller, terminal = os.openpty()
    try:
        set_width(terminal, 33)
        with os.fdopen(os.dup(terminal), "w") as stream:
            assert terminal_columns(stream) == 33
    finally:
        os.close(controller)
        os.close(terminal)


# ---------- erasing, in process ----------


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def bar(monkeypatch):
    monkeypatch.setattr(progress, "_DELAY", 0)
    monkeypatch.setattr(progress, "_REDRAW", 0)
    monkeypatch.setenv("COLUMNS", "40")
    stream = FakeTerminal()
    shown = ProgressBar(True, stream)
    shown.add_work(4)
    yield shown
    shown.close()


def test_a_warning_erases_the_bar_first_and_the_bar_comes_back(bar):
    logger = logging.getLogger("test_progress.warning")
    handler = MessageHandler(bar.stream)
    handler.setFormatter(logging.Formatter(f"{PROG}: warning: %(message)s"))
    logger.addHandler(handler)
    logger.propagate = False
    try:
        bar.advance()
        logger.warning("cache dropped")
        bar.advance()
    finally:
        logger.removeHandler(handler)
    assert screen(bar.stream.getvalue(), 40) == [
        f"{PROG}: warning: cache dropped",
        "[" + "#" * 15 + "." * 15 + "] 2/4",
    ]


def test_after_close_nothing_draws_the_bar_again(bar):
    bar.advance()
    bar.close()
    written = bar.stream.getvalue()
    bar.advance()
    assert bar.stream.getvalue() == written
    assert screen(written, 40) == []


def test_off_a_terminal_nothing_is_written():
    stream = io.StringIO()
    bar = ProgressBar(True, stream)
    bar.add_work(2)
    bar.advance()
    bar.close()
    assert stream.getvalue() == ""


# ---------- the real command on a 40-column pseudo-terminal ----------


def set_width(terminal: int, columns: int) -> None:
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))


def screen(output: str, columns: int) -> list[str]:
    """The rows a terminal `columns` wide shows after `output`: carriage return, newline, erase to the
    end of the line (ESC [ K), and a wrap when a character lands past the last column."""
    rows, row, column = [[]], 0, 0
    for piece in re.split(r"(\x1b\[K|[\r\n])", output):
        if piece == "\r":
            column = 0
        elif piece == "\n":
            row, column = row + 1, 0
            rows.extend([] for _ in range(row + 1 - len(rows)))
        elif piece == "\x1b[K":
            del rows[row][column:]
        else:
            for char in piece:
                if column == columns:
                    row, column = row + 1, 0
                    rows.extend([] for _ in range(row + 1 - len(rows)))
                line = rows[row]
                line.extend(" " * (column + 1 - len(line)))
                line[column] = char
                column += 1
    return [text for text in ("".join(r).rstrip() for r in rows) if text]


def test_the_terminal_model_itself():
    assert screen("[####] 1/2\r          \rdone\n", 40) == ["done"]
    assert screen("[####] 1/2\r\x1b[Kstop\n", 40) == ["stop"]
    assert screen("x" * 45 + "\r" + "y" * 3, 40) == ["x" * 40, "yyyxx"]  # the wrap a too-long bar causes


def run_on_terminal(args: list, columns: int, on_output=None, until: str | None = None) -> tuple[int | None, str]:
    """Run the command with stderr on a pty `columns` wide; `on_output(process, text so far)` sees
    each chunk as it arrives. Reads to the end, or to the end of the line holding `until`. Returns
    the exit code (None if it had not exited when reading stopped) and everything written."""
    controller, terminal = os.openpty()
    set_width(terminal, columns)
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    env["PYPTO_IR_TRACE_PROGRESS_DELAY"] = "0"
    process = subprocess.Popen(
        [sys.executable, "-m", "ir_trace", *map(str, args)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=terminal,
        env=env,
        start_new_session=True,
    )
    os.close(terminal)
    shown = ""
    try:
        while until is None or not re.search(re.escape(until) + ".*\n", shown):
            ready, _, _ = select.select([controller], [], [], 300)
            assert ready, f"the command wrote nothing for 300 s: {shown!r}"
            try:
                chunk = os.read(controller, 65536)
            except OSError:  # EIO: the command exited and closed the terminal
                break
            if not chunk:
                break
            shown += chunk.decode("utf-8", "replace")
            if on_output is not None:
                on_output(process, shown)
        return (process.wait(timeout=300) if until is None else process.poll()), shown
    finally:
        os.close(controller)
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def test_on_a_40_column_terminal_the_bar_never_wraps_and_is_gone_at_the_end(tmp_path: Path):
    dump = generate_dump(tmp_path / "p" / "passes_dump", "--functions", "4", "--lines", "8", "--passes", "12")
    code, shown = run_on_terminal([dump, "-o", tmp_path / "r.html", "--cache-dir", tmp_path / "cache"], 40)
    assert code == 0, shown
    draws = [piece for piece in re.split(r"[\r\n]", shown) if BAR.search(piece)]
    assert draws, f"no progress bar was drawn: {shown!r}"
    assert max(len(piece) for piece in draws) <= 39
    rows = screen(shown, 40)
    assert "".join(rows).startswith("wrote "), rows
    assert not any(BAR.search(row) for row in rows), rows


def test_ctrl_c_erases_the_bar_before_interrupted(tmp_path: Path):
    dump = generate_dump(tmp_path / "p" / "passes_dump", "--functions", "20", "--lines", "30", "--passes", "250")
    report = tmp_path / "r.html"
    interrupted = []

    def interrupt_once_the_bar_shows(process, text):
        if not interrupted and BAR.search(text):
            os.killpg(process.pid, signal.SIGINT)  # Ctrl-C reaches the whole process group
            interrupted.append(True)

    # Reading stops at the message: how fast the process then exits is the signal tests' concern.
    code, shown = run_on_terminal(
        [dump, "-o", report, "--no-cache"], 40, interrupt_once_the_bar_shows, until=f"{PROG}: interrupted"
    )
    assert interrupted, f"the bar never showed: {shown!r}"
    assert code in (None, 130), shown
    rows = screen(shown, 40)
    assert "".join(rows).startswith(f"{PROG}: interrupted"), rows
    assert not any(BAR.search(row) or "diffs and" in row for row in rows), rows
    assert not report.exists()


def test_verbose_shows_luigis_log_without_a_bar_in_between(tmp_path: Path):
    dump = generate_dump(tmp_path / "p" / "passes_dump", "--functions", "4", "--lines", "8", "--passes", "12")
    args = [dump, "-o", tmp_path / "r.html", "--cache-dir", tmp_path / "cache", "--verbose"]
    code, shown = run_on_terminal(args, 40)
    assert code == 0, shown
    assert "WorkBatch" in shown  # Luigi's log is there (the batches of diffs) ...
    assert not BAR.search(shown)  # ... and no bar interleaved with it

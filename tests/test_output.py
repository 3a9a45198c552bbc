"""ir_trace/runsafety/writes.py: what each kind of path gets, in this process, inside a temp directory.

Device nodes are made with mknod inside the temp directory (root only): the tests never touch a
device of the machine's own /dev.
"""

from __future__ import annotations

import os
import socket
import stat
import threading
from pathlib import Path

import pytest

from ir_trace.runsafety import writes as output
from ir_trace.runsafety.run_guard import RunGuard, SupervisorGone
from ir_trace.runsafety.writes import OutputError, plan_output, write_output

IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
needs_root = pytest.mark.skipif(not IS_ROOT, reason="making device nodes needs root")


def make_device(path: Path, kind: int, major: int, minor: int) -> Path:
    os.mknod(path, kind | 0o666, os.makedev(major, minor))
    return path


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(output.TEMP_SUFFIX))


def test_a_regular_file_is_replaced_atomically_keeping_its_mode(tmp_path: Path):
    target = tmp_path / "r.html"
    target.write_text("old")
    target.chmod(0o640)
    old_inode = target.stat().st_ino
    assert write_output(target, "new report") == len(b"new report")
    assert target.read_text() == "new report"
    assert target.stat().st_ino != old_inode  # a new file took its place: readers never saw a half one
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert leftovers(tmp_path) == []


def test_a_new_file_gets_the_umask_mode(tmp_path: Path):
    old = os.umask(0o027)
    try:
        write_output(tmp_path / "r.html", "x")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "r.html").stat().st_mode) == 0o640


def test_a_symlink_is_followed_and_stays_a_symlink(tmp_path: Path):
    (tmp_path / "reports").mkdir()
    real = tmp_path / "reports" / "real.html"
    real.write_text("old")
    link = tmp_path / "link.html"
    link.symlink_to(real)
    write_output(link, "new")
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_text() == "new"
    assert leftovers(tmp_path) == [] and leftovers(real.parent) == []


def test_a_dangling_symlink_creates_its_target(tmp_path: Path):
    link = tmp_path / "link.html"
    link.symlink_to("made.html")
    write_output(link, "new")
    assert link.is_symlink() and (tmp_path / "made.html").read_text() == "new"


def test_a_symlink_loop_is_refused(tmp_path: Path):
    loop = tmp_path / "loop.html"
    loop.symlink_to("loop.html")
    with pytest.raises(OutputError, match=r"^-o: cannot use .*loop\.html"):
        write_output(loop, "x", label="-o")
    assert loop.is_symlink()


def test_a_fifo_with_a_reader_is_written_through(tmp_path: Path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    received = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    try:
        opened = False
        while not opened:  # the reader's open() is what a writer waits for; ours must not wait
            try:
                write_output(fifo, "through the pipe\n")
                opened = True
            except OutputError as exc:
                assert "nothing is reading" in str(exc)
    finally:
        reader.join(timeout=60)
    assert received == [b"through the pipe\n"]
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_a_fifo_without_a_reader_fails_at_once(tmp_path: Path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(OutputError, match=r"^--json: nothing is reading the FIFO .*fifo; start its reader first$"):
        write_output(fifo, "x", label="--json")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


@needs_root
def test_a_character_device_is_written_through_never_replaced(tmp_path: Path):
    null = make_device(tmp_path / "null", stat.S_IFCHR, 1, 3)  # the same device as /dev/null
    before = os.lstat(null)
    write_output(null, "discarded")
    after = os.lstat(null)
    assert stat.S_ISCHR(after.st_mode) and after.st_ino == before.st_ino and after.st_rdev == before.st_rdev
    assert leftovers(tmp_path) == []


@needs_root
def test_a_full_device_is_an_error_naming_the_argument(tmp_path: Path):
    full = make_device(tmp_path / "full", stat.S_IFCHR, 1, 7)  # /dev/full: every write fails with ENOSPC
    with pytest.raises(OutputError, match=r"^-o: cannot write .*full: No space left on device$"):
        write_output(full, "x", label="-o")
    assert stat.S_ISCHR(os.lstat(full).st_mode)


@needs_root
def test_a_block_device_is_refused_unopened(tmp_path: Path):
    disk = make_device(tmp_path / "disk", stat.S_IFBLK, 7, 0)  # a loop device number: never opened
    with pytest.raises(OutputError, match="is a block device"):
        write_output(disk, "x")
    assert stat.S_ISBLK(os.lstat(disk).st_mode)


def test_a_directory_and_a_socket_are_refused(tmp_path: Path):
    with pytest.raises(OutputError, match=r"^--json: .* is a directory; give a file name$"):
        plan_output(tmp_path, "--json")
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(tmp_path / "sock"))
        with pytest.raises(OutputError, match="is a socket"):
            write_output(tmp_path / "sock", "x")
    finally:
        server.close()
    assert stat.S_ISSOCK(os.lstat(tmp_path / "sock").st_mode)


def test_a_missing_directory_is_named(tmp_path: Path):
    with pytest.raises(OutputError, match=r"^--json: output directory does not exist: .*nowhere$"):
        plan_output(tmp_path / "nowhere" / "t.json", "--json")


def test_before_rename_sees_the_file_that_is_published(tmp_path: Path):
    target = tmp_path / "r.html"
    seen = []
    write_output(target, "report", before_rename=lambda info: seen.append((info, target.exists())))
    (info, existed), final = seen[0], target.stat()
    assert not existed  # called before the rename
    assert (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns) == (
        final.st_dev,
        final.st_ino,
        final.st_size,
        final.st_mtime_ns,
    )


def test_a_failing_before_rename_publishes_nothing(tmp_path: Path):
    target = tmp_path / "r.html"
    target.write_text("old")

    def refuse(_info):
        raise RuntimeError("record failed")

    with pytest.raises(RuntimeError):
        write_output(target, "new", before_rename=refuse)
    assert target.read_text() == "old" and leftovers(tmp_path) == []


def test_a_temp_name_is_registered_and_announced_before_the_file_exists(tmp_path: Path, monkeypatch):
    """An interrupt right after the file is created can always find it."""
    read_end, write_end = os.pipe()
    creations = []
    real_open = os.open

    def watching_open(path, flags, *args, **kwargs):
        if flags & os.O_CREAT:
            announced = os.read(read_end, 65536)
            creations.append((str(path) in guard.temps, announced, os.path.exists(path)))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(output.os, "open", watching_open)
    guard = RunGuard(os.getppid(), write_end)
    try:
        write_output(tmp_path / "r.html", "x", guard=guard)
    finally:
        os.close(write_end)
    registered, announced, existed = creations[0]
    assert registered and not existed
    assert announced.startswith(b"T" + os.fsencode(tmp_path) + b"/.r.html.") and announced.endswith(b".tmp\0")
    final = (tmp_path / "r.html").stat()
    published = f"R{final.st_dev}:{final.st_ino}:{tmp_path / 'r.html'}\0"
    assert os.read(read_end, 65536) == os.fsencode(published)  # announced before the rename, with its identity
    os.close(read_end)
    assert guard.temps == set()


def test_a_failed_write_leaves_the_old_file_and_no_temp(tmp_path: Path, monkeypatch):
    target = tmp_path / "r.html"
    target.write_text("old")

    def full_disk(_fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(output.os, "fsync", full_disk)
    with pytest.raises(OutputError, match=r"cannot write .*r\.html: No space left on device"):
        write_output(target, "new")
    assert target.read_text() == "old" and leftovers(tmp_path) == []


def test_identity_is_the_same_for_two_spellings_of_one_output(tmp_path: Path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "link.html").symlink_to("r.html")
    spellings = [tmp_path / "r.html", tmp_path / "sub" / ".." / "r.html", tmp_path / "link.html"]
    assert len({plan_output(p).identity() for p in spellings}) == 1  # before the file exists
    (tmp_path / "r.html").write_text("x")
    assert len({plan_output(p).identity() for p in spellings}) == 1  # and after
    assert plan_output(tmp_path / "other.html").identity() != plan_output(tmp_path / "r.html").identity()


def test_a_name_at_the_length_limit_still_gets_a_temp_file(tmp_path: Path):
    for name in ("r" * 250 + ".html", "报" * 80 + ".html"):  # 255 bytes; 245 bytes of 3-byte UTF-8
        write_output(tmp_path / name, "x")
        assert (tmp_path / name).read_text() == "x"
    assert leftovers(tmp_path) == []


def _hammer_one_sha(store: str, sha: str, data: bytes, rounds: int) -> None:
    """In a worker process: store the same content-addressed text again and again."""
    from ir_trace.sweep.results import keep_text

    for _ in range(rounds):
        keep_text(Path(store), sha, data)
        for entry in os.scandir(store):  # make the next round race to create it again
            if entry.name == f"{sha}.txt.gz":
                try:
                    os.unlink(entry.path)
                except FileNotFoundError:
                    pass


def test_content_addressed_writes_are_idempotent_under_racing_processes_and_threads(tmp_path: Path):
    """Sweep workers storing one snapshot text at once (issue 20, item 2): every writer succeeds."""
    import gzip
    import hashlib
    import multiprocessing

    store, data = tmp_path / "text", b"x = 1\n" * 1000
    sha = hashlib.sha256(data).hexdigest()
    context = multiprocessing.get_context("fork")
    workers = [context.Process(target=_hammer_one_sha, args=(str(store), sha, data, 150)) for _ in range(4)]
    errors: list[BaseException] = []

    def in_thread():
        try:
            _hammer_one_sha(str(store), sha, data, 150)
        except BaseException as exc:  # noqa: BLE001 - reported by the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=in_thread) for _ in range(3)]
    for worker in workers:
        worker.start()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for worker in workers:
        worker.join(120)
    assert errors == [] and [w.exitcode for w in workers] == [0] * 4
    from ir_trace.sweep.results import keep_text, load_text

    keep_text(store, sha, data)
    assert load_text(store, sha) == data.decode() and gzip.decompress((store / f"{sha}.txt.gz").read_bytes()) == data
    assert os.listdir(store) == [f"{sha}.txt.gz"]  # no temp file left by any writer


def test_a_content_addressed_write_replaces_a_damaged_file_and_never_follows_a_planted_link(tmp_path: Path):
    from ir_trace.sweep.results import keep_text, load_text

    store, data = tmp_path / "text", b"y = 2\n"
    keep_text(store, "00" * 32, b"")  # an empty snapshot is stored too
    assert load_text(store, "00" * 32) == ""
    sha = "ab" * 32
    (store / f"{sha}.txt.gz").write_bytes(b"truncated")
    keep_text(store, sha, data)
    assert load_text(store, sha) == "y = 2\n"
    victim = tmp_path / "victim"
    victim.write_text("keep me")
    (store / f"{sha}.txt.gz").unlink()
    (store / f"{sha}.txt.gz").symlink_to(victim)
    keep_text(store, sha, data)
    assert victim.read_text() == "keep me" and not (store / f"{sha}.txt.gz").is_symlink()
    assert load_text(store, sha) == "y = 2\n"


def test_nothing_is_published_once_the_supervising_command_is_gone(tmp_path: Path):
    """The check before every rename (issue 20, item 1): the supervisor's pipe has no reader any more
    (it was SIGKILLed), so the write stops before publishing and leaves no temp file."""
    target = tmp_path / "r.html"
    target.write_text("earlier report\n")
    read_end, write_end = os.pipe()
    os.close(read_end)  # what the kernel does to a killed supervisor's end
    try:
        with pytest.raises(SupervisorGone):
            write_output(target, "new report", guard=RunGuard(os.getppid(), write_end))
    finally:
        os.close(write_end)
    assert target.read_text() == "earlier report\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.html"]

"""The invariant under it all: for every snapshot of every dump, the text the report gives
back equals the file's text exactly, and the command keeps its exit-code contract.

Seeded random dumps (hypothesis is not a dependency): hostile characters, CRLF and lone CR
endings, missing final newlines, empty files, no-op passes, odd pass names and logs. Each
report's payload is decoded from the HTML and every snapshot rebuilt from it; a few reports
are also read back through Chromium with the page's own `Copy full source` buttons.
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest
from browser_support import PAINTED
from hostile_support import (
    PROG,
    assert_error_line,
    assert_round_trip,
    random_dump,
    run,
    snapshot_texts,
    temp_files,
)

SEEDS = list(range(24))


@pytest.mark.parametrize("seed", SEEDS)
def test_random_dump_round_trips_exactly(tmp_path: Path, seed: int):
    dump, texts = random_dump(tmp_path, seed)
    report = tmp_path / "report.html"
    result = run(dump, "-o", report, "--cache-dir", tmp_path / "cache", "--context", str(seed % 4))
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr and "error" not in result.stderr, result.stderr
    assert temp_files(tmp_path) == []
    payload = assert_round_trip(report, dump)
    assert snapshot_texts(payload) == texts
    changed = [p["changed"] for p in payload["passes"][1:]]
    assert changed == [a != b for a, b in zip(texts, texts[1:])]
    counts = [(p["inserted"], p["deleted"]) for p in payload["passes"][1:]]
    assert counts == [hunk_counts(p["hunks"]) for p in payload["passes"][1:]]  # the sidebar's +/- are the hunks'
    if seed % 3 == 0:  # a rerun served from the cache gives back the same report
        again = tmp_path / "again.html"
        result = run(dump, "-o", again, "--cache-dir", tmp_path / "cache", "--context", str(seed % 4))
        assert result.returncode == 0, result.stderr
        assert again.read_bytes() == report.read_bytes()


def hunk_counts(hunks: list) -> tuple[int, int]:
    """(inserted, deleted) lines of payload hunks [a0, a1, b0, b1, ...]."""
    return sum(h[3] - h[2] for h in hunks), sum(h[1] - h[0] for h in hunks)


BREAKAGES = ["invalid UTF-8", "truncated UTF-8", "gap", "duplicate", "malformed", "directory", "no frontend"]


@pytest.mark.parametrize("seed", range(len(BREAKAGES) * 2))
def test_random_broken_dump_is_one_error_line_and_keeps_the_earlier_report(tmp_path: Path, seed: int):
    rng = random.Random(1000 + seed)
    dump, _texts = random_dump(tmp_path, 1000 + seed)
    while len(list(dump.glob("*.py"))) < 3:  # every breakage below needs a few snapshots
        shutil.rmtree(dump.parent)
        seed += 100
        dump, _texts = random_dump(tmp_path, 1000 + seed)
    report = tmp_path / "report.html"
    report.write_text("an earlier report\n")
    files = sorted(dump.glob("*.py"), key=lambda p: int(p.name.split("_")[0]))
    kind = BREAKAGES[seed % len(BREAKAGES)]
    if kind in ("invalid UTF-8", "truncated UTF-8"):
        victim = rng.choice(files)
        data = victim.read_bytes()
        at = rng.randrange(len(data) + 1)
        bad = b"\xff" if kind == "invalid UTF-8" else "中".encode()[:2]
        victim.write_bytes(data[:at] + bad + (data[at:] if kind == "invalid UTF-8" else b""))
        needles = ["not UTF-8", str(victim)]
    elif kind == "gap":
        victim = rng.choice(files[1:-1])
        victim.unlink()
        needles = [f"missing snapshot index {victim.name.split('_')[0]}"]
    elif kind == "duplicate":
        index = rng.randrange(1, len(files))
        (dump / f"{index:02d}_after_Twin.py").write_text("x = 1\n")
        needles = [f"duplicate snapshot index {index:02d}", f"{index:02d}_after_Twin.py"]
    elif kind == "malformed":
        (dump / "1a_after_Oops.py").write_text("x = 1\n")
        needles = ["malformed snapshot name", "1a_after_Oops.py"]
    elif kind == "directory":
        victim = dump / f"{len(files):02d}_after_Folder.py"
        victim.mkdir()
        needles = ["is a directory", str(victim)]
    else:
        files[0].unlink()
        needles = ["missing 00_frontend.py"]
    result = run(dump, "-o", report, "--cache-dir", tmp_path / "cache")
    assert_error_line(result, *needles)
    assert report.read_text() == "an earlier report\n"
    assert temp_files(tmp_path) == []


@pytest.mark.parametrize(
    "args",
    [["--context", "-1"], ["--context", "many"], ["--context"], [], ["--workers", "0"], ["--no-such-option"]],
    ids=["negative context", "word context", "context without value", "no dump", "zero workers", "unknown option"],
)
def test_argument_errors_exit_2_argparse_style(tmp_path: Path, args: list[str]):
    dump, _texts = random_dump(tmp_path, 7)
    needs_dump = args != [] and args != ["--context"]
    result = run(*([dump] if needs_dump else []), *args, "-o", tmp_path / "r.html")
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith("usage: ") and f"{PROG}: error: " in result.stderr
    assert not (tmp_path / "r.html").exists()


# ---------- through the browser: the page's own Copy full source buttons ----------

BROWSER_SEEDS = [3, 8, 11]  # CRLF, lone CR, NUL, U+2028, emoji, an empty snapshot, missing final newlines


def _copy(page, side: str) -> str:
    """Click a pane's `Copy full source` button and read what landed on the clipboard."""
    page.evaluate("() => navigator.clipboard.writeText('(nothing copied)')")
    region = page.get_by_role("region", name=f"{side} snapshot")
    region.get_by_role("button", name="Copy full source").click()
    page.wait_for_function("() => navigator.clipboard.readText().then(t => t !== '(nothing copied)')", polling=50)
    return page.evaluate("() => navigator.clipboard.readText()")


@pytest.mark.parametrize("seed", BROWSER_SEEDS)
def test_copy_full_source_gives_back_every_snapshot_in_chromium(browser, tmp_path: Path, seed: int):
    dump, texts = random_dump(tmp_path, seed)
    assert len(texts) >= 3, "choose a seed whose dump has passes"
    report = tmp_path / "report.html"
    result = run(dump, "-o", report, "--cache-dir", tmp_path / "cache")
    assert result.returncode == 0, result.stderr
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    try:
        page = context.new_page()
        page.set_default_timeout(10_000)
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(report.resolve().as_uri())
        page.wait_for_function(PAINTED)
        nav = page.get_by_role("navigation", name="Passes")
        nav.locator('button[data-k="1"]').click()
        copied = [_copy(page, "Before")]
        for k in range(1, len(texts)):
            nav.locator(f'button[data-k="{k}"]').click()
            assert nav.locator(f'button[data-k="{k}"]').get_attribute("aria-current") == "true"
            copied.append(_copy(page, "After"))
        for k, (got, want) in enumerate(zip(copied, texts)):
            assert got == want, f"snapshot {k}: Copy full source gave back a different text"
        assert errors == []
    finally:
        context.close()

"""Streams read dump by dump and trees with a bounded cache of texts: memory follows a dump, not the input."""

from __future__ import annotations

import random
import tracemalloc
from pathlib import Path

import pytest
from conftest import mlir_sample, mlir_samples, traced_peak
from test_mlir_tree import header, module

import ir_trace
from ir_trace.inputs.mlir import reader
from ir_trace.inputs.mlir.reader import read_stream, read_tree
from ir_trace.inputs.mlir.stream import read_dumps, split_dumps
from ir_trace.pipeline import snapshots
from ir_trace.pipeline.config import session


def big_module(number: int, functions: int) -> str:
    body = "".join(
        f"  func.func @f{k}() -> i32 {{\n    %c = arith.constant {number if k == number % functions else k} : i32\n"
        "    return %c : i32\n  }\n"
        for k in range(functions)
    )
    return "module {\n" + body + "}\n\n\n"


def test_a_large_stream_is_read_in_memory_of_a_few_dumps(tmp_path):
    stream = tmp_path / "stream.txt"
    with stream.open("w") as out:
        for number in range(120):  # 120 dumps of about 250 KB: 30 MB
            out.write(header("CSE", "cse") + big_module(number, 3000))
    size = stream.stat().st_size
    ((unit, manifest),), peak = traced_peak(lambda: read_stream(stream, lambda _sha, _text: None))
    assert unit == "" and len(manifest.snapshots) == 120
    assert peak < size / 3  # the whole file and its texts held at once took more than twice its size


def test_reading_in_pieces_of_any_size_finds_the_same_dumps():
    """Headers and IR cut anywhere between two reads (a header line split, `\\n\\n\\n` split) come out whole."""
    data = (
        b"driver output\n"
        + header("CSE", "cse").encode()
        + module("x", "y").encode()
        + b"loc: error: oops\n"
        + b"// -----// IR Dump not a header\n"
        + header("Canonicalizer", "canonicalize").encode()
        + module("x", "z").encode()
    )
    whole = split_dumps(data)
    assert len(whole) == 2 and whole[1].diagnostics.startswith("loc: error: oops")
    rng = random.Random(7)
    for _trial in range(50):
        offset = 0

        def read(_size: int) -> bytes:
            nonlocal offset
            piece = data[offset : offset + rng.randint(1, 9)]
            offset += len(piece)
            return piece

        pieces = [(dump, bytes(ir)) for dump, ir in read_dumps(read)]  # each IR copied before the next is read
        assert [dump for dump, _ir in pieces] == whole
        assert [ir for _dump, ir in pieces] == [data[d.span[0] : d.span[0] + d.span[1]] for d in whole]


def test_a_stream_read_in_pieces_keeps_its_snapshot_hashes(tmp_path: Path):
    stream = tmp_path / "s.txt"
    stream.write_text(header("CSE", "cse") + module("a", "b") + header("SCCP", "sccp") + module("a", "c"))
    seen = []
    ((_unit, manifest),) = read_stream(stream, lambda sha, text: seen.append((sha, text)))
    assert [s.sha256 for s in manifest.snapshots] == [sha for sha, _text in seen]
    assert [text for _sha, text in seen] == [module("a", "b").rstrip("\n") + "\n", module("a", "c").rstrip("\n") + "\n"]


@pytest.mark.parametrize("sample", mlir_samples("tree"), ids=lambda p: getattr(p, "name", str(p)))
def test_a_tree_whose_texts_do_not_fit_is_read_again_to_the_same_order(sample, monkeypatch):
    """With room for one text the ordering rereads the others from disk (b3: 717 files, shared
    directories, content-decided order): the manifests are the ones read with every text held."""
    tree = mlir_sample(sample) / "tree"
    whole = [(unit, manifest.to_json()) for unit, manifest in read_tree(tree)]
    monkeypatch.setattr(reader, "TREE_TEXT_CHARS", 1)
    assert [(unit, manifest.to_json()) for unit, manifest in read_tree(tree)] == whole


def test_one_huge_line_costs_memory_proportional_to_it(tmp_path):
    """A `dense<"0x…">` constant of 2 MB on one line: reading (split, decode, hash, the cut-off check
    that skips string literals) peaks at a few times the line; the literal's regex took 140 bytes a character."""
    blob = "0x" + "A5" * 1_000_000
    stream = tmp_path / "dense.txt"
    body = f'module {{\n  func.func @w() {{\n    %cst = arith.constant dense<"{blob}"> : tensor<1000000xi8>\n'
    stream.write_text("".join(header(p, p.lower()) + body + f"    // {p}\n    return\n  }}\n}}\n\n\n" for p in "AB"))
    ((_unit, manifest),), peak = traced_peak(lambda: read_stream(stream, lambda _sha, _text: None))
    assert len(manifest.snapshots) == 2
    assert peak < 8 * len(blob), peak


def test_a_report_of_huge_lines_holds_about_two_of_them(tmp_path, monkeypatch, cache_dir):
    """The whole run (validation, slicing, the pair's diff, the page) over three dumps of one 6 MB
    `dense<>` line, a pass changing another line: the pair held both texts, both lines and the outline's
    copy, and the page's JSON two more (5.5 bytes a character of the line); now a huge snapshot keeps its
    lines alone once they are worked out and the page writes the line a window at a time."""
    for kept, chars in ((snapshots, "HELD_TEXT_CHARS"), (session().texts, "limit"), (session().snapshots, "limit")):
        monkeypatch.setattr(kept, chars, 1 << 20)  # the line is a huge one: past what the session keeps of texts
    stream = tmp_path / "dense.txt"
    stream.write_text("".join(header(p, p.lower()) + dense_module(LINE, "", p) for p in "ABB"))
    result, peak = traced_peak(lambda: ir_trace.render(stream, tmp_path / "r.html", cache_dir=cache_dir))
    assert result.pairs == 1 and result.rediffed == 1
    assert peak < 3.5 * LINE, peak / LINE


def test_a_pass_changing_a_huge_line_leaves_no_copy_of_it_behind(tmp_path, cache_dir):
    """The run's memos (line profiles, operations, ignore-mode keys) kept the changed 6 MB line and
    several stripped forms of it after the run, once the session had let go of its texts and snapshots."""
    stream = tmp_path / "dense.txt"
    stream.write_text("".join(header(p, p.lower()) + dense_module(LINE, p, "") for p in "ABB"))
    tracemalloc.start()
    try:
        result = ir_trace.render(stream, tmp_path / "r.html", cache_dir=cache_dir)
        session().forget()  # what the process keeps on purpose, for the next run
        left = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert result.pairs == 1 and result.rediffed == 1
    assert left < LINE / 2, left / LINE


LINE = 6_000_000


def dense_module(size: int, in_line: str, after_it: str) -> str:
    blob = "0x" + "5A" * (size // 2) + in_line
    constant = f'    %cst = arith.constant dense<"{blob}"> : tensor<1xi8>\n'
    return f"module {{\n  func.func @w() {{\n{constant}    // {after_it}\n    return\n  }}\n}}\n\n\n"


@pytest.mark.parametrize("ignore", [None, "ssa,loc,whitespace"])
def test_a_pass_changing_a_huge_line_holds_about_two_of_it(tmp_path, monkeypatch, cache_dir, ignore):
    """The 6 MB line itself changes: the pair's profiles for pairing (its body, its bytes translated, its one
    huge word), the intraline window's tokens and the ignore-mode keys (a stripped form per mode set and
    step) each copied the line, 9.5 bytes a character in all (the summary's counts under modes the run starts
    ignoring kept a key per step more); now each is worked out a window at a time, a long body, word or key
    kept as its digest."""
    for kept, chars in ((snapshots, "HELD_TEXT_CHARS"), (session().texts, "limit"), (session().snapshots, "limit")):
        monkeypatch.setattr(kept, chars, 1 << 20)
    stream = tmp_path / "dense.txt"
    stream.write_text("".join(header(p, p.lower()) + dense_module(LINE, p, "") for p in "ABB"))
    options = {"ignore": ignore} if ignore else {}
    result, peak = traced_peak(lambda: ir_trace.render(stream, tmp_path / "r.html", cache_dir=cache_dir, **options))
    assert result.pairs == 1 and result.rediffed == 1
    assert ("ignoring" in result.summary.trace["passes"][1]) == bool(ignore)  # counted under the modes too
    assert peak < 3.5 * LINE, peak / LINE

"""Streams read dump by dump and trees with a bounded cache of texts: memory follows a dump, not the input."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from conftest import mlir_sample, mlir_samples, traced_peak
from test_mlir_tree import header, module

from ir_trace.inputs.mlir import reader
from ir_trace.inputs.mlir.reader import read_stream, read_tree
from ir_trace.inputs.mlir.stream import read_dumps, split_dumps


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

        pieces = list(read_dumps(read))
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

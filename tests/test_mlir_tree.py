"""MLIR tree dirs and streams: names, write order from counters and content, stream splitting."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from conftest import MLIR_SAMPLES, mlir_sample, run_cli

from ir_trace.errors import DumpError
from ir_trace.inputs.discovery import read_snapshot_text
from ir_trace.inputs.mlir.ops import OpIndex
from ir_trace.inputs.mlir.reader import read_stream, read_tree
from ir_trace.inputs.mlir.stream import split_dumps
from ir_trace.inputs.mlir.tree import parse_tree_name

ROOT = "builtin_module_no-symbol-name"


def module(a: str, b: str, extra: str = "") -> str:
    """A printed module with functions @a and @b whose bodies hold `a` and `b`."""
    return (
        "module {\n"
        f"  func.func @a() {{\n    // {a}\n    return\n  }}\n"
        f"  func.func @b() {{\n    // {b}\n    return\n  }}\n"
        f"{extra}"
        "}\n\n\n"
    )


def header(pass_: str, argument: str, op: str = "builtin.module", symbol: str = "", kind: str = "After") -> str:
    target = f"('{op}' operation{': ' + symbol if symbol else ''})" if op else ""
    return f"// -----// IR Dump {kind} {pass_} ({argument}) {target}".rstrip() + " //----- //\n"


def write_tree(root: Path, dumps: list[tuple[str, str, str]]) -> Path:
    """(path below root, header, IR) each, written in list order."""
    for path, head, text in dumps:
        file = root / path
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(head + text, encoding="utf-8")
    return root


def func_dump(symbol: str, name: str, argument: str, text: str) -> tuple[str, str, str]:
    return f"{ROOT}/func_func_{symbol}/{name}", header("P", argument, "func.func", "@" + symbol), text


# The inliner's order: @b (the callee) is canonicalized before @a, though `a` sorts first and
# comes first in the module; then a module pass; then a nested pipeline op by op.
WRITES = [
    func_dump("b", "0_0_canonicalize.mlir", "canonicalize", module("a0", "b1")),
    func_dump("a", "0_0_canonicalize.mlir", "canonicalize", module("a1", "b1")),
    func_dump("a", "0_1_canonicalize.mlir", "canonicalize", module("a2", "b1")),
    (f"{ROOT}/1_inline.mlir", header("Inliner", "inline"), module("a2", "b1", "  // inlined\n")),
    func_dump("a", "1_2_cse.mlir", "cse", module("a3", "b1", "  // inlined\n")),
    func_dump("a", "1_3_licm.mlir", "licm", module("a3", "b1", "  // inlined\n")),  # a no-op
    func_dump("b", "1_1_cse.mlir", "cse", module("a3", "b2", "  // inlined\n")),
    func_dump("b", "1_2_licm.mlir", "licm", module("a3", "b3", "  // inlined\n")),
    (f"{ROOT}/2_symbol-dce.mlir", header("SymbolDCE", "symbol-dce"), module("a3", "b3")),
]


def test_module_scope_tree_in_write_order(tmp_path):
    root = write_tree(tmp_path / "tree", WRITES)
    [(unit, manifest)] = read_tree(root)
    assert unit == "" and manifest.kind == "mlir" and manifest.warnings == ()
    assert [s.file for s in manifest.snapshots] == [path for path, _h, _t in WRITES]
    assert [s.index for s in manifest.snapshots] == list(range(len(WRITES)))
    first = manifest.snapshots[0]
    assert first.name == "P (canonicalize)" and first.header.target == "func.func @b"
    # the text is the IR without its header and trailing blank lines, read back by its span
    text, sha = read_snapshot_text(manifest.path_of(first), first.span)
    assert text == module("a0", "b1").rstrip("\n") + "\n" and sha == first.sha256


def test_counters_alone_order_each_directory_without_module_scope(tmp_path):
    # without module scope a header names no op, and a file holds only the op its pass ran on
    no_scope = [(path, _unscoped(head), _op_only(path, text)) for path, head, text in WRITES]
    root = write_tree(tmp_path / "tree", no_scope)
    traces = dict(read_tree(root))
    assert set(traces) == {"builtin.module", "func.func @a", "func.func @b"}
    assert [s.file.rsplit("/", 1)[1] for s in traces["func.func @a"].snapshots] == [
        "0_0_canonicalize.mlir",
        "0_1_canonicalize.mlir",
        "1_2_cse.mlir",
        "1_3_licm.mlir",
    ]


def _unscoped(head: str) -> str:
    return head[: head.index(" ('")] + " //----- //\n"


def _op_only(path: str, text: str) -> str:
    for symbol in ("a", "b"):
        if f"func_func_{symbol}/" in path:
            return f"func.func @{symbol}() {{\n  return\n}}\n"
    return text


def test_tree_and_stream_of_one_run_agree(tmp_path):
    root = write_tree(tmp_path / "tree", WRITES)
    stream = tmp_path / "stream.txt"
    stream.write_text("driver noise before the first dump\n" + "".join(h + t for _p, h, t in WRITES), encoding="utf-8")
    [(_unit, from_tree)] = read_tree(root)
    [(_unit, from_stream)] = read_stream(stream)
    assert [s.sha256 for s in from_stream.snapshots] == [s.sha256 for s in from_tree.snapshots]
    assert [s.header_index for s in from_stream.snapshots] == list(range(len(WRITES)))
    assert {s.file for s in from_stream.snapshots} == {"stream.txt"}
    for snapshot in from_stream.snapshots:
        text, sha = read_snapshot_text(from_stream.path_of(snapshot), snapshot.span)
        assert sha == snapshot.sha256 and not text.startswith("//")


def test_split_dumps_keeps_an_unparsable_header_line_in_the_ir():
    data = (
        header("CSE", "cse") + "module {\n// -----// IR Dump junk\n}\n\n\n" + header("X", "x") + "module {}\n"
    ).encode()
    dumps = split_dumps(data)
    assert [d.header.argument for d in dumps] == ["cse", "x"]
    start, length = dumps[0].span
    assert data[start : start + length] == b"module {\n// -----// IR Dump junk\n}\n"


@pytest.mark.parametrize(
    ("name", "depth", "expected"),
    [
        ("0_1_cse.mlir", 2, ((0, 1), "cse")),
        ("12_convert_scf_to_cf.mlir", 1, ((12,), "convert_scf_to_cf")),
        ("1_2_3_x.mlir", 2, None),
        ("1_x.mlir", 2, None),
        ("a_1_x.mlir", 2, None),
        ("1_2_.mlir", 2, None),
        ("١_2_x.mlir", 2, None),  # a non-ASCII digit is no counter
    ],
)
def test_tree_names(name, depth, expected):
    assert parse_tree_name(name, depth) == expected


def test_broken_trees_name_the_file(tmp_path):
    root = write_tree(tmp_path / "tree", WRITES[:2])
    (root / ROOT / "func_func_a" / "7_cse.mlir").write_text("module {}\n")
    with pytest.raises(DumpError, match="malformed MLIR tree dump name: .*7_cse.mlir"):
        read_tree(root)
    (root / ROOT / "func_func_a" / "7_cse.mlir").unlink()
    (root / ROOT / "func_func_a" / "0_5_cse.mlir").write_text("module {}\n")
    with pytest.raises(DumpError, match="not an MLIR pass dump: .*0_5_cse.mlir"):
        read_tree(root)


def test_shared_directory_is_a_warning(tmp_path):
    two = "module {\n  util.initializer {\n    // x\n  }\n  util.initializer {\n    // y\n  }\n}\n"
    path = f"{ROOT}/util_initializer_no-symbol-name/0_0_canonicalize.mlir"
    root = write_tree(tmp_path / "tree", [(path, header("C", "canonicalize", "util.initializer"), two)])
    [(_unit, manifest)] = read_tree(root)
    assert len(manifest.warnings) == 1 and "2 sibling ops without a symbol" in manifest.warnings[0]
    assert "MLIR gave 1 of their dumps" in manifest.warnings[0]  # two ops, one canonicalize dump between


def test_shared_directory_without_a_lost_dump_warns_nothing(tmp_path):
    # the second initializer appears after the first one's dump: their counters differ, no name is reused
    writes = initializer_writes(first_after="// x")
    [(_unit, manifest)] = read_tree(write_tree(tmp_path / "tree", writes))
    assert manifest.warnings == () and len(manifest.snapshots) == 4


def initializer_writes(first_after: str) -> list[tuple[str, str, str]]:
    """A util.initializer canonicalized (counter 0), a module pass that makes its text `first_after`
    and adds a second one, then canonicalize on both (the first at its number 1, the new one at 0)."""
    one = "module {\n  util.initializer {\n    // x\n  }\n}\n"
    two = f"module {{\n  util.initializer {{\n    {first_after}\n  }}\n  util.initializer {{\n    // y\n  }}\n}}\n"
    shared = f"{ROOT}/util_initializer_no-symbol-name"
    return [
        (f"{shared}/0_0_canonicalize.mlir", header("C", "canonicalize", "util.initializer"), one),
        (f"{ROOT}/1_add.mlir", header("A", "add"), two),
        (f"{shared}/1_1_canonicalize.mlir", header("C", "canonicalize", "util.initializer"), two),
        (f"{shared}/1_0_canonicalize.mlir", header("C", "canonicalize", "util.initializer"), two),
    ]


def ambiguous_initializers(root: Path) -> Path:
    """Two util.initializers whose dumps leave their order open: the module pass changes the first
    one's text (so its counter cannot be followed there) and adds the second; then the adaptor runs
    canonicalize on both (the first at its number 1, the new one at 0), changing neither."""
    writes = initializer_writes(first_after="// x2")
    write_tree(root, writes)
    for path, _header, _text in writes:  # as copied: every mtime alike
        os.utime(root / path, ns=(1_700_000_000_000_000_000,) * 2)
    return root


def test_an_order_the_dump_leaves_open_is_said_so(tmp_path):
    [(_unit, manifest)] = read_tree(ambiguous_initializers(tmp_path / "tree"))
    shared = f"{ROOT}/util_initializer_no-symbol-name"
    assert [s.file for s in manifest.snapshots][2:] == [
        f"{shared}/1_0_canonicalize.mlir",
        f"{shared}/1_1_canonicalize.mlir",
    ]
    [remark] = manifest.warnings
    assert f"order of 2 snapshots in {shared} is ambiguous" in remark and "shown in file-name order" in remark


def test_mtimes_as_written_settle_an_order_content_leaves_open(tmp_path):
    root = ambiguous_initializers(tmp_path / "tree")
    shared = f"{ROOT}/util_initializer_no-symbol-name"
    written = [f"{shared}/0_0_canonicalize.mlir", f"{ROOT}/1_add.mlir"]
    written += [f"{shared}/1_1_canonicalize.mlir", f"{shared}/1_0_canonicalize.mlir"]
    for position, path in enumerate(written):  # a fresh build: distinct, in the order written
        os.utime(root / path, ns=(1_700_000_000_000_000_000 + position * 1000,) * 2)
    [(_unit, manifest)] = read_tree(root)
    assert [s.file for s in manifest.snapshots] == written and manifest.warnings == ()


def test_the_open_order_reaches_stderr_and_json(tmp_path):
    root = ambiguous_initializers(tmp_path / "tree")
    summary = tmp_path / "summary.json"
    result = run_cli(root, "-o", tmp_path / "r.html", "--json", summary, "--cache-dir", tmp_path / "cache")
    assert result.returncode == 0, result.stderr
    [line] = [line for line in result.stderr.splitlines() if "is ambiguous" in line]
    assert line.startswith("pypto-ir-trace: warning: ")
    assert any("is ambiguous" in warning for warning in json.loads(summary.read_text("utf-8"))["warnings"])


@pytest.mark.samples
def test_overwrites_counted_as_strace_saw_them():
    # b3 wrote 740 files to 717 names (write_order.txt): 23 dumps lost, all in the initializers' directory
    b3 = MLIR_SAMPLES / "b3_full_ireecompile_conv"
    [(_unit, manifest)] = read_tree(mlir_sample(b3 if b3.is_dir() else None) / "tree")
    [warning] = manifest.warnings
    assert "util_initializer_no-symbol-name" in warning and "MLIR gave 23 of their dumps" in warning


def test_hostile_lines_are_read_in_linear_time(tmp_path):
    # a 2 MB line of braces and quotes: every scan is a str.find loop, so this reads at once
    hostile = "module {\n  func.func @a() {\n    // " + '{"\\' * 700_000 + "\n  }\n}\n"
    root = write_tree(tmp_path / "tree", [func_dump("a", "0_0_cse.mlir", "cse", hostile)])
    [(_unit, manifest)] = read_tree(root)
    assert len(manifest.snapshots) == 1


@pytest.mark.parametrize("first", ["a", "b"])
def test_no_op_nested_pipeline_runs_op_by_op_in_module_order(tmp_path, first):
    # every text identical: only the pass manager's habits order them (all passes on one op, then
    # the next op printed), where sorting the names would interleave the two ops
    second = "b" if first == "a" else "a"
    functions = "".join(f"  func.func @{symbol}() {{\n    return\n  }}\n" for symbol in (first, second))
    text = f"module {{\n{functions}}}\n"
    writes = [(f"{ROOT}/0_start.mlir", header("Start", "start"), text)]
    for symbol in (first, second):
        writes += [func_dump(symbol, "0_0_canonicalize.mlir", "canonicalize", text)]
        writes += [func_dump(symbol, "0_1_cse.mlir", "cse", text)]
    [(_unit, manifest)] = read_tree(write_tree(tmp_path / "tree", writes))
    assert [s.file for s in manifest.snapshots] == [path for path, _h, _t in writes]


def test_manifest_json_round_trip_and_old_manifests(tmp_path):
    [(_unit, manifest)] = read_stream(_stream(tmp_path))
    data = manifest.to_json()
    assert type(manifest).from_json(json.loads(json.dumps(data))) == manifest
    assert data["kind"] == "mlir" and data["snapshots"][0]["header"]["argument"] == "canonicalize"
    old = {
        "dump": "/d",
        "title": "t",
        "snapshots": [{"index": 0, "name": "frontend", "file": "00_frontend.py", "sha256": "x"}],
    }
    restored = type(manifest).from_json(old)
    assert restored.kind == "pypto" and restored.warnings == () and restored.snapshots[0].header is None


def _stream(tmp_path: Path) -> Path:
    stream = tmp_path / "stream.txt"
    stream.write_text("".join(h + t for _p, h, t in WRITES), encoding="utf-8")
    return stream


def test_ops_are_found_by_their_tree_path():
    # the printer quotes and escapes symbols; tree paths hold them raw (LLVM 22 turns `/` into `_`)
    text = (
        'module @outer attributes {note = "{"} {\n'
        '  module @"inner/sub" {\n'
        '    func.func @"kernel/one"(%arg0: f32) -> f32 {\n      return %arg0 : f32\n    }\n'
        "  }\n"
        '  func.func private @"sp ace \\C3\\BCnicode"() {\n    return\n  }\n'
        "  util.initializer {\n  }\n  util.initializer {\n  }\n"
        "}\n"
    )
    index = OpIndex(text)
    nested = index.region(("builtin_module_outer", "builtin_module_inner_sub", "func_func_kernel_one"))
    assert text[nested[0] : nested[1]].startswith('    func.func @"kernel/one"') and text[: nested[1]].endswith(
        "    }\n"
    )
    spaced = index.region(("builtin_module_outer", "func_func_sp ace ünicode"))
    assert text[spaced[0] :].startswith("  func.func private @")
    assert len(index.regions(("builtin_module_outer", "util_initializer_no-symbol-name"))) == 2
    assert index.region(("builtin_module_outer", "func_func_missing")) is None


def test_hostile_stream_splits_in_linear_time():
    # 100 000 header-like lines that do not parse, and one long header that does
    junk = "// -----// IR Dump After (((( //\n" * 100_000
    data = (junk + header("P" + "(" * 100_000, "p") + "module {}\n").encode()
    dumps = split_dumps(data)
    assert len(dumps) == 1 and dumps[0].header.argument == "p"


def test_the_inliner_simplifies_callees_first_even_when_nothing_changes(tmp_path):
    # @a calls @b and is printed first; the inliner's no-op canonicalizations still visit @b first
    text = (
        "module {\n  func.func @a() {\n    func.call @b() : () -> ()\n    return\n  }\n"
        "  func.func @b() {\n    return\n  }\n}\n"
    )
    writes = [
        (f"{ROOT}/0_start.mlir", header("Start", "start"), text),
        func_dump("b", "0_0_canonicalize.mlir", "canonicalize", text),
        func_dump("a", "0_0_canonicalize.mlir", "canonicalize", text),
        (f"{ROOT}/1_inline.mlir", header("Inliner", "inline"), text),
        func_dump("a", "1_1_cse.mlir", "cse", text),  # a nested pipeline after it walks module order
        func_dump("b", "1_1_cse.mlir", "cse", text),
    ]
    [(_unit, manifest)] = read_tree(write_tree(tmp_path / "tree", writes))
    assert [s.file for s in manifest.snapshots] == [path for path, _h, _t in writes]


def test_a_tree_file_name_that_is_not_utf8_is_named(tmp_path):
    root = write_tree(tmp_path / "tree", WRITES[:1])
    folder = os.fsencode(root / ROOT / "func_func_b")
    with open(os.path.join(folder, b"0_1_caf\xe9.mlir"), "wb") as handle:
        handle.write(header("P", "p", "func.func", "@b").encode() + b"module {}\n")
    with pytest.raises(DumpError, match=r"file name is not UTF-8: .*0_1_caf\\xe9.mlir"):
        read_tree(root)

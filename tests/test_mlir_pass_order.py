"""Real mlir-opt and IREE trees (tests/data/mlir_order, made by benchmarks/mlir_corpus.py, the IREE one
cut down by benchmarks/mlir_trim_tree.py) read in the order strace saw them written: declarations in
module order, tied first dumps of sibling functions, an adaptor's sweep before the inliner's
callee-first one, Before dumps, nested `module @inner`s, IREE's `util.initializer`s sharing one
directory (some overwriting each other's dumps), with module scope and without; with the files' mtimes
as written and flattened."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from ir_trace.inputs.mlir.ops import callees_first
from ir_trace.inputs.mlir.order import content_breaks, order_tree
from ir_trace.inputs.mlir.pass_manager import child_ops
from ir_trace.inputs.mlir.reader import read_stream, read_tree
from ir_trace.inputs.mlir.tree import scan_tree

DATA = Path(__file__).parent / "data" / "mlir_order"
DUMPS = sorted(path.name for path in DATA.iterdir() if (path / "tree").is_dir() and not path.name.endswith("_op"))


def writes(sample: Path) -> list[str]:
    return (sample / "write_order.txt").read_text(encoding="utf-8").splitlines()


def true_order(sample: Path) -> list[str]:
    """The paths in write order, one written twice (an overwrite) at its last write."""
    paths = writes(sample)
    last = {path: position for position, path in enumerate(paths)}
    return [path for position, path in enumerate(paths) if last[path] == position]


@pytest.mark.parametrize("name", DUMPS)
def test_tree_read_in_write_order(name):
    sample = DATA / name
    [(_unit, manifest)] = read_tree(sample / "tree")
    assert [s.file for s in manifest.snapshots] == true_order(sample)
    overwritten = len(writes(sample)) - len(true_order(sample))
    if overwritten:  # the warning the names prove, and no other
        [warning] = manifest.warnings
        assert f"MLIR gave {overwritten} of their dumps" in warning
    else:
        assert manifest.warnings == ()


def stamp(tree: Path, order: list[str]) -> None:
    """Each file's mtime set as a fresh build leaves it: one microsecond apart, in `order`."""
    for position, path in enumerate(order):
        os.utime(tree / path, ns=(1_700_000_000_000_000_000 + position * 1000,) * 2)


@pytest.mark.parametrize("mtimes", ["written", "flattened", "reversed"])
def test_shared_initializer_directory_read_in_write_order_whatever_the_mtimes(tmp_path, mtimes):
    # four util.initializers share one directory, each counting its own dumps; two of them ran at
    # the same numbers, so the later one's files replaced the earlier one's
    sample = DATA / "iree_mlp_initializers_ms"
    tree = shutil.copytree(sample / "tree", tmp_path / "tree")
    truth = true_order(sample)
    if mtimes == "written":
        stamp(tree, truth)
    elif mtimes == "flattened":  # as a copy or an archive leaves them
        for path in truth:
            os.utime(tree / path, ns=(1_700_000_000_000_000_000,) * 2)
    else:  # mtimes that contradict the counters are no evidence at all
        stamp(tree, truth[::-1])
    [(_unit, manifest)] = read_tree(tree)
    assert [s.file for s in manifest.snapshots] == truth
    assert not any("ambiguous" in warning for warning in manifest.warnings)


def test_adaptors_with_no_pass_in_common_sweep_one_after_the_other(tmp_path):
    # gap 46: IREE strips debug ops on every flow.executable, then canonicalizes every util.func: two
    # adaptors that were not merged, each walking the module; gap 65: canonicalize on the functions
    # inside stream.executables and on util.funcs, one merged walk in module order. No dump changes
    # anything, so with mtimes flattened only the pass manager's rules can tell
    sample = DATA / "iree_mlp_two_adaptors_ms"
    tree = shutil.copytree(sample / "tree", tmp_path / "tree")
    truth = true_order(sample)
    for path in truth:
        os.utime(tree / path, ns=(1_700_000_000_000_000_000,) * 2)
    [(_unit, manifest)] = read_tree(tree)
    assert [s.file for s in manifest.snapshots] == truth


def test_mtimes_that_content_contradicts_are_overruled(tmp_path):
    # mtimes that fit every counter, but put zeta's run before ext_a's: ext_a's dumps still show zeta
    # as it was before its cse, so they cannot come after it
    sample = DATA / "calls_decls_ms"
    tree = shutil.copytree(sample / "tree", tmp_path / "tree")
    truth = true_order(sample)
    stamp(tree, truth[:2] + truth[4:6] + truth[2:4] + truth[6:])
    [(_unit, manifest)] = read_tree(tree)
    assert [s.file for s in manifest.snapshots] == truth


def test_ops_sharing_a_directory_without_module_scope_are_one_trace_each():
    # IREE without module scope: four util.initializers write to one directory, each dump only the op
    # itself; two of them counted alike for a while, so the later one's files replaced the earlier's
    sample = DATA / "iree_mlp_initializers_op"
    truth = true_order(sample)
    overwritten = {path for path in writes(sample) if writes(sample).count(path) > 1}
    traces = read_tree(sample / "tree")
    initializers = [manifest for unit, manifest in traces if unit.startswith("util.initializer")]
    assert [unit for unit, _manifest in traces if unit.startswith("util.initializer")] == [
        f"util.initializer #{number}" for number in (1, 2, 3, 4)
    ]
    for manifest in initializers:
        files = [s.file for s in manifest.snapshots]
        written_once = [path for path in files if path not in overwritten]
        assert written_once == [path for path in truth if path in set(written_once)]
    assert sum(len(manifest.snapshots) for _unit, manifest in traces) == len(truth)
    texts = {path: (sample / "tree" / path).read_text(encoding="utf-8").split("\n", 1)[1] for path in truth}
    for manifest in initializers:  # a pass that changed its op never shows another op's text before it
        files = [s.file for s in manifest.snapshots]
        placed_after = dict(zip(files[1:], files))
        in_order = [path for path in truth if path in set(files)]
        for before, path in zip(in_order, in_order[1:]):
            if texts[before] == texts[path]:
                assert texts[placed_after[path]] == texts[path], path


def test_corpus_covers_declarations_before_dumps_and_shared_directories():
    assert {"calls_decls_ms", "calls_decls_ms_before", "nested_affine_ms", "iree_mlp_initializers_ms"} <= set(DUMPS)
    assert "iree_mlp_two_adaptors_ms" in DUMPS


def test_declarations_are_children_in_module_order():
    text = (DATA / "calls_decls_ms" / "input.mlir").read_text(encoding="utf-8")
    module = "module {\n" + "".join("  " + line + "\n" if line else "\n" for line in text.strip().splitlines()) + "}\n"
    segments = [segment for segment, _start, _end in child_ops(module, ("builtin_module_no-symbol-name",))]
    assert segments == [f"func_func_{name}" for name in ("ext_b", "ext_a", "zeta", "beta", "ext_c", "alpha", "gamma")]


def test_inliner_visits_callees_first():
    module = (
        "module {\n"
        "  func.func @a() {\n    func.call @c() : () -> ()\n    func.call @b() : () -> ()\n    return\n  }\n"
        "  func.func private @x()\n"
        "  func.func @b() {\n    return\n  }\n"
        "  func.func @c() {\n    func.call @b() : () -> ()\n    return\n  }\n"
        "}\n"
    )
    siblings = child_ops(module, ("builtin_module_no-symbol-name",))
    assert callees_first(module, siblings) == ["func_func_b", "func_func_c", "func_func_a", "func_func_x"]


def test_content_breaks_name_the_dump_that_contradicts_an_order():
    sample = DATA / "calls_decls_ms"
    files = {f.path: f for f in scan_tree(sample / "tree")}
    texts = {path: (sample / "tree" / path).read_text(encoding="utf-8").split("\n", 1)[1] for path in files}
    truth = [files[path] for path in true_order(sample)]
    text_of = lambda f: texts[f.path]  # noqa: E731
    # the inliner changes its callers and erases what it inlined, outside the op its pipeline ran on
    assert {f.dirs[-1] for f in content_breaks(truth, text_of)} <= {"func_func_beta", "func_func_gamma"}
    assert order_tree(list(files.values()), text_of) == truth
    # ext_a's dump shows zeta before cse folded its two multiplications: it cannot follow that cse
    ext_b, ext_a, zeta = truth[1], truth[2], truth[5]
    assert content_breaks([ext_b, zeta, ext_a], text_of) == [ext_a]


def test_tree_and_stream_of_one_run_without_module_scope_give_the_same_traces():
    # IREE without module scope, one run dumped as a tree and as a stream: four util.initializers, two
    # of them new in one gap (one counting on from where another stood), one new in a later gap
    sample = DATA / "iree_mlp_stream_op"
    from_tree = read_tree(sample / "tree")
    from_stream = read_stream(sample / "stream.txt")
    assert sorted(unit for unit, _manifest in from_stream) == sorted(unit for unit, _manifest in from_tree)
    assert [f"util.initializer #{number}" for number in (1, 2, 3, 4)] == [
        unit for unit, _manifest in from_stream if unit.startswith("util.initializer")
    ]
    tree_traces = {unit: [(s.name, s.sha256) for s in manifest.snapshots] for unit, manifest in from_tree}
    for unit, manifest in from_stream:
        assert [(s.name, s.sha256) for s in manifest.snapshots] == tree_traces[unit], unit
        assert manifest.warnings == ()
    written = writes(sample)  # dump i of the stream is write i
    for unit, manifest in from_stream:  # each op's dumps count one up from its first
        if unit.startswith("util.initializer"):
            counters = [int(written[s.header_index].rsplit("/", 1)[1].split("_")[1]) for s in manifest.snapshots]
            assert counters == list(range(counters[0], counters[0] + len(counters))), unit
    for unit, manifest in from_tree:  # the tree's too: the op counting on from another's number is its own
        if unit.startswith("util.initializer"):
            counters = [int(s.file.rsplit("/", 1)[1].split("_")[1]) for s in manifest.snapshots]
            assert counters == list(range(counters[0], counters[0] + len(counters))), unit


def test_stream_ops_without_a_symbol_tied_between_two_ops_say_so_once(tmp_path):
    # two util.initializers, then a gap where one run's text fits both equally: it goes to the first
    # in module order, and one warning says the other was as likely
    module = "module {{\n  util.initializer {{\n  }}\n}}\n"
    dump = "// -----// IR Dump After {pass_name}: {argument} //----- //\n{text}\n\n"
    first = "util.initializer {\n  %a = arith.constant 1 : i32\n  %b = arith.constant 2 : i32\n  util.return\n}\n"
    second = "util.initializer {\n  %a = arith.constant 1 : i32\n  %c = arith.constant 3 : i32\n  util.return\n}\n"
    between = "util.initializer {\n  %a = arith.constant 1 : i32\n  util.return\n}\n"
    stream = tmp_path / "stream.txt"
    stream.write_text(
        dump.format(pass_name="SymbolDCEPass", argument="symbol-dce", text=module.format())
        + dump.format(pass_name="CSEPass", argument="cse", text=first)
        + dump.format(pass_name="CSEPass", argument="cse", text=second)
        + dump.format(pass_name="SymbolDCEPass", argument="symbol-dce", text=module.format())
        + dump.format(pass_name="CSEPass", argument="cse", text=between),
        encoding="utf-8",
    )
    traces = dict(read_stream(stream))
    assert [len(traces[f"util.initializer #{n}"].snapshots) for n in (1, 2)] == [2, 1]
    [warning] = [w for manifest in traces.values() for w in manifest.warnings]
    assert "1 runs of a nested pipeline on ops without a symbol" in warning

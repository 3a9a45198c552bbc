#!/usr/bin/env python3
"""Large MLIR inputs for issue 29 item 2 (streams and trees in bounded memory), written under /tmp.

    python benchmarks/big_mlir_inputs.py stream --out /tmp/big/stream.txt --dumps 4612 --mb 1000
    python benchmarks/big_mlir_inputs.py stream --out /tmp/big/many.txt --dumps 100000 --small
    python benchmarks/big_mlir_inputs.py tree --out /tmp/big/tree --dumps 50000 --small
    python benchmarks/big_mlir_inputs.py dense --out /tmp/big/dense.txt --mb 100

The IR is a real mlir-opt-19 dump (../shared/samples/mlir/a1_short_mliropt19_calls_loops, its first
module-scope dump) grown to the size asked by repeating its functions under new names; each pass
then edits one constant in one function, so consecutive snapshots differ in a line, as real
passes mostly do. `--small` uses a one-function module (about 150 bytes a dump). `dense` writes
three dumps whose module holds one `dense<"0x…">` constant line of the size asked.
"""

from __future__ import annotations

import argparse
import os
import re
from pathlib import Path

SAMPLE = Path(os.environ.get("IR_TRACE_SHARED", Path(__file__).resolve().parents[2] / "shared"))
SAMPLE_STREAM = SAMPLE / "samples/mlir/a1_short_mliropt19_calls_loops/stream.txt"
HEADER = "// -----// IR Dump After {name} ({arg}) ('builtin.module' operation) //----- //\n"
PASSES = [("Canonicalizer", "canonicalize"), ("CSE", "cse"), ("Inliner", "inline"), ("SCCP", "sccp")]
SMALL = (
    "module {{\n  func.func @f{k}() -> i32 {{\n    %c = arith.constant {value} : i32\n    return %c : i32\n  }}\n}}\n"
)


def sample_functions() -> list[str]:
    """The functions of the sample's first dump, each as its lines' text."""
    data = SAMPLE_STREAM.read_text()
    first = data.split("\n", 1)[1].split("\n\n\n", 1)[0]
    body = first.split("\n")[1:-1]  # inside `module {` ... `}`
    functions, current = [], []
    for line in body:
        current.append(line)
        if line == "  }":
            functions.append("\n".join(current) + "\n")
            current = []
    return functions


def grown_module(size: int) -> list[str]:
    """Functions renamed copy by copy (`@scale_7`) until the module is about `size` bytes."""
    base = sample_functions()
    functions, total, copy = [], 0, 0
    while total < size:
        for function in base:
            renamed = re.sub(r"@(\w+)", rf"@\g<1>_{copy}", function)
            functions.append(renamed)
            total += len(renamed)
        copy += 1
    return functions


def edited(functions: list[str], dump: int) -> list[str]:
    """The module after pass `dump`: one function's first `arith.constant 0` gets the pass's number."""
    which = dump % len(functions)
    changed = list(functions)
    changed[which] = re.sub(r"constant [-\d.e+]+ :", f"constant {dump} :", changed[which], count=1)
    return changed


def write_stream(out: Path, dumps: int, size: int, small: bool) -> None:
    functions = [] if small else grown_module(size // max(dumps, 1))
    with out.open("w") as stream:
        for dump in range(dumps):
            name, arg = PASSES[dump % len(PASSES)]
            stream.write(HEADER.format(name=name, arg=arg))
            stream.write(_module(functions, dump, small))
            stream.write("\n\n")


def _module(functions: list[str], dump: int, small: bool) -> str:
    if small:
        return SMALL.format(k=dump % 7, value=dump % 5)
    return "module {\n" + "".join(edited(functions, dump)) + "}\n"


def write_tree(out: Path, dumps: int, size: int, small: bool) -> None:
    functions = [] if small else grown_module(size // max(dumps, 1))
    folder = out / "builtin_module_no-symbol-name"
    folder.mkdir(parents=True, exist_ok=True)
    for dump in range(dumps):
        name, arg = PASSES[dump % len(PASSES)]
        text = HEADER.format(name=name, arg=arg) + _module(functions, dump, small) + "\n\n"
        (folder / f"{dump}_{arg}.mlir").write_text(text)


def write_dense(out: Path, size: int) -> None:
    """Three dumps of a module with one huge constant line; the second pass edits another line."""
    blob = "0x" + "A5" * (size // 2)
    with out.open("w") as stream:
        for dump, value in enumerate((1, 2, 2)):
            name, arg = PASSES[dump]
            stream.write(HEADER.format(name=name, arg=arg))
            stream.write("module {\n  func.func @weights() -> tensor<8xi8> {\n")
            stream.write(f'    %cst = arith.constant dense<"{blob}"> : tensor<{size // 2}xi8>\n')
            stream.write(f"    %c = arith.constant {value} : i32\n    return %cst : tensor<8xi8>\n  }}\n}}\n\n\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("kind", choices=["stream", "tree", "dense"])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--dumps", type=int, default=1000)
    parser.add_argument("--mb", type=float, default=100, help="total size (stream, tree) or the line's (dense)")
    parser.add_argument("--small", action="store_true", help="one-function dumps of ~150 bytes")
    args = parser.parse_args()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    size = int(args.mb * 1e6)
    if args.kind == "stream":
        write_stream(args.out, args.dumps, size, args.small)
    elif args.kind == "tree":
        write_tree(args.out, args.dumps, size, args.small)
    else:
        write_dense(args.out, size)


if __name__ == "__main__":
    main()

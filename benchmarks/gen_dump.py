#!/usr/bin/env python3
"""Write a synthetic, seeded PyPTO-like passes_dump/ for the tests and the benchmarks.

    python benchmarks/gen_dump.py OUT_DIR [--functions F] [--lines L] [--passes P] [--seed S] [--noop-ratio R]

The program is F InCore kernels of about L statements each plus an Orchestration `main` that
calls them. Each pass either changes nothing (a share R of the passes, chosen at random) or
applies one to three edits a compiler pass would make: renaming SSA values, inserting memory
annotations or syncs, deleting a statement, outlining a new function. A pass that edits always
changes the text, so with `--noop-ratio 0` every adjacent pair of snapshots differs. Passes 4, 16,
28, ... also write a `.log` in the compiler's warning form. The same arguments always
write the same bytes; every snapshot is valid Python syntax.
"""

from __future__ import annotations

import argparse
import random
from dataclasses import dataclass, field
from pathlib import Path

PASS_NAMES = (
    "ConvertToSSA",
    "FlattenCallExpr",
    "NormalizeStmtStructure",
    "OutlineIncoreScopes",
    "InferTileShape",
    "InitMemRef",
    "MemoryReuse",
    "AllocateMemoryAddr",
    "InsertSync",
    "LowerPipelineLoops",
    "CanonicalizeLayout",
    "ExpandTileOps",
    "FuseElementwise",
    "HoistLoopInvariant",
    "DeadCodeElimination",
    "UnrollLoops",
)
BINARY_OPS = ("pl.add", "pl.sub", "pl.mul", "pl.div", "pl.maximum", "pl.matmul")
UNARY_OPS = ("pl.exp", "pl.neg", "pl.row_max", "pl.row_sum", "pl.cast")
TILE = "pl.Tile[[64, 128], pl.FP32]"
TENSOR = "pl.Tensor[[64, 128], pl.FP32]"
INDENT = "    "


@dataclass
class Function:
    """One @pl.function: its statements as (nesting depth inside the body, text)."""

    name: str
    kind: str
    body: list[tuple[int, str]] = field(default_factory=list)
    renames: int = 0

    def lines(self) -> list[str]:
        header = [
            f"{INDENT}@pl.function(type=pl.FunctionType.{self.kind})",
            f"{INDENT}def {self.name}(self, a: {TENSOR}, out: pl.Out[{TENSOR}]) -> {TENSOR}:",
        ]
        return header + [INDENT * (2 + depth) + text for depth, text in self.body]


def kernel_body(rng: random.Random, statements: int) -> list[tuple[int, str]]:
    """Tile loads, element-wise ops and an occasional loop of three statements, ending in a store."""
    body = [(0, f"t0: {TILE} = pl.load(a, [0, 0], [64, 128])")]
    value = 0
    while value < max(statements, 2) - 1:
        if rng.random() < 0.08 and value >= 2:
            body.append((0, f"for i{value} in pl.range(0, {rng.choice((2, 4, 8))}):"))
            for _ in range(3):
                body.append((1, operation(rng, value)))
                value += 1
        else:
            body.append((0, operation(rng, value)))
            value += 1
    body.append((0, f"pl.store(t{value}, [0, 0], out)"))
    body.append((0, "return out"))
    return body


def operation(rng: random.Random, value: int) -> str:
    """`t{value+1} = op(...)` over earlier values."""
    if rng.random() < 0.3:
        return f"t{value + 1}: {TILE} = {rng.choice(UNARY_OPS)}(t{value})"
    other = rng.randrange(0, value + 1)
    return f"t{value + 1}: {TILE} = {rng.choice(BINARY_OPS)}(t{value}, t{other})"


def orchestration(kernels: list[Function]) -> Function:
    calls = [(0, f"a = self.{kernel.name}(a, out)") for kernel in kernels]
    return Function("main", "Orchestration", calls + [(0, "return a")])


def render(functions: list[Function]) -> str:
    lines = ["# pypto.program: Program", "import pypto.language as pl", "", "", "@pl.program", "class Program:"]
    for function in functions:
        lines += function.lines()
        lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


# ---------- the edits a pass makes ----------


def rename_values(rng: random.Random, function: Function, step: int) -> None:
    """SSA renaming: every use of one value gets a versioned name."""
    names = [text.split(":", 1)[0] for depth, text in function.body if text.startswith("t") and ":" in text]
    old = rng.choice(names)
    new = f"{old}__ssa_v{step}"
    function.body = [(depth, _replace_word(text, old, new)) for depth, text in function.body]


def _replace_word(text: str, old: str, new: str) -> str:
    """`old` replaced where it is a whole identifier (t1 inside t12 stays)."""
    pieces, start = [], 0
    while (found := text.find(old, start)) >= 0:
        end = found + len(old)
        whole = (found == 0 or not _word_char(text[found - 1])) and (end == len(text) or not _word_char(text[end]))
        pieces.append(text[start:found] + (new if whole else old))
        start = end
    return "".join(pieces) + text[start:]


def _word_char(char: str) -> bool:
    return char.isalnum() or char == "_"


def insert_annotation(rng: random.Random, function: Function, step: int) -> None:
    """A memory allocation or a pipe sync before a top-level statement."""
    spots = [i for i, (depth, _text) in enumerate(function.body) if depth == 0 and i > 0]
    where = rng.choice(spots)
    if rng.random() < 0.5:
        line = f"mem_{step}: pl.MemRef = pl.alloc(pl.MemorySpace.Vec, {rng.randrange(0, 65536, 32)}, 32768)"
    else:
        line = f"pl.sync_src(pipe=pl.Pipe.V, event={step % 8})"
    function.body.insert(where, (0, line))


def delete_statement(rng: random.Random, function: Function) -> bool:
    """Drop a top-level statement that is neither the load, a loop header, the store nor the return."""
    spots = [
        i
        for i, (depth, text) in enumerate(function.body)
        if depth == 0 and 0 < i < len(function.body) - 2 and not text.endswith(":")
    ]
    if not spots:
        return False
    del function.body[rng.choice(spots)]
    return True


def outline(rng: random.Random, functions: list[Function], step: int) -> None:
    """A new InCore function appears after the one it was outlined from."""
    source = rng.randrange(len(functions) - 1)  # never after main
    name = f"{functions[source].name}_outlined_{step}"
    functions.insert(source + 1, Function(name, "InCore", kernel_body(rng, 6)))


def apply_pass(rng: random.Random, functions: list[Function], step: int) -> None:
    """One to three edits; at least one always changes the text."""
    for _ in range(rng.randint(1, 3)):
        kernel = rng.choice(functions[:-1])
        roll = rng.random()
        if roll < 0.35:
            rename_values(rng, kernel, step)
        elif roll < 0.6:
            insert_annotation(rng, kernel, step)
        elif roll < 0.85:
            if not delete_statement(rng, kernel):
                insert_annotation(rng, kernel, step)
        else:
            outline(rng, functions, step)


def warning_log(rng: random.Random, stem: str, text: str, kernel: Function) -> str:
    line = rng.randrange(1, text.count("\n") + 1)
    return (
        f"passes_dump/{stem}.py:{line}:9: warning: value computed in {kernel.name} is never used [UnusedValueCheck]\n"
    )


# ---------- the command ----------


def write_dump(out: Path, functions: int, lines: int, passes: int, seed: int, noop_ratio: float) -> None:
    rng = random.Random(seed)
    kernels = [Function(f"kernel_{i}", "InCore", kernel_body(rng, lines)) for i in range(functions)]
    program = kernels + [orchestration(kernels)]
    out.mkdir(parents=True, exist_ok=True)
    (out / "00_frontend.py").write_text(render(program), encoding="utf-8")
    for step in range(1, passes + 1):
        if rng.random() >= noop_ratio:
            apply_pass(rng, program, step)
        stem = f"{step:02d}_after_{PASS_NAMES[(step - 1) % len(PASS_NAMES)]}"
        text = render(program)
        (out / f"{stem}.py").write_text(text, encoding="utf-8")
        if step % 12 == 4:
            (out / f"{stem}.log").write_text(warning_log(rng, stem, text, rng.choice(program)), encoding="utf-8")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="the passes_dump/ directory to write (created if needed)")
    parser.add_argument("--functions", type=int, default=20, help="InCore kernels (default 20)")
    parser.add_argument("--lines", type=int, default=40, help="statements per kernel (default 40)")
    parser.add_argument("--passes", type=int, default=40, help="pass snapshots after the frontend (default 40)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--noop-ratio", type=float, default=0.4, help="share of passes that change nothing")
    args = parser.parse_args(argv)
    if args.functions < 1 or args.lines < 2 or args.passes < 0 or not 0 <= args.noop_ratio <= 1:
        parser.error("need --functions >= 1, --lines >= 2, --passes >= 0 and 0 <= --noop-ratio <= 1")
    return args


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    write_dump(args.out, args.functions, args.lines, args.passes, args.seed, args.noop_ratio)


if __name__ == "__main__":
    main()

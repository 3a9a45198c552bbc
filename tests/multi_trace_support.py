"""A program output directory holding several traces: PyPTO's passes_dump/ and two ptoas units'
MLIR trees (hand-written in the layout `--mlir-print-ir-tree-dir` writes, see samples/mlir/README.md)."""

from __future__ import annotations

from pathlib import Path

from conftest import FRONTEND, write_dump

MODULE = "builtin_module_no-symbol-name"


def mlir_header(kind: str, pass_text: str, op: str = "builtin.module", symbol: str = "") -> str:
    scope = f"('{op}' operation{': ' + symbol if symbol else ''})"
    return f"// -----// IR Dump {kind} {pass_text} {scope} //----- //"


def mlir_module(body: list[str]) -> str:
    return "\n".join(["module {", "  func.func @kernel(%arg0: memref<16xf32>) {", *body, "    return", "  }", "}"])


LOAD = "    %0 = memref.load %arg0[%c0] : memref<16xf32>"
CONST = "    %c0 = arith.constant 0 : index"
TWIN = "    %c0_0 = arith.constant 0 : index"
DEAD = "    %c7 = arith.constant 7 : index"
OPTIONS = "{max-iterations=10 top-down=true}"

# kernel_a: a plain After-only pipeline; kernel_b: a Before / After pair (trunk-style options), then a failure.
UNITS = {
    "kernel_a": [
        ("0_canonicalize.mlir", "After Canonicalizer (canonicalize)", [CONST, TWIN, DEAD, LOAD]),
        ("1_cse.mlir", "After CSE (cse)", [CONST, DEAD, LOAD]),
        ("2_symbol-dce.mlir", "After SymbolDCE (symbol-dce)", [CONST, LOAD]),
    ],
    "kernel_b": [
        ("0_canonicalize.mlir", f"Before CanonicalizerPass: canonicalize{OPTIONS}", [CONST, DEAD, LOAD]),
        ("1_canonicalize.mlir", f"After CanonicalizerPass: canonicalize{OPTIONS}", [CONST, LOAD]),
        ("2_test-pass-failure.mlir", "After TestFailurePass Failed (test-pass-failure)", [LOAD]),
    ],
}


def pypto_passes() -> list[tuple[str, str] | str]:
    """A frontend, a pass that adds a `kernel` line, a no-op."""
    call = "        return self.kernel(a)"
    grown = FRONTEND.replace(call, "        b = self.kernel(a)\n        return self.kernel(b)")
    return [FRONTEND, ("OutlineKernels", grown), ("Simplify", grown)]


def write_program(root: Path) -> Path:
    """`root`/prog with passes_dump/ and ptoas_passes/kernel_a, kernel_b; returns prog."""
    program = root / "prog"
    write_dump(program / "passes_dump", pypto_passes())
    for unit, files in UNITS.items():
        folder = program / "ptoas_passes" / unit / MODULE
        folder.mkdir(parents=True)
        for name, header, body in files:
            (folder / name).write_text(f"{mlir_header(*header.split(' ', 1))}\n{mlir_module(body)}\n\n\n", "utf-8")
    return program


def build_program_report(root: Path) -> Path:
    """The report of `write_program(root)`, built in-process (browser tests)."""
    from browser_support import build_report

    return build_report(write_program(root), root / "report.html", "--cache-dir", str(root / "cache"))
